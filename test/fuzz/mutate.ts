// A seeded mutation fuzzer for frames. Besides blind byte damage it aims at the places a codec is
// most likely to trust: length and count prefixes (found by an explain-mode scan of the valid
// frame), varints, and tagged-field sections.
import { planFor, type CatalogueOption, type Direction } from '../../src/codec/by-key.js';
import { scanMessage } from '../../src/codec/scan.js';
import { ARRAY, BYTES, RECORDS, STRING, STRUCT, type CompiledField, type CompiledStruct } from '../../src/codec/plan.js';
import { i32 } from '../../src/codec/engine.js';

export interface LengthSite {
  offset: number;
  /** 2 or 4 for int16/int32 prefixes, 0 for a compact (uvarint) one. */
  width: number;
}

/** Where the length/count prefixes of a valid frame are. */
export function lengthSites(apiKey: number, direction: Direction, version: number, frame: Uint8Array, options?: CatalogueOption): LengthSite[] {
  const plan = planFor(apiKey, direction, version, options);
  const scan = scanMessage(plan, frame, true, true, undefined);
  const tape = i32;
  let t = scan.start;
  const sites: LengthSite[] = [];
  const struct = (s: CompiledStruct) => {
    t++; // struct start
    for (const f of s.regular) field(f);
    if (s.flexible) {
      t++; // section start
      const count = tape[t++];
      for (let i = 0; i < count; i++) {
        t += 2; // tag, entry start
        const known = tape[t++];
        if (known >= 0) field(s.tagged[known]);
        else t += 2;
      }
    }
    t++; // struct end
  };
  const value = (kind: number, f: CompiledField, nullable: boolean) => {
    switch (kind) {
      case STRING: case BYTES: case RECORDS: t += 2; return;
      case STRUCT:
        if (nullable && tape[t++] < 0) return;
        struct(f.struct!);
        return;
      default: t += 1;
    }
  };
  const field = (f: CompiledField) => {
    const start = tape[t++];
    const sized = f.kind === ARRAY || f.kind === STRING || f.kind === BYTES || f.kind === RECORDS;
    if (sized) sites.push({ offset: start, width: f.compact ? 0 : f.kind === STRING ? 2 : 4 });
    if (f.kind === ARRAY) {
      const count = tape[t++];
      for (let i = 0; i < count; i++) {
        t++;
        value(f.elementKind, f, false);
        t++;
      }
    } else {
      value(f.kind, f, f.nullable);
    }
    t++; // field end
  };
  struct(plan.header);
  struct(plan.body);
  return sites;
}

const INTERESTING = [0, -1, -2, 0x7fffffff, 1, 0x7fff, -0x8000, 0x10000];

export function mutate(frame: Uint8Array, sites: LengthSite[], random: () => number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  let bytes = frame.slice();
  const rounds = 1 + int(3);
  for (let r = 0; r < rounds; r++) {
    const choice = int(9);
    const at = bytes.length === 0 ? 0 : int(bytes.length);
    switch (choice) {
      case 0: // bit flip
        if (bytes.length) bytes[at] ^= 1 << int(8);
        break;
      case 1: // byte substitution
        if (bytes.length) bytes[at] = [0, 0xff, 0x7f, 0x80, int(256)][int(5)];
        break;
      case 2: // truncation
        bytes = bytes.slice(0, at);
        break;
      case 3: // insertion
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...Array.from({ length: 1 + int(4) }, () => int(256)), ...bytes.subarray(at)]);
        break;
      case 4: case 5: { // a length or count prefix set to an interesting value
        if (sites.length === 0) break;
        const site = sites[int(sites.length)];
        if (site.offset + Math.max(site.width, 1) > bytes.length) break;
        const value = INTERESTING[int(INTERESTING.length)];
        if (site.width === 2) new DataView(bytes.buffer).setInt16(site.offset, value);
        else if (site.width === 4) new DataView(bytes.buffer).setInt32(site.offset, value);
        else bytes = splice(bytes, site.offset, 1, uvarint(value + 1 >>> 0));
        break;
      }
      case 6: { // a 10-byte varint where a compact prefix stands
        const compact = sites.filter((s) => s.width === 0);
        if (compact.length === 0) break;
        const site = compact[int(compact.length)];
        bytes = splice(bytes, site.offset, 1, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        break;
      }
      case 7: { // duplicate a run of bytes (repeats tagged entries, elements, ...)
        const length = 1 + int(8);
        const run = bytes.slice(at, at + length);
        bytes = splice(bytes, at + run.length, 0, [...run]);
        break;
      }
      case 8: // fix the size prefix after the damage, so the damage inside is what gets tested
        if (bytes.length >= 4) new DataView(bytes.buffer).setInt32(0, bytes.length - 4);
        break;
    }
  }
  // Most of the time keep the size prefix honest; otherwise the scan stops at the first check.
  if (random() < 0.8 && bytes.length >= 4) new DataView(bytes.buffer).setInt32(0, bytes.length - 4);
  return bytes;
}

function splice(bytes: Uint8Array, at: number, remove: number, insert: number[]): Uint8Array {
  return Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at + remove)]);
}

function uvarint(v: number): number[] {
  const out = [];
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}
