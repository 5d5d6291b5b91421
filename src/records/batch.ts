// Decoded record batches and records. Record keys, values and header values are subarray views of
// a JS-owned buffer: the caller's input for uncompressed data, or the decompressed records.
import type { CompressionName, ControlRecord, RecordHeader, TimestampType } from './types.js';
import { COMPRESSION_NAMES } from './types.js';
import { recordsError } from './errors.js';
import { decodeUtf8 } from '../text.js';
import { be16, be32 } from '../bytes.js';
import * as abi from '../wasm/abi.js';

// The ABI's numbers as this module's own constants: V8 folds a module's constants into optimized
// code but loads imported bindings on every use, and these sit in per-record loops.
const HEADER_KEY_LENGTH = abi.HEADER_KEY_LENGTH,
  HEADER_KEY_OFFSET = abi.HEADER_KEY_OFFSET,
  HEADER_VALUE_LENGTH = abi.HEADER_VALUE_LENGTH,
  HEADER_VALUE_OFFSET = abi.HEADER_VALUE_OFFSET,
  HEADER_WORDS = abi.HEADER_WORDS,
  ROW_ATTRIBUTES = abi.ROW_ATTRIBUTES,
  ROW_FIRST_HEADER = abi.ROW_FIRST_HEADER,
  ROW_HEADER_COUNT = abi.ROW_HEADER_COUNT,
  ROW_KEY_LENGTH = abi.ROW_KEY_LENGTH,
  ROW_KEY_OFFSET = abi.ROW_KEY_OFFSET,
  ROW_OFFSET_DELTA = abi.ROW_OFFSET_DELTA,
  ROW_TIMESTAMP_DELTA = abi.ROW_TIMESTAMP_DELTA,
  ROW_VALUE_LENGTH = abi.ROW_VALUE_LENGTH,
  ROW_VALUE_OFFSET = abi.ROW_VALUE_OFFSET,
  ROW_WORDS = abi.ROW_WORDS;

const TWO32 = 4294967296;

/** Combines the two halves of a varlong. Exact for |v| <= 2^53 - 1; otherwise use the bigint. */
export function int64(lo: number, hi: number): number {
  return hi * TWO32 + (lo >>> 0);
}

function bigFromHalves(lo: number, hi: number): bigint {
  return (BigInt(hi) << 32n) | BigInt(lo >>> 0);
}

export class KafkaRecord {
  /** Exact timestampDelta when it is outside the safe integer range (else undefined). */
  readonly timestampDeltaBig: bigint | undefined;

  constructor(
    /** The batch this record belongs to. */
    readonly batch: RecordBatch,
    /** Offset relative to batch.baseOffset (int32). */
    readonly offsetDelta: number,
    /** Timestamp relative to batch.baseTimestamp in ms (exact when |delta| < 2^53). */
    readonly timestampDelta: number,
    readonly key: Uint8Array | null,
    readonly value: Uint8Array | null,
    readonly headers: RecordHeader[],
    /** Record attributes byte (unused by Kafka so far). */
    readonly attributes: number,
    timestampDeltaBig?: bigint,
  ) {
    this.timestampDeltaBig = timestampDeltaBig;
  }

  /** Absolute offset. */
  get offset(): bigint {
    return this.batch.baseOffset + BigInt(this.offsetDelta);
  }

  /** Absolute offset as a number (exact below 2^53). */
  get offsetNumber(): number {
    return this.batch.baseOffsetNumber + this.offsetDelta;
  }

  /**
   * Absolute timestamp in ms. As in Kafka, records of a LogAppendTime batch take the batch's
   * maxTimestamp; otherwise baseTimestamp + timestampDelta (exact for any varlong delta).
   */
  get timestamp(): bigint {
    const b = this.batch;
    if (b.timestampType === 'logAppend' && b.magic === 2) return b.maxTimestamp;
    return BigInt.asIntN(64, b.baseTimestamp + (this.timestampDeltaBig ?? BigInt(this.timestampDelta)));
  }

