// The command line against a real 3-node Kafka cluster: `metadata`, `produce` and `consume`
// directly, and `proxy` (the built bin, as a user runs it) in front of the cluster with kcat,
// Kafka's Java client and kafka-wire itself going through it, recording every frame, each of
// which must decode.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiName, supportedVersions } from '../../src/wire/index.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';
import { kafkaJava, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { kcat } from '../wire/kcat.js';

const ok = await kafkaPeer() && peer('kcat', hasCommand('kcat'), 'apt-get install kcat');

async function cli(command: string, args: string[], stdin = ''): Promise<string> {
  const r = await runCli(command, args, stdin);
  if (r.code !== 0) throw new Error(`kafka-wire ${command} ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

async function javaConsume(bootstrap: string, topic: string): Promise<any[]> {
  const r = await kafkaJava('dev.kafkawire.JavaClient', ['consume', bootstrap, topic], { timeoutMs: 180_000 });
  if (r.code !== 0) throw new Error(`JavaClient consume exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return jsonLines(r.stdout);
}

const hex = (text: string | null) => (text === null ? null : Buffer.from(text).toString('hex'));
const key = (l: { partition: number; offset: number }) => `${l.partition}/${l.offset}`;

/** `kafka-wire proxy` as a child process (the built bin); its listeners as it prints them. */
async function startProxyBin(upstream: string, record: string): Promise<{ child: ChildProcess; bootstrap: string; lines: string[] }> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'src', 'cli', 'main.js'), 'proxy', '--listen', '127.0.0.1:0', '--upstream', upstream, '--record', record],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: string[] = [];
  const first = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      const done = buffered.split('\n');
      buffered = done.pop()!;
      for (const line of done) {
        lines.push(line);
        const m = /^kafka-wire proxy: (\S+) -> /.exec(line);
        if (m && lines.filter((l) => l.includes(' -> ')).length === 1) resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`kafka-wire proxy exited ${code}: ${lines.join('\n')}`)));
    setTimeout(() => reject(new Error('kafka-wire proxy printed no listener in 30 s')), 30_000);
  });
  return { child, bootstrap: first, lines };
}

