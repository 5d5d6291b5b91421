// Records read where the frame already is: the codec and records modules share one WebAssembly
// memory (src/wasm/memory.ts), so a Fetch decode's records hooks read each partition's records in
// the frame's copy instead of copying them again, and a records error names the field's path in the
// frame and its offset in the frame. Also: the layout of the shared memory, and decodes that nest
// and interleave codec and records calls while memory grows under a held frame.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeResponse, encodeResponse, newMessage } from '../../src/codec/by-key.js';
import { decodeResponseFor } from '../../src/codec/by-definition.js';
import { codecWasm } from '../../src/codec/engine.js';
import { fetchApi } from '../../src/generated/apis/Fetch.js';
import { crc32c, decodeRecordBatches, encodeRecordBatch, RecordsError } from '../../src/records/index.js';
import { wasm } from '../../src/records/engine.js';
import { sharedMemory, top } from '../../src/wasm/memory.js';
import { ARENA_BASE, CRC32C_TABLE_BASE, CRC_OFFSET } from '../../src/wasm/abi.js';
import { errorOf } from '../helpers/errors.js';

/** A Metadata v12 response of `topics` topics (its decode compiles the codec's Metadata programs). */
function metadataFrame(topics: number, version = 12): Uint8Array {
  return encodeResponse(3, version, { correlationId: 2 }, newMessage(3, 'response', version, {
    brokers: [{ nodeId: 1, host: 'broker-1', port: 9092, rack: null }],
    topics: Array.from({ length: topics }, (_, i) => ({
      errorCode: 0, name: `t${i}`, isInternal: false,
      partitions: Array.from({ length: 3 }, (_, p) => ({
        errorCode: 0, partitionIndex: p, leaderId: 1, leaderEpoch: i, replicaNodes: [1, 2, 3], isrNodes: [1, 2], offlineReplicas: [],
      })),
    })),
  }));
}

/** A batch of `n` records whose bytes differ from any other batch's (its base offset). */
function batchOf(baseOffset: bigint, n = 3, valueBytes = 8, compression: 'none' | 'lz4' | 'snappy' = 'none'): Uint8Array {
  return encodeRecordBatch({
    baseOffset, baseTimestamp: 1_700_000_000_000n, compression,
    records: Array.from({ length: n }, (_, i) => ({
      key: `k${i}`, value: new Uint8Array(valueBytes).fill(i & 0xff), headers: [{ key: 'h', value: `${baseOffset}` }], timestampDelta: i,
    })),
  });
}

/** A Fetch v12 response: one topic whose partition p carries `records[p]`. */
function fetchFrame(records: Uint8Array[]): Uint8Array {
  return encodeResponse(1, 12, { correlationId: 9 }, newMessage(1, 'response', 12, {
    responses: [{ topic: 'orders', partitions: records.map((r, p) => ({
      partitionIndex: p, errorCode: 0, highWatermark: 1000n, lastStableOffset: 1000n, logStartOffset: 0n,
      abortedTransactions: null, preferredReadReplica: -1, records: r,
    })) }],
  }));
}

/** Where `part` starts in `whole`, found by comparing bytes (independently of any decoder). */
function indexOfBytes(whole: Uint8Array, part: Uint8Array): number {
  outer: for (let i = 0; i + part.length <= whole.length; i++) {
    for (let j = 0; j < part.length; j++) if (whole[i + j] !== part[j]) continue outer;
    return i;
  }
  return -1;
}

const thrown = (run: () => unknown): RecordsError => errorOf(RecordsError, run);

/** Each partition's records decoded from a copy of their bytes, as a records-only caller would. */
function decodedApart(frame: Uint8Array): unknown[] {
  return decodeResponse(frame, 1, 12).body.responses[0].partitions.map((p: any) => decodeRecordBatches(p.records.slice()));
}

afterEach(() => {
  vi.restoreAllMocks();
});

// First in the file, so that the codec keeps programs before the records module exists.
describe('the shared memory', () => {
  it('lets the records module, instantiated after the codec has kept programs, leave them intact', () => {
    const metadata = metadataFrame(5);
    const before = decodeResponse(metadata, 3, 12);
    const batch = batchOf(5n);
    expect(decodeRecordBatches(batch).batches[0].records.map((r) => r.offset)).toEqual([5n, 6n, 7n]);
    expect(decodeResponse(metadata, 3, 12)).toEqual(before);
    expect(decodeResponse(metadataFrame(7, 9), 3, 9).body.topics).toHaveLength(7);
  });

  it('lays the modules\' static data out below the arena', () => {
    // The codec's static data ends below the records' CRC-32C table, whose data ends below the arena.
    expect(codecWasm().heapBase()).toBeLessThanOrEqual(CRC32C_TABLE_BASE);
    expect(wasm().arenaBase()).toBeLessThanOrEqual(ARENA_BASE);
    // The table the records module built at instantiation is intact after the codec's use.
    decodeResponse(metadataFrame(50), 3, 12);
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
    // Every call gives its scratch back (once its programs are kept).
    const frame = fetchFrame([batchOf(0n), batchOf(10n, 2, 8, 'lz4')]);
    decodeResponse(frame, 1, 12, { records: true });
    const mark = top;
    decodeResponse(frame, 1, 12, { records: true });
    expect(top).toBe(mark);
  });
});

