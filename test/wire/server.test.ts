// startServer() and the memory broker, driven by our Connection and by kcat (librdkafka).

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as net from 'node:net';
import { startServer, apiVersionsResponse, type KafkaServer } from '../../src/wire/server.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { connect } from '../../src/wire/connection.js';
import { decodeResponse, encodeRequest, getApi, newMessage } from '../../src/codec/by-key.js';
import { FrameSplitter } from '../../src/wire/frame-splitter.js';
import { kcatAvailable, kcatOk, kcat, CODECS } from './kcat.js';
import { frame, int32 } from './fake-broker.js';
import { waitUntil } from '../helpers/wait.js';

const haveKcat = kcatAvailable();

async function rawExchange(port: number, request: Uint8Array): Promise<Uint8Array> {
  const socket = net.connect({ host: '127.0.0.1', port });
  const splitter = new FrameSplitter();
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      socket.on('data', (d) => { const f = splitter.push(d); if (f.length) resolve(f[0]!); });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error('closed')));
      socket.write(request);
    });
  } finally {
    socket.destroy();
  }
}

describe('startServer', () => {
  let server: KafkaServer;
  const errors: unknown[] = [];
  beforeAll(async () => {
    server = await startServer({
      onError: (e) => errors.push(e),
      handler: async (req) => {
        switch (req.apiKey) {
          case 18: return apiVersionsResponse([18, 3, 12]);
          case 3: {
            // Answer later requests sooner: responses must still leave in request order.
            const name: string = req.body.topics?.[0]?.name ?? '';
            const delay = Number(name.split('-')[1] ?? 0);
            await new Promise((r) => setTimeout(r, delay));
            return { brokers: [], topics: [{ errorCode: 3, name, partitions: [] }] };
          }
          case 12: throw new Error('boom');
        }
        return undefined;
      },
    });
  });
  afterAll(async () => { await server?.close(); });

  it('listens on 127.0.0.1 by default', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers in request order even when handlers finish out of order', async () => {
    const conn = await connect({ host: server.host, port: server.port });
    expect(conn.versionFor(3)).toBe(Math.min(conn.apiVersions!.get(3)!.max, 13));
    const n = 20;
    const results = await Promise.all(Array.from({ length: n }, (_, i) =>
      conn.request(3, undefined, { topics: [{ name: `t-${(n - i) * 3}`, topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }] })));
    results.forEach((md, i) => expect(md.topics[0]!.name).toBe(`t-${(n - i) * 3}`));
    await conn.close();
  });

  it('closes the connection when the handler throws, failing pending requests', async () => {
    const conn = await connect({ host: server.host, port: server.port });
    const before = errors.length;
    await expect(conn.request(12, 0, { groupId: 'g', generationId: 1, memberId: 'm' })).rejects.toMatchObject({ name: 'ConnectionError', code: 'CLOSED' });
    expect(errors.length).toBe(before + 1);
    expect(String(errors[before])).toMatch(/boom/);
  });

  it('closes the connection on an undecodable request', async () => {
    const before = errors.length;
    const socket = net.connect({ host: '127.0.0.1', port: server.port });
    socket.write(frame([0, 3, 0, 1, ...int32(1), 0xff, 0xff, 0, 0, 0])); // Metadata v1, truncated
    await new Promise((r) => socket.on('close', r));
    expect(errors.length).toBe(before + 1);
    expect(errors[before]).toMatchObject({ name: 'KafkaWireError' });
  });

  it('answers an ApiVersions version it does not know with v0 UNSUPPORTED_VERSION, like a broker', async () => {
    // ApiVersions v99, header v2: clientId "x", no tags, then junk it cannot know.
    const req = frame([0, 18, 0, 99, ...int32(42), 0, 1, 0x78, 0, 1, 2, 3]);
    const res = decodeResponse(await rawExchange(server.port, req), 18, 0);
    expect(res.header.correlationId).toBe(42);
    expect(res.body.errorCode).toBe(35);
    const { validVersions } = getApi(18).request;
    expect(res.body.apiKeys).toEqual([{ apiKey: 18, minVersion: validVersions[0], maxVersion: validVersions[1] }].map((k) => expect.objectContaining(k)));
  });

  it('sends no response when the handler returns undefined (next request still answered)', async () => {
    const socket = net.connect({ host: '127.0.0.1', port: server.port });
    const splitter = new FrameSplitter();
    const got: Uint8Array[] = [];
    socket.on('data', (d) => got.push(...splitter.push(d)));
    // Heartbeat v0 → handler throws... use FindCoordinator (10): handler returns undefined.
    socket.write(encodeRequest({ requestApiKey: 10, requestApiVersion: 0, correlationId: 1, clientId: null }, newMessage(10, 'request', 0, { key: 'g' })));
    socket.write(encodeRequest({ requestApiKey: 18, requestApiVersion: 0, correlationId: 2, clientId: null }, {}));
    // Responses come in request order: once the second's is here, the first had none.
    await waitUntil(() => got.length >= 1, 'the ApiVersions response');
    socket.destroy();
    expect(got).toHaveLength(1);
    expect(decodeResponse(got[0]!, 18, 0).header.correlationId).toBe(2);
  });

  it('close() ends open client connections', async () => {
    const s = await startServer({ handler: () => apiVersionsResponse() });
    const conn = await connect({ host: s.host, port: s.port });
    expect(s.connections).toBe(1);
    const closed = new Promise((r) => conn.once('close', r));
    await s.close();
    await closed;
    expect(conn.closed).toBe(true);
  });
});

