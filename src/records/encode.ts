// encodeRecordBatch: one pass over the records lays out a compact spec (lengths, deltas) and the
// raw field bytes in WebAssembly memory; one call writes the varints and copies the bytes (plus
// header fields and CRC-32C for uncompressed batches). Compressed batches take one more call (or fflate/zstd) to
// compress, and finishBatch fills length, count and CRC.
import { codecNumber, compressInWasm } from './compression.js';
import { recordsError } from './errors.js';
import type { ControlRecordInput, EncodeOptions, RecordBatchInput } from './types.js';
import { wasm, mem, memI32, alloc, extendTop, top, setTop, statusError } from './engine.js';
import { encodeUtf8Into } from '../text.js';
import {
  ATTRIBUTES_OFFSET, BASE_SEQUENCE_OFFSET, BASE_TIMESTAMP_OFFSET, LAST_OFFSET_DELTA_OFFSET, MAGIC_OFFSET,
  MAX_TIMESTAMP_OFFSET, PARTITION_LEADER_EPOCH_OFFSET, PRODUCER_EPOCH_OFFSET, PRODUCER_ID_OFFSET,
  RECORDS_OFFSET,
} from '../wasm/abi.js';
import * as abi from '../wasm/abi.js';

// The spec layout as this module's own constants: V8 folds a module's constants into optimized
// code but loads imported bindings on every use, and these sit in the per-record loop.
const SPEC_ATTRIBUTES = abi.SPEC_ATTRIBUTES,
  SPEC_HEADER_COUNT = abi.SPEC_HEADER_COUNT,
  SPEC_HEADER_WORDS = abi.SPEC_HEADER_WORDS,
  SPEC_KEY_LENGTH = abi.SPEC_KEY_LENGTH,
  SPEC_OFFSET_DELTA = abi.SPEC_OFFSET_DELTA,
  SPEC_TIMESTAMP_DELTA = abi.SPEC_TIMESTAMP_DELTA,
  SPEC_VALUE_LENGTH = abi.SPEC_VALUE_LENGTH,
  SPEC_WORDS = abi.SPEC_WORDS;

const TWO32 = 4294967296;

// Record bytes go straight to a region at the arena top that grows as they come (one pass over
// the records): its memory view and end while an encode runs.
let dataView8: Uint8Array = new Uint8Array(0);
let dataStart = 0;
let dataEnd = 0;
/** The data region's first size, per record (it doubles from there when records are larger). */
const FIRST_BYTES_PER_RECORD = 64;

/** Grows the data region (the arena's last) so that `need` bytes fit at `pos`, at least doubling it. */
function room(pos: number, need: number): void {
  extendTop(Math.max(pos + need, 2 * dataEnd - dataStart));
  dataEnd = top;
  dataView8 = mem();
}

/** Writes a field at `pos` of the data region; returns its length, or -1 for null. */
function writeField(pos: number, x: Uint8Array | string | null | undefined): number {
  if (x == null) return -1;
  if (typeof x === 'string') {
    if (pos + x.length * 3 > dataEnd) room(pos, x.length * 3);
    return encodeUtf8Into(x, dataView8, pos);
  }
  if (!(x instanceof Uint8Array)) throw recordsError('INVALID_ARGUMENT', -1, '', 'record keys, values and headers must be Uint8Array, string or null');
  const n = x.length;
  if (pos + n > dataEnd) room(pos, n);
  const u8 = dataView8;
  // A loop beats the call into TypedArray#set for the shortest fields only (16 bytes already
  // copy faster with set, measured).
  if (n <= 10) {
    for (let i = 0; i < n; i++) u8[pos + i] = x[i];
  } else {
    u8.set(x, pos);
  }
  return n;
}

// The spec is built here (its size depends on every record's header count) and copied into
// WebAssembly memory once; a large one is not kept between calls.
const SPEC_SCRATCH_WORDS = 1 << 14;
let spec: Int32Array = new Int32Array(SPEC_SCRATCH_WORDS);

function growSpec(words: number): Int32Array {
  const bigger = new Int32Array(Math.max(words, spec.length * 2));
  bigger.set(spec);
  spec = bigger;
  return bigger;
}

function toBigInt(x: bigint | number, field: string): bigint {
  if (typeof x === 'bigint') return BigInt.asIntN(64, x);
  if (!Number.isInteger(x)) throw recordsError('INVALID_ARGUMENT', -1, field, `${field} must be an integer`);
  return BigInt(x);
}

function int32(x: number | undefined, dflt: number, field: string): number {
  if (x === undefined) return dflt;
  if (!Number.isInteger(x) || x < -0x80000000 || x > 0x7fffffff) throw recordsError('INVALID_ARGUMENT', -1, field, `${field} must be an int32`);
  return x;
}


