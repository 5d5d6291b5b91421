// The core of the message codec, for any API definition it is handed: typed objects in and out,
// one WebAssembly call per frame. It imports no catalogue, so a bundle that uses one API carries
// one API (src/codec.ts adds lookups by key over the whole catalogue).
// Decoding: the frame is copied into WebAssembly memory, `scan` checks it whole and writes a tape
// of words (values, or offsets into the frame), and readStruct turns the tape into objects.
// Encoding: writeStruct flattens objects into a tape and a heap of string/bytes content, and
// `emit` writes the frame.
import { headerFor } from './catalogue/headers.js';
import type { ApiDef, MessageDef } from './schema.js';
import type { RequestHeader, ResponseHeader } from './generated/types.js';

export type { RequestHeader, ResponseHeader };
import { inVersions } from './schema.js';
import { KafkaWireError, WASM_ERROR_CODES } from './errors.js';
import { DEFAULT_MAX_FRAME_SIZE } from './limits.js';
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  checkKnownFields, compileMessage, completeStruct, opFields, type CompiledField, type CompiledStruct,
} from './program.js';
import { codecWasm, ensureMemory, i32, scratchBase, u8 } from './wasm/codec-module.js';
import { base64UrlToBytes, bytesToBase64Url, decodeUtf8, encodeUtf8Into } from './text.js';
import { codegenAvailable, generateReader, generateWriter, KIND_NAMES, type EncodeBuffers, type TapeReader, type TapeWriter } from './jit.js';

export type Direction = 'request' | 'response';

export interface DecodedRequest<B = any, K extends number = number> {
  apiKey: K;
  apiVersion: number;
  header: RequestHeader;
  body: B;
}

export interface DecodedResponse<B = any> {
  header: ResponseHeader;
  body: B;
}

/**
 * A body type an API definition carries: decoded ('request', 'response') or as a caller writes it
 * ('requestInput', 'responseInput'); any for a definition typed only as ApiDef (known at run time).
 */
export type BodyOf<A extends ApiDef, P extends keyof NonNullable<ApiDef['types']>> = NonNullable<A['types']>[P];

export interface Limits {
  /** Longest array accepted on decode. */
  maxArrayLength?: number;
  /** Longest string, bytes or records value accepted on decode. */
  maxLength?: number;
  /** Deepest struct nesting accepted on decode. */
  maxDepth?: number;
  /**
   * Largest frame accepted on decode: its size field, the bytes after the 4-byte prefix (Kafka's
   * socket.request.max.bytes, and the frame splitter's limit); for a body alone, its length.
   */
  maxFrameSize?: number;
}

export interface EncodeOptions {
  /**
   * Default true: a property that no version of its struct has (a misspelling) throws
   * UNKNOWN_FIELD. False skips that check, for callers re-encoding objects this library decoded
   * (a proxy), whose properties are all known: the check walks every struct object's properties.
   */
  checkFields?: boolean;
}

export interface MessageDecodeOptions extends Limits {
  /**
   * Applied to every records field as it is read (e.g. decodeRecordBatches), so a Fetch
   * response arrives with its batches decoded; without it records fields are byte views.
   */
  recordsDecoder?: (records: Uint8Array) => unknown;
}

export const defaultLimits: Required<Limits> = {
  maxArrayLength: 1 << 24,
  maxLength: 0x7fffffff,
  maxDepth: 32,
  // Kafka's own default for socket.request.max.bytes.
  maxFrameSize: DEFAULT_MAX_FRAME_SIZE,
};

// ---- versions and plans ----

function checkVersion(message: MessageDef, version: number): void {
  if (!(Number.isInteger(version) && version >= message.validVersions[0] && version <= message.validVersions[1])) {
    throw new KafkaWireError('UNSUPPORTED_VERSION', -1, '',
      `${message.name} has versions ${message.validVersions[0]}-${message.validVersions[1]}, not ${version}`);
  }
}

/**
 * The header version a message version travels with: requests v2 when flexible, else v1
 * (ControlledShutdown v0: v0); responses v1 when flexible, else v0 (ApiVersions: always v0).
 */
export function headerVersionFor(message: MessageDef, version: number): number {
  const flexible = inVersions(message.flexibleVersions, version);
  if (message.type === 'request') return message.apiKey === 7 && version === 0 ? 0 : flexible ? 2 : 1;
  return message.apiKey === 18 ? 0 : flexible ? 1 : 0;
}

