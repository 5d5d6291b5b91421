// RecordBatch v2 framing and record walking: decode to an Int32 tape, or in spans mode also where
// each record's fields lie, for explain (encoding is encode.ts). A failure records its reason in
// the status block and traps (common.ts).
//
// The layouts of the tapes and specs below are in src/wasm/abi.ts, shared with the facade.
// Offsets are relative to the start of the input, so JS can subarray its own copy of the bytes.
import {
  E_TRUNCATED, E_INVALID_LENGTH, E_CRC_MISMATCH, E_UNSUPPORTED_MAGIC, E_RECORD_COUNT, E_RECORD_LENGTH_MISMATCH,
  E_TRAILING_BYTES, E_BATCH_TOO_SHORT, E_OUT_OF_MEMORY, F_BATCH, F_RECORD_LENGTH, F_ATTRIBUTES,
  F_TIMESTAMP_DELTA, F_OFFSET_DELTA, F_KEY_LENGTH, F_VALUE_LENGTH, F_HEADER_COUNT, F_HEADER_KEY_LENGTH,
  F_HEADER_VALUE_LENGTH, F_CRC, F_BATCH_LENGTH, F_MAGIC, F_RECORD_COUNT, F_RECORDS, F_RECORD, STATUS, fail,
  resetStatus, ensure, be16, be32, setBatch, setRecord, setHeader,
} from './common';
import { crc32cOf, crc32Of } from './crc';
import { VERR, V64, rv, rvl, clearVarintError } from './varint';
import {
  ROW_WORDS, HEADER_WORDS, SCAN_HEADER_WORDS, ENTRY_WORDS, WALK_HEADER_WORDS,
  SCAN_COUNT, SCAN_TRUNCATED, SCAN_CONSUMED, SCAN_ROWS, SCAN_TOTAL_ROWS, SCAN_HEADERS, SCAN_TOTAL_HEADERS,
  SCAN_END, ENTRY_MAGIC, ENTRY_START, ENTRY_LENGTH, ENTRY_ATTRIBUTES, ENTRY_RECORD_COUNT, ENTRY_ROW_START,
  ENTRY_HEADER_START, ENTRY_HEADER_END, WALK_ROWS, WALK_COUNT, WALK_HEADERS, WALK_HEADER_COUNT, WALK_END,
  ROW_ATTRIBUTES, ROW_TIMESTAMP_DELTA, ROW_OFFSET_DELTA, ROW_KEY_OFFSET, ROW_KEY_LENGTH, ROW_VALUE_OFFSET,
  ROW_VALUE_LENGTH, ROW_HEADER_COUNT, ROW_FIRST_HEADER, STATUS_AUX0, WALK_STOP, WALK_SPANS,
  REPEATED_HEADER_KEYS, SPAN_WORDS, SPAN_START, SPAN_LENGTH_END, SPAN_TIMESTAMP_DELTA_END,
  SPAN_OFFSET_DELTA_END, SPAN_HEADER_COUNT_END, SPAN_END, BATCH_LENGTH_OFFSET, MAGIC_OFFSET, CRC_OFFSET,
  ATTRIBUTES_OFFSET, RECORD_COUNT_OFFSET, RECORDS_OFFSET, BATCH_LENGTH_BASE, COMPRESSION_MASK,
  HEADER_KEY_OFFSET, HEADER_KEY_LENGTH, HEADER_VALUE_OFFSET, HEADER_VALUE_LENGTH,
} from '../../src/wasm/abi';

const ROW_BYTES: usize = ROW_WORDS << 2;
const HEADER_BYTES: usize = HEADER_WORDS << 2;
const ENTRY_BYTES: usize = ENTRY_WORDS << 2;
const SPAN_BYTES: usize = SPAN_WORDS << 2;
const V2_MIN_LENGTH: i32 = RECORDS_OFFSET - BATCH_LENGTH_BASE; // batchLength of a batch with no records
const MIN_RECORD: i32 = 7;        // smallest possible encoded record
const LEGACY_MIN_0: i32 = 14;     // crc + magic + attributes + key length + value length
const LEGACY_MIN_1: i32 = 22;     // the same plus the timestamp

