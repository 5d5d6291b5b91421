// A batch's records as kafka-wire consume's JSON lines, written in one call per batch into one
// output region: {"topic":..,"partition":..,"offset":..,"timestamp":..,"key":..,"value":..,
// "headers":[{"key":..,"value":..}]} and a newline (with a tail of the caller's, such as a share
// record's ,"deliveryCount":N, before the closing brace), byte for byte what src/cli/consume-output.ts's
// JS writer gives (JSON.stringify of the fields' UTF-8 text). Only what needs no judgement is done
// here: valid UTF-8 is copied, ASCII escaped as JSON.stringify escapes it. A record with invalid
// UTF-8, a header key starting with a BOM (TextDecoder drops it) or a timestamp that is not a safe
// integer stops the call there, and the JS writer writes that one record (JSON_ASIDE).
//
// A module of its own (only kafka-wire consume uses it: the library's bundles stay as they were),
// working in the memory the other two share (src/wasm/memory.ts). It has no static data, so it
// needs no place of its own in that memory: its literals are written by immediate stores.
import {
  JSON_DATA, JSON_ROWS, JSON_COUNT, JSON_HEADERS, JSON_OUT, JSON_OUT_END, JSON_HEAD, JSON_HEAD_LENGTH,
  JSON_BASE_OFFSET, JSON_TIMESTAMP, JSON_LOG_APPEND, JSON_DONE, JSON_WRITTEN_END, JSON_REASON, JSON_TAIL, JSON_TAIL_LENGTH,
  JSON_ALL, JSON_FULL, JSON_ASIDE, ROW_WORDS, HEADER_WORDS, ROW_TIMESTAMP_DELTA, ROW_OFFSET_DELTA,
  ROW_KEY_OFFSET, ROW_KEY_LENGTH, ROW_VALUE_OFFSET, ROW_VALUE_LENGTH, ROW_HEADER_COUNT, ROW_FIRST_HEADER,
  HEADER_KEY_OFFSET, HEADER_KEY_LENGTH, HEADER_VALUE_OFFSET, HEADER_VALUE_LENGTH,
} from '../src/wasm/abi';

const MAX_SAFE: i64 = 9007199254740991;
/** The most bytes a line takes besides its head, key, value and headers (numbers, names, slack for wide stores). */
const LINE_FIXED: i64 = 128;
const HEADER_FIXED: i64 = 32;
/** The lowercase hex digit of d (0-15). */
// @ts-ignore: decorator
@inline function hexDigit(d: u32): u8 {
  return <u8>(d < 10 ? 0x30 + d : 0x57 + d);
}

/** Writes `,"timestamp":` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeTimestamp(o: usize): usize {
  store<u64>(o + 0, 0x7473656d6974222c);
  store<u32>(o + 8, 0x22706d61);
  store<u8>(o + 12, 0x3a);
  return o + 13;
}

/** Writes `,"key":` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeKey(o: usize): usize {
  store<u32>(o + 0, 0x656b222c);
  store<u16>(o + 4, 0x2279);
  store<u8>(o + 6, 0x3a);
  return o + 7;
}

/** Writes `,"key":null,"value":` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeNullKeyValue(o: usize): usize {
  store<u64>(o + 0, 0x6e3a2279656b222c);
  store<u64>(o + 8, 0x6c6176222c6c6c75);
  store<u32>(o + 16, 0x3a226575);
  return o + 20;
}

/** Writes `,"value":` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeValue(o: usize): usize {
  store<u64>(o + 0, 0x2265756c6176222c);
  store<u8>(o + 8, 0x3a);
  return o + 9;
}

/** Writes `null` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeNull(o: usize): usize {
  store<u32>(o + 0, 0x6c6c756e);
  return o + 4;
}

/** Writes `,"headers":[]}\n` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeNoHeaders(o: usize): usize {
  store<u64>(o + 0, 0x726564616568222c);
  store<u32>(o + 8, 0x5b3a2273);
  store<u16>(o + 12, 0x7d5d);
  store<u8>(o + 14, 0xa);
  return o + 15;
}

/** Writes `,"headers":[` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeHeaders(o: usize): usize {
  store<u64>(o + 0, 0x726564616568222c);
  store<u32>(o + 8, 0x5b3a2273);
  return o + 12;
}

/** Writes `{"key":` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeHeaderKey(o: usize): usize {
  store<u32>(o + 0, 0x656b227b);
  store<u16>(o + 4, 0x2279);
  store<u8>(o + 6, 0x3a);
  return o + 7;
}

/** Writes `]}\n` at o; returns the end. */
// @ts-ignore: decorator
@inline function writeEnd(o: usize): usize {
  store<u16>(o + 0, 0x7d5d);
  store<u8>(o + 2, 0xa);
  return o + 3;
}

