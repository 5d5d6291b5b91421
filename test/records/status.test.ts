// The error convention both WebAssembly modules follow (status block, then a trap) as the facade
// sees it: only a trap that recorded a code is bad input, and a failed call leaves no state behind.
import { describe, expect, it } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch } from '../../src/records/index.js';
import { recordSpans } from '../../src/records/spans.js';
import { rawBatch, rawRecord } from './helpers.js';
import { failedStatus } from '../../src/wasm/status.js';
import { RECORDS_OFFSET, STATUS_BYTES, STATUS_CODE } from '../../src/wasm/abi.js';

describe('failedStatus', () => {
  const words = new Int32Array(STATUS_BYTES / 4 + 4);
  const trap = new WebAssembly.RuntimeError('unreachable');

  it('rethrows what is not a trap', () => {
    const error = new TypeError('from JS');
    words[4 + STATUS_CODE] = 3;
    expect(() => failedStatus(error, words, 16)).toThrow(error);
  });

  it('rethrows a trap that recorded no code (a fault of the module, not of the input)', () => {
    words[4 + STATUS_CODE] = 0;
    expect(() => failedStatus(trap, words, 16)).toThrow(trap);
  });

  it('gives the status block of a trap that recorded a code', () => {
    words[4 + STATUS_CODE] = 3;
    expect(failedStatus(trap, words, 16)).toBe(4);
  });
});

describe('a failed call', () => {
  it('leaves nothing behind: a walk in spans mode that traps does not change the next decode', () => {
    const records = Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: 'v'.repeat(i), headers: [{ key: 'h', value: 'x' }] }));
    const batch = encodeRecordBatch({ records });
    const before = decodeRecordBatches(batch).batches[0].records.map((r) => [r.key, r.value, r.headers]);
    const section = batch.subarray(RECORDS_OFFSET);
    expect(recordSpans(section.subarray(0, section.length - 2), records.length).failed).toBe(true);
    expect(decodeRecordBatches(batch).batches[0].records.map((r) => [r.key, r.value, r.headers])).toEqual(before);
    // Spans mode tolerates bytes after the last record; the decoder after it must not.
    const record = rawRecord({ value: new Uint8Array([1]) });
    recordSpans(section.subarray(0, 5), records.length);
    expect(() => decodeRecordBatches(rawBatch({}, [...record, ...record], 1))).toThrow(expect.objectContaining({ code: 'TRAILING_BYTES' }));
  });
});
