// A frame's decode error as people and JSON lines see it (the CLI, captures): one line saying what
// was wrong, where (byte offset and field path) and with the numbers involved, plus a hint when a
// likely mistake explains it (HTTP or TLS bytes, a frame without its size prefix, a response read
// as a request where the caller says how to read it as one, and a request read as a response).
import { apis } from '../generated/catalogue.js';
import { decodeRequest } from '../codec/by-key.js';
import { KafkaWireError, UsageError } from '../errors.js';
import { RecordsError } from '../records/errors.js';
import { buildExplainTree, flattenTree, sizeMismatchDetail } from './tree.js';

/** Input that could not be read as a frame at all (bad hex, an unreadable line). */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(message: string, readonly code = 'INVALID_INPUT') {
    super(message);
  }
}

export interface ErrorJson {
  name: string;
  code: string;
  message: string;
  /** Byte offset in the frame, or null when the error is not about a place in the bytes. */
  offset: number | null;
  path: string;
}

/** What the frame was being read as, for the hints. */
export interface FrameContext {
  frame: Uint8Array;
  direction: 'request' | 'response';
  /** Given for responses (and checked against a request's header). */
  apiKey?: number;
  apiVersion?: number;
  /**
   * How the caller reads bytes as a response (the CLI: its options), for the hint that a request
   * that fails so may be a response; absent where the direction is known (a capture).
   */
  readAsResponse?: string;
  /** How the caller reads bytes as a request (the CLI: leave out --response), for the converse hint. */
  readAsRequest?: string;
}

function int32At(frame: Uint8Array, at: number): number {
  return frame.length >= at + 4 ? new DataView(frame.buffer, frame.byteOffset).getInt32(at) : NaN;
}

function int16At(frame: Uint8Array, at: number): number {
  return frame.length >= at + 2 ? new DataView(frame.buffer, frame.byteOffset).getInt16(at) : NaN;
}

/** The detail of an error without its code and place (KafkaWireError puts both in its message). */
function detailOf(error: KafkaWireError): string {
  const colon = error.message.indexOf(': ');
  return colon < 0 ? error.message : error.message.slice(colon + 2);
}

/** What the length prefix of the value that failed claims, from the frame explained as far as it reads. */
function claimOf(context: FrameContext): string | undefined {
  try {
    const tree = buildExplainTree(context.frame, { ...context, partial: true });
    return flattenTree(tree.root).find((n) => n.children.some((c) => c.name === '[malformed]'))?.note;
  } catch {
    return undefined;
  }
}

/** The numbers a decode error is about, from the frame itself. */
function numbers(error: KafkaWireError, context: FrameContext): string {
  const { frame } = context;
  if (error.code === 'FRAME_SIZE_MISMATCH' && frame.length >= 4) return ` (${sizeMismatchDetail(frame)})`;
  if (error.code === 'TRUNCATED' && error.offset >= 0) {
    const claim = claimOf(context);
    if (claim?.startsWith('claims ')) return ` (its length prefix ${claim})`;
    return ` (${Math.max(0, frame.length - error.offset)} of the frame's ${frame.length} bytes left at offset ${error.offset})`;
  }
  return '';
}

/** Failures a response read as a request typically gives (its header names no API, so the body is misread). */
const READ_AS_RESPONSE_CODES: readonly string[] = [
  'TRUNCATED', 'TRAILING_BYTES', 'NEGATIVE_LENGTH', 'VARINT_TOO_LONG', 'VARINT_OVERFLOW', 'INVALID_UTF8',
  'DUPLICATE_TAG', 'TAGGED_SIZE_MISMATCH', 'ARRAY_LIMIT', 'LENGTH_LIMIT', 'UNSUPPORTED_API', 'UNSUPPORTED_VERSION',
];

/** "Metadata v12" when the frame decodes whole as a request, else undefined. */
function requestLike(frame: Uint8Array): string | undefined {
  try {
    const { apiKey, apiVersion } = decodeRequest(frame);
    return `${apis.find((a) => a.apiKey === apiKey)?.name ?? `API ${apiKey}`} v${apiVersion}`;
  } catch {
    return undefined;
  }
}

/** A likely mistake that would explain the failure (of error `code`), if the bytes suggest one. */
function hintFor(context: FrameContext, code?: string): string | undefined {
  const { frame, direction } = context;
  const ascii = new TextDecoder('latin1').decode(frame.subarray(0, 8));
  if (/^(HTTP\/|GET |POST |PUT |HEAD |DELETE )/.test(ascii)) return 'these bytes are HTTP, not the Kafka protocol';
  if (frame.length >= 3 && frame[0] >= 0x14 && frame[0] <= 0x17 && frame[1] === 0x03 && frame[2] <= 0x04) {
    return 'these bytes look like a TLS record: the connection is encrypted, so decode its plaintext instead';
  }
  const size = int32At(frame, 0);
  if (frame.length >= 8 && size !== frame.length - 4) {
    const key = int16At(frame, 0);
    const version = int16At(frame, 2);
    const api = apis.find((a) => a.apiKey === key);
    if (api !== undefined && version >= api.request.validVersions[0] && version <= api.request.validVersions[1]) {
      return `the bytes may lack their int32 size prefix: they start like a ${api.name} v${version} request header`;
    }
  }
  if (direction === 'request' && context.readAsResponse !== undefined && code !== undefined && READ_AS_RESPONSE_CODES.includes(code)) {
    return `if these bytes are a response, ${context.readAsResponse} (a response header names no API)`;
  }
  if (direction === 'response' && context.readAsRequest !== undefined && code !== undefined && READ_AS_RESPONSE_CODES.includes(code)) {
    const request = requestLike(frame);
    if (request !== undefined) return `these bytes decode as a ${request} request: if they are one, ${context.readAsRequest}`;
  }
  return undefined;
}

/** The error as one line (no trailing newline), with the numbers involved and a hint. */
export function describeError(error: unknown, context?: FrameContext): string {
  let text: string;
  if (error instanceof KafkaWireError) {
    const place = [error.offset >= 0 ? `at offset ${error.offset}` : '', error.path ? `in ${error.path}` : ''].filter(Boolean).join(' ');
    text = `${error.code}${place ? ` ${place}` : ''}: ${detailOf(error)}${context ? numbers(error, context) : ''}`;
  } else if (error instanceof RecordsError) {
    text = `${error.code}: ${error.message}`;
  } else if (error instanceof Error) {
    // Named errors with a code (ConnectionError CONNECT) keep both: they say which failure it was.
    const code = (error as { code?: unknown }).code;
    const named = error.name !== 'Error' && !(error instanceof InputError);
    text = named && typeof code === 'string' ? `${error.name} ${code}: ${error.message}` : error.message;
  } else {
    text = String(error);
  }
  const decodeFailure = error instanceof KafkaWireError || error instanceof RecordsError;
  const hint = context !== undefined && decodeFailure ? hintFor(context, error.code) : undefined;
  return hint === undefined ? text : `${text}; hint: ${hint}`;
}

/** The error as the JSON-lines modes answer it. */
export function errorJson(error: unknown, context?: FrameContext): ErrorJson {
  const message = describeError(error, context);
  if (error instanceof KafkaWireError || error instanceof RecordsError) {
    return { name: error.name, code: error.code, message, offset: error.offset >= 0 ? error.offset : null, path: error.path };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const code = e instanceof InputError ? e.code : e instanceof SyntaxError ? 'INVALID_JSON' : e instanceof UsageError ? 'USAGE' : 'ERROR';
  return { name: e.name, code, message, offset: null, path: '' };
}
