// A Kafka connection over workerd's outbound TCP (`cloudflare:sockets`): connect() with
// secureTransport "on" for TLS, its readable and writable streams adapted to a ByteSocket.
// Pass the module's connect (`import { connect } from 'cloudflare:sockets'`), or let the
// connector import it (workerd only).
import { SocketEvents, type ByteSocket, type SocketConnector, type SocketTarget } from './socket.js';

/** The part of cloudflare:sockets' Socket this uses. */
interface CloudflareSocket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  readonly opened: Promise<unknown>;
  readonly closed: Promise<void>;
  close(): Promise<void>;
}
type CloudflareConnect = (address: { hostname: string; port: number }, options?: { secureTransport?: 'off' | 'on' | 'starttls'; allowHalfOpen?: boolean }) => CloudflareSocket;

/** ConnectOptions.socket for workerd. */
export function cloudflareConnector(connect?: CloudflareConnect): SocketConnector {
  return async (target: SocketTarget) => {
    // A string the bundler leaves alone: the module exists in workerd only.
    const specifier = 'cloudflare:sockets';
    const open = connect ?? ((await import(/* @vite-ignore */ specifier)) as { connect: CloudflareConnect }).connect;
    const tls = target.tls !== undefined && target.tls !== false;
    const socket = open({ hostname: target.host, port: target.port }, { secureTransport: tls ? 'on' : 'off', allowHalfOpen: false });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      if (target.timeoutMs > 0) timer = setTimeout(() => reject(new Error(`timed out after ${target.timeoutMs} ms`)), target.timeoutMs);
    });
    try {
      await Promise.race([socket.opened, timeout]);
    } catch (error) {
      void socket.close().catch(() => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return new CloudflareByteSocket(socket);
  };
}

class CloudflareByteSocket extends SocketEvents implements ByteSocket {
  readonly #socket: CloudflareSocket;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;

  constructor(socket: CloudflareSocket) {
    super();
    this.#socket = socket;
    this.#writer = socket.writable.getWriter();
    void this.#read();
  }

  async #read(): Promise<void> {
    const reader = this.#socket.readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value.length > 0) this.emit('data', value);
      }
    } catch (error) {
      if (!this.destroyedFlag) this.emit('error', error instanceof Error ? error : new Error(String(error)));
    }
    this.finish();
  }

  write(bytes: Uint8Array, done?: (error?: Error | null) => void): boolean {
    if (this.destroyedFlag) {
      if (done) queueMicrotask(() => done(new Error('the socket is closed')));
      return false;
    }
    // The stream may keep the chunk until it is sent: give it its own copy, as the caller may reuse its buffer.
    this.#writer.write(bytes.slice()).then(() => done?.(null), (error: unknown) => done?.(error instanceof Error ? error : new Error(String(error))));
    return true;
  }

  cork(): void {}
  uncork(): void {}

  end(): void {
    void this.#writer.close().catch(() => {});
  }

  destroy(): void {
    if (this.destroyedFlag) return;
    this.destroyedFlag = true;
    void this.#socket.close().catch(() => {});
    this.finish();
  }

}