  /** Absolute timestamp as a number (ms since the epoch; exact for realistic timestamps). */
  get timestampNumber(): number {
    const b = this.batch;
    if (b.timestampType === 'logAppend' && b.magic === 2) return Number(b.maxTimestamp);
    if (this.timestampDeltaBig !== undefined) return Number(this.timestamp);
    return b.baseTimestampNumber + this.timestampDelta;
  }

  /** For records of control batches: the decoded marker, else undefined. */
  get control(): ControlRecord | undefined {
    return this.batch.isControl ? decodeControl(this) : undefined;
  }
}

/** Decodes a control record's key (version int16, type int16) and value (version, coordinatorEpoch). */
export function decodeControl(r: { key: Uint8Array | null; value: Uint8Array | null }): ControlRecord {
  const k = r.key;
  if (k === null || k.length < 4) throw recordsError('INVALID_CONTROL_RECORD', -1, 'key', 'control record key must be at least 4 bytes');
  const version = be16(k, 0);
  const typeCode = be16(k, 2);
  const control: ControlRecord = {
    version,
    typeCode,
    type: typeCode === 0 ? 'abort' : typeCode === 1 ? 'commit' : 'unknown',
  };
  const v = r.value;
  if (v !== null && v.length >= 6) control.coordinatorEpoch = be32(v, 2);
  return control;
}

export interface BatchHeaderFields {
  baseOffset: bigint;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: bigint;
  maxTimestamp: bigint;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
  byteOffset: number;
  byteLength: number;
}

export class RecordBatch {
  readonly baseOffset: bigint;
  readonly batchLength: number;
  readonly partitionLeaderEpoch: number;
  readonly magic: number;
  /** Stored checksum (CRC-32C for v2, CRC-32 of the wrapper message for magic 0/1), unsigned. */
  readonly crc: number;
  readonly attributes: number;
  readonly compression: CompressionName;
  readonly timestampType: TimestampType;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly hasDeleteHorizon: boolean;
  readonly lastOffsetDelta: number;
  readonly baseTimestamp: bigint;
  readonly maxTimestamp: bigint;
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly recordCount: number;
  /** Position and size of the batch in the decoded buffer. */
  readonly byteOffset: number;
  readonly byteLength: number;
  /** baseOffset / baseTimestamp as numbers (exact below 2^53), to avoid BigInt per record. */
  readonly baseOffsetNumber: number;
  readonly baseTimestampNumber: number;

  /** @internal */ _data: Uint8Array;
  /** @internal */ _rows: Int32Array | undefined;
  /** @internal */ _rowBase: number;
  /** @internal */ _hdrs: Int32Array | undefined;
  /** @internal */ _records: KafkaRecord[] | undefined;
  /** @internal */ _cache: (KafkaRecord | undefined)[] | undefined;

  constructor(h: BatchHeaderFields, data: Uint8Array) {
    this.baseOffset = h.baseOffset;
    this.batchLength = h.batchLength;
    this.partitionLeaderEpoch = h.partitionLeaderEpoch;
    this.magic = h.magic;
    this.crc = h.crc;
    this.attributes = h.attributes;
    const a = h.attributes;
    this.compression = COMPRESSION_NAMES[a & 7] ?? ('unknown' as CompressionName);
    this.timestampType = a & 8 ? 'logAppend' : 'create';
    this.isTransactional = h.magic === 2 && (a & 0x10) !== 0;
    this.isControl = h.magic === 2 && (a & 0x20) !== 0;
    this.hasDeleteHorizon = h.magic === 2 && (a & 0x40) !== 0;
    this.lastOffsetDelta = h.lastOffsetDelta;
    this.baseTimestamp = h.baseTimestamp;
    this.maxTimestamp = h.maxTimestamp;
    this.producerId = h.producerId;
    this.producerEpoch = h.producerEpoch;
    this.baseSequence = h.baseSequence;
    this.recordCount = h.recordCount;
    this.byteOffset = h.byteOffset;
    this.byteLength = h.byteLength;
    this.baseOffsetNumber = Number(h.baseOffset);
    this.baseTimestampNumber = Number(h.baseTimestamp);
    this._data = data;
    this._rows = undefined;
    this._rowBase = 0;
    this._hdrs = undefined;
    this._records = undefined;
    this._cache = undefined;
  }

