// The message codec by API key, over a catalogue: the built-in one (src/generated/), or the one
// given as `{ catalogue }` in the trailing options. (by-definition.ts does the work for any one
// API definition; use it with src/generated/apis/* to bundle only what you use.)
import { inVersions, type ApiDef, type MessageDef } from '../catalogue/schema.js';
import { builtInCatalogue, catalogueApi, type CatalogueOption } from '../catalogue/catalogue.js';
import {
  decodeBodyFor, decodeRequestFor, decodeResponseFor, prepareResponseFor, encodeBodyFor, encodeRequestFor, encodeRequestPartsFor, encodeResponseFor,
  newMessageFor, requestSizeFor, responseSizeFor,
} from './by-definition.js';
import { peekRequest } from './scan.js';
import { headerVersionFor, planForMessage, type MessagePlan } from './plan.js';
import { checkRequestHeader } from './values.js';
import { KafkaWireError } from '../errors.js';
import type {
  ApiKeyNumber, DecodedRequest, DecodedResponse, Direction, EncodeOptions, Limits, MessageDecodeOptions, RecordsField, RequestBody,
  RequestHeader, RequestInput, ResponseBody, ResponseHeader, ResponseInput,
} from './types.js';
import { decodeRecordBatches } from '../records/decode.js';
import type { DecodeOptions as RecordsDecodeOptions } from '../records/types.js';
import type { RequestBodies } from '../generated/types.js';

export * from './by-definition.js';
export { peekRequest } from './scan.js';
export type { ApiKeyNumber, RecordsField, RequestBody, RequestInput, ResponseBody, ResponseInput } from './types.js';
// For the folders above that walk a message's layout (explain, its samples, the site, the proxy):
// the plan lookup, its vocabulary of kinds, and the spans scan.
export {
  planForMessage, ZERO_UUID, ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  type CompiledField, type CompiledStruct, type MessagePlan,
} from './plan.js';
export { ARRAY_COUNT_PREFIX, KIND_JSON, KINDS, STRUCTURE, scanWords, type TapeCursor } from './kinds.js';
// The order of the schema walk, for explain's walker to follow as the codec's walks do.
export { ORDER, type WalkSteps } from './walk.js';
// For the CLI's "did you mean": the nearest of a set of names.
export { closestName } from './known-fields.js';
export { scanSpans } from './scan.js';

/** A body as a caller writes it, by key and direction. */
export type BodyInput<K extends number, D extends Direction> = D extends 'request' ? RequestInput<K> : ResponseInput<K>;
/** A decoded body, by key and direction. */
export type DecodedBody<K extends number, D extends Direction, R = Uint8Array> = D extends 'request' ? RequestBody<K, R> : ResponseBody<K, R>;

/** A decoded request of any API: narrowing on `apiKey` gives the body's type. */
export type AnyDecodedRequest<R = Uint8Array> = { [K in ApiKeyNumber]: DecodedRequest<RequestBodies<R>[K], K> }[ApiKeyNumber];

/**
 * What decodeRequest gives under options O: the union over the built-in keys, or, when O may carry
 * a run-time catalogue, whose keys the compiler cannot know, the untyped form.
 */
export type DecodedRequestUnder<O> = 'catalogue' extends keyof O
  ? [O['catalogue' & keyof O]] extends [undefined] ? AnyDecodedRequest<RecordsField<O>> : DecodedRequest
  : AnyDecodedRequest<RecordsField<O>>;

export type { CatalogueOption };

/** What every by-key encode and size call takes: the catalogue, and whether to check field names. */
export interface ByKeyEncodeOptions extends EncodeOptions, CatalogueOption {}

export interface DecodeOptions extends Limits, CatalogueOption {
  /**
   * Decode records fields inline (true, or the records decoder's options): each records field
   * then holds a DecodedRecordBatches instead of its bytes.
   */
  records?: boolean | RecordsDecodeOptions;
}

function messageOptions(options: DecodeOptions | undefined): MessageDecodeOptions | undefined {
  const records = options?.records;
  if (records === undefined || records === false) return options;
  const recordsOptions = records === true ? {} : records;
  return { ...options, recordsDecoder: (bytes) => decodeRecordBatches(bytes, recordsOptions) };
}

/** The API with this key, or undefined. */
export function findApi(apiKey: number, options?: CatalogueOption): ApiDef | undefined {
  return (options?.catalogue ?? builtInCatalogue).api(apiKey);
}

/** The API with this key, or an UNSUPPORTED_API error. */
export function getApi(apiKey: number, options?: CatalogueOption): ApiDef {
  return catalogueApi(apiKey, options);
}

export function getMessage(apiKey: number, direction: Direction, options?: CatalogueOption): MessageDef {
  const api = getApi(apiKey, options);
  return direction === 'request' ? api.request : api.response;
}

/**
 * The version and direction of a call made in the library's order, (key, version, direction), or
 * in the older (key, direction, version): a direction is a string and a version a number, so the
 * two cannot be confused.
 */
export function versionAndDirection(a: number | Direction, b: number | Direction): [number, Direction] {
  const [version, direction] = typeof a === 'string' ? [b, a] : [a, b];
  if (direction !== 'request' && direction !== 'response') {
    throw new KafkaWireError('INVALID_VALUE', -1, '', `the direction must be "request" or "response", not ${JSON.stringify(direction)}`);
  }
  return [version as number, direction];
}

