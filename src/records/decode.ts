// decodeRecordBatches: one WebAssembly call frames, CRC-checks and walks every uncompressed batch
// of a records blob into an Int32 tape; compressed batches are decompressed and walked with one
// more call each. Legacy message sets (magic 0/1) are parsed here in TS.
import { RecordBatch, materializeAll, type BatchHeaderFields, KafkaRecord } from './batch.js';
import { decompressAt as decompress, decompressInWasm, DEFAULT_MAX_DECOMPRESSED } from './compression.js';
import { RecordsError, recordsError } from './errors.js';
import type { DecodeOptions } from './types.js';
import { wasm, mem, memI32, alloc, top, setTop, copyIn, statusError } from './engine.js';
// For a reader that will decode soon (the fetch loop): the engine stays inside this folder (floors test).
export { prepareRecordsWasm } from './engine.js';
import { RecordsInFrame } from '../wasm/memory.js';
import {
  ATTRIBUTES_OFFSET, BASE_SEQUENCE_OFFSET, BASE_TIMESTAMP_OFFSET, BATCH_LENGTH_OFFSET, COMPRESSION_LZ4,
  COMPRESSION_MASK, COMPRESSION_SNAPPY, CRC_OFFSET, ENTRY_HEADER_END, ENTRY_HEADER_START, ENTRY_LENGTH,
  ENTRY_MAGIC, ENTRY_ROW_START, ENTRY_START, ENTRY_WORDS, HEADER_WORDS, LAST_OFFSET_DELTA_OFFSET, MAGIC_OFFSET,
  MAX_TIMESTAMP_OFFSET, PARTITION_LEADER_EPOCH_OFFSET, PRODUCER_EPOCH_OFFSET, PRODUCER_ID_OFFSET,
  RECORD_COUNT_OFFSET, RECORDS_OFFSET, ROW_WORDS, SCAN_CONSUMED, SCAN_COUNT, SCAN_END, SCAN_HEADER_WORDS,
  SCAN_HEADERS, SCAN_ROWS, SCAN_TOTAL_HEADERS, SCAN_TOTAL_ROWS, SCAN_TRUNCATED, WALK_HEADER_COUNT, WALK_HEADER_WORDS, WALK_HEADERS, WALK_ROWS,
} from '../wasm/abi.js';

export interface DecodedRecordBatches {
  batches: RecordBatch[];
  /** Bytes of a partial batch at the end of the input (a broker truncating at maxBytes); 0 if none. */
  truncatedBytes: number;
  /** Bytes taken by whole batches (= input length - truncatedBytes). */
  consumedBytes: number;
}

interface Ctx {
  verify: boolean;
  lazy: boolean;
  limit: number;
  maxRecords: number;
  allocateTables: ((bytes: number) => Uint8Array) | undefined;
}

/** Default for DecodeOptions.maxRecordsPerBatch. */
export const DEFAULT_MAX_RECORDS_PER_BATCH = 1 << 20;

/**
 * Decodes a records blob (one or more RecordBatch v2 and/or legacy magic 0/1 message sets, as in
 * a Fetch/Produce records field). A partial batch at the end is reported in truncatedBytes, not as
 * an error. Throws RecordsError for malformed input.
 */
export function decodeRecordBatches(bytes: Uint8Array, options: DecodeOptions = {}): DecodedRecordBatches {
  if (!(bytes instanceof Uint8Array)) throw recordsError('INVALID_ARGUMENT', -1, '', 'bytes must be a Uint8Array');
  const ctx: Ctx = {
    verify: options.verifyCrc !== false,
    lazy: options.lazy === true,
    limit: options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED,
    maxRecords: options.maxRecordsPerBatch ?? DEFAULT_MAX_RECORDS_PER_BATCH,
    allocateTables: options.allocateTables,
  };
  wasm();
  const mark = top;
  // The records field of a frame a decode holds while its hooks run (only the codec makes one):
  // read where the frame's copy lies, its errors located in the frame.
  let held;
  let at = 0;
  let address = -1;
  if (bytes instanceof RecordsInFrame) {
    if (bytes.held.live) {
      held = bytes.held;
      at = bytes.byteOffset - held.frame.byteOffset;
      address = held.ptr + at;
    }
    bytes = bytes.plain; // what the message holds, and the batches keep
  }
  try {
    return decodeBlob(bytes, ctx, '', at, -1, address);
  } catch (error) {
    throw held && error instanceof RecordsError ? error.within(held.name + (pathTo(held.body, bytes) ?? '')) : error;
  } finally {
    setTop(mark);
  }
}

