// The one error type the records layer throws for bad input or exceeded limits.
import {
  FIELD_ATTRIBUTES, FIELD_BATCH, FIELD_BATCH_LENGTH, FIELD_COMPRESSED, FIELD_CRC, FIELD_HEADER_COUNT,
  FIELD_HEADER_KEY_LENGTH, FIELD_HEADER_VALUE_LENGTH, FIELD_KEY_LENGTH, FIELD_MAGIC, FIELD_OFFSET_DELTA, FIELD_RECORD,
  FIELD_RECORD_COUNT, FIELD_RECORD_LENGTH, FIELD_RECORDS, FIELD_TIMESTAMP_DELTA, FIELD_VALUE_LENGTH,
  RECORDS_BATCH_TOO_SHORT, RECORDS_CHECKSUM, RECORDS_CORRUPT_COMPRESSED, RECORDS_CRC_MISMATCH, RECORDS_INVALID_LENGTH,
  RECORDS_OUT_OF_MEMORY, RECORDS_RECORD_COUNT, RECORDS_RECORD_LENGTH_MISMATCH, RECORDS_TOO_LARGE, RECORDS_TRAILING_BYTES,
  RECORDS_TRUNCATED, RECORDS_UNSUPPORTED_COMPRESSION, RECORDS_UNSUPPORTED_MAGIC, RECORDS_VARINT_TOO_LONG,
} from '../wasm/abi.js';

/** The records module's status codes (src/wasm/abi.ts) by number; 0 is success. */
export const STATUS_CODES: Readonly<Record<number, RecordsErrorCode>> = {
  [RECORDS_TRUNCATED]: 'TRUNCATED',
  [RECORDS_INVALID_LENGTH]: 'INVALID_LENGTH',
  [RECORDS_VARINT_TOO_LONG]: 'VARINT_TOO_LONG',
  [RECORDS_CRC_MISMATCH]: 'CRC_MISMATCH',
  [RECORDS_UNSUPPORTED_MAGIC]: 'UNSUPPORTED_MAGIC',
  [RECORDS_RECORD_COUNT]: 'INVALID_RECORD_COUNT',
  [RECORDS_RECORD_LENGTH_MISMATCH]: 'RECORD_LENGTH_MISMATCH',
  [RECORDS_TRAILING_BYTES]: 'TRAILING_BYTES',
  [RECORDS_BATCH_TOO_SHORT]: 'BATCH_TOO_SHORT',
  [RECORDS_TOO_LARGE]: 'DECOMPRESSED_TOO_LARGE',
  [RECORDS_CORRUPT_COMPRESSED]: 'CORRUPT_COMPRESSED_DATA',
  [RECORDS_UNSUPPORTED_COMPRESSION]: 'UNSUPPORTED_COMPRESSION',
  [RECORDS_OUT_OF_MEMORY]: 'OUT_OF_MEMORY',
  [RECORDS_CHECKSUM]: 'CHECKSUM_MISMATCH',
};

export type RecordsErrorCode =
  | 'TRUNCATED' | 'INVALID_LENGTH' | 'VARINT_TOO_LONG' | 'CRC_MISMATCH' | 'UNSUPPORTED_MAGIC'
  | 'INVALID_RECORD_COUNT' | 'RECORD_LENGTH_MISMATCH' | 'TRAILING_BYTES' | 'BATCH_TOO_SHORT'
  | 'DECOMPRESSED_TOO_LARGE' | 'CORRUPT_COMPRESSED_DATA' | 'UNSUPPORTED_COMPRESSION' | 'OUT_OF_MEMORY'
  | 'CHECKSUM_MISMATCH' | 'INVALID_CONTROL_RECORD' | 'INVALID_ARGUMENT'
  // raised by the facade only
  | 'RECORD_LIMIT' | 'NOT_INITIALIZED';

/** Field names for RecordsError.path, by the field codes (src/wasm/abi.ts) of the status block. */
const FIELD_NAMES: Readonly<Record<number, string>> = {
  [FIELD_BATCH]: 'batch',
  [FIELD_RECORD_LENGTH]: 'length',
  [FIELD_ATTRIBUTES]: 'attributes',
  [FIELD_TIMESTAMP_DELTA]: 'timestampDelta',
  [FIELD_OFFSET_DELTA]: 'offsetDelta',
  [FIELD_KEY_LENGTH]: 'keyLength',
  [FIELD_VALUE_LENGTH]: 'valueLength',
  [FIELD_HEADER_COUNT]: 'headerCount',
  [FIELD_HEADER_KEY_LENGTH]: 'keyLength',
  [FIELD_HEADER_VALUE_LENGTH]: 'valueLength',
  [FIELD_CRC]: 'crc',
  [FIELD_BATCH_LENGTH]: 'batchLength',
  [FIELD_MAGIC]: 'magic',
  [FIELD_RECORD_COUNT]: 'recordCount',
  [FIELD_RECORDS]: 'records',
  [FIELD_RECORD]: 'record',
  [FIELD_COMPRESSED]: 'compressedRecords',
};

