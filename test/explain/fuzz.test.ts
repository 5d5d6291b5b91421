// explain on damaged frames: a tree (partial or not) or a KafkaWireError, never anything else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apis } from '../../src/generated/catalogue.js';
import { KafkaWireError } from '../../src/errors.js';
import { buildExplainTree, flattenTree, formatExplainText, hexLayout, sampleFrame } from '../../src/explain/index.js';

const triples = apis.flatMap((api) => {
  const out: [number, number, 'request' | 'response'][] = [];
  for (let v = api.request.validVersions[0]; v <= api.request.validVersions[1]; v++) out.push([api.apiKey, v, 'request'], [api.apiKey, v, 'response']);
  return out;
});

describe('explain on damaged frames', () => {
  it('returns a tree or throws KafkaWireError', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: triples.length - 1 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      (i, flips) => {
        const [apiKey, version, direction] = triples[i];
        const frame = sampleFrame(apiKey, direction, version);
        for (const [at, value] of flips) {
          const p = 4 + (at % (frame.length - 4)); // keep the size prefix, so the scan goes deep
          frame[p] = value;
        }
        // With partial, a damaged frame gives a tree whose nodes stay within the frame.
        for (const partial of [false, true]) {
          try {
            const tree = buildExplainTree(frame, { direction, apiKey, apiVersion: version, partial });
            for (const n of flattenTree(tree.root)) {
              if (!n.inflated) expect(n.offset + n.size).toBeLessThanOrEqual(frame.length);
            }
            formatExplainText(tree);
            hexLayout(frame, tree);
          } catch (error) {
            if (!(error instanceof KafkaWireError)) throw error;
          }
        }
      },
    ), { numRuns: 3000 });
  });

  it('explains damaged record batches without throwing', () => {
    fc.assert(fc.property(fc.nat(), fc.integer({ min: 0, max: 255 }), (at, value) => {
      const frame = sampleFrame(0, 'request', 3);
      frame[40 + (at % 61)] = value; // inside the RecordBatch
      const text = formatExplainText(buildExplainTree(frame, { direction: 'request' }));
      expect(text).toContain('Records records = 61 bytes');
    }), { numRuns: 2000 });
  });
});
