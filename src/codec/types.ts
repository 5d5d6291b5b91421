// The message codec's public types and decode limits, shared by every file of the codec.
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';
import type { RequestHeader, ResponseHeader } from '../generated/types.js';
import type { ApiDef } from './schema.js';

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

/**
 * A body type an API definition carries: decoded ('request', 'response') or as a caller writes it
 * ('requestInput', 'responseInput'); any for a definition typed only as ApiDef (known at run time).
 */
export type BodyOf<A extends ApiDef, P extends keyof NonNullable<ApiDef['types']>> = NonNullable<A['types']>[P];

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
   * Applied to every records field as it is read (e.g. decodeRecordBatches), so a Fetch
   * response arrives with its batches decoded; without it records fields are byte views.
   * It may itself call the codec (decode or encode other messages).
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
