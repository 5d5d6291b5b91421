// The one reader of Kafka's JSON message schemas: schema text or objects in, the catalogue shape
// of src/schema.ts out (MessageDef, ApiDef). scripts/generate.mjs bundles and imports this module
// to write src/generated/, and run-time catalogues (./catalogue.ts) use it directly, so both see
// the same facts. Only facts are kept (names, types, versions, tags, defaults, listeners), never
// the schemas' prose. Browser-safe: it reads no files.
import {
  declaredHeaderVersion, inVersions, MAX_VERSION, type ApiDef, type DefaultValue, type FieldDef, type HeaderVersionStep, type MessageDef,
  type StructDef, type Versions, type VersionRange,
} from '../codec/schema.js';

export { MAX_VERSION };

const PRIMITIVES = new Set([
  'bool', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'float64',
  'string', 'bytes', 'records', 'uuid',
]);

const INT_RANGES: Record<string, readonly [bigint, bigint]> = {
  int8: [-128n, 127n],
  int16: [-32768n, 32767n],
  uint16: [0n, 65535n],
  int32: [-2147483648n, 2147483647n],
  uint32: [0n, 4294967295n],
  int64: [-9223372036854775808n, 9223372036854775807n],
};

/** A schema the parser cannot read: `path` names the file or message and field, the message says why. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  constructor(readonly path: string, detail: string) {
    super(`${path}: ${detail}`);
  }
}

/**
 * Names as Kafka's generator takes them (Java identifiers, without `$`). They become property
 * names and, in generated readers and writers, parts of code: nothing else may pass.
 */
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

function checkName(name: unknown, what: string, where: string): string {
  if (typeof name !== 'string' || !NAME.test(name)) throw new SchemaError(where, `bad ${what} name ${JSON.stringify(name)}`);
  return name;
}

/** A schema file as JSON.parse gives it (Kafka's fields, all optional until checked). */
export type SchemaJson = Record<string, any>;

/** What the generator reports about a schema set: lists of "where" strings, by topic. */
export interface ParseNotes {
  stringTags: string[];
  fieldFlexible: string[];
  hexDefaults: string[];
  nonStringDefaults: string[];
  nullDefaultNotNullable: string[];
  taggedStructs: string[];
  unusedCommon: string[];
  unstable: string[];
  /** [common struct name, message name] for every common struct. */
  commonStructNames: [string, string][];
  warnings: string[];
}

export function emptyNotes(): ParseNotes {
  return {
    stringTags: [], fieldFlexible: [], hexDefaults: [], nonStringDefaults: [], nullDefaultNotNullable: [],
    taggedStructs: [], unusedCommon: [], unstable: [], commonStructNames: [], warnings: [],
  };
}

/** A schema set read whole: its APIs sorted by key, and the headers when the set has them. */
export interface ParsedSchemas {
  apis: ApiDef[];
  requestHeader?: MessageDef;
  responseHeader?: MessageDef;
}

/** Removes // and /* *\/ comments, leaving "//" inside string values (URLs in texts) alone. */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      if (i < text.length) out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new Error('unterminated /* comment');
      i = end + 1;
    } else {
      out += c;
    }
  }
  return out;
}

/** One schema file's text (JSON with comments) as an object; `where` names it in errors. */
export function parseSchemaText(text: string, where = 'schema'): SchemaJson {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new SchemaError(where, (error as Error).message);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new SchemaError(where, 'not a JSON object');
  return json as SchemaJson;
}

/** "3" → [3,3], "3+" → [3,MAX], "0-2" → [0,2], "none" → null. */
export function parseVersions(spec: unknown, where: string): Versions {
  if (typeof spec === 'number' && Number.isInteger(spec)) spec = String(spec);
  if (typeof spec !== 'string') throw new SchemaError(where, `bad version spec ${JSON.stringify(spec)}`);
  const s = spec.trim();
  let m: RegExpExecArray | null;
  if (s === 'none') return null;
  if ((m = /^(\d+)$/.exec(s))) return checkRange(+m[1], +m[1], spec, where);
  if ((m = /^(\d+)\+$/.exec(s))) return checkRange(+m[1], MAX_VERSION, spec, where);
  if ((m = /^(\d+)\s*-\s*(\d+)$/.exec(s))) return checkRange(+m[1], +m[2], spec, where);
  throw new SchemaError(where, `bad version spec ${JSON.stringify(spec)}`);
}

