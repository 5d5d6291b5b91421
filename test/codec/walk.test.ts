// The one description of the walk (src/codec/kinds.ts) governs all three walks: a row's function
// and its source give the same answers; a row changed here is changed in the interpreter, in the
// generated readers and writers, and in explain, with nothing else touched; so is a structural
// word (a count, a marker, a tag: STRUCTURE and STRUCTURE_WRITES), and a kind's JSON form
// (KIND_JSON) in json.ts and explain; explain shows every kind as the decoders read it and in the
// JSON form json.ts writes; and the walks name no primitive kind of their own. The order of the
// walk (src/codec/walk.ts's ORDER) likewise: changed there, it is changed in all four walks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeBodyFor, encodeBodyFor, encodeRequestFor } from '../../src/codec/by-definition.js';
import { generateWriter, setCodegen } from '../../src/codec/generate.js';
import { writeStruct } from '../../src/codec/write.js';
import { b } from '../../src/codec/encode-buffers.js';
import {
  KIND_JSON, KIND_OF_TYPE, KIND_WRITES, KINDS, STRUCTURE, STRUCTURE_WRITES, scanWords, writeBytes, writeString, writeUuid, type KindDescription, type KindWrite,
  type TapeCursor,
} from '../../src/codec/kinds.js';
import { INT32, INT64, STRING } from '../../src/wasm/abi.js';
import { bodyPlanFor } from '../../src/codec/plan.js';
import { ORDER, type WalkSteps } from '../../src/codec/walk.js';
import { structFromJson, structToJson } from '../../src/codec/json.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { MAX_VERSION, type ApiDef, type MessageDef } from '../../src/catalogue/schema.js';
import { buildExplainTree, flattenTree } from '../../src/explain/tree.js';
import { bytesToBase64Url, decodeUtf8, fromHex, toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';

/** A message of one field `value` of `type` (nullable from v1 where the kind can be), flexible from v1. */
function messageOf(type: string, direction: 'request' | 'response' = 'request'): MessageDef {
  return {
    name: `Walk${type.replace('[]', 'Array')}${direction === 'request' ? 'Request' : 'Response'}`, apiKey: 32001, type: direction,
    validVersions: [0, 1], flexibleVersions: [1, MAX_VERSION],
    fields: [{
      name: 'value', schemaName: 'Value', type, versions: [0, MAX_VERSION],
      ...(/^(string|bytes|records)$/.test(type) ? { nullableVersions: [1, MAX_VERSION] as const } : {}),
    }],
    structs: {},
  };
}

/** An API around the one-field request, in a catalogue of its own, for explain (which goes by key). */
function apiOf(type: string, request = messageOf(type)) {
  const api: ApiDef = { apiKey: 32001, name: 'Walk', request, response: messageOf(type, 'response') } as ApiDef;
  const catalogue = createCatalogue({ apis: [api] });
  return { api: catalogue.api(32001)!, catalogue };
}

/** The explain nodes of a request frame carrying `body` (of `request`, by default the one-field request of `type`). */
function explainNodes(type: string, version: number, body: unknown, request?: MessageDef) {
  const { api, catalogue } = apiOf(type, request);
  const frame = encodeRequestFor(api, { requestApiKey: 32001, requestApiVersion: version, correlationId: 1, clientId: null }, body as any);
  return flattenTree(buildExplainTree(frame, { direction: 'request', catalogue }).root);
}

/** The explain node of the field `value` in a request frame carrying `body`. */
function explainValue(type: string, version: number, body: unknown) {
  return explainNodes(type, version, body).find((n) => n.path === 'value')!;
}

const mutableKinds = KINDS as (KindDescription | undefined)[];
const mutableWrites = KIND_WRITES as (KindWrite | undefined)[];
const savedKinds = [...KINDS];
const savedWrites = [...KIND_WRITES];
const savedJson = [...KIND_JSON];
const savedStructure = { ...STRUCTURE };
const savedStructureWrites = { ...STRUCTURE_WRITES };
const savedOrder = { ...ORDER };
afterEach(() => {
  Object.assign(ORDER, savedOrder);
  savedKinds.forEach((row, kind) => { mutableKinds[kind] = row; });
  savedWrites.forEach((row, kind) => { mutableWrites[kind] = row; });
  Object.assign(STRUCTURE, savedStructure);
  (KIND_JSON as unknown[]).length = 0;
  savedJson.forEach((row, kind) => { (KIND_JSON as unknown[])[kind] = row; });
  Object.assign(STRUCTURE_WRITES, savedStructureWrites);
  setCodegen(undefined);
});

const rows = KINDS.filter((k) => k !== undefined);

describe('a kind row says each step once, twice over', () => {
  it('reads the same with its function as with its source, value and cursor', () => {
    // A frame of ASCII (the scan has checked a string's UTF-8 before any reader runs).
    const src = Uint8Array.from({ length: 64 }, (_, i) => 0x21 + ((i * 37) % 90));
    const view = new DataView(src.buffer);
    let checked = 0;
    for (const row of rows) {
      const source = new Function('tape', 't', 'src', 'view', 'decodeUtf8', 'uuid',
        `${row.readSource.replace('$', 'v')} return [v, t];`) as (...a: unknown[]) => [unknown, number];
      const tapes = row.fixedSize > 0
        // A word (an integer), or an offset in the frame for the wider kinds.
        ? [0, 1, -1, 127, -128, 32767, 65535, 2 ** 31 - 1, -(2 ** 31), 7, 40].filter((w) => row.fixedSize <= 4 || (w >= 0 && w <= 64 - row.fixedSize)).map((w) => [w])
        : [[3, 0], [3, 5], [10, 54], [0, -1]];
      for (const words of tapes) {
        const tape = Int32Array.from([99, ...words, 99]);
        const c: TapeCursor = { tape, t: 1, src, view };
        const byFunction = [row.read(c), c.t];
        expect([row.type, words, byFunction]).toEqual([row.type, words, source(tape, 1, src, view, decodeUtf8, bytesToBase64Url)]);
        expect(c.t - 1).toBe(scanWords(row.kind));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('writes the same tape and heap with its function as with its source', () => {
    const samples: Record<string, unknown[]> = {
      bool: [true, false], int8: [-128, 127], int16: [-2, 32767], uint16: [0, 65535], int32: [-(2 ** 31), 5],
      uint32: [0, 2 ** 32 - 1], int64: [-2n, 2n ** 63n - 1n], float64: [1.5, -Infinity, NaN, -0],
      uuid: ['AAECAwQFBgcICQoLDA0ODw'], string: ['hé', '', null], bytes: [Uint8Array.of(1, 2), null, new Uint8Array(2000)],
      records: [Uint8Array.of(9), null],
    };
    const word64 = new DataView(new ArrayBuffer(8));
    const run = (write: () => void) => {
      b.t = 0;
      b.h = 0;
      b.large.length = 0;
      b.largeBytes = 0;
      write();
      return { tape: [...b.tape.subarray(0, b.t)], heap: toHex(b.heap.subarray(0, b.h)), large: b.large.map(toHex) };
    };
    let checked = 0;
    for (const row of KIND_WRITES.filter((k) => k !== undefined)) {
      for (const compact of [false, true]) {
        const source = new Function('b', 'word64', 'str', 'bytes', 'uuid', 'v',
          row.writeSource.replace('$nullable', 'true').replace('$compact', String(compact))) as (...a: unknown[]) => void;
        for (const v of samples[KINDS[row.kind]!.type]!) {
          const byFunction = run(() => row.write(v, true, compact));
          const bySource = run(() => source(b, word64, writeString, writeBytes, writeUuid, v));
          expect([row.kind, v, bySource]).toEqual([row.kind, v, byFunction]);
          checked++;
        }
      }
    }
    expect(checked).toBe(2 * Object.values(samples).flat().length);
  });
});

describe('a row changed in the description', () => {
  /** int32 read one higher than the scan left it: the function and its source, changed together. */
  function readInt32PlusOne() {
    mutableKinds[INT32] = { ...savedKinds[INT32]!, read: (c) => c.tape[c.t++] + 1, readSource: 'const $ = tape[t++] + 1;' };
  }

  it.each([['generated code', undefined], ['interpreter', false]] as const)('is how the %s reads', (_name, codegen) => {
    setCodegen(codegen);
    const plain = messageOf('int32');
    expect(decodeBodyFor(plain, 0, fromHex('00000007')!)).toEqual({ value: 7 });
    readInt32PlusOne();
    // Fresh messages: plans and generated readers are made once per message version and kept.
    expect(decodeBodyFor(messageOf('int32'), 0, fromHex('00000007')!)).toEqual({ value: 8 });
    // Arrays too: integer elements stop taking the plain-word path once their read is not the plain word.
    expect(decodeBodyFor(messageOf('[]int32'), 0, fromHex('000000020000000700000009')!)).toEqual({ value: [8, 10] });
  });

  it('is how explain reads', () => {
    expect(explainValue('int32', 0, { value: 7 })).toMatchObject({ value: 7, display: '7', size: 4 });
    readInt32PlusOne();
    expect(explainValue('int32', 0, { value: 7 })).toMatchObject({ value: 8, display: '8', size: 4 });
  });

  it.each([['generated code', undefined], ['interpreter', false]] as const)('is how the %s writes', (_name, codegen) => {
    setCodegen(codegen);
    expect(toHex(encodeBodyFor(messageOf('int32'), 0, { value: 7 }))).toBe('00000007');
    mutableWrites[INT32] = { ...savedWrites[INT32]!, write: (v) => { b.tape[b.t++] = v + 1; }, writeSource: 'b.tape[b.t++] = v + 1;' };
    expect(toHex(encodeBodyFor(messageOf('int32'), 0, { value: 7 }))).toBe('00000008');
    expect(toHex(encodeBodyFor(messageOf('[]int32'), 0, { value: [7, 9] }))).toBe('00000002000000080000000a');
  });

  it('is the check both writers make', () => {
    for (const codegen of [undefined, false] as const) {
      setCodegen(codegen);
      mutableWrites[INT32] = { ...savedWrites[INT32]!, expected: 'an even int32', accepts: (v) => (v | 0) === v && v % 2 === 0,
        acceptsSource: '(v | 0) === v && v % 2 === 0' };
      expect(toHex(encodeBodyFor(messageOf('int32'), 0, { value: 6 }))).toBe('00000006');
      expect(() => encodeBodyFor(messageOf('int32'), 0, { value: 7 })).toThrow('expected an even int32, got 7');
    }
  });

  it('is the prefix explain labels and the size the plan counts', () => {
    // A string's int16 length prefix, as its row says, in the note and in the smallest body the plan allows.
    expect(explainValue('string', 0, { value: 'ab' })).toMatchObject({ note: 'int16 len=2', size: 4 });
    expect(bodyPlanFor(messageOf('string'), 0).body.minSize).toBe(2);
    mutableKinds[STRING] = { ...savedKinds[STRING]!, lengthPrefix: 4 };
    expect(explainValue('string', 0, { value: 'ab' }).note).toBe('int32 len=2');
    expect(bodyPlanFor(messageOf('string'), 0).body.minSize).toBe(4);
  });
});

describe('a structural word changed in the description', () => {
  /** A request of a nullable string array, a nullable struct and (flexible) an int32 tagged field; a fresh one each call. */
  let made = 0;
  function structural(): MessageDef {
    return {
      name: `WalkStructure${made++}Request`, apiKey: 32001, type: 'request', validVersions: [0, 1], flexibleVersions: [1, MAX_VERSION],
      fields: [
        { name: 'value', schemaName: 'Value', type: '[]string', versions: [0, MAX_VERSION], nullableVersions: [0, MAX_VERSION] },
        { name: 'inner', schemaName: 'Inner', type: 'Inner', versions: [0, MAX_VERSION], nullableVersions: [0, MAX_VERSION] },
        { name: 'extra', schemaName: 'Extra', type: 'int32', versions: [1, MAX_VERSION], taggedVersions: [1, MAX_VERSION], tag: 0 },
      ],
      structs: { Inner: { name: 'Inner', fields: [{ name: 'x', schemaName: 'X', type: 'int8', versions: [0, MAX_VERSION] }] } },
    };
  }
  const codegens = [['generated code', undefined], ['interpreter', false]] as const;

  it.each(codegens)('is when the %s reads an array as null', (_name, codegen) => {
    setCodegen(codegen);
    // An empty array: a count of 0, then no elements (so the tape stays in step whichever way it reads).
    const body = fromHex('00000000ff')!;
    expect(decodeBodyFor(structural(), 0, body)).toEqual({ value: [], inner: null, extra: 0 });
    Object.assign(STRUCTURE, { follows: (w: number) => w > 0, followsSource: (w: string) => `${w} > 0` });
    expect(decodeBodyFor(structural(), 0, body)).toEqual({ value: null, inner: null, extra: 0 });
  });

  it('is when explain reads an array as null', () => {
    const at = () => explainNodes('', 0, { value: [], inner: null }, structural()).find((n) => n.path === 'value')!;
    expect(at()).toMatchObject({ value: 0, display: '0 elements' });
    Object.assign(STRUCTURE, { follows: (w: number) => w > 0, followsSource: (w: string) => `${w} > 0` });
    expect(at()).toMatchObject({ value: null, display: 'null' });
  });

  // A tag of 2^32 - 1 (an unknown one, kept as bytes): read as the kind STRUCTURE names, a uint32,
  // it keeps its value; read as an int32 it would be -1.
  const unknownTag = '01ff' + '01' + 'ffffffff0f' + '01' + 'aa'; // an empty compact array, a null struct, one tagged entry
  it.each(codegens)('is the tag the %s reads', (_name, codegen) => {
    setCodegen(codegen);
    expect(decodeBodyFor(structural(), 1, fromHex(unknownTag)!)._unknownTaggedFields).toEqual({ 4294967295: Uint8Array.of(0xaa) });
    Object.assign(STRUCTURE, { tagKind: INT32 });
    expect(decodeBodyFor(structural(), 1, fromHex(unknownTag)!)._unknownTaggedFields).toEqual({ [-1]: Uint8Array.of(0xaa) });
  });

  it('is the tag explain reads', () => {
    const body = { value: [], inner: null, _unknownTaggedFields: { 4294967295: Uint8Array.of(0xaa) } };
    const tags = () => explainNodes('', 1, body, structural()).filter((n) => n.name.startsWith('unknown_tag_')).map((n) => n.name);
    expect(tags()).toEqual(['unknown_tag_4294967295']);
    Object.assign(STRUCTURE, { tagKind: INT32 });
    expect(tags()).toEqual(['unknown_tag_-1']);
  });

  it('is the null and marker words both writers put on the encode tape', () => {
    const tapes = (message: MessageDef, value: unknown) => {
      const s = bodyPlanFor(message, 0).body;
      return [(o: unknown) => writeStruct(s, o), (o: unknown) => generateWriter(s).write(o)].map((write) => {
        b.t = 0;
        b.h = 0;
        write(value);
        return [...b.tape.subarray(0, b.t)];
      });
    };
    expect(tapes(structural(), { value: null, inner: { x: 5 } })).toEqual([[-1, 1, 5], [-1, 1, 5]]);
    Object.assign(STRUCTURE_WRITES, { nullWord: -7, markerWord: 9 });
    expect(tapes(structural(), { value: null, inner: { x: 5 } })).toEqual([[-7, 9, 5], [-7, 9, 5]]);
    expect(tapes(structural(), { value: [], inner: null })).toEqual([[0, -7], [0, -7]]);
  });
});

describe('a JSON row changed in the description', () => {
  it('is the JSON form json.ts writes and reads, and the value explain shows', () => {
    const body = bodyPlanFor(messageOf('int64'), 0).body;
    expect(structToJson(body, { value: 255n })).toEqual({ value: '255' });
    expect(explainValue('int64', 0, { value: 255n }).value).toBe('255');
    (KIND_JSON as unknown[])[INT64] = { ...savedJson[INT64]!, toJson: (v: bigint) => `0x${v.toString(16)}`,
      fromJson: (json: unknown) => (typeof json === 'string' && /^0x[0-9a-f]+$/.test(json) ? BigInt(json) : undefined), expectedJson: 'an int64 in hex' };
    expect(structToJson(body, { value: 255n })).toEqual({ value: '0xff' });
    expect(structFromJson(body, { value: '0xff' }, 'body')).toEqual({ value: 255n });
    expect(() => structFromJson(body, { value: '255' }, 'body')).toThrow('expected an int64 in hex');
    expect(explainValue('int64', 0, { value: 255n }).value).toBe('0xff');
  });
});

describe('explain shows every kind as the decoders read it', () => {
  // One value of each kind: explain's node carries the decoded value in its JSON form.
  const uuid = 'AAECAwQFBgcICQoLDA0ODw';
  const values: [string, unknown, unknown][] = [
    ['bool', true, true], ['int8', -128, -128], ['int16', 32767, 32767], ['uint16', 65535, 65535], ['int32', -5, -5],
    ['uint32', 2 ** 32 - 1, 2 ** 32 - 1], ['int64', -2n, '-2'], ['float64', -Infinity, '-Infinity'], ['uuid', uuid, uuid],
    ['string', 'hé', 'hé'], ['bytes', Uint8Array.of(1, 2, 3), '010203'], ['records', new Uint8Array(0), 0],
  ];

  it('covers every row', () => {
    expect(values.map(([type]) => KIND_OF_TYPE[type]).sort((x, y) => x - y)).toEqual(rows.map((k) => k.kind));
  });

  it.each(values)('%s', (type, value, json) => {
    for (const version of [0, 1]) {
      expect(decodeBodyFor(messageOf(type), version, encodeBodyFor(messageOf(type), version, { value }))).toEqual({ value });
      const n = explainValue(type, version, { value });
      expect(n.value).toEqual(json);
      // The same JSON as json.ts writes, and read back by it (records explain shows as their size and batches).
      if (type !== 'records') {
        const body = bodyPlanFor(messageOf(type), version).body;
        expect(structToJson(body, { value })).toEqual({ value: json });
        expect(structFromJson(body, { value: json }, 'body')).toEqual({ value });
      }
      const row = KINDS[KIND_OF_TYPE[type]]!;
      // Its size: the fixed size, or the length prefix and the bytes.
      const length = type === 'string' ? 3 : value instanceof Uint8Array ? value.length : 0;
      expect(n.size).toBe(row.fixedSize || (version === 1 ? 1 : row.lengthPrefix!) + length);
    }
  });
});

describe('the walks', () => {
  // Kinds a walk may still name, and why: records fields wait for the records hook (read.ts,
  // generate.ts) or become record batches (explain), and an unknown tagged field is kept as bytes.
  // json.ts is no walk of the tape but takes each kind's JSON from the description the same way.
  const walks: Record<string, { table: string; may: string[] }> = {
    'src/codec/read.ts': { table: 'KINDS', may: ['BYTES', 'RECORDS'] },
    'src/codec/write.ts': { table: 'KIND_WRITES', may: [] },
    'src/codec/generate.ts': { table: 'KINDS', may: ['RECORDS'] },
    'src/explain/walker.ts': { table: 'KINDS', may: ['RECORDS'] },
    // The JSON form: bytes and records left raw for JsonWriter, records decoded inline as batches.
    'src/codec/json.ts': { table: 'KIND_JSON', may: ['BYTES', 'RECORDS'] },
  };
  const primitiveNames = ['BOOL', 'INT8', 'INT16', 'UINT16', 'INT32', 'UINT32', 'INT64', 'FLOAT64', 'UUID', 'STRING', 'BYTES', 'RECORDS'];

  it.each(Object.entries(walks))('%s takes its kinds from the description', (file, { table, may }) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    expect(text).toMatch(new RegExp(`\\b${table}\\b`));
    const named = primitiveNames.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
    expect(named).toEqual(may);
  });

  // The structural words too: the readers take theirs from STRUCTURE, the writers from STRUCTURE_WRITES.
  it.each([
    ['src/codec/read.ts', ['STRUCTURE']], ['src/codec/write.ts', ['STRUCTURE_WRITES']],
    ['src/codec/generate.ts', ['STRUCTURE', 'STRUCTURE_WRITES']], ['src/explain/walker.ts', ['STRUCTURE']],
  ])('%s takes its structural words from the description', (file, tables) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const table of tables) expect(text).toMatch(new RegExp(`\\b${table}\\b`));
    // No count, marker or tag read off the tape by hand (the interpreter's reader reads no tape word itself).
    if (file === 'src/codec/read.ts') expect(text).not.toMatch(/tape\[/);
  });

  it('has a row for every primitive kind of the ABI and for nothing else', () => {
    expect(primitiveNames.length).toBe(rows.length);
    expect(rows.map((k) => k.type).sort()).toEqual(Object.keys(KIND_OF_TYPE).sort());
  });
});

describe('the order of the walk, said once in walk.ts', () => {
  // A request whose regular fields read the same backwards in shape (int32, nullable struct, two
  // arrays of structs, nullable struct, int32; the struct two int8s), with two int32 tagged fields
  // from v1: walked in another order it still reads and writes whole, so every walk can be seen
  // following an order changed in walk.ts. A fresh message each call (plans, generated readers and
  // writers are kept per message version).
  let made = 0;
  function palindrome(): MessageDef {
    const field = (name: string, type: string, nullable = false) => ({
      name, schemaName: name[0]!.toUpperCase() + name.slice(1), type, versions: [0, MAX_VERSION] as const,
      ...(nullable ? { nullableVersions: [0, MAX_VERSION] as const } : {}),
    });
    const tagged = (name: string, tag: number) => ({ ...field(name, 'int32'), versions: [1, MAX_VERSION] as const, taggedVersions: [1, MAX_VERSION] as const, tag });
    return {
      name: `WalkOrder${made++}Request`, apiKey: 32001, type: 'request', validVersions: [0, 1], flexibleVersions: [1, MAX_VERSION],
      fields: [
        field('a', 'int32'), field('p', 'Inner', true), field('q', '[]Inner'), field('r', '[]Inner'), field('s', 'Inner', true), field('b', 'int32'),
        tagged('t0', 0), tagged('t1', 1),
      ],
      structs: { Inner: { name: 'Inner', fields: [field('x', 'int8'), field('y', 'int8')] } },
    };
  }
  const value = { a: 1, p: { x: 2, y: 3 }, q: [{ x: 4, y: 5 }], r: [], s: null, b: 6, t0: 7, t1: 8 };
  type Inner = { x: number; y: number } | null;
  const mirrorInner = (i: Inner) => i && { x: i.y, y: i.x };
  /** `value` as the walk below takes it: every struct's regular fields backwards, the tagged fields' indexes swapped. */
  const mirrored = { a: 6, p: mirrorInner(value.s), q: [], r: value.q.map(mirrorInner), s: mirrorInner(value.p), b: 1, t0: 8, t1: 7 };

  /** The changed order: a struct's regular fields backwards, and a known tagged index taken from the other end. */
  function walkBackwards(): void {
    ORDER.struct = (s, steps, ctx, holder) => {
      for (let i = s.regular.length - 1; i >= 0; i--) steps.regularField(s.regular[i]!, ctx, holder);
      steps.afterRegular(s, ctx, holder);
      if (s.flexible) steps.taggedSection(s, ctx, holder);
    };
    ORDER.taggedEntry = (s, tag, known, steps, ctx, holder) => {
      if (known >= 0) steps.taggedField(s.tagged[s.tagged.length - 1 - known]!, known, ctx, holder);
      else steps.unknownTag(tag, ctx, holder);
    };
  }

  it('is the order a recording walk sees', () => {
    const seen: string[] = [];
    const steps: WalkSteps<string, null, void> = {
      struct: (s, path) => { ORDER.struct(s, steps, `${path}.`, null); },
      regularField: (f, path) => { seen.push(`${path}${f.name}`); ORDER.field(f, steps, `${path}${f.name}`); },
      afterRegular: (s, path) => { seen.push(`${path}(end of ${s.name}'s regular fields)`); },
      taggedSection: (s, path) => { seen.push(`${path}(tagged section)`); s.tagged.forEach((_, k) => ORDER.taggedEntry(s, -1, k, steps, path, null)); },
      taggedField: (f, known, path) => { seen.push(`${path}${f.name} (tagged ${known})`); ORDER.field(f, steps, `${path}${f.name}`); },
      unknownTag: () => {},
      array: (f, path) => { seen.push(`${path}: count`); ORDER.element(f, steps, `${path}[]`); },
      primitive: (kind, nullable, _f, path) => { seen.push(`${path}: ${KINDS[kind]!.type}${nullable ? '?' : ''}`); },
      nullableStruct: (s, _f, path) => { seen.push(`${path}: marker`); steps.struct(s, path); },
    };
    const s = bodyPlanFor(palindrome(), 1).body;
    ORDER.struct(s, steps, '', null);
    const inner = (at: string) => [`${at}.x`, `${at}.x: int8`, `${at}.y`, `${at}.y: int8`, `${at}.(end of Inner's regular fields)`, `${at}.(tagged section)`];
    expect(seen).toEqual([
      'a', 'a: int32', 'p', 'p: marker', ...inner('p'), 'q', 'q: count', ...inner('q[]'), 'r', 'r: count', ...inner('r[]'),
      's', 's: marker', ...inner('s'), 'b', 'b: int32', `(end of ${s.name}'s regular fields)`,
      '(tagged section)', 't0 (tagged 0)', 't0: int32', 't1 (tagged 1)', 't1: int32',
    ]);
  });

  it.each([['generated code', undefined], ['interpreter', false]] as const)('changed there, is how the %s reads', (_name, codegen) => {
    setCodegen(codegen);
    const bytes = encodeBodyFor(palindrome(), 1, value);
    expect(decodeBodyFor(palindrome(), 1, bytes)).toEqual(value);
    walkBackwards();
    expect(decodeBodyFor(palindrome(), 1, bytes)).toEqual(mirrored);
  });

  it.each([['generated code', undefined], ['interpreter', false]] as const)('changed there, is how the %s writes', (_name, codegen) => {
    setCodegen(codegen);
    const asMirrored = toHex(encodeBodyFor(palindrome(), 1, mirrored));
    expect(toHex(encodeBodyFor(palindrome(), 1, value))).not.toBe(asMirrored);
    walkBackwards();
    expect(toHex(encodeBodyFor(palindrome(), 1, value))).toBe(asMirrored);
  });

  it('changed there, is how explain reads', () => {
    // One frame, written in the order as it was; explained before and after the change.
    const { api, catalogue } = apiOf('', palindrome());
    const frame = encodeRequestFor(api, { requestApiKey: 32001, requestApiVersion: 1, correlationId: 1, clientId: null }, value);
    const leaves = () => flattenTree(buildExplainTree(frame, { direction: 'request', catalogue }).root)
      .filter((n) => /^(a|b|t0|t1|[pqrs](\[\d\])?\.[xy])$/.test(n.path ?? '')).map((n) => [n.path, n.value]);
    expect(leaves()).toEqual([['a', 1], ['p.x', 2], ['p.y', 3], ['q[0].x', 4], ['q[0].y', 5], ['b', 6], ['t0', 7], ['t1', 8]]);
    walkBackwards();
    expect(leaves()).toEqual([['b', 1], ['s.y', 2], ['s.x', 3], ['r[0].y', 4], ['r[0].x', 5], ['a', 6], ['t1', 7], ['t0', 8]]);
  });

  it.each(['src/codec/read.ts', 'src/codec/write.ts', 'src/codec/generate.ts', 'src/explain/walker.ts'])('%s takes the order from there', (file) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    expect(text).toMatch(/\bORDER\.struct\(/);
    // None decides for itself when a tagged section comes, whether a value is a struct, or which field a tagged index is.
    expect(text).not.toMatch(/\.flexible\b|kind !== STRUCT|\.tagged\[/);
  });
});
