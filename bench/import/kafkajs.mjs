// A small kafkajs consumer for the import benchmark: every partition of a topic from the beginning
// to its high watermark, partition-assigned (no consumer group: the memory broker has none),
// through kafkajs's cluster and Broker#fetch, the calls its consumer's fetch loop makes; records
// printed as JSON lines like `kafka-wire consume`. kafkajs has no LZ4 codec built in; it is plugged
// in as its documentation says (CompressionCodecs), with @platformatic/wasm-utils's LZ4 frame
// decoder (from bench/node_modules) standing in for the kafkajs-lz4 package (a native addon); ZSTD
// (a real Kafka's topic, filled by the Java producer) likewise, decompressed by fzstd (a bench
// dependency: kafka-wire itself no longer has it).
//   node bench/import/kafkajs.mjs HOST:PORT TOPIC > out.jsonl
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, BENCH_MODULES } from '../lib/data.mjs';
import { printer } from './print.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const { Kafka, logLevel, CompressionTypes, CompressionCodecs } = require('kafkajs');
const lz4 = createRequire(join(BENCH_MODULES, 'platformatic-kafka-1', 'package.json'))('@platformatic/wasm-utils');
CompressionCodecs[CompressionTypes.LZ4] = () => ({
  compress: async (encoder) => Buffer.from(lz4.lz4Compress(encoder.buffer)),
  decompress: async (buffer) => Buffer.from(lz4.lz4Decompress(buffer)),
});
const { decompress: zstdDecompress } = createRequire(join(BENCH_MODULES, '..', 'package.json'))('fzstd');
CompressionCodecs[CompressionTypes.ZSTD] = () => ({
  compress: async () => { throw new Error('zstd compression is not needed here'); },
  decompress: async (buffer) => Buffer.from(zstdDecompress(buffer)),
});
const [address, topic] = process.argv.slice(2);

const kafka = new Kafka({ clientId: 'import-bench', brokers: [address], logLevel: logLevel.NOTHING });
const createCluster = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
const cluster = kafka[createCluster]({ metadataMaxAge: 300000, allowAutoTopicCreation: false, maxInFlightRequests: null, isolationLevel: 0 });
await cluster.connect();
await cluster.addTargetTopic(topic);
const partitions = cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId);
const ends = new Map((await cluster.fetchTopicsOffset([{ topic, partitions: partitions.map((partition) => ({ partition })) }]))[0].partitions.map((p) => [p.partition, BigInt(p.offset)]));
const next = new Map(partitions.map((p) => [p, 0n]));
const out = printer(topic);

await Promise.all(Object.entries(cluster.findLeaderForPartitions(topic, partitions)).map(async ([nodeId, ps]) => {
  const broker = await cluster.findBroker({ nodeId });
  for (;;) {
    const active = ps.filter((p) => next.get(p) < ends.get(p));
    if (active.length === 0) return;
    const res = await broker.fetch({
      replicaId: -1, isolationLevel: 0, maxWaitTime: 100, minBytes: 1, maxBytes: 10 * 1_048_576, // its consumer's defaults
      topics: [{ topic, partitions: active.map((partition) => ({ partition, fetchOffset: String(next.get(partition)), maxBytes: 1_048_576 })) }],
    });
    for (const t of res.responses) {
      for (const p of t.partitions) {
        for (const m of p.messages) {
          out.record(p.partition, m.offset, m.timestamp, m.key, m.value, Object.entries(m.headers));
          next.set(p.partition, BigInt(m.offset) + 1n);
        }
      }
    }
    out.flush();
  }
}));
await cluster.disconnect();
