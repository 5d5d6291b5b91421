// The recording proxy: kcat and kafkajs against librdkafka's 3-broker mock cluster through it
// (every broker address they learn is one of the proxy's listeners; produce and consume work);
// address rewriting in FindCoordinator and DescribeCluster against a scripted server; and the
// recording read back as a capture, by kafka-wire and by tshark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { startProxy, type KafkaProxy } from '../../src/capture/proxy.js';
import { CaptureFileWriter, captureFrameToJson, readCapture, type CaptureFrame, type Packet } from '../../src/capture/index.js';
import { startServer, connect } from '../../src/wire/index.js';
import { decodeResponse, encodeRequest, encodeResponse } from '../../src/codec/by-key.js';
import { startMemoryBroker } from '../../src/wire/memory-broker.js';
import { mockClusterAvailable, startMockCluster, type MockCluster } from '../wire/mock-cluster.js';
import { makeCert } from '../wire/tls-cert.js';
import { kcatAvailable, kcatOk } from '../wire/kcat.js';
import { tsharkInfo } from '../peers/tshark.js';
import { asTsharkPdus, runCommand, tsharkPdus } from './helpers.js';

const avail = await mockClusterAvailable();
const haveKcat = kcatAvailable();

function recordingOf(packets: Packet[]): CaptureFrame[] {
  const bytes = new CaptureFileWriter({ nanoseconds: true }).file(packets);
  return [...readCapture(bytes)].filter((e): e is CaptureFrame => e.type === 'frame');
}

describe.skipIf(!avail.ok || !haveKcat)('through the proxy to a 3-broker mock cluster', () => {
  let mc: MockCluster;
  let proxy: KafkaProxy;
  const packets: Packet[] = [];
  beforeAll(async () => {
    mc = await startMockCluster({ brokers: 3, topics: ['p:3'] });
    proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0 }, upstream: mc.brokers[0], record: (p) => packets.push({ ...p, payload: p.payload && new Uint8Array(p.payload) }) /* a copy: Buffer's slice() is a view */ });
  });
  afterAll(async () => {
    await proxy?.close();
    await mc?.stop();
  });

  it('kcat sees only the proxy\'s listeners, one per broker, and produces and consumes through them', async () => {
    const bootstrap = `${proxy.address.host}:${proxy.address.port}`;
    const metadata = await kcatOk(['-b', bootstrap, '-L', '-J']);
    const brokers = JSON.parse(metadata).brokers.map((b: any) => b.name);
    const local = [...proxy.listeners.values()].map((l) => `${l.host}:${l.port}`);
    expect(proxy.listeners.size).toBe(3);
    expect(new Set(brokers)).toEqual(new Set(local.map((l) => l)));
    for (const b of mc.brokers) expect(brokers).not.toContain(`${b.host}:${b.port}`);
    await kcatOk(['-b', bootstrap, '-P', '-t', 'p', '-p', '1', '-k', 'k'], 'one\ntwo\n');
    const consumed = await kcatOk(['-b', bootstrap, '-C', '-t', 'p', '-p', '1', '-o', 'beginning', '-e', '-q']);
    expect(consumed.trim().split('\n')).toEqual(['one', 'two']);
  });

  it('kafkajs produces, and finds its group coordinator, through the proxy', async () => {
    const { Kafka, logLevel } = await import('kafkajs');
    const kafka = new Kafka({ brokers: [`${proxy.address.host}:${proxy.address.port}`], clientId: 'proxy-test', logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'p', messages: [{ partition: 2, value: 'via kafkajs' }] });
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.fetchOffsets({ groupId: 'g', topics: ['p'] });
    const cluster = await admin.describeCluster();
    await admin.disconnect();
    const local = new Set([...proxy.listeners.values()].map((l) => l.port));
    expect(cluster.brokers.every((b) => local.has(b.port))).toBe(true);
  });

  it('recorded what the clients saw: frames that decode, broker addresses all local', () => {
    const frames = recordingOf(packets);
    expect(frames.length).toBeGreaterThan(20);
    const local = new Set([...proxy.listeners.values()].map((l) => l.port));
    const apis = new Set(frames.map((f) => f.apiKey));
    for (const key of [0, 1, 3, 10, 18]) expect(apis).toContain(key);
    let checked = 0;
    for (const f of frames) {
      if (f.direction !== 'response' || (f.apiKey !== 3 && f.apiKey !== 10)) continue;
      const body: any = decodeResponse(f.bytes, f.apiKey, f.apiVersion!).body;
      const ports = f.apiKey === 3 ? body.brokers.map((b: any) => b.port) : body.coordinators?.map((c: any) => c.port) ?? [body.port];
      for (const port of ports) expect(local).toContain(port);
      checked += ports.length;
    }
    expect(checked).toBeGreaterThan(3);
  });
});

