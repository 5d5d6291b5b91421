// The JSON form of messages (CLI and any JSON output): int64 as decimal strings, bytes and
// records as lowercase hex, uuids as base64url, float64 specials as strings, unknown tagged fields
// under `_unknownTaggedFields` by tag. Fields the version lacks are left out; on the way back
// in, a missing field means its default. Each kind's JSON is its KIND_JSON row (kinds.ts), which
// explain's nodes use too.
import {
  decodeRequest, decodeResponse, encodeRequest, encodeResponse, planFor, type CatalogueOption, type DecodeOptions, type Direction,
} from './by-key.js';
import type { DecodedRecordBatches } from '../records/decode.js';
import { recordBatchesToJson } from '../records/json.js';
import { KafkaWireError } from '../errors.js';
import { ARRAY, BYTES, RECORDS, STRUCT, type CompiledField, type CompiledStruct } from './plan.js';
import { checkKnownFields } from './known-fields.js';
import { KIND_JSON } from './kinds.js';

/**
 * How bytes and records appear in the JSON form: 'hex' strings (for JSON.stringify), or left as
 * Uint8Array for JsonWriter, which writes them as the same hex without making strings of them.
 */
export type JsonBytes = 'hex' | 'raw';

export function structToJson(s: CompiledStruct, o: any, bytes: JsonBytes = 'hex'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of s.fields) {
    if (f.present) out[f.name] = fieldToJson(f, o[f.name], bytes);
  }
  const unknown: Record<number, Uint8Array> | undefined = o._unknownTaggedFields;
  if (unknown !== undefined) {
    const tags: Record<string, unknown> = {};
    for (const tag of Object.keys(unknown)) tags[tag] = bytesToJson(unknown[tag as any], bytes);
    out._unknownTaggedFields = tags;
  }
  return out;
}

function bytesToJson(v: Uint8Array, bytes: JsonBytes): unknown {
  return bytes === 'raw' ? v : KIND_JSON[BYTES]!.toJson!(v);
}

function fieldToJson(f: CompiledField, v: any, bytes: JsonBytes): unknown {
  if (v === null || v === undefined) return null;
  if (f.kind === ARRAY) return (v as unknown[]).map((item) => valueToJson(f.elementKind, f.struct, item, bytes));
  return valueToJson(f.kind, f.struct, v, bytes);
}

function valueToJson(kind: number, struct: CompiledStruct | null, v: any, bytes: JsonBytes): unknown {
  if (kind === STRUCT) return v === null ? null : structToJson(struct!, v, bytes);
  // Records decoded inline (decode option `records`) print as their batches.
  if (kind === RECORDS && !(v instanceof Uint8Array)) return recordBatchesToJson((v as DecodedRecordBatches).batches);
  if (kind === BYTES || kind === RECORDS) return bytesToJson(v, bytes);
  const toJson = KIND_JSON[kind]?.toJson;
  return toJson === undefined ? v : toJson(v);
}

function bad(path: string, detail: string): KafkaWireError {
  return new KafkaWireError('INVALID_VALUE', -1, path, detail);
}

/** Builds a typed object from JSON: every field at its default, overlaid with what is given. */
export function structFromJson(s: CompiledStruct, json: any, path: string): any {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw bad(path, `expected an object for ${s.name}`);
  try {
    checkKnownFields(s, json);
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(path);
    throw error;
  }
  const o = s.create();
  for (const f of s.fields) {
    const v = json[f.name];
    if (v !== undefined) o[f.name] = fieldFromJson(f, v, `${path}.${f.name}`);
  }
  const unknown = json._unknownTaggedFields;
  if (unknown !== undefined) {
    if (unknown === null || typeof unknown !== 'object') throw bad(`${path}._unknownTaggedFields`, 'expected an object of tag → hex');
    const tags: Record<number, Uint8Array> = {};
    for (const [tag, hex] of Object.entries(unknown)) {
      const bytes = KIND_JSON[BYTES]!.fromJson!(hex) as Uint8Array | undefined;
      if (bytes === undefined || !/^\d+$/.test(tag)) throw bad(`${path}._unknownTaggedFields.${tag}`, 'expected a tag number mapped to hex');
      tags[Number(tag)] = bytes;
    }
    o._unknownTaggedFields = tags;
  }
  return o;
}

