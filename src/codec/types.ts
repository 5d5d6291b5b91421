// The message codec's public types and decode limits, shared by every file of the codec.
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';
import type { RequestHeader, ResponseHeader } from '../generated/types.js';

export type { RequestHeader, ResponseHeader };

export type Direction = 'request' | 'response';

export interface DecodedRequest<B = any> {
  apiKey: number;
  apiVersion: number;
  header: RequestHeader;
  body: B;
}

export interface DecodedResponse<B = any> {
  header: ResponseHeader;
  body: B;
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