// Per header position, the offset and length of the key last seen there in this walk.
const SEEN_KEYS: usize = memory.data(REPEATED_HEADER_KEYS << 3, 8);

function sameBytes(a: usize, b: usize, n: usize): bool {
  let i: usize = 0;
  for (; i + 8 <= n; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  for (; i < n; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

let hdrsPtr: usize = 0;
let hdrCount: i32 = 0;
let memEnd: usize = 0;
// Spans mode (0 off): where the next record's spans go. In spans mode the walk stops at the end
// of the data however many records the batch declared, and leaves any bytes after the last
// record to its caller, who shows them (explain shows what is there rather than validating).
let spansPtr: usize = 0;
// Where the walk stopped: the end of the last record it read.
let walkStop: usize = 0;

/**
 * Walks `count` records in [p, end) writing rows at `rows` and headers at hdrsPtr/hdrCount (and
 * spans at spansPtr in spans mode). Returns the number of records walked; fails on bad input.
 */
function walk(base: usize, p: usize, end: usize, count: i32, rows: usize): i32 {
  clearVarintError();
  memEnd = (<usize>memory.size()) << 16;
  memory.fill(SEEN_KEYS, 0xff, REPEATED_HEADER_KEYS << 3); // lengths of -1: nothing seen
  const dedupe = spansPtr == 0;
  let r: u64;
  let i = 0;
  for (; i < count; i++) {
    if (spansPtr != 0 && p >= end) break;
    const recStart = p;
    r = rv(p, end);
    if (!r) return failAt(i, -1, VERR, recStart - base, F_RECORD_LENGTH);
    const len = <i32>r;
    p = <usize>(r >>> 32);
    if (len < 0 || <usize>len > end - p) {
      return failAt(i, -1, len < 0 ? E_INVALID_LENGTH : E_TRUNCATED, recStart - base, F_RECORD_LENGTH);
    }
    const lengthEnd = p;
    const recEnd = p + <usize>len;
    if (p >= recEnd) return failAt(i, -1, E_TRUNCATED, p - base, F_ATTRIBUTES);
    const attrs = <i32>load<u8>(p);
    p++;
    let at = p;
    p = rvl(p, recEnd);
    if (!p) return failAt(i, -1, VERR, at - base, F_TIMESTAMP_DELTA);
    const timestampDeltaEnd = p;
    at = p;
    r = rv(p, recEnd);
    if (!r) return failAt(i, -1, VERR, at - base, F_OFFSET_DELTA);
    const offDelta = <i32>r;
    p = <usize>(r >>> 32);
    const offsetDeltaEnd = p;
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
    const headerCountEnd = p;
    if (hc < 0) return failAt(i, -1, E_INVALID_LENGTH, at - base, F_HEADER_COUNT);
    if (<usize>hc > ((recEnd - p) >>> 1)) return failAt(i, -1, E_TRUNCATED, at - base, F_HEADER_COUNT);
    const h0 = hdrCount;
    if (hc > 0) {
      const need = hdrsPtr + (<usize>(hdrCount + hc)) * HEADER_BYTES;
      if (need > memEnd) {
        if (!ensure(need)) return failAt(i, -1, E_OUT_OF_MEMORY, at - base, F_HEADER_COUNT);
        memEnd = (<usize>memory.size()) << 16;
      }
      let hp = hdrsPtr + (<usize>hdrCount) * HEADER_BYTES;
      for (let h = 0; h < hc; h++) {
        at = p;
        r = rv(p, recEnd);
        if (!r) return failAt(i, h, VERR, at - base, F_HEADER_KEY_LENGTH);
        const hkl = <i32>r;
        p = <usize>(r >>> 32);
        if (hkl < 0) return failAt(i, h, E_INVALID_LENGTH, at - base, F_HEADER_KEY_LENGTH);
        if (<usize>hkl > recEnd - p) return failAt(i, h, E_TRUNCATED, at - base, F_HEADER_KEY_LENGTH);
        let keyAt = <i32>(p - base);
        if (dedupe && h < REPEATED_HEADER_KEYS) {
          const seen = SEEN_KEYS + (<usize>h << 3);
          if (load<i32>(seen, 4) == hkl && sameBytes(base + <usize>load<i32>(seen), p, <usize>hkl)) keyAt = load<i32>(seen);
          else { store<i32>(seen, keyAt); store<i32>(seen, hkl, 4); }
        }
        store<i32>(hp, keyAt, HEADER_KEY_OFFSET << 2);
        store<i32>(hp, hkl, HEADER_KEY_LENGTH << 2);
        p += <usize>hkl;
        at = p;
        r = rv(p, recEnd);
        if (!r) return failAt(i, h, VERR, at - base, F_HEADER_VALUE_LENGTH);
        const hvl = <i32>r;
        p = <usize>(r >>> 32);
        if (hvl < -1) return failAt(i, h, E_INVALID_LENGTH, at - base, F_HEADER_VALUE_LENGTH);
        if (hvl > 0 && <usize>hvl > recEnd - p) return failAt(i, h, E_TRUNCATED, at - base, F_HEADER_VALUE_LENGTH);
        store<i32>(hp, <i32>(p - base), HEADER_VALUE_OFFSET << 2);
        store<i32>(hp, hvl, HEADER_VALUE_LENGTH << 2);
        if (hvl > 0) p += <usize>hvl;
        hp += HEADER_BYTES;
      }
      hdrCount += hc;
    }
    if (p != recEnd) return failAt(i, -1, E_RECORD_LENGTH_MISMATCH, recStart - base, F_RECORD);
    store<i32>(rows, attrs, ROW_ATTRIBUTES << 2);
    store<i64>(rows, V64, ROW_TIMESTAMP_DELTA << 2);
    store<i32>(rows, offDelta, ROW_OFFSET_DELTA << 2);
    store<i32>(rows, ko, ROW_KEY_OFFSET << 2);
    store<i32>(rows, kl, ROW_KEY_LENGTH << 2);
    store<i32>(rows, vo, ROW_VALUE_OFFSET << 2);
    store<i32>(rows, vl, ROW_VALUE_LENGTH << 2);
    store<i32>(rows, hc, ROW_HEADER_COUNT << 2);
    store<i32>(rows, h0, ROW_FIRST_HEADER << 2);
    rows += ROW_BYTES;
    if (spansPtr != 0) {
      store<i32>(spansPtr, <i32>(recStart - base), SPAN_START << 2);
      store<i32>(spansPtr, <i32>(lengthEnd - base), SPAN_LENGTH_END << 2);
      store<i32>(spansPtr, <i32>(timestampDeltaEnd - base), SPAN_TIMESTAMP_DELTA_END << 2);
      store<i32>(spansPtr, <i32>(offsetDeltaEnd - base), SPAN_OFFSET_DELTA_END << 2);
      store<i32>(spansPtr, <i32>(headerCountEnd - base), SPAN_HEADER_COUNT_END << 2);
      store<i32>(spansPtr, <i32>(recEnd - base), SPAN_END << 2);
      spansPtr += SPAN_BYTES;
    }
  }
  walkStop = p;
  if (p != end && spansPtr == 0) return fail(E_TRAILING_BYTES, <i32>(p - base), F_RECORDS);
  return i;
}

function failAt(record: i32, header: i32, code: i32, offset: usize, field: i32): i32 {
  setRecord(record);
  setHeader(header);
  return fail(code, <i32>offset, field);
}

/**
 * Frames every batch (or legacy message) in [inp, inp+len), verifies CRCs when flags&1, and walks
 * the records of uncompressed v2 batches. Writes the tape at `out` (see the file comment).
 * Returns 0; fails (status block, trap) on bad input.
 */
export function scanBatches(inp: usize, len: i32, out: usize, flags: i32): i32 {
  resetStatus();
  spansPtr = 0;
  const verify = (flags & 1) != 0;
  let pos: i32 = 0;
  let n: i32 = 0;
  let totalRows: i32 = 0;
  let truncated: i32 = 0;
  let ents = out + (SCAN_HEADER_WORDS << 2);
  while (pos < len) {
    const rem = len - pos;
    setBatch(n);
    if (rem < BATCH_LENGTH_BASE) { truncated = rem; break; }
    const p = inp + <usize>pos;
    const blen = be32(p + BATCH_LENGTH_OFFSET);
    if (blen < 0) return fail(E_INVALID_LENGTH, pos + BATCH_LENGTH_OFFSET, F_BATCH_LENGTH);
    // It must reach the magic byte.
    if (blen < MAGIC_OFFSET + 1 - BATCH_LENGTH_BASE) return fail(E_BATCH_TOO_SHORT, pos + BATCH_LENGTH_OFFSET, F_BATCH_LENGTH);
    if (blen > rem - BATCH_LENGTH_BASE) { truncated = rem; break; }
    const magic = <i32>load<i8>(p + MAGIC_OFFSET);
    const size = blen + BATCH_LENGTH_BASE;
    let attrs: i32 = 0;
    let count: i32 = 0;
    if (magic == 2) {
      if (blen < V2_MIN_LENGTH) return fail(E_BATCH_TOO_SHORT, pos + BATCH_LENGTH_OFFSET, F_BATCH_LENGTH);
      if (verify) {
        const stored = <u32>be32(p + CRC_OFFSET);
        const actual = crc32cOf(p + ATTRIBUTES_OFFSET, <usize>(size - ATTRIBUTES_OFFSET), 0);
        if (stored != actual) {
          store<i32>(STATUS, <i32>actual, STATUS_AUX0 << 2);
          return fail(E_CRC_MISMATCH, pos + CRC_OFFSET, F_CRC);
        }
      }
      attrs = be16(p + ATTRIBUTES_OFFSET);
      count = be32(p + RECORD_COUNT_OFFSET);
      if (count < 0) return fail(E_INVALID_LENGTH, pos + RECORD_COUNT_OFFSET, F_RECORD_COUNT);
      if ((attrs & COMPRESSION_MASK) == 0) {
        if (count > (size - RECORDS_OFFSET) / MIN_RECORD) return fail(E_RECORD_COUNT, pos + RECORD_COUNT_OFFSET, F_RECORD_COUNT);
        totalRows += count;
      }
    } else if (magic == 0 || magic == 1) {
      if (blen < (magic == 0 ? LEGACY_MIN_0 : LEGACY_MIN_1)) return fail(E_BATCH_TOO_SHORT, pos + BATCH_LENGTH_OFFSET, F_BATCH_LENGTH);
      if (verify) {
        const stored = <u32>be32(p + 12);
        const actual = crc32Of(p + 16, <usize>(size - 16), 0);
        if (stored != actual) {
          store<i32>(STATUS, <i32>actual, STATUS_AUX0 << 2);
          return fail(E_CRC_MISMATCH, pos + 12, F_CRC);
        }
      }
      attrs = <i32>load<u8>(p + 17);
      count = 1;
    } else {
      return fail(E_UNSUPPORTED_MAGIC, pos + MAGIC_OFFSET, F_MAGIC);
    }
    if (!ensure(ents + ENTRY_BYTES)) return fail(E_OUT_OF_MEMORY, pos, F_BATCH);
    store<i32>(ents, magic, ENTRY_MAGIC << 2);
    store<i32>(ents, pos, ENTRY_START << 2);
    store<i32>(ents, size, ENTRY_LENGTH << 2);
    store<i32>(ents, attrs, ENTRY_ATTRIBUTES << 2);
    store<i32>(ents, count, ENTRY_RECORD_COUNT << 2);
    store<i32>(ents, -1, ENTRY_ROW_START << 2);
    store<i32>(ents, 0, ENTRY_HEADER_START << 2);
    store<i32>(ents, 0, ENTRY_HEADER_END << 2);
    ents += ENTRY_BYTES;
    n++;
    pos += size;
  }
  setBatch(-1);
  const rows = (ents + 15) & ~(<usize>15);
  const rowBytes = (<usize>totalRows) * ROW_BYTES;
  hdrsPtr = rows + rowBytes;
  hdrCount = 0;
  if (!ensure(hdrsPtr)) return fail(E_OUT_OF_MEMORY, 0, F_BATCH);
  let row = rows;
  let rowIndex: i32 = 0;
  ents = out + (SCAN_HEADER_WORDS << 2);
  for (let i = 0; i < n; i++) {
    const magic = load<i32>(ents, ENTRY_MAGIC << 2);
    const attrs = load<i32>(ents, ENTRY_ATTRIBUTES << 2);
    if (magic == 2 && (attrs & COMPRESSION_MASK) == 0) {
      setBatch(i);
      const start = load<i32>(ents, ENTRY_START << 2);
      const size = load<i32>(ents, ENTRY_LENGTH << 2);
      const count = load<i32>(ents, ENTRY_RECORD_COUNT << 2);
      const p = inp + <usize>start;
      store<i32>(ents, rowIndex, ENTRY_ROW_START << 2);
      store<i32>(ents, hdrCount, ENTRY_HEADER_START << 2);
      walk(inp, p + RECORDS_OFFSET, p + <usize>size, count, row);
      store<i32>(ents, hdrCount, ENTRY_HEADER_END << 2);
      row += (<usize>count) * ROW_BYTES;
      rowIndex += count;
    }
    ents += ENTRY_BYTES;
  }
  setBatch(-1);
  store<i32>(out, n, SCAN_COUNT << 2);
  store<i32>(out, truncated, SCAN_TRUNCATED << 2);
  store<i32>(out, pos, SCAN_CONSUMED << 2);
  store<i32>(out, <i32>rows, SCAN_ROWS << 2);
  store<i32>(out, totalRows, SCAN_TOTAL_ROWS << 2);
  store<i32>(out, <i32>hdrsPtr, SCAN_HEADERS << 2);
  store<i32>(out, hdrCount, SCAN_TOTAL_HEADERS << 2);
  store<i32>(out, <i32>(hdrsPtr + (<usize>hdrCount) * HEADER_BYTES), SCAN_END << 2);
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
  const rows = out + (WALK_HEADER_WORDS << 2);
  hdrsPtr = rows + (<usize>count) * ROW_BYTES;
  hdrCount = 0;
  if (!ensure(hdrsPtr)) return fail(E_OUT_OF_MEMORY, 0, F_BATCH);
  spansPtr = 0;
  walk(p, p, p + <usize>len, count, rows);
  store<i32>(out, <i32>rows, WALK_ROWS << 2);
  store<i32>(out, count, WALK_COUNT << 2);
  store<i32>(out, <i32>hdrsPtr, WALK_HEADERS << 2);
  store<i32>(out, hdrCount, WALK_HEADER_COUNT << 2);
  store<i32>(out, <i32>(hdrsPtr + (<usize>hdrCount) * HEADER_BYTES), WALK_END << 2);
  return 0;
}

/**
 * walkRecords in spans mode, for explain: walks the records of [p, p+len) (a batch's records
 * section, decompressed or not) while there are bytes, at most `count`, and writes walkRecords'
 * tape header (the count walked, where the walk stopped, the spans' address), the rows, the
 * spans (src/wasm/abi.ts) and the headers. A record that does not parse fails with its index in
 * the status block; the records before it are on the tape.
 */
export function spanRecords(p: usize, len: i32, count: i32, out: usize): i32 {
  resetStatus();
  const most = len / MIN_RECORD;
  const room = <usize>(count < 0 ? 0 : count < most ? count : most);
  const rows = out + (WALK_HEADER_WORDS << 2);
  const spans = rows + room * ROW_BYTES;
  hdrsPtr = spans + room * SPAN_BYTES;
  hdrCount = 0;
  if (!ensure(hdrsPtr)) return fail(E_OUT_OF_MEMORY, 0, F_BATCH);
  store<i32>(out, <i32>rows, WALK_ROWS << 2);
  store<i32>(out, <i32>spans, WALK_SPANS << 2);
  store<i32>(out, <i32>hdrsPtr, WALK_HEADERS << 2);
  spansPtr = spans;
  const walked = walk(p, p, p + <usize>len, count, rows);
  spansPtr = 0;
  store<i32>(out, walked, WALK_COUNT << 2);
  store<i32>(out, hdrCount, WALK_HEADER_COUNT << 2);
  store<i32>(out, <i32>(hdrsPtr + (<usize>hdrCount) * HEADER_BYTES), WALK_END << 2);
  store<i32>(out, <i32>(walkStop - p), WALK_STOP << 2);
  return 0;
}
