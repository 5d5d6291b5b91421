// Test helper: schema-driven test data. `richBody` fills every field a message has in one version
// with distinct, non-default values (several array elements, nulls where the version allows them,
// tagged fields, unknown tags); `wireLeaves` lists a body's values in the order they go on the
// wire, each with its dotted path ("topics[].partitions[].partitionIndex"). Both read only the
// schema facts of the catalogue (field names, types, version ranges, tags), not the codec.

import { apis } from '../../src/index.js';
import type { FieldDef, MessageDef, StructDef } from '../../src/index.js';
import { inVersions } from '../../src/catalogue/schema.js';

export type Direction = 'request' | 'response';

export function messageDef(apiKey: number, direction: Direction): MessageDef {
  const api = apis.find((a) => a.apiKey === apiKey);
  if (!api) throw new Error(`no API ${apiKey}`);
  return direction === 'request' ? api.request : api.response;
}

export function isFlexibleVersion(message: MessageDef, version: number): boolean {
  return inVersions(message.flexibleVersions, version);
}

const PRIMITIVES = new Set(['bool', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'float64', 'string', 'bytes', 'records', 'uuid']);

/** The fields of `fields` present in `version`: regular ones in schema order, then tagged ones by tag. */
export function wireFields(fields: readonly FieldDef[], version: number, flexible: boolean): FieldDef[] {
  const present = fields.filter((f) => inVersions(f.versions, version));
  const isTagged = (f: FieldDef) => flexible && inVersions(f.taggedVersions, version);
  return [
    ...present.filter((f) => !isTagged(f)),
    ...present.filter(isTagged).sort((a, b) => a.tag! - b.tag!),
  ];
}

export function isTaggedIn(f: FieldDef, version: number, flexible: boolean): boolean {
  return flexible && inVersions(f.taggedVersions, version);
}

export interface RichContext {
  apiKey: number;
  direction: Direction;
  version: number;
  path: string;
  field: FieldDef;
}

export interface RichOptions {
  /** Elements per array (default 2). */
  arrayLength?: number;
  /** Records fields: the bytes to put there (default: 12 bytes of 0xEE, not a valid batch). */
  records?: (ctx: RichContext) => Uint8Array | null;
  /** Per-path overrides: return undefined to keep the generated value. */
  override?: (ctx: RichContext, generated: unknown) => unknown;
  /** Unknown tagged fields to add to the top-level struct of flexible versions. */
  unknownTags?: Record<number, Uint8Array>;
  /** Make nullable fields null every this many (default 3; 0 never). */
  nullEvery?: number;
  /** First counter value (default 1). */
  seed?: number;
}

/** A deterministic uuid from n, as Kafka's 22-character base64url. */
export function uuidFor(n: number): string {
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = (n * 37 + i * 11 + 1) & 0xff;
  return Buffer.from(bytes).toString('base64url');
}