  /** All records (materialized on first access for lazily decoded batches). */
  get records(): KafkaRecord[] {
    let r = this._records;
    if (r === undefined) {
      const n = this.recordCount;
      const cache = this._cache;
      const d = this._data;
      r = new Array<KafkaRecord>(n);
      for (let i = 0, o = this._rowBase; i < n; i++, o += ROW_WORDS) {
        r[i] = cache?.[i] ?? materialize(this, d, d.buffer, d.byteOffset, this._rows!, o, this._hdrs!);
      }
      this._records = r;
      this._cache = undefined;
    }
    return r;
  }

  /** The i-th record (materialized and cached on demand). */
  record(i: number): KafkaRecord {
    if (this._records !== undefined) return this._records[i];
    this.check(i);
    const cache = (this._cache ??= new Array(this.recordCount));
    const d = this._data;
    return (cache[i] ??= materialize(this, d, d.buffer, d.byteOffset, this._rows!, this._rowBase + i * ROW_WORDS, this._hdrs!));
  }

  [Symbol.iterator](): IterableIterator<KafkaRecord> {
    let i = 0;
    const self = this;
    return {
      next(): IteratorResult<KafkaRecord> {
        return i < self.recordCount ? { value: self.record(i++), done: false } : { value: undefined, done: true };
      },
      [Symbol.iterator]() { return this; },
    };
  }

  private check(i: number): void {
    if (!((i >>> 0) === i && i < this.recordCount)) outOfRange(i);
  }

  private row(i: number): number {
    // The test inline and the throw in a separate function: V8 then inlines this into every
    // accessor (the lazy benchmark's seven calls per record: 17 -> 9 ns).
    if (!((i >>> 0) === i && i < this.recordCount)) outOfRange(i);
    return this._rowBase + i * ROW_WORDS;
  }

  // Columnar accessors: no record object is created. They fall back to records for batches
  // without a tape (legacy message sets).
  offsetDeltaAt(i: number): number {
    return this._rows ? this._rows[this.row(i) + ROW_OFFSET_DELTA] : this.record(i).offsetDelta;
  }

  timestampDeltaAt(i: number): number {
    if (!this._rows) return this.record(i).timestampDelta;
    const o = this.row(i);
    return int64(this._rows[o + ROW_TIMESTAMP_DELTA], this._rows[o + ROW_TIMESTAMP_DELTA + 1]);
  }

  offsetAt(i: number): bigint {
    return this.baseOffset + BigInt(this.offsetDeltaAt(i));
  }

  timestampAt(i: number): bigint {
    if (this.timestampType === 'logAppend' && this.magic === 2) return this.maxTimestamp;
    if (!this._rows) return this.record(i).timestamp;
    const o = this.row(i);
    return BigInt.asIntN(64, this.baseTimestamp + bigFromHalves(this._rows[o + ROW_TIMESTAMP_DELTA], this._rows[o + ROW_TIMESTAMP_DELTA + 1]));
  }

  keyAt(i: number): Uint8Array | null {
    const rows = this._rows;
    if (!rows) return this.record(i).key;
    const o = this.row(i);
    const len = rows[o + ROW_KEY_LENGTH];
    const d = this._data;
    return len < 0 ? null : new Uint8Array(d.buffer, d.byteOffset + rows[o + ROW_KEY_OFFSET], len);
  }

