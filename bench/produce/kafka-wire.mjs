// kafka-wire's producer, idempotent (its default): `stream` mode uses write() (the bulk form, no
// promise per record), `send` mode awaits send() of CHUNK records at a time as the other clients do.
//   node bench/produce/kafka-wire.mjs HOST:PORT TOPIC FILE CODEC stream|send
import { createProducer } from '../../dist/src/producer/index.js';
import { CHUNK, loadRecords, report } from './records.mjs';

const [bootstrap, topic, file, codec, mode] = process.argv.slice(2);
const records = loadRecords(file);
const producer = await createProducer({ bootstrap, compression: codec, clientId: 'produce-bench' });
await producer.topic(topic);
const started = performance.now();
if (mode === 'send') {
  for (let i = 0; i < records.length; i += CHUNK) await producer.send(topic, records.slice(i, i + CHUNK));
} else {
  for (const r of records) if (!producer.write(topic, r.key, r.value)) await producer.ready();
  await producer.flush();
}
report(started, producer.stats.recordsAcked);
await producer.close();