/** The compiled header and body of one message version. */
export interface MessagePlan {
  header: CompiledStruct;
  body: CompiledStruct;
  headerVersion: number;
}

/** A body without a header (decodeBody/encodeBody). */
interface BodyPlan {
  header: null;
  body: CompiledStruct;
}

const plans = new WeakMap<MessageDef, { full: MessagePlan; bodyOnly: BodyPlan }[]>();

/** The plans of one message version, built once (every encode and decode starts here). */
function plansFor(message: MessageDef, version: number): { full: MessagePlan; bodyOnly: BodyPlan } {
  let byVersion = plans.get(message);
  if (byVersion === undefined) plans.set(message, (byVersion = []));
  let cached = byVersion[version];
  if (cached === undefined) {
    checkVersion(message, version);
    const headerVersion = headerVersionFor(message, version);
    const body = compileMessage(message, version);
    const header = compileMessage(headerFor(message), headerVersion);
    byVersion[version] = cached = { full: { header, body, headerVersion }, bodyOnly: { header: null, body } };
  }
  return cached;
}

export function planForMessage(message: MessageDef, version: number): MessagePlan {
  return plansFor(message, version).full;
}

/**
 * A message with every field at its default, then `fields` laid over it at every depth (a struct
 * given in part is completed with its defaults). A property no version has throws UNKNOWN_FIELD.
 */
export function newMessageFor<M = any>(message: MessageDef, version: number, fields?: object): M {
  const body = plansFor(message, version).bodyOnly.body;
  if (fields === undefined) return body.create() as M;
  try {
    return completeStruct(body, fields) as M;
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(body.name);
    throw error;
  }
}

// ---- decoding ----

/** Where a finished scan left its tape. */
export interface ScanResult {
  /** Word index of the tape's first word in the `i32` view. */
  start: number;
  words: number;
}

/**
 * Runs the WebAssembly scan over `input`; on success the tape is at i32[start, start + words).
 * The tape stays valid until the next call into the codec.
 */
export function scanMessage(
  plan: { header: CompiledStruct | null; body: CompiledStruct }, input: Uint8Array, framed: boolean,
  withSpans: boolean, limits: Limits | undefined,
): ScanResult {
  const maxFrameSize = limits?.maxFrameSize ?? defaultLimits.maxFrameSize;
  const size = framed ? input.length - 4 : input.length;
  if (size > maxFrameSize) {
    throw new KafkaWireError('FRAME_LIMIT', 0, '', `a frame of ${size} bytes, over the maxFrameSize limit of ${maxFrameSize}`);
  }
  const inputPtr = scratchBase();
  ensureMemory(inputPtr + input.length);
  u8.set(input, inputPtr); // once: growing memory for a larger tape keeps it
  let tapeBytes = (input.length + 64) * (withSpans ? 16 : 4);
  for (;;) {
    const tapePtr = (inputPtr + input.length + 7) & ~7;
    lastTapePtr = tapePtr;
    const scratchPtr = tapePtr + tapeBytes;
    ensureMemory(scratchPtr + input.length * 2 + 64);
    try {
      const words = codecWasm().scan(plan.header?.ptr ?? 0, plan.body.ptr, inputPtr, input.length, framed,
        tapePtr, tapeBytes, scratchPtr, withSpans,
        limits?.maxArrayLength ?? defaultLimits.maxArrayLength,
        limits?.maxLength ?? defaultLimits.maxLength,
        limits?.maxDepth ?? defaultLimits.maxDepth);
      return { start: tapePtr >> 2, words };
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      const code = codecWasm().lastErrorCode();
      if (code === E_TAPE_FULL) { tapeBytes *= 2; continue; }
      throw scanError(plan, code);
    }
  }
}

let lastTapePtr = 0;

/**
 * The tape the last scan wrote, as far as it got: after a failed scan in spans mode, every value
 * it had checked before the failure (explain shows a damaged frame that far). Valid until the
 * next call into the codec.
 */
export function lastScanTape(): ScanResult {
  return { start: lastTapePtr >> 2, words: (codecWasm().tapePosition() - lastTapePtr) >> 2 };
}

