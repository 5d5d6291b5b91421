// Kafka's fixed-size integers are big-endian and WebAssembly memory is little-endian: the loads and
// stores both modules read and write them with. Callers check bounds first.

/** The INT16 at p, sign-extended. */
// @ts-ignore: decorator
@inline export function be16(p: usize): i32 {
  return <i32>(<i16>bswap<u16>(load<u16>(p)));
}
/** The UINT16 at p. */
// @ts-ignore: decorator
@inline export function beU16(p: usize): i32 {
  return <i32>bswap<u16>(load<u16>(p));
}
/** The INT32 (or UINT32's bits) at p. */
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
