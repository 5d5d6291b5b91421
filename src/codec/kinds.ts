// The one description of how each primitive kind (numbered in src/wasm/abi.ts) is walked: its
// schema type and sizes, its zero value, how a value is read off the scan's tape and written to
// the encode tape, and what the encoders accept. Every walk takes its kinds from here: the
// interpreter (read.ts, write.ts) calls a row's functions, the generated readers and writers
// (generate.ts) inline the row's source, and explain's walker (explain/walker.ts) reads and sizes
// its value nodes with the row; the JSON form (json.ts) and explain's node values take a kind's
// JSON from its KIND_JSON row. Where a row says a step twice, as a function and as JavaScript
// source (the interpreter runs where `new Function` is forbidden), test/codec/walk.test.ts holds
// the two to the same answers; it also holds the walks to taking every kind from here.
//
// Around the values, every walk follows the plan (plan.ts) in one order, said once in walk.ts
// (ORDER): per message version, a struct's regular fields in wire order, then, when flexible, its
// tagged section (tagged fields by ascending tag); a field an array (count, then elements) or one
// value; a value a primitive (its row here), a nullable struct's marker then the struct, or a
// struct; absent fields keep their defaults. The structural words between the values are
// described once too, in STRUCTURE below: on the scan's tape an array is its count (null unless
// it `follows`) then its elements, a nullable struct its marker (the same rule) then the struct,
// a tagged section its entry count then per entry the tag, the field's index in the struct's
// tagged fields (an unknown tag: below 0), and its value (an unknown tag's: offset and length, as
// bytes). Spans mode adds a start word before and an end word after each struct, field and
// element, a start word before a tagged section, and one between an entry's tag and index. The
// encode tape is the same without spans, its null and marker words in STRUCTURE_WRITES.
import type { PrimitiveType } from '../catalogue/schema.js';
import { BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, UINT16, UINT32, UUID } from '../wasm/abi.js';
import { base64UrlToBytes, bytesToBase64Url, decodeUtf8, encodeUtf8Into, fromHex, toHex } from '../text.js';
import { LARGE_BYTES, b, heapRoom } from './encode-buffers.js';
import { KafkaWireError } from '../errors.js';

/** The all-zero uuid, the zero value of uuid fields. */
export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

/**
 * One decode's reading state: the scan's tape, the cursor on it, the frame its offsets point into.
 * `later`, when a records hook is given, collects (holder, key, bytes) for each records field,
 * in the order their structs complete, for the hook to run once the tape is read.
 */
export interface TapeCursor {
  readonly tape: Int32Array;
  t: number;
  readonly src: Uint8Array;
  readonly view: DataView;
  readonly later?: unknown[] | undefined;
}

export interface KindDescription {
  readonly kind: number;
  readonly type: PrimitiveType;
  /**
   * Bytes on the wire when the size is fixed, else 0 (the value carries a length). On the scan's
   * tape a fixed-size value is one word (itself, or its offset in the frame when wider than a
   * word), a length-prefixed one two (offset and length, -1 for null): see scanWords.
   */
  readonly fixedSize: number;
  /**
   * For a length-prefixed kind, the bytes of its length before flexible versions (an int16 for
   * strings, an int32 for bytes and records; flexible versions use a uvarint of length + 1).
   */
  readonly lengthPrefix?: number;
  /** A fresh zero value: the default when the schema gives none. */
  readonly zero: () => unknown;
  /** For a kind whose zero is mutable (made anew for each value), the same as a JavaScript expression. */
  readonly zeroSource?: string;
  /** Reads one value at the cursor and moves it past the value. */
  readonly read: (c: TapeCursor) => unknown;
  /**
   * The same read as JavaScript statements over the generated reader's locals (`tape`, `t`,
   * `src`, `view`, and `decodeUtf8` and `uuid`), declaring the value as `$`.
   */
  readonly readSource: string;
}

/** What the encoders accept of a kind, and how they write it. */
export interface KindWrite {
  readonly kind: number;
  /** What a value must be, for error messages ("expected an int8"). */
  readonly expected: string;
  /** Words a value takes on the encode tape. */
  readonly tapeWords: number;
  /**
   * For kinds checked by value (numbers and booleans): whether `v` is a value of the kind, as a
   * function for the interpreter and as the same test in JavaScript source over `v` for the
   * generated writers. Strings, bytes and uuids are checked by their writers.
   */
  readonly accepts?: (v: any) => boolean;
  readonly acceptsSource?: string;
  /** Appends `v` (accepted, or checked here) to the encode tape and heap; room for tapeWords is made. */
  readonly write: (v: any, nullable: boolean, compact: boolean) => void;
  /**
   * The same as JavaScript statements over `v`, the encode buffers `b` and the generated writer's
   * helpers (`word64`, `str`, `bytes`, `uuid`); `$nullable` and `$compact` stand for the field's.
   */
  readonly writeSource: string;
}

