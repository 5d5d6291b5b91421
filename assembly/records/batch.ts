// RecordBatch v2 framing, record walking (decode to an Int32 tape) and record encoding.
//
// Decode tape, written by scanBatches at `out`:
//   header  (8 x i32): nEntries, truncatedBytes, consumedBytes, rowsPtr, totalRows, hdrsPtr,
//                      totalHeaders, endPtr
//   entries (8 x i32 each, from out+32): magic, start, length, attributes, recordCount, rowStart
//                      (-1 when the records were not walked: compressed or legacy), hdrStart, hdrEnd
//   rows    (10 x i32 per record, at rowsPtr): attributes, timestampDelta lo, timestampDelta hi,
//                      offsetDelta, keyOffset, keyLength (-1 null), valueOffset, valueLength (-1
//                      null), headerCount, first header index
//   headers (4 x i32 per header, at hdrsPtr): keyOffset, keyLength, valueOffset, valueLength (-1 null)
// Offsets are relative to the start of the input, so JS can subarray its own copy of the bytes.
import {
  E_TRUNCATED, E_INVALID_LENGTH, E_VARINT_TOO_LONG, E_CRC_MISMATCH, E_UNSUPPORTED_MAGIC,
  E_RECORD_COUNT, E_RECORD_LENGTH_MISMATCH, E_TRAILING_BYTES, E_BATCH_TOO_SHORT, E_OUT_OF_MEMORY,
  F_BATCH, F_RECORD_LENGTH, F_ATTRIBUTES, F_TIMESTAMP_DELTA, F_OFFSET_DELTA, F_KEY_LENGTH,
  F_VALUE_LENGTH, F_HEADER_COUNT, F_HEADER_KEY_LENGTH, F_HEADER_VALUE_LENGTH, F_CRC, F_BATCH_LENGTH,
  F_MAGIC, F_RECORD_COUNT, F_RECORDS, F_RECORD,
  STATUS, copy, fail, resetStatus, ensure, be16, be32, storeBe32, setBatch, setRecord, setHeader,
} from './common';
import { crc32cOf, crc32Of } from './crc';

export const ROW_INTS: i32 = 10;
export const HDR_INTS: i32 = 4;
const V2_HEADER: i32 = 61;        // bytes from baseOffset to the first record
const V2_MIN_LENGTH: i32 = 49;    // batchLength of a batch with no records
const MIN_RECORD: i32 = 7;        // smallest possible encoded record
const LEGACY_MIN_0: i32 = 14;     // crc + magic + attributes + key length + value length
const LEGACY_MIN_1: i32 = 22;     // the same plus the timestamp

// Varint readers. They return (newPosition << 32) | value; a zero position means failure, with
// the reason in VERR. Varlongs return the new position and leave the value in V64.
let VERR: i32 = 0;
let V64: i64 = 0;

// @ts-ignore: decorator
@inline function rv(p: usize, end: usize): u64 {
  // One and two bytes inline: record lengths and offset deltas of a 100-byte record take two.
  if (p + 2 <= end) {
    const b = <u32>load<u16>(p);
    if (!(b & 0x80)) return ((<u64>(p + 1)) << 32) | <u64>(((b & 0x7f) >>> 1) ^ (0 - (b & 1)));
    if (!(b & 0x8000)) {
      const v = (b & 0x7f) | ((b >>> 1) & 0x3f80);
      return ((<u64>(p + 2)) << 32) | <u64>((v >>> 1) ^ (0 - (v & 1)));
    }
  }
  return rvSlow(p, end);
}

function rvSlow(p: usize, end: usize): u64 {
  let v: u32 = 0;
  let shift: u32 = 0;
  for (let i = 0; i < 5; i++) {
    if (p >= end) { VERR = E_TRUNCATED; return 0; }
    const b = <u32>load<u8>(p++);
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return ((<u64>p) << 32) | <u64>((v >>> 1) ^ (0 - (v & 1)));
    shift += 7;
  }
  VERR = E_VARINT_TOO_LONG;
  return 0;
}

// @ts-ignore: decorator
@inline function rvl(p: usize, end: usize): usize {
  if (p + 2 <= end) {
    const b = <u32>load<u16>(p);
    if (!(b & 0x80)) {
      V64 = <i64><i32>(((b & 0x7f) >>> 1) ^ (0 - (b & 1)));
      return p + 1;
    }
    if (!(b & 0x8000)) {
      const v = (b & 0x7f) | ((b >>> 1) & 0x3f80);
      V64 = <i64><i32>((v >>> 1) ^ (0 - (v & 1)));
      return p + 2;
    }
  }
  return rvlSlow(p, end);
}