function controlKey(c: ControlRecordInput): Uint8Array {
  const type = c.typeCode ?? (c.type === 'abort' ? 0 : c.type === 'commit' ? 1 : c.type);
  if (typeof type !== 'number') throw recordsError('INVALID_ARGUMENT', -1, 'control.type', 'control record type must be abort, commit or a number');
  const b = new Uint8Array(4);
  const v = new DataView(b.buffer);
  v.setInt16(0, c.version ?? 0);
  v.setInt16(2, type);
  return b;
}

function controlValue(c: ControlRecordInput): Uint8Array {
  const b = new Uint8Array(6);
  const v = new DataView(b.buffer);
  v.setInt16(0, c.version ?? 0);
  v.setInt32(2, c.coordinatorEpoch ?? 0);
  return b;
}

/** Encodes one RecordBatch (magic 2). Returns a new Uint8Array with the whole batch. */
export function encodeRecordBatch(batch: RecordBatchInput, options: EncodeOptions = {}): Uint8Array {
  const records = batch.records;
  if (!Array.isArray(records)) throw recordsError('INVALID_ARGUMENT', -1, 'records', 'records must be an array');
  const n = records.length;
  const codec = batch.compression === undefined ? 0 : codecNumber(batch.compression, true, 'compression');

  // Timestamps: resolve the base first.
  let baseTs: bigint;
  if (batch.baseTimestamp !== undefined) baseTs = toBigInt(batch.baseTimestamp, 'baseTimestamp');
  else {
    const first = n > 0 && records[0].timestampDelta === undefined ? records[0].timestamp : undefined;
    baseTs = first !== undefined ? toBigInt(first, 'timestamp') : BigInt(Date.now());
  }
  const baseTsNum = Number(baseTs);
  const baseTsSafe = Number.isSafeInteger(baseTsNum);

  wasm(); // compiled on first use
  const mark = top;
  try {
    const data = alloc(0);
    dataStart = data;
    dataEnd = data;
    room(data, n * FIRST_BYTES_PER_RECORD);
    let S = spec;
    let s = 0;
    let d = data;
    let maxDelta = -Infinity;
    let maxDeltaBig: bigint | undefined;
    let lastOffsetDelta = 0;
    for (let i = 0; i < n; i++) {
      const r = records[i];
      const hs = r.headers;
      const hc = hs === undefined ? 0 : hs.length;
      if (s + SPEC_WORDS + hc * SPEC_HEADER_WORDS > S.length) S = growSpec(s + SPEC_WORDS + hc * SPEC_HEADER_WORDS);
      const od0 = r.offsetDelta;
      const od = od0 === undefined ? i : (od0 | 0) === od0 ? od0 : int32(od0, i, `records[${i}].offsetDelta`);
      lastOffsetDelta = od;
      // timestampDelta as two int32 halves
      let lo: number;
      let hi: number;
      const td = (r as { timestampDeltaBig?: bigint }).timestampDeltaBig ?? r.timestampDelta;
      if (td === undefined && r.timestamp === undefined) {
        lo = 0; hi = 0;
        if (maxDelta < 0) maxDelta = 0;
      } else if (typeof td === 'number' || (td === undefined && typeof r.timestamp === 'number' && baseTsSafe)) {
        const delta = td === undefined ? (r.timestamp as number) - baseTsNum : td;
        if (!Number.isSafeInteger(delta)) throw recordsError('INVALID_ARGUMENT', -1, `records[${i}].timestampDelta`, 'timestamp must be a safe integer (use bigint beyond 2^53)');
        hi = Math.floor(delta / TWO32);
        lo = (delta - hi * TWO32) | 0;
        if (delta > maxDelta) maxDelta = delta;
      } else {
        const delta = BigInt.asIntN(64, td !== undefined ? BigInt(td) : toBigInt(r.timestamp!, 'timestamp') - baseTs);
        lo = Number(delta & 0xffffffffn) | 0;
        hi = Number(delta >> 32n) | 0;
        if (maxDeltaBig === undefined || delta > maxDeltaBig) maxDeltaBig = delta;
      }
      S[s + SPEC_ATTRIBUTES] = r.attributes ?? 0;
      S[s + SPEC_TIMESTAMP_DELTA] = lo;
      S[s + SPEC_TIMESTAMP_DELTA + 1] = hi;
      S[s + SPEC_OFFSET_DELTA] = od;
      let kl: number;
      let vl: number;
      const control = r.key === undefined && r.value === undefined ? r.control : undefined;
      if (control) {
        kl = writeField(d, controlKey(control));
        d += kl;
        vl = writeField(d, controlValue(control));
        d += vl;
      } else {
        kl = writeField(d, r.key);
        if (kl > 0) d += kl;
        vl = writeField(d, r.value);
        if (vl > 0) d += vl;
      }
      S[s + SPEC_KEY_LENGTH] = kl;
      S[s + SPEC_VALUE_LENGTH] = vl;
      S[s + SPEC_HEADER_COUNT] = hc;
      s += SPEC_WORDS;
      for (let j = 0; j < hc; j++) {
        const h = hs![j];
        if (h.key == null) throw recordsError('INVALID_ARGUMENT', -1, `records[${i}].headers[${j}].key`, 'header keys cannot be null');
        const hkl = writeField(d, h.key);
        d += hkl;
        const hvl = writeField(d, h.value);
        if (hvl > 0) d += hvl;
        S[s] = hkl;
        S[s + 1] = hvl;
        s += SPEC_HEADER_WORDS;
      }
    }
    setTop(d);
    const specAt = alloc(s * 4);
    memI32().set(S.subarray(0, s), specAt >> 2);
    if (S.length > SPEC_SCRATCH_WORDS) spec = new Int32Array(SPEC_SCRATCH_WORDS);
    let maxTs: bigint;
    if (batch.maxTimestamp !== undefined) maxTs = toBigInt(batch.maxTimestamp, 'maxTimestamp');
    else {
      let m = maxDelta === -Infinity ? 0n : BigInt(maxDelta);
      if (maxDeltaBig !== undefined && (maxDelta === -Infinity || maxDeltaBig > m)) m = maxDeltaBig;
      maxTs = BigInt.asIntN(64, baseTs + m);
    }
    return writeBatch(batch, codec, n, lastOffsetDelta, baseTs, maxTs, specAt, data, options);
  } finally {
    setTop(mark);
  }
}

