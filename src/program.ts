// Compiles a message at one version into what both halves of the codec walk: a CompiledStruct
// tree for the facade (names, defaults, object shape) and its mirror as words in WebAssembly
// memory for assembly/codec.ts. One mechanism for every API, version and header.
import { inVersions, type FieldDef, type MessageDef, type StructDef } from './schema.js';
import { storeProgram } from './wasm/codec-module.js';
import { KafkaWireError } from './errors.js';

// Field kinds; keep in step with assembly/codec.ts.
export const BOOL = 1, INT8 = 2, INT16 = 3, UINT16 = 4, INT32 = 5, UINT32 = 6, INT64 = 7, FLOAT64 = 8;
export const UUID = 9, STRING = 10, BYTES = 11, RECORDS = 12, STRUCT = 13, ARRAY = 14;
const NULLABLE = 1 << 16;
const COMPACT = 1 << 17;
const FLEXIBLE = 1;
/** Every regular field is a fixed-size number or an array of fixed-size integers: the scan's fast path. */
const FLAT = 2;
const FIXED_SIZE_KINDS = new Set([BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64, FLOAT64, UUID]);
const FLAT_ELEMENT_KINDS = new Set([INT16, INT32, UINT32]);

const PRIMITIVE_KINDS: Record<string, number> = {
  bool: BOOL, int8: INT8, int16: INT16, uint16: UINT16, int32: INT32, uint32: UINT32,
  int64: INT64, float64: FLOAT64, uuid: UUID, string: STRING, bytes: BYTES, records: RECORDS,
};

export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** Where decoded objects keep the tagged fields a version does not know, and where encoding takes them from. */
export const UNKNOWN_TAGGED_FIELDS = '_unknownTaggedFields';

export interface CompiledField {
  readonly name: string;
  readonly def: FieldDef;
  /** Whether the field exists in this version (absent fields keep their default). */
  readonly present: boolean;
  readonly kind: number;
  /** For arrays, the element kind. */
  readonly elementKind: number;
  readonly nullable: boolean;
  readonly compact: boolean;
  /** The struct of a struct field or of an array's elements. */
  readonly struct: CompiledStruct | null;
  /** The tag when the field is tagged in this version, else -1. */
  readonly tag: number;
  /** A fresh default value (a new array or struct each call, so defaults are never shared). */
  readonly makeDefault: () => unknown;
  /** The default when it is immutable (for quick comparisons), else undefined. */
  readonly defaultValue: unknown;
}

export interface CompiledStruct {
  /** Schema name of the struct, or the message name for the top level. */
  readonly name: string;
  readonly version: number;
  readonly flexible: boolean;
  /** Every field of the struct in schema order: the shape of its objects in any version. */
  readonly fields: readonly CompiledField[];
  /** Fields on the wire in this version, in order, excluding tagged ones. */
  readonly regular: readonly CompiledField[];
  /** Tagged fields of this version, by ascending tag. */
  readonly tagged: readonly CompiledField[];
  /** Fields this version lacks. */
  readonly absent: readonly CompiledField[];
  /**
   * Throws UNKNOWN_FIELD when `o` has a property other than the struct's fields in any version
   * and _unknownTaggedFields (call it through checkKnownFields).
   */
  readonly checkFields: (o: object) => void;
  /** The fewest bytes an instance can take. */
  readonly minSize: number;
  /** Byte address of the struct block in WebAssembly memory. */
  ptr: number;
  /** A new object with every field at its default, always built in the same property order. */
  create(): Record<string, any>;
}

/** Every compiled op address → its field and struct, for error paths. */
export const opFields = new Map<number, CompiledField>();
const compiledMessages = new Map<MessageDef, CompiledStruct[]>();

export function compileMessage(message: MessageDef, version: number): CompiledStruct {
  let byVersion = compiledMessages.get(message);
  if (byVersion === undefined) compiledMessages.set(message, (byVersion = []));
  let compiled = byVersion[version];
  if (compiled === undefined) {
    const flexible = inVersions(message.flexibleVersions, version);
    const structs = new Map<string, CompiledStruct>();
    compiled = compileStruct({ name: message.name, fields: message.fields }, message, version, flexible, structs);
    byVersion[version] = compiled;
  }
  return compiled;
}

