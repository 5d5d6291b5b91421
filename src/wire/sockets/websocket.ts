// A Kafka connection over a WebSocket to `kafka-wire bridge` (src/wire/bridge.ts), for pages and
// any runtime with a WebSocket: one binary message per frame, size prefix included, both ways.
// The connection layer may write a frame in pieces, so writes pass through a frame splitter and
// leave as whole frames. The bridge's made-up broker names (NAME.bridge.invalid, from the
// cluster's own answers) are reached as `?broker=NAME:PORT`; any other address is the bridge's
// bootstrap. TLS to the brokers is the bridge's (its --tls); a page reaches the bridge by wss://.
import { FrameSplitter } from '../frame-splitter.js';
import { SocketEvents, type ByteSocket, type SocketConnector, type SocketTarget } from './socket.js';

/** The WebSocket constructor this runtime has (globalThis.WebSocket), or one given. */
type WebSocketClass = new (url: string) => WebSocket;

export interface WebSocketConnectorOptions {
  /** The bridge, `ws://HOST:PORT/` or `wss://...`. */
  url: string;
  /** A WebSocket class where the runtime has none built in. */
  WebSocket?: WebSocketClass;
}

const BRIDGE_NAME = /\.bridge\.invalid$/;

/** The URL a broker address is reached at through the bridge. */
export function bridgeUrlFor(bridge: string, target: { host: string; port: number }): string {
  if (!BRIDGE_NAME.test(target.host)) return bridge;
  const url = new URL(bridge);
  url.searchParams.set('broker', `${target.host}:${target.port}`);
  return url.toString();
}

/** ConnectOptions.socket for a bridge: every connection becomes a WebSocket to it. */
export function webSocketConnector(options: WebSocketConnectorOptions): SocketConnector {
  const Class = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  return (target: SocketTarget) => {
    if (Class === undefined) return Promise.reject(new Error('this runtime has no WebSocket: pass one as the connector\'s WebSocket option'));
    if (target.tls !== undefined && target.tls !== false) {
      return Promise.reject(new Error('TLS to the brokers is the bridge\'s (kafka-wire bridge --tls); reach the bridge with a wss:// URL instead'));
    }
    return WebSocketSocket.open(new Class(bridgeUrlFor(options.url, target)), target.timeoutMs);
  };
}

class WebSocketSocket extends SocketEvents implements ByteSocket {
  readonly #ws: WebSocket;
  readonly #out: FrameSplitter;

  static open(ws: WebSocket, timeoutMs: number): Promise<WebSocketSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocketSocket(ws);
      const timer = timeoutMs > 0 ? setTimeout(() => { ws.close(); reject(new Error(`the bridge did not answer within ${timeoutMs} ms`)); }, timeoutMs) : undefined;
      ws.addEventListener('open', () => { clearTimeout(timer); resolve(socket); }, { once: true });
      ws.addEventListener('close', (event) => {
        clearTimeout(timer);
        reject(new Error(`the bridge refused the WebSocket (${event.code}${event.reason ? `: ${event.reason}` : ''})`));
      }, { once: true });
    });
  }

  private constructor(ws: WebSocket) {
    super();
    this.#ws = ws;
    ws.binaryType = 'arraybuffer';
    // send() copies the bytes it is given, so a frame that is a view of a reused buffer is safe.
    this.#out = new FrameSplitter({ onFrame: (frame) => ws.send(frame as Uint8Array<ArrayBuffer>) });
    ws.addEventListener('message', (event) => {
      const data = event.data;
      if (data instanceof ArrayBuffer) this.emit('data', new Uint8Array(data));
      else this.#fail(new Error('the bridge sent a text message; Kafka frames are binary'));
    });
    ws.addEventListener('close', (event) => {
      if (event.code !== 1000 && event.code !== 1001 && event.code !== 1005) this.emit('error', new Error(`the bridge closed the WebSocket (${event.code}${event.reason ? `: ${event.reason}` : ''})`));
      this.finish();
    });
  }

  write(bytes: Uint8Array, done?: (error?: Error | null) => void): boolean {
    if (this.destroyedFlag || this.#ws.readyState !== 1) {
      const error = new Error('the WebSocket is closed');
      if (done) queueMicrotask(() => done(error));
      return false;
    }
    this.#out.push(bytes);
    if (done) queueMicrotask(() => done(null));
    return true;
  }

  cork(): void {}
  uncork(): void {}

  end(): void {
    if (this.#ws.readyState <= 1) this.#ws.close(1000);
  }

  destroy(): void {
    if (this.destroyedFlag) return;
    this.destroyedFlag = true;
    if (this.#ws.readyState <= 1) this.#ws.close(1000);
    this.finish();
  }

  #fail(error: Error): void {
    this.emit('error', error);
    this.destroy();
  }

}