function checkRange(min: number, max: number, spec: string, where: string): VersionRange {
  if (min > max || max > MAX_VERSION) throw new SchemaError(where, `bad version range ${JSON.stringify(spec)}`);
  return [min, max];
}

export function lowerCamel(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

export function elementType(type: string): string {
  return type.startsWith('[]') ? type.slice(2) : type;
}

function isStructType(type: string): boolean {
  return !PRIMITIVES.has(elementType(type));
}

function parseInteger(raw: unknown, type: string, where: string): number | bigint {
  let v: bigint;
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw)) throw new SchemaError(where, `${type} default ${raw} is not a safe integer`);
    v = BigInt(raw);
  } else if (typeof raw === 'string') {
    const s = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^(-?)0[xX]([0-9a-fA-F]+)$/.exec(s))) v = BigInt(`0x${m[2]}`) * (m[1] ? -1n : 1n);
    else if ((m = /^(-?)0([0-7]+)$/.exec(s))) v = BigInt(`0o${m[2]}`) * (m[1] ? -1n : 1n);
    else if (/^-?\d+$/.test(s)) v = BigInt(s);
    else throw new SchemaError(where, `bad ${type} default ${JSON.stringify(raw)}`);
  } else {
    throw new SchemaError(where, `bad ${type} default ${JSON.stringify(raw)}`);
  }
  const [lo, hi] = INT_RANGES[type];
  if (v < lo || v > hi) throw new SchemaError(where, `${type} default ${String(raw)} out of range`);
  return type === 'int64' ? v : Number(v);
}

/** The default as the runtime needs it (see DefaultValue in src/schema.ts). */
function convertDefault(raw: unknown, type: string, where: string): DefaultValue {
  if (raw === null || raw === 'null') return null;
  if (type.startsWith('[]') || !PRIMITIVES.has(type) || type === 'bytes' || type === 'records') {
    throw new SchemaError(where, `unsupported default ${JSON.stringify(raw)} for ${type}`);
  }
  if (type in INT_RANGES) return parseInteger(raw, type, where);
  switch (type) {
    case 'bool':
      return convertBool(raw, `${where} default`);
    case 'float64': {
      const n = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isFinite(n)) throw new SchemaError(where, `bad float64 default ${JSON.stringify(raw)}`);
      return n;
    }
    default: // string, uuid
      if (typeof raw !== 'string') throw new SchemaError(where, `bad ${type} default ${JSON.stringify(raw)}`);
      return raw;
  }
}

/** Kafka's JSON writes flags as booleans or as the strings "true"/"false". */
function convertBool(raw: unknown, where: string): boolean {
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new SchemaError(where, `bad boolean ${JSON.stringify(raw)}`);
}

function convertTag(raw: unknown, where: string): number {
  const text = String(raw).trim();
  const n = typeof raw === 'number' ? raw : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new SchemaError(where, `bad tag ${JSON.stringify(raw)}`);
  return n;
}

type MutableField = { -readonly [K in keyof FieldDef]: FieldDef[K] };
type MutableMessage = { -readonly [K in keyof MessageDef]: MessageDef[K] };