/** Writes `]`, the tail and `}\n` at o (writeEnd for a line with a tail); returns the end. */
// @ts-ignore: decorator
@inline function writeEndWithTail(o: usize, tail: usize, tailLength: usize): usize {
  store<u8>(o, 0x5d);
  memory.copy(o + 1, tail, tailLength);
  o += 1 + tailLength;
  store<u16>(o, 0x0a7d);
  return o + 2;
}

/** Writes x (< 10^8) as exactly eight digits at o; returns the end. */
// @ts-ignore: decorator
@inline function eightDigits(o: usize, x: u32): usize {
  for (let k = o + 7; k >= o; k--) { const q = x / 10; store<u8>(k, <u8>(0x30 + x - q * 10)); x = q; }
  return o + 8;
}

/** Writes x in decimal at o; returns the end. */
function smallDecimal(o: usize, x: u32): usize {
  const digits: usize = x < 10 ? 1 : x < 100 ? 2 : x < 1000 ? 3 : x < 10000 ? 4 : x < 100000 ? 5 : x < 1000000 ? 6
    : x < 10000000 ? 7 : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10;
  const end = o + digits;
  let k = end;
  do { const q = x / 10; store<u8>(--k, <u8>(0x30 + x - q * 10)); x = q; } while (k > o);
  return end;
}

/**
 * Writes v (|v| < 2^63) in decimal at o; returns the end. In u32 pieces (one 64-bit division):
 * a timestamp's digits above 10^8, then exactly eight below.
 */
function decimal(o: usize, v: i64): usize {
  if (v < 0) { store<u8>(o++, 0x2d); v = -v; }
  const u = <u64>v;
  if (u < 100000000) return smallDecimal(o, <u32>u);
  const high = u / 100000000;
  o = high < 0x100000000 ? smallDecimal(o, <u32>high) : decimal(o, <i64>high);
  return eightDigits(o, <u32>(u - high * 100000000));
}

/**
 * Length of the valid UTF-8 sequence whose lead byte c (>= 0x80) is at p, or 0 when it is not
 * one (the WHATWG decoder would put U+FFFD there: the JS writer does that record).
 */
function sequence(p: usize, end: usize, c: u32): usize {
  let n: usize;
  let lo: u32 = 0x80, hi: u32 = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) { n = 3; if (c == 0xe0) lo = 0xa0; else if (c == 0xed) hi = 0x9f; }
  else if (c >= 0xf0 && c <= 0xf4) { n = 4; if (c == 0xf0) lo = 0x90; else if (c == 0xf4) hi = 0x8f; }
  else return 0;
  if (end - p < n) return 0;
  const c1 = <u32>load<u8>(p + 1);
  if (c1 < lo || c1 > hi) return 0;
  for (let i: usize = 2; i < n; i++) {
    const ci = <u32>load<u8>(p + i);
    if (ci < 0x80 || ci > 0xbf) return 0;
  }
  return n;
}

/** The JSON escape of the ASCII byte c (a quote, a backslash or a control character) at o; returns the end. */
// @ts-ignore: decorator
@inline function escapeAscii(o: usize, c: u32): usize {
  store<u8>(o++, 0x5c);
  if (c == 0x22 || c == 0x5c) store<u8>(o++, <u8>c);
  else if (c == 0x0a) store<u8>(o++, 0x6e);
  else if (c == 0x0d) store<u8>(o++, 0x72);
  else if (c == 0x09) store<u8>(o++, 0x74);
  else if (c == 0x08) store<u8>(o++, 0x62);
  else if (c == 0x0c) store<u8>(o++, 0x66);
  else {
    store<u32>(o, 0x00303075); // u00 (little-endian), then the two hex digits
    store<u8>(o + 3, hexDigit(c >> 4));
    store<u8>(o + 4, hexDigit(c & 15));
    o += 5;
  }
  return o;
}

