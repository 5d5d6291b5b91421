// Data both ways between kafka-wire and Kafka's own Java client (kafka-clients 4.4.0, through
// kafka/src/main/java/dev/kafkawire/JavaClient.java), on a real broker:
//   - batches kafka-wire encodes (every codec; headers; null keys and values; 1 MiB values;
//     idempotent and transactional, committed and aborted) read back byte for byte by the Java
//     consumer, at read_uncommitted and read_committed;
//   - records the Java producer writes (every codec, its snappy xerial-framed; transactions
//     committed and aborted) read by `kafka-wire consume` exactly as the Java consumer reads them,
//     at both isolation levels.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COMPRESSION_NAMES, initZstd, type CompressionName, type RecordInput } from '../../src/records/index.js';
import { KafkaClient } from '../../src/wire/index.js';
import { kafkaJava, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { addPartitions, endTransaction, initProducer, produceBatch } from './transactions.js';

const ok = await kafkaPeer();
await initZstd();

const JAVA_CLIENT = 'dev.kafkawire.JavaClient';
const hex = (b: Uint8Array | string | null | undefined) => (b == null ? null : Buffer.from(b).toString('hex'));

interface Line { partition: number; offset: number; timestamp?: number; key: string | null; value: string | null; headers: { key: string; value: string | null }[] }

async function java(command: 'produce' | 'consume', bootstrap: string, topic: string, properties: string[], input = ''): Promise<any[]> {
  const r = await kafkaJava(JAVA_CLIENT, [command, bootstrap, topic, ...properties], { input, timeoutMs: 180_000 });
  if (r.code !== 0) throw new Error(`JavaClient ${command} ${properties.join(' ')} exited ${r.code ?? r.signal}:\n${r.stderr.slice(-3000)}`);
  return jsonLines(r.stdout);
}

/** The Java consumer's view: every record of the topic, at the isolation level given. */
function javaConsume(bootstrap: string, topic: string, isolation: 'read_uncommitted' | 'read_committed'): Promise<Line[]> {
  return java('consume', bootstrap, topic, [`isolation.level=${isolation}`]);
}

/** `kafka-wire consume`'s view, in the Java consumer's shape (hex bytes, no topic). */
async function wireConsume(bootstrap: string, topic: string, isolation: 'read_uncommitted' | 'read_committed'): Promise<Line[]> {
  const r = await runCli('consume', ['-b', bootstrap, '-t', topic, '-e', '--encoding', 'hex', '--isolation', isolation]);
  if (r.code !== 0) throw new Error(`kafka-wire consume exited ${r.code}: ${r.stderr}`);
  return jsonLines(r.stdout).map(({ topic: _topic, headers, ...rest }) => ({
    ...rest, headers: headers.map((h: { key: string; value: string | null }) => ({ key: h.key, value: h.value })),
  }));
}

const byPosition = (a: Line, b: Line) => a.partition - b.partition || a.offset - b.offset;

describe.skipIf(!ok)('kafka-wire and the Java client, both ways, through a real broker', () => {
  const kafka = useKafka({ config: { 'message.max.bytes': String(8 << 20) } });

  it('the Java consumer reads what kafka-wire produced, byte for byte: every codec, headers, nulls, 1 MiB values, idempotent and transactional', async () => {
    const k = kafka();
    const topic = 'from-kafka-wire';
    await k.createTopic(topic, { partitions: 2, config: { 'max.message.bytes': 8 << 20 } });
    const client = new KafkaClient({ bootstrap: k.bootstrap, clientId: 'kafka-wire-clients' });
    const expected: (Line & { aborted?: boolean })[] = [];
    try {
      const info = await client.topic(topic);
      const send = async (partition: number, records: RecordInput[], codec: CompressionName, session?: Awaited<ReturnType<typeof initProducer>>, aborted = false) => {
        const base = Number(await produceBatch(client, info, partition, records, codec, session));
        records.forEach((r, i) => expected.push({
          partition, offset: base + i, timestamp: Number(r.timestamp), key: hex(r.key), value: hex(r.value),
          headers: (r.headers ?? []).map((h) => ({ key: String(h.key), value: hex(h.value) })), aborted,
        }));
      };
      const now = Date.now();
      const records = (tag: string): RecordInput[] => [
        { key: `k-${tag}`, value: `v-${tag}`, timestamp: now, headers: [{ key: 'h1', value: Uint8Array.from([0, 1, 255]) }, { key: 'h-null', value: null }, { key: 'h-empty', value: new Uint8Array(0) }] },
        { key: null, value: `no key ${tag}`, timestamp: now + 1 },
        { key: `tombstone-${tag}`, value: null, timestamp: now + 2 },
        { key: null, value: null, timestamp: now + 3 },
        { key: randomBytes(16), value: randomBytes(1 << 20), timestamp: now + 4 },
        { key: new Uint8Array(0), value: new Uint8Array(0), timestamp: now + 5, headers: [{ key: 'ünïcode', value: 'wert' }] },
      ];
      for (const codec of COMPRESSION_NAMES) await send(0, records(codec), codec);
      const idempotent = await initProducer(client, null);
      await send(1, records('idempotent-1'), 'lz4', idempotent);
      await send(1, records('idempotent-2'), 'zstd', idempotent);
      const transactional = await initProducer(client, 'kafka-wire-txn');
      for (const [codec, commit] of [['gzip', true], ['snappy', false], ['zstd', true], ['none', false]] as const) {
        await addPartitions(transactional, topic, [0, 1]);
        await send(0, records(`txn-${codec}-${commit}`), codec, transactional, !commit);
        await send(1, records(`txn-${codec}-${commit}-p1`).slice(0, 2), codec, transactional, !commit);
        await endTransaction(transactional, commit);
      }
    } finally {
      await client.close();
    }
    const strip = ({ aborted: _aborted, ...line }: Line & { aborted?: boolean }) => line;
    const all = expected.map(strip).sort(byPosition);
    const committed = expected.filter((l) => !l.aborted).map(strip).sort(byPosition);
    const uncommitted = (await javaConsume(k.bootstrap, topic, 'read_uncommitted')).sort(byPosition);
    expect(uncommitted).toEqual(all);
    const readCommitted = (await javaConsume(k.bootstrap, topic, 'read_committed')).sort(byPosition);
    expect(readCommitted).toEqual(committed);
    // And kafka-wire's own consumer agrees with Java's, at both levels.
    expect((await wireConsume(k.bootstrap, topic, 'read_uncommitted')).sort(byPosition)).toEqual(all);
    expect((await wireConsume(k.bootstrap, topic, 'read_committed')).sort(byPosition)).toEqual(committed);
    console.log(`[kafka] Java read ${uncommitted.length} records kafka-wire produced (${all.length - committed.length} in aborted transactions, skipped at read_committed)`);
  }, 600_000);

  it('kafka-wire consume reads what the Java producer wrote, as the Java consumer does: every codec, transactions committed and aborted', async () => {
    const k = kafka();
    const topic = 'from-java';
    await k.createTopic(topic, { partitions: 3, config: { 'max.message.bytes': 8 << 20 } });
    const line = (i: number, tag: string, extra: object = {}) => JSON.stringify({
      partition: i % 3, key: i % 5 === 0 ? null : hex(`key-${tag}-${i}`), value: i % 7 === 0 ? null : hex(`value ${tag} ${i} `.repeat(1 + (i % 40))),
      headers: i % 2 ? [{ key: `h${i}`, value: hex(`hv${i}`) }, { key: 'n', value: null }] : [], ...extra,
    });
    for (const codec of COMPRESSION_NAMES) {
      const input = Array.from({ length: 300 }, (_, i) => line(i, codec)).join('\n');
      // linger so that records share batches: what is compressed is many records at once.
      await java('produce', k.bootstrap, topic, [`compression.type=${codec}`, 'linger.ms=20', 'batch.size=65536'], input);
    }
    const transactions = [
      { begin: true }, ...Array.from({ length: 20 }, (_, i) => ({ raw: line(i, 'committed-1') })), { commit: true },
      { begin: true }, ...Array.from({ length: 20 }, (_, i) => ({ raw: line(i, 'aborted') })), { abort: true },
      { begin: true }, ...Array.from({ length: 20 }, (_, i) => ({ raw: line(i, 'committed-2') })), { commit: true },
    ].map((l) => ('raw' in l ? l.raw : JSON.stringify(l))).join('\n');
    await java('produce', k.bootstrap, topic, ['transactional.id=java-txn', 'compression.type=zstd', 'linger.ms=5'], transactions);

    for (const isolation of ['read_uncommitted', 'read_committed'] as const) {
      const javaView = (await javaConsume(k.bootstrap, topic, isolation)).sort(byPosition);
      const wireView = (await wireConsume(k.bootstrap, topic, isolation)).sort(byPosition);
      expect(wireView).toEqual(javaView);
      const abortedValues = wireView.filter((l) => l.value !== null && Buffer.from(l.value, 'hex').toString().startsWith('value aborted'));
      const nonNullValues = Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 7 !== 0).length;
      expect(abortedValues.length).toBe(isolation === 'read_committed' ? 0 : nonNullValues);
      expect(wireView.length).toBe(5 * 300 + (isolation === 'read_committed' ? 40 : 60));
      console.log(`[kafka] ${isolation}: kafka-wire consume and the Java consumer read the same ${wireView.length} records`);
    }
  }, 600_000);
});
