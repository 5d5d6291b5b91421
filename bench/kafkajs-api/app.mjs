// One app's code for the kafkajs API benchmark, run unchanged with `kafkajs` and with
// `kafka-wire/kafkajs` (the module is the only difference): the workloads of run.mjs.
//   node app.mjs MODULE WORKLOAD SIZE BOOTSTRAP TOPIC COUNT   -> one JSON line { ms, count }
// MODULE: kafkajs | kafka-wire (dist/src/kafkajs). WORKLOAD: send1 | batch1000 | eachMessage | eachBatch.
// Producing is timed after a warm-up (100 sends, or 5 batches; connections, metadata and JIT
// warm). Consuming is timed from the group join (the assignment known: kafkajs's GROUP_JOIN
// event) to the COUNT-th message, so the offset lookup and every fetch are timed, the first one
// too (a client whose first fetch is larger would otherwise have more of its work untimed), and
// the join itself (the broker's initial rebalance delay) is not.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const [moduleName, workload, size, bootstrap, topic, countText] = process.argv.slice(2);
const count = Number(countText);
const require = createRequire(import.meta.url);
const { Kafka, logLevel } = moduleName === 'kafkajs'
  ? require('kafkajs')
  : await import(fileURLToPath(new URL('../../dist/src/kafkajs/index.js', import.meta.url)));

const kafka = new Kafka({ clientId: 'bench', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const value = Buffer.alloc(Number(size), 'x');
const done = (ms, n, extra = {}) => { process.stdout.write(`${JSON.stringify({ ms, count: n, ...extra })}\n`); };

if (workload === 'send1' || workload === 'batch1000') {
  const producer = kafka.producer();
  await producer.connect();
  // Warm: metadata, connections, the JIT (records the timed part does not count).
  if (workload === 'send1') for (let i = 0; i < 100; i++) await producer.send({ topic, messages: [{ key: `w${i}`, value }] });
  else for (let b = 0; b < 5; b++) await producer.sendBatch({ topicMessages: [{ topic, messages: Array.from({ length: 1000 }, (_, i) => ({ key: `w${i}`, value })) }] });
  const started = performance.now();
  if (workload === 'send1') {
    for (let i = 0; i < count; i++) await producer.send({ topic, messages: [{ key: `k${i}`, value }] });
  } else {
    for (let sent = 0; sent < count; sent += 1000) {
      const messages = Array.from({ length: 1000 }, (_, i) => ({ key: `k${sent + i}`, value }));
      await producer.sendBatch({ topicMessages: [{ topic, messages }] });
    }
  }
  done(performance.now() - started, count);
  await producer.disconnect();
} else {
  const consumer = kafka.consumer({ groupId: `bench-${process.pid}-${Date.now()}`, maxWaitTimeInMs: 100 });
  let joined = 0;
  consumer.on(consumer.events.GROUP_JOIN, () => { joined ||= performance.now(); });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let seen = 0;
  let bytes = 0;
  let first = 0;
  let finish;
  const finished = new Promise((r) => { finish = r; });
  const one = (message) => {
    if (seen === 0) first = performance.now();
    bytes += message.value.length;
    if (++seen === count) finish(performance.now());
  };
  await consumer.run(workload === 'eachMessage'
    ? { eachMessage: async ({ message }) => one(message) }
    : { eachBatch: async ({ batch }) => { for (const message of batch.messages) one(message); } });
  const end = await finished;
  done(end - (joined || first), seen, { fromJoin: joined > 0, firstAfterJoinMs: joined > 0 ? first - joined : null });
  if (bytes < count) throw new Error('values not read');
  await consumer.disconnect();
}
