// The floor of the consume rows on this machine: the same records fetched as raw Fetch answers
// with kafkajs's default sizes (maxBytes 10 MiB, maxBytesPerPartition 1 MiB, every partition in
// each Fetch), one Fetch in flight on one kafka-wire connection, and nothing decoded: each answer's
// records are only walked batch header to batch header for the next offset. What is left is the
// broker's work and the bytes' way through the kernel and the socket, which any client pays.
// One pass warms the connection and the JIT; the passes after it are timed.
//   node bench/kafkajs-api/fetch-floor.mjs BOOTSTRAP TOPIC COUNT [PASSES=3] [--json]  -> the passes' times; --json: the median pass as { ms, count }
import { fileURLToPath } from 'node:url';

const dist = (p) => fileURLToPath(new URL(`../../dist/src/${p}`, import.meta.url));
const { KafkaClient } = await import(dist('wire/client.js'));
const { fetchOnce } = await import(dist('consumer/fetcher.js'));
const json = process.argv.includes('--json');
const [bootstrap, topic, countText, passesText = '3'] = process.argv.slice(2).filter((a) => a !== '--json');
const count = Number(countText);
const client = new KafkaClient({ bootstrap, clientId: 'fetch-floor' });
const info = await client.topic(topic);
const conn = await client.broker(info.partitions[0].leader);
if (!info.partitions.every((p) => p.leader === info.partitions[0].leader)) throw new Error('fetch-floor: one leader for every partition expected (a one-node cluster)');
const SETTINGS = { maxWaitMs: 100, maxBytes: 10 << 20, partitionMaxBytes: 1 << 20, isolationLevel: 0 };

/** The offset after the last whole batch of `records` (v2 batches: base offset + last offset delta + 1; legacy: the wrapper's offset + 1). */
function nextOffset(records, from) {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  let next = from;
  for (let at = 0; at + 17 <= records.length;) {
    const end = at + 12 + view.getInt32(at + 8);
    if (end > records.length) break;
    next = view.getBigInt64(at) + 1n + (records[at + 16] === 2 ? BigInt(view.getInt32(at + 23)) : 0n);
    at = end;
  }
  return next;
}

/** One pass: every partition from offset 0 until `count` records (by offsets) have come. */
async function pass() {
  const offsets = new Map(info.partitions.map((p) => [p.partition, 0n]));
  const started = performance.now();
  let fetched = 0n;
  while (fetched < BigInt(count)) {
    const answer = await fetchOnce(client, conn, [...offsets].map(([p, o]) => [topic, p, o]), SETTINGS);
    let moved = false;
    for (const a of answer) {
      if (a.errorCode !== 0) throw new Error(`Fetch ${topic}/${a.partition}: error ${a.errorCode}`);
      if (!a.records || a.records.length === 0) continue;
      const from = offsets.get(a.partition);
      const next = nextOffset(a.records, from);
      fetched += next - from;
      moved ||= next > from;
      offsets.set(a.partition, next);
    }
    if (!moved) throw new Error(`fetch-floor: ${topic} holds fewer than ${count} records`);
  }
  return { ms: performance.now() - started, n: Number(fetched) };
}

await pass();
const times = [];
for (let i = 0; i < Number(passesText); i++) times.push(await pass());
await client.close();
const median = [...times].sort((a, b) => a.ms - b.ms)[Math.floor(times.length / 2)];
if (json) process.stdout.write(`${JSON.stringify({ ms: median.ms, count: median.n })}\n`);
else console.log(`${topic}: ${median.n} records in ${times.map((t) => t.ms.toFixed(1)).join(', ')} ms (median ${median.ms.toFixed(1)})`);