function rvlSlow(p: usize, end: usize): usize {
  let v: u64 = 0;
  let shift: u64 = 0;
  for (let i = 0; i < 10; i++) {
    if (p >= end) { VERR = E_TRUNCATED; return 0; }
    const b = <u64>load<u8>(p++);
    v |= (b & 0x7f) << shift;
    if (b < 0x80) {
      V64 = <i64>((v >>> 1) ^ (0 - (v & 1)));
      return p;
    }
    shift += 7;
  }
  VERR = E_VARINT_TOO_LONG;
  return 0;
}

let hdrsPtr: usize = 0;
let hdrCount: i32 = 0;
let memEnd: usize = 0;

/**
 * Walks `count` records in [p, end) writing rows at `rows` and headers at hdrsPtr/hdrCount.
 * Returns 0 or an error code.
 */
function walk(base: usize, p: usize, end: usize, count: i32, rows: usize): i32 {
  VERR = 0;
  memEnd = (<usize>memory.size()) << 16;
  let r: u64;
  for (let i = 0; i < count; i++) {
    const recStart = p;
    r = rv(p, end);
    if (!r) return failAt(i, -1, VERR, recStart - base, F_RECORD_LENGTH);
    const len = <i32>r;
    p = <usize>(r >>> 32);
    if (len < 0 || <usize>len > end - p) {
      return failAt(i, -1, len < 0 ? E_INVALID_LENGTH : E_TRUNCATED, recStart - base, F_RECORD_LENGTH);
    }
    const recEnd = p + <usize>len;
    if (p >= recEnd) return failAt(i, -1, E_TRUNCATED, p - base, F_ATTRIBUTES);
    const attrs = <i32>load<u8>(p);
    p++;
    let at = p;
    p = rvl(p, recEnd);
    if (!p) return failAt(i, -1, VERR, at - base, F_TIMESTAMP_DELTA);
    at = p;
    r = rv(p, recEnd);
    if (!r) return failAt(i, -1, VERR, at - base, F_OFFSET_DELTA);
    const offDelta = <i32>r;
    p = <usize>(r >>> 32);
    at = p;
    r = rv(p, recEnd);
    if (!r) return failAt(i, -1, VERR, at - base, F_KEY_LENGTH);
    const kl = <i32>r;
    p = <usize>(r >>> 32);
    if (kl < -1) return failAt(i, -1, E_INVALID_LENGTH, at - base, F_KEY_LENGTH);
    if (kl > 0 && <usize>kl > recEnd - p) return failAt(i, -1, E_TRUNCATED, at - base, F_KEY_LENGTH);
    const ko = <i32>(p - base);
    if (kl > 0) p += <usize>kl;
    at = p;
    r = rv(p, recEnd);
    if (!r) return failAt(i, -1, VERR, at - base, F_VALUE_LENGTH);
    const vl = <i32>r;
    p = <usize>(r >>> 32);
    if (vl < -1) return failAt(i, -1, E_INVALID_LENGTH, at - base, F_VALUE_LENGTH);
    if (vl > 0 && <usize>vl > recEnd - p) return failAt(i, -1, E_TRUNCATED, at - base, F_VALUE_LENGTH);
    const vo = <i32>(p - base);
    if (vl > 0) p += <usize>vl;
    at = p;
    r = rv(p, recEnd);
    if (!r) return failAt(i, -1, VERR, at - base, F_HEADER_COUNT);
    const hc = <i32>r;
    p = <usize>(r >>> 32);
    if (hc < 0) return failAt(i, -1, E_INVALID_LENGTH, at - base, F_HEADER_COUNT);
    if (<usize>hc > ((recEnd - p) >>> 1)) return failAt(i, -1, E_TRUNCATED, at - base, F_HEADER_COUNT);
    const h0 = hdrCount;
    if (hc > 0) {
      const need = hdrsPtr + ((<usize>(hdrCount + hc)) << 4);
      if (need > memEnd) {
        if (!ensure(need)) return failAt(i, -1, E_OUT_OF_MEMORY, at - base, F_HEADER_COUNT);
        memEnd = (<usize>memory.size()) << 16;
      }
      let hp = hdrsPtr + ((<usize>hdrCount) << 4);
      for (let h = 0; h < hc; h++) {
        at = p;
        r = rv(p, recEnd);
        if (!r) return failAt(i, h, VERR, at - base, F_HEADER_KEY_LENGTH);
        const hkl = <i32>r;
        p = <usize>(r >>> 32);
        if (hkl < 0) return failAt(i, h, E_INVALID_LENGTH, at - base, F_HEADER_KEY_LENGTH);
        if (<usize>hkl > recEnd - p) return failAt(i, h, E_TRUNCATED, at - base, F_HEADER_KEY_LENGTH);
        store<i32>(hp, <i32>(p - base));
        store<i32>(hp, hkl, 4);
        p += <usize>hkl;
        at = p;
        r = rv(p, recEnd);
        if (!r) return failAt(i, h, VERR, at - base, F_HEADER_VALUE_LENGTH);
        const hvl = <i32>r;
        p = <usize>(r >>> 32);
        if (hvl < -1) return failAt(i, h, E_INVALID_LENGTH, at - base, F_HEADER_VALUE_LENGTH);
        if (hvl > 0 && <usize>hvl > recEnd - p) return failAt(i, h, E_TRUNCATED, at - base, F_HEADER_VALUE_LENGTH);
        store<i32>(hp, <i32>(p - base), 8);
        store<i32>(hp, hvl, 12);
        if (hvl > 0) p += <usize>hvl;
        hp += 16;
      }
      hdrCount += hc;
    }
    if (p != recEnd) return failAt(i, -1, E_RECORD_LENGTH_MISMATCH, recStart - base, F_RECORD);
    store<i32>(rows, attrs);
    store<i64>(rows, V64, 4);
    store<i32>(rows, offDelta, 12);
    store<i32>(rows, ko, 16);
    store<i32>(rows, kl, 20);
    store<i32>(rows, vo, 24);
    store<i32>(rows, vl, 28);
    store<i32>(rows, hc, 32);
    store<i32>(rows, h0, 36);
    rows += 40;
  }
  if (p != end) return fail(E_TRAILING_BYTES, <i32>(p - base), F_RECORDS);
  return 0;
}