/**
 * The path (".responses[0].partitions[3].records") of the field that holds `value` in a decoded
 * message, sought only for an error. The codec sets what the hooks return once they all have run,
 * so the message holds only what it read: structs, arrays, values.
 */
function pathTo(o: any, value: unknown): string | undefined {
  if (o instanceof Object && !ArrayBuffer.isView(o)) {
    for (const key in o) {
      const inner = o[key] === value ? '' : pathTo(o[key], value);
      if (inner !== undefined) return (Array.isArray(o) ? `[${key}]` : `.${key}`) + inner;
    }
  }
  return undefined;
}

/**
 * Scans and decodes `bytes`. `prefix`/`offsetBase` locate it for errors. `legacyMagic` >= 0 means
 * this is the inner set of a compressed legacy wrapper (only that magic, uncompressed, allowed).
 * `at` is where the bytes already are in WebAssembly memory (-1: copied in here).
 */
function decodeBlob(bytes: Uint8Array, ctx: Ctx, prefix: string, offsetBase: number, legacyMagic: number, at: number): DecodedRecordBatches {
  const w = wasm();
  const len = bytes.length;
  const inPtr = at < 0 ? copyIn(bytes) : at;
  const out = alloc(SCAN_HEADER_WORDS * 4);
  try {
    w.scanBatches(inPtr, len, out, ctx.verify ? 1 : 0);
  } catch (thrown) {
    throw statusError(thrown, prefix, offsetBase);
  }
  let I = memI32();
  const h = out >> 2;
  const n = I[h + SCAN_COUNT];
  const truncatedBytes = I[h + SCAN_TRUNCATED];
  const consumedBytes = I[h + SCAN_CONSUMED];
  const rowsPtr = I[h + SCAN_ROWS];
  const hdrsPtr = I[h + SCAN_HEADERS];
  // Lazy: the rows and headers of every uncompressed batch copied out once, each batch reading
  // its part (its row base); eager reads them where they are, while the records are built.
  const rows = ctx.lazy ? tableCopy(I, rowsPtr >> 2, I[h + SCAN_TOTAL_ROWS] * ROW_WORDS, ctx) : NO_WORDS;
  const hdrs = ctx.lazy ? tableCopy(I, hdrsPtr >> 2, I[h + SCAN_TOTAL_HEADERS] * HEADER_WORDS, ctx) : NO_WORDS;
  setTop(I[h + SCAN_END]);
  const entries = I.slice(h + SCAN_HEADER_WORDS, h + SCAN_HEADER_WORDS + n * ENTRY_WORDS);
  const batches: RecordBatch[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    const e = i * ENTRY_WORDS;
    const magic = entries[e + ENTRY_MAGIC];
    const start = entries[e + ENTRY_START];
    const size = entries[e + ENTRY_LENGTH];
    const path = `${prefix}batches[${i}]`;
    if (magic !== 2) {
      if (legacyMagic >= 0 && magic !== legacyMagic) {
        throw recordsError('UNSUPPORTED_MAGIC', offsetBase + start + MAGIC_OFFSET, `${path}.magic`, `inner message magic ${magic} differs from its wrapper's ${legacyMagic}`);
      }
      decodeLegacy(bytes, view, start, size, ctx, path, offsetBase, legacyMagic >= 0, batches);
      continue;
    }
    if (legacyMagic >= 0) throw recordsError('UNSUPPORTED_MAGIC', offsetBase + start + MAGIC_OFFSET, `${path}.magic`, 'v2 batch inside a legacy message set');
    const header = readV2Header(view, start, size);
    if (header.recordCount > ctx.maxRecords) {
      throw recordsError('RECORD_LIMIT', offsetBase + start + RECORD_COUNT_OFFSET, `${path}.recordCount`,
        `${header.recordCount} records, over the maxRecordsPerBatch limit of ${ctx.maxRecords}`);
    }
    const codec = header.attributes & COMPRESSION_MASK;
    if (codec === 0) {
      const batch = new RecordBatch(header, bytes);
      const rowStart = entries[e + ENTRY_ROW_START] * ROW_WORDS;
      if (ctx.lazy) {
        batch._rows = rows;
        batch._rowBase = rowStart;
        batch._hdrs = hdrs;
      } else {
        I = memI32(); // a compressed batch before may have grown the memory
        materializeAll(batch, bytes, I, (rowsPtr >> 2) + rowStart, I.subarray(hdrsPtr >> 2));
      }
      batches.push(batch);
    } else {
      if (codec > 4) throw recordsError('UNSUPPORTED_COMPRESSION', offsetBase + start + ATTRIBUTES_OFFSET, `${path}.attributes`, `unsupported compression codec ${codec}`);
      const at = offsetBase + start + RECORDS_OFFSET;
      const mark = top;
      try {
        let batch: RecordBatch;
        if (codec === COMPRESSION_SNAPPY || codec === COMPRESSION_LZ4) {
          // Decompressed from the input's copy in WebAssembly memory and walked where it lands:
          // one copy out, for the records' JS-owned views.
          const [p, length] = decompressInWasm(codec === COMPRESSION_LZ4, inPtr + start + RECORDS_OFFSET, size - RECORDS_OFFSET, ctx.limit, at, `${path}.records`);
          batch = new RecordBatch(header, mem().slice(p, p + length));
          walkDecompressed(batch, p, i, ctx, prefix);
        } else {
          const data = decompress(codec, bytes.subarray(start + RECORDS_OFFSET, start + size), ctx.limit, at, `${path}.records`);
          batch = new RecordBatch(header, data);
          walkDecompressed(batch, copyIn(data), i, ctx, prefix);
        }
        batches.push(batch);
      } finally {
        setTop(mark);
      }
    }
  }
  return { batches, truncatedBytes, consumedBytes };
}

