// Specialised readers and writers for one compiled message version, generated as JavaScript
// source once and kept: an object literal per struct with its field names spelled out, so every
// struct type gets one hidden class and every property access is monomorphic. This is the fast
// path; where a page's Content-Security-Policy forbids `new Function`, the interpreter (read.ts
// and write.ts: the same walk, driven by data) does the work instead. Each primitive value's code
// is its kind's source in kinds.ts, inlined, and each count, marker and tag STRUCTURE's there.
// The source is written by walking the plan once in walk.ts's ORDER, the interpreter's order:
// the steps here say what each place becomes as source.
import { KafkaWireError } from '../errors.js';
import { ARRAY, RECORDS, STRUCT, type CompiledField, type CompiledStruct } from './plan.js';
import { checkKnownFields } from './known-fields.js';
import { bytesToBase64Url, decodeUtf8 } from '../text.js';
import {
  KIND_WRITES, KINDS, STRUCTURE, STRUCTURE_WRITES, WORD_SOURCE, asValueError, badValue, describe, invalid, writeBytes, writeString, writeUuid, type TapeCursor,
} from './kinds.js';
import { b, tapeRoom } from './encode-buffers.js';
import { isDefault, notInVersion } from './values.js';
import { writeTaggedFields } from './write.js';
import { ORDER, type WalkSteps } from './walk.js';

export interface TapeReader {
  /** Builds the root struct from the tape at `c.t`, and leaves `c.t` where it stopped (read.ts's interpretRoot as code). */
  read(c: TapeCursor): any;
}

export interface TapeWriter {
  /** Appends the root struct's words to the shared encode tape and heap. */
  write(value: any): void;
}

let available: boolean | undefined;

/** Whether generated code can run here (a CSP without 'unsafe-eval' forbids it). */
export function codegenAvailable(): boolean {
  if (available === undefined) {
    try {
      available = new Function('return 1')() === 1;
    } catch {
      available = false;
    }
  }
  return available;
}

/** For tests: force the interpreter (false) or restore detection (undefined). */
export function setCodegen(enabled: boolean | undefined): void {
  available = enabled === false ? false : undefined;
}

function structsOf(root: CompiledStruct): CompiledStruct[] {
  const seen: CompiledStruct[] = [];
  const visit = (s: CompiledStruct) => {
    if (seen.includes(s)) return;
    seen.push(s);
    for (const f of s.fields) if (f.struct !== null) visit(f.struct);
  };
  visit(root);
  return seen;
}

function key(name: string): string {
  return JSON.stringify(name);
}

/** A JS expression for a field's default; `d<N>()` builds a default struct. */
function defaultExpression(f: CompiledField, index: Map<CompiledStruct, number>): string {
  const v = f.defaultValue;
  if (v === undefined) {
    if (f.kind === ARRAY) return '[]';
    const zero = KINDS[f.kind]?.zeroSource;
    if (zero !== undefined) return zero;
    if (f.kind === STRUCT) return `d${index.get(f.struct!)}()`;
    throw new Error(`kafka-wire: no default for ${f.name}`);
  }
  if (v === null) return 'null';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : String(v);
  return JSON.stringify(v);
}

// ---- readers ----
// One function per message version with every struct inlined (Kafka's schemas have no recursive
// types): the tape and its cursor stay in locals, and each struct's fields are read into locals in
// wire order before one constructor call takes them in schema order.

