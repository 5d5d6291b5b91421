// Damaged frames explained as far as they read (partial: true): the nodes before the failure are
// the whole frame's nodes, a malformed node stands at the failing offset, and nothing else throws.
import { describe, expect, it } from 'vitest';
import { apis } from '../../src/generated/catalogue.js';
import { KafkaWireError } from '../../src/errors.js';
import { decodeRequest, decodeResponse } from '../../src/index.js';
import { buildExplainTree, flattenTree, formatExplainText, hexLayout, sampleFrame, type ExplainNode } from '../../src/explain/index.js';

const triples = apis.flatMap((api) => {
  const out: [number, number, 'request' | 'response'][] = [];
  for (let v = api.request.validVersions[0]; v <= api.request.validVersions[1]; v++) out.push([api.apiKey, v, 'request'], [api.apiKey, v, 'response']);
  return out;
});

/** The frame cut to `keep` bytes, its size prefix honest about the cut. */
function cut(frame: Uint8Array, keep: number): Uint8Array {
  const out = frame.slice(0, keep);
  new DataView(out.buffer).setInt32(0, keep - 4);
  return out;
}

const leafLines = (nodes: ExplainNode[]) => nodes.filter((n) => n.children.length === 0).map((n) => `${n.name} ${n.offset} ${n.size} ${n.display}`);

describe('explain with partial: true', () => {
  it('explains every cut of every sample up to the failing offset, then a malformed node', () => {
    let explained = 0;
    for (const [apiKey, version, direction] of triples) {
      const whole = sampleFrame(apiKey, direction, version);
      const options = { direction, apiKey, apiVersion: version, partial: true } as const;
      const wholeLeaves = leafLines(flattenTree(buildExplainTree(whole, options).root));
      for (let keep = 8; keep < whole.length; keep += Math.max(1, Math.floor(whole.length / 6))) {
        const frame = cut(whole, keep);
        const decodeError = (() => {
          try {
            if (direction === 'request') decodeRequest(frame);
            else decodeResponse(frame, apiKey, version);
          } catch (error) {
            return error as KafkaWireError;
          }
          return undefined;
        })();
        const tree = buildExplainTree(frame, options);
        // The same failure decode reports, at the same offset and path.
        expect(tree.error?.message, `${apiKey} v${version} ${direction} cut at ${keep}`).toBe(decodeError?.message);
        if (tree.error === undefined) continue;
        const nodes = flattenTree(tree.root);
        const malformed = nodes.filter((n) => n.name === '[malformed]');
        expect(malformed).toHaveLength(1);
        expect(malformed[0].offset).toBe(Math.max(4, tree.error.offset));
        expect(malformed[0].offset + malformed[0].size).toBe(frame.length);
        // Every leaf read before the failure is the whole frame's leaf.
        for (const n of nodes) {
          if (n.children.length > 0 || n === malformed[0] || n.inflated) continue;
          expect(n.offset + n.size).toBeLessThanOrEqual(frame.length);
          if (n.name !== 'size' || n.offset !== 0) expect(wholeLeaves).toContain(`${n.name} ${n.offset} ${n.size} ${n.display}`);
        }
        expect(formatExplainText(tree)).toContain('[malformed]');
        hexLayout(frame, tree);
        explained++;
      }
    }
    expect(explained).toBeGreaterThan(triples.length);
  });

  it('reads a frame whose size prefix disagrees as far as its bytes go', () => {
    const whole = sampleFrame(3, 'request', 12);
    // Cut short (a capture's snap length): the tree up to the cut, the error still the prefix's.
    const short = buildExplainTree(whole.slice(0, 13), { direction: 'request', partial: true });
    expect(short.error?.code).toBe('FRAME_SIZE_MISMATCH');
    const text = formatExplainText(short);
    expect(text).toContain('+-- size int32 = 33 [0x0000, 4B] number of bytes that follow');
    expect(text).toContain('    +-- correlation_id int32 = 0 [0x0008, 4B]');
    expect(text).toContain('    +-- client_id nullable_string [0x000c, 1B]');
    expect(text).toMatch(/\[malformed\] \(TRUNCATED\) \[0x000c, 1B\] the input ends before the value does \(the size prefix says 33 bytes follow;/);
    // Longer (frames run together): the prefix's frame whole, then the rest malformed.
    const long = new Uint8Array([...whole, 1, 2, 3]);
    const tree = buildExplainTree(long, { direction: 'request', partial: true });
    expect(tree.error?.code).toBe('FRAME_SIZE_MISMATCH');
    expect(tree.root.children.map((n) => n.name)).toEqual(['Frame', 'RequestHeader', 'MetadataRequest', '[malformed]']);
    expect(tree.root.children[2].size).toBe(whole.length - 15);
    expect(tree.root.children[3]).toMatchObject({ offset: whole.length, size: 3, description: 'the size prefix says 33 bytes follow; 36 do' });
  });

  it('still throws without partial', () => {
    const frame = cut(sampleFrame(3, 'request', 12), 20);
    expect(() => buildExplainTree(frame, { direction: 'request' })).toThrow(KafkaWireError);
  });

  it('shows nothing of an earlier frame when a frame is refused before its scan runs', () => {
    // A Metadata scan first leaves its tape in memory; the ApiVersions frame over the size limit
    // must not be explained with that tape's values.
    buildExplainTree(sampleFrame(3, 'request', 12), { direction: 'request' });
    const frame = sampleFrame(18, 'request', 3);
    const tree = buildExplainTree(frame, { direction: 'request', partial: true, limits: { maxFrameSize: 4 } });
    expect(tree.error?.code).toBe('FRAME_LIMIT');
    // Nothing was read: the size prefix, then the rest malformed (a stale tape gave a header
    // with negative sizes and another frame's values).
    expect(flattenTree(tree.root).map((n) => [n.name, n.offset, n.size]))
      .toEqual([['ApiVersionsRequest', 0, frame.length], ['Frame', 0, 4], ['size', 0, 4], ['[malformed]', 4, frame.length - 4]]);
  });
});