describe('address rewriting', () => {
  it('FindCoordinator (v0 and v4) and DescribeCluster name the proxy\'s listeners', async () => {
    const far = { host: 'broker-far.example', port: 19093 };
    const server = await startServer({
      handler: (req) => {
        if (req.apiKey === 10 && req.apiVersion === 0) return { errorCode: 0, nodeId: 7, ...far };
        if (req.apiKey === 10) return { coordinators: [{ key: 'g', nodeId: 7, ...far, errorCode: 0 }] };
        if (req.apiKey === 60) return { clusterId: 'c', controllerId: 1, brokers: [{ brokerId: 7, ...far, rack: null }] };
        return undefined;
      },
    });
    const proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0 }, upstream: { host: '127.0.0.1', port: server.port } });
    const connection = await connect({ host: '127.0.0.1', port: proxy.address.port, negotiateVersions: false });
    try {
      const v0: any = await connection.request(10, 0, { key: 'g' });
      const v4: any = await connection.request(10, 4, { keyType: 0, coordinatorKeys: ['g'] });
      const cluster: any = await connection.request(60, 0, {});
      const listener = proxy.listeners.get('broker-far.example:19093')!;
      expect(listener.host).toBe('127.0.0.1');
      expect([v0.host, v0.port, v0.nodeId]).toEqual([listener.host, listener.port, 7]);
      expect([v4.coordinators[0].host, v4.coordinators[0].port]).toEqual([listener.host, listener.port]);
      expect([cluster.brokers[0].host, cluster.brokers[0].port, cluster.clusterId]).toEqual([listener.host, listener.port, 'c']);
    } finally {
      connection.close();
      await proxy.close();
      await server.close();
    }
  });
});

