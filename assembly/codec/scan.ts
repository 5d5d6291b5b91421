// The scan: walks one frame through the compiled program of its message version (src/codec/plan.ts),
// checking everything Kafka's reader would reject (and the input it could never have meant), and
// writes the tape the facade turns into objects. FLAT structs and integer arrays go through the
// fast path (scan-flat.ts); the reads themselves are in read.ts.
import {
  BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64, FLOAT64, UUID, STRING, BYTES, RECORDS, STRUCT, ARRAY,
  KIND_MASK, ELEMENT_KIND_SHIFT, NULLABLE, COMPACT, STRUCT_HEADER, OP_SIZE, STRUCT_TAGGED_COUNT, STRUCT_FLAGS, OP_STRUCT, OP_TAG,
  OP_MIN_ELEMENT, FLEXIBLE, FLAT,
  E_TRUNCATED, E_NEGATIVE_LENGTH, E_INVALID_UTF8, E_DUPLICATE_TAG,
  E_TAGGED_SIZE_MISMATCH, E_TRAILING_BYTES, E_FRAME_SIZE_MISMATCH, E_ARRAY_LIMIT, E_LENGTH_LIMIT,
  E_DEPTH_LIMIT, STATUS_CODE,
} from '../../src/wasm/abi';
import { STATUS, MAX_DEPTH, pathOps, pathIndexes } from './status';
import {
  base, pos, end, inputEnd, spans, depth, maxArrayLength, maxLength, maxDepth, scratch,
  fail, need, push, readUvarint, readLength,
} from './read';
import { tape, tapeEnd } from './tape';
import { validUtf8 } from './utf8';
import { scanFixedArray, scanFlat } from './scan-flat';
import { be16, beU16, be32 } from '../wire/big-endian';

function scanLengthPrefixed(word: i32, wide: bool): void {
  const start = pos;
  const len = readLength(word, wide);
  if (len < 0) {
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
    case INT16: need(2); push(be16(pos)); pos += 2; break;
    case UINT16: need(2); push(beU16(pos)); pos += 2; break;
    case INT32:
    case UINT32: need(4); push(be32(pos)); pos += 4; break;
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
  const count = readLength(word, true);
  if (count < 0) {
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
    const size = be32(pos);
    if (size != length - 4) fail(E_FRAME_SIZE_MISMATCH);
    pos += 4;
  }
  if (header != 0) scanStruct(header);
  scanStruct(body);
  if (pos != end) fail(E_TRAILING_BYTES);
  return <i32>((tape - tapePtr) >> 2);
}
