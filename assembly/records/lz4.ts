// xxHash32 and the LZ4 frame format (as used by Kafka): frame decoding (all block sizes, optional
// block/content checksums and content size, concatenated and skippable frames) and frame encoding
// with independent blocks of the smallest size (64 KiB to 4 MiB) that holds the input, each
// compressed by the match finder in ./lz77.
import {
  E_TOO_LARGE, E_CORRUPT_COMPRESSED, E_CHECKSUM, E_OUT_OF_MEMORY, F_COMPRESSED, fail, resetStatus, ensure, copy,
  wildCopy, wildCopyMatch, WILD_SLACK, WILD_MAX, PATTERN, STEP,
} from './common';
import { copyMatch } from './snappy';
import { compressLz77, FORMAT_LZ4 } from './lz77';

const P1: u32 = 2654435761;
const P2: u32 = 2246822519;
const P3: u32 = 3266489917;
const P4: u32 = 668265263;
const P5: u32 = 374761393;

// @ts-ignore: decorator
@inline function round(acc: u32, v: u32): u32 {
  return rotl<u32>(acc + v * P2, 13) * P1;
}

export function xxh32(p: usize, len: usize, seed: u32): u32 {
  const end = p + len;
  let h: u32;
  if (len >= 16) {
    const limit = end - 16;
    let v1 = seed + P1 + P2;
    let v2 = seed + P2;
    let v3 = seed;
    let v4 = seed - P1;
    do {
      v1 = round(v1, load<u32>(p));
      v2 = round(v2, load<u32>(p, 4));
      v3 = round(v3, load<u32>(p, 8));
      v4 = round(v4, load<u32>(p, 12));
      p += 16;
    } while (p <= limit);
    h = rotl<u32>(v1, 1) + rotl<u32>(v2, 7) + rotl<u32>(v3, 12) + rotl<u32>(v4, 18);
  } else {
    h = seed + P5;
  }
  h += <u32>len;
  while (p + 4 <= end) {
    h = rotl<u32>(h + load<u32>(p) * P3, 17) * P4;
    p += 4;
  }
  while (p < end) {
    h = rotl<u32>(h + (<u32>load<u8>(p)) * P5, 11) * P1;
    p++;
  }
  h ^= h >>> 15;
  h *= P2;
  h ^= h >>> 13;
  h *= P3;
  h ^= h >>> 16;
  return h;
}

/** The fast path's margins: input it may read and output it may write past a sequence's start. */
const FAST_IN: usize = 32;
const FAST_OUT: usize = 64;

/**
 * Decodes one LZ4 block [src, src+len) to dst+op (dst is the frame's output start, so matches may
 * reach into earlier blocks). Returns new op, -1 corrupt, -2 over cap.
 * Every sequence is checked against the input's end and the cap once; where both leave room for
 * 16-byte words (almost every sequence but the last few), literals and match go by wild copies.
 */
