// Test helper: a TCP proxy in front of one broker that loses responses. It forwards every request
// and, for the Produce requests it was told to, closes the client's connection once the request
// has reached the broker (and the broker had time to write it), so the producer sees a lost
// connection for a batch the broker did write: the case idempotence exists for. Metadata answers
// are rewritten to name the proxy, so every connection goes through it.
import * as net from 'node:net';
import { decodeResponse, encodeResponse } from '../../src/codec/by-key.js';
import { ApiKey } from '../../src/generated/types.js';

export interface LossyProxy {
  readonly bootstrap: string;
  /** Produce requests seen so far. */
  readonly produceRequests: number;
  /** Connections it cut after a Produce request. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** `cut(n)`: whether to lose the answer to the n-th Produce request (1-based). */
export async function startLossyProxy(upstream: { host: string; port: number }, cut: (n: number) => boolean): Promise<LossyProxy> {
  let produceRequests = 0;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  let port = 0;
  const server = net.createServer((client) => {
    const broker = net.connect(upstream);
    sockets.add(client); sockets.add(broker);
    client.on('close', () => { sockets.delete(client); broker.destroy(); });
    broker.on('close', () => { sockets.delete(broker); client.destroy(); });
    client.on('error', () => undefined);
    broker.on('error', () => undefined);
    const pending = new Map<number, [apiKey: number, version: number]>();
    let inBuf = Buffer.alloc(0);
    let losing = false;
    client.on('data', (chunk: Buffer) => {
      inBuf = Buffer.concat([inBuf, chunk]);
      while (inBuf.length >= 4 && inBuf.length >= 4 + inBuf.readInt32BE(0)) {
        const size = inBuf.readInt32BE(0);
        const frame = inBuf.subarray(0, 4 + size);
        inBuf = inBuf.subarray(4 + size);
        const apiKey = frame.readInt16BE(4);
        pending.set(frame.readInt32BE(8), [apiKey, frame.readInt16BE(6)]);
        broker.write(frame);
        if (apiKey === ApiKey.Produce && cut(++produceRequests)) {
          cuts++;
          losing = true; // no answer reaches the client from now on
          // Let the broker write the batch, then lose its answer with the connection.
          setTimeout(() => { client.destroy(); broker.destroy(); }, 30);
          return;
        }
      }
    });
    let outBuf = Buffer.alloc(0);
    broker.on('data', (chunk: Buffer) => {
      if (losing) return;
      outBuf = Buffer.concat([outBuf, chunk]);
      while (outBuf.length >= 4 && outBuf.length >= 4 + outBuf.readInt32BE(0)) {
        const size = outBuf.readInt32BE(0);
        let frame: Uint8Array = outBuf.subarray(0, 4 + size);
        outBuf = outBuf.subarray(4 + size);
        const correlationId = (frame as Buffer).readInt32BE(4);
        const [apiKey, version] = pending.get(correlationId) ?? [-1, -1];
        pending.delete(correlationId);
        if (apiKey === ApiKey.Metadata) {
          const { header, body } = decodeResponse(frame, apiKey, version) as { header: { correlationId: number }; body: any };
          for (const b of body.brokers) { b.host = '127.0.0.1'; b.port = port; }
          frame = encodeResponse(apiKey, version, header, body);
        }
        client.write(frame);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  return {
    bootstrap: `127.0.0.1:${port}`,
    get produceRequests() { return produceRequests; },
    get cuts() { return cuts; },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
