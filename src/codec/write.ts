// The interpreter's writer: flattens objects into the encode tape and heap (encode-buffers.ts) by
// walking a plan's CompiledStruct tree as data. The order of the walk is walk.ts's ORDER; here are
// only its steps. Each primitive value is checked and written by its kind's row in kinds.ts, each
// null and marker word by STRUCTURE_WRITES there. The generated writers (generate.ts) do the same
// walk as code and call the tagged-section writer here.
import { KafkaWireError } from '../errors.js';
import { b, heapRoom, tapeRoom } from './encode-buffers.js';
import type { CompiledField, CompiledStruct } from './plan.js';
import { checkKnownFields } from './known-fields.js';
import { isDefault, notInVersion } from './values.js';
import { KIND_WRITES, STRUCTURE_WRITES, asValueError, badValue, describe, invalid } from './kinds.js';
import { ORDER, type WalkSteps } from './walk.js';

export function writeStruct(s: CompiledStruct, o: any): void {
  if (o === null || typeof o !== 'object') throw invalid(`expected a ${s.name} object, got ${describe(o)}`);
  if (b.checkFields) checkKnownFields(s, o);
  ORDER.struct(s, writing, writeField, o);
}

/** The error to throw for `thrown`, thrown writing field `f`'s value `v`: named by the field. */
function withinField(thrown: unknown, f: CompiledField, v: unknown): unknown {
  const error = asValueError(thrown, f.kind, v);
  return error instanceof KafkaWireError ? error.within(f.name) : error;
}

/** What writes one field's value: the interpreter's writeField, or a generated writer's. */
type FieldWriter = (f: CompiledField, v: unknown) => void;

/** A tagged section: called by the interpreter's struct walk and by the generated writers. */
export function writeTaggedFields(s: CompiledStruct, o: any, writeField: FieldWriter): void {
  const unknown: Record<number, Uint8Array> | undefined = o._unknownTaggedFields;
  const tagged = s.tagged;
  let present = 0;
  for (let i = 0; i < tagged.length; i++) if (!isDefault(tagged[i], o[tagged[i].name])) present++;
  if (unknown === undefined && present === 0) {
    tapeRoom(1);
    b.tape[b.t++] = 0;
    return;
  }
  // Known and unknown tags merged in ascending order, as Kafka writes them.
  const entries: { tag: number; known: number }[] = [];
  for (let i = 0; i < tagged.length; i++) {
    if (!isDefault(tagged[i], o[tagged[i].name])) entries.push({ tag: tagged[i].tag, known: i });
  }
  if (unknown !== undefined) {
    for (const key of Object.keys(unknown)) {
      const tag = Number(key);
      const bytes = unknown[tag as any];
      if (!Number.isInteger(tag) || tag < 0 || tag > 0xffffffff || !(bytes instanceof Uint8Array)) {
        throw invalid(`_unknownTaggedFields must map tag numbers to Uint8Array, got ${key}`);
      }
      entries.push({ tag, known: -1 });
    }
  }
  entries.sort((a, b) => a.tag - b.tag);
  for (let i = 1; i < entries.length; i++) {
    if (entries[i].tag === entries[i - 1].tag) {
      throw new KafkaWireError('DUPLICATE_TAG', -1, '_unknownTaggedFields', `tag ${entries[i].tag} is given twice`);
    }
  }
  tapeRoom(1);
  b.tape[b.t++] = entries.length;
  for (const entry of entries) {
    tapeRoom(4);
    b.tape[b.t++] = entry.tag | 0;
    b.tape[b.t++] = entry.known;
    ORDER.taggedEntry(s, entry.tag, entry.known, writing, writeField, o);
  }
}

function writeField(f: CompiledField, value: any): void {
  ORDER.field(f, writing, value === undefined ? f.makeDefault() : value);
}

/**
 * The writer's steps. A value's context is the value itself; a struct's holder is the object
 * being written, its context the writer of its fields (the generated writers pass their own to
 * writeTaggedFields).
 */
const writing: WalkSteps<any, any, void> = {
  struct(s: CompiledStruct, v: any): void {
    tapeRoom(2);
    writeStruct(s, v);
  },

  regularField(f: CompiledField, _write: FieldWriter, o: any): void {
    // The interpreter's own writeField, inlined here (the context is it, but the regular fields are the hot path).
    const v = o[f.name];
    try {
      ORDER.field(f, writing, v === undefined ? f.makeDefault() : v);
    } catch (thrown) {
      throw withinField(thrown, f, v);
    }
  },

  afterRegular(s: CompiledStruct, _write: FieldWriter, o: any): void {
    // The absent fields' errors name their own field: no regular field is being written.
    const absent = s.absent;
    for (let i = 0; i < absent.length; i++) {
      const lacking = absent[i];
      if (!lacking.def.ignorable && !isDefault(lacking, o[lacking.name])) throw notInVersion(s, lacking);
    }
  },

  taggedSection(s: CompiledStruct, write: FieldWriter, o: any): void {
    writeTaggedFields(s, o, write);
  },

  taggedField(f: CompiledField, _known: number, write: FieldWriter, o: any): void {
    const v = o[f.name];
    try {
      write(f, v);
    } catch (thrown) {
      throw withinField(thrown, f, v);
    }
  },

  unknownTag(tag: number, _write: FieldWriter, o: any): void {
    const bytes: Uint8Array = o._unknownTaggedFields[tag];
    heapRoom(bytes.length);
    b.heap.set(bytes, b.h);
    b.tape[b.t++] = b.h;
    b.tape[b.t++] = bytes.length;
    b.h += bytes.length;
  },

  array(f: CompiledField, value: any): void {
    tapeRoom(1);
    if (value === null) {
      if (!f.nullable) throw invalid(`null is not allowed in this version`);
      b.tape[b.t++] = STRUCTURE_WRITES.nullWord;
      return;
    }
    if (!Array.isArray(value)) throw invalid(`expected an array, got ${describe(value)}`);
    b.tape[b.t++] = value.length;
    let i = 0;
    try {
      for (; i < value.length; i++) ORDER.element(f, writing, value[i]);
    } catch (thrown) {
      const error = asValueError(thrown, f.elementKind, value[i]);
      if (error instanceof KafkaWireError) throw error.within(`[${i}]`);
      throw error;
    }
  },

  primitive(kind: number, nullable: boolean, f: CompiledField, v: any): void {
    tapeRoom(2);
    const w = KIND_WRITES[kind]!;
    if (w.accepts !== undefined && !w.accepts(v)) badValue(kind, v);
    w.write(v, nullable, f.compact);
  },

  nullableStruct(s: CompiledStruct, _f: CompiledField, v: any): void {
    tapeRoom(2);
    b.tape[b.t++] = v === null ? STRUCTURE_WRITES.nullWord : STRUCTURE_WRITES.markerWord;
    if (v !== null) writeStruct(s, v);
  },
};
