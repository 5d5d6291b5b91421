// `kafka-wire bridge`: Kafka over WebSockets for pages, which have no TCP. Each WebSocket carries
// one Kafka connection, one binary message per frame (its 4-byte size prefix included) both ways.
// `ws://BRIDGE/` reaches a bootstrap broker; every broker address the cluster's answers name
// (Metadata, FindCoordinator, DescribeCluster, Produce's and Fetch's node endpoints: the proxy's
// walk, wire/broker-addresses.ts) is replaced by a name the bridge made up, KAFKA-N.bridge.invalid
// at the bridge's port, which a page reaches as `ws://BRIDGE/?broker=NAME:PORT`. A page is
// untrusted: it can reach the bootstrap brokers and the brokers the cluster named, nothing else
// (the bridge is no open TCP relay), from an Origin on the list only, with frames no larger than
// the limit. It authenticates nothing itself: the page's own SASL frames pass through.
// Node only (node:http, node:net, node:tls).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect as connectTcp, isIP, type AddressInfo, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { be32 } from '../bytes.js';
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';
import { FrameSplitter } from './frame-splitter.js';
import { hostPortKey, namesBrokers, readBrokerAddresses, type HostPort } from './broker-addresses.js';
import {
  CloseCode, Opcode, WebSocketError, WebSocketFrameReader, acceptKey, closePayload, frameHeader, isValidKey,
  type MessageOpcode,
} from './websocket.js';

export interface BridgeOptions {
  /** Where pages connect (port 0: any free port). */
  listen: HostPort;
  /** The cluster's bootstrap brokers, tried in order for `ws://BRIDGE/`. */
  bootstrap: readonly HostPort[];
  /**
   * The Origins whose pages may connect ("*": any). A request without an Origin header is not a
   * browser's and is let in; one with an Origin not listed is refused (403). Default: none listed.
   */
  allowedOrigins?: readonly string[];
  /** The largest frame either way, not counting its size prefix (default 100 MiB, as Kafka's socket.request.max.bytes). */
  maxFrameSize?: number;
  /** TLS to the brokers (pages speak plain WebSocket to the bridge). */
  tls?: ConnectionOptions;
  /** A connection ended with an error (refused upgrade, broken framing, broker gone). */
  onError?: (error: Error) => void;
}

export interface KafkaBridge {
  readonly address: HostPort;
  /** `ws://HOST:PORT/`, the bootstrap URL for pages. */
  readonly url: string;
  /** The names the bridge made up, "NAME:PORT" -> the broker it stands for. */
  readonly brokers: ReadonlyMap<string, HostPort>;
  /** WebSockets accepted so far, and open now. */
  readonly connections: number;
  readonly open: number;
  close(): Promise<void>;
}

/** A refusal before the upgrade: an HTTP status and why. */
export class BridgeRefusal extends Error {
  override readonly name = 'BridgeRefusal';
  constructor(readonly status: number, message: string) { super(message); }
}

/** Header bytes of a request frame that route its answer: size, api key, version, correlation id. */
const REQUEST_HEADER = 12;

