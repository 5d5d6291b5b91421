// kafkajs's producer with idempotence on (which it allows with one request in flight), sending
// CHUNK messages per send() call, as its documentation shows for batches.
//   node bench/produce/kafkajs.mjs HOST:PORT TOPIC FILE CODEC
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, BENCH_MODULES } from '../lib/data.mjs';
import { CHUNK, loadRecords, report } from './records.mjs';

const { Kafka, logLevel, CompressionTypes, CompressionCodecs } = createRequire(join(ROOT, 'package.json'))('kafkajs');
// kafkajs has no LZ4 built in: its documented plug-in point, with @platformatic/wasm-utils's LZ4 (as the import bench).
const lz4 = createRequire(join(BENCH_MODULES, 'platformatic-kafka-1', 'package.json'))('@platformatic/wasm-utils');
CompressionCodecs[CompressionTypes.LZ4] = () => ({
  compress: async (encoder) => Buffer.from(lz4.lz4Compress(encoder.buffer)),
  decompress: async (buffer) => Buffer.from(lz4.lz4Decompress(buffer)),
});
const [bootstrap, topic, file, codec] = process.argv.slice(2);
const records = loadRecords(file);
const kafka = new Kafka({ clientId: 'produce-bench', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
await producer.connect();
const compression = codec === 'lz4' ? CompressionTypes.LZ4 : CompressionTypes.None;
const started = performance.now();
let acked = 0;
for (let i = 0; i < records.length; i += CHUNK) {
  const messages = records.slice(i, i + CHUNK);
  await producer.send({ topic, messages, acks: -1, compression });
  acked += messages.length;
}
report(started, acked);
await producer.disconnect();
