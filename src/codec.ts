// The message codec by API key, over a catalogue: the built-in one (src/generated/), or the one
// given as `{ catalogue }` in the trailing options. (src/core.ts does the work for any one API
// definition; use it with src/generated/apis/* to bundle only what you use.)
import type { RequestBodies, ResponseBodies } from './generated/types.js';
import { inVersions, type ApiDef, type MessageDef } from './schema.js';
import { builtInCatalogue, catalogueApi, type CatalogueOption } from './catalogue/catalogue.js';
import {
  checkRequestHeader, decodeBodyFor, decodeRequestFor, decodeResponseFor, encodeBodyFor, encodeRequestFor, encodeResponseFor,
  headerVersionFor, newMessageFor, peekRequest, planForMessage, requestSizeFor, responseSizeFor,
  type DecodedRequest, type DecodedResponse, type Direction, type Limits, type MessagePlan, type RequestHeader,
  type ResponseHeader, type MessageDecodeOptions,
} from './core.js';
import { decodeRecordBatches } from './records/decode.js';
import type { DecodeOptions as RecordsDecodeOptions } from './records/types.js';

export * from './core.js';

export type ApiKeyNumber = keyof RequestBodies & number;

export type { CatalogueOption };

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

export function isFlexible(apiKey: number, direction: Direction, version: number, options?: CatalogueOption): boolean {
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

/** A message with every field at its default, then `fields` laid over it. */
export function newMessage<K extends ApiKeyNumber>(apiKey: K, direction: 'request', version: number, fields?: Partial<RequestBodies[K]>, options?: CatalogueOption): RequestBodies[K];
export function newMessage<K extends ApiKeyNumber>(apiKey: K, direction: 'response', version: number, fields?: Partial<ResponseBodies[K]>, options?: CatalogueOption): ResponseBodies[K];
export function newMessage(apiKey: number, direction: Direction, version: number, fields?: object, options?: CatalogueOption): any;
export function newMessage(apiKey: number, direction: Direction, version: number, fields?: object, options?: CatalogueOption): any {
  return newMessageFor(getMessage(apiKey, direction, options), version, fields);
}

/** Decodes a whole request frame of any API (int32 size prefix, header, body). */
export function decodeRequest(frame: Uint8Array, options?: DecodeOptions): DecodedRequest {
  return decodeRequestFor(getApi(peekRequest(frame).apiKey, options), frame, messageOptions(options));
}

/** Decodes a whole response frame; the API key and version come from the matching request. */
export function decodeResponse<K extends ApiKeyNumber>(frame: Uint8Array, apiKey: K, apiVersion: number, options?: DecodeOptions): DecodedResponse<ResponseBodies[K]>;
export function decodeResponse(frame: Uint8Array, apiKey: number, apiVersion: number, options?: DecodeOptions): DecodedResponse;
export function decodeResponse(frame: Uint8Array, apiKey: number, apiVersion: number, options?: DecodeOptions): DecodedResponse {
  return decodeResponseFor(getApi(apiKey, options), frame, apiVersion, messageOptions(options));
}

/** Decodes a bare body (no size prefix, no header). */
export function decodeBody(apiKey: number, direction: Direction, version: number, bytes: Uint8Array, options?: DecodeOptions): any {
  return decodeBodyFor(getMessage(apiKey, direction, options), version, bytes, messageOptions(options));
}

function requestApi(header: RequestHeader, options: CatalogueOption | undefined): ApiDef {
  checkRequestHeader(header);
  return getApi(header.requestApiKey, options);
}

/** Encodes a whole request frame: size prefix, header (its version chosen by the API), body. */
export function encodeRequest<K extends ApiKeyNumber>(header: RequestHeader & { requestApiKey: K }, body: Partial<RequestBodies[K]>, options?: CatalogueOption): Uint8Array;
export function encodeRequest(header: RequestHeader, body: object, options?: CatalogueOption): Uint8Array;
export function encodeRequest(header: RequestHeader, body: object, options?: CatalogueOption): Uint8Array {
  return encodeRequestFor(requestApi(header, options), header, body);
}

/** Encodes a whole response frame. */
export function encodeResponse<K extends ApiKeyNumber>(apiKey: K, apiVersion: number, header: ResponseHeader, body: Partial<ResponseBodies[K]>, options?: CatalogueOption): Uint8Array;
export function encodeResponse(apiKey: number, apiVersion: number, header: ResponseHeader, body: object, options?: CatalogueOption): Uint8Array;
export function encodeResponse(apiKey: number, apiVersion: number, header: ResponseHeader, body: object, options?: CatalogueOption): Uint8Array {
  return encodeResponseFor(getApi(apiKey, options), apiVersion, header, body);
}

/** Encodes a bare body (no size prefix, no header). */
export function encodeBody(apiKey: number, direction: Direction, version: number, body: object, options?: CatalogueOption): Uint8Array {
  return encodeBodyFor(getMessage(apiKey, direction, options), version, body);
}

/** The exact length encodeRequest would produce, without writing it. */
export function requestSize(header: RequestHeader, body: object, options?: CatalogueOption): number {
  return requestSizeFor(requestApi(header, options), header, body);
}

/** The exact length encodeResponse would produce, without writing it. */
export function responseSize(apiKey: number, apiVersion: number, header: ResponseHeader, body: object, options?: CatalogueOption): number {
  return responseSizeFor(getApi(apiKey, options), apiVersion, header, body);
}
