// Test helper: a proxy in front of one broker that cuts one chosen answer mid-frame (half of it
// written, then the client's connection closed), the fault of issue 37 item 4. Broker addresses in
// Metadata and FindCoordinator answers become the proxy's own, so every connection goes through it.
// (The fault suite's seeded proxy is test/helpers/fault-proxy.ts; this one is the small scripted case.)
import * as net from 'node:net';
import { decodeResponse, encodeResponse } from '../../src/codec/by-key.js';
import { ApiKey } from '../../src/generated/types.js';

export interface CuttingProxy { port: number; bootstrap: string; cuts: number; answered: number[]; close(): Promise<void> }

/**
 * Forwards to `upstream`; `cut(apiKey, answered)` (answered: API keys of the answers passed so
 * far, on every connection) picks the answer to cut: half of it is written, then the client's
 * connection is closed. Broker addresses in Metadata and FindCoordinator answers become the
 * proxy's own (one upstream broker).
 */
export async function startCuttingProxy(upstream: { host: string; port: number }, cut: (apiKey: number, answered: readonly number[]) => boolean): Promise<CuttingProxy> {
  const sockets = new Set<net.Socket>();
  const answered: number[] = [];
  let cuts = 0;
  let port = 0;
  const server = net.createServer((client) => {
    const up = net.connect(upstream);
    sockets.add(client); sockets.add(up);
    const end = () => { client.destroy(); up.destroy(); sockets.delete(client); sockets.delete(up); };
    client.on('close', end).on('error', end);
    up.on('close', end).on('error', end);
    const asked = new Map<number, [apiKey: number, version: number]>();
    let fromClient = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      fromClient = Buffer.concat([fromClient, chunk]);
      while (fromClient.length >= 4 && fromClient.length >= 4 + fromClient.readInt32BE(0)) {
        const frame = fromClient.subarray(0, 4 + fromClient.readInt32BE(0));
        fromClient = fromClient.subarray(frame.length);
        asked.set(frame.readInt32BE(8), [frame.readInt16BE(4), frame.readInt16BE(6)]);
        up.write(frame);
      }
    });
    let fromUp = Buffer.alloc(0);
    up.on('data', (chunk: Buffer) => {
      fromUp = Buffer.concat([fromUp, chunk]);
      while (fromUp.length >= 4 && fromUp.length >= 4 + fromUp.readInt32BE(0)) {
        let frame: Uint8Array = fromUp.subarray(0, 4 + fromUp.readInt32BE(0));
        fromUp = fromUp.subarray(frame.length);
        const [apiKey, version] = asked.get((frame as Buffer).readInt32BE(4)) ?? [-1, -1];
        if (apiKey === ApiKey.Metadata || apiKey === ApiKey.FindCoordinator) {
          const { header, body } = decodeResponse(frame, apiKey, version) as { header: never; body: any };
          for (const b of [...(body.brokers ?? []), ...(body.coordinators ?? [])]) { b.host = '127.0.0.1'; b.port = port; }
          if (typeof body.host === 'string' && body.host !== '') { body.host = '127.0.0.1'; body.port = port; }
          frame = encodeResponse(apiKey, version, header, body, { checkFields: false });
        }
        if (cut(apiKey, answered)) {
          cuts++;
          client.write(frame.subarray(0, frame.length >> 1), () => end());
          return;
        }
        answered.push(apiKey);
        client.write(frame);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  return {
    port, bootstrap: `127.0.0.1:${port}`, answered,
    get cuts() { return cuts; },
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

/** The first answer of `apiKey` after the first answer of `after` (none: the first of all). */
export const firstAfter = (apiKey: number, after?: number) => {
  let done = false;
  return (key: number, answered: readonly number[]) => {
    if (done || key !== apiKey || (after !== undefined && !answered.includes(after))) return false;
    return done = true;
  };
};

/** The first `n` answers of `apiKey`. */
export const firstN = (apiKey: number, n: number) => {
  let left = n;
  return (key: number) => key === apiKey && left > 0 && left-- > 0;
};