/** Converts one request, response or header schema into a MessageDef. */
export function parseMessage(schema: SchemaJson, notes: ParseNotes = emptyNotes()): MessageDef {
  const msgName = checkName(schema.name, 'message', 'schema');
  const type = schema.type;
  if (type !== 'request' && type !== 'response' && type !== 'header') throw new SchemaError(msgName, `type ${JSON.stringify(type)} is not request, response or header`);
  if (type !== 'header' && !(Number.isInteger(schema.apiKey) && schema.apiKey >= 0 && schema.apiKey <= 0x7fff)) {
    throw new SchemaError(msgName, `apiKey ${JSON.stringify(schema.apiKey)} is not an int16 key (0-32767)`);
  }
  const flexibleVersions = parseVersions(schema.flexibleVersions, `${msgName} flexibleVersions`);
  const structs = new Map<string, { name: string; fields: FieldDef[] }>(); // inline definitions
  const common = new Map<string, { name: string; fields: FieldDef[]; raw: SchemaJson }>();
  const structOrder: string[] = []; // first-use order

  const convertFields = (fields: unknown, where: string): FieldDef[] => {
    if (!Array.isArray(fields)) throw new SchemaError(where, `"fields" is not an array`);
    const out: FieldDef[] = [];
    const seen = new Set<string>();
    const tags = new Set<number>();
    for (const f of fields as SchemaJson[]) {
      const fwhere = `${where}.${f?.name}`;
      if (typeof f?.name !== 'string' || typeof f.type !== 'string') throw new SchemaError(fwhere, `field needs name and type`);
      checkName(f.name, 'field', fwhere);
      if (isStructType(f.type)) checkName(elementType(f.type), 'struct', fwhere);
      const def: MutableField = {
        name: lowerCamel(f.name),
        schemaName: f.name,
        type: f.type,
        versions: parseVersions(f.versions, `${fwhere} versions`),
      };
      if (seen.has(def.name)) throw new SchemaError(fwhere, `duplicate field name ${def.name}`);
      seen.add(def.name);
      if (f.nullableVersions !== undefined) def.nullableVersions = parseVersions(f.nullableVersions, `${fwhere} nullableVersions`);
      if (f.taggedVersions !== undefined) def.taggedVersions = parseVersions(f.taggedVersions, `${fwhere} taggedVersions`);
      if (f.tag !== undefined) {
        def.tag = convertTag(f.tag, fwhere);
        if (typeof f.tag === 'string') notes.stringTags.push(`${fwhere} (tag "${f.tag}")`);
      }
      if ((def.tag === undefined) !== (def.taggedVersions === undefined)) {
        throw new SchemaError(fwhere, `tag and taggedVersions must come together`);
      }
      if (def.tag !== undefined) {
        if (!within(def.taggedVersions!, flexibleVersions)) throw new SchemaError(fwhere, 'taggedVersions outside the flexible versions');
        if (tags.has(def.tag)) throw new SchemaError(fwhere, `tag ${def.tag} used twice`);
        tags.add(def.tag);
      }
      if (f.flexibleVersions !== undefined) {
        def.flexibleVersions = parseVersions(f.flexibleVersions, `${fwhere} flexibleVersions`);
        notes.fieldFlexible.push(`${fwhere} flexibleVersions ${JSON.stringify(f.flexibleVersions)}`);
      }
      if (f.ignorable !== undefined && convertBool(f.ignorable, `${fwhere} ignorable`)) def.ignorable = true;
      if (f.mapKey !== undefined && convertBool(f.mapKey, `${fwhere} mapKey`)) def.mapKey = true;
      if (f.default !== undefined) {
        def.default = convertDefault(f.default, f.type, fwhere);
        if (typeof f.default === 'string' && /^-?0[xX]/.test(f.default.trim())) notes.hexDefaults.push(`${fwhere} ${f.type} "${f.default}"`);
        if (typeof f.default !== 'string') notes.nonStringDefaults.push(`${fwhere} ${f.type} ${JSON.stringify(f.default)}`);
        if (def.default === null && !f.nullableVersions) notes.nullDefaultNotNullable.push(`${fwhere}`);
      }
      if (def.tag !== undefined && isStructType(f.type)) notes.taggedStructs.push(`${fwhere} (${f.type}, tag ${def.tag})`);
      if (f.fields !== undefined) {
        if (!isStructType(f.type)) throw new SchemaError(fwhere, `primitive type ${f.type} with "fields"`);
        const sname = elementType(f.type);
        if (structs.has(sname) || common.has(sname)) throw new SchemaError(fwhere, `struct ${sname} defined twice`);
        const sdef = { name: sname, fields: [] as FieldDef[] };
        structs.set(sname, sdef);
        sdef.fields = convertFields(f.fields, `${msgName}.${sname}`);
      }
      out.push(def);
    }
    return out;
  };

  const commonStructs: unknown = schema.commonStructs ?? [];
  if (!Array.isArray(commonStructs)) throw new SchemaError(msgName, `"commonStructs" is not an array`);
  for (const s of commonStructs as SchemaJson[]) {
    const where = `${msgName}#${s?.name}`;
    checkName(s?.name, 'common struct', where);
    if (s.versions !== undefined) parseVersions(s.versions, `${where} versions`);
    if (common.has(s.name)) throw new SchemaError(where, `common struct defined twice`);
    common.set(s.name, { name: s.name, fields: [], raw: s });
  }
  for (const c of common.values()) {
    c.fields = convertFields(c.raw.fields, `${msgName}#${c.name}`);
    if (structs.has(c.name)) throw new SchemaError(msgName, `struct ${c.name} is both inline and common`);
  }
  const fields = convertFields(schema.fields, msgName);

  // Collect the structs in first-use order (depth first, field order), then unused common ones.
  const lookup = (name: string) => structs.get(name) ?? common.get(name);
  const used = new Set<string>();
  const visit = (fieldList: readonly FieldDef[], where: string) => {
    for (const f of fieldList) {
      if (!isStructType(f.type)) continue;
      const sname = elementType(f.type);
      const s = lookup(sname);
      if (!s) throw new SchemaError(`${where}.${f.schemaName}`, `unknown struct type ${f.type}`);
      if (used.has(sname)) continue;
      used.add(sname);
      structOrder.push(sname);
      visit(s.fields, `${msgName}.${sname}`);
    }
  };
  visit(fields, msgName);
  for (const [name, c] of common) {
    if (!used.has(name)) {
      notes.unusedCommon.push(`${msgName}#${name}`);
      structOrder.push(name);
      visit(c.fields, `${msgName}#${name}`);
    }
  }
  for (const name of structs.keys()) {
    if (!used.has(name)) throw new SchemaError(msgName, `struct ${name} unreachable`);
  }
  // A struct that contains itself has no finite instance (and no plan): refuse it here.
  const done = new Set<string>();
  const acyclic = (name: string, trail: string[]) => {
    if (done.has(name)) return;
    if (trail.includes(name)) throw new SchemaError(`${msgName}.${name}`, `struct ${name} contains itself (${[...trail, name].join(' > ')})`);
    for (const f of lookup(name)!.fields) if (isStructType(f.type)) acyclic(elementType(f.type), [...trail, name]);
    done.add(name);
  };
  for (const name of structOrder) acyclic(name, []);

  const validVersions = parseVersions(schema.validVersions, `${msgName} validVersions`);
  if (validVersions === null) throw new SchemaError(msgName, `validVersions is none`);
  const message: MutableMessage = {
    name: msgName,
    apiKey: type === 'header' ? -1 : schema.apiKey,
    type,
    validVersions,
    flexibleVersions,
    fields: [],
    structs: {},
  };
  if (schema.deprecatedVersions !== undefined) {
    const deprecated = parseVersions(schema.deprecatedVersions, `${msgName} deprecatedVersions`);
    if (deprecated !== null) message.deprecatedVersions = deprecated;
  }
  if (schema.headerVersions !== undefined) {
    if (type === 'header') throw new SchemaError(msgName, 'a header has no headerVersions');
    message.headerVersions = parseHeaderVersions(schema.headerVersions, `${msgName} headerVersions`);
  }
  if (schema.listeners !== undefined) {
    if (!Array.isArray(schema.listeners) || schema.listeners.some((l: unknown) => typeof l !== 'string')) {
      throw new SchemaError(msgName, `bad listeners`);
    }
    message.listeners = [...schema.listeners];
  }
  message.fields = fields;
  message.structs = Object.fromEntries(structOrder.map((n): [string, StructDef] => [n, { name: n, fields: lookup(n)!.fields }]));
  if (schema.latestVersionUnstable !== undefined && convertBool(schema.latestVersionUnstable, `${msgName} latestVersionUnstable`)) {
    notes.unstable.push(msgName);
  }
  for (const s of common.keys()) notes.commonStructNames.push([s, msgName]);
  return message;
}

