// The shape of the generated catalogue: facts taken from Kafka's JSON message schemas
// (names, types, versions, tags, defaults), never their prose. scripts/generate.mjs writes
// src/generated/ in this shape; the runtime compiles it into per-version codecs.

/** An inclusive version range. `max` is MAX_VERSION for an open range such as "3+". */
export type VersionRange = readonly [min: number, max: number];
/** `null` stands for the schema's "none". */
export type Versions = VersionRange | null;

export const MAX_VERSION = 0x7fff;

export type PrimitiveType =
  | 'bool' | 'int8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'float64'
  | 'string' | 'bytes' | 'records' | 'uuid';

/** A default as the runtime needs it: int64 as bigint, the schema's "null" as null. */
export type DefaultValue = number | bigint | boolean | string | null;

export interface FieldDef {
  /** lowerCamel name used in objects and JSON (`TimeoutMs` → `timeoutMs`). */
  readonly name: string;
  /** The schema's own spelling, shown by explain. */
  readonly schemaName: string;
  /** A primitive, a struct name, or either behind "[]". */
  readonly type: string;
  readonly versions: Versions;
  readonly nullableVersions?: Versions;
  readonly taggedVersions?: Versions;
  readonly tag?: number;
  /** A per-field override of the message's flexible versions (the header's ClientId: none). */
  readonly flexibleVersions?: Versions;
  readonly ignorable?: boolean;
  /** The field keys its array's elements (Kafka generates a map for it; the wire is the same). */
  readonly mapKey?: boolean;
  /** Absent means the type's zero value. */
  readonly default?: DefaultValue;
}

export type MessageKind = 'request' | 'response' | 'header';

export interface StructDef {
  readonly name: string;
  readonly fields: readonly FieldDef[];
}

/**
 * One message's schema. K and T, its key's and kind's types, are literals in a generated
 * definition, which gives its body types (MessageBody in types.ts); plain, it is untyped.
 */
export interface MessageDef<K extends number = number, T extends MessageKind = MessageKind> {
  /** e.g. "MetadataRequest", "RequestHeader". */
  readonly name: string;
  readonly apiKey: K;
  readonly type: T;
  readonly validVersions: VersionRange;
  readonly flexibleVersions: Versions;
  /** Versions the schema marks deprecated: still valid on the wire. */
  readonly deprecatedVersions?: VersionRange;
  /**
   * KIP-1313's "headerVersions": the header version each body version travels with, as steps
   * [first body version, header version] ascending from version 0. Absent: the built-in rule
   * (headerVersionFor in plan.ts).
   */
  readonly headerVersions?: readonly HeaderVersionStep[];
  readonly listeners?: readonly string[];
  readonly fields: readonly FieldDef[];
  /** Every struct type the message uses, inline or common, by schema name. */
  readonly structs: Readonly<Record<string, StructDef>>;
}

/**
 * An API's two messages. K is its key's type: a literal (a generated definition) gives the
 * generated body types (BodyOf in types.ts); `ApiDef` alone (number) is an API known only at run
 * time, whose bodies are untyped.
 */
export interface ApiDef<K extends number = number> {
  readonly apiKey: K;
  /** e.g. "Metadata". */
  readonly name: string;
  readonly request: MessageDef<K, 'request'>;
  readonly response: MessageDef<K, 'response'>;
}

export function inVersions(range: Versions | undefined, version: number): boolean {
  return range != null && version >= range[0] && version <= range[1];
}

/** From body version `from` on (up to the next step), the header version is `header`. */
export type HeaderVersionStep = readonly [from: number, header: number];

/** The header version a message's "headerVersions" gives `version`, or undefined without one. */
export function declaredHeaderVersion(message: MessageDef, version: number): number | undefined {
  // The steps start at v0 (the parser checks), so every version finds one.
  let header: number | undefined;
  for (const [from, h] of message.headerVersions ?? []) if (from <= version) header = h;
  return header;
}
