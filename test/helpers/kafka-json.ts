// The mapping between kafka-wire's JSON form of a message (src/codec/json.ts) and Kafka's, the one
// its generated *DataJsonConverter classes read and write, so the referee test
// (test/peers/kafka-referee.test.ts) can compare Kafka's values with kafka-wire's. Both directions
// are driven by kafka-wire's compiled struct for the message version: each value is read by its
// schema type, never guessed from its JSON shape.
//
// Per type, kafka-wire's form  <->  Kafka's form:
//   bool                        true/false           <->  true/false
//   int8/16/32, uint16, uint32  JSON number          <->  JSON number
//   int64                       decimal string       <->  JSON number (all 64 bits; Jackson's LongNode)
//   float64                     JSON number, or the  <->  JSON number with a fraction or exponent (the
//                               strings "NaN",            converter rejects an integer token such as 0,
//                               "Infinity",               so 0 goes as 0.0), and NaN/Infinity/-Infinity
//                               "-Infinity"               as the bare tokens Jackson accepts when asked;
//                                                         Kafka writes them back as strings
//   string                      string               <->  string
//   uuid                        22-char base64url    <->  the same: Kafka's Uuid.toString
//   bytes, records              lowercase hex        <->  standard base64 with padding (Jackson's binary
//                                                         nodes); records as their raw bytes, since the
//                                                         converters are asked to serialize records
//   nullable null               null                 <->  null
//   struct, array               object, array        <->  object, array
//   unknown tagged fields       _unknownTaggedFields <->  _unknownTaggedFields {tag: base64}: not Kafka's,
//                               {tag: hex}                added by the referee (kafka/referee) from the
//                                                         *Data objects, which keep them
// Fields: both forms leave out the fields the version lacks. Kafka's converters also leave out a
// tagged field holding its default; such a field takes kafka-wire's default for it here. Any other
// field missing from Kafka's JSON, or one there that the version lacks, is an error naming its path.
//
// The referee writes every number as a string (so JSON.parse keeps int64s whole); the Kafka-to-
// kafka-wire direction therefore reads numbers from strings, checking each is a number of its type.
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UNKNOWN_TAGGED_FIELDS, UUID,
  type CompiledField, type CompiledStruct,
} from '../../src/codec/plan.js';
import { structToJson } from '../../src/codec/json.js';

const INTEGER = /^-?[0-9]+$/;
const FLOAT_SPECIALS = new Set(['NaN', 'Infinity', '-Infinity']);

function fail(path: string, detail: string): never {
  throw new Error(`${path}: ${detail}`);
}

// --- Kafka's JSON -> kafka-wire's JSON ------------------------------------------------------------

const defaultsOf = new WeakMap<CompiledStruct, Record<string, unknown>>();

/** kafka-wire's JSON of a struct with every field at its default. */
function defaults(s: CompiledStruct): Record<string, unknown> {
  let d = defaultsOf.get(s);
  if (d === undefined) {
    d = structToJson(s, s.create());
    defaultsOf.set(s, d);
  }
  return d;
}

function base64ToHex(v: unknown, path: string): string {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) fail(path, `expected base64, Kafka gave ${JSON.stringify(v)}`);
  return Buffer.from(v, 'base64').toString('hex');
}

function integerFrom(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'string' || !INTEGER.test(v)) fail(path, `expected an integer, Kafka gave ${JSON.stringify(v)}`);
  const n = Number(v);
  if (n < min || n > max) fail(path, `${v} is out of range`);
  return n;
}

function valueFromKafka(kind: number, struct: CompiledStruct | null, v: unknown, path: string): unknown {
  switch (kind) {
    case BOOL:
      if (typeof v !== 'boolean') fail(path, `expected a boolean, Kafka gave ${JSON.stringify(v)}`);
      return v;
    case INT8: return integerFrom(v, path, -128, 127);
    case INT16: return integerFrom(v, path, -32768, 32767);
    case UINT16: return integerFrom(v, path, 0, 65535);
    case INT32: return integerFrom(v, path, -(2 ** 31), 2 ** 31 - 1);
    case UINT32: return integerFrom(v, path, 0, 2 ** 32 - 1);
    case INT64:
      if (typeof v !== 'string' || !INTEGER.test(v)) fail(path, `expected an int64, Kafka gave ${JSON.stringify(v)}`);
      return BigInt.asIntN(64, BigInt(v)).toString();
    case FLOAT64: {
      if (typeof v !== 'string') fail(path, `expected a float64, Kafka gave ${JSON.stringify(v)}`);
      if (FLOAT_SPECIALS.has(v)) return v;
      const n = Number(v);
      if (!Number.isFinite(n)) fail(path, `expected a float64, Kafka gave ${JSON.stringify(v)}`);
      return n;
    }
    case STRING: case UUID:
      if (typeof v !== 'string') fail(path, `expected a string, Kafka gave ${JSON.stringify(v)}`);
      return v;
    case BYTES: case RECORDS: return base64ToHex(v, path);
    case STRUCT: return kafkaToWireJson(struct!, v, path);
  }
  return fail(path, `unknown kind ${kind}`);
}