/** The scan's "tape full" code (assembly/codec.ts): the facade retries with a larger tape. */
const E_TAPE_FULL = 10;

function scanError(plan: { header: CompiledStruct | null; body: CompiledStruct }, code: number): KafkaWireError {
  const depth = codecWasm().lastErrorDepth();
  const ops = codecWasm().pathOpsPtr() >> 2;
  const indexes = codecWasm().pathIndexesPtr() >> 2;
  let path = '';
  let root = plan.body.name;
  for (let d = 0; d <= depth; d++) {
    const op = i32[ops + d];
    const field = op === 0 ? undefined : opFields.get(op);
    if (d === 0 && field !== undefined && plan.header !== null && plan.header.fields.includes(field)) root = 'header';
    path += field === undefined ? (op === 0 ? '.taggedFields' : '') : `.${field.name}`;
    const index = i32[indexes + d];
    if (index >= 0) path += `[${index}]`;
  }
  const errorCode = WASM_ERROR_CODES[code] ?? 'TRUNCATED';
  return new KafkaWireError(errorCode, codecWasm().lastErrorOffset(), depth < 0 ? root : root + path);
}

// The tape being read, and the frame its offsets point into.
let tape: Int32Array = i32;
let t = 0;
let src: Uint8Array = new Uint8Array(0);
let view: DataView = new DataView(src.buffer);
let recordsDecoder: ((records: Uint8Array) => unknown) | undefined;

function readStruct(s: CompiledStruct): any {
  const o = s.create();
  const regular = s.regular;
  for (let i = 0; i < regular.length; i++) {
    const f = regular[i];
    o[f.name] = readField(f);
  }
  if (s.flexible) readTaggedFields(s, o);
  return o;
}

function readTaggedFields(s: CompiledStruct, o: any): void {
  const count = tape[t++];
  for (let i = 0; i < count; i++) {
    const tag = tape[t++] >>> 0;
    const known = tape[t++];
    if (known >= 0) {
      const f = s.tagged[known];
      o[f.name] = readField(f);
    } else {
      const offset = tape[t++];
      const length = tape[t++];
      (o._unknownTaggedFields ??= {})[tag] = src.subarray(offset, offset + length);
    }
  }
}

function readField(f: CompiledField): any {
  if (f.kind !== ARRAY) return readValue(f.kind, f.nullable, f.struct);
  const count = tape[t++];
  if (count < 0) return null;
  const items: any[] = [];
  const kind = f.elementKind;
  const struct = f.struct;
  for (let i = 0; i < count; i++) items.push(readValue(kind, false, struct));
  return items;
}

function readValue(kind: number, nullable: boolean, struct: CompiledStruct | null): any {
  switch (kind) {
    case BOOL: return tape[t++] !== 0;
    case INT8: case INT16: case UINT16: case INT32: return tape[t++];
    case UINT32: return tape[t++] >>> 0;
    case INT64: return view.getBigInt64(tape[t++]);
    case FLOAT64: return view.getFloat64(tape[t++]);
    case UUID: return bytesToBase64Url(src, tape[t++]);
    case STRING: {
      const offset = tape[t++];
      const length = tape[t++];
      return length < 0 ? null : decodeUtf8(src, offset, length);
    }
    case BYTES: case RECORDS: {
      const offset = tape[t++];
      const length = tape[t++];
      if (length < 0) return null;
      const bytes = src.subarray(offset, offset + length);
      return kind === RECORDS && recordsDecoder !== undefined ? recordsDecoder(bytes) : bytes;
    }
    case STRUCT:
      if (nullable && tape[t++] < 0) return null;
      return readStruct(struct!);
  }
  throw new Error(`kafka-wire: unknown kind ${kind}`);
}

/** Points the interpreter's tape reader at word `start`, with offsets into `input` (seen through `inputView`). */
function beginTape(start: number, input: Uint8Array, inputView: DataView): void {
  tape = i32;
  t = start;
  src = input;
  view = inputView;
}

function decodeFrame(plan: MessagePlan, frame: Uint8Array, options: MessageDecodeOptions | undefined): { header: any; body: any } {
  const scan = scanMessage(plan, frame, true, false, options);
  recordsDecoder = options?.recordsDecoder;
  const frameView = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const header = readRoot(plan.header, scan.start, frame, frameView);
  const body = readRoot(plan.body, rootEnd, frame, frameView);
  return { header, body };
}