/** `words` words of `I` from `at`, in memory of their own (from ctx.allocateTables when given). */
function tableCopy(I: Int32Array, at: number, words: number, ctx: Ctx): Int32Array {
  if (words === 0) return NO_WORDS;
  const table = ctx.allocateTables === undefined ? new Int32Array(words) : int32View(ctx.allocateTables(words * 4), words);
  table.set(I.subarray(at, at + words));
  return table;
}

const NO_WORDS = new Int32Array(0);

/** `bytes` as `words` Int32 words (a fresh allocation or a pooled buffer: aligned, as Int32Array needs). */
function int32View(bytes: Uint8Array, words: number): Int32Array {
  return new Int32Array(bytes.buffer, bytes.byteOffset, words);
}

function attach(batch: RecordBatch, data: Uint8Array, I: Int32Array, r0: number, hdrs: Int32Array, hdrCount: number, lazy: boolean): void {
  if (lazy) {
    batch._rows = I.slice(r0, r0 + batch.recordCount * ROW_WORDS);
    batch._rowBase = 0;
    batch._hdrs = hdrs.slice(0, hdrCount * HEADER_WORDS);
  } else {
    materializeAll(batch, data, I, r0, hdrs);
  }
}

/** Walks the records of a decompressed batch whose data (batch.data) is also at `p` in WebAssembly memory. */
function walkDecompressed(batch: RecordBatch, p: number, index: number, ctx: Ctx, prefix: string): void {
  const w = wasm();
  const data = batch.data;
  const mark = top;
  try {
    const out = alloc(WALK_HEADER_WORDS * 4);
    try {
      w.walkRecords(p, data.length, batch.recordCount, out, index);
    } catch (thrown) {
      throw statusError(thrown, prefix, 0, (detail) => `${detail}, inside the decompressed records of the batch`);
    }
    const I = memI32();
    const h = out >> 2;
    const rowsPtr = I[h + WALK_ROWS];
    const hdrsPtr = I[h + WALK_HEADERS];
    const hdrCount = I[h + WALK_HEADER_COUNT];
    attach(batch, data, I, rowsPtr >> 2, I.subarray(hdrsPtr >> 2), hdrCount, ctx.lazy);
  } finally {
    setTop(mark);
  }
}

