// The message codec by API key, over the whole generated catalogue. (by-definition.ts does the
// work for any one API definition; use it with src/generated/apis/* to bundle only what you use.)
import { apis } from '../generated/catalogue.js';
import type { RequestBodies, ResponseBodies } from '../generated/types.js';
import { inVersions, type ApiDef, type MessageDef } from './schema.js';
import { KafkaWireError } from '../errors.js';
import {
  decodeBodyFor, decodeRequestFor, decodeResponseFor, encodeBodyFor, encodeRequestFor, encodeResponseFor,
  newMessageFor, peekRequest, requestSizeFor, responseSizeFor,
} from './by-definition.js';
import { headerVersionFor, planForMessage, type MessagePlan } from './plan.js';
import { checkRequestHeader } from './values.js';
import type { DecodedRequest, DecodedResponse, Direction, Limits, MessageDecodeOptions, RequestHeader, ResponseHeader } from './types.js';
import { decodeRecordBatches } from '../records/decode.js';
import type { DecodeOptions as RecordsDecodeOptions } from '../records/types.js';

export * from './by-definition.js';

export type ApiKeyNumber = keyof RequestBodies & number;

export interface DecodeOptions extends Limits {
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

const apiByKey: (ApiDef | undefined)[] = [];
for (const api of apis) apiByKey[api.apiKey] = api;

/** The API with this key, or undefined. */
export function findApi(apiKey: number): ApiDef | undefined {
  return apiByKey[apiKey];
}

export function getApi(apiKey: number): ApiDef {
  const api = apiByKey[apiKey];
  if (api === undefined) throw new KafkaWireError('UNSUPPORTED_API', -1, '', `no API with key ${apiKey}`);
  return api;
}

export function getMessage(apiKey: number, direction: Direction): MessageDef {
  const api = getApi(apiKey);
  return direction === 'request' ? api.request : api.response;
}

export function isFlexible(apiKey: number, direction: Direction, version: number): boolean {
  return inVersions(getMessage(apiKey, direction).flexibleVersions, version);
}

export function requestHeaderVersion(apiKey: number, apiVersion: number): number {
  return headerVersionFor(getApi(apiKey).request, apiVersion);
}

export function responseHeaderVersion(apiKey: number, apiVersion: number): number {
  return headerVersionFor(getApi(apiKey).response, apiVersion);
}

export function planFor(apiKey: number, direction: Direction, version: number): MessagePlan {
  return planForMessage(getMessage(apiKey, direction), version);
}

/** A message with every field at its default, then `fields` laid over it. */
export function newMessage<K extends ApiKeyNumber>(apiKey: K, direction: 'request', version: number, fields?: Partial<RequestBodies[K]>): RequestBodies[K];
export function newMessage<K extends ApiKeyNumber>(apiKey: K, direction: 'response', version: number, fields?: Partial<ResponseBodies[K]>): ResponseBodies[K];
export function newMessage(apiKey: number, direction: Direction, version: number, fields?: object): any;
export function newMessage(apiKey: number, direction: Direction, version: number, fields?: object): any {
  return newMessageFor(getMessage(apiKey, direction), version, fields);
}

/** Decodes a whole request frame of any API (int32 size prefix, header, body). */
export function decodeRequest(frame: Uint8Array, options?: DecodeOptions): DecodedRequest {
  return decodeRequestFor(getApi(peekRequest(frame).apiKey), frame, messageOptions(options));
}

/** Decodes a whole response frame; the API key and version come from the matching request. */
export function decodeResponse<K extends ApiKeyNumber>(frame: Uint8Array, apiKey: K, apiVersion: number, options?: DecodeOptions): DecodedResponse<ResponseBodies[K]>;
export function decodeResponse(frame: Uint8Array, apiKey: number, apiVersion: number, options?: DecodeOptions): DecodedResponse;
export function decodeResponse(frame: Uint8Array, apiKey: number, apiVersion: number, options?: DecodeOptions): DecodedResponse {
  return decodeResponseFor(getApi(apiKey), frame, apiVersion, messageOptions(options));
}

/** Decodes a bare body (no size prefix, no header). */
export function decodeBody(apiKey: number, direction: Direction, version: number, bytes: Uint8Array, options?: DecodeOptions): any {
  return decodeBodyFor(getMessage(apiKey, direction), version, bytes, messageOptions(options));
}

function requestApi(header: RequestHeader): ApiDef {
  checkRequestHeader(header);
  return getApi(header.requestApiKey);
}

/** Encodes a whole request frame: size prefix, header (its version chosen by the API), body. */
export function encodeRequest<K extends ApiKeyNumber>(header: RequestHeader & { requestApiKey: K }, body: Partial<RequestBodies[K]>): Uint8Array;
export function encodeRequest(header: RequestHeader, body: object): Uint8Array;
export function encodeRequest(header: RequestHeader, body: object): Uint8Array {
  return encodeRequestFor(requestApi(header), header, body);
}

/** Encodes a whole response frame. */
export function encodeResponse<K extends ApiKeyNumber>(apiKey: K, apiVersion: number, header: ResponseHeader, body: Partial<ResponseBodies[K]>): Uint8Array;
export function encodeResponse(apiKey: number, apiVersion: number, header: ResponseHeader, body: object): Uint8Array;
export function encodeResponse(apiKey: number, apiVersion: number, header: ResponseHeader, body: object): Uint8Array {
  return encodeResponseFor(getApi(apiKey), apiVersion, header, body);
}

/** Encodes a bare body (no size prefix, no header). */
export function encodeBody(apiKey: number, direction: Direction, version: number, body: object): Uint8Array {
  return encodeBodyFor(getMessage(apiKey, direction), version, body);
}

/** The exact length encodeRequest would produce, without writing it. */
export function requestSize(header: RequestHeader, body: object): number {
  return requestSizeFor(requestApi(header), header, body);
}

/** The exact length encodeResponse would produce, without writing it. */
export function responseSize(apiKey: number, apiVersion: number, header: ResponseHeader, body: object): number {
  return responseSizeFor(getApi(apiKey), apiVersion, header, body);
}