/** Whether a message version is flexible (compact lengths, tagged fields): (apiKey, version, direction). */
export function isFlexible(apiKey: number, a: number | Direction, b: number | Direction, options?: CatalogueOption): boolean {
  const [version, direction] = versionAndDirection(a, b);
  return inVersions(getMessage(apiKey, direction, options).flexibleVersions, version);
}

export function requestHeaderVersion(apiKey: number, apiVersion: number, options?: CatalogueOption): number {
  return headerVersionFor(getApi(apiKey, options).request, apiVersion);
}

export function responseHeaderVersion(apiKey: number, apiVersion: number, options?: CatalogueOption): number {
  return headerVersionFor(getApi(apiKey, options).response, apiVersion);
}

export function planFor(apiKey: number, direction: Direction, version: number, options?: CatalogueOption): MessagePlan {
  return planForMessage(getMessage(apiKey, direction, options), version);
}

/**
 * A message with every field at its default, then `fields` laid over it at every depth:
 * `newMessage(apiKey, version, direction, fields?)` (the older `(apiKey, direction, version)` works too).
 */
export function newMessage<K extends number, D extends Direction>(
  apiKey: K, version: number | D, direction: D | number, fields?: BodyInput<K, D>, options?: CatalogueOption,
): DecodedBody<K, D> {
  const [v, d] = versionAndDirection(version, direction);
  return newMessageFor(getMessage(apiKey, d, options), v, fields as never) as DecodedBody<K, D>;
}

/** Decodes a whole request frame of any API (int32 size prefix, header, body). */
export function decodeRequest<O extends DecodeOptions = {}>(frame: Uint8Array, options?: O): DecodedRequestUnder<O> {
  // The key read from the frame picks the definition, so the body matches its apiKey.
  return decodeRequestFor(getApi(peekRequest(frame).apiKey, options), frame, messageOptions(options)) as DecodedRequestUnder<O>;
}

/** Decodes a whole response frame; the API key and version come from the matching request. */
export function decodeResponse<K extends number, O extends DecodeOptions = {}>(
  frame: Uint8Array, apiKey: K, apiVersion: number, options?: O,
): DecodedResponse<ResponseBody<K, RecordsField<O>>> {
  return decodeResponseFor(getApi(apiKey, options), frame, apiVersion, messageOptions(options));
}

/** Makes the readers of a response ahead of its answer (prepareResponseFor), for a request sent and waited for. */
export function prepareResponse(apiKey: number, apiVersion: number, options?: CatalogueOption): void {
  prepareResponseFor(getApi(apiKey, options), apiVersion);
}

/** Decodes a bare body (no size prefix, no header): `(apiKey, version, direction, bytes)`, or the older `(apiKey, direction, version, bytes)`. */
export function decodeBody<K extends number, D extends Direction, O extends DecodeOptions = {}>(
  apiKey: K, version: number | D, direction: D | number, bytes: Uint8Array, options?: O,
): DecodedBody<K, D, RecordsField<O>> {
  const [v, d] = versionAndDirection(version, direction);
  return decodeBodyFor(getMessage(apiKey, d, options), v, bytes, messageOptions(options));
}

function requestApi(header: RequestHeader, options: CatalogueOption | undefined): ApiDef {
  checkRequestHeader(header);
  return getApi(header.requestApiKey, options);
}

/** Encodes a whole request frame: size prefix, header (its version chosen by the API), body. */
export function encodeRequest<K extends number>(header: RequestHeader & { requestApiKey: K }, body: RequestInput<K>, options?: ByKeyEncodeOptions): Uint8Array {
  return encodeRequestFor(requestApi(header, options), header, body, options);
}

/** encodeRequest's frame as pieces to write in order, large byte fields (record batches) not copied into it. */
export function encodeRequestParts<K extends number>(header: RequestHeader & { requestApiKey: K }, body: RequestInput<K>, options?: ByKeyEncodeOptions): Uint8Array[] {
  return encodeRequestPartsFor(requestApi(header, options), header, body, options);
}

/** Encodes a whole response frame. */
export function encodeResponse<K extends number>(apiKey: K, apiVersion: number, header: ResponseHeader, body: ResponseInput<K>, options?: ByKeyEncodeOptions): Uint8Array {
  return encodeResponseFor(getApi(apiKey, options), apiVersion, header, body, options);
}

/** Encodes a bare body (no size prefix, no header): `(apiKey, version, direction, body)`, or the older `(apiKey, direction, version, body)`. */
export function encodeBody<K extends number, D extends Direction>(apiKey: K, version: number | D, direction: D | number, body: BodyInput<K, D>, options?: ByKeyEncodeOptions): Uint8Array {
  const [v, d] = versionAndDirection(version, direction);
  return encodeBodyFor(getMessage(apiKey, d, options), v, body as never, options);
}

/** The exact length encodeRequest would produce, without writing it. */
export function requestSize<K extends number>(header: RequestHeader & { requestApiKey: K }, body: RequestInput<K>, options?: ByKeyEncodeOptions): number {
  return requestSizeFor(requestApi(header, options), header, body, options);
}

/** The exact length encodeResponse would produce, without writing it. */
export function responseSize<K extends number>(apiKey: K, apiVersion: number, header: ResponseHeader, body: ResponseInput<K>, options?: ByKeyEncodeOptions): number {
  return responseSizeFor(getApi(apiKey, options), apiVersion, header, body, options);
}
