// The interpreter's writer: flattens objects into the encode tape and heap (encode-buffers.ts) by
// walking a plan's CompiledStruct tree as data; each primitive value is checked and written by its
// kind's row in kinds.ts, each null and marker word by STRUCTURE there. The generated writers
// (generate.ts) do the same walk as code and call the tagged-field writer here.
import { KafkaWireError } from '../errors.js';
import { b, heapRoom, tapeRoom } from './encode-buffers.js';
import { ARRAY, STRUCT, type CompiledField, type CompiledStruct } from './plan.js';
import { checkKnownFields } from './known-fields.js';
import { isDefault, notInVersion } from './values.js';
import { KIND_WRITES, STRUCTURE_WRITES, asValueError, badValue, describe, invalid } from './kinds.js';

export function writeStruct(s: CompiledStruct, o: any): void {
  if (o === null || typeof o !== 'object') throw invalid(`expected a ${s.name} object, got ${describe(o)}`);
  if (b.checkFields) checkKnownFields(s, o);
  let f: CompiledField | undefined;
  try {
    const regular = s.regular;
    for (let i = 0; i < regular.length; i++) {
      f = regular[i];
      writeField(f, o[f.name]);
    }
    // The absent fields' errors name their own field: no regular field is being written.
    f = undefined;
    const absent = s.absent;
    for (let i = 0; i < absent.length; i++) {
      const lacking = absent[i];
      if (!lacking.def.ignorable && !isDefault(lacking, o[lacking.name])) throw notInVersion(s, lacking);
    }
    if (s.flexible) writeTaggedFields(s, o, writeField);
  } catch (thrown) {
    if (f === undefined) throw thrown;
    const error = asValueError(thrown, f.kind, o[f.name]);
    if (error instanceof KafkaWireError) throw error.within(f.name);
    throw error;
  }
}

export function writeTaggedFields(s: CompiledStruct, o: any, writeField: (f: CompiledField, v: unknown) => void): void {
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
  const entries: { tag: number; known: number; bytes?: Uint8Array }[] = [];
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
      entries.push({ tag, known: -1, bytes });
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
    if (entry.known >= 0) {
      const f = tagged[entry.known];
      try {
        writeField(f, o[f.name]);
      } catch (thrown) {
        const error = asValueError(thrown, f.kind, o[f.name]);
        if (error instanceof KafkaWireError) throw error.within(f.name);
        throw error;
      }
    } else {
      const bytes = entry.bytes!;
      heapRoom(bytes.length);
      b.heap.set(bytes, b.h);
      b.tape[b.t++] = b.h;
      b.tape[b.t++] = bytes.length;
      b.h += bytes.length;
    }
  }
}

function writeField(f: CompiledField, value: any): void {
  if (value === undefined) value = f.makeDefault();
  if (f.kind !== ARRAY) {
    writeValue(f.kind, f.nullable, f.compact, f.struct, value);
    return;
  }
  tapeRoom(1);
  if (value === null) {
    if (!f.nullable) throw invalid(`null is not allowed in this version`);
    b.tape[b.t++] = STRUCTURE_WRITES.nullWord;
    return;
  }
  if (!Array.isArray(value)) throw invalid(`expected an array, got ${describe(value)}`);
  b.tape[b.t++] = value.length;
  const kind = f.elementKind;
  const struct = f.struct;
  let i = 0;
  try {
    for (; i < value.length; i++) writeValue(kind, false, f.compact, struct, value[i]);
  } catch (thrown) {
    const error = asValueError(thrown, kind, value[i]);
    if (error instanceof KafkaWireError) throw error.within(`[${i}]`);
    throw error;
  }
}

function writeValue(kind: number, nullable: boolean, compact: boolean, struct: CompiledStruct | null, v: any): void {
  tapeRoom(2);
  if (kind === STRUCT) {
    if (nullable) {
      b.tape[b.t++] = v === null ? STRUCTURE_WRITES.nullWord : STRUCTURE_WRITES.markerWord;
      if (v === null) return;
    }
    writeStruct(struct!, v);
    return;
  }
  const w = KIND_WRITES[kind]!;
  if (w.accepts !== undefined && !w.accepts(v)) badValue(kind, v);
  w.write(v, nullable, compact);
}