describe.skipIf(!ok)('the CLI against a real 3-node cluster', () => {
  const kafka = useKafka({ nodes: 3, heap: '512m' });
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('metadata, produce and consume, checked against kcat and the Java consumer', async () => {
    const k = kafka();
    await k.createTopic('cli-t', { partitions: 6, replicationFactor: 3 });
    const md = JSON.parse(await cli('metadata', ['-b', k.bootstrap, '-t', 'cli-t', '--json']));
    expect(md.brokers.map((b: { nodeId: number }) => b.nodeId)).toEqual([1, 2, 3]);
    expect(md.clusterId).toBe(k.clusterId);
    const [topic] = md.topics;
    expect(topic.name).toBe('cli-t');
    expect(topic.partitions).toHaveLength(6);
    for (const p of topic.partitions) expect([...p.replicas].sort()).toEqual([1, 2, 3]);
    // Leaders spread over the three nodes: produce and consume talk to all of them.
    expect(new Set(topic.partitions.map((p: { leader: number }) => p.leader)).size).toBe(3);

    const input = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? `v${i}` : `k${i % 50}\tv${i}`)).join('\n') + '\n';
    for (const codec of ['none', 'zstd', 'snappy']) await cli('produce', ['-b', k.bootstrap, '-t', 'cli-t', '-z', codec, '-H', `codec=${codec}`], input);
    const wire = jsonLines(await cli('consume', ['-b', k.bootstrap, '-t', 'cli-t', '-e']));
    expect(wire).toHaveLength(1800);
    // Keyed lines land where the Java client's partitioner puts them (murmur2), as kcat's -X partitioner=murmur2_random would.
    const java = await javaConsume(k.bootstrap, 'cli-t');
    const javaByPosition = new Map(java.map((l) => [key(l), l]));
    for (const l of wire) {
      const j = javaByPosition.get(key(l));
      expect(j, key(l)).toBeDefined();
      expect({ key: hex(l.key), value: hex(l.value), timestamp: l.timestamp, headers: l.headers.map((h: any) => ({ key: h.key, value: hex(h.value) })) })
        .toEqual({ key: j.key, value: j.value, timestamp: j.timestamp, headers: j.headers });
    }
    const kc = await kcat(['-b', k.bootstrap, '-C', '-t', 'cli-t', '-o', 'beginning', '-e', '-q', '-f', '%p %o %k|%s\n'], undefined, 60_000);
    expect(kc.code).toBe(0);
    const kcatLines = kc.stdout.trim().split('\n').sort();
    expect(kcatLines).toEqual(wire.map((l) => `${l.partition} ${l.offset} ${l.key ?? ''}|${l.value}`).sort());
    console.log(`[kafka] 3 nodes: kafka-wire produced and consumed ${wire.length} records over 6 partitions (rf 3); kcat and the Java consumer read the same`);
  }, 600_000);

  it('proxy in front of the cluster: kcat, the Java client and kafka-wire through it, every recorded frame decoded', async () => {
    const k = kafka();
    await k.createTopic('proxied', { partitions: 3, replicationFactor: 3 });
    const record = join(dir, 'proxied.jsonl');
    const proxy = await startProxyBin(k.bootstrap.split(',')[0]!, record);
    try {
      const md = JSON.parse(await cli('metadata', ['-b', proxy.bootstrap, '-t', 'proxied', '--json']));
      // Every broker is advertised as one of the proxy's own listeners.
      expect(md.brokers).toHaveLength(3);
      for (const b of md.brokers) expect(b.host).toBe('127.0.0.1');
      const upstreamPorts = new Set(k.nodes.map((n) => n.ports.PLAINTEXT));
      for (const b of md.brokers) expect(upstreamPorts.has(b.port)).toBe(false);

      const produced = await kcat(['-b', proxy.bootstrap, '-P', '-t', 'proxied', '-K', ':', '-z', 'lz4'], Array.from({ length: 100 }, (_, i) => `kc${i}:kcat ${i}`).join('\n') + '\n', 60_000);
      expect(produced.code, produced.stderr).toBe(0);
      const javaInput = Array.from({ length: 100 }, (_, i) => JSON.stringify({ partition: i % 3, key: hex(`j${i}`), value: hex(`java ${i}`), headers: [] })).join('\n');
      const jp = await kafkaJava('dev.kafkawire.JavaClient', ['produce', proxy.bootstrap, 'proxied', 'compression.type=zstd'], { input: javaInput, timeoutMs: 180_000 });
      expect(jp.code, jp.stderr.slice(-2000)).toBe(0);
      await cli('produce', ['-b', proxy.bootstrap, '-t', 'proxied', '-z', 'gzip'], Array.from({ length: 100 }, (_, i) => `w${i}\tkafka-wire ${i}`).join('\n') + '\n');

      const viaJava = await javaConsume(proxy.bootstrap, 'proxied');
      const viaWire = jsonLines(await cli('consume', ['-b', proxy.bootstrap, '-t', 'proxied', '-e']));
      const viaKcat = await kcat(['-b', proxy.bootstrap, '-C', '-t', 'proxied', '-o', 'beginning', '-e', '-q', '-f', '%p %o %s\n'], undefined, 60_000);
      const direct = jsonLines(await cli('consume', ['-b', k.bootstrap, '-t', 'proxied', '-e']));
      expect(direct).toHaveLength(300);
      const values = (lines: { partition: number; offset: number; value: string }[]) => lines.map((l) => `${l.partition} ${l.offset} ${l.value}`).sort();
      expect(values(viaWire)).toEqual(values(direct));
      expect(values(viaJava.map((l) => ({ ...l, value: Buffer.from(l.value, 'hex').toString() })))).toEqual(values(direct));
      expect(viaKcat.stdout.trim().split('\n').sort()).toEqual(values(direct));
      // One listener per broker, printed as it opened.
      expect(proxy.lines.filter((l) => l.includes(' -> '))).toHaveLength(3);
    } finally {
      proxy.child.kill('SIGTERM');
      await new Promise((resolve) => proxy.child.once('exit', resolve));
    }
    const frames = jsonLines(readFileSync(record, 'utf8'));
    // Versions newer than kafka-wire's catalogue (as Kafka 4.4's ApiVersions v5 was, which its
    // Java client sends, before the 4.4 catalogue) are reported, not failed.
    const known = (f: { apiKey: number; apiVersion: number }) => {
      const range = supportedVersions(f.apiKey);
      return range !== undefined && f.apiVersion >= range.min && f.apiVersion <= range.max;
    };
    const failed = frames.filter((f) => f.ok !== true && known(f));
    const lacking = [...new Set(frames.filter((f) => !known(f)).map((f) => `${apiName(f.apiKey)} v${f.apiVersion}`))];
    const apis = new Set(frames.map((f) => f.apiKey));
    console.log(`[kafka] proxy recorded ${frames.length} frames of ${apis.size} APIs from kcat, the Java client and kafka-wire; `
      + `${frames.filter((f) => f.ok === true).length} decoded${lacking.length ? `; versions kafka-wire's catalogue lacks: ${lacking.join(', ')}` : ''}`);
    expect(failed.map((f) => `${f.apiKey} v${f.apiVersion} ${f.direction}: ${JSON.stringify(f.error)}`)).toEqual([]);
    expect(frames.length).toBeGreaterThan(50);
  }, 600_000);
});
