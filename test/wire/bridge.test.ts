// `kafka-wire bridge`: Kafka frames over WebSockets, spoken by Node's own WebSocket client
// (undici's, an implementation independent of the bridge's server side) in a child process,
// against the memory broker. Checks that the brokers the cluster names come back as the bridge's
// made-up names and are reachable only as such; that an Origin not on the list, a target that is
// no broker, a frame over the limit and a message that is not one frame are refused; and that the
// bridge closes cleanly when either side does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { startBridge, type KafkaBridge } from '../../src/wire/bridge.js';
import { WebSocketFrameReader, frameHeader, CloseCode } from '../../src/wire/websocket.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { decodeResponse, encodeRequest } from '../../src/codec/by-key.js';
import { ApiKey } from '../../src/generated/types.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers/shared.js';

interface Session { messages: Uint8Array[]; close: { code: number; reason: string } | null; error: string | null }

/**
 * Opens a WebSocket to `url` in a child Node (its built-in client), sends `frames` one message
 * each, and collects `expect` answers; then closes (code 1000) unless `wait` says to wait for the
 * bridge to close first.
 */
function session(url: string, frames: Uint8Array[], expect: number, wait = false): Promise<Session> {
  const script = `
    const [url, hex, expect, wait] = process.argv.slice(1);
    const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    let got = 0;
    const timer = setTimeout(() => { out({ type: 'timeout' }); process.exit(0); }, 10000);
    ws.onopen = () => { for (const f of JSON.parse(hex)) ws.send(Buffer.from(f, 'hex')); if (Number(expect) === 0 && wait !== '1') ws.close(1000); };
    ws.onmessage = (e) => {
      out({ type: 'message', hex: Buffer.from(e.data).toString('hex') });
      if (++got === Number(expect) && wait !== '1') ws.close(1000);
    };
    ws.onerror = (e) => out({ type: 'error', message: String(e.message ?? e.type) });
    ws.onclose = (e) => { out({ type: 'close', code: e.code, reason: e.reason }); clearTimeout(timer); process.exit(0); };
  `;
  const hex = JSON.stringify(frames.map((f) => Buffer.from(f).toString('hex')));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--experimental-websocket', '--no-warnings', '-e', script, url, hex, String(expect), wait ? '1' : '0'],
      { timeout: 20_000 }, (error, stdout) => {
        if (error) { reject(error); return; }
        const result: Session = { messages: [], close: null, error: null };
        for (const line of stdout.split('\n').filter(Boolean)) {
          const event = JSON.parse(line);
          if (event.type === 'message') result.messages.push(Buffer.from(event.hex, 'hex'));
          else if (event.type === 'close') result.close = { code: event.code, reason: event.reason };
          else if (event.type === 'error') result.error = event.message;
          else if (event.type === 'timeout') result.error = 'timeout';
        }
        resolve(result);
      });
  });
}

/** The status line an upgrade request gets (for refusals, which never become WebSockets). */
function upgradeStatus(bridge: KafkaBridge, path: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: bridge.address.host, port: bridge.address.port, path,
      headers: {
        Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.alloc(16, 7).toString('base64'), ...(origin === undefined ? {} : { Origin: origin }),
      },
    });
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve(res.statusCode ?? 0); });
    req.on('response', (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end();
  });
}