function failAt(record: i32, header: i32, code: i32, offset: usize, field: i32): i32 {
  setRecord(record);
  setHeader(header);
  return fail(code, <i32>offset, field);
}

/**
 * Frames every batch (or legacy message) in [inp, inp+len), verifies CRCs when flags&1, and walks
 * the records of uncompressed v2 batches. Writes the tape at `out` (see the file comment).
 * Returns 0 or an error code (details in the status block).
 */
export function scanBatches(inp: usize, len: i32, out: usize, flags: i32): i32 {
  resetStatus();
  const verify = (flags & 1) != 0;
  let pos: i32 = 0;
  let n: i32 = 0;
  let totalRows: i32 = 0;
  let truncated: i32 = 0;
  let ents = out + 32;
  while (pos < len) {
    const rem = len - pos;
    setBatch(n);
    if (rem < 12) { truncated = rem; break; }
    const p = inp + <usize>pos;
    const blen = be32(p + 8);
    if (blen < 0) return fail(E_INVALID_LENGTH, pos + 8, F_BATCH_LENGTH);
    if (blen < 5) return fail(E_BATCH_TOO_SHORT, pos + 8, F_BATCH_LENGTH); // must reach the magic byte
    if (blen > rem - 12) { truncated = rem; break; }
    const magic = <i32>load<i8>(p + 16);
    const size = blen + 12;
    let attrs: i32 = 0;
    let count: i32 = 0;
    if (magic == 2) {
      if (blen < V2_MIN_LENGTH) return fail(E_BATCH_TOO_SHORT, pos + 8, F_BATCH_LENGTH);
      if (verify) {
        const stored = <u32>be32(p + 17);
        const actual = crc32cOf(p + 21, <usize>(size - 21), 0);
        if (stored != actual) {
          store<i32>(STATUS, <i32>actual, 24);
          return fail(E_CRC_MISMATCH, pos + 17, F_CRC);
        }
      }
      attrs = be16(p + 21);
      count = be32(p + 57);
      if (count < 0) return fail(E_INVALID_LENGTH, pos + 57, F_RECORD_COUNT);
      if ((attrs & 7) == 0) {
        if (count > (size - V2_HEADER) / MIN_RECORD) return fail(E_RECORD_COUNT, pos + 57, F_RECORD_COUNT);
        totalRows += count;
      }
    } else if (magic == 0 || magic == 1) {
      if (blen < (magic == 0 ? LEGACY_MIN_0 : LEGACY_MIN_1)) return fail(E_BATCH_TOO_SHORT, pos + 8, F_BATCH_LENGTH);
      if (verify) {
        const stored = <u32>be32(p + 12);
        const actual = crc32Of(p + 16, <usize>(size - 16), 0);
        if (stored != actual) {
          store<i32>(STATUS, <i32>actual, 24);
          return fail(E_CRC_MISMATCH, pos + 12, F_CRC);
        }
      }
      attrs = <i32>load<u8>(p + 17);
      count = 1;
    } else {
      return fail(E_UNSUPPORTED_MAGIC, pos + 16, F_MAGIC);
    }
    if (!ensure(ents + 32)) return fail(E_OUT_OF_MEMORY, pos, F_BATCH);
    store<i32>(ents, magic);
    store<i32>(ents, pos, 4);
    store<i32>(ents, size, 8);
    store<i32>(ents, attrs, 12);
    store<i32>(ents, count, 16);
    store<i32>(ents, -1, 20);
    store<i32>(ents, 0, 24);
    store<i32>(ents, 0, 28);
    ents += 32;
    n++;
    pos += size;
  }
  setBatch(-1);
  const rows = (ents + 15) & ~(<usize>15);
  const rowBytes = (<usize>totalRows) * 40;
  hdrsPtr = rows + rowBytes;
  hdrCount = 0;
  if (!ensure(hdrsPtr)) return fail(E_OUT_OF_MEMORY, 0, F_BATCH);
  let row = rows;
  let rowIndex: i32 = 0;
  ents = out + 32;
  for (let i = 0; i < n; i++) {
    const magic = load<i32>(ents);
    const attrs = load<i32>(ents, 12);
    if (magic == 2 && (attrs & 7) == 0) {
      setBatch(i);
      const start = load<i32>(ents, 4);
      const size = load<i32>(ents, 8);
      const count = load<i32>(ents, 16);
      const p = inp + <usize>start;
      store<i32>(ents, rowIndex, 20);
      store<i32>(ents, hdrCount, 24);
      const rc = walk(inp, p + V2_HEADER, p + <usize>size, count, row);
      if (rc) return rc;
      store<i32>(ents, hdrCount, 28);
      row += (<usize>count) * 40;
      rowIndex += count;
    }
    ents += 32;
  }
  setBatch(-1);
  store<i32>(out, n);
  store<i32>(out, truncated, 4);
  store<i32>(out, pos, 8);
  store<i32>(out, <i32>rows, 12);
  store<i32>(out, totalRows, 16);
  store<i32>(out, <i32>hdrsPtr, 20);
  store<i32>(out, hdrCount, 24);
  store<i32>(out, <i32>(hdrsPtr + ((<usize>hdrCount) << 4)), 28);
  return 0;
}

