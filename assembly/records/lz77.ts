// The match finder behind both the lz4 and the snappy compressors (the two formats differ only in
// how a run of literals and a back-reference are written): LZ4's fast mode. A hash of the next
// 5 bytes indexes the last position seen with it, within a 64 KiB window (both formats' 2-byte
// offsets); misses move on by a step that grows every 64 misses (incompressible input goes by
// quickly); a found match is extended backwards over equal literals and forwards 8 bytes at a time.
import { copy } from './common';

const HASH_LOG: u64 = 14;
/** Position (from the stream start) last seen for each hash: 16384 x u32. */
const HASH_TABLE: usize = memory.data(4 << <i32>HASH_LOG, 16);
const MAX_OFFSET: usize = 65535;
const PRIME5: u64 = 889523592379; // LZ4's multiplier for 5-byte hashes

export const FORMAT_LZ4: i32 = 0;
export const FORMAT_SNAPPY: i32 = 1;

// @ts-ignore: decorator
@inline function slot(p: usize): usize {
  return <usize>(((load<u64>(p) << 24) * PRIME5) >>> (64 - HASH_LOG)) << 2;
}

/** How many bytes from ip equal those from cand, reading no further than limit. */
// @ts-ignore: decorator
@inline function matchLength(ip: usize, cand: usize, limit: usize): usize {
  const start = ip;
  while (ip + 8 <= limit) {
    const x = load<u64>(ip) ^ load<u64>(cand);
    if (x != 0) return ip - start + <usize>(ctz<u64>(x) >>> 3);
    ip += 8;
    cand += 8;
  }
  while (ip < limit && load<u8>(ip) == load<u8>(cand)) { ip++; cand++; }
  return ip - start;
}

// ---- lz4 sequences: token, literal length, literals, offset, match length ----

// @ts-ignore: decorator
@inline function lz4Length(op: usize, n: usize): usize {
  while (n >= 255) { store<u8>(op++, 255); n -= 255; }
  store<u8>(op++, <u8>n);
  return op;
}

/**
 * Copies literals 8 bytes at a time, up to 7 bytes too many: only where both the input and the
 * output go on past them (before a match, whose fields overwrite the excess).
 */
// @ts-ignore: decorator
@inline function wildCopy(dst: usize, src: usize, n: usize): void {
  const e = dst + n;
  do { store<u64>(dst, load<u64>(src)); dst += 8; src += 8; } while (dst < e);
}

/** One lz4 sequence; ml == 0 writes the final literals-only sequence. */
// @ts-ignore: decorator
@inline function lz4Sequence(op: usize, lit: usize, litLen: usize, off: usize, ml: usize): usize {
  const tokenAt = op++;
  let token: u32 = (litLen >= 15 ? 15 : <u32>litLen) << 4;
  if (litLen >= 15) op = lz4Length(op, litLen - 15);
  if (ml > 0 && litLen <= 32) wildCopy(op, lit, litLen); else copy(op, lit, litLen);
  op += litLen;
  if (ml > 0) {
    store<u16>(op, <u16>off);
    op += 2;
    const m = ml - 4;
    token |= m >= 15 ? 15 : <u32>m;
    if (m >= 15) op = lz4Length(op, m - 15);
  }
  store<u8>(tokenAt, <u8>token);
  return op;
}

// ---- snappy elements: literal runs and copies ----

function snappyLiteral(op: usize, ip: usize, len: usize, beforeMatch: bool): usize {
  if (len == 0) return op;
  const n = len - 1;
  if (n < 60) {
    store<u8>(op++, <u8>(n << 2));
  } else if (n < 0x100) {
    store<u8>(op++, 60 << 2);
    store<u8>(op++, <u8>n);
  } else if (n < 0x10000) {
    store<u8>(op++, 61 << 2);
    store<u16>(op, <u16>n);
    op += 2;
  } else if (n < 0x1000000) {
    store<u8>(op++, 62 << 2);
    store<u16>(op, <u16>n);
    store<u8>(op + 2, <u8>(n >>> 16));
    op += 3;
  } else {
    store<u8>(op++, 63 << 2);
    store<u32>(op, <u32>n);
    op += 4;
  }
  if (beforeMatch && len <= 32) wildCopy(op, ip, len); else copy(op, ip, len);
  return op + len;
}

function snappyCopy(op: usize, off: usize, len: usize): usize {
  while (len >= 68) {
    store<u8>(op, <u8>(2 | (63 << 2)));
    store<u16>(op + 1, <u16>off);
    op += 3;
    len -= 64;
  }
  if (len > 64) {
    store<u8>(op, <u8>(2 | (59 << 2)));
    store<u16>(op + 1, <u16>off);
    op += 3;
    len -= 60;
  }
  if (len < 12 && off < 2048) {
    store<u8>(op, <u8>(1 | ((len - 4) << 2) | ((off >>> 8) << 5)));
    store<u8>(op + 1, <u8>off);
    return op + 2;
  }
  store<u8>(op, <u8>(2 | ((len - 1) << 2)));
  store<u16>(op + 1, <u16>off);
  return op + 3;
}

/**
 * Compresses [base, base+n) to op as one lz4 block or one snappy element stream (without its
 * length preamble). Returns the end of the output.
 */
export function compressLz77(base: usize, n: usize, op: usize, format: i32): usize {
  const end = base + n;
  // lz4: a match may not start in the last 12 bytes and must leave the last 5 as literals.
  // snappy has no such rule; the margin only keeps the 8-byte hash read inside the input.
  const matchLimit = n > 12 ? end - 12 : base;
  const extendLimit = format == FORMAT_LZ4 ? end - 5 : end;
  let anchor = base;
  if (n > 12) {
    memory.fill(HASH_TABLE, 0, 4 << <i32>HASH_LOG);
    let ip = base + 1;
    store<u32>(HASH_TABLE + slot(base), 0);
    while (ip < matchLimit) {
      // Find a match: hash, look up, remember this position; step further after many misses.
      let misses: u32 = 64;
      let cand: usize = 0;
      let found = false;
      let h = slot(ip);
      while (true) {
        cand = base + <usize>load<u32>(HASH_TABLE + h);
        store<u32>(HASH_TABLE + h, <u32>(ip - base));
        const next = ip + <usize>(misses++ >>> 6);
        // The next position's hash is computed before this one is checked: the two overlap.
        if (next < matchLimit) h = slot(next);
        if (ip - cand <= MAX_OFFSET && cand < ip && load<u32>(cand) == load<u32>(ip)) { found = true; break; }
        ip = next;
        if (ip >= matchLimit) break;
      }
      if (!found) break;
      // Catch up: the bytes before the match often match too.
      while (ip > anchor && cand > base && load<u8>(ip - 1) == load<u8>(cand - 1)) { ip--; cand--; }
      const m = <usize>4 + matchLength(ip + 4, cand + 4, extendLimit);
      if (format == FORMAT_LZ4) {
        op = lz4Sequence(op, anchor, ip - anchor, ip - cand, m);
      } else {
        op = snappyLiteral(op, anchor, ip - anchor, true);
        op = snappyCopy(op, ip - cand, m);
      }
      ip += m;
      anchor = ip;
      // Index a position inside the match, so the next search can find what follows it.
      if (ip < matchLimit) store<u32>(HASH_TABLE + slot(ip - 2), <u32>(ip - 2 - base));
    }
  }
  return format == FORMAT_LZ4 ? lz4Sequence(op, anchor, end - anchor, 0, 0) : snappyLiteral(op, anchor, end - anchor, false);
}
