// The emit: walks the compiled program of a message version (src/codec/plan.ts) over a tape the
// facade filled from objects, writing the frame (or, measuring, only its length). The writes
// themselves are in write.ts.
import {
  BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64, FLOAT64, UUID, STRING, BYTES, RECORDS, STRUCT, ARRAY,
  KIND_MASK, ELEMENT_KIND_SHIFT, NULLABLE, COMPACT, STRUCT_HEADER, OP_SIZE, STRUCT_FLAGS, OP_STRUCT, FLEXIBLE,
} from '../../src/wasm/abi';
import { tape, take } from './tape';
import {
  out, outStart, heap, writing, gaps, gapCount,
  writeUvarint, writeU8, writeU16, writeU32, copyFromHeap,
} from './write';
import { storeBe32 } from '../wire/big-endian';
import { uvarintSize } from '../wire/varint';

function emitLengthPrefixed(word: i32, wide: bool): void {
  const offset = take();
  const length = take();
  if (word & COMPACT) writeUvarint(<u32>(length + 1));
  else if (wide) writeU32(length);
  else writeU16(length);
  if (length <= 0) return;
  if (offset >= 0) {
    copyFromHeap(offset, length);
    return;
  }
  const gap = gaps + (<usize>gapCount << 3);
  store<i32>(gap, ~offset);
  store<i32>(gap, <i32>(out - outStart), 4);
  gapCount++;
  out += <usize>length;
}

@inline function emitValue(word: i32, struct: usize): void {
  switch (word & KIND_MASK) {
    case BOOL:
    case INT8: writeU8(take()); break;
    case INT16:
    case UINT16: writeU16(take()); break;
    case INT32:
    case UINT32: writeU32(take()); break;
    case INT64:
    case FLOAT64: { const lo = take(); writeU32(take()); writeU32(lo); break; }
    case UUID: copyFromHeap(take(), 16); break;
    case STRING: emitLengthPrefixed(word, false); break;
    case BYTES:
    case RECORDS: emitLengthPrefixed(word, true); break;
    case STRUCT: {
      if (word & NULLABLE) {
        const marker = take();
        writeU8(marker < 0 ? -1 : 1);
        if (marker < 0) break;
      }
      emitStruct(struct);
      break;
    }
    default: unreachable();
  }
}

@inline function emitField(op: usize): void {
  const word = load<i32>(op);
  const struct = <usize>load<i32>(op, OP_STRUCT);
  if ((word & KIND_MASK) != ARRAY) { emitValue(word, struct); return; }
  const count = take();
  if (word & COMPACT) writeUvarint(<u32>(count + 1));
  else writeU32(count);
  const elementWord = ((word >> ELEMENT_KIND_SHIFT) & KIND_MASK) | (word & COMPACT);
  for (let i = 0; i < count; i++) emitValue(elementWord, struct);
}

function emitStruct(struct: usize): void {
  const regularCount = load<i32>(struct);
  let op = struct + STRUCT_HEADER;
  for (let i = 0; i < regularCount; i++) {
    emitField(op);
    op += OP_SIZE;
  }
  if (!(load<i32>(struct, STRUCT_FLAGS) & FLEXIBLE)) return;
  const count = take();
  writeUvarint(<u32>count);
  for (let i = 0; i < count; i++) {
    writeUvarint(<u32>take());
    const known = take();
    if (known < 0) {
      const offset = take();
      const length = take();
      writeUvarint(<u32>length);
      copyFromHeap(offset, length);
      continue;
    }
    // The size comes before the field; most fit one byte, so reserve one and shift if not.
    const sizeAt = out;
    const gapsBefore = gapCount;
    out += 1;
    emitField(op + <usize>known * OP_SIZE);
    const size = out - sizeAt - 1;
    const extra = uvarintSize(<u32>size) - 1;
    if (extra > 0) {
      if (writing) memory.copy(sizeAt + 1 + extra, sizeAt + 1, size);
      out += extra;
      // The field's gaps moved with it.
      for (let g = gapsBefore; g < gapCount; g++) {
        const at = gaps + (<usize>g << 3) + 4;
        store<i32>(at, load<i32>(at) + <i32>extra);
      }
    }
    const after = out;
    out = sizeAt;
    writeUvarint(<u32>size);
    out = after;
  }
}

/**
 * Writes one message from the tape; returns its length. With `measure`, writes nothing. Values
 * kept out of the heap get room in the output and a pair at `gapsPtr` each, in output order.
 */
export function emit(
  header: usize, body: usize, framed: bool,
  tapePtr: usize, heapPtr: usize, gapsPtr: usize, outPtr: usize, measure: bool,
): i32 {
  tape = tapePtr;
  heap = heapPtr;
  gaps = gapsPtr;
  gapCount = 0;
  out = outPtr;
  outStart = outPtr;
  writing = !measure;
  if (framed) out += 4;
  if (header != 0) emitStruct(header);
  emitStruct(body);
  const length = <i32>(out - outPtr);
  if (framed && writing) storeBe32(outPtr, length - 4);
  return length;
}