function byKind<T extends { kind: number }>(entries: T[]): readonly (T | undefined)[] {
  const table: T[] = [];
  for (const e of entries) table[e.kind] = e;
  return table;
}

/** The bytes of an array's element count before flexible versions (an int32; then a uvarint of count + 1). */
export const ARRAY_COUNT_PREFIX = 4;

/** Words a value of `kind` takes on the scan's tape (see KindDescription.fixedSize). */
export function scanWords(kind: number): number {
  return KINDS[kind]!.fixedSize > 0 ? 1 : 2;
}

// ---- reading ----

/** The read of a value that is its own tape word (the integers up to 32 bits). */
export const WORD_SOURCE = 'const $ = tape[t++];';
const word = (c: TapeCursor) => c.tape[c.t++];
/** Length-prefixed values: an offset and a length, -1 for null. */
const spanSource = (value: string) => `const $ = tape[t + 1] < 0 ? null : ${value}; t += 2;`;
const bytesSource = spanSource('src.subarray(tape[t], tape[t] + tape[t + 1])');
function readBytes(c: TapeCursor): Uint8Array | null {
  const { tape, t } = c;
  c.t = t + 2;
  return tape[t + 1] < 0 ? null : c.src.subarray(tape[t], tape[t] + tape[t + 1]);
}

// Two tables, one row per kind in each, so that a decode-only bundle carries the first alone:
// decoders need a kind's layout and read, only encoders its checks and write. A test holds them
// to the same kinds.

/** The primitive kinds' layouts and reads, indexed by kind number. */
export const KINDS = /* @__PURE__ */ byKind<KindDescription>([
  { kind: BOOL, type: 'bool', fixedSize: 1, zero: () => false,
    read: (c) => c.tape[c.t++] !== 0, readSource: 'const $ = tape[t++] !== 0;' },
  { kind: INT8, type: 'int8', fixedSize: 1, zero: () => 0, read: word, readSource: WORD_SOURCE },
  { kind: INT16, type: 'int16', fixedSize: 2, zero: () => 0, read: word, readSource: WORD_SOURCE },
  { kind: UINT16, type: 'uint16', fixedSize: 2, zero: () => 0, read: word, readSource: WORD_SOURCE },
  { kind: INT32, type: 'int32', fixedSize: 4, zero: () => 0, read: word, readSource: WORD_SOURCE },
  { kind: UINT32, type: 'uint32', fixedSize: 4, zero: () => 0,
    read: (c) => c.tape[c.t++] >>> 0, readSource: 'const $ = tape[t++] >>> 0;' },
  { kind: INT64, type: 'int64', fixedSize: 8, zero: () => 0n,
    read: (c) => c.view.getBigInt64(c.tape[c.t++]), readSource: 'const $ = view.getBigInt64(tape[t++]);' },
  { kind: FLOAT64, type: 'float64', fixedSize: 8, zero: () => 0,
    read: (c) => c.view.getFloat64(c.tape[c.t++]), readSource: 'const $ = view.getFloat64(tape[t++]);' },
  { kind: UUID, type: 'uuid', fixedSize: 16, zero: () => ZERO_UUID,
    read: (c) => bytesToBase64Url(c.src, c.tape[c.t++]), readSource: 'const $ = uuid(src, tape[t++]);' },
  { kind: STRING, type: 'string', fixedSize: 0, lengthPrefix: 2, zero: () => '',
    read: (c) => {
      const { tape, t } = c;
      c.t = t + 2;
      return tape[t + 1] < 0 ? null : decodeUtf8(c.src, tape[t], tape[t + 1]);
    },
    readSource: spanSource('decodeUtf8(src, tape[t], tape[t + 1])') },
  { kind: BYTES, type: 'bytes', fixedSize: 0, lengthPrefix: 4, zero: () => new Uint8Array(0),
    zeroSource: 'new Uint8Array(0)', read: readBytes, readSource: bytesSource },
  { kind: RECORDS, type: 'records', fixedSize: 0, lengthPrefix: 4, zero: () => null, read: readBytes, readSource: bytesSource },
]);

/**
 * The structural words of the scan's tape, which every walk reads through these: the interpreter
 * calls the functions, the generated readers inline the sources, and explain's walker reads its
 * counts, markers and tags with them (the encoders' side is STRUCTURE_WRITES below).
 * test/codec/walk.test.ts shows a changed entry in all three.
 */