describe('framing the proxy cannot lose', () => {
  /** An upstream that answers each chunk it receives with `reply(chunk)`, and a raw client through the proxy (reading only after `pauseMs`). */
  async function through(reply: (chunk: Buffer) => Uint8Array, send: Uint8Array, expected: number, pauseMs = 0) {
    const upstream = createServer((socket: Socket) => socket.on('data', (chunk) => socket.write(reply(chunk))));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0 }, upstream: { host: '127.0.0.1', port: (upstream.address() as AddressInfo).port } });
    const client = connectTcp(proxy.address.port, '127.0.0.1');
    try {
      const received: Buffer[] = [];
      let total = 0;
      await new Promise<void>((resolve, reject) => {
        client.on('error', reject);
        client.on('data', (chunk) => { received.push(chunk); total += chunk.length; if (total >= expected) resolve(); });
        client.write(send);
        if (pauseMs > 0) {
          client.pause();
          setTimeout(() => client.resume(), pauseMs);
        }
      });
      return { bytes: new Uint8Array(Buffer.concat(received)), proxy };
    } finally {
      client.destroy();
      await proxy.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  }

  it('passes a response of a version newer than its catalogue instead of ending', async () => {
    const request = Uint8Array.from([0, 0, 0, 10, 0, 3, 0, 99, 0, 0, 0, 7, 0xff, 0xff]); // Metadata v99, correlation 7
    const answer = Uint8Array.from([0, 0, 0, 6, 0, 0, 0, 7, 1, 2]);
    const { bytes } = await through(() => answer, request, answer.length);
    expect(bytes).toEqual(answer);
  });

  it('gives a client slow to read every byte of a response larger than the socket buffers (reused read buffers are not overwritten)', async () => {
    const request = Uint8Array.from([0, 0, 0, 10, 0, 18, 0, 3, 0, 0, 0, 7, 0xff, 0xff]); // ApiVersions v3, correlation 7
    const answer = new Uint8Array(16 * 1024 * 1024).map((_, i) => (i * 7) % 251);
    new DataView(answer.buffer).setInt32(0, answer.length - 4);
    new DataView(answer.buffer).setInt32(4, 7);
    const { bytes } = await through(() => answer, request, answer.length, 300);
    expect(bytes.length).toBe(answer.length);
    expect(bytes.findIndex((b, i) => b !== answer[i])).toBe(-1);
  });

  it('takes a frame shorter than its peek (an empty SASL token) whole, so the next response is still rewritten', async () => {
    const far = { host: 'broker-far.example', port: 19093 };
    const request = encodeRequest({ requestApiKey: 3, requestApiVersion: 1, correlationId: 7, clientId: 'c' }, { topics: null });
    const metadata = encodeResponse(3, 1, { correlationId: 7 }, { brokers: [{ nodeId: 1, ...far, rack: null }], controllerId: 1, topics: [] });
    const emptyToken = Uint8Array.from([0, 0, 0, 0]);
    const { bytes } = await through(() => Buffer.concat([emptyToken, metadata]), request, 4 + metadata.length - far.host.length + '127.0.0.1'.length);
    expect(bytes.subarray(0, 4)).toEqual(emptyToken);
    const rewritten: any = decodeResponse(bytes.subarray(4), 3, 1).body;
    expect(rewritten.brokers[0].host).toBe('127.0.0.1');
  });
});

describe('TLS to the upstream', () => {
  const pem = makeCert();
  it.skipIf(pem === null)('a plain client reaches a TLS broker through the proxy, whose address it is given (an IP: no server name, no DEP0123)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => { warnings.push(w.code ?? w.message); };
    process.on('warning', onWarning);
    const cert = readFileSync(pem!.cert);
    const broker = await startMemoryBroker({ topics: { secure: 2 }, tls: { key: readFileSync(pem!.key), cert } });
    const proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0 }, upstream: { host: '127.0.0.1', port: broker.port }, upstreamTls: { ca: cert } });
    const connection = await connect({ host: '127.0.0.1', port: proxy.address.port });
    try {
      const metadata: any = await connection.request(3, undefined, { topics: null });
      expect(metadata.topics.map((t: any) => [t.name, t.partitions.length])).toEqual([['secure', 2]]);
      expect(metadata.brokers.map((b: any) => [b.host, b.port])).toEqual([[proxy.address.host, proxy.address.port]]);
      // An IP address is no TLS server name (RFC 6066): Node warns DEP0123 when given one (issue 37 #10).
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w === 'DEP0123')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      connection.close();
      await proxy.close();
      await broker.close();
      rmSync(pem!.dir, { recursive: true, force: true });
    }
  });
});

/** Runs `kafka-wire proxy --record file` in-process against `upstreamPort` around `use(bootstrap)`, then interrupts it. */
async function recordingProxy(upstreamPort: number, file: string, use: (bootstrap: string) => Promise<void>): Promise<void> {
  const abort = new AbortController();
  let stderr = '';
  const done = main(['proxy', '--listen', '127.0.0.1:0', '--upstream', `127.0.0.1:${upstreamPort}`, '--record', file], {
    stdin: [] as any, stdout: { write: () => true }, stderr: { write: (t: string) => { stderr += t; return true; } }, signal: abort.signal,
  });
  try {
    while (!/proxy: 127\.0\.0\.1:\d+ ->/.test(stderr)) await new Promise((r) => setTimeout(r, 20));
    await use(/proxy: (127\.0\.0\.1:\d+) ->/.exec(stderr)![1]);
  } finally {
    abort.abort();
    expect(await done).toBe(0);
  }
}