/**
 * Walks `count` records in [p, p+len) (a decompressed records section). Offsets are relative to p.
 * Writes at `out`: header (8 x i32): rowsPtr, count, hdrsPtr, hdrCount, endPtr; then rows, headers.
 */
export function walkRecords(p: usize, len: i32, count: i32, out: usize, batchIndex: i32): i32 {
  resetStatus();
  setBatch(batchIndex);
  if (count < 0 || count > len / MIN_RECORD) return fail(E_RECORD_COUNT, 0, F_RECORD_COUNT);
  const rows = out + 32;
  hdrsPtr = rows + (<usize>count) * 40;
  hdrCount = 0;
  if (!ensure(hdrsPtr)) return fail(E_OUT_OF_MEMORY, 0, F_BATCH);
  const rc = walk(p, p, p + <usize>len, count, rows);
  if (rc) return rc;
  store<i32>(out, <i32>rows);
  store<i32>(out, count, 4);
  store<i32>(out, <i32>hdrsPtr, 8);
  store<i32>(out, hdrCount, 12);
  store<i32>(out, <i32>(hdrsPtr + ((<usize>hdrCount) << 4)), 16);
  return 0;
}


// ---------------------------------------------------------------------------------------------
// Encoding

// @ts-ignore: decorator
@inline function sizeVarint(v: i32): i32 {
  const z = <u32>((v << 1) ^ (v >> 31));
  return z < 0x80 ? 1 : z < 0x4000 ? 2 : z < 0x200000 ? 3 : z < 0x10000000 ? 4 : 5;
}

// @ts-ignore: decorator
@inline function sizeVarlong(v: i64): i32 {
  let z = <u64>((v << 1) ^ (v >> 63));
  let n = 1;
  while (z >= 0x80) { z >>>= 7; n++; }
  return n;
}

// @ts-ignore: decorator
@inline function writeVarint(p: usize, v: i32): usize {
  let z = <u32>((v << 1) ^ (v >> 31));
  while (z >= 0x80) {
    store<u8>(p++, <u8>(z | 0x80));
    z >>>= 7;
  }
  store<u8>(p++, <u8>z);
  return p;
}

