// A proxy in front of one broker that holds every Produce response for a set time before passing
// it on (and, when asked, rewrites the responses of an API: a broker answering what cannot be), so a test knows the ack latency it should measure (perf's percentiles against a known
// delay). It keeps the client on itself: broker addresses in Metadata and FindCoordinator
// responses become its own. Responses keep their order on a connection (a later one never
// overtakes a held one). Single broker only (every address maps to this one listener).
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';
import { decodeResponse, encodeResponse } from '../../src/codec/by-key.js';
import { ApiKey } from '../../src/generated/types.js';

export interface DelayProxy { host: string; port: number; bootstrap: string; close(): Promise<void> }

/** Splits a byte stream into size-prefixed frames (each with its 4-byte prefix). */
function framer(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (pending.length < 4 + size) break;
      onFrame(pending.subarray(0, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}

/** Changes made to responses of an API on their way to the client (a broker that answers wrongly). */
export type ResponseRewrites = Partial<Record<number, (body: any) => void>>;

export async function startDelayProxy(upstream: { host: string; port: number }, produceDelayMs: number, rewrites: ResponseRewrites = {}): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  let self = { host: '127.0.0.1', port: 0 };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.setNoDelay(true);
    const up = connect(upstream);
    sockets.add(up);
    up.setNoDelay(true);
    const requests = new Map<number, { apiKey: number; apiVersion: number }>();
    let releaseAt = 0;
    client.on('data', framer((frame) => {
      requests.set(frame.readInt32BE(8), { apiKey: frame.readInt16BE(4), apiVersion: frame.readInt16BE(6) });
      up.write(frame);
    }));
    up.on('data', framer((frame) => {
      const request = requests.get(frame.readInt32BE(4));
      requests.delete(frame.readInt32BE(4));
      let out: Uint8Array = frame;
      const rewrite = request ? rewrites[request.apiKey] : undefined;
      if (request && (request.apiKey === ApiKey.Metadata || request.apiKey === ApiKey.FindCoordinator || rewrite)) {
        const decoded = decodeResponse(frame, request.apiKey, request.apiVersion) as { header: never; body: Record<string, unknown> };
        rewrite?.(decoded.body);
        const body = decoded.body as { brokers?: { host: string; port: number }[]; host?: string; port?: number; coordinators?: { host: string; port: number }[] };
        for (const b of [...(body.brokers ?? []), ...(body.coordinators ?? [])]) { b.host = self.host; b.port = self.port; }
        if (typeof body.host === 'string' && body.host !== '') { body.host = self.host; body.port = self.port; }
        out = encodeResponse(request.apiKey, request.apiVersion, decoded.header, decoded.body as never, { checkFields: false });
      }
      const now = performance.now();
      releaseAt = Math.max(releaseAt, now + (request?.apiKey === ApiKey.Produce ? produceDelayMs : 0));
      const wait = releaseAt - now;
      const copy = Buffer.from(out);
      if (wait <= 0) client.write(copy);
      else setTimeout(() => { if (!client.destroyed) client.write(copy); }, wait);
    }));
    const end = () => { client.destroy(); up.destroy(); sockets.delete(client); sockets.delete(up); };
    client.on('close', end).on('error', end);
    up.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
  return {
    ...self,
    bootstrap: `${self.host}:${self.port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
