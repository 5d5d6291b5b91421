// The emit's writing primitives and the state they share: where the output is, the heap the tape's
// values point into, the gaps left for large values, and the writes every field is built from
// (big-endian integers, unsigned varints, heap copies). With `writing` off they only measure.
import { uvarintSize } from '../wire/varint';
import { storeBe16, storeBe32 } from '../wire/big-endian';
export { uvarintSize };

export let out: usize = 0;
export let outStart: usize = 0;
export let heap: usize = 0;
export let writing = true;   // false: measure only
// Values the facade keeps out of the heap (large bytes; a heap offset of ~index on the tape) are
// not copied here: emit leaves their room in the output and lists (index, offset in the output)
// pairs at `gaps`, for the facade to copy each value once, straight into the finished frame.
export let gaps: usize = 0;
export let gapCount: i32 = 0;

export function writeUvarint(v: u32): void {
  if (!writing) { out += uvarintSize(v); return; }
  // storeUvarint's loop (assembly/wire/varint.ts), written over `out` itself: through a local it
  // costs 11 bytes of module across the places it is inlined.
  while (v >= 0x80) {
    store<u8>(out++, <u8>(v | 0x80));
    v >>>= 7;
  }
  store<u8>(out++, <u8>v);
}

@inline export function writeU8(v: i32): void { if (writing) store<u8>(out, <u8>v); out += 1; }
@inline export function writeU16(v: i32): void { if (writing) storeBe16(out, v); out += 2; }
@inline export function writeU32(v: i32): void { if (writing) storeBe32(out, v); out += 4; }

export function copyFromHeap(offset: i32, length: i32): void {
  if (writing) memory.copy(out, heap + <usize>offset, <usize>length);
  out += <usize>length;
}