const metadataRequest = (correlationId: number) => encodeRequest(
  { requestApiKey: ApiKey.Metadata, requestApiVersion: 12, correlationId, clientId: 'bridge-test' },
  { topics: null, allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false },
);
const apiVersionsRequest = (correlationId: number) => encodeRequest(
  { requestApiKey: ApiKey.ApiVersions, requestApiVersion: 3, correlationId, clientId: 'bridge-test' },
  { clientSoftwareName: 'kafka-wire-test', clientSoftwareVersion: '1' },
);

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('kafka-wire bridge', () => {
  let broker: MemoryBroker;
  let bridge: KafkaBridge;
  const errors: Error[] = [];
  beforeAll(async () => {
    broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { t: 2 } });
    bridge = await startBridge({
      listen: { host: '127.0.0.1', port: 0 }, bootstrap: [{ host: broker.host, port: broker.port }],
      allowedOrigins: ['http://allowed.test'], maxFrameSize: 4096, onError: (e) => errors.push(e),
    });
  });
  afterAll(async () => {
    await bridge?.close();
    await broker?.close();
  });

  it('carries frames both ways and names the brokers by names only it reaches', async () => {
    const first = await session(bridge.url, [apiVersionsRequest(1), metadataRequest(2)], 2);
    expect(first.error).toBeNull();
    expect(first.messages).toHaveLength(2);
    const versions = decodeResponse(first.messages[0]!, ApiKey.ApiVersions, 3);
    expect(versions.header.correlationId).toBe(1);
    expect(versions.body.errorCode).toBe(0);
    const metadata = decodeResponse(first.messages[1]!, ApiKey.Metadata, 12);
    expect(metadata.header.correlationId).toBe(2);
    expect(metadata.body.brokers).toHaveLength(1);
    const named = metadata.body.brokers[0]!;
    expect(named.host).toMatch(/^kafka-\d+\.bridge\.invalid$/);
    expect(named.port).toBe(bridge.address.port);
    expect(bridge.brokers.get(`${named.host}:${named.port}`)).toEqual({ host: broker.host, port: broker.port });
    expect(metadata.body.topics.map((t) => t.name)).toEqual(['t']);
    expect(first.close?.code).toBe(1000);

    // The name the cluster's answer gave is reachable, through the bridge alone.
    const second = await session(`${bridge.url}?broker=${encodeURIComponent(`${named.host}:${named.port}`)}`, [apiVersionsRequest(7)], 1);
    expect(second.messages).toHaveLength(1);
    expect(decodeResponse(second.messages[0]!, ApiKey.ApiVersions, 3).header.correlationId).toBe(7);
  });

  it('refuses what a page must not do before anything reaches a broker', async () => {
    // An Origin not on the list; one that is; a target that is not a name the bridge made (the
    // broker's real address included); a path that is not the bridge's.
    expect(await upgradeStatus(bridge, '/', 'http://evil.test')).toBe(403);
    expect(await upgradeStatus(bridge, '/', 'http://allowed.test')).toBe(101);
    expect(await upgradeStatus(bridge, `/?broker=${broker.host}:${broker.port}`)).toBe(403);
    expect(await upgradeStatus(bridge, '/?broker=169.254.169.254:80')).toBe(403);
    expect(await upgradeStatus(bridge, '/elsewhere')).toBe(404);
  });

  it('closes on a frame over the size limit and on a message that is not one frame', async () => {
    const big = new Uint8Array(4 + 5000);
    new DataView(big.buffer).setInt32(0, 5000);
    const tooBig = await session(bridge.url, [big], 0, true);
    expect(tooBig.close?.code).toBe(CloseCode.MESSAGE_TOO_BIG);

    const lying = apiVersionsRequest(3).slice();
    new DataView(lying.buffer).setInt32(0, lying.length); // the prefix must be the length less 4
    const wrong = await session(bridge.url, [lying], 0, true);
    expect(wrong.close?.code).toBe(CloseCode.POLICY_VIOLATION);
    expect(wrong.close?.reason).toMatch(/one Kafka request frame/);
    await until(() => bridge.open === 0);
  });

  it('closes the page\'s side when the broker\'s goes, and the broker\'s when the page\'s does', async () => {
    const other = await startMemoryBroker({ host: '127.0.0.1', port: 0 });
    const alone = await startBridge({ listen: { host: '127.0.0.1', port: 0 }, bootstrap: [{ host: other.host, port: other.port }] });
    try {
      const done = session(alone.url, [apiVersionsRequest(1)], 1, true);
      await until(() => alone.open === 1);
      await other.close();
      const result = await done;
      // Whether the answer left before the broker went is a race; the close is not.
      expect(result.close?.code).toBe(CloseCode.GOING_AWAY);
      await until(() => alone.open === 0);
    } finally {
      await alone.close();
    }
    // The page closing (session() closes with 1000 once answered) ends the bridge's connection.
    await session(bridge.url, [apiVersionsRequest(1)], 1);
    await until(() => bridge.open === 0);
  });
});

