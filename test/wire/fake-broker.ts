// Test helper: a scripted fake broker on 127.0.0.1 (ephemeral port) for fault injection. The
// script sees each whole request frame and the socket, and decides what to write.

import * as net from 'node:net';
import { FrameSplitter } from '../../src/wire/frame-splitter.js';

export interface FakeBroker {
  readonly port: number;
  /** Request frames received (whole, with size prefix), across connections. */
  readonly received: Uint8Array[];
  close(): Promise<void>;
}

export type Script = (frame: Uint8Array, socket: net.Socket, index: number) => void;

export async function startFakeBroker(script: Script): Promise<FakeBroker> {
  const received: Uint8Array[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => { /* the client may reset */ });
    const splitter = new FrameSplitter();
    socket.on('data', (chunk) => {
      for (const frame of splitter.push(chunk)) {
        received.push(frame);
        if (!socket.destroyed) script(frame, socket, received.length - 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
}

/** The correlation id of a request frame. */
export function correlationIdOf(frame: Uint8Array): number {
  return new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getInt32(8, false);
}

/** A frame: int32 size + payload. */
export function frame(payload: Uint8Array | number[]): Uint8Array {
  const p = payload instanceof Uint8Array ? payload : Uint8Array.from(payload);
  const out = new Uint8Array(4 + p.length);
  new DataView(out.buffer).setInt32(0, p.length, false);
  out.set(p, 4);
  return out;
}

export function int32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}