function fieldFromKafka(f: CompiledField, v: unknown, path: string): unknown {
  if (v === null) {
    if (!f.nullable) fail(path, 'Kafka gave null for a field that is not nullable in this version');
    return null;
  }
  if (f.kind !== ARRAY) return valueFromKafka(f.kind, f.struct, v, path);
  if (!Array.isArray(v)) fail(path, `expected an array, Kafka gave ${JSON.stringify(v)}`);
  return v.map((item, i) => valueFromKafka(f.elementKind, f.struct, item, `${path}[${i}]`));
}

/** Kafka's JSON of a struct (numbers as strings, as the referee writes them) in kafka-wire's JSON form. */
export function kafkaToWireJson(s: CompiledStruct, kafka: unknown, path: string = s.name): Record<string, unknown> {
  if (kafka === null || typeof kafka !== 'object' || Array.isArray(kafka)) fail(path, `expected an object, Kafka gave ${JSON.stringify(kafka)}`);
  const k = kafka as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const known = new Set<string>([UNKNOWN_TAGGED_FIELDS]);
  for (const f of s.fields) {
    if (!f.present) continue;
    known.add(f.name);
    const at = `${path}.${f.name}`;
    if (f.name in k) out[f.name] = fieldFromKafka(f, k[f.name], at);
    else if (f.tag >= 0) out[f.name] = defaults(s)[f.name];
    else fail(at, `Kafka's JSON lacks this field of v${s.version}`);
  }
  for (const name of Object.keys(k)) {
    if (!known.has(name)) fail(`${path}.${name}`, `Kafka's JSON has a field v${s.version} lacks`);
  }
  const unknown = k[UNKNOWN_TAGGED_FIELDS] as Record<string, unknown> | undefined;
  if (unknown !== undefined) {
    const tags: Record<string, string> = {};
    for (const tag of Object.keys(unknown)) tags[tag] = base64ToHex(unknown[tag], `${path}.${UNKNOWN_TAGGED_FIELDS}.${tag}`);
    out[UNKNOWN_TAGGED_FIELDS] = tags;
  }
  return out;
}

// --- kafka-wire's JSON -> Kafka's JSON (as text, so int64s keep all their digits) --------------------

function hexToBase64(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

function float64Text(v: unknown): string {
  if (typeof v === 'string') return v; // NaN, Infinity, -Infinity: bare tokens
  const n = v as number;
  if (Object.is(n, -0)) return '-0.0';
  const text = String(n);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

function valueToKafka(kind: number, struct: CompiledStruct | null, v: unknown): string {
  switch (kind) {
    case INT64: return v as string; // kafka-wire's decimal string is a JSON integer token as it stands
    case FLOAT64: return float64Text(v);
    case BYTES: case RECORDS: return JSON.stringify(hexToBase64(v as string));
    case STRUCT: return wireToKafkaJsonText(struct!, v as Record<string, unknown>);
    default: return JSON.stringify(v); // bool, the other integers, string, uuid
  }
}

function fieldToKafka(f: CompiledField, v: unknown): string {
  if (v === null) return 'null';
  if (f.kind !== ARRAY) return valueToKafka(f.kind, f.struct, v);
  return `[${(v as unknown[]).map((item) => valueToKafka(f.elementKind, f.struct, item)).join(',')}]`;
}

/** kafka-wire's JSON of a struct (structToJson's form) as the JSON text Kafka's converter reads. */
export function wireToKafkaJsonText(s: CompiledStruct, wire: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const f of s.fields) {
    if (f.present && f.name in wire) parts.push(`${JSON.stringify(f.name)}:${fieldToKafka(f, wire[f.name])}`);
  }
  const unknown = wire[UNKNOWN_TAGGED_FIELDS] as Record<string, string> | undefined;
  if (unknown !== undefined) {
    const tags = Object.keys(unknown).map((tag) => `${JSON.stringify(tag)}:${JSON.stringify(hexToBase64(unknown[tag]))}`);
    parts.push(`${JSON.stringify(UNKNOWN_TAGGED_FIELDS)}:{${tags.join(',')}}`);
  }
  return `{${parts.join(',')}}`;
}

// --- comparing --------------------------------------------------------------------------------------

/** Where two JSON values first differ ("path: a vs b"), or null when they are equal. Numbers by Object.is. */
export function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) ? null : `${path}: ${a} vs ${b}`;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  if (Array.isArray(a)) {
    const bArray = b as unknown[];
    if (a.length !== bArray.length) return `${path}: ${a.length} items vs ${bArray.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], bArray[i], `${path}[${i}]`);
      if (d !== null) return d;
    }
    return null;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(key in ao)) return `${path}.${key}: absent vs ${JSON.stringify(bo[key])}`;
    if (!(key in bo)) return `${path}.${key}: ${JSON.stringify(ao[key])} vs absent`;
    const d = firstDifference(ao[key], bo[key], `${path}.${key}`);
    if (d !== null) return d;
  }
  return null;
}

/** Where two hex strings first differ, as a byte offset with a little of each side. */
export function firstByteDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const offset = i >> 1;
  const from = Math.max(0, offset - 4) * 2;
  return `lengths ${a.length / 2} vs ${b.length / 2}, first difference at byte ${offset}: …${a.slice(from, from + 24)}… vs …${b.slice(from, from + 24)}…`;
}