export async function startBridge(options: BridgeOptions): Promise<KafkaBridge> {
  if (options.bootstrap.length === 0) throw new RangeError('a bridge needs at least one bootstrap broker');
  const maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  const allowed = new Set(options.allowedOrigins ?? []);
  const onError = options.onError ?? (() => {});
  const sockets = new Set<Socket>();
  /** Made-up "name:port" -> broker, and back. */
  const byName = new Map<string, HostPort>();
  const byBroker = new Map<string, HostPort>();
  let connections = 0;
  let open = 0;
  let address: HostPort = options.listen;

  /** The name the bridge gives a broker the cluster named. */
  const nameFor = (broker: HostPort): HostPort => {
    const key = hostPortKey(broker);
    let name = byBroker.get(key);
    if (name === undefined) {
      name = { host: `kafka-${byBroker.size + 1}.bridge.invalid`, port: address.port };
      byBroker.set(key, name);
      byName.set(hostPortKey(name), broker);
    }
    return name;
  };

  /** The brokers a request may reach: the one its ?broker= names, or the bootstrap list. */
  const targetsOf = (request: IncomingMessage): readonly HostPort[] => {
    const url = new URL(request.url ?? '/', 'ws://bridge');
    if (url.pathname !== '/') throw new BridgeRefusal(404, `no such path ${url.pathname} (pages connect to / or /?broker=NAME:PORT)`);
    const named = url.searchParams.get('broker');
    if (named === null) return options.bootstrap;
    const broker = byName.get(named);
    if (broker === undefined) throw new BridgeRefusal(403, `${named} is not a broker of this cluster`);
    return [broker];
  };

  const check = (request: IncomingMessage): void => {
    const origin = request.headers.origin;
    if (origin !== undefined && !allowed.has('*') && !allowed.has(origin)) {
      throw new BridgeRefusal(403, `Origin ${origin} is not allowed (the bridge's --allow-origin list)`);
    }
    if (request.method !== 'GET') throw new BridgeRefusal(405, `a WebSocket upgrade is a GET, not ${request.method}`);
    if ((request.headers.upgrade ?? '').toLowerCase() !== 'websocket') throw new BridgeRefusal(426, 'not a WebSocket upgrade');
    if (request.headers['sec-websocket-version'] !== '13') throw new BridgeRefusal(426, 'WebSocket version 13 only');
    if (!isValidKey(request.headers['sec-websocket-key'])) throw new BridgeRefusal(400, 'a missing or malformed Sec-WebSocket-Key');
  };

  const refuse = (socket: Socket, refusal: BridgeRefusal) => {
    onError(refusal);
    const body = `${refusal.message}\n`;
    socket.end(`HTTP/1.1 ${refusal.status} ${refusal.status === 403 ? 'Forbidden' : refusal.status === 404 ? 'Not Found' : refusal.status === 502 ? 'Bad Gateway' : 'Bad Request'}\r\n`
      + `Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  };

  const dial = (broker: HostPort): Promise<Socket> => new Promise((resolve, reject) => {
    const tls = options.tls;
    // SNI takes host names only; an IP address there is a Node deprecation (DEP0123).
    const socket = tls !== undefined
      ? connectTls({ ...tls, host: broker.host, port: broker.port, servername: tls.servername ?? (isIP(broker.host) ? undefined : broker.host) })
      : connectTcp({ host: broker.host, port: broker.port });
    const ready = tls !== undefined ? 'secureConnect' : 'connect';
    socket.once('error', reject);
    socket.once(ready, () => { socket.off('error', reject); socket.setNoDelay(true); resolve(socket); });
  });

  const server: Server = createServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain', Upgrade: 'websocket' });
    response.end('kafka-wire bridge: connect with a WebSocket\n');
  });

  server.on('upgrade', (request: IncomingMessage, page: Socket, head: Buffer) => {
    // Bytes a page sends before its broker is dialled wait in the socket, not in a data event nobody hears.
    page.pause();
    sockets.add(page);
    page.on('close', () => sockets.delete(page));
    page.on('error', () => page.destroy());
    void (async () => {
      let targets: readonly HostPort[];
      try {
        check(request);
        targets = targetsOf(request);
      } catch (error) {
        if (error instanceof BridgeRefusal) refuse(page, error); else page.destroy();
        return;
      }
      let broker: Socket | undefined;
      let last: unknown;
      for (const target of targets) {
        try { broker = await dial(target); break; } catch (error) { last = error; }
      }
      if (broker === undefined) {
        refuse(page, new BridgeRefusal(502, `no broker answered (${last instanceof Error ? last.message : String(last)})`));
        return;
      }
      if (page.destroyed) { broker.destroy(); return; }
      page.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
        + `Sec-WebSocket-Accept: ${acceptKey(request.headers['sec-websocket-key']!)}\r\n\r\n`);
      relay(page, broker, head);
    })();
  });

  /** One page's WebSocket and its broker connection, until either side ends. */
  const relay = (page: Socket, broker: Socket, head: Buffer) => {
    connections++;
    open++;
    sockets.add(broker);
    page.setNoDelay(true);
    const inFlight = new Map<number, { apiKey: number; apiVersion: number }>();
    let closing = false;

    const send = (opcode: MessageOpcode, payload: Uint8Array) => {
      if (page.destroyed || !page.writable) return;
      page.cork();
      page.write(frameHeader(opcode, payload.length));
      page.write(payload);
      page.uncork();
    };
    /** Ends both sides: a close frame to the page (unless it is gone), the broker connection dropped. */
    const finish = (code: number, reason: string, error?: Error) => {
      if (closing) return;
      closing = true;
      open--;
      if (error !== undefined) onError(error);
      send(Opcode.CLOSE, closePayload(code, reason));
      page.end();
      broker.destroy();
      sockets.delete(broker);
    };

    const fromPage = new WebSocketFrameReader(maxFrameSize + 4);
    const fromBroker = new FrameSplitter({
      maxFrameSize,
      onFrame: (frame) => {
        const request = frame.length >= 8 ? inFlight.get(be32(frame, 4)) : undefined;
        if (request !== undefined) inFlight.delete(be32(frame, 4));
        let out = frame;
        if (request !== undefined && namesBrokers(request.apiKey, request.apiVersion)) {
          const found = readBrokerAddresses(frame, request.apiKey, request.apiVersion);
          if (found !== null && found.named.length > 0) out = found.rewrite(nameFor);
        }
        send(Opcode.BINARY, out);
      },
    });

    const onPageBytes = (chunk: Uint8Array) => {
      if (closing) return;
      let messages;
      try {
        messages = fromPage.push(chunk);
      } catch (error) {
        const e = error as WebSocketError;
        finish(e.closeCode ?? CloseCode.PROTOCOL_ERROR, e.message, e);
        return;
      }
      for (const m of messages) {
        if (m.opcode === Opcode.BINARY) {
          const declared = m.payload.length >= 4 ? be32(m.payload, 0) : -1;
          if (m.payload.length < REQUEST_HEADER || declared !== m.payload.length - 4) {
            finish(CloseCode.POLICY_VIOLATION, `a message must be one Kafka request frame: ${m.payload.length} bytes, size prefix ${declared}`,
              new BridgeRefusal(400, 'a message that is not one request frame'));
            return;
          }
          const view = new DataView(m.payload.buffer, m.payload.byteOffset, m.payload.length);
          inFlight.set(view.getInt32(8), { apiKey: view.getInt16(4), apiVersion: view.getInt16(6) });
          broker.write(m.payload);
        } else if (m.opcode === Opcode.PING) {
          send(Opcode.PONG, m.payload);
        } else if (m.opcode === Opcode.CLOSE) {
          const code = m.payload.length >= 2 ? (m.payload[0]! << 8) | m.payload[1]! : CloseCode.NORMAL;
          finish(code === 1005 || code === 1006 || code === 1015 ? CloseCode.NORMAL : code, 'closed by the page');
          return;
        } else if (m.opcode === Opcode.TEXT) {
          finish(CloseCode.UNSUPPORTED_DATA, 'Kafka frames are binary messages', new BridgeRefusal(400, 'a text message'));
          return;
        }
      }
    };

    broker.on('data', (chunk: Buffer) => {
      if (closing) return;
      try {
        fromBroker.push(chunk);
      } catch (error) {
        finish(CloseCode.INTERNAL_ERROR, `the broker's answer: ${(error as Error).message}`, error as Error);
      }
    });
    broker.on('end', () => finish(CloseCode.GOING_AWAY, 'the broker closed the connection'));
    broker.on('error', (error) => finish(CloseCode.GOING_AWAY, `the broker connection: ${error.message}`, error));
    broker.on('close', () => finish(CloseCode.GOING_AWAY, 'the broker closed the connection'));
    page.on('data', onPageBytes);
    page.on('end', () => finish(CloseCode.NORMAL, 'the page went away'));
    page.on('close', () => { finish(CloseCode.NORMAL, 'the page went away'); broker.destroy(); });
    if (head.length > 0) onPageBytes(head);
    page.resume();
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, () => { server.off('error', reject); resolve(); });
  });
  server.on('error', (error) => onError(error));
  const port = (server.address() as AddressInfo).port;
  const host = options.listen.host === '0.0.0.0' || options.listen.host === '::' ? '127.0.0.1' : options.listen.host;
  address = { host, port };
  return {
    address,
    url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    brokers: byName,
    get connections() { return connections; },
    get open() { return open; },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
