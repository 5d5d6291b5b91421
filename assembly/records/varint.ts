// The records module's varints (zigzag, as record fields use them): readers that return
// (newPosition << 32) | value, a zero position meaning failure with the reason in VERR (varlongs
// return the new position and leave the value in V64), and the sizes and writers encoding uses,
// made of the base-128 and zigzag primitives both modules share (assembly/wire/varint.ts).
import { E_TRUNCATED, E_VARINT_TOO_LONG } from './common';
import {
  zigzag32, zigzag64, unzigzag32, unzigzag64, uvarintSize, uvarint64Size, storeUvarint,
} from '../wire/varint';

export let VERR: i32 = 0;
export let V64: i64 = 0;

// @ts-ignore: decorator
@inline export function rv(p: usize, end: usize): u64 {
  // One and two bytes inline: record lengths and offset deltas of a 100-byte record take two.
  // (The one-byte case is unzigzag32(b & 0x7f) written out: masking into a local costs bytes.)
  if (p + 2 <= end) {
    const b = <u32>load<u16>(p);
    if (!(b & 0x80)) return ((<u64>(p + 1)) << 32) | <u64>(((b & 0x7f) >>> 1) ^ (0 - (b & 1)));
    if (!(b & 0x8000)) {
      const v = (b & 0x7f) | ((b >>> 1) & 0x3f80);
      return ((<u64>(p + 2)) << 32) | <u64><u32>unzigzag32(v);
    }
  }
  return rvSlow(p, end);
}

function rvSlow(p: usize, end: usize): u64 {
  let v: u32 = 0;
  let shift: u32 = 0;
  for (let i = 0; i < 5; i++) {
    if (p >= end) { VERR = E_TRUNCATED; return 0; }
    const b = <u32>load<u8>(p++);
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return ((<u64>p) << 32) | <u64><u32>unzigzag32(v);
    shift += 7;
  }
  VERR = E_VARINT_TOO_LONG;
  return 0;
}

// @ts-ignore: decorator
@inline export function rvl(p: usize, end: usize): usize {
  // The same one- and two-byte paths as rv.
  if (p + 2 <= end) {
    const b = <u32>load<u16>(p);
    if (!(b & 0x80)) {
      V64 = <i64><i32>(((b & 0x7f) >>> 1) ^ (0 - (b & 1)));
      return p + 1;
    }
    if (!(b & 0x8000)) {
      const v = (b & 0x7f) | ((b >>> 1) & 0x3f80);
      V64 = <i64>unzigzag32(v);
      return p + 2;
    }
  }
  return rvlSlow(p, end);
}

function rvlSlow(p: usize, end: usize): usize {
  let v: u64 = 0;
  let shift: u64 = 0;
  for (let i = 0; i < 10; i++) {
    if (p >= end) { VERR = E_TRUNCATED; return 0; }
    const b = <u64>load<u8>(p++);
    v |= (b & 0x7f) << shift;
    if (b < 0x80) {
      V64 = unzigzag64(v);
      return p;
    }
    shift += 7;
  }
  VERR = E_VARINT_TOO_LONG;
  return 0;
}

/** Clears the reason of the last failure. */
export function clearVarintError(): void {
  VERR = 0;
}

// @ts-ignore: decorator
@inline export function sizeVarint(v: i32): i32 {
  return <i32>uvarintSize(zigzag32(v));
}

// @ts-ignore: decorator
@inline export function sizeVarlong(v: i64): i32 {
  return <i32>uvarint64Size(zigzag64(v));
}

// @ts-ignore: decorator
@inline export function writeVarint(p: usize, v: i32): usize {
  return storeUvarint<u32>(p, zigzag32(v));
}

// @ts-ignore: decorator
@inline export function writeVarlong(p: usize, v: i64): usize {
  return storeUvarint<u64>(p, zigzag64(v));
}
