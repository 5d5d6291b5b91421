// The smallest legal instance of every key, version and direction: encodes, decodes and
// re-encodes to the same bytes, and explains with every byte attributed to a field.
import { describe, expect, it } from 'vitest';
import { apis } from '../../src/generated/catalogue.js';
import { crc32c } from '../../src/records/index.js';
import { catalogueTriples } from '../helpers/shared.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, type Direction } from '../../src/codec/by-key.js';
import {
  buildExplainTree, EMPTY_BATCH_SIZE, hexLayout, sampleFrame, sampleHeader, sampleMessage, sampleRecordBatch,
  type ExplainNode,
} from '../../src/explain/index.js';

const triples: [number, number, Direction][] = [];
for (const api of apis) {
  for (const direction of ['request', 'response'] as const) {
    const message = direction === 'request' ? api.request : api.response;
    for (let v = message.validVersions[0]; v <= message.validVersions[1]; v++) triples.push([api.apiKey, v, direction]);
  }
}

/** Children lie inside their parent, in order, without overlapping. */
function checkNesting(n: ExplainNode, path: string): void {
  let at = n.offset;
  for (const c of n.children) {
    if (c.inflated) continue;
    expect(c.offset, `${path}/${c.name} starts inside its parent`).toBeGreaterThanOrEqual(at);
    expect(c.offset + c.size, `${path}/${c.name} ends inside its parent`).toBeLessThanOrEqual(n.offset + n.size);
    at = c.offset + c.size;
    checkNesting(c, `${path}/${c.name}`);
  }
}

describe('sample messages', () => {
  it('covers every key/version/direction triple of the catalogue', async () => {
    expect(triples.length).toBe(await catalogueTriples());
  });

  it('builds the empty RecordBatch v2: 61 bytes, batchLength 49, magic 2, valid CRC-32C', () => {
    const batch = sampleRecordBatch();
    const view = new DataView(batch.buffer);
    expect(batch.length).toBe(EMPTY_BATCH_SIZE);
    expect(view.getBigInt64(0)).toBe(0n);
    expect(view.getInt32(8)).toBe(49);
    expect(view.getInt8(16)).toBe(2);
    expect(view.getUint32(17)).toBe(crc32c(batch.subarray(21)));
    expect(batch.subarray(21, 57).every((b) => b === 0)).toBe(true);
    expect(view.getInt32(57)).toBe(0);
  });

  it('sets numeric fields to zero even where the schema default is not', () => {
    // AlterPartitionReassignments TimeoutMs defaults to 60000.
    expect(sampleMessage(45, 'request', 0).timeoutMs).toBe(0);
    const body = sampleMessage(45, 'request', 0);
    expect(body.topics).toHaveLength(1);
    expect(body.topics[0].partitions[0].replicas).toEqual([0]);
  });

  it.each(triples)('api %i v%i %s: encode, decode, re-encode, explain', (apiKey, version, direction) => {
    const frame = sampleFrame(apiKey, direction, version);
    let again: Uint8Array;
    if (direction === 'request') {
      const decoded = decodeRequest(frame);
      expect(decoded.apiKey).toBe(apiKey);
      expect(decoded.apiVersion).toBe(version);
      expect(decoded.header.correlationId).toBe(0);
      again = encodeRequest(decoded.header, decoded.body);
    } else {
      const decoded = decodeResponse(frame, apiKey, version);
      again = encodeResponse(apiKey, version, decoded.header, decoded.body);
    }
    expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(frame).toString('hex'));
    // Same bytes from the header/body helpers.
    const header = sampleHeader(apiKey, direction, version);
    const body = sampleMessage(apiKey, direction, version);
    const direct = direction === 'request' ? encodeRequest(header, body) : encodeResponse(apiKey, version, header, body);
    expect(direct).toEqual(frame);

    const tree = buildExplainTree(frame, { direction, apiKey, apiVersion: version });
    expect(tree.root.size).toBe(frame.length);
    checkNesting(tree.root, tree.root.name);
    const layout = hexLayout(frame, tree);
    for (const row of layout.rows) {
      for (const b of row.bytes) {
        expect(b.node, `byte ${b.offset} belongs to a field`).toBeGreaterThan(0);
        // No gaps: a byte's node is a leaf, except the length prefix of a records field.
        const owner = layout.nodes[b.node];
        if (owner.type !== 'records') expect(owner.children, `byte ${b.offset} in ${owner.name}`).toEqual([]);
      }
    }
  });
});
