// Shared helpers for the records WebAssembly module: error status, memory growth, big-endian
// loads/stores. Nothing here allocates through the AssemblyScript runtime (runtime "stub"): all
// buffers are raw regions laid out by the caller (see src/records/wasm.ts).

// Error codes. Keep in sync with ERROR_CODES in src/records/errors.ts.
export const E_OK: i32 = 0;
export const E_TRUNCATED: i32 = 1;
export const E_INVALID_LENGTH: i32 = 2;
export const E_VARINT_TOO_LONG: i32 = 3;
export const E_CRC_MISMATCH: i32 = 4;
export const E_UNSUPPORTED_MAGIC: i32 = 5;
export const E_RECORD_COUNT: i32 = 6;
export const E_RECORD_LENGTH_MISMATCH: i32 = 7;
export const E_TRAILING_BYTES: i32 = 8;
export const E_BATCH_TOO_SHORT: i32 = 9;
export const E_TOO_LARGE: i32 = 10;
export const E_CORRUPT_COMPRESSED: i32 = 11;
export const E_UNSUPPORTED_COMPRESSION: i32 = 12;
export const E_OUT_OF_MEMORY: i32 = 13;
export const E_CHECKSUM: i32 = 14;

// Field codes, used to build RecordsError.path. Keep in sync with FIELD_NAMES in src/records/errors.ts.
export const F_BATCH: i32 = 0;
export const F_RECORD_LENGTH: i32 = 1;
export const F_ATTRIBUTES: i32 = 2;
export const F_TIMESTAMP_DELTA: i32 = 3;
export const F_OFFSET_DELTA: i32 = 4;
export const F_KEY_LENGTH: i32 = 5;
export const F_VALUE_LENGTH: i32 = 6;
export const F_HEADER_COUNT: i32 = 7;
export const F_HEADER_KEY_LENGTH: i32 = 8;
export const F_HEADER_VALUE_LENGTH: i32 = 9;
export const F_CRC: i32 = 10;
export const F_BATCH_LENGTH: i32 = 11;
export const F_MAGIC: i32 = 12;
export const F_RECORD_COUNT: i32 = 13;
export const F_RECORDS: i32 = 14;
export const F_RECORD: i32 = 15;
export const F_COMPRESSED: i32 = 16;

// Status block: [code, offset, batch, record, header, field, aux0, aux1]
export const STATUS: usize = memory.data(64, 16);

// Decoding context for error paths: [batch, record, header]
export const CTX: usize = memory.data(16, 16);

export function fail(code: i32, offset: i32, field: i32): i32 {
  if (load<i32>(STATUS) == 0) {
    store<i32>(STATUS, code);
    store<i32>(STATUS, offset, 4);
    store<i32>(STATUS, load<i32>(CTX), 8);
    store<i32>(STATUS, load<i32>(CTX, 4), 12);
    store<i32>(STATUS, load<i32>(CTX, 8), 16);
    store<i32>(STATUS, field, 20);
  }
  return code;
}

export function resetStatus(): void {
  memory.fill(STATUS, 0, 64);
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