describe('kafka-wire proxy', () => {
  for (const name of ['record.jsonl', 'record.pcap', 'record.pcapng']) it(`runs until interrupted and records ${name}: JSON lines as kafka-wire pcap prints them, or a capture`, async () => {
    const server = await startServer({ handler: (req) => (req.apiKey === 3 ? { brokers: [], topics: [] } : undefined) });
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-proxy-'));
    let port = 0;
    try {
      const file = join(dir, name);
      await recordingProxy(server.port, file, async (bootstrap) => {
        port = Number(bootstrap.split(':')[1]);
        const connection = await connect({ host: '127.0.0.1', port, negotiateVersions: false });
        await connection.request(3, 12, { topics: null });
        connection.close();
        await new Promise((r) => setTimeout(r, 100));
      });
      const lines = name.endsWith('.jsonl')
        ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
        : [...readCapture(new Uint8Array(readFileSync(file)))].filter((e): e is CaptureFrame => e.type === 'frame').map((f) => JSON.parse(JSON.stringify(captureFrameToJson(f))));
      const metadata = lines.filter((l) => l.apiKey === 3);
      expect(metadata.map((l) => [l.direction, l.apiVersion, l.ok])).toEqual([['request', 12, true], ['response', 12, true]]);
      expect(metadata[1].latencyMs).toBeGreaterThan(0);
      expect(metadata[0].conn).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+->127\\.0\\.0\\.1:${port}$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});

describe.skipIf(!haveKcat || !tsharkInfo().ok)('a recording of kcat through the proxy to the memory broker', () => {
  // Megabytes of 1000-byte messages each way: frames longer than a segment, records filling the
  // recorder's buffers several times over.
  const messages = 3000;
  const input = Array.from({ length: messages }, (_, i) => `${String(i).padStart(6, '0')}${'m'.repeat(993)}`).join('\n') + '\n';
  for (const name of ['record.pcap', 'record.pcapng']) it(`${name}: what tshark reads is what kafka-wire pcap reads, and nothing is lost`, async () => {
    const broker = await startMemoryBroker({ host: '127.0.0.1', port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-proxy-'));
    let bootstrap = '';
    try {
      const file = join(dir, name);
      await recordingProxy(broker.port, file, async (address) => {
        bootstrap = address;
        await kcatOk(['-b', bootstrap, '-P', '-t', 'recorded', '-X', 'linger.ms=5'], input, 60_000);
        const consumed = await kcatOk(['-b', bootstrap, '-C', '-t', 'recorded', '-o', 'beginning', '-e', '-q', '-c', String(messages)], undefined, 60_000);
        expect(consumed).toBe(input);
      });

      const bytes = new Uint8Array(readFileSync(file));
      expect(bytes.length).toBeGreaterThan(2 * input.length);
      const frames = [...readCapture(bytes)].filter((e): e is CaptureFrame => e.type === 'frame');
      expect(frames.filter((f) => f.apiKey === 0).length).toBeGreaterThan(0);
      expect(asTsharkPdus(frames)).toEqual(tsharkPdus(file, Number(bootstrap.split(':')[1])));
      const pcap = await runCommand(((args: string[], io: any) => main(['pcap', ...args], io)), [file]);
      expect(pcap.stderr).toMatch(/, 0 decode errors, 0 gaps \(0 bytes lost\), 0 retransmitted segments, 0 unpaired responses/);
      expect(pcap.lines.length).toBe(frames.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await broker.close();
    }
  });
});