describe('the bridge\'s WebSocket frame reader', () => {
  const masked = (opcode: number, payload: Uint8Array, fin = true) => {
    const mask = Uint8Array.of(1, 2, 3, 4);
    const header = frameHeader(opcode as 2, payload.length);
    header[0] = (fin ? 0x80 : 0) | opcode;
    header[1]! |= 0x80;
    const body = payload.map((b, i) => b ^ mask[i & 3]!);
    return Buffer.concat([header, mask, body]);
  };

  it('joins fragments, passes control frames between them, and takes bytes one at a time', () => {
    const stream = Buffer.concat([
      masked(2, Uint8Array.of(1, 2, 3), false), masked(9, Uint8Array.of(9)), masked(0, new Uint8Array(300).fill(5)),
    ]);
    const reader = new WebSocketFrameReader(1000);
    const got = [];
    for (const byte of stream) got.push(...reader.push(Uint8Array.of(byte)));
    expect(got.map((m) => [m.opcode, m.payload.length])).toEqual([[9, 1], [2, 303]]);
    expect([...got[1]!.payload.subarray(0, 4)]).toEqual([1, 2, 3, 5]);
  });

  it('refuses an unmasked frame, a size over the limit at its header, and a 64-bit length', () => {
    const unmasked = Buffer.from([0x82, 1, 0]);
    expect(() => new WebSocketFrameReader(10).push(unmasked)).toThrow(/not masked/);
    // Only the header of a 2 GiB frame arrives: refused without waiting for (or buffering) it.
    const huge = Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0x80, 0, 0, 0]);
    expect(() => new WebSocketFrameReader(1 << 20).push(huge)).toThrow(/over the limit/);
    const top = Buffer.from([0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1]);
    expect(() => new WebSocketFrameReader(1 << 20).push(top)).toThrow(/top bit/);
  });
});

describe('the producer and consumer through the bridge (webSocketConnector)', () => {
  const dist = (path: string) => pathToFileURL(join(repoRoot, 'dist', 'src', path)).href;
  const built = existsSync(join(repoRoot, 'dist', 'src', 'wire', 'sockets', 'websocket.js'));

  it.skipIf(!built)('produces 1,000 records and reads them back, every connection a WebSocket to the bridge', async () => {
    const broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { pages: 2 } });
    const bridge = await startBridge({ listen: { host: '127.0.0.1', port: 0 }, bootstrap: [{ host: broker.host, port: broker.port }] });
    try {
      // A page's code: no host it could dial itself, only the bridge's URL.
      const script = `
        const [producerUrl, consumerUrl, wireUrl, bridgeUrl] = process.argv.slice(1);
        const { Producer } = await import(producerUrl);
        const { Consumer } = await import(consumerUrl);
        const { webSocketConnector } = await import(wireUrl);
        const socket = webSocketConnector({ url: bridgeUrl });
        const bootstrap = 'bridge.invalid:9092';
        const producer = new Producer({ bootstrap, socket, lingerMs: 1 });
        const acks = await producer.send('pages', Array.from({ length: 1000 }, (_, i) => ({ key: 'k' + (i % 7), value: 'v' + i })));
        await producer.close();
        const consumer = new Consumer({ bootstrap, socket, assign: [{ topic: 'pages' }], resetPolicy: 'earliest' });
        const seen = [];
        for await (const batch of consumer) {
          for (const r of batch.records()) seen.push(new TextDecoder().decode(r.value));
          if (seen.length >= 1000) { consumer.markFinished(batch); break; }
        }
        await consumer.close();
        process.stdout.write(JSON.stringify({ acked: acks.length, seen: seen.sort() }));
      `;
      const out = await new Promise<string>((resolve, reject) => execFile(process.execPath,
        ['--experimental-websocket', '--no-warnings', '--input-type=module', '-e', script,
          dist('producer/index.js'), dist('consumer/index.js'), dist('wire/index.js'), bridge.url],
        { timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))));
      const { acked, seen } = JSON.parse(out) as { acked: number; seen: string[] };
      expect(acked).toBe(1000);
      expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => `v${i}`).sort());
      // Everything went through the bridge: the broker's one address became the bridge's name for it.
      expect([...bridge.brokers.values()]).toEqual([{ host: broker.host, port: broker.port }]);
      expect(bridge.connections).toBeGreaterThanOrEqual(2);
      await until(() => bridge.open === 0);
    } finally {
      await bridge.close();
      await broker.close();
    }
  });
});