function peekInt16(frame: Uint8Array, at: number): number {
  return ((frame[at] << 24) | (frame[at + 1] << 16)) >> 16;
}

/** The API key and version a request frame announces (bytes 4-8). */
export function peekRequest(frame: Uint8Array): { apiKey: number; apiVersion: number } {
  if (frame.length < 8) throw new KafkaWireError('TRUNCATED', frame.length, 'header', 'a request frame needs at least 8 bytes');
  return { apiKey: peekInt16(frame, 4), apiVersion: peekInt16(frame, 6) };
}

/**
 * Decodes a whole request frame of `api` (int32 size prefix, header, body). Bytes and records
 * fields are views into `frame`.
 */
export function decodeRequestFor<A extends ApiDef>(api: A, frame: Uint8Array, options?: MessageDecodeOptions): DecodedRequest<BodyOf<A, 'request'>> {
  const { apiKey, apiVersion } = peekRequest(frame);
  if (apiKey !== api.apiKey) throw new KafkaWireError('UNSUPPORTED_API', 4, 'header.requestApiKey', `expected ${api.name} (${api.apiKey}), got ${apiKey}`);
  const { header, body } = decodeFrame(planForMessage(api.request, apiVersion), frame, options);
  return { apiKey, apiVersion, header, body };
}

/** Decodes a whole response frame of `api`; the version comes from the matching request. */
export function decodeResponseFor<A extends ApiDef>(api: A, frame: Uint8Array, apiVersion: number, options?: MessageDecodeOptions): DecodedResponse<BodyOf<A, 'response'>> {
  return decodeFrame(planForMessage(api.response, apiVersion), frame, options);
}

