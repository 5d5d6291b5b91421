// The scan's fast path for FLAT structs (partitions, replicas and the like) and for arrays of
// fixed-size integers: positions kept in locals, one bounds check per field, and the same tape the
// generic walk (scan.ts) would write. It declines whatever it does not handle, and the generic
// walk then decides and reports.
import {
  BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64, FLOAT64, UUID, ARRAY,
  KIND_MASK, ELEMENT_KIND_SHIFT, COMPACT, STRUCT_HEADER, OP_SIZE, STRUCT_FLAGS, FLEXIBLE, E_TAPE_FULL,
} from '../../src/wasm/abi';
import { base, pos, end, depth, maxArrayLength, maxDepth, need, fail } from './read';
import { tape, tapeEnd } from './tape';
import { be16, beU16, be32 } from '../wire/big-endian';

/** Arrays of fixed-size integers (replica lists, partition ids) in one tight loop. */
export function scanFixedArray(kind: i32, count: i32): bool {
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
    for (let i: usize = 0; i < n; i++) store<i32>(t + (i << 2), be16(p + (i << 1)));
    return n << 1;
  }
  for (let i: usize = 0; i < n; i++) store<i32>(t + (i << 2), be32(p + (i << 2)));
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
export function scanFlat(struct: usize, count: i32): i32 {
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
        store<i32>(t, be32(p));
        p += 4;
        break;
      case INT16:
        if (e - p < 2) return false;
        store<i32>(t, be16(p));
        p += 2;
        break;
      case UINT16:
        if (e - p < 2) return false;
        store<i32>(t, beU16(p));
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
          count = be32(p);
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

