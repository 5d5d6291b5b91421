// The message codec for any API definition it is handed (`kafka-wire/core`): typed objects in and
// out, one WebAssembly call per frame. It imports no catalogue, so a bundle that uses one API
// carries one API (by-key.ts adds lookups by key over the whole catalogue).
// Decoding: scan.ts checks the frame whole and writes a tape; the generated reader (generate.ts),
// or the interpreter (read.ts) where code generation is forbidden, turns the tape into objects.
// Encoding: the generated writer or the interpreter (write.ts) flattens objects into a tape and a
// heap (encode-buffers.ts), and the WebAssembly `emit` writes the frame.
import type { ApiDef, MessageDef } from '../catalogue/schema.js';
import { KafkaWireError } from '../errors.js';
import { bodyPlanFor, planForMessage, type CompiledStruct, type MessagePlan } from './plan.js';
import { completeStruct } from './known-fields.js';
import { codecWasm, ensureMemory, i32, scratchBase, u8 } from './engine.js';
import { RecordsInFrame, setTop, top, type HeldFrame } from '../wasm/memory.js';
import { codegenAvailable, generateReader, generateWriter, type TapeReader, type TapeWriter } from './generate.js';
import { interpretRoot, type TapeCursor } from './read.js';
import { writeStruct } from './write.js';
import { b } from './encode-buffers.js';
import { allocateBytes } from '../bytes.js';
import { peekRequest, scanMessage } from './scan.js';
import { checkRequestHeader } from './values.js';
import type {
  BodyOf, DecodedRequest, DecodedResponse, EncodeOptions, MessageBody, MessageDecodeOptions, MessageInput, RecordsField,
  RequestHeader, ResponseHeader,
} from './types.js';

export type {
  ApiKeyNumber, BodyOf, DecodedRequest, DecodedResponse, Direction, EncodeOptions, Limits, MessageBody, MessageDecodeOptions,
  MessageInput, RecordsField, RequestBody, RequestHeader, RequestInput, ResponseBody, ResponseHeader, ResponseInput,
} from './types.js';
export { defaultLimits } from './types.js';
export { headerVersionFor } from './plan.js';

/**
 * A message with every field at its default, then `fields` laid over it at every depth (a struct
 * given in part is completed with its defaults). A property no version has throws UNKNOWN_FIELD.
 */
export function newMessageFor<M extends MessageDef>(message: M, version: number, fields?: MessageInput<M>): MessageBody<M> {
  const body = bodyPlanFor(message, version).body;
  if (fields === undefined) return body.create() as MessageBody<M>;
  try {
    return completeStruct(body, fields) as MessageBody<M>;
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(body.name);
    throw error;
  }
}

// ---- decoding ----

const readers = new WeakMap<CompiledStruct, TapeReader>();

/** The generated reader of a root struct, made on first use. */
function readerFor(s: CompiledStruct): TapeReader {
  let reader = readers.get(s);
  if (reader === undefined) readers.set(s, (reader = generateReader(s)));
  return reader;
}

/** Reads a root struct at the cursor, generated code when allowed; the cursor moves past it. */
function readRoot(s: CompiledStruct, c: TapeCursor): any {
  if (!codegenAvailable()) return interpretRoot(c, s);
  return readerFor(s).read(c);
}

/**
 * Makes what decoding `api`'s response in `apiVersion` needs (its plan, and the generated readers
 * of its header and body) ahead of the answer: for a caller that has sent the request and waits,
 * so that the first answer of a kind (a consumer's first Fetch's) is not held up making them.
 */
export function prepareResponseFor(api: ApiDef, apiVersion: number): void {
  const plan = planForMessage(api.response, apiVersion);
  if (!codegenAvailable()) return;
  if (plan.header !== null) readerFor(plan.header);
  readerFor(plan.body);
}

/**
 * Scans `input` and reads its header (when the plan has one) and body from the tape, in place in
 * WebAssembly memory. Nothing else runs while the tape is read: a records hook, which may call the
 * codec again, runs on each records field afterwards, in the order the fields were read.
 */