describe('records read in the frame', () => {
  it('copies a Fetch frame into WebAssembly memory once: no partition\'s records are copied again', () => {
    const records = [batchOf(0n), batchOf(100n, 4, 300, 'lz4'), batchOf(200n, 2, 50, 'snappy'), Uint8Array.from([...batchOf(300n), ...batchOf(303n)])];
    const frame = fetchFrame(records);
    const expected = decodedApart(frame);
    decodeResponse(frame, 1, 12, { records: true }); // compiles what the decode needs
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    const decoded = decodeResponse(frame, 1, 12, { records: true });
    // Copies whose source is the frame or a view of part of it: the frame, whole, once.
    const copies = set.mock.calls.filter(([source]) => ArrayBuffer.isView(source) && source.buffer === frame.buffer);
    expect(copies.map(([source]) => (source as Uint8Array).length)).toEqual([frame.length]);
    set.mockRestore();
    expect(decoded.body.responses[0].partitions.map((p: any) => p.records)).toEqual(expected);
  });

  it('reads records in place through the per-API call and in a custom hook, and copies records outside a hook', () => {
    const frame = fetchFrame([batchOf(0n), batchOf(50n, 3, 20, 'lz4')]);
    const expected = decodedApart(frame);
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    const body = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (r: Uint8Array) => decodeRecordBatches(r, { lazy: true }) }).body;
    expect(set.mock.calls.filter(([source]) => ArrayBuffer.isView(source) && source.buffer === frame.buffer)).toHaveLength(1);
    set.mockClear();
    // Outside any hook the records are copied in, as before.
    const plain = decodeResponse(frame, 1, 12).body.responses[0].partitions[1].records as Uint8Array;
    set.mockClear();
    decodeRecordBatches(plain);
    expect(set.mock.calls.filter(([source]) => source === plain)).toHaveLength(1);
    set.mockRestore();
    body.responses[0].partitions.forEach((p, i) => {
      const lazy = p.records!.batches[0];
      const eager = (expected[i] as any).batches[0];
      expect(Array.from({ length: lazy.recordCount }, (_, r) => lazy.offsetAt(r))).toEqual(eager.records.map((r: any) => r.offset));
    });
  });
});

describe('a records error inside a frame', () => {
  const batches = [batchOf(0n), batchOf(10n), batchOf(20n), batchOf(30n)];

  it('names the records field\'s path in the frame and the offset in the frame (a CRC mismatch)', () => {
    const frame = fetchFrame(batches);
    const at = indexOfBytes(frame, batches[3]);
    expect(at).toBeGreaterThan(0);
    frame[at + CRC_OFFSET] ^= 0xff;
    const error = thrown(() => decodeResponse(frame, 1, 12, { records: true }));
    expect(error.code).toBe('CRC_MISMATCH');
    expect(error.path).toBe('FetchResponse.responses[0].partitions[3].records.batches[0].crc');
    expect(error.offset).toBe(at + CRC_OFFSET);
    expect(error.message).toBe(`checksum mismatch: computed 0x${crc32c(batches[3].subarray(21)).toString(16).padStart(8, '0')} at ${error.path} (byte ${at + CRC_OFFSET})`);
    // The same through the per-API call; and the records alone still count from their own start.
    const perApi = thrown(() => decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: decodeRecordBatches }));
    expect([perApi.path, perApi.offset]).toEqual([error.path, error.offset]);
    const records = decodeResponse(frame, 1, 12).body.responses[0].partitions[3].records as Uint8Array;
    const alone = thrown(() => decodeRecordBatches(records));
    expect([alone.code, alone.path, alone.offset]).toEqual(['CRC_MISMATCH', 'batches[0].crc', CRC_OFFSET]);
  });

  it('in a later batch of the field, and in a field the facade checks (the record limit)', () => {
    const second = batchOf(40n, 5);
    const frame = fetchFrame([batches[0], Uint8Array.from([...batches[1], ...second])]);
    const at = indexOfBytes(frame, second);
    frame[at + CRC_OFFSET + 2] ^= 1;
    const error = thrown(() => decodeResponse(frame, 1, 12, { records: true }));
    expect([error.code, error.path, error.offset]).toEqual(['CRC_MISMATCH', 'FetchResponse.responses[0].partitions[1].records.batches[1].crc', at + CRC_OFFSET]);

    const good = fetchFrame([batches[0], second]);
    const limited = thrown(() => decodeResponse(good, 1, 12, { records: { maxRecordsPerBatch: 4 } }));
    const start = indexOfBytes(good, second);
    expect([limited.code, limited.path, limited.offset]).toEqual(['RECORD_LIMIT', 'FetchResponse.responses[0].partitions[1].records.batches[0].recordCount', start + 57]);
  });
});

