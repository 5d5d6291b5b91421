// The description of each primitive kind (numbered in src/wasm/abi.ts): its schema type, its
// size on the wire and on the tape, its zero value, and what the encoders accept. The plan
// compiler, the interpreter's writer, the generated writers, the error messages and the samples
// all read it from here.
import type { PrimitiveType } from '../catalogue/schema.js';
import { BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, UINT16, UINT32, UUID } from '../wasm/abi.js';

/** The all-zero uuid, the zero value of uuid fields. */
export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

export interface KindDescription {
  readonly kind: number;
  readonly type: PrimitiveType;
  /** Bytes on the wire when the size is fixed, else 0 (the value carries a length). */
  readonly fixedSize: number;
  /** Tape words a value takes. */
  readonly tapeWords: number;
  /** A fresh zero value: the default when the schema gives none. */
  readonly zero: () => unknown;
}

/** What the encoders accept of a kind. */
export interface KindCheck {
  readonly kind: number;
  /** What a value must be, for error messages ("expected an int8"). */
  readonly expected: string;
  /**
   * For kinds checked by value (numbers and booleans): whether `v` is a value of the kind, as a
   * function for the interpreter and as the same test in JavaScript source over `v` for the
   * generated writers. Strings, bytes and uuids are checked by their writers.
   */
  readonly accepts?: (v: any) => boolean;
  readonly acceptsSource?: string;
}

function byKind<T extends { kind: number }>(entries: T[]): readonly (T | undefined)[] {
  const table: T[] = [];
  for (const e of entries) table[e.kind] = e;
  return table;
}

// Two tables, one row per kind in each, so that a decode-only bundle carries the first alone:
// decoders need a kind's layout, only encoders its checks. A test holds them to the same kinds.

/** The primitive kinds' layouts, indexed by kind number. */
export const KINDS = /* @__PURE__ */ byKind<KindDescription>([
  { kind: BOOL, type: 'bool', fixedSize: 1, tapeWords: 1, zero: () => false },
  { kind: INT8, type: 'int8', fixedSize: 1, tapeWords: 1, zero: () => 0 },
  { kind: INT16, type: 'int16', fixedSize: 2, tapeWords: 1, zero: () => 0 },
  { kind: UINT16, type: 'uint16', fixedSize: 2, tapeWords: 1, zero: () => 0 },
  { kind: INT32, type: 'int32', fixedSize: 4, tapeWords: 1, zero: () => 0 },
  { kind: UINT32, type: 'uint32', fixedSize: 4, tapeWords: 1, zero: () => 0 },
  { kind: INT64, type: 'int64', fixedSize: 8, tapeWords: 2, zero: () => 0n },
  { kind: FLOAT64, type: 'float64', fixedSize: 8, tapeWords: 2, zero: () => 0 },
  { kind: UUID, type: 'uuid', fixedSize: 16, tapeWords: 1, zero: () => ZERO_UUID },
  { kind: STRING, type: 'string', fixedSize: 0, tapeWords: 2, zero: () => '' },
  { kind: BYTES, type: 'bytes', fixedSize: 0, tapeWords: 2, zero: () => new Uint8Array(0) },
  { kind: RECORDS, type: 'records', fixedSize: 0, tapeWords: 2, zero: () => null },
]);

/** The primitive kinds' encoder checks, indexed by kind number. */
export const KIND_CHECKS = /* @__PURE__ */ byKind<KindCheck>([
  { kind: BOOL, expected: 'a boolean', accepts: (v) => typeof v === 'boolean', acceptsSource: `typeof v === 'boolean'` },
  { kind: INT8, expected: 'an int8', accepts: (v) => (v << 24 >> 24) === v, acceptsSource: '(v << 24 >> 24) === v' },
  { kind: INT16, expected: 'an int16', accepts: (v) => (v << 16 >> 16) === v, acceptsSource: '(v << 16 >> 16) === v' },
  { kind: UINT16, expected: 'a uint16', accepts: (v) => (v & 0xffff) === v, acceptsSource: '(v & 0xffff) === v' },
  { kind: INT32, expected: 'an int32', accepts: (v) => (v | 0) === v, acceptsSource: '(v | 0) === v' },
  { kind: UINT32, expected: 'a uint32', accepts: (v) => (v >>> 0) === v, acceptsSource: '(v >>> 0) === v' },
  { kind: INT64, expected: 'an int64 bigint', accepts: (v) => typeof v === 'bigint' && BigInt.asIntN(64, v) === v,
    acceptsSource: `typeof v === 'bigint' && BigInt.asIntN(64, v) === v` },
  { kind: FLOAT64, expected: 'a number', accepts: (v) => typeof v === 'number', acceptsSource: `typeof v === 'number'` },
  { kind: UUID, expected: 'a 22-character base64url uuid' },
  { kind: STRING, expected: 'a string' },
  { kind: BYTES, expected: 'a Uint8Array' },
  { kind: RECORDS, expected: 'a Uint8Array' },
]);

/** Schema type name → kind, for the primitive types. */
export const KIND_OF_TYPE: Readonly<Record<string, number>> = /* @__PURE__ */ Object.fromEntries(
  KINDS.filter((k) => k !== undefined).map((k) => [k.type, k.kind]));
