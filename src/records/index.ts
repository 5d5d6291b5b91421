// Public API of the records layer (`kafka-wire/records`): RecordBatch v2 and legacy message set
// decoding, RecordBatch v2 encoding, compression codecs, CRC-32C/CRC-32 and the JSON mapper.
//
//   const { batches, truncatedBytes } = decodeRecordBatches(fetchRecordsBytes);      // eager
//   const lazy = decodeRecordBatches(bytes, { lazy: true }).batches[0];             // columnar
//   lazy.valueAt(i); lazy.offsetAt(i); lazy.record(i); lazy.records;
//   const bytes = encodeRecordBatch({ compression: 'lz4', records: [{ key: 'k', value: 'v' }] });
//   JSON.stringify(recordBatchesToJson(batches));
//
// Record keys/values/header values are views of the caller's buffer (or of the decompressed
// records for compressed batches), never of WebAssembly memory. Per-record offset and timestamp
// are getters (bigint, exact) over the batch's bigint bases and the record's int deltas, so no
// BigInt is created per record while decoding. Everything throws RecordsError on bad input.
export { decodeRecordBatches, DEFAULT_MAX_RECORDS_PER_BATCH, type DecodedRecordBatches } from './decode.js';
export { encodeRecordBatch, encodeRecordBatchFromSpec } from './encode.js';
export { RecordColumns } from './columns.js';
export { RecordBatch, KafkaRecord, decodeControl } from './batch.js';
export { RecordsError, type RecordsErrorCode } from './errors.js';
export { crc32c, crc32 } from './engine.js';
export { recordBatchToJson, recordBatchesToJson, toHex } from './json.js';
export { compress, decompress, DEFAULT_MAX_DECOMPRESSED, DEFAULT_GZIP_LEVEL } from './compression.js';
export { initZstd, zstdEngine, DEFAULT_ZSTD_LEVEL, type InitZstdOptions } from './zstd.js';
export {
  Compression, COMPRESSION_NAMES, Attributes,
  type CompressionName, type TimestampType, type RecordHeader, type ControlRecord, type DecodeOptions,
  type EncodeOptions, type CompressOptions, type RecordInput, type RecordBatchInput, type ControlRecordInput,
  type RecordBatchJson, type RecordJson, type RecordHeaderJson,
} from './types.js';
