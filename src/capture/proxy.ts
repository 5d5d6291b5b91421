// A Kafka proxy that keeps a client on itself for the whole cluster: bytes pass unchanged except
// broker addresses in responses (every struct with a host and a port: Metadata's brokers,
// FindCoordinator's coordinators, DescribeCluster's brokers, the node endpoints of Produce and
// Fetch, ...), which become local listeners it opens, one per upstream broker. It can record
// what the client saw as capture packets. Node only (node:net, node:tls).
import { createServer, connect as connectTcp, isIP, type Server, type Socket, type AddressInfo } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { decodeResponse, encodeResponse, findApi, planFor, ARRAY, STRUCT, type CompiledStruct } from '../codec/by-key.js';
import { KafkaWireError } from '../errors.js';
import { be32 } from '../bytes.js';
import { TcpConversation, encodePacketHeaders, type Packet } from './writer.js';
import { LINKTYPE_ETHERNET } from './packet.js';
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';
import { FrameSplitter } from '../wire/frame-splitter.js';

export interface HostPort { host: string; port: number }

export interface ProxyOptions {
  /** Where the first listener (for the upstream bootstrap broker) listens. Port 0: any free port. */
  listen: HostPort;
  /** The bootstrap broker. */
  upstream: HostPort;
  /** TLS to the upstream brokers (the client side stays plain). */
  upstreamTls?: ConnectionOptions;
  /**
   * Each packet of a synthetic capture of what the clients sent and received (link type
   * Ethernet), called as bytes are forwarded: its payload is a view of them, valid only during
   * the call (the proxy reads into reused buffers), so copy what you keep, and do slow work later.
   */
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
  let body: CompiledStruct;
  try {
    body = planFor(apiKey, 'response', apiVersion).body;
  } catch (error) {
    // A version newer than the catalogue: its responses pass unchanged rather than end the proxy.
    if (!(error instanceof KafkaWireError)) throw error;
    addressCache.set(key, null);
    return null;
  }
  visit(body);
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

/**
 * The most bytes one read from an upstream broker takes: each connection reads into one reused
 * buffer of this size rather than a fresh one per read, whose new pages the kernel would clear
 * first (the largest part of forwarding's CPU).
 */
const READ_BUFFER = 64 * 1024;

/** Header bytes needed to route a frame: size, key, version, correlation id / size, correlation id. */
const REQUEST_PEEK = 12;
const RESPONSE_PEEK = 8;

// Wall-clock time at start, then the monotonic clock's progress: times never go backwards.
const startWallNs = BigInt(Date.now()) * 1_000_000n;
const startMonoNs = process.hrtime.bigint();

function nowNs(): bigint {
  return startWallNs + (process.hrtime.bigint() - startMonoNs);
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
    let reading: Uint8Array | undefined;
    const fromUpstream = (chunk: Uint8Array) => {
      // Corked while a chunk is read, so its pieces leave in one write.
      client.cork();
      reading = chunk;
      responses.push(chunk);
      reading = undefined;
      client.uncork();
    };
    let readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER);
    const upstream = options.upstreamTls !== undefined
      ? connectTls({ ...options.upstreamTls, host: upstreamAddress.host, port: upstreamAddress.port, servername: options.upstreamTls.servername ?? (isIP(upstreamAddress.host) ? undefined : upstreamAddress.host) })
      : connectTcp({
        host: upstreamAddress.host, port: upstreamAddress.port,
        onread: {
          buffer: () => readBuffer,
          callback: (n, buffer) => {
            fromUpstream(buffer.subarray(0, n));
            // Bytes still queued (a slow client, a held response ahead of them) or still held by
            // the splitter (a frame begun) keep this buffer: the next read takes a new one.
            if (client.writableLength > 0 || out.length > 0 || responses.bufferedBytes > 0) readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER);
            return true; // keep reading
          },
        },
      });
    if (options.upstreamTls !== undefined) upstream.on('data', fromUpstream);
    sockets.add(upstream);
    upstream.setNoDelay(true);
    const inFlight = new Map<number, { apiKey: number; apiVersion: number }>();
    const conversation = options.record === undefined ? undefined : new TcpConversation(
      { ip: client.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', port: client.remotePort ?? 0 },
      { ip: client.localAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', port: client.localPort ?? 0 },
      undefined, false);
    const record = (fromClient: boolean | undefined, bytes?: Uint8Array) => {
      if (conversation === undefined) return;
      const time = nowNs();
      const segments = fromClient === undefined ? (bytes === undefined ? conversation.close(time) : conversation.open(time)) : conversation.send(fromClient, bytes!, time);
      // No TCP checksums: a pass over every byte the proxy forwards, for a field readers do not check.
      for (const s of segments) options.record!({ timeNs: s.timeNs, data: encodePacketHeaders(LINKTYPE_ETHERNET, s, false), payload: s.payload });
    };
    record(undefined, new Uint8Array(0));

    // Requests pass straight through; their headers say how to read each response.
    const requests = new FrameSplitter({
      peek: REQUEST_PEEK,
      decide: (head) => {
        if (head.length === REQUEST_PEEK) {
          const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
          inFlight.set(view.getInt32(8), { apiKey: view.getInt16(4), apiVersion: view.getInt16(6) });
        }
        return 'pass';
      },
      onPass: (piece) => {
        record(true, piece);
        upstream.write(piece);
      },
    });
    // Responses pass through too, except those whose version names brokers: they are held
    // whole, rewritten, and sent in their place (later bytes wait behind them).
    const out: (Uint8Array | Promise<Uint8Array>)[] = [];
    let flushing = false;
    const flush = async () => {
      flushing = true;
      while (out.length > 0) {
        let item = out.shift()!;
        if (item instanceof Promise) item = await item;
        record(false, item);
        client.write(item);
      }
      flushing = false;
    };
    const emit = (item: Uint8Array | Promise<Uint8Array>) => {
      out.push(item);
      if (!flushing) void flush();
    };
    const responses = new FrameSplitter({
      peek: RESPONSE_PEEK,
      decide: (head, size) => {
        if (head.length < RESPONSE_PEEK) return 'pass'; // shorter than a response header: not ours to read
        const correlationId = be32(head, 4);
        const request = inFlight.get(correlationId);
        inFlight.delete(correlationId);
        if (request === undefined || findApi(request.apiKey) === undefined) return 'pass';
        held = request;
        const rest = size + 4 - RESPONSE_PEEK;
        return addressStructs(request.apiKey, request.apiVersion) !== null && rest > 0 && rest <= DEFAULT_MAX_FRAME_SIZE ? 'hold' : 'pass';
      },
      onPass: emit,
      onFrame: (frame) => {
        const request = held!;
        // A frame inside the chunk read is a view of the reused read buffer: keep a copy.
        const own = frame.buffer === reading?.buffer ? frame.slice() : frame;
        emit(rewriteResponse(own, request.apiKey, request.apiVersion).catch((error) => {
          onError(error);
          return own;
        }));
      },
    });
    let held: { apiKey: number; apiVersion: number } | undefined;

    /** The frame with its broker addresses made local (listeners opened as needed). */
    const rewriteResponse = async (frame: Uint8Array, apiKey: number, apiVersion: number): Promise<Uint8Array> => {
      const paths = addressStructs(apiKey, apiVersion)!;
      let decoded;
      try {
        decoded = decodeResponse(frame, apiKey, apiVersion);
      } catch {
        return frame; // not ours to fix: the client sees what the broker sent
      }
      const body = planFor(apiKey, 'response', apiVersion).body;
      const met: HostPort[] = [];
      addresses(body, decoded.body, paths, met);
      if (met.length === 0) return frame;
      for (const a of met) {
        if (!listeners.has(keyOf(a))) await listen(a, { host: options.listen.host, port: 0 });
      }
      rewrite(body, decoded.body, paths, (a) => listeners.get(keyOf(a)));
      // Decoded here, so every property is known: no field-name check.
      return encodeResponse(apiKey, apiVersion, decoded.header, decoded.body, { checkFields: false });
    };

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
      upstream.cork();
      requests.push(chunk);
      upstream.uncork();
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => { void waitThenEnd(); });
    const waitThenEnd = async () => {
      while (flushing || out.length > 0) await new Promise((r) => setImmediate(r));
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
