// A record batch being built one record at a time, for producers: each record's bytes are copied
// once into a growing byte column and its lengths and deltas into the encoder's spec layout
// (src/wasm/abi.ts), so no object per record is kept and encoding is one copy into WebAssembly
// memory and one call (encodeSpecBatch). The builder is reusable after reset().
import { SPEC_ATTRIBUTES, SPEC_HEADER_COUNT, SPEC_HEADER_WORDS, SPEC_KEY_LENGTH, SPEC_OFFSET_DELTA,
  SPEC_TIMESTAMP_DELTA, SPEC_VALUE_LENGTH, SPEC_WORDS } from '../wasm/abi.js';
import { encodeUtf8Into } from '../text.js';
import { recordsError } from './errors.js';
import { encodeSpecBatch } from './encode.js';
import type { EncodeOptions, RecordBatchInput, RecordInput } from './types.js';

const TWO32 = 4294967296;
/** The batch header before the first record (RecordBatch v2). */
export const BATCH_OVERHEAD = 61;
/** A record's own bytes besides key, value and headers, at most: length, attributes, deltas, lengths, header count. */
const RECORD_OVERHEAD = 5 + 1 + 10 + 5 + 5 + 5 + 5;

type Field = Uint8Array | string | null | undefined;

export class RecordColumns {
  /** Key, value and header bytes of every record, concatenated. */
  data: Uint8Array;
  dataLength = 0;
  spec: Int32Array;
  specWords = 0;
  count = 0;
  /** The first record's timestamp (ms); the others are deltas from it. */
  baseTimestamp = 0;
  #maxDelta = 0;

  constructor(initialBytes = 16 * 1024) {
    this.data = new Uint8Array(initialBytes);
    this.spec = new Int32Array(Math.max(64, initialBytes >> 4));
  }

  /** An upper bound of the encoded batch's size (uncompressed). */
  get sizeInBytes(): number {
    return BATCH_OVERHEAD + this.dataLength + this.count * RECORD_OVERHEAD;
  }

  /** The encoded size one more record of this many key/value/header bytes adds, at most. */
  static recordSize(fieldBytes: number): number {
    return fieldBytes + RECORD_OVERHEAD;
  }

  reset(): void {
    this.dataLength = 0;
    this.specWords = 0;
    this.count = 0;
    this.#maxDelta = 0;
  }

  /**
   * Adds a record whose key is src[keyStart, keyEnd) (keyStart < 0: null key) and whose value is
   * src[valueStart, valueEnd) (valueStart < 0: null value): the form a byte splitter uses, with
   * no view or string made per record.
   */
  addRange(src: Uint8Array, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, timestamp: number): void {
    const kl = keyStart < 0 ? -1 : keyEnd - keyStart;
    const vl = valueStart < 0 ? -1 : valueEnd - valueStart;
    let d = this.dataLength;
    const need = d + (kl > 0 ? kl : 0) + (vl > 0 ? vl : 0);
    if (need > this.data.length) this.#growData(need);
    const out = this.data;
    if (kl > 0) { copyRange(src, keyStart, keyEnd, out, d); d += kl; }
    if (vl > 0) { copyRange(src, valueStart, valueEnd, out, d); d += vl; }
    this.dataLength = d;
    this.#addSpec(kl, vl, 0, timestamp);
  }

  /** Adds a key and value given as bytes, strings (UTF-8) or null. */
  add(key: Field, value: Field, timestamp: number): void {
    const kl = this.#write(key);
    const vl = this.#write(value);
    this.#addSpec(kl, vl, 0, timestamp);
  }

