// Mutation fuzzing of record batches of every codec (and legacy message sets): every input
// either decodes or throws RecordsError, quickly and within bounded memory; whatever decodes,
// re-encoded from its decoded form, decodes to the same batches.
import { describe, expect, it } from 'vitest';
import {
  COMPRESSION_NAMES, decodeRecordBatches, encodeRecordBatch, recordBatchesToJson, RecordsError,
  type RecordBatch,
} from '../../src/records/index.js';
import { toHex } from '../../src/text.js';
import { prng } from '../helpers/random.js';

const ITERATIONS = Math.ceil(Number(process.env.FUZZ_ITERATIONS ?? 200_000) / 4);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);

function corpus(): Uint8Array[] {
  const random = prng(SEED);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
  const out: Uint8Array[] = [];
  for (const compression of COMPRESSION_NAMES) {
    for (const count of [0, 1, 3]) {
      out.push(encodeRecordBatch({
        baseOffset: BigInt(Math.floor(random() * 1e6)), compression, baseTimestamp: 1_700_000_000_000n,
        producerId: 7n, producerEpoch: 1, baseSequence: 5, isTransactional: count === 3,
        records: Array.from({ length: count }, (_, i) => ({
          key: i === 1 ? null : bytes(1 + i), value: bytes(20 + i * 7),
          headers: i === 2 ? [{ key: 'h', value: bytes(3) }, { key: 'n', value: null }] : [],
          timestampDelta: i === 2 ? 2n ** 33n : i,
        })),
      }));
    }
  }
  return out;
}

function mutate(input: Uint8Array, random: () => number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  let b = input.slice();
  for (let r = 1 + int(3); r > 0; r--) {
    const at = int(Math.max(b.length, 1));
    switch (int(6)) {
      case 0: if (b.length) b[at] ^= 1 << int(8); break;
      case 1: if (b.length) b[at] = [0, 0xff, 0x7f, 0x80, 1][int(5)]; break;
      case 2: b = b.slice(0, at); break;
      case 3: b = Uint8Array.from([...b.subarray(0, at), ...Array.from({ length: 1 + int(6) }, () => int(256)), ...b.subarray(at)]); break;
      case 4: { // a length field of the batch header: batchLength (8), record count (57)
        const field = [8, 57][int(2)];
        if (field + 4 <= b.length) new DataView(b.buffer).setInt32(field, [0, -1, -2, 0x7fffffff, 1, 61][int(6)]);
        break;
      }
      case 5: b = Uint8Array.from([...b.subarray(0, at), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, ...b.subarray(at + 1)]); break;
    }
  }
  return b;
}

/** The decoded batch as an encoder input: everything the batch says about itself. */
function asInput(batch: RecordBatch) {
  return {
    baseOffset: batch.baseOffset, partitionLeaderEpoch: batch.partitionLeaderEpoch, compression: batch.compression,
    timestampType: batch.timestampType, isTransactional: batch.isTransactional, isControl: batch.isControl,
    hasDeleteHorizon: batch.hasDeleteHorizon, lastOffsetDelta: batch.lastOffsetDelta,
    baseTimestamp: batch.baseTimestamp, maxTimestamp: batch.maxTimestamp, producerId: batch.producerId,
    producerEpoch: batch.producerEpoch, baseSequence: batch.baseSequence,
    records: batch.records.map((r) => ({
      key: r.key, value: r.value, headers: r.headers, offsetDelta: r.offsetDelta,
      timestampDelta: r.timestampDeltaBig ?? r.timestampDelta, attributes: r.attributes,
    })),
  };
}

describe('records fuzzing', () => {
  it(`survives ${ITERATIONS} mutated batches of every codec, CRC checked and not`, () => {
    const inputs = corpus();
    const random = prng(SEED + 1);
    const failures: string[] = [];
    let decoded = 0;
    let slowest = 0;
    const started = performance.now();
    for (let i = 0; i < ITERATIONS; i++) {
      const input = mutate(inputs[i % inputs.length], random);
      const verifyCrc = i % 4 === 0; // mostly unchecked, so damage reaches the record walk
      const t0 = performance.now();
      try {
        const result = decodeRecordBatches(input, { verifyCrc, maxDecompressedBytes: 1 << 20 });
        decoded++;
        const v2 = result.batches.filter((b) => b.magic === 2);
        const again = v2.map((b) => decodeRecordBatches(encodeRecordBatch(asInput(b))).batches[0]);
        const [x, y] = [recordBatchesToJson(v2), recordBatchesToJson(again)].map((j) => JSON.stringify(j, (k, v) => (k === 'crc' ? 0 : v)));
        if (x !== y && failures.length < 10) failures.push(`${toHex(input)}: re-encoded batch differs`);
      } catch (error) {
        if (!(error instanceof RecordsError) && failures.length < 10) failures.push(`${toHex(input)}: ${String(error)}`);
      }
      slowest = Math.max(slowest, performance.now() - t0);
    }
    console.log(`records fuzz: ${ITERATIONS} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
      `${decoded} decoded, slowest ${slowest.toFixed(1)} ms, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
    expect(failures).toEqual([]);
  });
});
