// Snappy: raw block format (varint length preamble, literal and copy tags) and the xerial framing
// written by snappy-java's SnappyOutputStream (used by Kafka's Java client):
//   magic 0x82 'S' 'N' 'A' 'P' 'P' 'Y' 0, version int32 BE, compatible-version int32 BE,
//   then blocks of: compressed length int32 BE, raw snappy block.
// Compression: one element stream per raw block or xerial block, by the match finder in ./lz77.
import {
  E_TOO_LARGE, E_CORRUPT_COMPRESSED, E_OUT_OF_MEMORY, F_COMPRESSED, fail, resetStatus, ensure, be32, storeBe32, copy,
  wildCopy, wildCopyMatch, WILD_SLACK, WILD_MAX,
} from './common';
import { compressLz77, FORMAT_SNAPPY } from './lz77';
import { storeUvarint } from '../wire/varint';

// snappy-java writes 64 KiB blocks but reads any size; bigger blocks keep more history.
const XERIAL_BLOCK: i32 = 64 * 1024;

// @ts-ignore: decorator
@inline export function copyMatch(d: usize, off: usize, len: usize): void {
  let s = d - off;
  if (off >= len) {
    copy(d, s, len);
  } else if (off >= 8) {
    const e = d + len;
    while (d + 8 <= e) { store<u64>(d, load<u64>(s)); d += 8; s += 8; }
    while (d < e) { store<u8>(d++, load<u8>(s++)); }
  } else {
    const e = d + len;
    while (d < e) { store<u8>(d++, load<u8>(s++)); }
  }
}

/** Parses the uncompressed length preamble; returns it (>= 0) or -1. Sets PRE_LEN bytes used. */
let PRE_LEN: i32 = 0;
function preamble(p: usize, end: usize): i64 {
  let v: u64 = 0;
  for (let i = 0; i < 5; i++) {
    if (p + <usize>i >= end) return -1;
    const b = <u64>load<u8>(p + <usize>i);
    v |= (b & 0x7f) << (7 * <u64>i);
    if (b < 0x80) { PRE_LEN = i + 1; return v > 0xffffffff ? -1 : <i64>v; }
  }
  return -1;
}

/**
 * Decodes one raw snappy block [src, src+len) into dst (which may already hold `base` bytes of
 * output, not referenced). Returns bytes produced, -1 corrupt, -2 over `cap`.
 */
function rawDecode(src: usize, len: usize, dst: usize, cap: usize): i64 {
  const end = src + len;
  const ulen = preamble(src, end);
  if (ulen < 0) return -1;
  if (<u64>ulen > <u64>cap) return -2;
  if (!ensure(dst + <usize>ulen + 8)) return -3;
  let ip = src + <usize>PRE_LEN;
  let out = dst;
  const oend = dst + <usize>ulen;
  // Every element is checked against the input's end and the stated length once; where both leave
  // room for 16-byte words (all but the last few), it goes by wild copies (./common).
  while (ip < end) {
    const tag = <u32>load<u8>(ip++);
    const kind = tag & 3;
    if (kind == 0) {
      let lit = <usize>(tag >>> 2);
      if (lit >= 60) {
        const nb = lit - 59;
        if (nb > end - ip) return -1;
        lit = 0;
        for (let i: usize = 0; i < nb; i++) lit |= (<usize>load<u8>(ip + i)) << (8 * i);
        ip += nb;
      }
      if (lit >= end - ip) return -1;
      lit += 1;
      if (lit > oend - out) return -1;
      if (lit <= WILD_MAX && lit + WILD_SLACK <= end - ip && lit + WILD_SLACK <= oend - out) wildCopy(out, ip, lit);
      else copy(out, ip, lit);
      ip += lit;
      out += lit;
    } else {
      let mlen: usize;
      let off: usize;
      if (kind == 1) {
        if (ip >= end) return -1;
        mlen = <usize>(((tag >>> 2) & 7) + 4);
        off = (<usize>(tag >>> 5) << 8) | <usize>load<u8>(ip);
        ip += 1;
      } else if (kind == 2) {
        if (end - ip < 2) return -1;
        mlen = <usize>((tag >>> 2) + 1);
        off = <usize>load<u16>(ip);
        ip += 2;
      } else {
        if (end - ip < 4) return -1;
        mlen = <usize>((tag >>> 2) + 1);
        off = <usize>load<u32>(ip);
        ip += 4;
      }
      if (off == 0 || off > out - dst || mlen > oend - out) return -1;
      if (mlen + WILD_SLACK <= oend - out) wildCopyMatch(out, off, mlen);
      else copyMatch(out, off, mlen);
      out += mlen;
    }
  }
  if (out != oend) return -1;
  return <i64>(out - dst);
}