describe.skipIf(!haveKcat)('kcat ↔ memory broker', () => {
  let broker: MemoryBroker;
  beforeAll(async () => { broker = await startMemoryBroker({ topics: { kc: 2 } }); });
  afterAll(async () => { await broker?.close(); });

  it('kcat lists metadata', async () => {
    const md = JSON.parse(await kcatOk(['-b', broker.bootstrap, '-L', '-J']));
    expect(md.brokers).toEqual([expect.objectContaining({ id: 1, name: `${broker.host}:${broker.port}` })]);
    expect(md.topics.find((t: any) => t.topic === 'kc').partitions).toHaveLength(2);
  });

  it('kcat produces with every codec and consumes it back', async () => {
    for (const z of CODECS) {
      await kcatOk(['-b', broker.bootstrap, '-P', '-t', 'kc', '-p', '1', '-K', '\t', '-z', z, '-H', `z=${z}`, '-H', 'dup=1', '-H', 'dup=2'],
        `a-${z}\tone ${z}\nb-${z}\ttwo ${z}\n`);
    }
    const lines = (await kcatOk(['-b', broker.bootstrap, '-C', '-t', 'kc', '-p', '1', '-o', 'beginning', '-e', '-J'])).trim().split('\n');
    const recs = lines.map((l) => JSON.parse(l));
    expect(recs.map((r) => [r.offset, r.key, r.payload, r.headers])).toEqual(CODECS.flatMap((z, i) => [
      [2 * i, `a-${z}`, `one ${z}`, ['z', z, 'dup', '1', 'dup', '2']],
      [2 * i + 1, `b-${z}`, `two ${z}`, ['z', z, 'dup', '1', 'dup', '2']],
    ]));
    expect(broker.topics.get('kc')!.partitions[1]!.nextOffset).toBe(BigInt(2 * CODECS.length));
  });

  it('kcat consumes from end / an absolute offset', async () => {
    await kcatOk(['-b', broker.bootstrap, '-P', '-t', 'kc', '-p', '0'], 'x0\nx1\nx2\nx3\n');
    const from2 = (await kcatOk(['-b', broker.bootstrap, '-C', '-t', 'kc', '-p', '0', '-o', '2', '-e', '-f', '%o:%s\n'])).trim();
    expect(from2).toBe('2:x2\n3:x3');
    const atEnd = await kcat(['-b', broker.bootstrap, '-C', '-t', 'kc', '-p', '0', '-o', 'end', '-e', '-f', '%o:%s\n']);
    expect(atEnd.stdout).toBe('');
  });

  it('kcat auto-creates a topic by producing to it', async () => {
    await kcatOk(['-b', broker.bootstrap, '-P', '-t', 'fresh', '-p', '0'], 'hello\n');
    expect(broker.topics.has('fresh')).toBe(true);
    expect((await kcatOk(['-b', broker.bootstrap, '-C', '-t', 'fresh', '-o', 'beginning', '-e', '-f', '%s\n'])).trim()).toBe('hello');
  });

  it('kcat authenticates with SASL/PLAIN', async () => {
    const secure = await startMemoryBroker({ topics: { s: 1 }, sasl: { username: 'u', password: 'p' } });
    try {
      const sasl = ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=PLAIN', '-X', 'sasl.username=u'];
      await kcatOk(['-b', secure.bootstrap, ...sasl, '-X', 'sasl.password=p', '-P', '-t', 's'], 'secret\n');
      expect((await kcatOk(['-b', secure.bootstrap, ...sasl, '-X', 'sasl.password=p', '-C', '-t', 's', '-o', 'beginning', '-e', '-f', '%s\n'])).trim()).toBe('secret');
      const bad = await kcat(['-b', secure.bootstrap, ...sasl, '-X', 'sasl.password=wrong', '-L', '-m', '3'], '', 20_000);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/auth|SASL/i);
    } finally {
      await secure.close();
    }
  });
});