function generateReaderSource(root: CompiledStruct, index: Map<CompiledStruct, number>): string {
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${counter++}`;
  const open: CompiledStruct[] = [];
  const { wordSource, followsSource, tagKind } = STRUCTURE;

  /** A records value noted for the hook: its holder, its key there, its bytes (none when null). */
  function noteRecords(holder: string, at: string, e: string): string {
    return `${e} && later && later.push(${holder}, ${at}, ${e});`; // a records value is null or a Uint8Array
  }

  // The steps write source: a field or value becomes [statements reading it into a new local, that
  // local's name]; a struct's holder collects its statements, the locals of its regular fields,
  // then its object's name and its tagged section's cases. Fresh names are numbered in walk order.
  const steps: WalkSteps<null, StructSource, [string, string]> = {
    struct(s) {
      if (open.includes(s)) throw new Error(`kafka-wire: recursive struct ${s.name} cannot be inlined`);
      open.push(s);
      const holder: StructSource = { statements: [], locals: new Map(), o: '', tag: '', cases: [], unknown: '' };
      ORDER.struct(s, steps, null, holder);
      open.pop();
      return [holder.statements.join('\n'), holder.o];
    },

    regularField(f, _, holder) {
      const [code, e] = ORDER.field(f, steps, null);
      holder.statements.push(code);
      holder.locals.set(f, e);
    },

    afterRegular(s, _, holder) {
      // One constructor call takes the regular fields' locals, and the others' defaults, in schema order.
      const values = s.fields.map((f) => holder.locals.get(f) ?? defaultExpression(f, index));
      const o = (holder.o = fresh('o'));
      holder.statements.push(`const ${o} = new S${index.get(s)}(${values.join(', ')});`);
      // Records fields wait for the hook with their struct, once it is complete.
      s.fields.forEach((f, k) => { if (f.kind === RECORDS && holder.locals.has(f)) holder.statements.push(noteRecords(o, key(f.name), values[k]!)); });
    },

    taggedSection(s, _, holder) {
      const [n, i, tag] = [fresh('n'), fresh('i'), (holder.tag = fresh('tag'))];
      // A case per known index, then the default: an unknown tag (its tag is the local holder.tag, not a number here).
      for (let k = 0; k < s.tagged.length; k++) ORDER.taggedEntry(s, -1, k, steps, null, holder);
      ORDER.taggedEntry(s, -1, -1, steps, null, holder);
      holder.statements.push(`for (let ${n} = ${wordSource}, ${i} = 0; ${i} < ${n}; ${i}++) {
${KINDS[tagKind]!.readSource.replace('$', tag)}
switch (${wordSource}) {
${holder.cases.join('\n')}
${holder.unknown}
}
}`);
    },

    taggedField(f, known, _, holder) {
      const [code, e] = ORDER.field(f, steps, null);
      holder.cases.push(`case ${known}: { ${code}\n${holder.o}[${key(f.name)}] = ${e};${f.kind === RECORDS ? ` ${noteRecords(holder.o, key(f.name), e)}` : ''} break; }`);
    },

    unknownTag(_tag, _, holder) {
      holder.unknown = `default: { const at = tape[t++], size = tape[t++]; (${holder.o}._unknownTaggedFields ??= {})[${holder.tag}] = src.subarray(at, at + size); }`;
    },

    array(f) {
      const [v, n] = [fresh('v'), fresh('n')];
      // Integer elements are one tape word each. Replica lists and the like are short: up to three
      // as array literals written out here (allocated inline, no call), longer ones by ints().
      const integers = KINDS[f.elementKind]?.readSource === WORD_SOURCE;
      if (integers) {
        return [`const ${n} = ${wordSource};
const ${v} = ${n} > 3 ? ints(tape, t, ${n}) : ${n} === 3 ? [tape[t], tape[t + 1], tape[t + 2]]
: ${n} === 2 ? [tape[t], tape[t + 1]] : ${n} === 1 ? [tape[t]] : ${n} === 0 ? [] : null;
if (${n} > 0) t += ${n};`, v];
      }
      const i = fresh('i');
      const [code, e] = ORDER.element(f, steps, null);
      return [`let ${v} = null;
const ${n} = ${wordSource};
if (${followsSource(n)}) { ${v} = new Array(${n}); for (let ${i} = 0; ${i} < ${n}; ${i}++) { ${code}
${v}[${i}] = ${e};${f.elementKind === RECORDS ? ` ${noteRecords(v, i, e)}` : ''} } }`, v];
    },

    primitive(kind) {
      const v = fresh('v');
      return [KINDS[kind]!.readSource.replace('$', v), v];
    },

    nullableStruct(s) {
      const v = fresh('v');
      const [code, o] = steps.struct(s, null);
      return [`let ${v} = null;
if (${followsSource(wordSource)}) { ${code}
${v} = ${o}; }`, v];
    },
  };

  const [code, o] = steps.struct(root, null);
  return `function read(c) {
let { tape, src, view, later, t } = c;
${code}
c.t = t;
return ${o};
}`;
}

/** What the reader's source collects for one struct while the walk goes through it. */
interface StructSource {
  readonly statements: string[];
  /** The regular fields' locals. */
  readonly locals: Map<CompiledField, string>;
  /** The local holding the struct's object, once its regular fields are read. */
  o: string;
  /** The local holding a tagged entry's tag. */
  tag: string;
  /** The tagged section's switch cases for its known fields, and its default case. */
  readonly cases: string[];
  unknown: string;
}

export function generateReader(root: CompiledStruct): TapeReader {
  const structs = structsOf(root);
  const index = new Map(structs.map((s, i) => [s, i]));
  // One constructor per struct, its prototype Object.prototype: instances look like plain
  // objects and share one hidden class. Not object literals: V8 tracks literal allocation sites
  // and, once a large decode's objects survive a full young-generation scavenge, allocates them
  // in the old generation from then on (measured: Metadata decode 3.7x slower in a busy process).
  const constructors = structs.map((s, i) => `function S${i}(${s.fields.map((_, k) => `p${k}`).join(', ')}) {
${s.fields.map((f, k) => `this[${key(f.name)}] = p${k};`).join('\n')}
}
S${i}.prototype = Object.prototype;
function d${i}() {
return new S${i}(${s.fields.map((f) => defaultExpression(f, index)).join(', ')});
}`);
  // ints() fills its array by push, like the literals, so every integer array is packed (one
  // elements kind). The generated text carries no comments and no indentation: its template ships
  // in every decode bundle.
  const source = `
function ints(tape, t, n) {
const a = [];
for (let i = 0; i < n; i++) a.push(tape[t + i]);
return a;
}
${constructors.join('\n')}
${generateReaderSource(root, index)}
return { read };`;
  return new Function('decodeUtf8', 'uuid', source)(decodeUtf8, bytesToBase64Url);
}

// ---- writers ----

/** Upper bound of tape words a value of `kind` takes besides nested structs and array items (an array's: its count). */
function words(kind: number): number {
  return KIND_WRITES[kind]?.tapeWords ?? 1;
}

/** What the writer's source collects for one struct (function w<number>) while the walk goes through it. */
interface WriterSource {
  readonly number: number;
  readonly body: string[];
  tagged: string;
}

export function generateWriter(root: CompiledStruct): TapeWriter {
  const structs = structsOf(root);
  const index = new Map(structs.map((s, i) => [s, i]));
  const fieldTable: CompiledField[] = [];
  // Tagged fields are rare: written through one generic path that calls back into writeField.
  const taggedCases = new Map<CompiledField, number>();
  const taggedCase = (f: CompiledField) => {
    let fi = taggedCases.get(f);
    if (fi === undefined) taggedCases.set(f, (fi = fieldTable.push(f) - 1));
    return fi;
  };
  const notReached = (): never => {
    throw new Error('kafka-wire: tagged entries are written at run time, by write.ts\'s writeTaggedFields');
  };
  // The steps write source: a field or value becomes statements writing `v` (already defaulted),
  // the same for regular and tagged fields; a struct becomes a call of its own function w<number>.
  const steps: WalkSteps<null, WriterSource, string> = {
    struct(s) {
      return `w${index.get(s)}(v);`;
    },

    regularField(f, _, holder) {
      const fi = fieldTable.push(f) - 1;
      const fallback = f.defaultValue !== undefined ? defaultExpression(f, index) : `fields[${fi}].makeDefault()`;
      const need = words(f.kind);
      holder.body.push(`field = ${fi}; v = o[${key(f.name)}]; if (v === undefined) v = ${fallback};
      if (b.t + ${need} > b.tape.length) room(${need});
      ${ORDER.field(f, steps, null)}`);
    },

    afterRegular(s, _, holder) {
      // The absent fields' errors carry their own path: no regular field is being written.
      if (s.absent.some((f) => !f.def.ignorable)) holder.body.push('field = -1;');
      for (const f of s.absent) {
        if (f.def.ignorable) continue;
        const fi = fieldTable.push(f) - 1;
        holder.body.push(`if (!isDefault(fields[${fi}], o[${key(f.name)}])) throw notInVersion(structs[${holder.number}], fields[${fi}]);`);
      }
    },

    taggedSection(s, _, holder) {
      holder.tagged = `field = -1;
      if (o._unknownTaggedFields === undefined${s.tagged.map((f) => ` && isDefault(fields[${taggedCase(f)}], o[${key(f.name)}])`).join('')}) { room(1); b.tape[b.t++] = 0; }
      else writeTaggedFields(structs[${holder.number}], o, writeField);`;
    },

    taggedField: notReached,
    unknownTag: notReached,

    array(f) {
      return `if (v === null) { ${f.nullable ? `b.tape[b.t++] = ${STRUCTURE_WRITES.nullWord};` : `throw invalid('null is not allowed in this version');`} }
      else if (!Array.isArray(v)) throw invalid('expected an array, got ' + describe(v));
      else {
        b.tape[b.t++] = v.length;
        const items = v;
        let i = 0;
        try {
          for (; i < items.length; i++) { room(${words(f.elementKind)}); v = items[i]; ${ORDER.element(f, steps, null)} }
        } catch (e) { throw at(asValueError(e, ${f.elementKind}, v), '[' + i + ']'); }
      }`;
    },

    primitive(kind, nullable, f) {
      const w = KIND_WRITES[kind]!;
      const guard = w.acceptsSource === undefined ? '' : `if (!(${w.acceptsSource})) bad(${kind}, v); `;
      return guard + w.writeSource.replace('$nullable', String(nullable)).replace('$compact', String(f.compact));
    },

    nullableStruct(s) {
      return `if (v === null) b.tape[b.t++] = ${STRUCTURE_WRITES.nullWord}; else { b.tape[b.t++] = ${STRUCTURE_WRITES.markerWord}; ${steps.struct(s, null)} }`;
    },
  };
  const functions = structs.map((s, i) => {
    const holder: WriterSource = { number: i, body: [], tagged: '' };
    ORDER.struct(s, steps, null, holder);
    return `function w${i}(o) {
    if (o === null || typeof o !== 'object') throw invalid('expected a ${s.name} object, got ' + describe(o));
    if (b.checkFields) checkKnownFields(structs[${i}], o);
    let v, field = -1;
    try {
      ${holder.body.join('\n      ')}
      ${holder.tagged}
    } catch (e) { throw field >= 0 ? at(asValueError(e, fields[field].kind, v), fields[field].name) : e; }
  }`;
  });
  const writeFieldCases = [...taggedCases].map(([f, fi]) => `case ${fi}: { room(${words(f.kind)}); ${ORDER.field(f, steps, null)} return; }`);
  // Strings, bytes, uuids and tagged sections go through the interpreter's own writers (write.ts),
  // taken as constants of the generated scope: V8 folds those into the generated code, not parameters.
  const source = `
  const { room, invalid, isDefault, notInVersion, checkKnownFields, describe, writeTaggedFields, str, bytes, uuid, bad, asValueError } = helpers;
  const word64 = new DataView(new ArrayBuffer(8));
  function at(e, segment) { return e instanceof KafkaWireError ? e.within(segment) : e; }
  function writeField(f, v) {
    if (v === undefined) v = f.makeDefault();
    switch (taggedCases.get(f)) {
      ${writeFieldCases.join('\n      ')}
    }
    throw new Error('kafka-wire: no writer for ' + f.name);
  }
  ${functions.join('\n  ')}
  return { write: w0 };`;
  const helpers = {
    room: tapeRoom, invalid, isDefault, notInVersion, checkKnownFields, describe, writeTaggedFields,
    str: writeString, bytes: writeBytes, uuid: writeUuid, bad: badValue, asValueError,
  };
  return new Function('b', 'helpers', 'fields', 'structs', 'taggedCases', 'KafkaWireError', source)(
    b, helpers, fieldTable, structs, taggedCases, KafkaWireError);
}