export const STRUCTURE = {
  /** Reads a count (an array's, a tagged section's), a nullable struct's marker or a tagged entry's index. */
  word,
  wordSource: 'tape[t++]',
  /** The kind a tagged entry's tag is read as (its row's read). */
  tagKind: UINT32,
  /** Whether a count or marker says a value follows; else the array or struct is null. */
  follows: (w: number): boolean => w >= 0,
  followsSource: (w: string): string => `${w} >= 0`,
};

// ---- writing ----

const word64 = /* @__PURE__ */ new DataView(/* @__PURE__ */ new ArrayBuffer(8));
function writeWord64(): void {
  b.tape[b.t++] = word64.getInt32(0, true);
  b.tape[b.t++] = word64.getInt32(4, true);
}
const writeWord = (v: number) => { b.tape[b.t++] = v; };

/** The structural words of the encode tape, as both writers write them (the scan's side is STRUCTURE). */
export const STRUCTURE_WRITES = {
  /** The word written for a null array or nullable struct. */
  nullWord: -1,
  /** The marker written before a present nullable struct. */
  markerWord: 1,
};

/** The primitive kinds' encoder checks and writes, indexed by kind number. */
export const KIND_WRITES = /* @__PURE__ */ byKind<KindWrite>([
  { kind: BOOL, expected: 'a boolean', tapeWords: 1, accepts: (v) => typeof v === 'boolean', acceptsSource: `typeof v === 'boolean'`,
    write: (v) => { b.tape[b.t++] = v ? 1 : 0; }, writeSource: 'b.tape[b.t++] = v ? 1 : 0;' },
  { kind: INT8, expected: 'an int8', tapeWords: 1, accepts: (v) => (v << 24 >> 24) === v, acceptsSource: '(v << 24 >> 24) === v',
    write: writeWord, writeSource: 'b.tape[b.t++] = v;' },
  { kind: INT16, expected: 'an int16', tapeWords: 1, accepts: (v) => (v << 16 >> 16) === v, acceptsSource: '(v << 16 >> 16) === v',
    write: writeWord, writeSource: 'b.tape[b.t++] = v;' },
  { kind: UINT16, expected: 'a uint16', tapeWords: 1, accepts: (v) => (v & 0xffff) === v, acceptsSource: '(v & 0xffff) === v',
    write: writeWord, writeSource: 'b.tape[b.t++] = v;' },
  { kind: INT32, expected: 'an int32', tapeWords: 1, accepts: (v) => (v | 0) === v, acceptsSource: '(v | 0) === v',
    write: writeWord, writeSource: 'b.tape[b.t++] = v;' },
  { kind: UINT32, expected: 'a uint32', tapeWords: 1, accepts: (v) => (v >>> 0) === v, acceptsSource: '(v >>> 0) === v',
    write: (v) => { b.tape[b.t++] = v | 0; }, writeSource: 'b.tape[b.t++] = v | 0;' },
  { kind: INT64, expected: 'an int64 bigint', tapeWords: 2, accepts: (v) => typeof v === 'bigint' && BigInt.asIntN(64, v) === v,
    acceptsSource: `typeof v === 'bigint' && BigInt.asIntN(64, v) === v`,
    write: (v) => { word64.setBigInt64(0, v, true); writeWord64(); }, writeSource: 'word64.setBigInt64(0, v, true); b.tape[b.t++] = word64.getInt32(0, true); b.tape[b.t++] = word64.getInt32(4, true);' },
  { kind: FLOAT64, expected: 'a number', tapeWords: 2, accepts: (v) => typeof v === 'number', acceptsSource: `typeof v === 'number'`,
    write: (v) => { word64.setFloat64(0, v, true); writeWord64(); }, writeSource: 'word64.setFloat64(0, v, true); b.tape[b.t++] = word64.getInt32(0, true); b.tape[b.t++] = word64.getInt32(4, true);' },
  { kind: UUID, expected: 'a 22-character base64url uuid', tapeWords: 1, write: writeUuid, writeSource: 'uuid(v);' },
  { kind: STRING, expected: 'a string', tapeWords: 2, write: writeString, writeSource: 'str(v, $nullable, $compact);' },
  { kind: BYTES, expected: 'a Uint8Array', tapeWords: 2, write: writeBytes, writeSource: 'bytes(v, $nullable);' },
  { kind: RECORDS, expected: 'a Uint8Array', tapeWords: 2, write: writeBytes, writeSource: 'bytes(v, $nullable);' },
]);

// ---- the JSON form ----