function fieldFromJson(f: CompiledField, v: any, path: string): any {
  if (v === null) return null;
  if (f.kind !== ARRAY) return valueFromJson(f.kind, f.struct, v, path);
  if (!Array.isArray(v)) throw bad(path, 'expected an array');
  return v.map((item, i) => valueFromJson(f.elementKind, f.struct, item, `${path}[${i}]`));
}

function valueFromJson(kind: number, struct: CompiledStruct | null, v: any, path: string): any {
  if (kind === STRUCT) return structFromJson(struct!, v, path);
  const row = KIND_JSON[kind];
  if (row?.fromJson === undefined) return v;
  const value = row.fromJson(v);
  if (value === undefined) throw bad(path, `expected ${row.expectedJson}`);
  return value;
}

/** JSON.stringify that writes any stray bigint as a decimal string. */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** A whole frame in JSON, as the CLI reads and writes it. */
export interface FrameJson {
  apiKey: number;
  apiVersion: number;
  direction: Direction;
  header: Record<string, unknown>;
  body: Record<string, unknown>;
}

/**
 * Decodes a frame to its JSON form (the form JSON.stringify can write: int64 as decimal strings,
 * bytes as hex). A request names its API and version itself; a response needs those of its
 * request: `frameToJson(frame, apiKey, apiVersion, 'response')`.
 */
export function frameToJson(frame: Uint8Array, apiKey?: number, apiVersion?: number, direction?: Direction, options?: DecodeOptions, bytes?: JsonBytes): FrameJson;
/** @deprecated the older argument order: (direction, frame, apiKey?, apiVersion?). */
export function frameToJson(direction: Direction, frame: Uint8Array, apiKey?: number, apiVersion?: number, options?: DecodeOptions, bytes?: JsonBytes): FrameJson;
export function frameToJson(...args: unknown[]): FrameJson {
  // The older order starts with the direction, a string; the library's with the frame.
  const [frame, apiKey, apiVersion, direction = 'request', options, bytes = 'hex'] = (typeof args[0] === 'string'
    ? [args[1], args[2], args[3], args[0], args[4], args[5]]
    : args) as [Uint8Array, number?, number?, Direction?, DecodeOptions?, JsonBytes?];
  if (direction !== 'request' && direction !== 'response') throw bad('direction', 'expected "request" or "response"');
  let key: number;
  let version: number;
  let decoded: { header: any; body: any };
  if (direction === 'request') {
    const request = decodeRequest(frame, options);
    [key, version, decoded] = [request.apiKey, request.apiVersion, request];
  } else {
    if (apiKey === undefined || apiVersion === undefined) {
      throw new KafkaWireError('INVALID_VALUE', -1, '', 'a response needs apiKey and apiVersion');
    }
    [key, version] = [apiKey, apiVersion];
    decoded = decodeResponse(frame, key, version, options);
  }
  const plan = planFor(key, direction, version, options);
  return {
    apiKey: key,
    apiVersion: version,
    direction,
    header: structToJson(plan.header, decoded.header, bytes),
    body: structToJson(plan.body, decoded.body, bytes),
  };
}

/** Encodes a frame from its JSON form; missing fields take their defaults. */
export function frameFromJson(frame: FrameJson, options?: CatalogueOption): Uint8Array {
  if (frame === null || typeof frame !== 'object') throw bad('', 'expected a frame object');
  const { apiKey, apiVersion, direction } = frame;
  if (direction !== 'request' && direction !== 'response') throw bad('direction', 'expected "request" or "response"');
  if (!Number.isInteger(apiKey) || !Number.isInteger(apiVersion)) throw bad('', 'expected integer apiKey and apiVersion');
  const plan = planFor(apiKey, direction, apiVersion, options);
  const header = structFromJson(plan.header, frame.header ?? {}, 'header');
  const body = structFromJson(plan.body, frame.body ?? {}, plan.body.name);
  // structFromJson checked every name and built the objects from the plan: no second check.
  const encodeOptions = { catalogue: options?.catalogue, checkFields: false };
  if (direction === 'response') return encodeResponse(apiKey, apiVersion, header, body, encodeOptions);
  header.requestApiKey = apiKey;
  header.requestApiVersion = apiVersion;
  return encodeRequest(header, body, encodeOptions);
}
