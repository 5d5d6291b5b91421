// Shared helpers for the records WebAssembly module: error status (record, then trap), memory growth, big-endian
// loads/stores (from assembly/wire/), copies. Nothing here allocates through the AssemblyScript runtime (runtime "stub"): all
// buffers are raw regions laid out by the caller (see src/records/engine.ts).

// Status and field codes (src/wasm/abi.ts), under the short names the records code uses.
export {
  RECORDS_OK as E_OK, RECORDS_TRUNCATED as E_TRUNCATED, RECORDS_INVALID_LENGTH as E_INVALID_LENGTH,
  RECORDS_VARINT_TOO_LONG as E_VARINT_TOO_LONG, RECORDS_CRC_MISMATCH as E_CRC_MISMATCH,
  RECORDS_UNSUPPORTED_MAGIC as E_UNSUPPORTED_MAGIC, RECORDS_RECORD_COUNT as E_RECORD_COUNT,
  RECORDS_RECORD_LENGTH_MISMATCH as E_RECORD_LENGTH_MISMATCH, RECORDS_TRAILING_BYTES as E_TRAILING_BYTES,
  RECORDS_BATCH_TOO_SHORT as E_BATCH_TOO_SHORT, RECORDS_TOO_LARGE as E_TOO_LARGE,
  RECORDS_CORRUPT_COMPRESSED as E_CORRUPT_COMPRESSED, RECORDS_UNSUPPORTED_COMPRESSION as E_UNSUPPORTED_COMPRESSION,
  RECORDS_OUT_OF_MEMORY as E_OUT_OF_MEMORY, RECORDS_CHECKSUM as E_CHECKSUM,
  FIELD_BATCH as F_BATCH, FIELD_RECORD_LENGTH as F_RECORD_LENGTH, FIELD_ATTRIBUTES as F_ATTRIBUTES,
  FIELD_TIMESTAMP_DELTA as F_TIMESTAMP_DELTA, FIELD_OFFSET_DELTA as F_OFFSET_DELTA, FIELD_KEY_LENGTH as F_KEY_LENGTH,
  FIELD_VALUE_LENGTH as F_VALUE_LENGTH, FIELD_HEADER_COUNT as F_HEADER_COUNT,
  FIELD_HEADER_KEY_LENGTH as F_HEADER_KEY_LENGTH, FIELD_HEADER_VALUE_LENGTH as F_HEADER_VALUE_LENGTH,
  FIELD_CRC as F_CRC, FIELD_BATCH_LENGTH as F_BATCH_LENGTH, FIELD_MAGIC as F_MAGIC, FIELD_RECORD_COUNT as F_RECORD_COUNT,
  FIELD_RECORDS as F_RECORDS, FIELD_RECORD as F_RECORD, FIELD_COMPRESSED as F_COMPRESSED,
} from '../../src/wasm/abi';
import {
  STATUS_BYTES, STATUS_CODE, STATUS_OFFSET, STATUS_BATCH, STATUS_RECORD, STATUS_HEADER, STATUS_FIELD,
} from '../../src/wasm/abi';

// Status block: [code, offset, batch, record, header, field, aux0, aux1]
export const STATUS: usize = memory.data(STATUS_BYTES, 16);

// Decoding context for error paths: [batch, record, header]
export const CTX: usize = memory.data(16, 16);

/**
 * Records a failure in the status block and traps: the one error convention of both modules
 * (src/wasm/status.ts reads the block once the trap reaches the binding). Declared to return i32
 * so that call sites read `return fail(...)`; it never returns.
 */
export function fail(code: i32, offset: i32, field: i32): i32 {
  store<i32>(STATUS, code, STATUS_CODE << 2);
  store<i32>(STATUS, offset, STATUS_OFFSET << 2);
  store<i32>(STATUS, load<i32>(CTX), STATUS_BATCH << 2);
  store<i32>(STATUS, load<i32>(CTX, 4), STATUS_RECORD << 2);
  store<i32>(STATUS, load<i32>(CTX, 8), STATUS_HEADER << 2);
  store<i32>(STATUS, field, STATUS_FIELD << 2);
  unreachable();
  return code;
}