/** How a kind's values appear in the JSON form (json.ts) and in explain's nodes. */
export interface KindJson {
  readonly kind: number;
  /** The value as JSON can carry it (bytes as lowercase hex); absent: the value itself. */
  readonly toJson?: (v: any) => string | number;
  /** The value back from its JSON form, or undefined when `json` is not one; absent: taken as it is (the encoders check it). */
  readonly fromJson?: (json: unknown) => unknown;
  /** What the JSON form of a value must be, for fromJson's errors. */
  readonly expectedJson?: string;
}

const FLOAT64_SPECIALS = ['NaN', 'Infinity', '-Infinity'];
const hexFromJson = (json: unknown) => (typeof json === 'string' ? fromHex(json) ?? undefined : undefined);

/**
 * The kinds' JSON forms, indexed by kind number; rows only for the kinds JSON cannot carry as they
 * are: int64 as a decimal string, float64's specials as strings, bytes and records as hex.
 */
export const KIND_JSON = /* @__PURE__ */ byKind<KindJson>([
  { kind: INT64, toJson: String, expectedJson: 'an int64 as a decimal string',
    fromJson: (json) => (typeof json === 'string' && /^-?\d+$/.test(json)) || Number.isSafeInteger(json) ? BigInt(json as string) : undefined },
  { kind: FLOAT64, toJson: (v: number) => (Number.isFinite(v) ? v : String(v)), expectedJson: 'a number',
    fromJson: (json) => typeof json === 'number' ? json : FLOAT64_SPECIALS.includes(json as string) ? Number(json) : undefined },
  { kind: BYTES, toJson: toHex, fromJson: hexFromJson, expectedJson: 'bytes as hex' },
  { kind: RECORDS, toJson: toHex, fromJson: hexFromJson, expectedJson: 'bytes as hex' },
]);

/** The error for a value the encoders cannot write. */
export function invalid(detail: string): KafkaWireError {
  return new KafkaWireError('INVALID_VALUE', -1, '', detail);
}

/** A short description of a value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : v.constructor?.name ?? 'an object';
  return String(v);
}

/** Throws INVALID_VALUE: `v` is not a value of `kind`. */
export function badValue(kind: number, v: unknown): never {
  throw invalid(`expected ${KIND_WRITES[kind]!.expected}, got ${describe(v)}`);
}

/**
 * The error a writer's catch rethrows for `e`, thrown writing value `v` of `kind`: the integer
 * checks are bit operations, which throw a TypeError for a bigint, and that becomes INVALID_VALUE
 * here, on the failure path, so the checks themselves stay one expression.
 */
export function asValueError(e: unknown, kind: number, v: unknown): unknown {
  return e instanceof TypeError && typeof v === 'bigint' && KIND_WRITES[kind]?.accepts !== undefined
    ? invalid(`expected ${KIND_WRITES[kind]!.expected}, got ${describe(v)}`) : e;
}

// The writers of strings, bytes and uuids, which check their values as they write them: the
// interpreter's, and called by the generated writers too.

export function writeString(v: unknown, nullable: boolean, compact: boolean): void {
  if (v === null) return writeNull(nullable);
  if (typeof v !== 'string') badValue(STRING, v);
  heapRoom(v.length * 3);
  const length = encodeUtf8Into(v, b.heap, b.h);
  if (!compact && length > 0x7fff) throw invalid(`a string of ${length} bytes does not fit an int16 length`);
  b.tape[b.t++] = b.h;
  b.tape[b.t++] = length;
  b.h += length;
}

export function writeBytes(v: unknown, nullable: boolean): void {
  if (v === null) return writeNull(nullable);
  if (!(v instanceof Uint8Array)) badValue(BYTES, v);
  if (v.length >= LARGE_BYTES) {
    b.tape[b.t++] = ~b.large.length;
    b.tape[b.t++] = v.length;
    b.large.push(v);
    b.largeBytes += v.length;
    return;
  }
  heapRoom(v.length);
  b.heap.set(v, b.h);
  b.tape[b.t++] = b.h;
  b.tape[b.t++] = v.length;
  b.h += v.length;
}

export function writeUuid(v: unknown): void {
  heapRoom(16);
  if (typeof v !== 'string' || !base64UrlToBytes(v, b.heap, b.h)) badValue(UUID, v);
  b.tape[b.t++] = b.h;
  b.h += 16;
}

function writeNull(nullable: boolean): void {
  if (!nullable) throw invalid('null is not allowed in this version');
  b.tape[b.t++] = 0;
  b.tape[b.t++] = -1;
}

/** Schema type name → kind, for the primitive types. */
export const KIND_OF_TYPE: Readonly<Record<string, number>> = /* @__PURE__ */ Object.fromEntries(
  KINDS.filter((k) => k !== undefined).map((k) => [k.type, k.kind]));