/**
 * A batch whose records were laid out already (RecordColumns, src/records/columns.ts): `spec`
 * holds `specWords` words in the encoder's spec layout (src/wasm/abi.ts) and `data` their
 * concatenated key, value and header bytes. One copy of each into WebAssembly memory and one call.
 * baseTimestamp and maxTimestamp are required; lastOffsetDelta defaults to count - 1.
 */
export function encodeRecordBatchFromSpec(batch: Omit<RecordBatchInput, 'records'> & { baseTimestamp: bigint | number; maxTimestamp: bigint | number },
  count: number, spec: Int32Array, specWords: number, data: Uint8Array, dataLength: number, options: EncodeOptions = {}): Uint8Array {
  return encodeSpecBatch(batch, batch.baseTimestamp, batch.maxTimestamp, count, spec, specWords, data, dataLength, options);
}

/**
 * encodeRecordBatchFromSpec with the timestamps apart from the header fields: RecordColumns
 * passes its producer's header as it is (a copy of it with the timestamps spread in cost more
 * than the rest of a one-record batch's encoding, measured).
 */
export function encodeSpecBatch(batch: Omit<RecordBatchInput, 'records'>, baseTimestamp: bigint | number, maxTimestamp: bigint | number,
  count: number, spec: Int32Array, specWords: number, data: Uint8Array, dataLength: number, options: EncodeOptions = {}): Uint8Array {
  const codec = batch.compression === undefined ? 0 : codecNumber(batch.compression, true, 'compression');
  wasm(); // compiled on first use
  const mark = top;
  try {
    const dataAt = alloc(dataLength);
    mem().set(data.subarray(0, dataLength), dataAt);
    const specAt = alloc(specWords * 4);
    memI32().set(spec.subarray(0, specWords), specAt >> 2);
    return writeBatch(batch, codec, count, count > 0 ? count - 1 : 0,
      toBigInt(baseTimestamp, 'baseTimestamp'), toBigInt(maxTimestamp, 'maxTimestamp'), specAt, dataAt, options);
  } finally {
    setTop(mark);
  }
}

/** Writes the records the spec at `specAt` describes, the header, and compresses: the finished batch. */
function writeBatch(batch: Omit<RecordBatchInput, 'records'>, codec: number, n: number, lastOffsetDelta: number,
  baseTs: bigint, maxTs: bigint, specAt: number, data: number, options: EncodeOptions): Uint8Array {
  const out = alloc(RECORDS_OFFSET);
  if (codec === 0) {
    writeHeader(out, batch, codec, n, lastOffsetDelta, baseTs, maxTs);
    const size = writeRecords(specAt, n, data, out, 1);
    return mem().slice(out, out + size);
  }
  const rawLen = writeRecords(specAt, n, data, out, 0);
  setTop(out + rawLen);
  return compressedBatch(batch, codec, n, lastOffsetDelta, baseTs, maxTs, out, rawLen, options);
}