/** Decodes a bare body (no size prefix, no header). */
export function decodeBodyFor(message: MessageDef, version: number, bytes: Uint8Array, options?: MessageDecodeOptions): any {
  const plan = plansFor(message, version).bodyOnly;
  const scan = scanMessage(plan, bytes, false, false, options);
  recordsDecoder = options?.recordsDecoder;
  return readRoot(plan.body, scan.start, bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

// ---- encoding ----

const b: EncodeBuffers = { tape: new Int32Array(1024), t: 0, heap: new Uint8Array(4096), h: 0, checkFields: true };
const scratch64 = new DataView(new ArrayBuffer(8));

function tapeRoom(words: number): void {
  if (b.t + words > b.tape.length) {
    const grown = new Int32Array(Math.max(b.tape.length * 2, b.t + words));
    grown.set(b.tape.subarray(0, b.t));
    b.tape = grown;
  }
}

function heapRoom(bytes: number): void {
  if (b.h + bytes > b.heap.length) {
    const grown = new Uint8Array(Math.max(b.heap.length * 2, b.h + bytes));
    grown.set(b.heap.subarray(0, b.h));
    b.heap = grown;
  }
}

function invalid(detail: string): KafkaWireError {
  return new KafkaWireError('INVALID_VALUE', -1, '', detail);
}

function writeStruct(s: CompiledStruct, o: any): void {
  if (o === null || typeof o !== 'object') throw invalid(`expected a ${s.name} object, got ${describe(o)}`);
  if (b.checkFields) checkKnownFields(s, o);
  let f: CompiledField | undefined;
  try {
    const regular = s.regular;
    for (let i = 0; i < regular.length; i++) {
      f = regular[i];
      writeField(f, o[f.name]);
    }
    const absent = s.absent;
    for (let i = 0; i < absent.length; i++) {
      f = absent[i];
      if (!f.def.ignorable && !isDefault(f, o[f.name])) throw notInVersion(s, f);
    }
    f = undefined;
    if (s.flexible) writeTaggedFields(s, o, writeField);
  } catch (error) {
    if (error instanceof KafkaWireError && f !== undefined) throw error.within(f.name);
    throw error;
  }
}

function writeTaggedFields(s: CompiledStruct, o: any, writeField: (f: CompiledField, v: unknown) => void): void {
  const unknown: Record<number, Uint8Array> | undefined = o._unknownTaggedFields;
  const tagged = s.tagged;
  let present = 0;
  for (let i = 0; i < tagged.length; i++) if (!isDefault(tagged[i], o[tagged[i].name])) present++;
  if (unknown === undefined && present === 0) {
    tapeRoom(1);
    b.tape[b.t++] = 0;
    return;
  }
  // Known and unknown tags merged in ascending order, as Kafka writes them.
  const entries: { tag: number; known: number; bytes?: Uint8Array }[] = [];
  for (let i = 0; i < tagged.length; i++) {
    if (!isDefault(tagged[i], o[tagged[i].name])) entries.push({ tag: tagged[i].tag, known: i });
  }
  if (unknown !== undefined) {
    for (const key of Object.keys(unknown)) {
      const tag = Number(key);
      const bytes = unknown[tag as any];
      if (!Number.isInteger(tag) || tag < 0 || tag > 0xffffffff || !(bytes instanceof Uint8Array)) {
        throw invalid(`_unknownTaggedFields must map tag numbers to Uint8Array, got ${key}`);
      }
      entries.push({ tag, known: -1, bytes });
    }
  }
  entries.sort((a, b) => a.tag - b.tag);
  for (let i = 1; i < entries.length; i++) {
    if (entries[i].tag === entries[i - 1].tag) {
      throw new KafkaWireError('DUPLICATE_TAG', -1, '_unknownTaggedFields', `tag ${entries[i].tag} is given twice`);
    }
  }
  tapeRoom(1);
  b.tape[b.t++] = entries.length;
  for (const entry of entries) {
    tapeRoom(4);
    b.tape[b.t++] = entry.tag | 0;
    b.tape[b.t++] = entry.known;
    if (entry.known >= 0) {
      const f = tagged[entry.known];
      try {
        writeField(f, o[f.name]);
      } catch (error) {
        if (error instanceof KafkaWireError) throw error.within(f.name);
        throw error;
      }
    } else {
      const bytes = entry.bytes!;
      heapRoom(bytes.length);
      b.heap.set(bytes, b.h);
      b.tape[b.t++] = b.h;
      b.tape[b.t++] = bytes.length;
      b.h += bytes.length;
    }
  }
}

function writeField(f: CompiledField, value: any): void {
  if (value === undefined) value = f.makeDefault();
  if (f.kind !== ARRAY) {
    writeValue(f.kind, f.nullable, f.compact, f.struct, value);
    return;
  }
  tapeRoom(1);
  if (value === null) {
    if (!f.nullable) throw invalid(`null is not allowed in this version`);
    b.tape[b.t++] = -1;
    return;
  }
  if (!Array.isArray(value)) throw invalid(`expected an array, got ${describe(value)}`);
  b.tape[b.t++] = value.length;
  const kind = f.elementKind;
  const struct = f.struct;
  let i = 0;
  try {
    for (; i < value.length; i++) writeValue(kind, false, f.compact, struct, value[i]);
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(`[${i}]`);
    throw error;
  }
}

function writeValue(kind: number, nullable: boolean, compact: boolean, struct: CompiledStruct | null, v: any): void {
  tapeRoom(2);
  switch (kind) {
    case BOOL:
      if (typeof v !== 'boolean') badValue(BOOL, v);
      b.tape[b.t++] = v ? 1 : 0;
      return;
    case INT8:
      if ((v << 24 >> 24) !== v) badValue(INT8, v);
      b.tape[b.t++] = v;
      return;
    case INT16:
      if ((v << 16 >> 16) !== v) badValue(INT16, v);
      b.tape[b.t++] = v;
      return;
    case UINT16:
      if ((v & 0xffff) !== v) badValue(UINT16, v);
      b.tape[b.t++] = v;
      return;
    case INT32:
      if ((v | 0) !== v) badValue(INT32, v);
      b.tape[b.t++] = v;
      return;
    case UINT32:
      if ((v >>> 0) !== v) badValue(UINT32, v);
      b.tape[b.t++] = v | 0;
      return;
    case INT64:
      if (typeof v !== 'bigint' || BigInt.asIntN(64, v) !== v) badValue(INT64, v);
      scratch64.setBigInt64(0, v, true);
      b.tape[b.t++] = scratch64.getInt32(0, true);
      b.tape[b.t++] = scratch64.getInt32(4, true);
      return;
    case FLOAT64:
      if (typeof v !== 'number') badValue(FLOAT64, v);
      scratch64.setFloat64(0, v, true);
      b.tape[b.t++] = scratch64.getInt32(0, true);
      b.tape[b.t++] = scratch64.getInt32(4, true);
      return;
    case UUID: return writeUuid(v);
    case STRING: return writeString(v, nullable, compact);
    case BYTES: case RECORDS: return writeBytes(v, nullable);
    case STRUCT:
      if (nullable) {
        b.tape[b.t++] = v === null ? -1 : 1;
        if (v === null) return;
      }
      writeStruct(struct!, v);
      return;
  }
  throw new Error(`kafka-wire: unknown kind ${kind}`);
}

// The writers of strings, bytes and uuids, and the value-type error: the interpreter's, and
// handed to the generated writers (src/jit.ts) too.
function writeString(v: unknown, nullable: boolean, compact: boolean): void {
  if (v === null) return writeNull(nullable);
  if (typeof v !== 'string') throw invalid(`expected a string, got ${describe(v)}`);
  heapRoom(v.length * 3);
  const length = encodeUtf8Into(v, b.heap, b.h);
  if (!compact && length > 0x7fff) throw invalid(`a string of ${length} bytes does not fit an int16 length`);
  b.tape[b.t++] = b.h;
  b.tape[b.t++] = length;
  b.h += length;
}

function writeBytes(v: unknown, nullable: boolean): void {
  if (v === null) return writeNull(nullable);
  if (!(v instanceof Uint8Array)) throw invalid(`expected a Uint8Array, got ${describe(v)}`);
  heapRoom(v.length);
  b.heap.set(v, b.h);
  b.tape[b.t++] = b.h;
  b.tape[b.t++] = v.length;
  b.h += v.length;
}

function writeUuid(v: unknown): void {
  heapRoom(16);
  if (typeof v !== 'string' || !base64UrlToBytes(v, b.heap, b.h)) throw invalid(`expected a 22-character base64url uuid, got ${describe(v)}`);
  b.tape[b.t++] = b.h;
  b.h += 16;
}

function badValue(kind: number, v: unknown): never {
  throw invalid(`expected ${KIND_NAMES[kind]}, got ${describe(v)}`);
}

function writeNull(nullable: boolean): void {
  if (!nullable) throw invalid('null is not allowed in this version');
  b.tape[b.t++] = 0;
  b.tape[b.t++] = -1;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : v.constructor?.name ?? 'an object';
  return String(v);
}

/** Whether `v` equals the field's default (Kafka writes a tagged field only when it does not). */
function isDefault(f: CompiledField, v: any): boolean {
  if (v === undefined) return true;
  if (f.defaultValue !== undefined) {
    if (f.defaultValue === null) return v === null;
    return v === f.defaultValue || (f.kind === FLOAT64 && Number.isNaN(v) && Number.isNaN(f.defaultValue));
  }
  if (v === null) return false;
  switch (f.kind) {
    case ARRAY: return Array.isArray(v) && v.length === 0;
    case BYTES: return v instanceof Uint8Array && v.length === 0;
    case STRUCT: return isDefaultStruct(f.struct!, v);
  }
  return false;
}

function isDefaultStruct(s: CompiledStruct, o: any): boolean {
  if (typeof o !== 'object' || o._unknownTaggedFields !== undefined) return false;
  for (const f of s.fields) if (!isDefault(f, o[f.name])) return false;
  return true;
}

function notInVersion(s: CompiledStruct, f: CompiledField): KafkaWireError {
  return new KafkaWireError('NOT_IN_VERSION', -1, '',
    `${s.name}.${f.name} has a non-default value but version ${s.version} does not have the field`);
}

const writerHelpers = {
  room: tapeRoom, invalid, isDefault, describe, writeTaggedFields, notInVersion, checkKnownFields,
  str: writeString, bytes: writeBytes, uuid: writeUuid, bad: badValue,
};

const writers = new WeakMap<CompiledStruct, TapeWriter>();
const readers = new WeakMap<CompiledStruct, TapeReader>();

/** Appends a root struct (a header or body) to the encode tape, generated code when allowed. */
function writeRoot(s: CompiledStruct, o: unknown, name: string): void {
  try {
    if (!codegenAvailable()) return writeStruct(s, o);
    let writer = writers.get(s);
    if (writer === undefined) writers.set(s, (writer = generateWriter(s, b, writerHelpers)));
    writer.write(o);
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(name);
    throw error;
  }
}

/** Reads a root struct from the tape at word `start`; returns it and where it ended. */
function readRoot(s: CompiledStruct, start: number, input: Uint8Array, inputView: DataView): any {
  if (!codegenAvailable()) {
    beginTape(start, input, inputView);
    const value = readStruct(s);
    rootEnd = t;
    return value;
  }
  let reader = readers.get(s);
  if (reader === undefined) readers.set(s, (reader = generateReader(s)));
  const value = reader.read(i32, start, input, inputView, recordsDecoder);
  rootEnd = reader.end;
  return value;
}

let rootEnd = 0;

/**
 * Fills the encode tape for `plan` and calls `emit`. With `measure`, returns only the length.
 */
function encodeWith(plan: { header: CompiledStruct | null; body: CompiledStruct }, header: unknown, body: unknown,
  framed: boolean, measure: boolean, options: EncodeOptions | undefined): Uint8Array | number {
  b.t = 0;
  b.h = 0;
  b.checkFields = options?.checkFields !== false;
  if (plan.header !== null) writeRoot(plan.header, header, 'header');
  writeRoot(plan.body, body, plan.body.name);
  const heapPtr = scratchBase();
  const tapePtr = (heapPtr + b.h + 7) & ~7;
  const outPtr = tapePtr + b.t * 4;
  // Every tape word becomes at most 5 bytes (a varint) besides what is copied from the heap.
  ensureMemory(outPtr + (measure ? 0 : b.t * 5 + b.h + 16));
  if (!measure) u8.set(b.heap.subarray(0, b.h), heapPtr); // measuring reads lengths from the tape only
  i32.set(b.tape.subarray(0, b.t), tapePtr >> 2);
  const length = codecWasm().emit(plan.header?.ptr ?? 0, plan.body.ptr, framed, tapePtr, heapPtr, outPtr, measure);
  return measure ? length : u8.slice(outPtr, outPtr + length);
}

/** Throws INVALID_VALUE at path `header` unless `header` is an object (before reading its key). */
export function checkRequestHeader(header: unknown): void {
  if (header === null || typeof header !== 'object') {
    throw new KafkaWireError('INVALID_VALUE', -1, 'header', 'expected a request header object');
  }
}

function requestPlan(api: ApiDef, header: RequestHeader): MessagePlan {
  checkRequestHeader(header);
  if (header.requestApiKey !== api.apiKey) {
    throw new KafkaWireError('UNSUPPORTED_API', -1, 'header.requestApiKey', `expected ${api.name} (${api.apiKey}), got ${header.requestApiKey}`);
  }
  return planForMessage(api.request, header.requestApiVersion);
}

/** Encodes a whole request frame: size prefix, header (its version chosen by the API), body. */
export function encodeRequestFor<A extends ApiDef>(api: A, header: RequestHeader, body: BodyOf<A, 'requestInput'>, options?: EncodeOptions): Uint8Array {
  return encodeWith(requestPlan(api, header), header, body, true, false, options) as Uint8Array;
}

/** Encodes a whole response frame. */
export function encodeResponseFor<A extends ApiDef>(api: A, apiVersion: number, header: ResponseHeader, body: BodyOf<A, 'responseInput'>, options?: EncodeOptions): Uint8Array {
  return encodeWith(planForMessage(api.response, apiVersion), header, body, true, false, options) as Uint8Array;
}

/** Encodes a bare body (no size prefix, no header). */
export function encodeBodyFor(message: MessageDef, version: number, body: object, options?: EncodeOptions): Uint8Array {
  return encodeWith(plansFor(message, version).bodyOnly, null, body, false, false, options) as Uint8Array;
}

/** The exact length encodeRequestFor would produce, without writing it. */
export function requestSizeFor<A extends ApiDef>(api: A, header: RequestHeader, body: BodyOf<A, 'requestInput'>, options?: EncodeOptions): number {
  return encodeWith(requestPlan(api, header), header, body, true, true, options) as number;
}

/** The exact length encodeResponseFor would produce, without writing it. */
export function responseSizeFor<A extends ApiDef>(api: A, apiVersion: number, header: ResponseHeader, body: BodyOf<A, 'responseInput'>, options?: EncodeOptions): number {
  return encodeWith(planForMessage(api.response, apiVersion), header, body, true, true, options) as number;
}
