// The one error type the records layer throws for bad input or exceeded limits.

/** Error codes; the index of each name is the numeric code used by the WebAssembly module. */
export const ERROR_CODES = [
  'OK',
  'TRUNCATED',
  'INVALID_LENGTH',
  'VARINT_TOO_LONG',
  'CRC_MISMATCH',
  'UNSUPPORTED_MAGIC',
  'INVALID_RECORD_COUNT',
  'RECORD_LENGTH_MISMATCH',
  'TRAILING_BYTES',
  'BATCH_TOO_SHORT',
  'DECOMPRESSED_TOO_LARGE',
  'CORRUPT_COMPRESSED_DATA',
  'UNSUPPORTED_COMPRESSION',
  'OUT_OF_MEMORY',
  'CHECKSUM_MISMATCH',
  'INVALID_CONTROL_RECORD',
  'INVALID_ARGUMENT',
  'RECORD_LIMIT', // raised by the facade only
  'NOT_INITIALIZED', // raised by the facade only
] as const;

export type RecordsErrorCode = Exclude<(typeof ERROR_CODES)[number], 'OK'>;

/** Field names for RecordsError.path; index = field code used by the WebAssembly module. */
export const FIELD_NAMES = [
  'batch',
  'length',
  'attributes',
  'timestampDelta',
  'offsetDelta',
  'keyLength',
  'valueLength',
  'headerCount',
  'keyLength',
  'valueLength',
  'crc',
  'batchLength',
  'magic',
  'recordCount',
  'records',
  'record',
  'compressedRecords',
] as const;

export class RecordsError extends Error {
  /** Machine-readable reason. */
  readonly code: RecordsErrorCode;
  /** Byte offset of the offending field, relative to the start of the buffer given to the decoder
   * (for data inside a compressed batch: relative to the start of the decompressed records). */
  readonly offset: number;
  /** Where the problem is, e.g. `batches[0].records[3].headers[1].valueLength`. */
  readonly path: string;

  constructor(code: RecordsErrorCode, message: string, offset = -1, path = '') {
    super(`${message}${path ? ` at ${path}` : ''}${offset >= 0 ? ` (byte ${offset})` : ''}`);
    this.name = 'RecordsError';
    this.code = code;
    this.offset = offset;
    this.path = path;
  }
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