  valueAt(i: number): Uint8Array | null {
    const rows = this._rows;
    if (!rows) return this.record(i).value;
    const o = this.row(i);
    const len = rows[o + ROW_VALUE_LENGTH];
    const d = this._data;
    return len < 0 ? null : new Uint8Array(d.buffer, d.byteOffset + rows[o + ROW_VALUE_OFFSET], len);
  }

  /**
   * The bytes keyOffsetAt / valueOffsetAt index into: the decoded input for uncompressed batches,
   * the decompressed records for compressed ones. With the size accessors they give a record's
   * key and value without creating a view per record (compare, hash or copy them in place).
   */
  get data(): Uint8Array {
    return this._data;
  }

  /** Where the i-th record's key starts in `data` (meaningless when keySizeAt(i) is -1). */
  keyOffsetAt(i: number): number {
    if (!this._rows) return offsetIn(this._data, this.record(i).key);
    return this._rows[this.row(i) + ROW_KEY_OFFSET];
  }

  /** The i-th record's key length, or -1 for a null key. */
  keySizeAt(i: number): number {
    if (!this._rows) return this.record(i).key?.length ?? -1;
    return this._rows[this.row(i) + ROW_KEY_LENGTH];
  }

  /** Where the i-th record's value starts in `data` (meaningless when valueSizeAt(i) is -1). */
  valueOffsetAt(i: number): number {
    if (!this._rows) return offsetIn(this._data, this.record(i).value);
    return this._rows[this.row(i) + ROW_VALUE_OFFSET];
  }

  /** The i-th record's value length, or -1 for a null value. */
  valueSizeAt(i: number): number {
    if (!this._rows) return this.record(i).value?.length ?? -1;
    return this._rows[this.row(i) + ROW_VALUE_LENGTH];
  }

  headerCountAt(i: number): number {
    return this._rows ? this._rows[this.row(i) + ROW_HEADER_COUNT] : this.record(i).headers.length;
  }

  headersAt(i: number): RecordHeader[] {
    if (!this._rows) return this.record(i).headers;
    const d = this._data;
    return readHeaders(d, d.buffer, d.byteOffset, this._rows, this.row(i), this._hdrs!);
  }
}

/**
 * The row tape the columnar accessors read, for a loop that takes several columns of every record
 * without the accessors' per-call checks and fallbacks: record i's words start at
 * `base + i * ROW_WORDS`, in the order of src/wasm/abi.ts's ROW_* (a timestamp delta's two halves
 * combine with int64). Undefined for a batch without one (legacy message sets).
 */
export function rowTape(batch: RecordBatch): { rows: Int32Array; base: number } | undefined {
  return batch._rows === undefined ? undefined : { rows: batch._rows, base: batch._rowBase };
}

function outOfRange(i: number): never {
  throw new RangeError(`record index ${i} out of range`);
}

/** Position of a view inside `data` (legacy records are views of the batch's data). */
function offsetIn(data: Uint8Array, view: Uint8Array | null): number {
  return view === null ? 0 : view.byteOffset - data.byteOffset;
}

// `ab` and `base` are data.buffer and data.byteOffset, read once per batch by the callers: the
// buffer getter is a builtin call, not inlined, and it cost more than a view per record.
function readHeaders(data: Uint8Array, ab: ArrayBufferLike, base: number, rows: Int32Array, o: number, hdrs: Int32Array): RecordHeader[] {
  const hc = rows[o + ROW_HEADER_COUNT];
  const headers = new Array<RecordHeader>(hc);
  let h = rows[o + ROW_FIRST_HEADER] * HEADER_WORDS;
  for (let j = 0; j < hc; j++, h += HEADER_WORDS) {
    const vl = hdrs[h + HEADER_VALUE_LENGTH];
    headers[j] = {
      key: headerKey(data, hdrs[h + HEADER_KEY_OFFSET], hdrs[h + HEADER_KEY_LENGTH], j),
      value: vl < 0 ? null : new Uint8Array(ab, base + hdrs[h + HEADER_VALUE_OFFSET], vl),
    };
  }
  return headers;
}

