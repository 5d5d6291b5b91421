// CRC-32C (Castagnoli, reflected poly 0x82F63B78) and CRC-32 (IEEE, reflected poly 0xEDB88320),
// table-driven with slicing-by-16 (sixteen 256-entry tables, 16 input bytes per iteration); long
// CRC-32C inputs fold modulo a sparse multiple of the polynomial first (see folded()).

import { CRC32C_TABLE_BASE } from '../../src/wasm/abi';

// CRC-32C is on every record batch's path, so its table sits at a fixed address below the static
// data (scripts/asbuild.mjs passes --memoryBase): each lookup's row then becomes a load's
// immediate offset, one add fewer per byte (~13% faster than the plain form CRC-32 keeps below:
// it only checks legacy message sets).
export const CRC32C_TABLE: usize = CRC32C_TABLE_BASE;
export const CRC32C_TABLE_END: usize = CRC32C_TABLE + 16 * 1024;
export const CRC32_TABLE: usize = memory.data(16 * 1024, 64);

function initTable(tbl: usize, poly: u32): void {
  for (let i: u32 = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = (c & 1) ? (c >>> 1) ^ poly : c >>> 1;
    store<u32>(tbl + (<usize>i << 2), c);
  }
  for (let i: u32 = 0; i < 256; i++) {
    let c = load<u32>(tbl + (<usize>i << 2));
    for (let t: u32 = 1; t < 16; t++) {
      c = load<u32>(tbl + (<usize>(c & 0xff) << 2)) ^ (c >>> 8);
      store<u32>(tbl + (<usize>t << 10) + (<usize>i << 2), c);
    }
  }
}

// Static data must start above the fixed table (a wrong --memoryBase would overlap them).
if (CRC32_TABLE < CRC32C_TABLE_END) unreachable();
initTable(CRC32C_TABLE, 0x82F63B78);
initTable(CRC32_TABLE, 0xEDB88320);

// @ts-ignore: decorator
@inline function T(tbl: usize, row: usize, idx: u32): u32 {
  return load<u32>(tbl + (row << 10) + (<usize>idx << 2));
}

// Row r of the CRC-32C table at byte k of w (immediate offsets need literal rows).
// @ts-ignore: decorator
@inline function C0(w: u32): usize { return <usize>((w << 2) & 0x3fc); }
// @ts-ignore: decorator
@inline function C1(w: u32): usize { return <usize>((w >>> 6) & 0x3fc); }
// @ts-ignore: decorator
@inline function C2(w: u32): usize { return <usize>((w >>> 14) & 0x3fc); }
// @ts-ignore: decorator
@inline function C3(w: u32): usize { return <usize>(w >>> 22 & 0x3fc); }

/** CRC-32C of [p, p+len). `prev` is a previous result to continue from (0 to start). */
export function crc32cOf(p: usize, len: usize, prev: u32): u32 {
  return ~(len < FOLD_MIN_BYTES ? sliced(p, len, ~prev) : folded(p, len, ~prev));
}

/** The CRC register after [p, p+len), starting from register `crc` (no inversions): slicing-by-16. */
function sliced(p: usize, len: usize, crc: u32): u32 {
  const T = CRC32C_TABLE;
  const end16 = p + (len & ~(<usize>15));
  const end = p + len;
  while (p < end16) {
    // The last 12 bytes do not depend on the running CRC: look them up first, in balanced XOR
    // trees, so the loop-carried chain is one load and four lookups.
    const b = load<u32>(p, 4), c = load<u32>(p, 8), d = load<u32>(p, 12);
    const rest =
      ((load<u32>(C0(b), T + 11 * 1024) ^ load<u32>(C1(b), T + 10 * 1024)) ^
        (load<u32>(C2(b), T + 9 * 1024) ^ load<u32>(C3(b), T + 8 * 1024))) ^
      ((load<u32>(C0(c), T + 7 * 1024) ^ load<u32>(C1(c), T + 6 * 1024)) ^
        (load<u32>(C2(c), T + 5 * 1024) ^ load<u32>(C3(c), T + 4 * 1024))) ^
      ((load<u32>(C0(d), T + 3 * 1024) ^ load<u32>(C1(d), T + 2 * 1024)) ^
        (load<u32>(C2(d), T + 1024) ^ load<u32>(C3(d), T)));
    const a = load<u32>(p) ^ crc;
    crc = rest ^ ((load<u32>(C0(a), T + 15 * 1024) ^ load<u32>(C1(a), T + 14 * 1024)) ^
      (load<u32>(C2(a), T + 13 * 1024) ^ load<u32>(C3(a), T + 12 * 1024)));
    p += 16;
  }
  while (p < end) {
    crc = load<u32>(C0(crc ^ <u32>load<u8>(p)), T) ^ (crc >>> 8);
    p++;
  }
  return crc;
}

