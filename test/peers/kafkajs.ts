// Test helper: kafkajs's own protocol layer (its per-API, per-version encoders and decoders under
// kafkajs/src/protocol), used as an independent implementation of the wire format.

import { createRequire } from 'node:module';

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
export const KJS_API_DIRS: Record<number, string> = {
  0: 'produce', 1: 'fetch', 2: 'listOffsets', 3: 'metadata', 8: 'offsetCommit', 9: 'offsetFetch',
  10: 'findCoordinator', 11: 'joinGroup', 12: 'heartbeat', 13: 'leaveGroup', 14: 'syncGroup',
  15: 'describeGroups', 16: 'listGroups', 17: 'saslHandshake', 18: 'apiVersions', 19: 'createTopics',
  20: 'deleteTopics', 21: 'deleteRecords', 22: 'initProducerId', 24: 'addPartitionsToTxn',
  25: 'addOffsetsToTxn', 26: 'endTxn', 28: 'txnOffsetCommit', 29: 'describeAcls', 30: 'createAcls',
  31: 'deleteAcls', 32: 'describeConfigs', 33: 'alterConfigs', 36: 'saslAuthenticate',
  37: 'createPartitions', 42: 'deleteGroups', 45: 'alterPartitionReassignments',
  46: 'listPartitionReassignments',
};

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
