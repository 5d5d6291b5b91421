// JSON mapping of decoded batches (the CLI's --records output): int64 values as decimal strings,
// bytes as lowercase hex, absolute offset and timestamp per record.
import type { RecordBatch } from './batch.js';
import type { RecordBatchJson, RecordJson } from './types.js';
import { toHex as bytesToHex } from '../text.js';

export function toHex(b: Uint8Array | null): string | null {
  return b === null ? null : bytesToHex(b);
}

export function recordBatchToJson(batch: RecordBatch): RecordBatchJson {
  const records: RecordJson[] = [];
  for (const r of batch.records) {
    records.push({
      offset: r.offset.toString(),
      timestamp: r.timestamp.toString(),
      key: toHex(r.key),
      value: toHex(r.value),
      headers: r.headers.map((h) => ({ key: h.key, value: toHex(h.value) })),
    });
  }
  return {
    baseOffset: batch.baseOffset.toString(),
    partitionLeaderEpoch: batch.partitionLeaderEpoch,
    magic: batch.magic,
    crc: batch.crc,
    compression: batch.compression,
    timestampType: batch.timestampType,
    isTransactional: batch.isTransactional,
    isControl: batch.isControl,
    lastOffsetDelta: batch.lastOffsetDelta,
    baseTimestamp: batch.baseTimestamp.toString(),
    maxTimestamp: batch.maxTimestamp.toString(),
    producerId: batch.producerId.toString(),
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    records,
  };
}

export function recordBatchesToJson(batches: readonly RecordBatch[]): RecordBatchJson[] {
  return batches.map(recordBatchToJson);
}