/**
 * KIP-1313's "headerVersions" ({"0-1": "1", "2+": "2"}) as steps: the ranges must start at 0,
 * follow each other without gap or overlap and end open ("N+"), so every version a schema ever
 * had is covered; header versions never go down as body versions go up.
 */
function parseHeaderVersions(raw: unknown, where: string): HeaderVersionStep[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new SchemaError(where, 'not an object of "versions": "header version"');
  const entries = Object.entries(raw as Record<string, unknown>).map(([spec, value]): [VersionRange, number] => {
    const range = parseVersions(spec, where);
    if (range === null) throw new SchemaError(where, `"${spec}" covers no versions`);
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d+$/.test(text.trim()) || +text > MAX_VERSION) {
      throw new SchemaError(where, `header version ${JSON.stringify(value)} for "${spec}" is not a version number`);
    }
    return [range, +text];
  }).sort((a, b) => a[0][0] - b[0][0]);
  if (entries.length === 0) throw new SchemaError(where, 'is empty');
  let next = 0;
  let previous = -1;
  for (const [[min, max], header] of entries) {
    if (min !== next) throw new SchemaError(where, min > next ? `no header version for v${next}${min - 1 > next ? `-${min - 1}` : ''}` : `v${min} is given twice`);
    if (header < previous) throw new SchemaError(where, `header version goes down from ${previous} to ${header} at v${min}`);
    previous = header;
    next = max + 1;
  }
  if (next !== MAX_VERSION + 1) throw new SchemaError(where, `the last range must be open ("${entries[entries.length - 1][0][0]}+")`);
  return entries.map(([[min], header]): HeaderVersionStep => [min, header]);
}

