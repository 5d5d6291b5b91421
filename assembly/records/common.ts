// Shared helpers for the records WebAssembly module: error status (record, then trap), memory growth, big-endian
// loads/stores. Nothing here allocates through the AssemblyScript runtime (runtime "stub"): all
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

// @ts-ignore: decorator
@inline export function be16(p: usize): i32 {
  return <i32>(<i16>bswap<u16>(load<u16>(p)));
}
// @ts-ignore: decorator
@inline export function be32(p: usize): i32 {
  return <i32>bswap<u32>(load<u32>(p));
}
// @ts-ignore: decorator
@inline export function storeBe32(p: usize, v: i32): void {
  store<u32>(p, bswap<u32>(<u32>v));
}
// @ts-ignore: decorator
@inline export function storeBe16(p: usize, v: i32): void {
  store<u16>(p, bswap<u16>(<u16>v));
}

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