// Long inputs: table-free folding modulo a sparse multiple of the polynomial (the idea of Sam
// Russell's "Chorba" method). With Y = x^64, Q = Y^209 + Y^144 + Y^54 + Y^39 + Y^14 + 1 is a
// multiple of the CRC-32C polynomial (scripts/crc32c-sparse-multiple.mjs finds and checks it;
// 209 words is the least span of a six-term multiple). A message and its remainder modulo Q have
// the same CRC, and dividing by Q word by word needs no bit shifts: each 64-bit word of the
// quotient is the input word XOR the quotient words 209, 195, 170, 155 and 65 places back (the
// span minus each lower exponent). Six loads, five XORs and a store per word instead of
// slicing's ~35 operations per 8 bytes; the 209-word remainder then gets an ordinary CRC. Bit
// order needs no care: the reflected CRC reads words as polynomials too, and whole words are
// only XORed. Squaring is linear over GF(2), so the same exponents hold for Y = x^128: long
// inputs fold in 128-bit SIMD words first, and their 418-word remainder folds again in 64-bit words.
const SPAN: usize = 209;
// The lower exponents of Q except 0 (a load at sp + e words reads quotient word i - SPAN + e).
const E1: usize = 14, E2: usize = 39, E3: usize = 54, E4: usize = 144;
// Quotient words are written to a linear scratch area, a chunk at a time after SPAN words of
// history, then the history slides down: one short copy per chunk instead of ring indexing.
const CHUNK_BYTES: usize = 16 * 1024;
const SCRATCH_BYTES: usize = SPAN * 16 + CHUNK_BYTES;
const SCRATCH: usize = memory.data(<i32>SCRATCH_BYTES, 16);
// A pass's remainder is built after two spans: its step reads quotient history up to a span past
// the history, which must read as zero (nothing of the remainder is fed back). The 64-bit pass
// over the 128-bit remainder must not reach that remainder's bytes.
if (SCRATCH_BYTES < SPAN * 3 * 16 || SPAN * 3 * 8 > SPAN * 2 * 16) unreachable();
// Below two spans the remainder's step would reach quotient words before the first; above it,
// folding is already faster than slicing everything (measured: 1.1x at the threshold). The
// 128-bit pass's longer remainder pays for itself from about 9 KiB on (measured), so three spans.
const FOLD_MIN_BYTES: usize = 2 * SPAN * 8;
const WIDE_FOLD_MIN_BYTES: usize = 3 * SPAN * 16;

// @ts-ignore: decorator
@inline function xor<W>(a: W, b: W): W {
  if (isVector<W>()) {
    return <W>v128.xor(<v128>a, <v128>b);
  } else {
    return a ^ b;
  }
}

/** Input word at p XOR the quotient words SPAN - e back, for each exponent e of Q below SPAN. */
// @ts-ignore: decorator
@inline function foldStep<W>(p: usize, sp: usize): W {
  return xor<W>(load<W>(p), xor<W>(xor<W>(load<W>(sp), load<W>(sp, E1 * sizeof<W>())),
    xor<W>(load<W>(sp, E2 * sizeof<W>()), xor<W>(load<W>(sp, E3 * sizeof<W>()), load<W>(sp, E4 * sizeof<W>())))));
}