function blockDecode(src: usize, len: usize, dst: usize, op: usize, cap: usize): i64 {
  let ip = src;
  const end = src + len;
  let out = dst + op;
  const oend = dst + cap;
  // Fast path, one bounds check per sequence: while FAST_IN bytes of input and FAST_OUT of output
  // room remain, a sequence with short literals (< 15) and a short match (< 15, so <= 18 bytes)
  // has its literals, offset and match all inside that margin: literals go as one 16-byte word,
  // the match as two. Anything else (long runs, or near the ends) takes the checked path below.
  const fastIn = len > FAST_IN ? end - FAST_IN : src;
  const fastOut = cap - op > FAST_OUT ? oend - FAST_OUT : dst;
  while (true) {
    while (ip < fastIn && out < fastOut) {
      const token = <u32>load<u8>(ip);
      const lit = <usize>(token >>> 4);
      let ml = <usize>(token & 15);
      if (lit == 15) break;
      v128.store(out, v128.load(ip, 1));
      ip += lit + 1;
      out += lit;
      const off = <usize>load<u16>(ip);
      if (off - 1 >= out - dst) return -1; // also catches off == 0 (wraps)
      ip += 2;
      if (ml == 15) {
        // A long match: its length bytes are checked one by one, its room once.
        let b: u32;
        do {
          if (ip >= end) return -1;
          b = <u32>load<u8>(ip++);
          ml += <usize>b;
        } while (b == 255);
        ml += 4;
        if (ml + WILD_SLACK > oend - out) {
          if (ml > oend - out) return -2;
          copyMatch(out, off, ml);
        } else if (off >= ml && ml > WILD_MAX) {
          memory.copy(out, out - off, ml);
        } else {
          wildCopyMatch(out, off, ml);
        }
        out += ml;
        continue;
      }
      if (off >= 16) {
        const s = out - off;
        v128.store(out, v128.load(s));
        v128.store(out, v128.load(s, 16), 16);
      } else {
        const word = i8x16.swizzle(v128.load(out - off), v128.load(PATTERN + (off << 4)));
        v128.store(out, word);
        v128.store(out + <usize>load<u8>(STEP + off), word);
      }
      out += ml + 4;
    }
    if (ip >= end) return -1;
    const token = <u32>load<u8>(ip++);
    let lit = <usize>(token >>> 4);
    if (lit == 15) {
      let b: u32;
      do {
        if (ip >= end) return -1;
        b = <u32>load<u8>(ip++);
        lit += <usize>b;
      } while (b == 255);
    }
    if (lit > end - ip) return -1;
    if (lit > oend - out) return -2;
    // Room for whole words: reads stay inside the input, writes before the cap.
    if (lit <= WILD_MAX && lit + WILD_SLACK <= end - ip && lit + WILD_SLACK <= oend - out) wildCopy(out, ip, lit);
    else copy(out, ip, lit);
    ip += lit;
    out += lit;
    if (ip == end) break;
    if (end - ip < 2) return -1;
    const off = <usize>load<u16>(ip);
    ip += 2;
    let ml = <usize>(token & 15);
    if (ml == 15) {
      let b: u32;
      do {
        if (ip >= end) return -1;
        b = <u32>load<u8>(ip++);
        ml += <usize>b;
      } while (b == 255);
    }
    ml += 4;
    if (off == 0 || off > out - dst) return -1;
    if (ml > oend - out) return -2;
    if (ml + WILD_SLACK <= oend - out) wildCopyMatch(out, off, ml);
    else copyMatch(out, off, ml);
    out += ml;
  }
  return <i64>(out - dst);
}

function err(code: i32, at: usize): i32 { return fail(code, <i32>at, F_COMPRESSED); }

/**
 * Decodes LZ4 frames [src, src+len) into dst, at most `cap` bytes. flags & 1 accepts the header
 * checksum computed over the magic too (Kafka's pre-0.10 bug, legacy magic 0 only).
 * Returns bytes produced; fails (status block, trap) on bad input.
 */