function compileStruct(
  def: StructDef, message: MessageDef, version: number, flexible: boolean,
  structs: Map<string, CompiledStruct>,
): CompiledStruct {
  const fields = def.fields.map((field) => compileField(field, message, version, flexible, structs));
  const regular = fields.filter((f) => f.present && f.tag < 0);
  const tagged = fields.filter((f) => f.present && f.tag >= 0).sort((a, b) => a.tag - b.tag);
  const absent = fields.filter((f) => !f.present);
  const template: Record<string, unknown> = {};
  const fresh: CompiledField[] = [];
  for (const f of fields) {
    template[f.name] = f.defaultValue;
    if (f.defaultValue === undefined) fresh.push(f);
  }
  const struct: CompiledStruct = {
    name: def.name,
    version,
    flexible,
    fields,
    regular,
    tagged,
    absent,
    checkFields: fieldsChecker([...fields.map((f) => f.name), UNKNOWN_TAGGED_FIELDS], (name) => { throw unknownField(struct, name); }),
    minSize: regular.reduce((sum, f) => sum + minFieldSize(f), flexible ? 1 : 0),
    ptr: 0,
    create() {
      const o = { ...template };
      for (let i = 0; i < fresh.length; i++) o[fresh[i].name] = fresh[i].makeDefault();
      return o;
    },
  };
  // The WebAssembly mirror: [regularCount, taggedCount, flags] then 4 words per op.
  const flat = regular.every((f) => FIXED_SIZE_KINDS.has(f.kind) || (f.kind === ARRAY && FLAT_ELEMENT_KINDS.has(f.elementKind)));
  const words = [regular.length, tagged.length, (flexible ? FLEXIBLE : 0) | (flat ? FLAT : 0)];
  for (const f of [...regular, ...tagged]) {
    const word = f.kind | (f.elementKind << 8) | (f.nullable ? NULLABLE : 0) | (f.compact ? COMPACT : 0);
    const elementMin = f.kind === ARRAY ? minValueSize(f.elementKind, f.compact, false, f.struct) : 0;
    words.push(word, f.struct?.ptr ?? 0, f.tag, elementMin);
  }
  struct.ptr = storeProgram(words);
  // Error paths name fields by their op's address (after the 12-byte header, 16 bytes per op).
  [...regular, ...tagged].forEach((f, i) => opFields.set(struct.ptr + 12 + i * 16, f));
  return struct;
}

function compileField(
  def: FieldDef, message: MessageDef, version: number, messageFlexible: boolean,
  structs: Map<string, CompiledStruct>,
): CompiledField {
  const present = inVersions(def.versions, version);
  const isArray = def.type.startsWith('[]');
  const typeName = isArray ? def.type.slice(2) : def.type;
  const primitive = PRIMITIVE_KINDS[typeName];
  let struct: CompiledStruct | null = null;
  if (primitive === undefined) {
    struct = structs.get(typeName) ?? null;
    if (struct === null) {
      const structDef = message.structs[typeName];
      if (structDef === undefined) throw new Error(`${message.name}: unknown type ${def.type}`);
      struct = compileStruct(structDef, message, version, messageFlexible, structs);
      structs.set(typeName, struct);
    }
  }
  const valueKind = primitive ?? STRUCT;
  const kind = isArray ? ARRAY : valueKind;
  const nullable = present && inVersions(def.nullableVersions, version);
  const tagged = present && messageFlexible && def.tag !== undefined && inVersions(def.taggedVersions, version);
  const { makeDefault, defaultValue } = defaults(def, kind, valueKind, struct);
  return {
    name: def.name,
    def,
    present,
    kind,
    elementKind: isArray ? valueKind : 0,
    nullable,
    compact: def.flexibleVersions !== undefined ? inVersions(def.flexibleVersions, version) : messageFlexible,
    struct,
    tag: tagged ? def.tag! : -1,
    makeDefault,
    defaultValue,
  };
}

function defaults(def: FieldDef, kind: number, valueKind: number, struct: CompiledStruct | null) {
  const given = def.default;
  if (given === null) return { makeDefault: () => null, defaultValue: null };
  if (kind === ARRAY) return { makeDefault: () => [], defaultValue: undefined };
  switch (valueKind) {
    case BOOL: return constant(given === undefined ? false : given === true || given === 'true');
    case INT64: return constant(given === undefined ? 0n : BigInt(given as bigint | number | string));
    case FLOAT64: return constant(given === undefined ? 0 : Number(given));
    case STRING: return constant(given === undefined ? '' : String(given));
    case UUID: return constant(given === undefined ? ZERO_UUID : String(given));
    case BYTES: return { makeDefault: () => new Uint8Array(0), defaultValue: undefined };
    case RECORDS: return constant(null);
    case STRUCT: return { makeDefault: () => struct!.create(), defaultValue: undefined };
    default: return constant(given === undefined ? 0 : Number(given));
  }
}

