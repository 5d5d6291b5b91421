// One client of the single-send benchmark, in its own process: `awaited` sends N messages of 100
// bytes one at a time (each awaited, as a web handler does), `concurrent` calls send() N times at
// once with one message each and waits for all. Prints {ms, records} (timed from the first send).
//   node bench/single/client.mjs kafka-wire|kafkajs|platformatic awaited|concurrent N HOST:PORT TOPIC
// kafka-wire's build is dist/ of this checkout, or of KAFKA_WIRE_ROOT (to compare two builds).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, BENCH_MODULES } from '../lib/data.mjs';

const [client, mode, n, bootstrap, topic] = process.argv.slice(2);
const N = Number(n);
const value = Buffer.alloc(100, 'x');
let send, close;
if (client === 'kafka-wire') {
  const root = process.env.KAFKA_WIRE_ROOT ?? ROOT;
  const { createProducer } = await import(pathToFileURL(join(root, 'dist/src/producer/index.js')).href);
  const producer = await createProducer({ bootstrap, clientId: 'single-bench' });
  await producer.topic(topic);
  send = () => producer.send(topic, { value });
  close = () => producer.close();
} else if (client === 'kafkajs') {
  const { Kafka, logLevel } = createRequire(join(ROOT, 'package.json'))('kafkajs');
  const kafka = new Kafka({ clientId: 'single-bench', brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  send = () => producer.send({ topic, messages: [{ value }], acks: -1 });
  close = () => producer.disconnect();
} else if (client === 'platformatic') {
  Promise.withResolvers ??= function withResolvers() {
    let resolve, reject;
    const promise = new this((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  };
  const { Producer } = await import(join(BENCH_MODULES, '@platformatic/kafka', 'dist/index.js'));
  const producer = new Producer({ clientId: 'single-bench', bootstrapBrokers: [bootstrap], idempotent: true, acks: -1, autocreateTopics: true });
  send = () => producer.send({ messages: [{ topic, value }] });
  close = () => producer.close();
} else throw new Error(`unknown client ${client}`);

await send(); // connected, metadata known: not timed
const started = performance.now();
if (mode === 'awaited') for (let i = 0; i < N; i++) await send();
else await Promise.all(Array.from({ length: N }, () => send()));
process.stdout.write(JSON.stringify({ ms: performance.now() - started, records: N }) + '\n');
await close();
