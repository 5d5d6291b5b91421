// The interpreter's reader: turns a scan's tape into objects by walking a plan's CompiledStruct
// tree as data, where generated code may not run (generate.ts is the same walk as code). Its
// state is one TapeCursor the caller passes in, read into locals of one call: nothing is kept
// between calls, so decodes nest.
import { bytesToBase64Url, decodeUtf8 } from '../text.js';
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  type CompiledField, type CompiledStruct,
} from './plan.js';

/**
 * One decode's reading state: the tape, the cursor on it, the frame its offsets point into.
 * `later`, when a records hook is given, collects (holder, key, bytes) for each records field,
 * in the order their structs complete, for the hook to run once the tape is read.
 */
export interface TapeCursor {
  readonly tape: Int32Array;
  t: number;
  readonly src: Uint8Array;
  readonly view: DataView;
  readonly later: unknown[] | undefined;
}

/** Builds root struct `root` from the tape at `c.t`, and leaves `c.t` where it stopped. */
export function interpretRoot(c: TapeCursor, root: CompiledStruct): any {
  const { tape, src, view, later } = c;
  let t = c.t;

  function readStruct(s: CompiledStruct): any {
    const o = s.create();
    const regular = s.regular;
    for (let i = 0; i < regular.length; i++) o[regular[i].name] = readField(regular[i]);
    // Records fields wait for the hook with their struct, once it is complete (as generate.ts has it).
    if (later !== undefined) for (const f of regular) if (f.kind === RECORDS) noteRecords(o, f.name);
    if (s.flexible) {
      for (let n = tape[t++], i = 0; i < n; i++) {
        const tag = tape[t++] >>> 0;
        const known = tape[t++];
        if (known >= 0) {
          const f = s.tagged[known];
          o[f.name] = readField(f);
          if (later !== undefined && f.kind === RECORDS) noteRecords(o, f.name);
        } else {
          const offset = tape[t++];
          const length = tape[t++];
          (o._unknownTaggedFields ??= {})[tag] = src.subarray(offset, offset + length);
        }
      }
    }
    return o;
  }

  function noteRecords(holder: any, at: string | number): void {
    if (holder[at] !== null) later!.push(holder, at, holder[at]);
  }

  function readField(f: CompiledField): any {
    if (f.kind !== ARRAY) return readValue(f.kind, f.nullable, f.struct);
    const count = tape[t++];
    if (count < 0) return null;
    const items: any[] = [];
    for (let i = 0; i < count; i++) items.push(readValue(f.elementKind, false, f.struct));
    if (later !== undefined && f.elementKind === RECORDS) items.forEach((_, i) => noteRecords(items, i));
    return items;
  }

  function readValue(kind: number, nullable: boolean, struct: CompiledStruct | null): any {
    switch (kind) {
      case BOOL: return tape[t++] !== 0;
      case INT8: case INT16: case UINT16: case INT32: return tape[t++];
      case UINT32: return tape[t++] >>> 0;
      case INT64: return view.getBigInt64(tape[t++]);
      case FLOAT64: return view.getFloat64(tape[t++]);
      case UUID: return bytesToBase64Url(src, tape[t++]);
      case STRING: {
        const offset = tape[t++];
        const length = tape[t++];
        return length < 0 ? null : decodeUtf8(src, offset, length);
      }
      case BYTES: case RECORDS: {
        const offset = tape[t++];
        const length = tape[t++];
        return length < 0 ? null : src.subarray(offset, offset + length);
      }
      case STRUCT:
        if (nullable && tape[t++] < 0) return null;
        return readStruct(struct!);
    }
    throw new Error(`kafka-wire: unknown kind ${kind}`);
  }

  const value = readStruct(root);
  c.t = t;
  return value;
}