/**
 * A batch whose `count` records are encoded already in WebAssembly memory at
 * `at + RECORDS_OFFSET` (`rawLength` bytes, the header's room before them, the arena top after
 * them): header, compression and CRC-32C; the finished batch copied out. The producer's bulk path
 * (src/records/split.ts) seals its batches with it; lastOffsetDelta is count - 1.
 */
export function finishRecordBatchAt(batch: Omit<RecordBatchInput, 'records'>, count: number, at: number, rawLength: number,
  baseTs: bigint, maxTs: bigint, options: EncodeOptions = {}, into: (size: number) => Uint8Array = newBytes): Uint8Array {
  const codec = batch.compression === undefined ? 0 : codecNumber(batch.compression, true, 'compression');
  const last = count > 0 ? count - 1 : 0;
  if (codec === 0) {
    writeHeader(at, batch, codec, count, last, baseTs, maxTs);
    wasm().finishBatch(at, RECORDS_OFFSET + rawLength, count);
    return copyOut(at, RECORDS_OFFSET + rawLength, into);
  }
  const mark = top;
  try {
    return compressedBatch(batch, codec, count, last, baseTs, maxTs, at + RECORDS_OFFSET, rawLength, options, into);
  } finally {
    setTop(mark);
  }
}

const newBytes = (size: number) => new Uint8Array(size);

/** WebAssembly memory [at, at + size) copied into `into(size)`'s array (the caller's pool, say). */
function copyOut(at: number, size: number, into: (size: number) => Uint8Array): Uint8Array {
  if (into === newBytes) return mem().slice(at, at + size);
  const out = into(size);
  out.set(mem().subarray(at, at + size));
  return out;
}

/** The records at `raw` compressed behind a header: the finished batch, copied out. */
function compressedBatch(batch: Omit<RecordBatchInput, 'records'>, codec: number, n: number, lastOffsetDelta: number,
  baseTs: bigint, maxTs: bigint, raw: number, rawLen: number, options: EncodeOptions, into: (size: number) => Uint8Array = newBytes): Uint8Array {
  const [cp, clen] = compressInWasm(codec, raw, rawLen, options);
  const final = alloc(RECORDS_OFFSET + clen);
  mem().copyWithin(final + RECORDS_OFFSET, cp, cp + clen);
  writeHeader(final, batch, codec, n, lastOffsetDelta, baseTs, maxTs);
  wasm().finishBatch(final, RECORDS_OFFSET + clen, n);
  return copyOut(final, RECORDS_OFFSET + clen, into);
}

/** The header fields before batchLength, count and CRC (finishBatch's), at `at`. */
function writeHeader(at: number, batch: Omit<RecordBatchInput, 'records'>, codec: number, n: number, lastOffsetDelta: number,
  baseTs: bigint, maxTs: bigint): void {
  const attributes = codec |
    (batch.timestampType === 'logAppend' ? 0x08 : 0) |
    (batch.isTransactional ? 0x10 : 0) |
    (batch.isControl ? 0x20 : 0) |
    (batch.hasDeleteHorizon ? 0x40 : 0);
  const v = new DataView(mem().buffer, at, RECORDS_OFFSET);
  v.setBigInt64(0, toBigInt(batch.baseOffset ?? 0n, 'baseOffset'));
  v.setInt32(PARTITION_LEADER_EPOCH_OFFSET, int32(batch.partitionLeaderEpoch, -1, 'partitionLeaderEpoch'));
  v.setInt8(MAGIC_OFFSET, 2);
  v.setInt16(ATTRIBUTES_OFFSET, attributes);
  v.setInt32(LAST_OFFSET_DELTA_OFFSET, int32(batch.lastOffsetDelta, n > 0 ? lastOffsetDelta : 0, 'lastOffsetDelta'));
  v.setBigInt64(BASE_TIMESTAMP_OFFSET, baseTs);
  v.setBigInt64(MAX_TIMESTAMP_OFFSET, maxTs);
  v.setBigInt64(PRODUCER_ID_OFFSET, toBigInt(batch.producerId ?? -1n, 'producerId'));
  v.setInt16(PRODUCER_EPOCH_OFFSET, int32(batch.producerEpoch, -1, 'producerEpoch'));
  v.setInt32(BASE_SEQUENCE_OFFSET, int32(batch.baseSequence, -1, 'baseSequence'));
}

/** The module's encodeRecords; memory that cannot grow fails it, as a RecordsError. */
function writeRecords(spec: number, n: number, data: number, out: number, withHeader: number): number {
  try {
    return wasm().encodeRecords(spec, n, data, out, withHeader);
  } catch (thrown) {
    throw statusError(thrown);
  }
}
