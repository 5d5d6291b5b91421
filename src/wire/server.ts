// A small Kafka-protocol server: accepts connections (127.0.0.1 by default), splits frames,
// decodes requests, calls your handler, and writes the responses back in request order.
//
//   const server = await startServer({
//     handler: (req) => req.apiKey === ApiKey.ApiVersions ? apiVersionsResponse() : undefined,
//   });
//   console.log(server.port);
//   await server.close();
//
// The handler returns the response body (or a Promise of it); a partial body is filled with the
// schema defaults for the request's version. Returning undefined/null sends no response (as a
// broker does for acks=0 Produce, which the server never answers whatever the handler returns).
// A handler that throws, or a request that cannot be decoded, closes that connection (as a
// broker does); `onError` is told why.

import * as net from 'node:net';
import * as tls from 'node:tls';
import { decodeRequest, encodeResponse, type RequestHeader } from '../codec/by-key.js';
import { FrameSplitter } from './frame-splitter.js';
import { allSupportedVersions, supportedVersions } from './versions.js';
import { ApiKey } from '../generated/types.js';
import { KafkaErrorCode } from './errors.js';


export interface ClientInfo {
  /** Sequential per server, from 1. */
  readonly id: number;
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** Free for the handler's per-connection state (e.g. SASL progress). */
  state: Record<string, unknown>;
}

export interface IncomingRequest {
  apiKey: number;
  apiVersion: number;
  header: RequestHeader;
  body: any;
  client: ClientInfo;
}

export type RequestHandler = (request: IncomingRequest) => object | null | undefined | Promise<object | null | undefined>;

export interface ServerOptions {
  handler: RequestHandler;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (an ephemeral port; read it back from server.port). */
  port?: number;
  /** Largest request frame accepted; default 100 MiB. */
  maxFrameSize?: number;
  /** Serve TLS with these options (key, cert, ...) instead of plain TCP. */
  tls?: tls.TlsOptions;
  /** Told about each connection closed because of a bad frame, a decode error or a handler error. */
  onError?: (error: unknown, client: ClientInfo) => void;
  /**
   * ApiVersions requests this library cannot decode (a newer version than it knows) are
   * answered the way brokers do: v0, UNSUPPORTED_VERSION, with the ApiVersions range we
   * support. Default true.
   */
  answerUnknownApiVersions?: boolean;
}

export interface KafkaServer {
  readonly host: string;
  readonly port: number;
  /** Open client connections. */
  readonly connections: number;
  /** Stops listening, closes every client connection, resolves when all are closed. */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<KafkaServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<net.Socket>();
  let nextId = 1;
  const onSocket = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, nextId++, options);
  };
  const server = options.tls ? tls.createServer(options.tls, onSocket) : net.createServer(onSocket);
  // A failed TLS handshake is that client's problem, not the server's.
  server.on('tlsClientError', () => { /* the socket is destroyed by node */ });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  const address = server.address() as net.AddressInfo;
  return {
    host: address.address,
    port: address.port,
    get connections() { return sockets.size; },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

function serveConnection(socket: net.Socket, id: number, options: ServerOptions): void {
  socket.setNoDelay(true);
  const client: ClientInfo = { id, remoteAddress: socket.remoteAddress ?? '', remotePort: socket.remotePort ?? 0, state: {} };
  // Responses leave in request order even when handlers finish out of order.
  let queue: Promise<void> = Promise.resolve();
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    socket.destroy();
    options.onError?.(err, client);
  };
  const onFrame = (frame: Uint8Array) => {
    const work = handleFrame(frame, client, options);
    work.catch(() => { /* handled in order below */ });
    queue = queue.then(async () => {
      if (failed) return;
      const response = await work;
      if (response && !failed && !socket.destroyed) socket.write(response);
    }).catch(fail);
  };
  // Frames are handled as they complete, so those before a bad one in the same chunk are too.
  const splitter = new FrameSplitter({ maxFrameSize: options.maxFrameSize, onFrame });
  socket.on('data', (chunk: Buffer) => {
    if (failed) return;
    try {
      splitter.push(chunk);
    } catch (err) {
      queue = queue.then(() => fail(err));
    }
  });
  socket.on('end', () => {
    try { splitter.end(); } catch (err) { queue = queue.then(() => fail(err)); return; }
    queue.then(() => socket.end(), () => socket.end());
  });
  socket.on('error', () => { /* 'close' follows */ });
}

async function handleFrame(frame: Uint8Array, client: ClientInfo, options: ServerOptions): Promise<Uint8Array | null> {
  let request;
  try {
    request = decodeRequest(frame, { maxFrameSize: options.maxFrameSize }); // the splitter's limit
  } catch (err) {
    const early = unknownApiVersionsAnswer(frame, options);
    if (early) return early;
    throw err;
  }
  const { apiKey, apiVersion, header, body } = request;
  const result = await options.handler({ apiKey, apiVersion, header, body, client });
  if (apiKey === ApiKey.Produce && body.acks === 0) return null;
  if (result === undefined || result === null) return null;
  return encodeResponse(apiKey, apiVersion, { correlationId: header.correlationId }, result);
}

function unknownApiVersionsAnswer(frame: Uint8Array, options: ServerOptions): Uint8Array | null {
  if (options.answerUnknownApiVersions === false || frame.length < 12) return null;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const apiKey = view.getInt16(4, false);
  const apiVersion = view.getInt16(6, false);
  const ours = supportedVersions(ApiKey.ApiVersions)!;
  if (apiKey !== ApiKey.ApiVersions || apiVersion <= ours.max) return null;
  const correlationId = view.getInt32(8, false);
  return encodeResponse(ApiKey.ApiVersions, 0, { correlationId }, {
    errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
    apiKeys: [{ apiKey: ApiKey.ApiVersions, minVersion: ours.min, maxVersion: ours.max }],
  });
}

/**
 * An ApiVersions response body advertising `keys` (default: every API this library knows) at
 * the given ranges (default: every version this library knows).
 */
export function apiVersionsResponse(keys?: ReadonlyArray<number | { apiKey: number; minVersion: number; maxVersion: number }>): object {
  const all = allSupportedVersions();
  const list = (keys ?? [...all.keys()]).map((k) => {
    if (typeof k !== 'number') return k;
    const r = all.get(k);
    if (!r) throw new RangeError(`unknown API key ${k}`);
    return { apiKey: k, minVersion: r.min, maxVersion: r.max };
  });
  return { errorCode: 0, apiKeys: list, throttleTimeMs: 0 };
}
