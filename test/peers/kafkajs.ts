// Test helper: kafkajs's own protocol layer (its per-API, per-version encoders and decoders under
// kafkajs/src/protocol), used as an independent implementation of the wire format.

import { createRequire } from 'node:module';
import { getApi } from '../../src/codec/by-key.js';

const require = createRequire(import.meta.url);

/** kafkajs's request framing: size, apiKey, apiVersion, correlationId, clientId, then the body. */
const frameRequest: (args: { correlationId: number; clientId: string; request: KjsRequest }) => Promise<{ buffer: Buffer }> =
  require('kafkajs/src/protocol/request');

export interface KjsRequest {
  apiKey: number;
  apiVersion: number;
  apiName: string;
  encode: () => Promise<{ buffer: Buffer }>;
}

export interface KjsResponse {
  decode: (payload: Buffer) => Promise<any>;
  parse: (data: any, ...rest: any[]) => Promise<any>;
}

export interface KjsProtocol {
  request: KjsRequest;
  response: KjsResponse;
}

/** The directory name kafkajs uses for an API ("joinGroup"), by API key. */
export const KJS_API_DIRS: Record<number, string> = Object.fromEntries(
  [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 25, 26, 28, 29, 30, 31, 32, 33, 36, 37, 42, 45, 46]
    .map((apiKey) => { const name = getApi(apiKey).name; return [apiKey, name[0].toLowerCase() + name.slice(1)]; }),
);

/** The versions kafkajs implements for an API key (from its index.js), ascending. */
export function kjsVersions(apiKey: number): number[] {
  const dir = KJS_API_DIRS[apiKey];
  if (dir === undefined) return [];
  const mod = require(`kafkajs/src/protocol/requests/${dir}`);
  return (mod.versions as string[]).map(Number).sort((a, b) => a - b);
}

/** kafkajs's { request, response } for one API version, built from kafkajs-shaped arguments. */
export function kjsProtocol(apiKey: number, version: number, args: Record<string, unknown>): KjsProtocol {
  const dir = KJS_API_DIRS[apiKey];
  const mod = require(`kafkajs/src/protocol/requests/${dir}`);
  return mod.protocol({ version })(args);
}

/** A whole request frame as kafkajs writes it. */
export async function kjsFrame(request: KjsRequest, correlationId: number, clientId: string): Promise<Uint8Array> {
  const encoder = await frameRequest({ correlationId, clientId, request });
  return new Uint8Array(encoder.buffer);
}
