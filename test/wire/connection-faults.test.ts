// Connection against a misbehaving broker: every pending request fails with a typed
// ConnectionError, nothing hangs.

import { describe, it, expect, afterEach } from 'vitest';
import fc from 'fast-check';
import * as net from 'node:net';
import * as http from 'node:http';
import * as tls from 'node:tls';
import { readFileSync, rmSync } from 'node:fs';
import { makeCert } from './tls-cert.js';
import { connect, type Connection } from '../../src/wire/connection.js';
import { ConnectionError } from '../../src/wire/errors.js';
import { encodeResponse, newMessage } from '../../src/codec/by-key.js';
import { startFakeBroker, correlationIdOf, frame, int32, type FakeBroker } from './fake-broker.js';
import { waitUntil } from '../helpers/wait.js';

const METADATA = 3;
let broker: FakeBroker | undefined;
let conn: Connection | undefined;

afterEach(async () => {
  conn?.destroy();
  conn = undefined;
  await broker?.close();
  broker = undefined;
});

async function open(script: Parameters<typeof startFakeBroker>[0], requestTimeoutMs = 5000): Promise<Connection> {
  broker = await startFakeBroker(script);
  conn = await connect({ host: '127.0.0.1', port: broker.port, negotiateVersions: false, requestTimeoutMs });
  return conn;
}

function metadataResponse(correlationId: number): Uint8Array {
  return encodeResponse(METADATA, 1, { correlationId }, newMessage(METADATA, 'response', 1, { brokers: [], topics: [] }));
}

/** Sends n Metadata v1 requests at once and waits for every outcome. */
async function fire(c: Connection, n: number): Promise<PromiseSettledResult<unknown>[]> {
  return Promise.allSettled(Array.from({ length: n }, () => c.request(METADATA, 1, { topics: null })));
}

function expectAllFailed(results: PromiseSettledResult<unknown>[], code: string): void {
  for (const r of results) {
    expect(r.status).toBe('rejected');
    const err = (r as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.code).toBe(code);
    expect(err.apiKey).toBe(METADATA);
  }
}

