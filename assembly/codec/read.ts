// The scan's reading primitives and the state they share: where the scan is in the input, the
// bounds it must stay inside, and the reads every field is built from (bounds check, unsigned
// varint, compact length, a length or count in any form, tape word). Each one fails the way the
// module reports errors: write code, offset and depth to the status block, then trap.
import {
  E_TRUNCATED, E_NEGATIVE_LENGTH, E_VARINT_TOO_LONG, E_VARINT_OVERFLOW, E_TAGGED_SIZE_MISMATCH, E_TAPE_FULL,
  STATUS_CODE, STATUS_OFFSET, STATUS_DEPTH, COMPACT, NULLABLE,
} from '../../src/wasm/abi';
import { STATUS, MAX_DEPTH } from './status';
import { be16, be32 } from '../wire/big-endian';

export let base: usize = 0;      // offsets on the tape are relative to this
export let pos: usize = 0;
export let end: usize = 0;       // narrowed while inside a tagged field
export let inputEnd: usize = 0;
// Imported here, after the position, so the module's globals keep the order they had when the codec
// was one file: the split compiled to the same bytes.
import { tape, tapeEnd } from './tape';
export let spans = false;        // explain mode: record start/end offsets around every field and struct
export let depth: i32 = -1;
export let maxArrayLength: i32 = 0;
export let maxLength: i32 = 0;
export let maxDepth: i32 = MAX_DEPTH;
export let scratch: usize = 0;   // a stack of tags, for duplicate checks in unordered tagged sections

export function fail(code: i32): void {
  if (code == E_TRUNCATED && end < inputEnd) code = E_TAGGED_SIZE_MISMATCH;
  store<i32>(STATUS, code, STATUS_CODE << 2);
  store<i32>(STATUS, <i32>(pos - base), STATUS_OFFSET << 2);
  store<i32>(STATUS, depth, STATUS_DEPTH << 2);
  unreachable();
}

@inline export function need(n: usize): void {
  if (n > end - pos) fail(E_TRUNCATED);
}

@inline export function push(value: i32): void {
  if (tape >= tapeEnd) fail(E_TAPE_FULL);
  store<i32>(tape, value);
  tape += 4;
}

@inline export function readUvarint(): u32 {
  // Lengths, counts and tags are nearly always one byte.
  if (pos < end) {
    const first = <u32>load<u8>(pos);
    if (first < 0x80) { pos++; return first; }
  }
  return readLongUvarint();
}

function readLongUvarint(): u32 {
  let result: u32 = 0;
  for (let shift: u32 = 0; shift < 35; shift += 7) {
    if (pos >= end) fail(E_TRUNCATED);
    const b = <u32>load<u8>(pos);
    if (shift == 28) {
      if (b & 0x80) fail(E_VARINT_TOO_LONG);
      if (b > 0x0f) fail(E_VARINT_OVERFLOW);
    }
    pos++;
    result |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  return result;
}

/** A compact length or count: uvarint n+1, with 0 for null (returned as -1). */
export function readCompactLength(): i32 {
  const start = pos;
  const n = readUvarint();
  if (n > 0x7fffffff) { pos = start; fail(E_VARINT_OVERFLOW); }
  return <i32>n - 1;
}

/**
 * A length or an array's count as the field's version writes it: compact (uvarint n+1), else an
 * int32 (`wide`) or int16. Below 0 is null, refused where the field is not nullable.
 */
// @ts-ignore: decorator
@inline export function readLength(word: i32, wide: bool): i32 {
  const start = pos;
  let n: i32;
  if (word & COMPACT) {
    n = readCompactLength();
  } else if (wide) {
    need(4);
    n = be32(pos);
    pos += 4;
  } else {
    need(2);
    n = be16(pos);
    pos += 2;
  }
  if (n < 0 && !(word & NULLABLE)) { pos = start; fail(E_NEGATIVE_LENGTH); }
  return n;
}
