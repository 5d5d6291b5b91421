// The message codec's public types and decode limits, shared by every file of the codec.
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';
import type {
  RequestBodies, RequestHeader, RequestInputs, ResponseBodies, ResponseHeader, ResponseInputs,
} from '../generated/types.js';
import type { ApiDef, MessageDef } from '../catalogue/schema.js';
import type { DecodedRecordBatches } from '../records/decode.js';

export type { RequestHeader, ResponseHeader };

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

export type ApiKeyNumber = keyof RequestBodies & number;

// Types by key. A key whose type is a literal (ApiKey.Produce, 0) or a union of them picks the
// generated types; a key typed plain `number`, known only at run time (proxies, the CLI, the
// explorer), or one the built-in catalogue lacks (a run-time catalogue's), takes any object and
// gives `any`: the run-time checks alone apply then. No call with a built-in key can reach the
// untyped form.

/** A request body as a caller writes it for key K: any field may be left out, none unknown. */
export type RequestInput<K extends number> = number extends K ? object : K extends ApiKeyNumber ? RequestInputs[K] : object;
/** A response body as a caller writes it for key K. */
export type ResponseInput<K extends number> = number extends K ? object : K extends ApiKeyNumber ? ResponseInputs[K] : object;
/** A decoded request body of key K, records fields of type R. */
export type RequestBody<K extends number, R = Uint8Array> = number extends K ? any : K extends ApiKeyNumber ? RequestBodies<R>[K] : any;
/** A decoded response body of key K, records fields of type R. */
export type ResponseBody<K extends number, R = Uint8Array> = number extends K ? any : K extends ApiKeyNumber ? ResponseBodies<R>[K] : any;

/**
 * The decoded body of a message definition, records fields of type R: the generated type for a
 * generated definition, untyped for one typed only as MessageDef (known at run time) or a header.
 */
export type MessageBody<M extends MessageDef, R = Uint8Array> =
  M['type'] extends 'request' ? RequestBody<M['apiKey'], R> : M['type'] extends 'response' ? ResponseBody<M['apiKey'], R> : any;
/** A body of a message definition as a caller writes it. */
export type MessageInput<M extends MessageDef> =
  M['type'] extends 'request' ? RequestInput<M['apiKey']> : M['type'] extends 'response' ? ResponseInput<M['apiKey']> : object;

/**
 * A body type of an API definition: decoded ('request', 'response', records fields of type R) or
 * as a caller writes it ('requestInput', 'responseInput').
 */
export type BodyOf<A extends ApiDef, P extends 'request' | 'response' | 'requestInput' | 'responseInput', R = Uint8Array> =
  P extends 'request' ? MessageBody<A['request'], R>
    : P extends 'response' ? MessageBody<A['response'], R>
      : P extends 'requestInput' ? MessageInput<A['request']> : MessageInput<A['response']>;

/** The type of records fields under decode options O: decoded batches with `records`, what `recordsDecoder` returns with it. */
export type RecordsField<O> = 'records' extends keyof O ? RecordsWhen<O['records' & keyof O]>
  : O extends { recordsDecoder: (records: Uint8Array) => infer R } ? R : Uint8Array;
type RecordsWhen<X> = X extends false | undefined ? Uint8Array : DecodedRecordBatches;

export interface EncodeOptions {
  /**
   * Default true: a property that no version of its struct has (a misspelling) throws
   * UNKNOWN_FIELD. False skips that check, for callers re-encoding objects this library decoded
   * (a proxy), whose properties are all known: the check walks every struct object's properties.
   */
  checkFields?: boolean;
}

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

export interface MessageDecodeOptions extends Limits {
  /**
   * Applied to every records field once the message is read (e.g. decodeRecordBatches), in the
   * order the fields come, so a Fetch response arrives with its batches decoded, and typed as what
   * it returns; without it records fields are byte views. It may itself call the codec (decode or
   * encode other messages). The by-key calls' `records` option sets it. The bytes it is handed
   * view the frame and know where the frame's copy lies in WebAssembly memory while the hooks run,
   * so decodeRecordBatches reads them there, without a copy, and names the field's path and frame
   * offset in its errors; kept past the hook, they are decoded from a copy like any bytes.
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