export class RecordsError extends Error {
  /** Machine-readable reason. */
  readonly code: RecordsErrorCode;
  /** Byte offset of the offending field, relative to the start of the buffer given to the decoder,
   * or of the frame when a decode's records hook gave it a records field of the frame (for data
   * inside a compressed batch: relative to the start of the decompressed records). */
  readonly offset: number;
  /** Where the problem is, e.g. `batches[0].records[3].headers[1].valueLength`, after the
   * field's own path (`FetchResponse.responses[0].partitions[3].records.batches[0].crc`) when read in a hook. */
  readonly path: string;

  constructor(code: RecordsErrorCode, message: string, offset = -1, path = '') {
    super(message + where(offset, path));
    this.name = 'RecordsError';
    this.code = code;
    this.offset = offset;
    this.path = path;
  }

  /** The same error under `prefix`: the path of the field the records were read from. */
  within(prefix: string): RecordsError {
    const description = this.message.slice(0, this.message.length - where(this.offset, this.path).length);
    return new RecordsError(this.code, description, this.offset, this.path ? `${prefix}.${this.path}` : prefix);
  }
}

/** How a RecordsError's message ends: where the problem is. */
function where(offset: number, path: string): string {
  return `${path ? ` at ${path}` : ''}${offset >= 0 ? ` (byte ${offset})` : ''}`;
}

const MESSAGES: Record<RecordsErrorCode, string> = {
  TRUNCATED: 'data ends before the field does',
  INVALID_LENGTH: 'invalid (negative) length',
  VARINT_TOO_LONG: 'varint longer than its maximum size',
  CRC_MISMATCH: 'checksum mismatch',
  UNSUPPORTED_MAGIC: 'unsupported magic byte',
  INVALID_RECORD_COUNT: 'record count does not fit the batch',
  RECORD_LIMIT: 'more records than the maxRecordsPerBatch limit',
  RECORD_LENGTH_MISMATCH: 'record length does not match its fields',
  TRAILING_BYTES: 'bytes left over after the last record',
  BATCH_TOO_SHORT: 'batch length is smaller than its header',
  DECOMPRESSED_TOO_LARGE: 'decompressed size exceeds the configured maximum',
  CORRUPT_COMPRESSED_DATA: 'corrupt compressed data',
  UNSUPPORTED_COMPRESSION: 'unsupported compression codec',
  OUT_OF_MEMORY: 'cannot grow WebAssembly memory',
  CHECKSUM_MISMATCH: 'compressed data checksum mismatch',
  INVALID_CONTROL_RECORD: 'invalid control record',
  INVALID_ARGUMENT: 'invalid argument',
  NOT_INITIALIZED: 'a module this needs is not loaded yet',
};

export function recordsError(code: RecordsErrorCode, offset = -1, path = '', detail?: string): RecordsError {
  return new RecordsError(code, detail ?? MESSAGES[code], offset, path);
}

/** A decompressor's output would exceed `limit` bytes. */
export function tooLarge(limit: number, at: number, path: string): RecordsError {
  return recordsError('DECOMPRESSED_TOO_LARGE', at, path, `decompressed size exceeds the maximum of ${limit} bytes`);
}

/** The standard description of an error code. */
export function recordsErrorMessage(code: RecordsErrorCode): string {
  return MESSAGES[code];
}

/** Builds a path string from the numeric context the WebAssembly module reports. */
export function buildPath(prefix: string, batch: number, record: number, header: number, field: number): string {
  let path = prefix;
  if (batch >= 0) path += `batches[${batch}]`;
  if (record >= 0) path += `${path ? '.' : ''}records[${record}]`;
  if (header >= 0) path += `${path ? '.' : ''}headers[${header}]`;
  const name = FIELD_NAMES[field] ?? '';
  if (name && !(name === 'batch' && batch >= 0) && !(name === 'record' && record >= 0)) path += `${path ? '.' : ''}${name}`;
  return path;
}