export function richBody(apiKey: number, direction: Direction, version: number, options: RichOptions = {}): any {
  const message = messageDef(apiKey, direction);
  const flexible = isFlexibleVersion(message, version);
  let counter = options.seed ?? 1;
  const arrayLength = options.arrayLength ?? 2;
  const nullEvery = options.nullEvery ?? 3;
  let nullable = 0;
  const wantNull = (f: FieldDef) => {
    if (!inVersions(f.nullableVersions, version) || nullEvery === 0) return false;
    return ++nullable % nullEvery === 0;
  };

  const struct = (s: { fields: readonly FieldDef[] }, prefix: string, depth: number): any => {
    const o: any = {};
    for (const f of wireFields(s.fields, version, flexible)) {
      const path = prefix ? `${prefix}.${f.name}` : f.name;
      const ctx: RichContext = { apiKey, direction, version, path, field: f };
      let v = value(f, f.type, path, depth, ctx);
      if (options.override) {
        const o2 = options.override(ctx, v);
        if (o2 !== undefined) v = o2;
      }
      o[f.name] = v;
    }
    return o;
  };

  const primitive = (type: string, f: FieldDef, ctx: RichContext, inArray: boolean): any => {
    const n = counter++;
    switch (type) {
      case 'bool': return n % 2 === 0;
      case 'int8': return (n % 100) + 1;
      case 'int16': return (n * 7) % 30000 + 1;
      case 'uint16': return (n * 7) % 60000 + 1;
      case 'int32': return n * 1001;
      case 'uint32': return n * 100_003;
      case 'int64': return BigInt(n) * 1_000_000_007n;
      case 'float64': return n + 0.25;
      case 'uuid': return uuidFor(n);
      case 'string': return `${f.name}-${n}`;
      case 'bytes': return Uint8Array.from({ length: 3 + (n % 5) }, (_, i) => (n + i) & 0xff);
      case 'records': return options.records ? options.records(ctx) : new Uint8Array(12).fill(0xee);
    }
    throw new Error(`unknown primitive ${type} (${inArray})`);
  };

  const value = (f: FieldDef, type: string, path: string, depth: number, ctx: RichContext): any => {
    if (wantNull(f)) return null;
    if (type.startsWith('[]')) {
      const element = type.slice(2);
      const length = depth >= 3 ? 1 : arrayLength;
      const items: any[] = [];
      for (let i = 0; i < length; i++) {
        items.push(PRIMITIVES.has(element)
          ? primitive(element, f, ctx, true)
          : struct(structOf(message, element), `${path}[]`, depth + 1));
      }
      return items;
    }
    if (PRIMITIVES.has(type)) return primitive(type, f, ctx, false);
    return struct(structOf(message, type), path, depth + 1);
  };

  const body = struct(message, '', 0);
  if (flexible && options.unknownTags) body._unknownTaggedFields = options.unknownTags;
  return body;
}

function structOf(message: MessageDef, name: string): StructDef {
  const s = message.structs[name];
  if (!s) throw new Error(`${message.name}: no struct ${name}`);
  return s;
}

export interface Leaf {
  /** e.g. "topics[].partitions[].partitionIndex"; array elements of primitives end in "[]". */
  path: string;
  type: string;
  value: unknown;
  tagged: boolean;
}

/** The values of `body` in wire order (primitive leaves only; null arrays/structs yield one null leaf). */
export function wireLeaves(apiKey: number, direction: Direction, version: number, body: any): Leaf[] {
  const message = messageDef(apiKey, direction);
  const flexible = isFlexibleVersion(message, version);
  const out: Leaf[] = [];
  const walkStruct = (s: { fields: readonly FieldDef[] }, o: any, prefix: string, taggedParent: boolean) => {
    for (const f of wireFields(s.fields, version, flexible)) {
      const path = prefix ? `${prefix}.${f.name}` : f.name;
      const tagged = taggedParent || isTaggedIn(f, version, flexible);
      walkValue(f.type, o?.[f.name], path, tagged);
    }
  };
  const walkValue = (type: string, v: any, path: string, tagged: boolean) => {
    if (v === undefined) return;
    if (type.startsWith('[]')) {
      const element = type.slice(2);
      if (v === null) { out.push({ path, type, value: null, tagged }); return; }
      for (const item of v) {
        if (PRIMITIVES.has(element)) out.push({ path: `${path}[]`, type: element, value: item, tagged });
        else walkStruct(structOf(message, element), item, `${path}[]`, tagged);
      }
      return;
    }
    if (PRIMITIVES.has(type)) { out.push({ path, type, value: v, tagged }); return; }
    if (v === null) { out.push({ path, type, value: null, tagged }); return; }
    walkStruct(structOf(message, type), v, path, tagged);
  };
  walkStruct(message, body, '', false);
  return out;
}

/** Values at `path` (as wireLeaves names them), in wire order. */
export function valuesAt(leaves: Leaf[], ...paths: string[]): unknown[] {
  const wanted = new Set(paths);
  return leaves.filter((l) => wanted.has(l.path)).map((l) => l.value);
}

