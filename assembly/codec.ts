// The wire half of the message codec. JavaScript compiles each message version into a small
// program (src/codec/plan.ts) and calls in here once per frame:
//   scan: walk a whole frame, check everything Kafka's reader would reject (and the input it
//         could never have meant), and write a tape of i32 words the facade turns into objects;
//   emit: walk the same program over a tape the facade filled from objects, writing the frame.
// Errors trap (unreachable) after writing code, offset and depth to the status block and the
// field path to its path arrays (src/wasm/abi.ts); a trap leaves the instance usable, and every
// call resets the state it reads.

import {
  BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64, FLOAT64, UUID, STRING, BYTES, RECORDS, STRUCT, ARRAY,
  KIND_MASK, ELEMENT_KIND_SHIFT, NULLABLE, COMPACT, STRUCT_HEADER, OP_SIZE, STRUCT_TAGGED_COUNT, STRUCT_FLAGS, OP_STRUCT, OP_TAG,
  OP_MIN_ELEMENT, FLEXIBLE, FLAT,
  E_TRUNCATED, E_NEGATIVE_LENGTH, E_VARINT_TOO_LONG, E_VARINT_OVERFLOW, E_INVALID_UTF8, E_DUPLICATE_TAG,
  E_TAGGED_SIZE_MISMATCH, E_TRAILING_BYTES, E_FRAME_SIZE_MISMATCH, E_TAPE_FULL, E_ARRAY_LIMIT, E_LENGTH_LIMIT,
  E_DEPTH_LIMIT, STATUS_BYTES, STATUS_CODE, STATUS_OFFSET, STATUS_DEPTH,
} from '../src/wasm/abi';

const MAX_DEPTH = 64;
const pathOps = memory.data(MAX_DEPTH * 4);
const pathIndexes = memory.data(MAX_DEPTH * 4);

// Scan state.
let base: usize = 0;      // offsets on the tape are relative to this
let pos: usize = 0;
let end: usize = 0;       // narrowed while inside a tagged field
let inputEnd: usize = 0;
let tape: usize = 0;
let tapeEnd: usize = 0;
let spans = false;        // explain mode: record start/end offsets around every field and struct
let depth: i32 = -1;
let maxArrayLength: i32 = 0;
let maxLength: i32 = 0;
let maxDepth: i32 = MAX_DEPTH;
let scratch: usize = 0;   // a stack of tags, for duplicate checks in unordered tagged sections

const STATUS = memory.data(STATUS_BYTES, 16);

export function heapBase(): usize { return __heap_base; }
export function statusPtr(): usize { return STATUS; }
export function pathOpsPtr(): usize { return pathOps; }
export function pathIndexesPtr(): usize { return pathIndexes; }
/** Where the next tape word would go: after a failed scan, the end of what it had read. */
export function tapePosition(): usize { return tape; }

function fail(code: i32): void {
  if (code == E_TRUNCATED && end < inputEnd) code = E_TAGGED_SIZE_MISMATCH;
  store<i32>(STATUS, code, STATUS_CODE << 2);
  store<i32>(STATUS, <i32>(pos - base), STATUS_OFFSET << 2);
  store<i32>(STATUS, depth, STATUS_DEPTH << 2);
  unreachable();
}

@inline function need(n: usize): void {
  if (n > end - pos) fail(E_TRUNCATED);
}

@inline function push(value: i32): void {
  if (tape >= tapeEnd) fail(E_TAPE_FULL);
  store<i32>(tape, value);
  tape += 4;
}