function isXerial(p: usize, len: usize): bool {
  return len >= 16 && load<u64>(p) == 0x0059505041_4E53_82; // 82 'S' 'N' 'A' 'P' 'P' 'Y' 00 (LE)
}

/**
 * Decodes snappy data, xerial-framed or raw, into dst with at most `cap` output bytes.
 * Returns bytes produced; fails (status block, trap) with E_TOO_LARGE / E_CORRUPT_COMPRESSED.
 */
export function snappyDecode(src: usize, len: i32, dst: usize, cap: i32): i32 {
  resetStatus();
  const end = src + <usize>len;
  let produced: usize = 0;
  if (isXerial(src, <usize>len)) {
    let ip = src + 16;
    while (ip < end) {
      if (end - ip < 4) return corrupt(ip - src);
      const bl = be32(ip);
      ip += 4;
      if (bl < 0 || <usize>bl > end - ip) return corrupt(ip - 4 - src);
      const r = rawDecode(ip, <usize>bl, dst + produced, <usize>cap - produced);
      if (r < 0) return r == -2 ? tooLarge(ip - src) : r == -3 ? oom(ip - src) : corrupt(ip - src);
      produced += <usize>r;
      ip += <usize>bl;
    }
  } else {
    const r = rawDecode(src, <usize>len, dst, <usize>cap);
    if (r < 0) return r == -2 ? tooLarge(0) : r == -3 ? oom(0) : corrupt(0);
    produced = <usize>r;
  }
  return <i32>produced;
}

function corrupt(at: usize): i32 { return fail(E_CORRUPT_COMPRESSED, <i32>at, F_COMPRESSED); }
function tooLarge(at: usize): i32 { return fail(E_TOO_LARGE, <i32>at, F_COMPRESSED); }
function oom(at: usize): i32 { return fail(E_OUT_OF_MEMORY, <i32>at, F_COMPRESSED); }

// ---------------------------------------------------------------------------------------------
// Compression

/** Worst-case raw snappy size for n input bytes. */
export function snappyMaxRaw(n: i32): i32 {
  return 32 + n + n / 6;
}

/** Worst-case snappyEncode output: raw, or xerial (header + per 64 KiB block: length + raw bound). */
export function snappyMaxEncoded(n: i32, xerial: i32): i32 {
  if (!xerial) return snappyMaxRaw(n);
  const blocks = (n + XERIAL_BLOCK - 1) / XERIAL_BLOCK;
  return 16 + blocks * 36 + n + n / 6;
}

function rawEncode(src: usize, n: usize, op: usize): usize {
  op = storeUvarint<u32>(op, <u32>n);   // the uncompressed length
  return compressLz77(src, n, op, FORMAT_SNAPPY);
}

/** Compresses [src, src+len) to dst, xerial-framed (64 KiB blocks) when xerial != 0. Returns its size. */
export function snappyEncode(src: usize, len: i32, dst: usize, xerial: i32): i32 {
  resetStatus();
  const n = <usize>len;
  if (!xerial) {
    if (!ensure(dst + <usize>snappyMaxEncoded(len, 0))) return fail(E_OUT_OF_MEMORY, -1, -1);
    return <i32>(rawEncode(src, n, dst) - dst);
  }
  if (!ensure(dst + <usize>snappyMaxEncoded(len, 1))) return fail(E_OUT_OF_MEMORY, -1, -1);
  store<u64>(dst, 0x0059505041_4E53_82);
  storeBe32(dst + 8, 1);
  storeBe32(dst + 12, 1);
  let op = dst + 16;
  let p: usize = 0;
  while (p < n) {
    const bl = n - p < <usize>XERIAL_BLOCK ? n - p : <usize>XERIAL_BLOCK;
    const e = rawEncode(src + p, bl, op + 4);
    storeBe32(op, <i32>(e - op - 4));
    op = e;
    p += bl;
  }
  return <i32>(op - dst);
}