// @ts-ignore: decorator
@inline function writeVarlong(p: usize, v: i64): usize {
  let z = <u64>((v << 1) ^ (v >> 63));
  while (z >= 0x80) {
    store<u8>(p++, <u8>(z | 0x80));
    z >>>= 7;
  }
  store<u8>(p++, <u8>z);
  return p;
}

// @ts-ignore: decorator
@inline function nonNeg(v: i32): i32 { return v > 0 ? v : 0; }

/**
 * Encodes n records described by `spec` (per record, i32: attributes, timestampDelta lo, hi,
 * offsetDelta, keyLength (-1 null), valueLength (-1 null), headerCount, then per header key
 * length and value length (-1 null)) whose bytes are concatenated at `data` (key, value, then each
 * header's key and value). Output goes to `out`, after a 61-byte batch header when withHeader != 0
 * (the caller fills the header fields; this fills batchLength, record count and CRC).
 * Returns the number of bytes written (including the header) or -1 when memory cannot grow.
 */
export function encodeRecords(spec: usize, n: i32, data: usize, out: usize, withHeader: i32): i32 {
  // Sizing pass
  let s = spec;
  let total: usize = 0;
  for (let r = 0; r < n; r++) {
    const ts = load<i64>(s, 4);
    const kl = load<i32>(s, 16);
    const vl = load<i32>(s, 20);
    const hc = load<i32>(s, 24);
    let body = 1 + sizeVarlong(ts) + sizeVarint(load<i32>(s, 12)) + sizeVarint(kl) + nonNeg(kl) +
      sizeVarint(vl) + nonNeg(vl) + sizeVarint(hc);
    s += 28;
    for (let h = 0; h < hc; h++) {
      const hkl = load<i32>(s);
      const hvl = load<i32>(s, 4);
      body += sizeVarint(hkl) + nonNeg(hkl) + sizeVarint(hvl) + nonNeg(hvl);
      s += 8;
    }
    total += <usize>(sizeVarint(body) + body);
  }
  const hdr: usize = withHeader ? <usize>V2_HEADER : 0;
  if (!ensure(out + hdr + total)) return -1;
  // Writing pass
  s = spec;
  let d = data;
  let o = out + hdr;
  for (let r = 0; r < n; r++) {
    const attrs = load<i32>(s);
    const ts = load<i64>(s, 4);
    const od = load<i32>(s, 12);
    const kl = load<i32>(s, 16);
    const vl = load<i32>(s, 20);
    const hc = load<i32>(s, 24);
    let body = 1 + sizeVarlong(ts) + sizeVarint(od) + sizeVarint(kl) + nonNeg(kl) +
      sizeVarint(vl) + nonNeg(vl) + sizeVarint(hc);
    let hs = s + 28;
    for (let h = 0; h < hc; h++) {
      const hkl = load<i32>(hs);
      const hvl = load<i32>(hs, 4);
      body += sizeVarint(hkl) + nonNeg(hkl) + sizeVarint(hvl) + nonNeg(hvl);
      hs += 8;
    }
    o = writeVarint(o, body);
    store<u8>(o++, <u8>attrs);
    o = writeVarlong(o, ts);
    o = writeVarint(o, od);
    o = writeVarint(o, kl);
    if (kl > 0) { copy(o, d, <usize>kl); o += <usize>kl; d += <usize>kl; }
    o = writeVarint(o, vl);
    if (vl > 0) { copy(o, d, <usize>vl); o += <usize>vl; d += <usize>vl; }
    o = writeVarint(o, hc);
    s += 28;
    for (let h = 0; h < hc; h++) {
      const hkl = load<i32>(s);
      const hvl = load<i32>(s, 4);
      o = writeVarint(o, hkl);
      if (hkl > 0) { copy(o, d, <usize>hkl); o += <usize>hkl; d += <usize>hkl; }
      o = writeVarint(o, hvl);
      if (hvl > 0) { copy(o, d, <usize>hvl); o += <usize>hvl; d += <usize>hvl; }
      s += 8;
    }
  }
  const written = <i32>(o - out);
  if (withHeader) finishBatch(out, written, n);
  return written;
}

/** Fills batchLength, record count and CRC-32C of a complete v2 batch of `size` bytes at p. */
export function finishBatch(p: usize, size: i32, count: i32): void {
  storeBe32(p + 8, size - 12);
  storeBe32(p + 57, count);
  storeBe32(p + 17, <i32>crc32cOf(p + 21, <usize>(size - 21), 0));
}