/**
 * Checks a message's "headerVersions" against the header it travels with: every valid version
 * maps to a version the header has, and a flexible body to a flexible header (except the
 * ApiVersions response, which stays on header v0 so any client can read it: KIP-511).
 */
export function checkHeaderVersions(message: MessageDef, header: MessageDef): void {
  if (message.headerVersions === undefined) return;
  for (let v = message.validVersions[0]; v <= message.validVersions[1]; v++) {
    const h = declaredHeaderVersion(message, v)!;
    const where = `${message.name} headerVersions`;
    if (!inVersions(header.validVersions, h)) throw new SchemaError(where, `v${v} travels with ${header.name} v${h}, which is not one of its versions (${versionsText(header.validVersions)})`);
    const apiVersionsResponse = message.type === 'response' && message.apiKey === 18;
    if (inVersions(message.flexibleVersions, v) && !inVersions(header.flexibleVersions, h) && !apiVersionsResponse) {
      throw new SchemaError(where, `flexible v${v} travels with ${header.name} v${h}, which is not flexible`);
    }
  }
}

/** Whether every version of `inner` is in `outer`. */
function within(inner: Versions, outer: Versions): boolean {
  return inner === null || (outer !== null && inner[0] >= outer[0] && inner[1] <= outer[1]);
}

export function sameRange(a: Versions, b: Versions): boolean {
  return a === b || (a != null && b != null && a[0] === b[0] && a[1] === b[1]);
}

/** "v3+", "v0-2", "v4", "none": a range as reports and pages write it. */
export function versionsText(r: Versions): string {
  if (r === null) return 'none';
  if (r[1] === MAX_VERSION) return `v${r[0]}+`;
  if (r[0] === r[1]) return `v${r[0]}`;
  return `v${r[0]}-${r[1]}`;
}

/**
 * Reads a whole schema set (each a file's text or its parsed object): requests and responses
 * paired by API key into ApiDefs sorted by key, the headers when present. Schemas of other types
 * ("data", "metadata") are not part of the wire protocol and are skipped.
 */
