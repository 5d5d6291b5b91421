// The broker addresses in a response: every struct with a host and a port (Metadata's brokers,
// FindCoordinator's coordinators, DescribeCluster's brokers, the node endpoints of Produce and
// Fetch, ...), found from the version's plan and rewritten in place. The recording proxy makes
// them local listeners; the WebSocket bridge makes them names only it can reach.
import { decodeResponse, encodeResponse, findApi, planFor, ARRAY, STRUCT, type CompiledStruct } from '../codec/by-key.js';
import { KafkaWireError } from '../errors.js';

export interface HostPort { host: string; port: number }

export const hostPortKey = (a: HostPort): string => `${a.host}:${a.port}`;

/** The structs of one response version that carry a host and a port. */
type AddressStructs = Set<CompiledStruct>;

const cache = new Map<string, AddressStructs | null>();

function hasAddress(s: CompiledStruct): boolean {
  const present = (name: string) => s.fields.some((f) => f.name === name && f.present);
  return present('host') && present('port');
}

/** The structs of this response version that carry broker addresses, or null when none do. */
function addressStructs(apiKey: number, apiVersion: number): AddressStructs | null {
  const key = `${apiKey}/${apiVersion}`;
  let structs = cache.get(key);
  if (structs !== undefined) return structs;
  const found = new Set<CompiledStruct>();
  const seen = new Set<CompiledStruct>();
  const visit = (s: CompiledStruct) => {
    if (seen.has(s)) return;
    seen.add(s);
    if (hasAddress(s)) found.add(s);
    for (const f of s.fields) if (f.present && f.struct !== null) visit(f.struct);
  };
  // A key or version newer than the catalogue: its responses pass unchanged.
  if (findApi(apiKey) === undefined) { cache.set(key, null); return null; }
  try {
    visit(planFor(apiKey, 'response', apiVersion).body);
  } catch (error) {
    if (!(error instanceof KafkaWireError)) throw error;
    cache.set(key, null);
    return null;
  }
  structs = found.size > 0 ? found : null;
  cache.set(key, structs);
  return structs;
}

/** Whether responses of this version can name brokers (and so must be read whole). */
export function namesBrokers(apiKey: number, apiVersion: number): boolean {
  return addressStructs(apiKey, apiVersion) !== null;
}

/** Visits every address in `value` (of struct `s`), replacing it with what `map` returns. */
function visitAddresses(s: CompiledStruct, value: any, structs: AddressStructs, map: (a: HostPort) => HostPort | undefined): void {
  if (value === null || value === undefined) return;
  if (structs.has(s) && typeof value.host === 'string') {
    const replacement = map({ host: value.host, port: value.port });
    if (replacement !== undefined) {
      value.host = replacement.host;
      value.port = replacement.port;
    }
  }
  for (const f of s.fields) {
    if (!f.present || f.struct === null) continue;
    const v = value[f.name];
    if (f.kind === ARRAY && Array.isArray(v)) for (const item of v) visitAddresses(f.struct, item, structs, map);
    else if (f.kind === STRUCT) visitAddresses(f.struct, v, structs, map);
  }
}

export interface BrokerAddresses {
  /** Every address the response names, in order (repeats included). */
  readonly named: readonly HostPort[];
  /** The response with each address replaced by map's answer (kept where it answers undefined). */
  rewrite(map: (a: HostPort) => HostPort | undefined): Uint8Array;
}

/**
 * The addresses a response frame (size prefix included) names, decoded once; null when its
 * version names none or it does not decode (then it is not ours to change: pass it as it is).
 */
export function readBrokerAddresses(frame: Uint8Array, apiKey: number, apiVersion: number): BrokerAddresses | null {
  const structs = addressStructs(apiKey, apiVersion);
  if (structs === null) return null;
  let decoded;
  try {
    decoded = decodeResponse(frame, apiKey, apiVersion);
  } catch {
    return null;
  }
  const body = planFor(apiKey, 'response', apiVersion).body;
  const named: HostPort[] = [];
  visitAddresses(body, decoded.body, structs, (a) => { named.push(a); return undefined; });
  return {
    named,
    rewrite(map) {
      visitAddresses(body, decoded.body, structs, map);
      // Decoded here, so every property is known: no field-name check.
      return encodeResponse(apiKey, apiVersion, decoded.header, decoded.body, { checkFields: false });
    },
  };
}
