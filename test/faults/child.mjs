// One client of the fault suite, in its own process (so the suite can see that it exits after
// close): `node child.mjs '<json>'` with { component: 'producer' | 'consumer' | 'group' | 'share' |
// 'admin', bootstrap, topic, records, ... }. Prints one JSON line with what happened ({ acked |
// records | answers, errors }),
// then "closed" once close() resolved; after that the process must end by itself.
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

// KAFKA_WIRE_ROOT: another checkout's build (e.g. main's, to see the suite fail there).
const root = process.env.KAFKA_WIRE_ROOT ?? join(fileURLToPath(import.meta.url), '..', '..', '..');
const { createProducer } = await import(pathToFileURL(join(root, 'dist/src/producer/index.js')).href);
const { Consumer } = await import(pathToFileURL(join(root, 'dist/src/consumer/consumer.js')).href);

const args = JSON.parse(process.argv[2]);
const errors = [];
const describe = (e) => ({ name: e?.name ?? typeof e, code: e?.code, message: String(e?.message ?? e).slice(0, 300) });
process.on('uncaughtException', (e) => { process.stdout.write(`${JSON.stringify({ crash: describe(e) })}\n`); process.exit(70); });
process.on('unhandledRejection', (e) => { process.stdout.write(`${JSON.stringify({ crash: describe(e) })}\n`); process.exit(70); });

const common = { bootstrap: args.bootstrap, requestTimeoutMs: args.requestTimeoutMs, retryTimeoutMs: args.retryTimeoutMs };

if (args.component === 'producer') {
  const producer = await createProducer({ ...common, deliveryTimeoutMs: args.deliveryTimeoutMs, retryBackoffMs: 50 }).catch((e) => { errors.push(describe(e)); return null; });
  const acked = [];
  if (producer !== null) {
    const value = (i) => `r${String(i).padStart(6, '0')}`;
    const wave = Math.ceil(args.records / 3);
    for (let from = 0; from < args.records; from += wave) {
      const to = Math.min(args.records, from + wave);
      const sends = [];
      for (let i = from; i < to; i++) {
        sends.push(producer.send(args.topic, { key: `k${i % 17}`, value: value(i) })
          .then(([m]) => { acked.push([i, m.partition, String(m.offset)]); }, (e) => { errors.push(describe(e)); }));
      }
      await Promise.all(sends);
    }
  }
  process.stdout.write(`${JSON.stringify({ acked, errors: dedupe(errors) })}\n`);
  await producer?.close();
} else if (args.component === 'admin') {
  // Each call's answer, or its error; the suite checks the answers against the broker's truth.
  const { createAdmin } = await import(pathToFileURL(join(root, 'dist/src/admin/index.js')).href);
  const admin = await createAdmin({ ...common, retryBackoffMs: 50 }).catch((e) => { errors.push(describe(e)); return null; });
  const answers = {};
  if (admin !== null) {
    const step = async (name, call) => { try { answers[name] = await call(); } catch (e) { errors.push(describe(e)); } };
    if (args.createTopic !== undefined) {
      await step('created', async () => (await admin.createTopics([{ name: args.createTopic, partitions: 2, replicationFactor: 1 }])).map((t) => [t.name, t.partitions]));
    }
    await step('described', async () => (await admin.describeTopics([args.topic])).map((t) => [t.name, t.partitions.length]));
    await step('listed', async () => (await admin.listTopics()).map((t) => t.name).filter((n) => n === args.topic));
    const partitions = Array.from({ length: args.partitions }, (_, p) => p);
    for (const spec of ['earliest', 'latest']) {
      await step(spec, async () => (await admin.listOffsets(partitions.map((partition) => ({ topic: args.topic, partition, spec })))).map((o) => [o.partition, String(o.offset)]));
    }
  }
  process.stdout.write(`${JSON.stringify({ answers, errors: dedupe(errors) })}\n`);
  await admin?.close().catch((e) => errors.push(describe(e)));
} else if (args.component === 'share') {
  // Implicit acknowledgement: a record is accepted when the next records are asked for.
  const { ShareConsumer } = await import(pathToFileURL(join(root, 'dist/src/consumer/share.js')).href);
  const consumer = new ShareConsumer({ ...common, groupId: args.group, topics: [args.topic], maxWaitMs: 100 });
  consumer.on('error', (e) => errors.push(describe(e)));
  const records = [];
  const distinct = new Set();
  let stopped = false;
  const stop = setTimeout(() => { stopped = true; errors.push({ name: 'Deadline', message: 'not all records within the deadline' }); }, args.deadlineMs);
  try {
    while (!stopped && distinct.size < args.records) {
      for (const r of await consumer.poll(500)) {
        records.push([r.partition, String(r.offset), r.deliveryCount]);
        distinct.add(`${r.partition}/${r.offset}`);
      }
    }
    if (!stopped) await consumer.commitSync();
  } catch (e) { errors.push(describe(e)); }
  clearTimeout(stop);
  process.stdout.write(`${JSON.stringify({ records, errors: dedupe(errors) })}\n`);
  await consumer.close().catch((e) => errors.push(describe(e)));
} else {
  const consumer = new Consumer({
    ...common, maxWaitMs: 100, partitionMaxBytes: 4096, resetPolicy: 'earliest',
    ...(args.component === 'group' ? { groupId: args.group, topics: [args.topic], sessionTimeoutMs: 6000, rebalanceTimeoutMs: 8000, heartbeatIntervalMs: 500, groupProtocol: args.groupProtocol ?? 'classic' } : { assign: [{ topic: args.topic }] }),
  });
  consumer.on('error', (e) => errors.push(describe(e)));
  const records = [];
  const stop = setTimeout(() => { errors.push({ name: 'Deadline', message: 'not all records within the deadline' }); void consumer.close(); }, args.deadlineMs);
  try {
    for await (const batch of consumer) {
      for (const r of batch.records()) records.push([batch.partition, String(r.offset)]);
      if (records.length >= args.records) break;
    }
  } catch (e) { errors.push(describe(e)); }
  clearTimeout(stop);
  process.stdout.write(`${JSON.stringify({ records, errors: dedupe(errors) })}\n`);
  await consumer.close().catch((e) => errors.push(describe(e)));
}
process.stdout.write('closed\n');

function dedupe(list) {
  const seen = new Map();
  for (const e of list) { const k = `${e.name} ${e.code}`; if (!seen.has(k)) seen.set(k, { ...e, count: 0 }); seen.get(k).count++; }
  return [...seen.values()];
}
