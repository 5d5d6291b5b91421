// @platformatic/kafka's producer with idempotence on, CHUNK messages per send() call.
//   node bench/produce/platformatic.mjs HOST:PORT TOPIC FILE CODEC
import { join } from 'node:path';
import { BENCH_MODULES } from '../lib/data.mjs';
import { CHUNK, loadRecords, report } from './records.mjs';

Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new this((a, b) => { resolve = a; reject = b; });
  return { promise, resolve, reject };
};
const { Producer } = await import(join(BENCH_MODULES, process.env.PACKAGE ?? '@platformatic/kafka', 'dist/index.js'));
const [bootstrap, topic, file, codec] = process.argv.slice(2);
const records = loadRecords(file).map((r) => ({ topic, key: r.key ?? undefined, value: r.value }));
const producer = new Producer({ clientId: 'produce-bench', bootstrapBrokers: [bootstrap], idempotent: true, acks: -1, autocreateTopics: false,
  ...(codec === 'none' ? {} : { compression: codec }) });
const started = performance.now();
let acked = 0;
for (let i = 0; i < records.length; i += CHUNK) {
  const messages = records.slice(i, i + CHUNK);
  await producer.send({ messages });
  acked += messages.length;
}
report(started, acked);
await producer.close();
