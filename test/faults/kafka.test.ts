// The fault suite (test/faults/suite.ts) against real Apache Kafka 4.4 (one node for the file,
// a topic and group of their own per run), share groups included. At CI size it runs every fault
// kind once and every component once (kind i against component i, seed 1: eight runs, two at a
// time); `npm run faults -- --kafka --seeds N` (FAULT_KAFKA=1) runs every kind × component with
// N seeds. FAULT_ONLY, FAULT_FIRST_SEED and FAULT_JOBS as in suite.test.ts. And the defects the
// suite found on Kafka only, one test each.
import { describe, it, expect } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peer } from '../helpers/peer.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { FAULT_KINDS } from '../helpers/fault-proxy.js';
import { ApiKey } from '../../src/generated/types.js';
import { KafkaClient, parseHostPort } from '../../src/wire/client.js';
import { alterShareGroupConfig } from '../../src/admin/share-groups.js';
import { ShareConsumer } from '../../src/consumer/share.js';
import { Consumer } from '../../src/consumer/consumer.js';
import { createProducer } from '../../src/producer/index.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { KAFKA_CONFIG, TARGET_COMPONENTS, clean, formatTable, runTasks, type Task } from './suite.js';

const large = process.env.FAULT_KAFKA !== undefined;
const seeds = Number(process.env.FAULT_SEEDS ?? 1);
const firstSeed = Number(process.env.FAULT_FIRST_SEED ?? 1);
const built = peer('the build (dist/src/producer/index.js)', existsSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'producer', 'index.js')), 'npm run build');
const ok = built && await kafkaPeer();

describe.skipIf(!ok)('fault suite against Kafka 4.4', () => {
  const kafka = useKafka({ config: KAFKA_CONFIG });

  it(large ? `every fault kind × component, ${seeds} seed(s) each` : 'every fault kind once and every component once', async () => {
    const components = TARGET_COMPONENTS.kafka;
    const only = process.env.FAULT_ONLY?.split(',').map((c) => c.trim());
    const tasks: Task[] = [];
    FAULT_KINDS.forEach((kind, i) => {
      for (const component of large ? components : [components[i % components.length]!]) {
        if (only !== undefined && !only.includes(`${kind}:${component}`)) continue;
        for (let seed = firstSeed; seed < firstSeed + (large ? seeds : 1); seed++) tasks.push({ component, kind, seed });
      }
    });
    const k = kafka();
    const cells = await runTasks(tasks, Number(process.env.FAULT_JOBS ?? 2), { bootstrap: k.bootstrap, createTopic: (name, o) => k.createTopic(name, o) });
    const table = formatTable(cells);
    if (process.env.FAULT_TABLE_DIR) writeFileSync(join(process.env.FAULT_TABLE_DIR, 'kafka.json'), JSON.stringify({ table, cells }, null, 1));
    const dirty = cells.filter((c) => !clean(c));
    for (const c of dirty) console.log(`kafka: ${c.kind} × ${c.component}:\n  ${c.notes.slice(0, 8).join('\n  ')}`);
    console.log(table);
    if (!large) expect(dirty.map((c) => `${c.kind} × ${c.component}`)).toEqual([]);
    else expect(cells.length).toBeGreaterThan(0);
  }, 120 * 60_000);

  it('a share member whose heartbeat answer with its assignment was lost asks again in full and gets it (the suite\'s share × every kind)', async () => {
    const k = kafka();
    const topic = `faults-share-lost-assignment-${process.pid}`;
    const group = `${topic}-g`;
    await k.createTopic(topic, { partitions: 2 });
    const client = new KafkaClient({ bootstrap: k.bootstrap });
    try { await alterShareGroupConfig(client, group, { 'share.auto.offset.reset': 'earliest' }); } finally { await client.close(); }
    const producer = await createProducer({ bootstrap: k.bootstrap });
    await Promise.all(Array.from({ length: 100 }, (_, i) => producer.send(topic, { value: `v${i}`, partition: i % 2 })));
    await producer.close();
    // The first answer that brings partitions is cut (Kafka sends an assignment once).
    const proxy = await startFaultProxy({
      upstream: parseHostPort(k.bootstrap),
      script: [{ apiKey: ApiKey.ShareGroupHeartbeat, nth: 1, kind: 'midframe', when: (body) => (body.assignment?.topicPartitions.length ?? 0) > 0 }],
    });
    const consumer = new ShareConsumer({ bootstrap: proxy.bootstrap, groupId: group, topics: [topic], requestTimeoutMs: 1000, maxWaitMs: 100 });
    try {
      const seen = new Set<string>();
      const end = Date.now() + 20_000;
      while (seen.size < 100 && Date.now() < end) for (const r of await consumer.poll(500)) seen.add(`${r.partition}/${r.offset}`);
      expect(proxy.faults.map((f) => f.kind)).toEqual(['midframe']);
      expect(seen.size).toBe(100);
    } finally {
      await consumer.close();
      await proxy.close();
    }
  }, 60_000);

  // A flip inside the first ConsumerGroupHeartbeat answer that brings partitions (the suite's
  // flip × group, seed 6): Kafka sends an assignment once, so the member must ask again in full.
  for (const [what, edit] of [
    ['names a topic id no topic has', (a: { topicId: string; partitions: number[] }) => { a.topicId = 'AAAAAAAAAAAAAAAAAAAAAA'; }],
    ['names partition 65536 of the topic', (a: { topicId: string; partitions: number[] }) => { a.partitions[0] = 65536; }],
  ] as const) {
    it(`a KIP-848 member whose first assignment ${what} asks again in full and reads everything`, async () => {
      const k = kafka();
      const topic = `faults-848-${what.split(' ').pop()}-${process.pid}`;
      await k.createTopic(topic, { partitions: 3 });
      const producer = await createProducer({ bootstrap: k.bootstrap });
      await Promise.all(Array.from({ length: 60 }, (_, i) => producer.send(topic, { value: `v${i}`, partition: i % 3 })));
      await producer.close();
      const proxy = await startFaultProxy({
        upstream: parseHostPort(k.bootstrap),
        script: [{
          apiKey: ApiKey.ConsumerGroupHeartbeat, nth: 1, kind: 'edit',
          when: (body) => (body.assignment?.topicPartitions.length ?? 0) > 0,
          edit: (body) => { edit(body.assignment.topicPartitions[0]); },
        }],
      });
      const consumer = new Consumer({ bootstrap: proxy.bootstrap, groupId: `${topic}-g`, topics: [topic], groupProtocol: 'consumer', resetPolicy: 'earliest', requestTimeoutMs: 2000, maxWaitMs: 100 });
      try {
        const seen = new Set<string>();
        const reading = (async () => { for await (const batch of consumer) { for (const r of batch.records()) seen.add(`${batch.partition}/${r.offset}`); if (seen.size >= 60) return; } })();
        await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        expect(proxy.faults.map((f) => f.kind)).toEqual(['edit']);
        expect(seen.size).toBe(60);
      } finally {
        await consumer.close();
        await proxy.close();
      }
    }, 60_000);
  }
});