/**
 * `body` with every field the version lacks removed (recursively), so one description of a
 * message serves several versions. Fields the version has are kept as given.
 */
export function fitToVersion(apiKey: number, direction: Direction, version: number, body: any): any {
  const message = messageDef(apiKey, direction);
  const fitStruct = (s: { fields: readonly FieldDef[] }, o: any): any => {
    if (o === null || typeof o !== 'object') return o;
    const out: any = {};
    for (const f of s.fields) {
      if (!(f.name in o) || !inVersions(f.versions, version)) continue;
      out[f.name] = fitValue(f.type, o[f.name]);
    }
    if (o._unknownTaggedFields) out._unknownTaggedFields = o._unknownTaggedFields;
    return out;
  };
  const fitValue = (type: string, v: any): any => {
    if (v === null || v === undefined) return v;
    if (type.startsWith('[]')) {
      const element = type.slice(2);
      return PRIMITIVES.has(element) ? v : v.map((item: any) => fitStruct(structOf(message, element), item));
    }
    return PRIMITIVES.has(type) ? v : fitStruct(structOf(message, type), v);
  };
  return fitStruct(message, body);
}

/** `given` with what it leaves out taken from `complete` (the same message with defaults filled in). */
export function withDefaults(given: any, complete: any): any {
  if (given === undefined) return complete;
  if (given === null || typeof given !== 'object' || given instanceof Uint8Array) return given;
  if (Array.isArray(given)) return given.map((g, i) => withDefaults(g, complete?.[i]));
  const out: any = { ...given };
  for (const [k, v] of Object.entries(complete ?? {})) out[k] = withDefaults(given[k], v);
  return out;
}


/** Whether `v` is the field's default, in which case a tagged field is not written. */
function isDefaultValue(f: FieldDef, message: MessageDef, v: any): boolean {
  if (v === undefined) return true;
  if (f.default !== undefined) return v === f.default;
  if (v === null) return false;
  if (f.type.startsWith('[]')) return Array.isArray(v) && v.length === 0;
  switch (f.type) {
    case 'bool': return v === false;
    case 'int8': case 'int16': case 'uint16': case 'int32': case 'uint32': case 'float64': return v === 0;
    case 'int64': return v === 0n;
    case 'string': return v === '';
    case 'uuid': return v === 'AAAAAAAAAAAAAAAAAAAAAA';
    case 'bytes': case 'records': return v instanceof Uint8Array && v.length === 0;
  }
  const s = message.structs[f.type];
  return s !== undefined && s.fields.every((g) => isDefaultValue(g, message, v[g.name]));
}

/**
 * The tags of every tagged field `body` puts on the wire (known fields away from their default,
 * and unknown ones), anywhere in the message, sorted.
 */
export function writtenTags(apiKey: number, direction: Direction, version: number, body: any): number[] {
  const message = messageDef(apiKey, direction);
  const flexible = isFlexibleVersion(message, version);
  const tags: number[] = [];
  if (!flexible) return tags;
  const walkStruct = (s: { fields: readonly FieldDef[] }, o: any) => {
    if (o === null || typeof o !== 'object') return;
    for (const t of Object.keys(o._unknownTaggedFields ?? {})) tags.push(Number(t));
    for (const f of wireFields(s.fields, version, flexible)) {
      const v = o[f.name];
      if (isTaggedIn(f, version, flexible) && !isDefaultValue(f, message, v)) tags.push(f.tag!);
      const element = f.type.startsWith('[]') ? f.type.slice(2) : f.type;
      const sub = message.structs[element];
      if (sub === undefined || v === null || v === undefined) continue;
      if (f.type.startsWith('[]')) for (const item of v) walkStruct(sub, item);
      else walkStruct(sub, v);
    }
  };
  walkStruct(message, body);
  return tags.sort((a, b) => a - b);
}