function decodeWith(plan: { header: CompiledStruct | null; body: CompiledStruct }, input: Uint8Array, framed: boolean,
  options: MessageDecodeOptions | undefined): { header: any; body: any } {
  const ptr = scratchBase(); // where the scan copies the input
  const scan = scanMessage(plan, input, framed, false, options);
  const recordsDecoder = options?.recordsDecoder;
  const cursor: TapeCursor = {
    tape: i32, t: scan.start, src: input, view: new DataView(input.buffer, input.byteOffset, input.byteLength),
    later: recordsDecoder === undefined ? undefined : [],
  };
  const header = plan.header === null ? null : readRoot(plan.header, cursor);
  const body = readRoot(plan.body, cursor);
  const later = cursor.later;
  if (later?.length) {
    // Each hook gets its records as a view that knows where the frame's copy lies, so the records
    // engine reads them there (src/records/decode.ts). The copy stays below the arena's top while
    // the hooks run: their own decodes nest above it.
    const held: HeldFrame = { frame: input, ptr, name: plan.body.name, body, live: true };
    const mark = top;
    setTop(ptr + input.length);
    try {
      for (let i = 0; i < later.length; i += 3) {
        const bytes = later[i + 2] as Uint8Array;
        const records = new RecordsInFrame(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length);
        records.held = held;
        records.plain = bytes;
        later[i + 2] = recordsDecoder!(records);
      }
      // Set once every hook has run: until then the message holds only what the codec read.
      for (let i = 0; i < later.length; i += 3) (later[i] as any)[later[i + 1] as string | number] = later[i + 2];
    } finally {
      held.live = false;
      setTop(mark);
    }
  }
  return { header, body };
}

/**
 * Decodes a whole request frame of `api` (int32 size prefix, header, body). Bytes fields are views
 * into `frame`; records fields too, or what `recordsDecoder` makes of them (typed so).
 */
export function decodeRequestFor<A extends ApiDef, O extends MessageDecodeOptions = {}>(
  api: A, frame: Uint8Array, options?: O,
): DecodedRequest<BodyOf<A, 'request', RecordsField<O>>, A['apiKey']> {
  const { apiKey, apiVersion } = peekRequest(frame);
  if (apiKey !== api.apiKey) throw new KafkaWireError('UNSUPPORTED_API', 4, 'header.requestApiKey', `expected ${api.name} (${api.apiKey}), got ${apiKey}`);
  const { header, body } = decodeWith(planForMessage(api.request, apiVersion), frame, true, options);
  return { apiKey: apiKey as A['apiKey'], apiVersion, header, body };
}

/** Decodes a whole response frame of `api`; the version comes from the matching request. */
export function decodeResponseFor<A extends ApiDef, O extends MessageDecodeOptions = {}>(
  api: A, frame: Uint8Array, apiVersion: number, options?: O,
): DecodedResponse<BodyOf<A, 'response', RecordsField<O>>> {
  return decodeWith(planForMessage(api.response, apiVersion), frame, true, options);
}

/** Decodes a bare body (no size prefix, no header). */
export function decodeBodyFor<M extends MessageDef, O extends MessageDecodeOptions = {}>(
  message: M, version: number, bytes: Uint8Array, options?: O,
): MessageBody<M, RecordsField<O>> {
  return decodeWith(bodyPlanFor(message, version), bytes, false, options).body;
}

// ---- encoding ----

const writers = new WeakMap<CompiledStruct, TapeWriter>();

/** Appends a root struct (a header or body) to the encode tape, generated code when allowed. */
function writeRoot(s: CompiledStruct, o: unknown, name: string): void {
  try {
    if (!codegenAvailable()) return writeStruct(s, o);
    let writer = writers.get(s);
    if (writer === undefined) writers.set(s, (writer = generateWriter(s)));
    writer.write(o);
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(name);
    throw error;
  }
}

/**
 * Fills the encode tape for `plan` and calls `emit`. With `measure`, returns only the length.
 */
