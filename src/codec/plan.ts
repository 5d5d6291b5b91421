// Plans: a message at one version compiled into what both halves of the codec walk, a
// CompiledStruct tree for the facade (names, defaults, object shape) and its mirror as words in
// WebAssembly memory for assembly/codec.ts, built once per message version and kept in one cache.
// One mechanism for every API, version and header.
import { declaredHeaderVersion, inVersions, type FieldDef, type MessageDef, type StructDef } from '../catalogue/schema.js';
import { storeProgram } from './engine.js';
import { headerFor } from '../catalogue/headers.js';
import { KafkaWireError } from '../errors.js';

import {
  ARRAY, BOOL, BYTES, COMPACT, ELEMENT_KIND_SHIFT, FLAT, FLEXIBLE, FLOAT64, INT16, INT32, INT64, INT8, NULLABLE, OP_SIZE,
  RECORDS, STRING, STRUCT, STRUCT_HEADER, UINT16, UINT32, UUID,
} from '../wasm/abi.js';
import { ARRAY_COUNT_PREFIX, KIND_OF_TYPE, KINDS, ZERO_UUID } from './kinds.js';

export { ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID };
/** Array elements the scan's fast path takes (one tape word each). */
const FLAT_ELEMENT_KINDS = new Set([INT16, INT32, UINT32]);

export { ZERO_UUID };
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
   * and _unknownTaggedFields; built on the first encode by known-fields.ts (decoding never needs it).
   */
  checkFields?: (o: object) => void;
  /** The fewest bytes an instance can take. */
  readonly minSize: number;
  /** Byte address of the struct block in WebAssembly memory. */
  ptr: number;
  /** A new object with every field at its default, always built in the same property order. */
  create(): Record<string, any>;
}

/** Every compiled op address → its field and struct, for error paths. */
export const opFields = new Map<number, CompiledField>();

/** The compiled header and body of one message version. */
export interface MessagePlan {
  header: CompiledStruct;
  body: CompiledStruct;
  headerVersion: number;
}

/** A body without a header (decodeBody/encodeBody). */
export interface BodyPlan {
  header: null;
  body: CompiledStruct;
}

/** What the cache keeps per message version: the body plan, and the full plan once asked for. */
interface VersionPlans {
  bodyOnly: BodyPlan;
  full: MessagePlan | undefined;
}

const plans = new WeakMap<MessageDef, VersionPlans[]>();

function checkVersion(message: MessageDef, version: number): void {
  if (!(Number.isInteger(version) && version >= message.validVersions[0] && version <= message.validVersions[1])) {
    throw new KafkaWireError('UNSUPPORTED_VERSION', -1, '',
      `${message.name} has versions ${message.validVersions[0]}-${message.validVersions[1]}, not ${version}`);
  }
}

/** The cached plans of one message version, compiled on first use (every encode and decode starts here). */
function versionPlans(message: MessageDef, version: number): VersionPlans {
  let byVersion = plans.get(message);
  if (byVersion === undefined) plans.set(message, (byVersion = []));
  let cached = byVersion[version];
  if (cached === undefined) {
    checkVersion(message, version);
    const flexible = inVersions(message.flexibleVersions, version);
    const body = compileStruct({ name: message.name, fields: message.fields }, message, version, flexible, new Map());
    byVersion[version] = cached = { bodyOnly: { header: null, body }, full: undefined };
  }
  return cached;
}

/** The plan of a bare body of one message version. */
export function bodyPlanFor(message: MessageDef, version: number): BodyPlan {
  return versionPlans(message, version).bodyOnly;
}

/** The plan of a whole frame of one message version: its header and body. */
export function planForMessage(message: MessageDef, version: number): MessagePlan {
  const cached = versionPlans(message, version);
  if (cached.full === undefined) {
    const headerVersion = headerVersionFor(message, version);
    const header = bodyPlanFor(headerFor(message), headerVersion).body;
    cached.full = { header, body: cached.bodyOnly.body, headerVersion };
  }
  return cached.full;
}

