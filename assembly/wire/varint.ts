// Kafka's varints as both WebAssembly modules write them: unsigned base-128 (the codec's compact
// lengths and tagged fields) and zigzag over the same bytes (the records module's record fields).
// Reading is not here: the codec reads through its scan's cursor and traps (assembly/codec/read.ts),
// while the records module returns a position or a reason (assembly/records/varint.ts); and they
// reject different inputs, as Kafka's unsigned and zigzag readers do.

/** Zigzag: small magnitudes of either sign become small unsigned numbers. */
// @ts-ignore: decorator
@inline export function zigzag32(v: i32): u32 { return <u32>((v << 1) ^ (v >> 31)); }
// @ts-ignore: decorator
@inline export function zigzag64(v: i64): u64 { return <u64>((v << 1) ^ (v >> 63)); }
// @ts-ignore: decorator
@inline export function unzigzag32(z: u32): i32 { return <i32>((z >>> 1) ^ (0 - (z & 1))); }
// @ts-ignore: decorator
@inline export function unzigzag64(z: u64): i64 { return <i64>((z >>> 1) ^ (0 - (z & 1))); }

/** Bytes the unsigned varint of v takes (1 to 5). */
// @ts-ignore: decorator
@inline export function uvarintSize(v: u32): usize {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

/** Bytes the unsigned varint of a 64-bit v takes (1 to 10). */
// @ts-ignore: decorator
@inline export function uvarint64Size(v: u64): usize {
  let n: usize = 1;
  while (v >= 0x80) { v >>>= 7; n++; }
  return n;
}

/** Writes v (a u32 or u64) as an unsigned varint at p; returns the position after it. */
// @ts-ignore: decorator
@inline export function storeUvarint<T>(p: usize, v: T): usize {
  while (v >= <T>0x80) {
    store<u8>(p++, <u8>(v | <T>0x80));
    v >>>= <T>7;
  }
  store<u8>(p++, <u8>v);
  return p;
}