export function lz4Decode(src: usize, len: i32, dst: usize, cap: i32, flags: i32): i32 {
  resetStatus();
  let ip = src;
  const end = src + <usize>len;
  const ucap = <usize>cap;
  let op: usize = 0;
  if (len == 0) return err(E_CORRUPT_COMPRESSED, 0);
  while (ip < end) {
    if (end - ip < 4) return err(E_CORRUPT_COMPRESSED, ip - src);
    const magic = load<u32>(ip);
    if ((magic & 0xFFFFFFF0) == 0x184D2A50) {
      if (end - ip < 8) return err(E_CORRUPT_COMPRESSED, ip - src);
      const sz = <usize>load<u32>(ip, 4);
      if (sz > end - ip - 8) return err(E_CORRUPT_COMPRESSED, ip - src);
      ip += 8 + sz;
      continue;
    }
    if (magic != 0x184D2204) return err(E_CORRUPT_COMPRESSED, ip - src);
    if (end - ip < 7) return err(E_CORRUPT_COMPRESSED, ip - src);
    const flg = <u32>load<u8>(ip, 4);
    const bd = <u32>load<u8>(ip, 5);
    if ((flg >>> 6) != 1 || (flg & 2) != 0 || (bd & 0x8F) != 0) return err(E_CORRUPT_COMPRESSED, ip + 4 - src);
    const bsid = (bd >>> 4) & 7;
    if (bsid < 4) return err(E_CORRUPT_COMPRESSED, ip + 5 - src);
    if (flg & 1) return err(E_CORRUPT_COMPRESSED, ip + 4 - src); // dictionaries are not used by Kafka
    const blockMax = (<usize>1) << (8 + 2 * <usize>bsid);
    const hasBlockCk = (flg & 0x10) != 0;
    const hasSize = (flg & 8) != 0;
    const hasContentCk = (flg & 4) != 0;
    const descLen: usize = 2 + (hasSize ? 8 : 0);
    if (end - ip < 4 + descLen + 1) return err(E_CORRUPT_COMPRESSED, ip - src);
    const hc = <u32>load<u8>(ip + 4 + descLen);
    if (hc != ((xxh32(ip + 4, descLen, 0) >>> 8) & 0xff)) {
      if (!(flags & 1) || hc != ((xxh32(ip, 4 + descLen, 0) >>> 8) & 0xff)) return err(E_CHECKSUM, ip + 4 + descLen - src);
    }
    let contentSize: u64 = 0;
    if (hasSize) {
      contentSize = load<u64>(ip, 6);
      if (contentSize > <u64>(ucap - op)) return err(E_TOO_LARGE, ip + 6 - src);
    }
    ip += 4 + descLen + 1;
    const frameStart = op;
    while (true) {
      if (end - ip < 4) return err(E_CORRUPT_COMPRESSED, ip - src);
      let bs = <usize>load<u32>(ip);
      const blockAt = ip;
      ip += 4;
      if (bs == 0) break;
      const raw = (bs & 0x80000000) != 0;
      bs &= 0x7FFFFFFF;
      if (bs > blockMax || bs > end - ip) return err(E_CORRUPT_COMPRESSED, blockAt - src);
      if (hasBlockCk) {
        if (end - ip - bs < 4) return err(E_CORRUPT_COMPRESSED, blockAt - src);
        if (load<u32>(ip + bs) != xxh32(ip, bs, 0)) return err(E_CHECKSUM, ip + bs - src);
      }
      if (raw) {
        if (bs > ucap - op) return err(E_TOO_LARGE, blockAt - src);
        if (!ensure(dst + op + bs)) return err(E_OUT_OF_MEMORY, blockAt - src);
        memory.copy(dst + op, ip, bs);
        op += bs;
      } else {
        const room = ucap - op < blockMax ? ucap - op : blockMax;
        if (!ensure(dst + op + room + 8)) return err(E_OUT_OF_MEMORY, blockAt - src);
        const r = blockDecode(ip, bs, dst, op, op + room);
        if (r == -2) return err(room < blockMax ? E_TOO_LARGE : E_CORRUPT_COMPRESSED, blockAt - src);
        if (r < 0) return err(E_CORRUPT_COMPRESSED, blockAt - src);
        op = <usize>r;
      }
      ip += bs + (hasBlockCk ? 4 : 0);
    }
    if (hasContentCk) {
      if (end - ip < 4) return err(E_CORRUPT_COMPRESSED, ip - src);
      if (load<u32>(ip) != xxh32(dst + frameStart, op - frameStart, 0)) return err(E_CHECKSUM, ip - src);
      ip += 4;
    }
    if (hasSize && <u64>(op - frameStart) != contentSize) return err(E_CORRUPT_COMPRESSED, ip - src);
  }
  return <i32>op;
}

// ---------------------------------------------------------------------------------------------
// Compression

/** Upper bound of lz4Encode's output for n input bytes. */
export function lz4MaxFrame(n: i32): i32 {
  const blocks = (n + 65535) >>> 16;
  return 7 + 4 + n + n / 255 + blocks * 24 + 16;
}

/**
 * Writes one LZ4 frame (independent blocks, no checksums but the header's). Returns its size.
 * Bigger blocks compress better (more history); the smallest size that holds the input keeps a
 * reader's buffer no bigger than needed (Kafka's Java reader allocates one block).
 */
export function lz4Encode(src: usize, len: i32, dst: usize): i32 {
  const n = <usize>len;
  resetStatus();
  if (!ensure(dst + <usize>lz4MaxFrame(len))) return fail(E_OUT_OF_MEMORY, -1, -1);
  let bsid: u32 = 4; // 64 KiB << 2 * (bsid - 4), at most 7 (4 MiB)
  while (bsid < 7 && n > (<usize>1 << (8 + 2 * <usize>bsid))) bsid++;
  const BLOCK = <usize>1 << (8 + 2 * <usize>bsid);
  store<u32>(dst, 0x184D2204);
  store<u8>(dst + 4, 0x60); // version 01, block independence
  store<u8>(dst + 5, <u8>(bsid << 4));
  store<u8>(dst + 6, <u8>((xxh32(dst + 4, 2, 0) >>> 8) & 0xff));
  let op = dst + 7;
  let p: usize = 0;
  while (p < n) {
    const bl = n - p < BLOCK ? n - p : BLOCK;
    const e = compressLz77(src + p, bl, op + 4, FORMAT_LZ4);
    const cl = e - op - 4;
    if (cl >= bl) {
      store<u32>(op, <u32>bl | 0x80000000);
      memory.copy(op + 4, src + p, bl);
      op += 4 + bl;
    } else {
      store<u32>(op, <u32>cl);
      op = e;
    }
    p += bl;
  }
  store<u32>(op, 0);
  op += 4;
  return <i32>(op - dst);
}