@inline function readUvarint(): u32 {
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
function readCompactLength(): i32 {
  const start = pos;
  const n = readUvarint();
  if (n > 0x7fffffff) { pos = start; fail(E_VARINT_OVERFLOW); }
  return <i32>n - 1;
}

function validUtf8(p: usize, n: usize): bool {
  const e = p + n;
  while (p < e) {
    if (e - p >= 8 && (load<u64>(p) & 0x8080808080808080) == 0) { p += 8; continue; }
    const b = <u32>load<u8>(p);
    if (b < 0x80) { p++; continue; }
    if (b < 0xc2) return false;
    if (b < 0xe0) {
      if (e - p < 2 || (load<u8>(p + 1) & 0xc0) != 0x80) return false;
      p += 2;
      continue;
    }
    if (b < 0xf0) {
      if (e - p < 3) return false;
      const b1 = <u32>load<u8>(p + 1);
      if ((b1 & 0xc0) != 0x80 || (load<u8>(p + 2) & 0xc0) != 0x80) return false;
      if (b == 0xe0 && b1 < 0xa0) return false; // overlong
      if (b == 0xed && b1 >= 0xa0) return false; // surrogate
      p += 3;
      continue;
    }
    if (b < 0xf5) {
      if (e - p < 4) return false;
      const b1 = <u32>load<u8>(p + 1);
      if ((b1 & 0xc0) != 0x80 || (load<u8>(p + 2) & 0xc0) != 0x80 || (load<u8>(p + 3) & 0xc0) != 0x80) return false;
      if (b == 0xf0 && b1 < 0x90) return false; // overlong
      if (b == 0xf4 && b1 >= 0x90) return false; // above U+10FFFF
      p += 4;
      continue;
    }
    return false;
  }
  return true;
}

function scanLengthPrefixed(word: i32, wide: bool): void {
  const start = pos;
  let len: i32;
  if (word & COMPACT) {
    len = readCompactLength();
  } else if (wide) {
    need(4);
    len = <i32>bswap<u32>(load<u32>(pos));
    pos += 4;
  } else {
    need(2);
    len = <i32><i16>bswap<u16>(load<u16>(pos));
    pos += 2;
  }
  if (len < 0) {
    if (!(word & NULLABLE)) { pos = start; fail(E_NEGATIVE_LENGTH); }
    push(0);
    push(-1);
    return;
  }
  if (len > maxLength) { pos = start; fail(E_LENGTH_LIMIT); }
  need(<usize>len);
  if ((word & KIND_MASK) == STRING && !validUtf8(pos, len)) fail(E_INVALID_UTF8);
  push(<i32>(pos - base));
  push(len);
  pos += len;
}

@inline function scanValue(word: i32, struct: usize): void {
  switch (word & KIND_MASK) {
    case BOOL: need(1); push(load<u8>(pos) != 0 ? 1 : 0); pos += 1; break;
    case INT8: need(1); push(<i32>load<i8>(pos)); pos += 1; break;
    case INT16: need(2); push(<i32><i16>bswap<u16>(load<u16>(pos))); pos += 2; break;
    case UINT16: need(2); push(<i32>bswap<u16>(load<u16>(pos))); pos += 2; break;
    case INT32:
    case UINT32: need(4); push(<i32>bswap<u32>(load<u32>(pos))); pos += 4; break;
    case INT64:
    case FLOAT64: need(8); push(<i32>(pos - base)); pos += 8; break;
    case UUID: need(16); push(<i32>(pos - base)); pos += 16; break;
    case STRING: scanLengthPrefixed(word, false); break;
    case BYTES:
    case RECORDS: scanLengthPrefixed(word, true); break;
    case STRUCT: {
      if (word & NULLABLE) {
        need(1);
        const marker = load<i8>(pos);
        pos += 1;
        if (marker < 0) { push(-1); break; }
        push(1);
      }
      if (spans || !(load<i32>(struct, STRUCT_FLAGS) & FLAT) || scanFlat(struct, 1) == 0) scanStruct(struct);
      break;
    }
    default: unreachable();
  }
}

@inline function scanArray(op: usize, word: i32): void {
  const start = pos;
  let count: i32;
  if (word & COMPACT) {
    count = readCompactLength();
  } else {
    need(4);
    count = <i32>bswap<u32>(load<u32>(pos));
    pos += 4;
  }
  if (count < 0) {
    if (!(word & NULLABLE)) { pos = start; fail(E_NEGATIVE_LENGTH); }
    push(-1);
    return;
  }
  // No loop runs longer than the bytes left allow: each element has a known minimum size.
  const minSize = load<i32>(op, OP_MIN_ELEMENT);
  if (minSize > 0 && <usize>count > (end - pos) / <usize>minSize) { pos = start; fail(E_TRUNCATED); }
  if (count > maxArrayLength) { pos = start; fail(E_ARRAY_LIMIT); }
  push(count);
  const elementWord = ((word >> ELEMENT_KIND_SHIFT) & KIND_MASK) | (word & COMPACT);
  if (!spans && scanFixedArray((word >> ELEMENT_KIND_SHIFT) & KIND_MASK, count)) return;
  const struct = <usize>load<i32>(op, OP_STRUCT);
  if (!spans && struct != 0 && (load<i32>(struct, STRUCT_FLAGS) & FLAT)) {
    // Partitions, replicas and the like: each element on the fast path, the generic one when
    // the fast path declines (it then reports errors with the element's index in the path).
    for (let i = scanFlat(struct, count); i < count; i += 1 + scanFlat(struct, count - i - 1)) {
      store<i32>(pathIndexes + (<usize>depth << 2), i);
      scanStruct(struct);
    }
    store<i32>(pathIndexes + (<usize>depth << 2), -1);
    return;
  }
  for (let i = 0; i < count; i++) {
    store<i32>(pathIndexes + (<usize>depth << 2), i);
    if (spans) push(<i32>(pos - base));
    scanValue(elementWord, struct);
    if (spans) push(<i32>(pos - base));
  }
  store<i32>(pathIndexes + (<usize>depth << 2), -1);
}

/** Arrays of fixed-size integers (replica lists, partition ids) in one tight loop. */
function scanFixedArray(kind: i32, count: i32): bool {
  const n = <usize>count;
  if (kind == INT32 || kind == UINT32 || kind == INT16) {
    need(n << intShift(kind));
    if (tape + (n << 2) > tapeEnd) fail(E_TAPE_FULL);
    pos += copyInts(kind, pos, tape, n);
  } else if (kind == INT64) {
    need(n << 3);
    if (tape + (n << 2) > tapeEnd) fail(E_TAPE_FULL);
    for (let i: usize = 0; i < n; i++) store<i32>(tape + (i << 2), <i32>(pos - base + (i << 3)));
    pos += n << 3;
  } else {
    return false;
  }
  tape += n << 2;
  return true;
}

/** log2 of the wire size of an INT16 (1) or INT32/UINT32 (2) element. */
@inline function intShift(kind: i32): usize {
  return kind == INT16 ? 1 : 2;
}

/**
 * Copies n big-endian INT32/UINT32 or INT16 elements at p to tape words at t (int16s sign-extended);
 * returns the input bytes used. The caller has checked both ends.
 */
@inline function copyInts(kind: i32, p: usize, t: usize, n: usize): usize {
  if (kind == INT16) {
    for (let i: usize = 0; i < n; i++) store<i32>(t + (i << 2), <i32><i16>bswap<u16>(load<u16>(p + (i << 1))));
    return n << 1;
  }
  for (let i: usize = 0; i < n; i++) store<u32>(t + (i << 2), bswap<u32>(load<u32>(p + (i << 2))));
  return n << 2;
}

/**
 * The fast path for up to `count` consecutive instances of a FLAT struct (no strings, no nested
 * structs): position and tape kept in locals, one bounds check per field. It writes exactly the
 * tape the generic path would, and stops before the first instance holding anything it does not
 * handle (a multi-byte count, a null or over-limit array, tagged fields, too few bytes, a full
 * tape); the caller runs the generic path on that one, which decides and reports.
 * Returns the number of instances scanned.
 */
function scanFlat(struct: usize, count: i32): i32 {
  if (depth + 1 >= maxDepth) return 0;
  const e = end;
  const te = tapeEnd;
  const regularCount = load<i32>(struct);
  const flexible = (load<i32>(struct, STRUCT_FLAGS) & FLEXIBLE) != 0;
  let done = 0;
  for (; done < count; done++) {
    if (!scanFlatOne(struct, regularCount, flexible, e, te)) break;
  }
  return done;
}

/** One instance for scanFlat; commits pos and tape only when the whole instance was scanned. */
@inline function scanFlatOne(struct: usize, regularCount: i32, flexible: bool, e: usize, te: usize): bool {
  let p = pos;
  let t = tape;
  let op = struct + STRUCT_HEADER;
  // Room for one word per field and the tagged count; arrays check their elements' room.
  if (t + (<usize>(regularCount + 1) << 2) > te) return false;
  for (let i = 0; i < regularCount; i++, op += OP_SIZE) {
    const word = load<i32>(op);
    switch (word & KIND_MASK) {
      case INT32:
      case UINT32:
        if (e - p < 4) return false;
        store<u32>(t, bswap<u32>(load<u32>(p)));
        p += 4;
        break;
      case INT16:
        if (e - p < 2) return false;
        store<i32>(t, <i32><i16>bswap<u16>(load<u16>(p)));
        p += 2;
        break;
      case UINT16:
        if (e - p < 2) return false;
        store<i32>(t, <i32>bswap<u16>(load<u16>(p)));
        p += 2;
        break;
      case INT8:
        if (e - p < 1) return false;
        store<i32>(t, <i32>load<i8>(p));
        p += 1;
        break;
      case BOOL:
        if (e - p < 1) return false;
        store<i32>(t, load<u8>(p) != 0 ? 1 : 0);
        p += 1;
        break;
      case INT64:
      case FLOAT64:
        if (e - p < 8) return false;
        store<i32>(t, <i32>(p - base));
        p += 8;
        break;
      case UUID:
        if (e - p < 16) return false;
        store<i32>(t, <i32>(p - base));
        p += 16;
        break;
      case ARRAY: {
        let count: i32;
        if (word & COMPACT) {
          if (p >= e) return false;
          const b = <i32>load<u8>(p);
          if (b == 0 || b >= 0x80) return false;
          count = b - 1;
          p += 1;
        } else {
          if (e - p < 4) return false;
          count = <i32>bswap<u32>(load<u32>(p));
          if (count < 0) return false;
          p += 4;
        }
        if (count > maxArrayLength) return false;
        const elementKind = (word >> ELEMENT_KIND_SHIFT) & KIND_MASK;
        const n = <usize>count;
        if (t + (<usize>(regularCount + 1) << 2) + (n << 2) > te) return false;
        store<i32>(t, count);
        t += 4;
        // Literal kinds, so each inlined copy is the one loop it needs.
        if (elementKind == INT32 || elementKind == UINT32) {
          if (n > (e - p) >> 2) return false;
          p += copyInts(INT32, p, t, n);
        } else if (elementKind == INT16) {
          if (n > (e - p) >> 1) return false;
          p += copyInts(INT16, p, t, n);
        } else {
          return false;
        }
        t += n << 2;
        continue;
      }
      default:
        return false;
    }
    t += 4;
  }
  if (flexible) {
    // Only an empty tagged section; anything else goes the generic way.
    if (p >= e || load<u8>(p) != 0) return false;
    p += 1;
    store<i32>(t, 0);
    t += 4;
  }
  pos = p;
  tape = t;
  return true;
}

@inline function scanField(op: usize): void {
  store<i32>(pathOps + (<usize>depth << 2), <i32>op);
  const word = load<i32>(op);
  if (spans) push(<i32>(pos - base));
  if ((word & KIND_MASK) == ARRAY) scanArray(op, word);
  else scanValue(word, <usize>load<i32>(op, OP_STRUCT));
  if (spans) push(<i32>(pos - base));
}

@inline function scanTaggedSection(ops: usize, taggedCount: i32): void {
  const start = pos;
  const count = readUvarint();
  push(<i32>count);
  if (count != 0) scanTaggedEntries(ops, taggedCount, start, count);
}

function scanTaggedEntries(ops: usize, taggedCount: i32, start: usize, count: u32): void {
  // Every entry takes at least two bytes (tag and size).
  if (<usize>count > (end - pos) >> 1) { pos = start; fail(E_TRUNCATED); }
  const tags = scratch;
  let ordered = true;
  let last: i64 = -1;
  for (let i: u32 = 0; i < count; i++) {
    const entryStart = pos;
    const tag = readUvarint();
    const size = readUvarint();
    if (<usize>size > end - pos) fail(E_TRUNCATED);
    if (<i64>tag <= last) ordered = false;
    last = <i64>tag;
    store<u32>(scratch, tag);
    scratch += 4;
    push(<i32>tag);
    let known = -1;
    for (let j = 0; j < taggedCount; j++) {
      if (<u32>load<i32>(ops + <usize>j * OP_SIZE, OP_TAG) == tag) { known = j; break; }
    }
    if (spans) push(<i32>(entryStart - base));
    if (known >= 0) {
      push(known);
      const outer = end;
      end = pos + size;
      scanField(ops + <usize>known * OP_SIZE);
      if (pos != end) fail(E_TAGGED_SIZE_MISMATCH);
      end = outer;
    } else {
      push(-1);
      push(<i32>(pos - base));
      push(<i32>size);
      pos += size;
    }
  }
  // Kafka accepts tags in any order; a repeated tag is never meant, so reject it.
  if (!ordered && hasDuplicate(tags, count)) { pos = start; fail(E_DUPLICATE_TAG); }
  scratch = tags;
}

function hasDuplicate(tags: usize, count: u32): bool {
  // Heap sort, then compare neighbours: O(n log n) however the tags are ordered.
  const n = <i32>count;
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(tags, i, n);
  for (let last = n - 1; last > 0; last--) {
    const t = load<u32>(tags);
    store<u32>(tags, load<u32>(tags + (<usize>last << 2)));
    store<u32>(tags + (<usize>last << 2), t);
    siftDown(tags, 0, last);
  }
  for (let i = 1; i < n; i++) {
    if (load<u32>(tags + (<usize>i << 2)) == load<u32>(tags + (<usize>(i - 1) << 2))) return true;
  }
  return false;
}

function siftDown(tags: usize, root: i32, n: i32): void {
  while (true) {
    let child = root * 2 + 1;
    if (child >= n) return;
    if (child + 1 < n && load<u32>(tags + (<usize>(child + 1) << 2)) > load<u32>(tags + (<usize>child << 2))) child++;
    const r = tags + (<usize>root << 2);
    const c = tags + (<usize>child << 2);
    if (load<u32>(r) >= load<u32>(c)) return;
    const t = load<u32>(r);
    store<u32>(r, load<u32>(c));
    store<u32>(c, t);
    root = child;
  }
}

function scanStruct(struct: usize): void {
  if (depth + 1 >= maxDepth) fail(E_DEPTH_LIMIT);
  depth++;
  store<i32>(pathIndexes + (<usize>depth << 2), -1);
  const regularCount = load<i32>(struct);
  const taggedCount = load<i32>(struct, STRUCT_TAGGED_COUNT);
  let op = struct + STRUCT_HEADER;
  if (spans) push(<i32>(pos - base));
  for (let i = 0; i < regularCount; i++) {
    scanField(op);
    op += OP_SIZE;
  }
  if (load<i32>(struct, STRUCT_FLAGS) & FLEXIBLE) {
    store<i32>(pathOps + (<usize>depth << 2), 0);
    if (spans) push(<i32>(pos - base));
    scanTaggedSection(op, taggedCount);
  }
  if (spans) push(<i32>(pos - base));
  depth--;
}

/**
 * Scans one message. With `framed`, the input starts with the int32 size prefix, which must equal
 * the bytes that follow. `header` may be 0 (no header). Returns the number of tape words written.
 */
export function scan(
  header: usize, body: usize, input: usize, length: i32, framed: bool,
  tapePtr: usize, tapeBytes: i32, scratchPtr: usize, withSpans: bool,
  arrayLimit: i32, lengthLimit: i32, depthLimit: i32,
): i32 {
  base = input;
  pos = input;
  end = input + <usize>length;
  inputEnd = end;
  tape = tapePtr;
  tapeEnd = tapePtr + <usize>tapeBytes;
  scratch = scratchPtr;
  spans = withSpans;
  depth = -1;
  maxArrayLength = arrayLimit;
  maxLength = lengthLimit;
  maxDepth = depthLimit < MAX_DEPTH ? depthLimit : MAX_DEPTH;
  store<i32>(STATUS, 0, STATUS_CODE << 2);
  if (framed) {
    need(4);
    const size = <i32>bswap<u32>(load<u32>(pos));
    if (size != length - 4) fail(E_FRAME_SIZE_MISMATCH);
    pos += 4;
  }
  if (header != 0) scanStruct(header);
  scanStruct(body);
  if (pos != end) fail(E_TRAILING_BYTES);
  return <i32>((tape - tapePtr) >> 2);
}

// ---- emit ----

let out: usize = 0;
let outStart: usize = 0;
let heap: usize = 0;
let writing = true;   // false: measure only
// Values the facade keeps out of the heap (large bytes; a heap offset of ~index on the tape) are
// not copied here: emit leaves their room in the output and lists (index, offset in the output)
// pairs at `gaps`, for the facade to copy each value once, straight into the finished frame.
let gaps: usize = 0;
let gapCount: i32 = 0;

@inline function take(): i32 {
  const v = load<i32>(tape);
  tape += 4;
  return v;
}

function uvarintSize(v: u32): usize {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

function writeUvarint(v: u32): void {
  if (!writing) { out += uvarintSize(v); return; }
  while (v >= 0x80) {
    store<u8>(out++, <u8>(v | 0x80));
    v >>>= 7;
  }
  store<u8>(out++, <u8>v);
}

@inline function writeU8(v: i32): void { if (writing) store<u8>(out, <u8>v); out += 1; }
@inline function writeU16(v: i32): void { if (writing) store<u16>(out, bswap<u16>(<u16>v)); out += 2; }
@inline function writeU32(v: i32): void { if (writing) store<u32>(out, bswap<u32>(<u32>v)); out += 4; }

function copyFromHeap(offset: i32, length: i32): void {
  if (writing) memory.copy(out, heap + <usize>offset, <usize>length);
  out += <usize>length;
}

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
  if (framed && writing) store<u32>(outPtr, bswap<u32>(<u32>(length - 4)));
  return length;
}