/**
 * The header version a message version travels with: the schema's "headerVersions" (KIP-1313)
 * when it has one, else the built-in rule: requests v2 when flexible, else v1 (ControlledShutdown
 * v0: v0); responses v1 when flexible, else v0 (ApiVersions: always v0).
 */
export function headerVersionFor(message: MessageDef, version: number): number {
  const declared = declaredHeaderVersion(message, version);
  if (declared !== undefined) return declared;
  const flexible = inVersions(message.flexibleVersions, version);
  if (message.type === 'request') return message.apiKey === 7 && version === 0 ? 0 : flexible ? 2 : 1;
  return message.apiKey === 18 ? 0 : flexible ? 1 : 0;
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
    checkFields: undefined, // in the literal so that setting it later keeps one object shape
    minSize: regular.reduce((sum, f) => sum + minFieldSize(f), flexible ? 1 : 0),
    ptr: 0,
    create() {
      const o = { ...template };
      for (let i = 0; i < fresh.length; i++) o[fresh[i].name] = fresh[i].makeDefault();
      return o;
    },
  };
  // The WebAssembly mirror (src/wasm/abi.ts): [regularCount, taggedCount, flags] then 4 words per op.
  const flat = regular.every((f) => (KINDS[f.kind]?.fixedSize ?? 0) > 0 || (f.kind === ARRAY && FLAT_ELEMENT_KINDS.has(f.elementKind)));
  const words = [regular.length, tagged.length, (flexible ? FLEXIBLE : 0) | (flat ? FLAT : 0)];
  for (const f of [...regular, ...tagged]) {
    const word = f.kind | (f.elementKind << ELEMENT_KIND_SHIFT) | (f.nullable ? NULLABLE : 0) | (f.compact ? COMPACT : 0);
    const elementMin = f.kind === ARRAY ? minValueSize(f.elementKind, f.compact, false, f.struct) : 0;
    words.push(word, f.struct?.ptr ?? 0, f.tag, elementMin);
  }
  struct.ptr = storeProgram(words);
  // Error paths name fields by their op's address.
  [...regular, ...tagged].forEach((f, i) => opFields.set(struct.ptr + STRUCT_HEADER + i * OP_SIZE, f));
  return struct;
}

function compileField(
  def: FieldDef, message: MessageDef, version: number, messageFlexible: boolean,
  structs: Map<string, CompiledStruct>,
): CompiledField {
  const present = inVersions(def.versions, version);
  const isArray = def.type.startsWith('[]');
  const typeName = isArray ? def.type.slice(2) : def.type;
  const primitive = KIND_OF_TYPE[typeName];
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
  if (valueKind === STRUCT) return { makeDefault: () => struct!.create(), defaultValue: undefined };
  // Bytes are mutable: a fresh zero each time. Records take no schema default.
  if (valueKind === BYTES) return { makeDefault: KINDS[BYTES]!.zero, defaultValue: undefined };
  if (given === undefined || valueKind === RECORDS) return constant(KINDS[valueKind]!.zero());
  switch (valueKind) {
    case BOOL: return constant(given === true || given === 'true');
    case INT64: return constant(BigInt(given as bigint | number | string));
    case STRING: case UUID: return constant(String(given));
    default: return constant(Number(given));
  }
}

function constant(value: unknown) {
  return { makeDefault: () => value, defaultValue: value };
}

function minValueSize(kind: number, compact: boolean, nullable: boolean, struct: CompiledStruct | null): number {
  if (kind === STRUCT) return nullable ? 1 : struct!.minSize;
  const row = KINDS[kind];
  // A length or count: one uvarint byte in flexible versions, else its fixed prefix.
  return row?.fixedSize || (compact ? 1 : (row?.lengthPrefix ?? ARRAY_COUNT_PREFIX));
}

function minFieldSize(f: CompiledField): number {
  return minValueSize(f.kind, f.compact, f.nullable, f.struct);
}
