// The interpreter's reader: turns a scan's tape into objects by walking a plan's CompiledStruct
// tree as data, where generated code may not run (generate.ts is the same walk as code). Its
// cursor lives in module state, saved around each records hook so that the hook may call the
// codec again.
import { bytesToBase64Url, decodeUtf8 } from '../text.js';
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  type CompiledField, type CompiledStruct,
} from './plan.js';

// The tape being read, the cursor, and the frame its offsets point into.
let tape: Int32Array = new Int32Array(0);
let t = 0;
let src: Uint8Array = new Uint8Array(0);
let view: DataView = new DataView(src.buffer);
let recordsDecoder: ((records: Uint8Array) => unknown) | undefined;

/** Where the last interpretRoot stopped on its tape. */
export let interpretedEnd = 0;

/**
 * Builds root struct `s` from `words` starting at word `start`, with offsets into `input`
 * (seen through `inputView`); sets interpretedEnd.
 */
export function interpretRoot(s: CompiledStruct, words: Int32Array, start: number, input: Uint8Array, inputView: DataView,
  decoder: ((records: Uint8Array) => unknown) | undefined): any {
  tape = words;
  t = start;
  src = input;
  view = inputView;
  recordsDecoder = decoder;
  const value = readStruct(s);
  interpretedEnd = t;
  return value;
}

function readStruct(s: CompiledStruct): any {
  const o = s.create();
  const regular = s.regular;
  for (let i = 0; i < regular.length; i++) {
    const f = regular[i];
    o[f.name] = readField(f);
  }
  if (s.flexible) readTaggedFields(s, o);
  return o;
}

function readTaggedFields(s: CompiledStruct, o: any): void {
  const count = tape[t++];
  for (let i = 0; i < count; i++) {
    const tag = tape[t++] >>> 0;
    const known = tape[t++];
    if (known >= 0) {
      const f = s.tagged[known];
      o[f.name] = readField(f);
    } else {
      const offset = tape[t++];
      const length = tape[t++];
      (o._unknownTaggedFields ??= {})[tag] = src.subarray(offset, offset + length);
    }
  }
}

function readField(f: CompiledField): any {
  if (f.kind !== ARRAY) return readValue(f.kind, f.nullable, f.struct);
  const count = tape[t++];
  if (count < 0) return null;
  const items: any[] = [];
  const kind = f.elementKind;
  const struct = f.struct;
  for (let i = 0; i < count; i++) items.push(readValue(kind, false, struct));
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
      if (length < 0) return null;
      const bytes = src.subarray(offset, offset + length);
      return kind === RECORDS && recordsDecoder !== undefined ? decodeRecords(bytes) : bytes;
    }
    case STRUCT:
      if (nullable && tape[t++] < 0) return null;
      return readStruct(struct!);
  }
  throw new Error(`kafka-wire: unknown kind ${kind}`);
}

/** Calls the records hook, which may run another decode through this reader, and restores the cursor. */
function decodeRecords(bytes: Uint8Array): unknown {
  const [outerTape, outerT, outerSrc, outerView, outerDecoder] = [tape, t, src, view, recordsDecoder!];
  const decoded = outerDecoder(bytes);
  [tape, t, src, view, recordsDecoder] = [outerTape, outerT, outerSrc, outerView, outerDecoder];
  return decoded;
}
