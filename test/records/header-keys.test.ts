// Header keys that repeat from record to record share one string: the walk points a repeated key
// at its first occurrence and the eager decoder reuses the string on equal offsets. These check
// that every key still decodes to its own bytes, whatever the pattern, against a plain reading.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { decodeRecordBatches, encodeRecordBatch, type RecordInput } from '../../src/records/index.js';
import { concat } from './helpers.js';

const KEYS = ['trace-id', 'trace-ie', 'span', 'spa', '', 'trace-id-longer-than-eight', 'ключ', 'x'.repeat(70)];

function recordsOf(keyLists: number[][]): RecordInput[] {
  return keyLists.map((ks, i) => ({
    value: `v${i}`,
    headers: ks.map((k, j) => ({ key: KEYS[k], value: `h${i}.${j}` })),
  }));
}

function keysOf(blob: Uint8Array, lazy: boolean): string[][] {
  const out: string[][] = [];
  for (const b of decodeRecordBatches(blob, { lazy }).batches) {
    for (let i = 0; i < b.recordCount; i++) {
      const hs = lazy ? b.headersAt(i) : b.records[i].headers;
      out.push(hs.map((h) => h.key));
    }
  }
  return out;
}

describe('repeated header keys', () => {
  it('decode to their own bytes in any pattern, eager and lazy, over several batches, compressed or not', () => {
    fc.assert(fc.property(
      fc.array(fc.array(fc.array(fc.integer({ min: 0, max: KEYS.length - 1 }), { maxLength: 10 }), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.constantFrom('none', 'lz4', 'gzip' as const), { minLength: 3, maxLength: 3 }),
      (batches, codecs) => {
        const blob = concat(...batches.map((b, i) => encodeRecordBatch({ baseTimestamp: 0, compression: codecs[i], records: recordsOf(b) })));
        const expected = batches.flat().map((ks) => ks.map((k) => KEYS[k]));
        expect(keysOf(blob, false)).toEqual(expected);
        expect(keysOf(blob, true)).toEqual(expected);
      },
    ), { numRuns: 200 });
  });

  it('follow a buffer changed in place between decodes', () => {
    const blob = encodeRecordBatch({ baseTimestamp: 0, records: recordsOf([[0], [0], [0]]) });
    expect(keysOf(blob, false)).toEqual([['trace-id'], ['trace-id'], ['trace-id']]);
    // Same buffer, same offsets, other bytes: 'trace-id' -> 'trace-ie' everywhere (the CRC is not checked).
    for (let i = 0; i + 8 <= blob.length; i++) {
      if (new TextDecoder().decode(blob.subarray(i, i + 8)) === 'trace-id') blob[i + 7] = 'e'.charCodeAt(0);
    }
    const batches = decodeRecordBatches(blob, { verifyCrc: false }).batches;
    expect(batches[0].records.map((r) => r.headers[0].key)).toEqual(['trace-ie', 'trace-ie', 'trace-ie']);
  });
});