/** The header fields of the v2 batch at [start, start + size) of `v` (its fixed layout: src/wasm/abi.ts). */
export function readV2Header(v: DataView, start: number, size: number): BatchHeaderFields {
  return {
    baseOffset: v.getBigInt64(start),
    batchLength: v.getInt32(start + BATCH_LENGTH_OFFSET),
    partitionLeaderEpoch: v.getInt32(start + PARTITION_LEADER_EPOCH_OFFSET),
    magic: 2,
    crc: v.getUint32(start + CRC_OFFSET),
    attributes: v.getInt16(start + ATTRIBUTES_OFFSET),
    lastOffsetDelta: v.getInt32(start + LAST_OFFSET_DELTA_OFFSET),
    baseTimestamp: v.getBigInt64(start + BASE_TIMESTAMP_OFFSET),
    maxTimestamp: v.getBigInt64(start + MAX_TIMESTAMP_OFFSET),
    producerId: v.getBigInt64(start + PRODUCER_ID_OFFSET),
    producerEpoch: v.getInt16(start + PRODUCER_EPOCH_OFFSET),
    baseSequence: v.getInt32(start + BASE_SEQUENCE_OFFSET),
    recordCount: v.getInt32(start + RECORD_COUNT_OFFSET),
    byteOffset: start,
    byteLength: size,
  };
}

// ---------------------------------------------------------------------------------------------
// Legacy message sets (magic 0 and 1)
//   offset int64, message_size int32, crc uint32, magic int8, attributes int8,
//   [timestamp int64 (magic 1)], key bytes (int32 length, -1 null), value bytes (same).

interface LegacyMessage extends LegacyLayout {
  key: Uint8Array | null;
  value: Uint8Array | null;
  valueAt: number;
}

/** A legacy message's key or value: where its int32 length is, the length it states, where its bytes end. */
export interface LegacyField {
  at: number;
  length: number;
  /** The end of the bytes the message holds of it (fewer than `length` when it is cut short). */
  end: number;
}

/** A legacy message's header fields, and where its timestamp (-1: none, magic 0), key and value lie. */
export interface LegacyLayout {
  offset: bigint;
  crc: number;
  magic: number;
  attributes: number;
  timestampAt: number;
  timestamp: bigint;
  /** The key and the value, as far as the message holds their int32 lengths. */
  fields: LegacyField[];
}

/**
 * The legacy message at [start, start + size) read as far as the bytes go (a key or value whose
 * length does not fit is absent): the decoder checks it, explain shows it.
 */
export function legacyLayout(v: DataView, start: number, size: number): LegacyLayout {
  const end = start + size;
  const magic = v.getInt8(start + 16);
  const timestampAt = magic === 1 ? start + 18 : -1;
  let p = timestampAt < 0 ? start + 18 : timestampAt + 8;
  const fields: LegacyField[] = [];
  while (fields.length < 2 && end - p >= 4) {
    const length = v.getInt32(p);
    const fieldEnd = p + 4 + Math.max(0, Math.min(length, end - p - 4));
    fields.push({ at: p, length, end: fieldEnd });
    p = fieldEnd;
  }
  return {
    offset: v.getBigInt64(start),
    crc: v.getUint32(start + 12),
    magic,
    attributes: v.getUint8(start + 17),
    timestampAt,
    timestamp: timestampAt < 0 ? -1n : v.getBigInt64(timestampAt),
    fields,
  };
}

