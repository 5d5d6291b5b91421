// A Kafka proxy that keeps a client on itself for the whole cluster: bytes pass unchanged except
// broker addresses in responses (every struct with a host and a port: Metadata's brokers,
// FindCoordinator's coordinators, DescribeCluster's brokers, the node endpoints of Produce and
// Fetch, ...), which become local listeners it opens, one per upstream broker. It can record
// what the client saw as capture packets. Node only (node:net, node:tls).
import { createServer, connect as connectTcp, type Server, type Socket, type AddressInfo } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { FrameSplitter } from '../wire/frame-splitter.js';
import { decodeResponse, encodeResponse, findApi, planFor } from '../codec.js';
import { ARRAY, STRUCT, type CompiledStruct } from '../program.js';
import { TcpConversation, encodePacket, type Packet } from './writer.js';
import { LINKTYPE_ETHERNET } from './packet.js';

export interface HostPort { host: string; port: number }

export interface ProxyOptions {
  /** Where the first listener (for the upstream bootstrap broker) listens. Port 0: any free port. */
  listen: HostPort;
  /** The bootstrap broker. */
  upstream: HostPort;
  /** TLS to the upstream brokers (the client side stays plain). */
  upstreamTls?: ConnectionOptions;
  /** Each packet of a synthetic capture of what the clients sent and received (link type Ethernet). */
  record?: (packet: Packet) => void;
  /** A listener was opened for an upstream broker. */
  onListener?: (upstream: HostPort, local: HostPort) => void;
  onError?: (error: unknown) => void;
}

export interface KafkaProxy {
  /** The bootstrap listener's address. */
  readonly address: HostPort;
  /** Upstream "host:port" → local listener, for every broker seen so far. */
  readonly listeners: ReadonlyMap<string, HostPort>;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Where in a response's struct tree the host/port pairs are: none means forward it untouched. */
interface AddressPaths { structs: Set<CompiledStruct> }

const addressCache = new Map<string, AddressPaths | null>();

function hasAddress(s: CompiledStruct): boolean {
  const present = (name: string) => s.fields.some((f) => f.name === name && f.present);
  return present('host') && present('port');
}

/** The structs of this response version that carry broker addresses, or null when none do. */
function addressStructs(apiKey: number, apiVersion: number): AddressPaths | null {
  const key = `${apiKey}/${apiVersion}`;
  let paths = addressCache.get(key);
  if (paths !== undefined) return paths;
  const structs = new Set<CompiledStruct>();
  const seen = new Set<CompiledStruct>();
  const visit = (s: CompiledStruct) => {
    if (seen.has(s)) return;
    seen.add(s);
    if (hasAddress(s)) structs.add(s);
    for (const f of s.fields) if (f.present && f.struct !== null) visit(f.struct);
  };
  visit(planFor(apiKey, 'response', apiVersion).body);
  paths = structs.size > 0 ? { structs } : null;
  addressCache.set(key, paths);
  return paths;
}

/** Rewrites every address in `value` (of struct `s`); returns the upstream addresses it met. */
function rewrite(s: CompiledStruct, value: any, paths: AddressPaths, map: (upstream: HostPort) => HostPort | undefined): void {
  if (value === null || value === undefined) return;
  if (paths.structs.has(s) && typeof value.host === 'string') {
    const local = map({ host: value.host, port: value.port });
    if (local !== undefined) {
      value.host = local.host;
      value.port = local.port;
    }
  }
  for (const f of s.fields) {
    if (!f.present || f.struct === null) continue;
    const v = value[f.name];
    if (f.kind === ARRAY && Array.isArray(v)) for (const item of v) rewrite(f.struct, item, paths, map);
    else if (f.kind === STRUCT) rewrite(f.struct, v, paths, map);
  }
}

/** Every upstream address in `value`. */
function addresses(s: CompiledStruct, value: any, paths: AddressPaths, out: HostPort[]): void {
  rewrite(s, value, paths, (a) => { out.push(a); return undefined; });
}

const keyOf = (a: HostPort) => `${a.host}:${a.port}`;

function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n + BigInt(process.hrtime()[1] % 1_000_000);
}