describe('Connection faults', () => {
  it('fails to connect with CONNECT', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    await expect(connect({ host: '127.0.0.1', port })).rejects.toMatchObject({ name: 'ConnectionError', code: 'CONNECT' });
  });

  it('peer closing mid-frame fails every pending request with TRUNCATED', async () => {
    const c = await open((f, socket, i) => {
      if (i === 2) {
        const whole = metadataResponse(correlationIdOf(f));
        socket.end(whole.subarray(0, whole.length - 3));
      }
    });
    const results = await fire(c, 3);
    expectAllFailed(results, 'TRUNCATED');
    expect(c.closed).toBe(true);
    expect(c.inFlight).toBe(0);
    // later requests fail at once too
    await expect(c.request(METADATA, 1, {})).rejects.toMatchObject({ code: 'TRUNCATED' });
  });

  it('answers delivered before the peer closes still resolve; the rest fail with CLOSED', async () => {
    const c = await open((f, socket, i) => {
      if (i === 0) socket.write(metadataResponse(correlationIdOf(f)));
      if (i === 2) socket.end();
    });
    const results = await fire(c, 3);
    expect(results[0]!.status).toBe('fulfilled');
    expectAllFailed(results.slice(1), 'CLOSED');
  });

  it('a complete but truncated body fails every pending request with DECODE', async () => {
    const c = await open((f, socket, i) => {
      if (i === 0) socket.write(frame([...int32(correlationIdOf(f)), 0, 0, 0, 1])); // brokers array count 1, then nothing
    });
    const results = await fire(c, 4);
    expectAllFailed(results, 'DECODE');
    const cause = ((results[0] as PromiseRejectedResult).reason as Error).cause as { name: string; code: string };
    expect(cause.name).toBe('KafkaWireError');
  });

  it('a negative frame size fails everything with FRAME', async () => {
    const c = await open((_f, socket) => socket.write(Uint8Array.from([0xff, 0xff, 0xff, 0x00, 1, 2, 3])));
    expectAllFailed(await fire(c, 2), 'FRAME');
  });

  it('an answer in the same chunk as a bad frame size still resolves; the rest fail with FRAME', async () => {
    const c = await open((f, socket, i) => {
      if (i === 0) socket.write(Uint8Array.from([...metadataResponse(correlationIdOf(f)), 0xff, 0xff, 0xff, 0x00, 1, 2]));
    });
    const results = await fire(c, 3);
    expect(results[0]!.status).toBe('fulfilled');
    expectAllFailed(results.slice(1), 'FRAME');
  });

  it('an HTTP answer fails everything with NOT_KAFKA, saying it looks like HTTP', async () => {
    const c = await open((_f, socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const results = await fire(c, 2);
    expectAllFailed(results, 'NOT_KAFKA');
    expect((results[0] as PromiseRejectedResult).reason.message).toContain('looks like an HTTP server');
  });

  it('an HTTP server at the bootstrap address: connect() rejects with NOT_KAFKA, not a frame size', async () => {
    const server = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const err = await connect({ host: '127.0.0.1', port, requestTimeoutMs: 5000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err).toMatchObject({ code: 'NOT_KAFKA', message: expect.stringContaining('HTTP') });
      expect((err as Error).message).not.toMatch(/maxFrameSize/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('a TLS listener spoken to in plaintext, and a plaintext one spoken to in TLS, say so', async () => {
    const cert = makeCert();
    if (cert === null) return;
    const key = readFileSync(cert.key);
    const crt = readFileSync(cert.cert);
    const tlsServer = tls.createServer({ key, cert: crt }, (s) => s.end());
    tlsServer.on('tlsClientError', () => undefined);
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    const plain = net.createServer((s) => s.on('data', () => s.destroy()));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const tlsPort = (tlsServer.address() as net.AddressInfo).port;
      const toTls = await connect({ host: '127.0.0.1', port: tlsPort, requestTimeoutMs: 5000 }).catch((e: unknown) => e);
      expect(toTls).toBeInstanceOf(ConnectionError);
      expect((toTls as Error).message).toMatch(/TLS/);
      const plainPort = (plain.address() as net.AddressInfo).port;
      const toPlain = await connect({ host: '127.0.0.1', port: plainPort, tls: { ca: crt }, requestTimeoutMs: 5000 }).catch((e: unknown) => e);
      expect(toPlain).toMatchObject({ name: 'ConnectionError', code: 'CONNECT' });
      expect((toPlain as Error).message).toContain('plaintext listener');
    } finally {
      await new Promise((r) => tlsServer.close(r));
      await new Promise((r) => plain.close(r));
      rmSync(cert.dir, { recursive: true, force: true });
    }
  });

  it('an unknown correlation id fails everything with UNEXPECTED_RESPONSE', async () => {
    const c = await open((f, socket, i) => { if (i === 0) socket.write(metadataResponse(correlationIdOf(f) + 1000)); });
    expectAllFailed(await fire(c, 3), 'UNEXPECTED_RESPONSE');
  });

  it('a response shorter than a header fails with DECODE', async () => {
    const c = await open((_f, socket) => socket.write(frame([0, 0])));
    expectAllFailed(await fire(c, 2), 'DECODE');
  });

  it('a request that times out closes its connection: every pending request fails, its late answer is never taken', async () => {
    const held: Uint8Array[] = [];
    const c = await open((f, socket, i) => {
      if (i === 0) { held.push(f); return; }
      if (i === 1) return; // waits behind the first; the broker would answer it after
    }, 150);
    const results = await Promise.allSettled([c.request(METADATA, 1, {}), c.request(METADATA, 1, {})]);
    expectAllFailed(results, 'TIMEOUT');
    expect(c.closed).toBe(true);
    await expect(c.request(METADATA, 1, {})).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('an answer that overtakes an earlier request fails everything with UNEXPECTED_RESPONSE', async () => {
    const c = await open((f, socket, i) => {
      if (i === 0) { held.push(f); return; }
      socket.write(metadataResponse(correlationIdOf(f))); // the second answered first
    });
    const held: Uint8Array[] = [];
    expectAllFailed(await fire(c, 2), 'UNEXPECTED_RESPONSE');
  });

  it('a per-request timeout overrides the connection default', async () => {
    const c = await open(() => { /* silent */ }, 60_000);
    // The connection's own 60 s would outlast this test's timeout; the request's 50 ms does not.
    await expect(c.request(METADATA, 1, {}, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('50 ms') });
  });

  it('a short timeout after a long one times out first, naming its request; answered requests never time out later', async () => {
    const c = await open((f, socket, i) => { if (i < 3) socket.write(metadataResponse(correlationIdOf(f))); }, 120);
    // Answered well within 120 ms: the connection's one deadline timer finds nothing to fail.
    for (let i = 0; i < 3; i++) await c.request(METADATA, 1, {});
    await new Promise((r) => setTimeout(r, 250));
    expect(c.closed).toBe(false);
    const started = Date.now();
    const long = c.request(METADATA, 1, {}, { timeoutMs: 60_000 });
    const short = c.request(METADATA, 1, {}, { timeoutMs: 40 });
    await expect(short).rejects.toMatchObject({ code: 'TIMEOUT', correlationId: 4, message: expect.stringContaining('40 ms') });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(long).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('close() fails pending requests with CLOSED and resolves', async () => {
    const c = await open(() => { /* silent */ });
    const pending = fire(c, 5);
    await c.close();
    expectAllFailed(await pending, 'CLOSED');
  });

  it('emits close once with the failing error', async () => {
    const c = await open((_f, socket) => socket.destroy());
    const seen: ConnectionError[] = [];
    c.on('close', (e) => seen.push(e));
    await fire(c, 1);
    await waitUntil(() => c.closed, 'the connection to close');
    await new Promise((r) => setImmediate(r)); // a second close event would be emitted by now
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(ConnectionError);
  });

  it('an encoding error rejects that request only, with the codec error, and sends nothing', async () => {
    const c = await open((f, socket) => socket.write(metadataResponse(correlationIdOf(f))));
    await expect(c.request(METADATA, 1, { allowAutoTopicCreation: 'yes' as any, topics: [{ name: 5 as any }] }))
      .rejects.toMatchObject({ name: 'KafkaWireError' });
    await expect(c.request(METADATA, 1, {})).resolves.toBeTruthy();
    expect(broker!.received).toHaveLength(1);
  });

  it('any garbage followed by close fails every pending request, typed, without hanging (fast-check)', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 1, max: 4 }), async (junk, n) => {
      const b = await startFakeBroker((_f, socket, i) => { if (i === n - 1) socket.end(junk); });
      try {
        const c = await connect({ host: '127.0.0.1', port: b.port, negotiateVersions: false, requestTimeoutMs: 3000 });
        const results = await fire(c, n);
        for (const r of results) {
          if (r.status === 'fulfilled') continue; // junk that happens to be a valid answer
          expect(r.reason).toBeInstanceOf(ConnectionError);
          expect(['CLOSED', 'TRUNCATED', 'FRAME', 'DECODE', 'UNEXPECTED_RESPONSE']).toContain(r.reason.code);
        }
        expect(c.inFlight).toBe(0);
        c.destroy();
      } finally {
        await b.close();
      }
    }), { numRuns: 40 });
  });
});
