// The interpreter's reader: turns a scan's tape into objects by walking a plan's CompiledStruct
// tree as data, where generated code may not run (generate.ts is the same walk as code). Its
// state is one TapeCursor the caller passes in: nothing is kept between calls, so decodes nest.
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

/** Builds root struct `s` from the tape at `c.t`, and leaves `c.t` where it stopped. */
export function interpretRoot(c: TapeCursor, s: CompiledStruct): any {
  return readStruct(c, s);
}

function readStruct(c: TapeCursor, s: CompiledStruct): any {
  const o = s.create();
  const regular = s.regular;
  for (let i = 0; i < regular.length; i++) readInto(c, o, regular[i]);
  if (s.flexible) readTaggedFields(c, s, o);
  return o;
}

function readInto(c: TapeCursor, o: any, f: CompiledField): void {
  const value = readField(c, f);
  o[f.name] = value;
  if (f.kind === RECORDS && value !== null && c.later !== undefined) c.later.push(o, f.name, value);
}

function readTaggedFields(c: TapeCursor, s: CompiledStruct, o: any): void {
  const tape = c.tape;
  const count = tape[c.t++];
  for (let i = 0; i < count; i++) {
    const tag = tape[c.t++] >>> 0;
    const known = tape[c.t++];
    if (known >= 0) {
      readInto(c, o, s.tagged[known]);
    } else {
      const offset = tape[c.t++];
      const length = tape[c.t++];
      (o._unknownTaggedFields ??= {})[tag] = c.src.subarray(offset, offset + length);
    }
  }
}

function readField(c: TapeCursor, f: CompiledField): any {
  if (f.kind !== ARRAY) return readValue(c, f.kind, f.nullable, f.struct);
  const count = c.tape[c.t++];
  if (count < 0) return null;
  const items: any[] = [];
  const kind = f.elementKind;
  const struct = f.struct;
  for (let i = 0; i < count; i++) {
    const item = readValue(c, kind, false, struct);
    items.push(item);
    if (kind === RECORDS && item !== null && c.later !== undefined) c.later.push(items, i, item);
  }
  return items;
}

function readValue(c: TapeCursor, kind: number, nullable: boolean, struct: CompiledStruct | null): any {
  const tape = c.tape;
  switch (kind) {
    case BOOL: return tape[c.t++] !== 0;
    case INT8: case INT16: case UINT16: case INT32: return tape[c.t++];
    case UINT32: return tape[c.t++] >>> 0;
    case INT64: return c.view.getBigInt64(tape[c.t++]);
    case FLOAT64: return c.view.getFloat64(tape[c.t++]);
    case UUID: return bytesToBase64Url(c.src, tape[c.t++]);
    case STRING: {
      const offset = tape[c.t++];
      const length = tape[c.t++];
      return length < 0 ? null : decodeUtf8(c.src, offset, length);
    }
    case BYTES: case RECORDS: {
      const offset = tape[c.t++];
      const length = tape[c.t++];
      return length < 0 ? null : c.src.subarray(offset, offset + length);
    }
    case STRUCT:
      if (nullable && tape[c.t++] < 0) return null;
      return readStruct(c, struct!);
  }
  throw new Error(`kafka-wire: unknown kind ${kind}`);
}