// Header keys repeat from record to record: remember the last key seen at each header position
// (bytes and string) and reuse the string when the bytes match. While one batch is materialized
// right after its walk, a key at the same offset as the remembered one is that key (the walk
// points repeated keys at their first occurrence: src/wasm/abi.ts), with no bytes compared.
const KEY_CACHE = abi.REPEATED_HEADER_KEYS;
const cachedKeyBytes: (Uint8Array | undefined)[] = new Array(KEY_CACHE).fill(undefined);
const cachedKeyStrings: string[] = new Array(KEY_CACHE).fill('');
/** Where each remembered key lies in the batch being materialized; -1 outside materializeAll. */
const cachedKeyOffsets = new Int32Array(KEY_CACHE).fill(-1);
let materializing = false;

function headerKey(data: Uint8Array, off: number, len: number, j: number): string {
  if (j >= KEY_CACHE || len > 64) return decodeUtf8(data, off, len);
  if (cachedKeyOffsets[j] === off) return cachedKeyStrings[j];
  const prev = cachedKeyBytes[j];
  if (prev !== undefined && prev.length === len) {
    let same = true;
    for (let i = 0; i < len; i++) if (prev[i] !== data[off + i]) { same = false; break; }
    if (same) {
      if (materializing) cachedKeyOffsets[j] = off;
      return cachedKeyStrings[j];
    }
  }
  const s = decodeUtf8(data, off, len);
  cachedKeyBytes[j] = data.slice(off, off + len);
  cachedKeyStrings[j] = s;
  if (materializing) cachedKeyOffsets[j] = off;
  return s;
}

/** Builds the record at row index `o` (Int32 index into rows); `ab` and `base` as for readHeaders. */
function materialize(batch: RecordBatch, data: Uint8Array, ab: ArrayBufferLike, base: number, rows: Int32Array, o: number, hdrs: Int32Array): KafkaRecord {
  const kl = rows[o + ROW_KEY_LENGTH];
  const vl = rows[o + ROW_VALUE_LENGTH];
  const ko = rows[o + ROW_KEY_OFFSET];
  const vo = rows[o + ROW_VALUE_OFFSET];
  const lo = rows[o + ROW_TIMESTAMP_DELTA];
  const hi = rows[o + ROW_TIMESTAMP_DELTA + 1];
  let ts: number;
  let big: bigint | undefined;
  if (hi === 0 && lo >= 0) ts = lo;
  else if (hi === -1 && lo < 0) ts = lo;
  else if (hi >= -0x200000 && hi < 0x200000) ts = int64(lo, hi);
  else { big = bigFromHalves(lo, hi); ts = Number(big); }
  return new KafkaRecord(
    batch,
    rows[o + ROW_OFFSET_DELTA],
    ts,
    kl < 0 ? null : new Uint8Array(ab, base + ko, kl),
    vl < 0 ? null : new Uint8Array(ab, base + vo, vl),
    rows[o + ROW_HEADER_COUNT] === 0 ? [] : readHeaders(data, ab, base, rows, o, hdrs),
    rows[o + ROW_ATTRIBUTES],
    big,
  );
}

/** Eagerly builds all records of a batch from a tape (views into WebAssembly memory are only read). */
export function materializeAll(batch: RecordBatch, data: Uint8Array, rows: Int32Array, r0: number, hdrs: Int32Array): void {
  const n = batch.recordCount;
  const out = new Array<KafkaRecord>(n);
  const ab = data.buffer;
  const base = data.byteOffset;
  materializing = true;
  try {
    for (let i = 0, o = r0; i < n; i++, o += ROW_WORDS) out[i] = materialize(batch, data, ab, base, rows, o, hdrs);
  } finally {
    materializing = false;
    cachedKeyOffsets.fill(-1);
  }
  batch._records = out;
}
