// Input bytes split into records and encoded in one pass: `key<K>value<D>` records of a chunk (K
// and D single bytes) written straight into the open batch of their partition (murmur2 of the key
// as the Java client partitions, or one fixed partition), no copy of a record made anywhere else.
// The producer's bulk path (src/records/split.ts drives it; the CLI's kafka-wire produce uses it).
import { copy } from './common';
import { sizeVarint, writeVarint } from './varint';
import {
  SPLIT_REASON, SPLIT_PARTITION, SPLIT_RECORD, SPLIT_STATUS_WORDS, SPLIT_PART_WORDS, SPLIT_POS, SPLIT_END, SPLIT_HARD_END,
  SPLIT_COUNT, SPLIT_TIMESTAMP_DELTA, SPLIT_NUMBERS, SPLIT_NEED_MORE, SPLIT_FULL, SPLIT_NO_KEY, SPLIT_TOO_LARGE,
} from '../../src/wasm/abi';

/** Kafka's Java client's murmur2 (seed 0x9747b28c) of [p, p + n), as src/wire/partitioner.ts. */
function murmur2(p: usize, n: i32): i32 {
  const m: i32 = 0x5bd1e995;
  let h: i32 = 0x9747b28c ^ n;
  const whole = p + <usize>(n & ~3);
  while (p < whole) {
    let k = load<i32>(p);
    k *= m;
    k ^= <i32>(<u32>k >>> 24);
    k *= m;
    h = (h * m) ^ k;
    p += 4;
  }
  const rest = n & 3;
  if (rest == 3) h ^= <i32>load<u8>(p + 2) << 16;
  if (rest >= 2) h ^= <i32>load<u8>(p + 1) << 8;
  if (rest >= 1) { h ^= <i32>load<u8>(p); h *= m; }
  h ^= <i32>(<u32>h >>> 13);
  h *= m;
  h ^= <i32>(<u32>h >>> 15);
  return h;
}

/** First byte equal to `a` or `b` in [p, end), else end; 16 bytes at a time. */
// @ts-ignore: decorator
@inline function findEither(p: usize, end: usize, a: i32, b: i32): usize {
  const va = i8x16.splat(<i8>a);
  const vb = i8x16.splat(<i8>b);
  while (p + 16 <= end) {
    const v = v128.load(p);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(v, va), i8x16.eq(v, vb)));
    if (mask != 0) return p + <usize>ctz(mask);
    p += 16;
  }
  while (p < end) {
    const c = <i32>load<u8>(p);
    if (c == a || c == b) return p;
    p++;
  }
  return end;
}

// @ts-ignore: decorator
@inline function stop(table: usize, reason: i32, partition: i32, record: i32, consumed: usize): i32 {
  store<i32>(table, reason, SPLIT_REASON << 2);
  store<i32>(table, partition, SPLIT_PARTITION << 2);
  store<i32>(table, record, SPLIT_RECORD << 2);
  return <i32>consumed;
}

/**
 * Splits [inp, inp + len) at `recordDelim` into records, each into key and value at its first
 * `keyDelim` (-1: none, the record is the value and its key is null), and appends each record
 * to the open batch of its partition in `table` (layout in src/wasm/abi.ts): `fixed` >= 0 puts
 * every record there, else the partition is murmur2(key) mod `partitions`. With `final` the end
 * of the input ends a last record. Returns the bytes consumed (whole records) and leaves why it
 * stopped in the table's status words. `maxFieldBytes` limits a record's key and value bytes.
 */
export function splitRecords(inp: usize, len: i32, table: usize, partitions: i32, fixed: i32, recordDelim: i32, keyDelim: i32,
  maxFieldBytes: i32, final: i32): i32 {
  const end = inp + <usize>len;
  let p = inp;
  let record = load<i32>(table, SPLIT_RECORD << 2);
  const parts = table + (SPLIT_STATUS_WORDS << 2);
  // keyDelim -1: search for the record delimiter alone (twice the same byte).
  const kd = keyDelim < 0 ? recordDelim : keyDelim;
  while (p < end) {
    let at = findEither(p, end, recordDelim, kd);
    let keyEnd: usize = 0; // 0: no key
    if (at < end && keyDelim >= 0 && <i32>load<u8>(at) == keyDelim) {
      keyEnd = at;
      at = findEither(at + 1, end, recordDelim, recordDelim);
    }
    if (at >= end && !final) return stop(table, SPLIT_NEED_MORE, -1, record, p - inp);
    const kl: i32 = keyEnd == 0 ? -1 : <i32>(keyEnd - p);
    const vs = keyEnd == 0 ? p : keyEnd + 1;
    const vl = <i32>(at - vs);
    if ((kl > 0 ? kl : 0) + vl > maxFieldBytes) return stop(table, SPLIT_TOO_LARGE, -1, record, p - inp);
    let part = fixed;
    if (part < 0) {
      if (kl < 0) return stop(table, SPLIT_NO_KEY, -1, record, p - inp);
      part = <i32>(<u32>(murmur2(p, kl) & 0x7fffffff) % <u32>partitions);
    }
    const e = parts + <usize>(part * SPLIT_PART_WORDS << 2);
    const count = load<i32>(e, SPLIT_COUNT << 2);
    const ts = load<i32>(e, SPLIT_TIMESTAMP_DELTA << 2);
    // attributes, timestampDelta, offsetDelta, key length, key, value length, value, header count
    const body = 1 + sizeVarint(ts) + sizeVarint(count) + sizeVarint(kl) + (kl > 0 ? kl : 0) + sizeVarint(vl) + vl + 1;
    let o = <usize>load<i32>(e, SPLIT_POS << 2);
    const next = o + <usize>(sizeVarint(body) + body);
    const limit = count == 0 ? load<i32>(e, SPLIT_HARD_END << 2) : load<i32>(e, SPLIT_END << 2);
    if (next > <usize>limit) {
      return stop(table, SPLIT_FULL, part, record, p - inp);
    }
    o = writeVarint(o, body);
    store<u8>(o++, 0);
    o = writeVarint(o, ts);
    o = writeVarint(o, count);
    o = writeVarint(o, kl);
    if (kl > 0) { copy(o, p, <usize>kl); o += <usize>kl; }
    o = writeVarint(o, vl);
    copy(o, vs, <usize>vl);
    o += <usize>vl;
    store<u8>(o++, 0);
    store<i32>(e, <i32>o, SPLIT_POS << 2);
    store<i32>(e, count + 1, SPLIT_COUNT << 2);
    const nums = <usize>load<i32>(e, SPLIT_NUMBERS << 2);
    store<i32>(nums, record++);
    store<i32>(e, <i32>(nums + 4), SPLIT_NUMBERS << 2);
    p = at < end ? at + 1 : end;
  }
  return stop(table, SPLIT_NEED_MORE, -1, record, p - inp);
}