function encodeWith(plan: { header: CompiledStruct | null; body: CompiledStruct }, header: unknown, body: unknown,
  framed: boolean, measure: boolean, options: EncodeOptions | undefined, parts = false): Uint8Array | number | Uint8Array[] {
  b.t = 0;
  b.h = 0;
  b.large.length = 0;
  b.largeBytes = 0;
  b.checkFields = options?.checkFields !== false;
  try {
    if (plan.header !== null) writeRoot(plan.header, header, 'header');
    writeRoot(plan.body, body, plan.body.name);
    const heapPtr = scratchBase();
    const tapePtr = (heapPtr + b.h + 7) & ~7;
    const gapsPtr = tapePtr + b.t * 4;
    const outPtr = gapsPtr + b.large.length * 8;
    // Every tape word becomes at most 5 bytes (a varint) besides what is copied from the heap
    // and the room left for large values.
    ensureMemory(outPtr + (measure ? 0 : b.t * 5 + b.h + b.largeBytes + 16));
    if (!measure) u8.set(b.heap.subarray(0, b.h), heapPtr); // measuring reads lengths from the tape only
    i32.set(b.tape.subarray(0, b.t), tapePtr >> 2);
    const length = codecWasm().emit(plan.header?.ptr ?? 0, plan.body.ptr, framed, tapePtr, heapPtr, gapsPtr, outPtr, measure);
    if (measure) return length;
    if (b.large.length === 0) return parts ? [u8.slice(outPtr, outPtr + length)] : u8.slice(outPtr, outPtr + length);
    return parts ? frameParts(outPtr, length, gapsPtr >> 2) : joinFrame(outPtr, length, gapsPtr >> 2);
  } finally {
    b.large.length = 0; // drops the caller's arrays
  }
}

/** The frame emit left at outPtr, with each large value copied into the room it left for it. */
function joinFrame(outPtr: number, length: number, gapWord: number): Uint8Array {
  const frame = allocateBytes(length);
  let done = 0;
  for (let g = 0; g < b.large.length; g++, gapWord += 2) {
    const value = b.large[i32[gapWord]];
    const at = i32[gapWord + 1];
    frame.set(u8.subarray(outPtr + done, outPtr + at), done);
    frame.set(value, at);
    done = at + value.length;
  }
  frame.set(u8.subarray(outPtr + done, outPtr + length), done);
  return frame;
}

/**
 * The frame emit left at outPtr as pieces to write one after another: the encoded bytes between
 * large values (copied out, small) and the large values themselves (the caller's, not copied).
 */
function frameParts(outPtr: number, length: number, gapWord: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let done = 0;
  for (let g = 0; g < b.large.length; g++, gapWord += 2) {
    const value = b.large[i32[gapWord]];
    const at = i32[gapWord + 1];
    if (at > done) out.push(u8.slice(outPtr + done, outPtr + at));
    out.push(value);
    done = at + value.length;
  }
  if (length > done) out.push(u8.slice(outPtr + done, outPtr + length));
  return out;
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

/**
 * encodeRequestFor's frame as pieces whose concatenation is the frame: large byte fields (a
 * Produce request's record batches) are pieces of their own, not copied, for a socket to write
 * them one after another (writev).
 */
export function encodeRequestPartsFor<A extends ApiDef>(api: A, header: RequestHeader, body: BodyOf<A, 'requestInput'>, options?: EncodeOptions): Uint8Array[] {
  return encodeWith(requestPlan(api, header), header, body, true, false, options, true) as Uint8Array[];
}

/** Encodes a whole response frame. */
export function encodeResponseFor<A extends ApiDef>(api: A, apiVersion: number, header: ResponseHeader, body: BodyOf<A, 'responseInput'>, options?: EncodeOptions): Uint8Array {
  return encodeWith(planForMessage(api.response, apiVersion), header, body, true, false, options) as Uint8Array;
}

/** Encodes a bare body (no size prefix, no header). */
export function encodeBodyFor<M extends MessageDef>(message: M, version: number, body: MessageInput<M>, options?: EncodeOptions): Uint8Array {
  return encodeWith(bodyPlanFor(message, version), null, body, false, false, options) as Uint8Array;
}

/** The exact length encodeRequestFor would produce, without writing it. */
export function requestSizeFor<A extends ApiDef>(api: A, header: RequestHeader, body: BodyOf<A, 'requestInput'>, options?: EncodeOptions): number {
  return encodeWith(requestPlan(api, header), header, body, true, true, options) as number;
}

/** The exact length encodeResponseFor would produce, without writing it. */
export function responseSizeFor<A extends ApiDef>(api: A, apiVersion: number, header: ResponseHeader, body: BodyOf<A, 'responseInput'>, options?: EncodeOptions): number {
  return encodeWith(planForMessage(api.response, apiVersion), header, body, true, true, options) as number;
}