describe('nested and interleaved calls while a frame is held', () => {
  it('a hook that encodes records, checksums, decodes messages and grows memory leaves every result right', () => {
    const records = [batchOf(0n, 3, 10), batchOf(10n, 3, 10, 'lz4'), batchOf(20n, 2, 10, 'snappy')];
    const frame = fetchFrame(records);
    const expected = decodedApart(frame);
    const grown: number[] = [];
    let calls = 0;
    const body = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (r: Uint8Array) => {
      const before = sharedMemory().buffer.byteLength;
      // Records work that takes (and gives back) scratch above the held frame, growing memory.
      const big = encodeRecordBatch({ baseTimestamp: 0, compression: 'lz4', records: [{ key: null, value: new Uint8Array(before + (1 << 20)).fill(7) }] });
      expect(decodeRecordBatches(big).batches[0].records[0].value!.length).toBe(before + (1 << 20));
      // A codec decode of a message not decoded before (its programs are kept mid-decode).
      const version = [11, 10, 8][calls++];
      const metadata = metadataFrame(200, version);
      expect(decodeResponse(metadata, 3, version).body.topics).toHaveLength(200);
      expect(crc32c(r)).toBe(crc32c(r.slice()));
      grown.push(sharedMemory().buffer.byteLength - before);
      return decodeRecordBatches(r);
    } }).body;
    expect(calls).toBe(3);
    expect(grown.every((g) => g > 0)).toBe(true);
    expect(body.responses[0].partitions.map((p) => p.records)).toEqual(expected);
    expect(decodeResponse(frame, 1, 12, { records: true }).body.responses[0].partitions.map((p: any) => p.records)).toEqual(expected);
  });

  it('records that grow memory as they are decompressed in the held frame, the next partition read after', () => {
    // Compressed, these take little of the frame; decompressed, more memory than there is yet.
    const before = sharedMemory().buffer.byteLength;
    const values = 40;
    const size = Math.ceil(before / values) + 65536;
    const expand = encodeRecordBatch({ baseOffset: 1000n, baseTimestamp: 0, compression: 'lz4',
      records: Array.from({ length: values }, (_, i) => ({ key: `k${i}`, value: new Uint8Array(size).fill(i) })) });
    expect(expand.length).toBeLessThan(before / 4);
    const frame = fetchFrame([batchOf(0n), expand, batchOf(2000n, 50, 20)]);
    const [first, second, third] = decodeResponse(frame, 1, 12, { records: true }).body.responses[0].partitions.map((p: any) => p.records.batches[0]);
    expect(sharedMemory().buffer.byteLength).toBeGreaterThan(before + values * size);
    expect(first.records.map((r: any) => r.offset)).toEqual([0n, 1n, 2n]);
    expect(second.records.map((r: any) => [r.offset, r.value.length, r.value[size - 1]])).toEqual(
      Array.from({ length: values }, (_, i) => [1000n + BigInt(i), size, i]));
    expect(third.records).toEqual(decodeRecordBatches(batchOf(2000n, 50, 20)).batches[0].records);
  });

  it('a hook that decodes another Fetch with records inline, then its own records, from the right frame', () => {
    const outer = fetchFrame([batchOf(0n), batchOf(10n)]);
    const inner = fetchFrame([batchOf(100n, 5, 30, 'lz4'), batchOf(110n), batchOf(120n)]);
    const expectedOuter = decodedApart(outer);
    const expectedInner = decodeResponse(inner, 1, 12, { records: true });
    const corrupt = inner.slice();
    const at = indexOfBytes(corrupt, batchOf(120n));
    corrupt[at + CRC_OFFSET] ^= 0xff;
    const body = decodeResponse(outer, 1, 12, { records: { verifyCrc: true } }).body;
    const hooked = decodeResponseFor(fetchApi, outer, 12, { recordsDecoder: (r: Uint8Array) => {
      expect(decodeResponse(inner, 1, 12, { records: true })).toEqual(expectedInner);
      // An error inside the inner decode is located in the inner frame.
      const error = thrown(() => decodeResponse(corrupt, 1, 12, { records: true }));
      expect([error.path, error.offset]).toEqual(['FetchResponse.responses[0].partitions[2].records.batches[0].crc', at + CRC_OFFSET]);
      return decodeRecordBatches(r);
    } }).body;
    expect(hooked.responses[0].partitions.map((p) => p.records)).toEqual(expectedOuter);
    expect(body.responses[0].partitions.map((p: any) => p.records)).toEqual(expectedOuter);
  });
});

