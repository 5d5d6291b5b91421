// The same workloads as app.mjs on the libraries' own APIs: kafka-wire's (dist/src/producer and
// dist/src/consumer) and @platformatic/kafka 2.x's (bench/node_modules).
//   node own.mjs LIBRARY WORKLOAD SIZE BOOTSTRAP TOPIC COUNT   -> one JSON line { ms, count }
// LIBRARY: kafka-wire-own | platformatic. eachMessage is one call per record, eachBatch one per batch
// (kafka-wire's PartitionBatch; @platformatic/kafka's stream has no batches: it runs the per-record form).
// Timed as app.mjs: producing after a warm-up, consuming from the group join ('assigned',
// 'consumer:group:join') to the COUNT-th record.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_MODULES } from '../lib/data.mjs';

Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new this((a, b) => { resolve = a; reject = b; });
  return { promise, resolve, reject };
};
// BENCH_MODULES_DIR: another folder holding @platformatic/kafka (when bench/node_modules is not installed).
const modules = process.env.BENCH_MODULES_DIR ?? BENCH_MODULES;
const [library, workload, size, bootstrap, topic, countText] = process.argv.slice(2);
const count = Number(countText);
const value = Buffer.alloc(Number(size), 'x');
const done = (ms, n, extra = {}) => { process.stdout.write(`${JSON.stringify({ ms, count: n, ...extra })}\n`); };
const dist = (p) => fileURLToPath(new URL(`../../dist/src/${p}`, import.meta.url));
const producing = workload === 'send1' || workload === 'batch1000';

if (library === 'kafka-wire-own' && producing) {
  const { createProducer } = await import(dist('producer/index.js'));
  const producer = await createProducer({ bootstrap, clientId: 'bench', lingerMs: 0 });
  if (workload === 'send1') for (let i = 0; i < 100; i++) await producer.send(topic, [{ key: `w${i}`, value }]);
  else for (let b = 0; b < 5; b++) await producer.send(topic, Array.from({ length: 1000 }, (_, i) => ({ key: `w${i}`, value })));
  const started = performance.now();
  if (workload === 'send1') {
    for (let i = 0; i < count; i++) await producer.send(topic, [{ key: `k${i}`, value }]);
  } else {
    for (let sent = 0; sent < count; sent += 1000) await producer.send(topic, Array.from({ length: 1000 }, (_, i) => ({ key: `k${sent + i}`, value })));
  }
  done(performance.now() - started, count);
  await producer.close();
} else if (library === 'kafka-wire-own') {
  const { Consumer } = await import(dist('consumer/index.js'));
  const consumer = new Consumer({ bootstrap, clientId: 'bench', groupId: `bench-${process.pid}-${Date.now()}`, topics: [topic], resetPolicy: 'earliest', groupProtocol: 'classic', maxWaitMs: 100 });
  let joined = 0;
  consumer.on('assigned', () => { joined ||= performance.now(); });
  let seen = 0;
  let bytes = 0;
  let first = 0;
  let end = 0;
  for await (const batch of consumer) {
    if (seen === 0) first = performance.now();
    if (workload === 'eachMessage') {
      for (const r of batch.records()) { bytes += r.value.length; seen++; }
    } else {
      for (const b of batch.batches) for (let i = 0; i < b.recordCount; i++) { if (b.offsetAt(i) >= batch.firstOffset) { bytes += b.valueAt(i).length; seen++; } }
    }
    if (seen >= count) { end = performance.now(); break; }
  }
  done(end - (joined || first), seen, { fromJoin: joined > 0, firstAfterJoinMs: joined > 0 ? first - joined : null });
  if (bytes < count) throw new Error('values not read');
  await consumer.close();
} else if (library === 'platformatic' && producing) {
  const { Producer } = await import(join(modules, '@platformatic/kafka', 'dist/index.js'));
  const producer = new Producer({ clientId: 'bench', bootstrapBrokers: [bootstrap], acks: -1, autocreateTopics: false });
  if (workload === 'send1') for (let i = 0; i < 100; i++) await producer.send({ messages: [{ topic, key: Buffer.from(`w${i}`), value }] });
  else for (let b = 0; b < 5; b++) await producer.send({ messages: Array.from({ length: 1000 }, (_, i) => ({ topic, key: Buffer.from(`w${i}`), value })) });
  const started = performance.now();
  if (workload === 'send1') {
    for (let i = 0; i < count; i++) await producer.send({ messages: [{ topic, key: Buffer.from(`k${i}`), value }] });
  } else {
    for (let sent = 0; sent < count; sent += 1000) await producer.send({ messages: Array.from({ length: 1000 }, (_, i) => ({ topic, key: Buffer.from(`k${sent + i}`), value })) });
  }
  done(performance.now() - started, count);
  await producer.close();
} else if (library === 'platformatic') {
  const { Consumer } = await import(join(modules, '@platformatic/kafka', 'dist/index.js'));
  const consumer = new Consumer({ clientId: 'bench', groupId: `bench-${process.pid}-${Date.now()}`, bootstrapBrokers: [bootstrap], maxWaitTime: 100 });
  let joined = 0;
  consumer.on('consumer:group:join', () => { joined ||= performance.now(); });
  const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: true });
  let seen = 0;
  let bytes = 0;
  let first = 0;
  let end = 0;
  for await (const message of stream) {
    if (seen === 0) first = performance.now();
    bytes += message.value.length;
    if (++seen >= count) { end = performance.now(); break; }
  }
  done(end - (joined || first), seen, { fromJoin: joined > 0, firstAfterJoinMs: joined > 0 ? first - joined : null });
  if (bytes < count) throw new Error('values not read');
  await stream.close();
  await consumer.close();
} else {
  throw new Error(`unknown library ${library}`);
}