function constant(value: unknown) {
  return { makeDefault: () => value, defaultValue: value };
}

function minValueSize(kind: number, compact: boolean, nullable: boolean, struct: CompiledStruct | null): number {
  switch (kind) {
    case BOOL: case INT8: return 1;
    case INT16: case UINT16: return 2;
    case INT32: case UINT32: return 4;
    case INT64: case FLOAT64: return 8;
    case UUID: return 16;
    case STRING: return compact ? 1 : 2;
    case BYTES: case RECORDS: case ARRAY: return compact ? 1 : 4;
    case STRUCT: return nullable ? 1 : struct!.minSize;
    default: return 0;
  }
}

function minFieldSize(f: CompiledField): number {
  return minValueSize(f.kind, f.compact, f.nullable, f.struct);
}

// ---- property names ----

/**
 * Throws UNKNOWN_FIELD, at the path of the property, when `o` has a property no version of the
 * struct has (a misspelling would otherwise be dropped and its field sent as the default).
 * Both writers and newMessage call it on every struct object before reading its fields.
 */
export function checkKnownFields(s: CompiledStruct, o: object): void {
  s.checkFields(o);
}

function fieldsChecker(names: readonly string[], fail: (name: string) => never): (o: object) => void {
  try {
    // A switch over the names compares the interned keys for-in yields by identity: a Set lookup
    // hashes each one, and made Metadata encode measurably slower.
    const cases = names.map((name) => `case ${JSON.stringify(name)}:`).join(' ');
    return new Function('fail', `return function checkFields(o) {
      for (const name in o) { switch (name) { ${cases} continue; } fail(name); }
    };`)(fail);
  } catch {
    // Where a Content-Security-Policy forbids generated code.
    const known = new Set(names);
    return (o) => {
      for (const name in o) if (!known.has(name)) fail(name);
    };
  }
}

function unknownField(s: CompiledStruct, name: string): KafkaWireError {
  const close = closestName(name, s.fields.map((f) => f.name));
  return new KafkaWireError('UNKNOWN_FIELD', -1, name,
    `unknown field (no version of ${s.name} has it)${close === undefined ? '' : `; did you mean "${close}"?`}`);
}

/** The one candidate within a small edit distance of `name` (case ignored), if exactly one is closest. */
function closestName(name: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let ties = 0;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) { best = candidate; bestDistance = d; ties = 1; }
    else if (d === bestDistance) ties++;
  }
  return ties === 1 ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) { rows[0].push(j); continue; }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/**
 * A new object of struct `s` with `given`'s properties over the defaults at every depth (structs
 * inside structs and arrays are completed too), so the result has every field however little was given.
 * Values of the wrong type are kept for the encoder to report.
 */
export function completeStruct(s: CompiledStruct, given: object): Record<string, any> {
  checkKnownFields(s, given);
  const o = s.create();
  for (const f of s.fields) {
    const v = (given as Record<string, unknown>)[f.name];
    if (v === undefined) continue;
    try {
      o[f.name] = f.struct === null ? v
        : f.kind !== ARRAY ? completeValue(f.struct, v)
        : Array.isArray(v) ? v.map((item, i) => completeItem(f.struct!, item, i)) : v;
    } catch (error) {
      if (error instanceof KafkaWireError) throw error.within(f.name);
      throw error;
    }
  }
  const unknownTagged = (given as Record<string, unknown>)[UNKNOWN_TAGGED_FIELDS];
  if (unknownTagged !== undefined) o[UNKNOWN_TAGGED_FIELDS] = unknownTagged;
  return o;
}

function completeValue(s: CompiledStruct, v: unknown): unknown {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? completeStruct(s, v) : v;
}

function completeItem(s: CompiledStruct, item: unknown, i: number): unknown {
  try {
    return completeValue(s, item);
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(`[${i}]`);
    throw error;
  }
}
