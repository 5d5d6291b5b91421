// A small @platformatic/kafka consumer for the import benchmark: every partition of a topic from
// the beginning to its high watermark, partition-assigned (no consumer group: the memory broker
// has none) through Consumer#fetch, the call its consume stream makes per broker; records printed
// as JSON lines like `kafka-wire consume`. The package (2.x, or 1.x with PACKAGE=platformatic-kafka-1)
// comes from bench/node_modules. 2.x's clients call Promise.withResolvers (Node >= 22): on Node 20
// the standard function is filled in here first, three lines, so that they run at all.
//   node bench/import/platformatic.mjs HOST:PORT TOPIC [by-id] > out.jsonl   (by-id: a real Kafka, Fetch v13+)
import { join } from 'node:path';
import { BENCH_MODULES } from '../lib/data.mjs';
import { printer } from './print.mjs';

Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new this((a, b) => { resolve = a; reject = b; });
  return { promise, resolve, reject };
};
const { Consumer } = await import(join(BENCH_MODULES, process.env.PACKAGE ?? '@platformatic/kafka', 'dist/index.js'));
const [address, topic, addressing] = process.argv.slice(2);

const consumer = new Consumer({ clientId: 'import-bench', groupId: 'import-bench', bootstrapBrokers: [address] });
const metadata = await consumer.metadata({ topics: [topic] });
const { partitions } = metadata.topics.get(topic);
// Fetch up to v12 (the memory broker's newest) names the topic; the client carries it in topicId.
// A real Kafka 4 is fetched from by topic id (v13+), as metadata gives it.
const topicId = addressing === 'by-id' ? metadata.topics.get(topic).id : topic;
const ends = (await consumer.listOffsets({ topics: [topic] })).get(topic);
const next = partitions.map(() => 0n);
const out = printer(topic);
// Its consumer's default maxBytes (50 MB); per partition the Java client's default (1 MiB), not its
// default (maxBytes again): with 50 MB responses it runs at a third of the speed here.
const MAX_BYTES = 50 * 1_048_576;
const PARTITION_MAX_BYTES = 1_048_576;

const byLeader = new Map();
partitions.forEach((p, i) => byLeader.set(p.leader, [...(byLeader.get(p.leader) ?? []), i]));
await Promise.all([...byLeader].map(async ([node, ps]) => {
  for (;;) {
    const active = ps.filter((p) => next[p] < ends[p]);
    if (active.length === 0) return;
    const res = await consumer.fetch({
      node, maxWaitTime: 100, minBytes: 1, maxBytes: MAX_BYTES,
      topics: [{ topicId, partitions: active.map((partition) => ({ partition, fetchOffset: next[partition], partitionMaxBytes: PARTITION_MAX_BYTES, currentLeaderEpoch: -1, lastFetchedEpoch: -1 })) }],
    });
    for (const t of res.responses) {
      for (const p of t.partitions) {
        for (const b of p.records ?? []) {
          for (const r of b.records) {
            const offset = b.firstOffset + BigInt(r.offsetDelta);
            if (offset < next[p.partitionIndex]) continue;
            out.record(p.partitionIndex, offset, b.firstTimestamp + r.timestampDelta, r.key, r.value, r.headers);
            next[p.partitionIndex] = offset + 1n;
          }
        }
      }
    }
    out.flush();
  }
}));
await consumer.close();