export async function startProxy(options: ProxyOptions): Promise<KafkaProxy> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const listeners = new Map<string, HostPort>();
  const opening = new Map<string, Promise<HostPort>>();
  const advertisedHost = options.listen.host === '0.0.0.0' || options.listen.host === '::' ? '127.0.0.1' : options.listen.host;
  const onError = options.onError ?? (() => {});
  let connections = 0;

  function listen(upstream: HostPort, at: HostPort): Promise<HostPort> {
    const key = keyOf(upstream);
    let promise = opening.get(key);
    if (promise !== undefined) return promise;
    promise = new Promise<HostPort>((resolve, reject) => {
      const server = createServer((socket) => accept(socket, upstream));
      server.once('error', reject);
      server.listen(at.port, at.host, () => {
        server.off('error', reject);
        server.on('error', onError);
        servers.push(server);
        const local = { host: advertisedHost, port: (server.address() as AddressInfo).port };
        listeners.set(key, local);
        options.onListener?.(upstream, local);
        resolve(local);
      });
    });
    opening.set(key, promise);
    return promise;
  }

  function accept(client: Socket, upstreamAddress: HostPort): void {
    connections++;
    sockets.add(client);
    client.setNoDelay(true);
    const upstream = options.upstreamTls !== undefined
      ? connectTls({ ...options.upstreamTls, host: upstreamAddress.host, port: upstreamAddress.port, servername: options.upstreamTls.servername ?? upstreamAddress.host })
      : connectTcp({ host: upstreamAddress.host, port: upstreamAddress.port });
    sockets.add(upstream);
    upstream.setNoDelay(true);
    const inFlight = new Map<number, { apiKey: number; apiVersion: number }>();
    const conversation = options.record === undefined ? undefined : new TcpConversation(
      { ip: client.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', port: client.remotePort ?? 0 },
      { ip: client.localAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', port: client.localPort ?? 0 });
    const record = (fromClient: boolean | undefined, bytes?: Uint8Array) => {
      if (conversation === undefined) return;
      const time = nowNs();
      const segments = fromClient === undefined ? (bytes === undefined ? conversation.close(time) : conversation.open(time)) : conversation.send(fromClient, bytes!, time);
      for (const s of segments) options.record!({ timeNs: s.timeNs, data: encodePacket(LINKTYPE_ETHERNET, s) });
    };
    record(undefined, new Uint8Array(0));

    const requests = new FrameSplitter({
      onFrame: (frame) => {
        if (frame.length < 12) return;
        const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
        inFlight.set(view.getInt32(8), { apiKey: view.getInt16(4), apiVersion: view.getInt16(6) });
      },
    });
    // Responses go out in order; one that needs a new listener holds the ones behind it.
    let queue: Uint8Array[] = [];
    let busy = false;
    const send = (frame: Uint8Array) => {
      record(false, frame);
      client.write(frame);
    };
    const respond = async (frame: Uint8Array): Promise<void> => {
      const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
      const request = frame.length >= 8 ? inFlight.get(view.getInt32(4)) : undefined;
      if (request === undefined) return send(frame);
      inFlight.delete(view.getInt32(4));
      const paths = findApi(request.apiKey) === undefined ? null : addressStructs(request.apiKey, request.apiVersion);
      if (paths === null) return send(frame);
      let decoded;
      try {
        decoded = decodeResponse(frame, request.apiKey, request.apiVersion);
      } catch {
        return send(frame); // not ours to fix: the client sees what the broker sent
      }
      const body = planFor(request.apiKey, 'response', request.apiVersion).body;
      const met: HostPort[] = [];
      addresses(body, decoded.body, paths, met);
      if (met.length === 0) return send(frame);
      for (const a of met) {
        if (!listeners.has(keyOf(a))) await listen(a, { host: options.listen.host, port: 0 });
      }
      rewrite(body, decoded.body, paths, (a) => listeners.get(keyOf(a)));
      send(encodeResponse(request.apiKey, request.apiVersion, decoded.header, decoded.body));
    };
    const drain = async () => {
      busy = true;
      while (queue.length > 0) {
        const frame = queue.shift()!;
        try {
          await respond(frame);
        } catch (error) {
          onError(error);
          send(frame);
        }
      }
      busy = false;
    };
    const responses = new FrameSplitter({
      onFrame: (frame) => {
        queue.push(frame);
        if (!busy) void drain();
      },
    });

    const stop = (error?: unknown) => {
      if (error !== undefined) onError(error);
      if (!client.destroyed) client.destroy();
      if (!upstream.destroyed) upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      if (conversation !== undefined && !stopped) record(undefined);
      stopped = true;
    };
    let stopped = false;
    client.on('data', (chunk: Buffer) => {
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      try {
        requests.push(bytes);
      } catch (error) {
        return stop(error);
      }
      record(true, bytes);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      try {
        responses.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
      } catch (error) {
        stop(error);
      }
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => { void waitThenEnd(); });
    const waitThenEnd = async () => {
      while (busy) await new Promise((r) => setImmediate(r));
      client.end();
    };
    client.on('close', () => stop());
    upstream.on('close', () => { void waitThenEnd().then(() => stop()); });
    client.on('error', stop);
    upstream.on('error', stop);
  }

  const address = await listen(options.upstream, options.listen);
  return {
    address,
    listeners,
    get connections() { return connections; },
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
