// The floor of an awaited single send on this machine: the broker's round trip for one Produce
// (one record, acks -1 and acks 1, not idempotent; and 1,000 records over the topic's partitions, acks -1) and for ApiVersions (no log write), on one
// kafka-wire connection with nothing else in flight, N times each, serially.
//   node bench/kafkajs-api/rtt.mjs BOOTSTRAP TOPIC [N=2000] [SIZE=100] [--json]  -> medians and quartiles (ms)
// --json: one line { name: median ms } (run.mjs's floor rows).
import { fileURLToPath } from 'node:url';

const dist = (p) => fileURLToPath(new URL(`../../dist/src/${p}`, import.meta.url));
const { KafkaClient } = await import(dist('wire/client.js'));
const { encodeRecordBatch } = await import(dist('records/encode.js'));
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
async function produce(acks, many = false) {
  const partitionData = many ? thousand : [{ index: 0, records: encodeRecordBatch({ records: [{ key: 'k', value }] }) }];
  const topicData = [version >= 13 ? { topicId: info.topicId, partitionData } : { name: topic, partitionData }];
  return conn.request(0, version, { transactionalId: null, acks, timeoutMs: 30000, topicData });
}
const rows = [
  ['ApiVersions', () => conn.request(18, 3, { clientSoftwareName: 'rtt', clientSoftwareVersion: '1' })],
  ['Produce acks=-1', () => produce(-1)],
  ['Produce acks=1', () => produce(1)],
  ...(leaderOfAll ? [[`Produce acks=-1, 1,000 records over ${partitions.length} partitions`, () => produce(-1, true)]] : []),
];
for (const [, f] of rows) for (let i = 0; i < 200; i++) await f(); // warm
const medians = {};
for (const [name, f] of rows) {
  const t = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); await f(); t.push(performance.now() - s); }
  medians[name] = q(t, 0.5);
  if (!json) console.log(`${name}: median ${q(t, 0.5).toFixed(3)} ms [${q(t, 0.25).toFixed(3)}–${q(t, 0.75).toFixed(3)}], p90 ${q(t, 0.9).toFixed(3)}`);
}
if (json) console.log(JSON.stringify(medians));
await client.close();