export function resetStatus(): void {
  memory.fill(STATUS, 0, STATUS_BYTES);
  store<i32>(CTX, -1);
  store<i32>(CTX, -1, 4);
  store<i32>(CTX, -1, 8);
}

/** Grows linear memory so that [0, end) is addressable. Returns false if it cannot. */
export function ensure(end: usize): bool {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) return true;
  const pages = <i32>((end - have + 0xffff) >>> 16);
  return memory.grow(pages) >= 0;
}

// Big-endian loads and stores, shared with the codec module.
export { be16, be32, storeBe32, storeBe16 } from '../wire/big-endian';

// @ts-ignore: decorator
@inline export function setBatch(v: i32): void { store<i32>(CTX, v); }
// @ts-ignore: decorator
@inline export function setRecord(v: i32): void { store<i32>(CTX, v, 4); }
// @ts-ignore: decorator
@inline export function setHeader(v: i32): void { store<i32>(CTX, v, 8); }

/** memory.copy for non-overlapping regions, avoiding the call overhead for small sizes. */
// @ts-ignore: decorator
@inline export function copy(dst: usize, src: usize, n: usize): void {
  if (n <= 32) {
    const e = dst + n;
    while (dst + 8 <= e) { store<u64>(dst, load<u64>(src)); dst += 8; src += 8; }
    while (dst < e) { store<u8>(dst++, load<u8>(src++)); }
  } else {
    memory.copy(dst, src, n);
  }
}

// ---------------------------------------------------------------------------------------------
// Fast copies for the LZ decoders (lz4, snappy). "Wild" copies move whole 16-byte words and may
// write up to 15 bytes past the end of what they copy: callers take them only when the output
// has that much room before its cap (checked once per sequence), so nothing past the cap is ever
// written; the bytes past the copy's end are output still to come, overwritten later.

/** Slack a wild copy may write past its end: callers need `n + WILD_SLACK` bytes of room. */
export const WILD_SLACK: usize = 16;
/** Longer literal runs go by memory.copy, faster than words from here on. */
export const WILD_MAX: usize = 128;

/** Copies n bytes of non-overlapping memory in 16-byte words (writes up to 15 bytes past d + n; reads as far past s + n). */
// @ts-ignore: decorator
@inline export function wildCopy(d: usize, s: usize, n: usize): void {
  const e = d + n;
  do {
    v128.store(d, v128.load(s));
    d += 16;
    s += 16;
  } while (d < e);
}

// Byte i of row `off` is i % off: a swizzle by it repeats the first `off` bytes of a match over 16 bytes.
export const PATTERN: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1,
  0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0,
  0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
  0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0,
  0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3,
  0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1,
  0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1, 2, 3, 4,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 1,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0,
], 16);

/** STEP[off] = 16 - 16 % off: how far apart PATTERN's word for `off` may be stored (a whole number of periods). */
export const STEP: usize = memory.data<u8>([16, 16, 16, 15, 16, 15, 12, 14, 16, 9, 10, 11, 12, 13, 14, 15]);

/**
 * Copies an LZ match of n bytes from d - off to d (1 <= off <= bytes already output), with the
 * overlap semantics of a byte-by-byte copy, in 16-byte words: writes up to 15 bytes past d + n.
 */
// @ts-ignore: decorator
@inline export function wildCopyMatch(d: usize, off: usize, n: usize): void {
  const e = d + n;
  if (off >= 16) {
    // Each word reads bytes at least 16 behind the word it writes: all final already.
    let s = d - off;
    do {
      v128.store(d, v128.load(s));
      d += 16;
      s += 16;
    } while (d < e);
  } else {
    // The match repeats its first `off` bytes: one word of that period, stored every multiple of off.
    // (The load reaches at most 15 bytes past d - off, all below d + 16, inside the room.)
    const word = i8x16.swizzle(v128.load(d - off), v128.load(PATTERN + (off << 4)));
    const step = <usize>load<u8>(STEP + off);
    do {
      v128.store(d, word);
      d += step;
    } while (d < e);
  }
}
