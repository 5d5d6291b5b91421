// kafka-wire records module: CRC-32C/CRC-32, RecordBatch v2 framing/walking/encoding, snappy and
// LZ4 frame (de)compression. Raw bindings; the JS side lives in src/records/.
import { STATUS } from './records/common';
import { crc32cOf, crc32Of } from './records/crc';
export { scanBatches, walkRecords, spanRecords } from './records/batch';
export { encodeRecords, finishBatch } from './records/encode';
export { snappyDecode, snappyEncode, snappyMaxEncoded } from './records/snappy';
export { lz4Decode, lz4Encode, lz4MaxFrame } from './records/lz4';

/** First free byte after static data (16-byte aligned). */
export function arenaBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

export function statusPtr(): usize {
  return STATUS;
}

export function crc32c(p: usize, len: usize, prev: u32): u32 {
  return crc32cOf(p, len, prev);
}

export function crc32(p: usize, len: usize, prev: u32): u32 {
  return crc32Of(p, len, prev);
}
export { splitRecords } from './records/split';