describe('records that carry where they lie', () => {
  it('read in place only while their decode\'s hooks run: kept for later, they are copied and read right', () => {
    const records = [batchOf(0n, 4, 40), batchOf(10n, 3, 200, 'lz4')];
    const frame = fetchFrame(records);
    const expected = decodedApart(frame);
    const kept: Uint8Array[] = [];
    decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (r: Uint8Array) => (kept.push(r), r.length) });
    // Overwrite the arena where the frame's copy lay, then read what the hooks kept.
    decodeResponse(fetchFrame([batchOf(500n, 20, 300), batchOf(600n, 20, 300)]), 1, 12, { records: true });
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    expect(kept.map((r) => decodeRecordBatches(r))).toEqual(expected);
    expect(set.mock.calls.filter(([source]) => ArrayBuffer.isView(source) && source.buffer === frame.buffer)).toHaveLength(2);
    // Their errors count from the records' own start then: the frame is no longer held.
    const corrupt = fetchFrame([batchOf(0n), batchOf(10n)]);
    corrupt[indexOfBytes(corrupt, batchOf(10n)) + CRC_OFFSET] ^= 1;
    const late: Uint8Array[] = [];
    decodeResponseFor(fetchApi, corrupt, 12, { recordsDecoder: (r: Uint8Array) => late.push(r) });
    const error = thrown(() => decodeRecordBatches(late[1]));
    expect([error.code, error.path, error.offset]).toEqual(['CRC_MISMATCH', 'batches[0].crc', CRC_OFFSET]);
  });

  it('an outer hook reading an inner decode\'s records after it returned, and its own, each from the right place', () => {
    const outer = fetchFrame([batchOf(0n), batchOf(10n, 2, 64, 'snappy')]);
    const inner = fetchFrame([batchOf(100n, 5, 30, 'lz4'), batchOf(110n)]);
    const [expectedOuter, expectedInner] = [decodedApart(outer), decodedApart(inner)];
    const innerKept: Uint8Array[] = [];
    const fromInner: unknown[] = [];
    const hooked = decodeResponseFor(fetchApi, outer, 12, { recordsDecoder: (r: Uint8Array) => {
      decodeResponseFor(fetchApi, inner, 12, { recordsDecoder: (ir: Uint8Array) => innerKept.push(ir) });
      fromInner.push(...innerKept.splice(0).map((ir) => decodeRecordBatches(ir)));
      return decodeRecordBatches(r);
    } }).body;
    expect(hooked.responses[0].partitions.map((p) => p.records)).toEqual(expectedOuter);
    expect(fromInner).toEqual([...expectedInner, ...expectedInner]);
  });

  it('hand the hook a Uint8Array whose derived views (a record\'s key and value) are plain', () => {
    const frame = fetchFrame([batchOf(0n)]);
    const seen: Uint8Array[] = [];
    const body = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (r: Uint8Array) => (seen.push(r), decodeRecordBatches(r)) }).body;
    expect(seen[0]).toBeInstanceOf(Uint8Array);
    expect(Array.from(seen[0])).toEqual(Array.from(batchOf(0n)));
    const record = body.responses[0].partitions[0].records.batches[0].records[0];
    expect(Object.getPrototypeOf(record.value)).toBe(Uint8Array.prototype);
    expect(Object.getPrototypeOf(seen[0].subarray(1))).toBe(Uint8Array.prototype);
  });
});

describe('what the hooks return', () => {
  it('is set once every hook has run, so a later field\'s error is located whatever earlier hooks returned (a cycle)', () => {
    const frame = fetchFrame([batchOf(0n), batchOf(10n), batchOf(20n)]);
    const at = indexOfBytes(frame, batchOf(20n));
    frame[at + CRC_OFFSET] ^= 0xff;
    const error = thrown(() => decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (r: Uint8Array) => {
      const cyclic: any = { batches: decodeRecordBatches(r).batches };
      cyclic.self = cyclic;
      return cyclic;
    } }));
    expect([error.code, error.path, error.offset]).toEqual(['CRC_MISMATCH', 'FetchResponse.responses[0].partitions[2].records.batches[0].crc', at + CRC_OFFSET]);
    const fine = fetchFrame([batchOf(0n), batchOf(10n)]);
    const decoded = decodeResponseFor(fetchApi, fine, 12, { recordsDecoder: (r: Uint8Array) => decodeRecordBatches(r).batches.length }).body;
    expect(decoded.responses[0].partitions.map((p) => p.records)).toEqual([1, 1]);
  });
});
