// kafka-wire perf against real Apache Kafka (kafka/cluster.mjs, under the peer rule): both
// commands run; their counts match what Kafka's own tools read back (GetOffsetShell's end
// offsets, ConsumerPerformance's record count); Kafka's ProducerPerformance prints lines of the
// same form as ours; and p50 sits within a few ms of a proxy's hold on every Produce answer.
import { describe, expect, it } from 'vitest';
import { kafkaJava, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { startDelayProxy } from '../helpers/delay-proxy.js';
import { perf, CONSUME_FINAL, PRODUCE_FINAL, PRODUCE_PROGRESS } from './run-perf.js';

const ok = await kafkaPeer();

/** The sum of a topic's end offsets, as Kafka's GetOffsetShell reads them ("topic:partition:offset" lines). */
async function endOffsets(bootstrap: string, topic: string): Promise<number> {
  const r = await kafkaJava('org.apache.kafka.tools.GetOffsetShell', ['--bootstrap-server', bootstrap, '--topic', topic], { timeoutMs: 120_000 });
  const rows = r.stdout.split('\n').filter((l) => l.startsWith(`${topic}:`));
  expect(rows.length, r.stdout + r.stderr).toBeGreaterThan(0);
  return rows.reduce((n, l) => n + Number(l.split(':')[2]), 0);
}

describe.skipIf(!ok)('kafka-wire perf against Kafka', () => {
  const kafka = useKafka({ nodes: 1 });

  it('produce: counts match GetOffsetShell, with acks all and with acks 1 and lz4', async () => {
    const k = kafka();
    await k.createTopic('perf-a', { partitions: 3 });
    await k.createTopic('perf-b', { partitions: 3 });
    const a = await perf(['produce', '-b', k.bootstrap, '-t', 'perf-a', '--records', '50000', '--record-size', '100']);
    expect(a.code, a.stderr).toBe(0);
    expect(Number(PRODUCE_FINAL.exec(a.stdout.trim().split('\n').at(-2)!)![1])).toBe(50000);
    const b = await perf(['produce', '-b', k.bootstrap, '-t', 'perf-b', '--records', '20000', '--record-size', '100', '--acks', '1', '-z', 'lz4', '--json']);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'summary', records: 20000 });
    expect(await endOffsets(k.bootstrap, 'perf-a')).toBe(50000);
    expect(await endOffsets(k.bootstrap, 'perf-b')).toBe(20000);
  }, 240_000);

  it('consume (no group and -G) reads as many records as Kafka\'s ConsumerPerformance', async () => {
    const k = kafka();
    await k.createTopic('perf-c', { partitions: 3 });
    expect((await perf(['produce', '-b', k.bootstrap, '-t', 'perf-c', '--records', '30000', '--record-size', '100'])).code).toBe(0);
    const plain = await perf(['consume', '-b', k.bootstrap, '-t', 'perf-c']);
    expect(plain.code, plain.stderr).toBe(0);
    const ours = CONSUME_FINAL.exec(plain.stdout.trim().split('\n').at(-1)!)!;
    expect(Number(ours[2])).toBe(30000);
    const grouped = await perf(['consume', '-b', k.bootstrap, '-t', 'perf-c', '-G', 'kw-perf-group', '--records', '30000']);
    expect(grouped.code, grouped.stdout + grouped.stderr).toBe(0);
    expect(Number(CONSUME_FINAL.exec(grouped.stdout.trim().split('\n').at(-1)!)![2])).toBe(30000);
    const java = await kafkaJava('org.apache.kafka.tools.ConsumerPerformance', ['--bootstrap-server', k.bootstrap, '--topic', 'perf-c',
      '--num-records', '30000', '--timeout', '60000', '--group', 'kw-java-perf'], { timeoutMs: 180_000 });
    const javaLine = java.stdout.split('\n').map((l) => CONSUME_FINAL.exec(l.trim())).find((m) => m !== null);
    expect(javaLine, java.stdout + java.stderr).toBeTruthy();
    expect(Number(javaLine![2])).toBe(Number(ours[2]));
    expect(javaLine![1]).toBe(ours[1]); // the same MB: same key + value bytes
  }, 300_000);

  it('prints the same line forms as Kafka\'s ProducerPerformance', async () => {
    const k = kafka();
    await k.createTopic('perf-d', { partitions: 1 });
    const java = await kafkaJava('org.apache.kafka.tools.ProducerPerformance', ['--bootstrap-server', k.bootstrap, '--topic', 'perf-d',
      '--num-records', '20000', '--record-size', '100', '--throughput', '3000', '--reporting-interval', '2000'], { timeoutMs: 180_000 });
    const lines = java.stdout.split('\n').map((l) => l.trim()).filter((l) => / records sent, /.test(l));
    expect(lines.length, java.stdout + java.stderr).toBeGreaterThanOrEqual(2);
    for (const l of lines.slice(0, -1)) expect(l).toMatch(PRODUCE_PROGRESS);
    expect(lines.at(-1)).toMatch(PRODUCE_FINAL);
    const ours = await perf(['produce', '-b', k.bootstrap, '-t', 'perf-d', '--records', '20000', '--record-size', '100', '--throughput', '3000', '--reporting-interval', '2000']);
    const ourLines = ours.stdout.trim().split('\n');
    for (const l of ourLines.slice(0, -2)) expect(l).toMatch(PRODUCE_PROGRESS);
    expect(ourLines.at(-2)).toMatch(PRODUCE_FINAL);
    expect(await endOffsets(k.bootstrap, 'perf-d')).toBe(40000);
  }, 300_000);

  it('p50 rises by a proxy\'s 40 ms hold on every Produce answer, within a few ms', async () => {
    const k = kafka();
    await k.createTopic('perf-e', { partitions: 1 });
    const [host, port] = k.bootstrap.split(',')[0]!.split(':');
    const proxy = await startDelayProxy({ host: host!, port: Number(port) }, 40);
    // The same load straight to the broker and through the proxy: the broker's own time (several
    // ms on a loaded machine) is in both, the hold only in the second.
    const run = async (bootstrap: string) => {
      const r = await perf(['produce', '-b', bootstrap, '-t', 'perf-e', '--records', '1000', '--record-size', '100',
        '--throughput', '500', '-X', 'linger.ms=20', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect(summary.records).toBe(1000);
      return summary.p50Ms as number;
    };
    try {
      const direct = await run(k.bootstrap);
      const held = await run(proxy.bootstrap);
      console.log(`[perf] p50 direct ${direct} ms, through a 40 ms hold ${held} ms`);
      expect(held).toBeGreaterThanOrEqual(40);
      expect(held - direct).toBeGreaterThanOrEqual(40 - 5);
      expect(held - direct).toBeLessThanOrEqual(40 + 5);
    } finally {
      await proxy.close();
    }
    expect(await endOffsets(k.bootstrap, 'perf-e')).toBe(2000);
  }, 240_000);
});