/**
 * Divides the `words` W-sized words at p (at least two spans), with register `crc` XORed into
 * their first four bytes, by Q; returns the address of the SPAN-word remainder (in SCRATCH).
 */
// @ts-ignore: decorator
@inline function foldPass<W>(p: usize, words: usize, crc: u32): usize {
  const history = SPAN * sizeof<W>();
  // History slot 0 is read by word 0 only, so the register put there XORs into it without
  // writing the input.
  memory.fill(SCRATCH, 0, history);
  store<u32>(SCRATCH, crc);
  const quotientEnd = p + (words - SPAN) * sizeof<W>();
  while (p < quotientEnd) {
    let chunkEnd = p + CHUNK_BYTES;
    if (chunkEnd > quotientEnd) chunkEnd = quotientEnd;
    let sp = SCRATCH;
    while (p < chunkEnd) {
      store<W>(sp, foldStep<W>(p, sp), history);
      p += sizeof<W>();
      sp += sizeof<W>();
    }
    memory.copy(SCRATCH, sp, history);
  }
  // Remainder word t: input word XOR the quotient words it received; the steps that would reach
  // beyond the last quotient word read the zeroed span after the history.
  const remainder = SCRATCH + 2 * history;
  memory.fill(SCRATCH + history, 0, history);
  for (let t: usize = 0; t < history; t += sizeof<W>()) store<W>(remainder + t, foldStep<W>(p + t, SCRATCH + t));
  return remainder;
}

/** Like sliced(), for len >= FOLD_MIN_BYTES: folds modulo Q, then slices the remainder and the tail. */
function folded(p: usize, len: usize, crc: u32): u32 {
  if (len < WIDE_FOLD_MIN_BYTES) {
    const words = len >>> 3;
    return sliced(p + words * 8, len & 7, sliced(foldPass<u64>(p, words, crc), SPAN * 8, 0));
  }
  const words = len >>> 4;
  // The 128-bit pass's remainder is exactly two spans of 64-bit words.
  const remainder = foldPass<u64>(foldPass<v128>(p, words, crc), 2 * SPAN, 0);
  return sliced(p + words * 16, len & 15, sliced(remainder, SPAN * 8, 0));
}

/** CRC-32 (IEEE 802.3, as in zlib) of [p, p+len). `prev` continues a previous result (0 to start). */
export function crc32Of(p: usize, len: usize, prev: u32): u32 {
  const tbl = CRC32_TABLE;
  let crc = ~prev;
  const end16 = p + (len & ~(<usize>15));
  const end = p + len;
  while (p < end16) {
    const a = load<u32>(p) ^ crc;
    const b = load<u32>(p, 4);
    const c = load<u32>(p, 8);
    const d = load<u32>(p, 12);
    crc =
      T(tbl, 15, a & 0xff) ^ T(tbl, 14, (a >>> 8) & 0xff) ^ T(tbl, 13, (a >>> 16) & 0xff) ^ T(tbl, 12, a >>> 24) ^
      T(tbl, 11, b & 0xff) ^ T(tbl, 10, (b >>> 8) & 0xff) ^ T(tbl, 9, (b >>> 16) & 0xff) ^ T(tbl, 8, b >>> 24) ^
      T(tbl, 7, c & 0xff) ^ T(tbl, 6, (c >>> 8) & 0xff) ^ T(tbl, 5, (c >>> 16) & 0xff) ^ T(tbl, 4, c >>> 24) ^
      T(tbl, 3, d & 0xff) ^ T(tbl, 2, (d >>> 8) & 0xff) ^ T(tbl, 1, (d >>> 16) & 0xff) ^ T(tbl, 0, d >>> 24);
    p += 16;
  }
  while (p < end) {
    crc = T(tbl, 0, (crc ^ <u32>load<u8>(p)) & 0xff) ^ (crc >>> 8);
    p++;
  }
  return ~crc;
}