/** [p, p + n) as a quoted JSON string at o; returns the end, or 0 for bytes that are not UTF-8. */
function jsonString(o: usize, p: usize, n: usize): usize {
  const end = p + n;
  store<u8>(o++, 0x22);
  const space = i8x16.splat(0x20);
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  while (true) {
    // Sixteen bytes at a time: stored whole when nothing needs a look; else, while the bytes to
    // look at are ASCII to escape (quotes in JSON values), each is escaped where the mask says and
    // the plain runs between are stored sixteen bytes at once (the region has room for the
    // overshoot; the reads past a run stay inside the block's sixteen bytes plus fifteen, which
    // the arena holds). A byte >= 0x80 sends the rest of the block to the byte-wise loop below.
    while (p + 16 <= end) {
      const v = v128.load(p);
      const special = v128.or(v128.or(i8x16.lt_s(v, space), i8x16.eq(v, quote)), i8x16.eq(v, backslash));
      let mask = i8x16.bitmask(special);
      if (mask == 0) { v128.store(o, v); p += 16; o += 16; continue; }
      if (i8x16.bitmask(v) != 0) { // a byte >= 0x80 (lt_s takes it for negative): byte by byte from the first special
        const k = <usize>ctz(mask);
        v128.store(o, v);
        p += k; o += k;
        break;
      }
      let k: usize = 0;
      do {
        const t = <usize>ctz(mask);
        v128.store(o, v128.load(p + k));
        o += t - k;
        o = escapeAscii(o, <u32>load<u8>(p + t));
        k = t + 1;
        mask &= mask - 1;
      } while (mask != 0);
      v128.store(o, v128.load(p + k));
      o += 16 - k;
      p += 16;
    }
    if (p >= end) break;
    const c = <u32>load<u8>(p);
    if (c >= 0x80) {
      const len = sequence(p, end, c);
      if (len == 0) return 0;
      for (let i: usize = 0; i < len; i++) store<u8>(o + i, load<u8>(p + i));
      o += len; p += len;
    } else if (c < 0x20 || c == 0x22 || c == 0x5c) {
      o = escapeAscii(o, c); p++;
    } else {
      store<u8>(o++, <u8>c); p++;
    }
  }
  store<u8>(o++, 0x22);
  return o;
}

// @ts-ignore: decorator
@inline function word(block: usize, index: i32): i32 {
  return load<i32>(block + (<usize>index << 2));
}

