// node:net and node:tls as a ByteSocket (a node:net Socket is one as it is): Node, Bun and Deno.
// SNI takes host names only; an IP address there is a Node deprecation (DEP0123).
import * as net from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { ByteSocket, SocketConnector, SocketTarget } from './socket.js';

/** What a plain TCP socket reads into, again and again (node:net's own reads take a fresh 64 KiB each; 256 KiB: fewer reads, measured 5-15% less CPU than 64 KiB on bench/consume-cpu). */
const READ_BUFFER_BYTES = 256 << 10;

/** The default ConnectOptions.socket where node:net exists. */
export const nodeConnector: SocketConnector = async (target: SocketTarget) => {
  // node:tls is loaded for TLS connections only: most runs never need it, and it costs each start.
  const tls = target.tls ? await import('node:tls') : undefined;
  return new Promise<ByteSocket>((resolve, reject) => {
  const { host, port } = target;
  let socket: net.Socket;
  const ready = target.tls ? 'secureConnect' : 'connect';
  if (target.tls) {
    const extra = target.tls === true ? {} : target.tls as ConnectionOptions;
    socket = tls!.connect({ host, port, servername: net.isIP(host) ? undefined : host, ...extra });
  } else {
    // Reads into one buffer of the socket's own, handed on as 'data' views of it (chunksReused):
    // a fresh buffer per read is external memory, and a consumer's 100 MB of those drove a full
    // collection every few dozen milliseconds. A large frame's rest is read where the reader
    // receives it (readInto: node:net asks for the buffer after each read). TLS sockets read as
    // node:tls does.
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    let into: (() => Uint8Array | undefined) | undefined;
    const plain = net.connect({ host, port, onread: { buffer: () => into?.() ?? buffer, callback: (n: number, buf: Uint8Array) => { plain.emit('data', buf.subarray(0, n)); return true; } } });
    Object.defineProperty(plain, 'chunksReused', { value: true });
    Object.defineProperty(plain, 'readInto', { value: (next: () => Uint8Array | undefined) => { into = next; } });
    socket = plain;
  }
  const timer = target.timeoutMs > 0 ? setTimeout(() => {
    cleanup();
    socket.destroy();
    reject(Object.assign(new Error(`timed out after ${target.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
  }, target.timeoutMs) : undefined;
  const onError = (err: Error) => {
    cleanup();
    socket.destroy();
    reject(err);
  };
  const onReady = () => {
    cleanup();
    socket.setNoDelay(true);
    resolve(socket);
  };
  const cleanup = () => {
    if (timer) clearTimeout(timer);
    socket.off('error', onError);
    socket.off(ready, onReady);
  };
  socket.once('error', onError);
  socket.once(ready, onReady);
  });
};