export function parseSchemas(schemas: Iterable<string | SchemaJson>, notes: ParseNotes = emptyNotes()): ParsedSchemas {
  const requests = new Map<number, MessageDef>();
  const responses = new Map<number, MessageDef>();
  const result: ParsedSchemas = { apis: [] };
  let index = 0;
  for (const input of schemas) {
    const schema = typeof input === 'string' ? parseSchemaText(input, `schema ${index}`) : input;
    index++;
    if (schema.type === 'request' || schema.type === 'response') {
      const msg = parseMessage(schema, notes);
      const map = schema.type === 'request' ? requests : responses;
      if (map.has(msg.apiKey)) throw new SchemaError(msg.name, `a second ${schema.type} for API key ${msg.apiKey}`);
      map.set(msg.apiKey, msg);
    } else if (schema.type === 'header') {
      const msg = parseMessage(schema, notes);
      if (msg.name === 'RequestHeader') result.requestHeader = msg;
      else if (msg.name === 'ResponseHeader') result.responseHeader = msg;
      else throw new SchemaError(msg.name, `unknown header`);
    }
  }
  const keys = [...new Set([...requests.keys(), ...responses.keys()])].sort((a, b) => a - b);
  for (const key of keys) {
    const request = requests.get(key);
    const response = responses.get(key);
    if (!request || !response) throw new SchemaError(`API key ${key}`, `lacks a ${request ? 'response' : 'request'} schema`);
    if (!request.name.endsWith('Request')) throw new SchemaError(request.name, `request name does not end with Request`);
    const name = request.name.slice(0, -'Request'.length);
    if (response.name !== `${name}Response`) notes.warnings.push(`key ${key}: response named ${response.name}`);
    if (!sameRange(request.validVersions, response.validVersions)) {
      notes.warnings.push(`key ${key}: request versions ${versionsText(request.validVersions)} ≠ response ${versionsText(response.validVersions)}`);
    }
    if (!sameRange(request.flexibleVersions, response.flexibleVersions)) {
      notes.warnings.push(`key ${key}: request flexible ${versionsText(request.flexibleVersions)} ≠ response ${versionsText(response.flexibleVersions)}`);
    }
    if (result.requestHeader) checkHeaderVersions(request, result.requestHeader);
    if (result.responseHeader) checkHeaderVersions(response, result.responseHeader);
    // Each map holds the messages of its type (parseMessage copies the schema's).
    result.apis.push({ apiKey: key, name, request: request as MessageDef<number, 'request'>, response: response as MessageDef<number, 'response'> });
  }
  return result;
}

/** A range as a schema writes it: "3", "3+", "0-2", "none". */
function versionsSpec(r: Versions): string {
  return versionsText(r).replace(/^v/, '');
}

/**
 * A MessageDef back as Kafka-format JSON (facts only: no about texts), which parseMessage reads
 * into an equal MessageDef: how a catalogue travels to a browser. Structs are defined where they
 * are first used, as the parser orders them; unused common structs stay common.
 */
export function schemaJsonOf(message: MessageDef): SchemaJson {
  const defined = new Set<string>();
  const fieldsJson = (fields: readonly FieldDef[]): SchemaJson[] => fields.map((f) => {
    const o: SchemaJson = { name: f.schemaName, type: f.type, versions: versionsSpec(f.versions) };
    if (f.nullableVersions !== undefined) o.nullableVersions = versionsSpec(f.nullableVersions);
    if (f.taggedVersions !== undefined) o.taggedVersions = versionsSpec(f.taggedVersions);
    if (f.tag !== undefined) o.tag = f.tag;
    if (f.flexibleVersions !== undefined) o.flexibleVersions = versionsSpec(f.flexibleVersions);
    if (f.ignorable) o.ignorable = true;
    if (f.mapKey) o.mapKey = true;
    if (f.default !== undefined) o.default = f.default === null ? 'null' : typeof f.default === 'bigint' ? String(f.default) : f.default;
    const struct = message.structs[elementType(f.type)];
    if (struct !== undefined && !defined.has(struct.name)) {
      defined.add(struct.name);
      o.fields = fieldsJson(struct.fields);
    }
    return o;
  });
  const json: SchemaJson = { apiKey: message.apiKey, type: message.type, name: message.name };
  if (message.type === 'header') delete json.apiKey;
  if (message.listeners !== undefined) json.listeners = [...message.listeners];
  json.validVersions = versionsSpec(message.validVersions);
  if (message.deprecatedVersions !== undefined) json.deprecatedVersions = versionsSpec(message.deprecatedVersions);
  json.flexibleVersions = versionsSpec(message.flexibleVersions);
  if (message.headerVersions !== undefined) {
    const steps = message.headerVersions;
    json.headerVersions = Object.fromEntries(steps.map(([from, header], i) => {
      const to = i + 1 < steps.length ? steps[i + 1][0] - 1 : MAX_VERSION;
      return [versionsSpec([from, to]), String(header)];
    }));
  }
  json.fields = fieldsJson(message.fields);
  const common = Object.values(message.structs).filter((s) => !defined.has(s.name));
  if (common.length > 0) json.commonStructs = common.map((s) => ({ name: s.name, versions: '0+', fields: fieldsJson(s.fields) }));
  return json;
}
