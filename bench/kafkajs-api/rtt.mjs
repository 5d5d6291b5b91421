// The floor of an awaited single send on this machine: the broker's round trip for one Produce
// (one record, acks -1 and acks 1, not idempotent and idempotent; and 1,000 records over the topic's partitions, acks -1) and for ApiVersions (no log write), on one
// kafka-wire connection with nothing else in flight, N times each, serially.
//   node bench/kafkajs-api/rtt.mjs BOOTSTRAP TOPIC [N=2000] [SIZE=100] [--json]  -> means, medians and quartiles (ms)
// --json: one line { name: mean ms } (run.mjs's floor rows: a mean, as the rows' time per send is).
import { fileURLToPath } from 'node:url';

const dist = (p) => fileURLToPath(new URL(`../../dist/src/${p}`, import.meta.url));
const { KafkaClient } = await import(dist('wire/client.js'));
const { encodeRecordBatch } = await import(dist('records/encode.js'));
const { initProducerId } = await import(dist('producer/idempotence.js'));
const json = process.argv.includes('--json');
const [bootstrap, topic, nText = '2000', sizeText = '100'] = process.argv.slice(2).filter((a) => a !== '--json');
const n = Number(nText);
const client = new KafkaClient({ bootstrap, clientId: 'rtt' });
const info = await client.topic(topic, { allowAutoTopicCreation: true, attempts: 6 });
const conn = await client.broker(info.partitions[0].leader);
const value = Buffer.alloc(Number(sizeText), 'x');
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); const i = (s.length - 1) * p; return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i)); };
const version = conn.versionFor(0);
const partitions = info.partitions.map((p) => p.partition);
// 1,000 records as sendBatch's: spread over the topic's partitions, one batch each (encoded once).
const thousand = partitions.map((index) => ({ index, records: encodeRecordBatch({ records: Array.from({ length: Math.ceil(1000 / partitions.length) }, (_, i) => ({ key: `k${i}`, value })) }) }));
const leaderOfAll = info.partitions.every((p) => p.leader === info.partitions[0].leader);
// An idempotent producer's batches (as kafka-wire's and kafkajs's idempotent producers send them): its id, epoch and sequence.
const id = await initProducerId(() => client.anyConnection(), null, 60_000);
let sequence = 0;
async function produce(acks, many = false, idempotent = false) {
  const header = idempotent ? { producerId: id.producerId, producerEpoch: id.epoch, baseSequence: sequence++ } : {};
  const partitionData = many ? thousand : [{ index: 0, records: encodeRecordBatch({ ...header, records: [{ key: 'k', value }] }) }];
  const topicData = [version >= 13 ? { topicId: info.topicId, partitionData } : { name: topic, partitionData }];
  return conn.request(0, version, { transactionalId: null, acks, timeoutMs: 30000, topicData });
}
const rows = [
  ['ApiVersions', () => conn.request(18, 3, { clientSoftwareName: 'rtt', clientSoftwareVersion: '1' })],
  ['Produce acks=-1', () => produce(-1)],
  ['Produce acks=1', () => produce(1)],
  ['Produce acks=-1, idempotent', () => produce(-1, false, true)],
  ...(leaderOfAll ? [[`Produce acks=-1, 1,000 records over ${partitions.length} partitions`, () => produce(-1, true)]] : []),
];
for (const [, f] of rows) for (let i = 0; i < 200; i++) await f(); // warm
const means = {};
for (const [name, f] of rows) {
  const t = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); await f(); t.push(performance.now() - s); }
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  means[name] = mean;
  if (!json) console.log(`${name}: mean ${mean.toFixed(3)} ms, median ${q(t, 0.5).toFixed(3)} ms [${q(t, 0.25).toFixed(3)}–${q(t, 0.75).toFixed(3)}], p90 ${q(t, 0.9).toFixed(3)}`);
}
if (json) console.log(JSON.stringify(means));
await client.close();