function readLegacy(bytes: Uint8Array, v: DataView, start: number, size: number, path: string, offsetBase: number): LegacyMessage {
  const end = start + size;
  const layout = legacyLayout(v, start, size);
  const { timestampAt, fields } = layout;
  let p = timestampAt < 0 ? start + 18 : timestampAt + 8;
  const readBytes = (index: number, field: string): Uint8Array | null => {
    const f = fields[index];
    if (f === undefined) throw recordsError('TRUNCATED', offsetBase + p, `${path}.${field}Length`);
    if (f.length < -1) throw recordsError('INVALID_LENGTH', offsetBase + f.at, `${path}.${field}Length`);
    if (f.end - f.at - 4 < f.length) throw recordsError('TRUNCATED', offsetBase + f.at, `${path}.${field}Length`);
    p = f.end;
    return f.length === -1 ? null : bytes.subarray(f.at + 4, f.end);
  };
  const key = readBytes(0, 'key');
  const valueAt = p + 4;
  const value = readBytes(1, 'value');
  if (p !== end) throw recordsError('TRAILING_BYTES', offsetBase + p, path);
  return { ...layout, key, value, valueAt };
}

function legacyBatch(wrapper: LegacyMessage, size: number, start: number, data: Uint8Array,
  msgs: { offset: bigint; timestamp: bigint; key: Uint8Array | null; value: Uint8Array | null }[]): RecordBatch {
  const first = msgs.length ? msgs[0] : { offset: wrapper.offset, timestamp: wrapper.timestamp };
  const last = msgs.length ? msgs[msgs.length - 1] : first;
  const batch = new RecordBatch({
    baseOffset: first.offset,
    batchLength: size - 12,
    partitionLeaderEpoch: -1,
    magic: wrapper.magic,
    crc: wrapper.crc,
    attributes: wrapper.attributes,
    lastOffsetDelta: Number(last.offset - first.offset),
    baseTimestamp: first.timestamp,
    maxTimestamp: wrapper.timestamp,
    producerId: -1n,
    producerEpoch: -1,
    baseSequence: -1,
    recordCount: msgs.length,
    byteOffset: start,
    byteLength: size,
  }, data);
  const records = new Array<KafkaRecord>(msgs.length);
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    const od = Number(m.offset - first.offset);
    const td = m.timestamp - first.timestamp;
    const safe = td >= -9007199254740991n && td <= 9007199254740991n;
    records[i] = new KafkaRecord(batch, od, Number(td), m.key, m.value, [], 0, safe ? undefined : td);
  }
  batch._records = records;
  return batch;
}

function decodeLegacy(bytes: Uint8Array, v: DataView, start: number, size: number, ctx: Ctx, path: string,
  offsetBase: number, inner: boolean, out: RecordBatch[]): void {
  const m = readLegacy(bytes, v, start, size, path, offsetBase);
  const codec = m.attributes & 7;
  if (codec === 0) {
    out.push(legacyBatch(m, size, start, bytes, [m]));
    return;
  }
  if (inner) throw recordsError('UNSUPPORTED_COMPRESSION', offsetBase + start + 17, `${path}.attributes`, 'nested compressed message');
  if (codec > 3) throw recordsError('UNSUPPORTED_COMPRESSION', offsetBase + start + 17, `${path}.attributes`, `unsupported compression codec ${codec} for magic ${m.magic}`);
  if (m.value === null) throw recordsError('CORRUPT_COMPRESSED_DATA', offsetBase + m.valueAt - 4, `${path}.value`, 'compressed wrapper message without a value');
  const data = decompress(codec, m.value, ctx.limit, offsetBase + m.valueAt, `${path}.value`, m.magic === 0);
  const mark = top;
  let innerSet: DecodedRecordBatches;
  try {
    innerSet = decodeBlob(data, { ...ctx, lazy: false }, `${path}.value.`, 0, m.magic, -1);
  } finally {
    setTop(mark);
  }
  if (innerSet.truncatedBytes) throw recordsError('TRUNCATED', data.length - innerSet.truncatedBytes, `${path}.value`, 'partial message inside a compressed wrapper');
  const msgs = innerSet.batches.map((b) => ({
    offset: b.baseOffset,
    timestamp: m.magic === 1 && (m.attributes & 8) ? m.timestamp : b.baseTimestamp,
    key: b.records[0].key,
    value: b.records[0].value,
  }));
  if (m.magic >= 1 && msgs.length) {
    // Inner offsets are relative; the wrapper carries the absolute offset of the last one.
    const shift = m.offset - msgs[msgs.length - 1].offset;
    for (const x of msgs) x.offset += shift;
  }
  out.push(legacyBatch(m, size, start, data, msgs));
}