/** Writes the block's records as JSON lines (the block's layout: src/wasm/abi.ts, JSON_*). */
export function jsonLines(block: usize): void {
  const data = <usize>word(block, JSON_DATA);
  let row = <usize>word(block, JSON_ROWS);
  const count = word(block, JSON_COUNT);
  const hdrs = <usize>word(block, JSON_HEADERS);
  const outEnd = <usize>word(block, JSON_OUT_END);
  const head = <usize>word(block, JSON_HEAD);
  const headLength = <usize>word(block, JSON_HEAD_LENGTH);
  const baseOffset = load<i64>(block + (<usize>JSON_BASE_OFFSET << 2));
  const timestamp = load<i64>(block + (<usize>JSON_TIMESTAMP << 2));
  const logAppend = word(block, JSON_LOG_APPEND) != 0;
  const tail = <usize>word(block, JSON_TAIL);
  const tailLength = <usize>word(block, JSON_TAIL_LENGTH);
  let o = <usize>word(block, JSON_OUT);
  let reason = JSON_ALL;
  // A batch's timestamps share their digits above 10^8 (a 13-digit time's first five): those of the
  // last one written, and the range of times that have them, so most need no 64-bit division.
  let highFrom: u64 = 1, highTo: u64 = 0, highDigits: u64 = 0, highLength: usize = 0;
  let i = 0;
  for (; i < count; i++, row += <usize>ROW_WORDS << 2) {
    const keyLength = load<i32>(row + (<usize>ROW_KEY_LENGTH << 2));
    const valueLength = load<i32>(row + (<usize>ROW_VALUE_LENGTH << 2));
    const headerCount = load<i32>(row + (<usize>ROW_HEADER_COUNT << 2));
    // The most this line can take (each byte escaped as \u00XX at worst): stop before it if it may not fit.
    let need: i64 = LINE_FIXED + <i64>headLength + <i64>tailLength + 6 * (<i64>max(keyLength, 0) + <i64>max(valueLength, 0));
    let h = hdrs + (<usize>load<i32>(row + (<usize>ROW_FIRST_HEADER << 2)) * (<usize>HEADER_WORDS << 2));
    for (let j = 0; j < headerCount; j++) {
      const e = h + (<usize>j * (<usize>HEADER_WORDS << 2));
      need += HEADER_FIXED + 6 * (<i64>max(load<i32>(e + (<usize>HEADER_KEY_LENGTH << 2)), 0) + <i64>max(load<i32>(e + (<usize>HEADER_VALUE_LENGTH << 2)), 0));
    }
    if (<i64>o + need > <i64>outEnd) { reason = JSON_FULL; break; }
    let ts = timestamp;
    if (!logAppend) {
      // As the JS writer: base + delta when the three are safe integers, else that record is its.
      const delta = load<i64>(row + (<usize>ROW_TIMESTAMP_DELTA << 2));
      ts = timestamp + delta;
      if (timestamp > MAX_SAFE || timestamp < -MAX_SAFE || delta > MAX_SAFE || delta < -MAX_SAFE || ts > MAX_SAFE || ts < -MAX_SAFE) { reason = JSON_ASIDE; break; }
    }
    const start = o;
    memory.copy(o, head, headLength);
    o += headLength;
    o = decimal(o, baseOffset + <i64>load<i32>(row + (<usize>ROW_OFFSET_DELTA << 2)));
    o = writeTimestamp(o);
    const u = <u64>ts;
    if (ts >= 100000000 && ts <= MAX_SAFE) {
      if (u < highFrom || u >= highTo) {
        const high = u / 100000000;
        highFrom = high * 100000000;
        highTo = highFrom + 100000000;
        highLength = smallDecimal(o, <u32>high) - o; // high < 2^53 / 10^8: at most eight digits
        highDigits = load<u64>(o);
      }
      store<u64>(o, highDigits); // the bytes past highLength are written over by the low digits
      o = eightDigits(o + highLength, <u32>(u - highFrom));
    } else o = decimal(o, ts);
    if (keyLength < 0) o = writeNullKeyValue(o);
    else {
      o = writeKey(o);
      o = jsonString(o, data + <usize>load<i32>(row + (<usize>ROW_KEY_OFFSET << 2)), <usize>keyLength);
      if (o == 0) { o = start; reason = JSON_ASIDE; break; }
      o = writeValue(o);
    }
    if (valueLength < 0) o = writeNull(o);
    else {
      o = jsonString(o, data + <usize>load<i32>(row + (<usize>ROW_VALUE_OFFSET << 2)), <usize>valueLength);
      if (o == 0) { o = start; reason = JSON_ASIDE; break; }
    }
    if (headerCount == 0) {
      o = tailLength == 0 ? writeNoHeaders(o) : writeEndWithTail(writeHeaders(o), tail, tailLength);
      continue;
    }
    o = writeHeaders(o);
    let aside = false;
    for (let j = 0; j < headerCount; j++, h += <usize>HEADER_WORDS << 2) {
      if (j > 0) store<u8>(o++, 0x2c);
      const kl = load<i32>(h + (<usize>HEADER_KEY_LENGTH << 2));
      const kp = data + <usize>load<i32>(h + (<usize>HEADER_KEY_OFFSET << 2));
      // Header keys are decoded by TextDecoder, which drops a leading byte order mark.
      if (kl < 0 || (kl >= 3 && load<u8>(kp) == 0xef && load<u8>(kp + 1) == 0xbb && load<u8>(kp + 2) == 0xbf)) { aside = true; break; }
      o = writeHeaderKey(o);
      o = jsonString(o, kp, <usize>kl);
      if (o == 0) { aside = true; break; }
      o = writeValue(o);
      const vl = load<i32>(h + (<usize>HEADER_VALUE_LENGTH << 2));
      if (vl < 0) o = writeNull(o);
      else {
        o = jsonString(o, data + <usize>load<i32>(h + (<usize>HEADER_VALUE_OFFSET << 2)), <usize>vl);
        if (o == 0) { aside = true; break; }
      }
      store<u8>(o++, 0x7d);
    }
    if (aside) { o = start; reason = JSON_ASIDE; break; }
    o = tailLength == 0 ? writeEnd(o) : writeEndWithTail(o, tail, tailLength);
  }
  store<i32>(block + (<usize>JSON_DONE << 2), i);
  store<i32>(block + (<usize>JSON_WRITTEN_END << 2), <i32>o);
  store<i32>(block + (<usize>JSON_REASON << 2), reason);
}