  /** Adds a record as the records layer takes it (headers included; timestamp: the record's, else `now`). */
  addRecord(r: RecordInput, now: number): void {
    const ts = r.timestamp === undefined ? now : Number(r.timestamp);
    if (!Number.isSafeInteger(ts)) throw recordsError('INVALID_ARGUMENT', -1, 'timestamp', 'timestamp must be a safe integer');
    const hs = r.headers;
    const hc = hs === undefined ? 0 : hs.length;
    const kl = this.#write(r.key);
    const vl = this.#write(r.value);
    this.#addSpec(kl, vl, hc, ts);
    if (hc === 0) return;
    if (this.specWords + hc * SPEC_HEADER_WORDS > this.spec.length) this.#growSpec(this.specWords + hc * SPEC_HEADER_WORDS);
    for (let j = 0; j < hc; j++) {
      const h = hs![j]!;
      if (h.key == null) throw recordsError('INVALID_ARGUMENT', -1, `headers[${j}].key`, 'header keys cannot be null');
      this.spec[this.specWords] = this.#write(h.key);
      this.spec[this.specWords + 1] = this.#write(h.value);
      this.specWords += SPEC_HEADER_WORDS;
    }
  }

  /** The finished batch: producer fields and compression from `header`. */
  encode(header: Omit<RecordBatchInput, 'records' | 'baseTimestamp' | 'maxTimestamp'>, options?: EncodeOptions): Uint8Array {
    return encodeSpecBatch(header, this.baseTimestamp, this.baseTimestamp + this.#maxDelta,
      this.count, this.spec, this.specWords, this.data, this.dataLength, options);
  }

  #addSpec(kl: number, vl: number, hc: number, timestamp: number): void {
    const i = this.count;
    if (i === 0) this.baseTimestamp = timestamp;
    const delta = timestamp - this.baseTimestamp;
    if (delta > this.#maxDelta) this.#maxDelta = delta;
    let s = this.specWords;
    if (s + SPEC_WORDS > this.spec.length) this.#growSpec(s + SPEC_WORDS);
    const S = this.spec;
    S[s + SPEC_ATTRIBUTES] = 0;
    if (delta >= 0 && delta < 0x80000000) {
      S[s + SPEC_TIMESTAMP_DELTA] = delta;
      S[s + SPEC_TIMESTAMP_DELTA + 1] = 0;
    } else {
      const hi = Math.floor(delta / TWO32);
      S[s + SPEC_TIMESTAMP_DELTA] = (delta - hi * TWO32) | 0;
      S[s + SPEC_TIMESTAMP_DELTA + 1] = hi;
    }
    S[s + SPEC_OFFSET_DELTA] = i;
    S[s + SPEC_KEY_LENGTH] = kl;
    S[s + SPEC_VALUE_LENGTH] = vl;
    S[s + SPEC_HEADER_COUNT] = hc;
    this.specWords = s + SPEC_WORDS;
    this.count = i + 1;
  }

  /** Appends a field's bytes; its length, -1 for null. */
  #write(x: Field | string): number {
    if (x == null) return -1;
    let d = this.dataLength;
    if (typeof x === 'string') {
      if (d + x.length * 3 > this.data.length) this.#growData(d + x.length * 3);
      const n = encodeUtf8Into(x, this.data, d);
      this.dataLength = d + n;
      return n;
    }
    if (!(x instanceof Uint8Array)) throw recordsError('INVALID_ARGUMENT', -1, '', 'record keys, values and headers must be Uint8Array, string or null');
    const n = x.length;
    if (d + n > this.data.length) this.#growData(d + n);
    copyRange(x, 0, n, this.data, d);
    this.dataLength = d + n;
    return n;
  }

  #growData(need: number): void {
    const bigger = new Uint8Array(Math.max(need, this.data.length * 2));
    bigger.set(this.data.subarray(0, this.dataLength));
    this.data = bigger;
  }

  #growSpec(need: number): void {
    const bigger = new Int32Array(Math.max(need, this.spec.length * 2));
    bigger.set(this.spec.subarray(0, this.specWords));
    this.spec = bigger;
  }
}

/**
 * Copies src[start, end) to out at `at`: a loop for short fields (no view made per record, so
 * nothing for the collector), else one set().
 */
function copyRange(src: Uint8Array, start: number, end: number, out: Uint8Array, at: number): void {
  const n = end - start;
  if (n <= 128) {
    for (let i = 0; i < n; i++) out[at + i] = src[start + i]!;
  } else {
    out.set(src.subarray(start, end), at);
  }
}
