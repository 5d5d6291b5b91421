// Group import bench on a real broker (kafka/cluster.mjs, one node): `kafka-wire consume -G`
// (one member) against plain `consume -e` of the same 12-partition topic, in interleaved pairs;
// then the topic imported by 1, 2 and 4 members at once. Every run writes JSON lines to /dev/null
// and ends with -e; a group run is checked complete by the group's committed offsets (lag 0).
//
//   node bench/groups.mjs [--records 1000000] [--pairs 5] [--value-bytes 100]
//
// Figures are records per second of wall time, process start to the last member's exit (so a
// group run includes joining). On a 2-core machine members share the cores: more members cannot
// be faster than the cores allow, and what the figure shows is the cost of splitting the work.

import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKafka } from '../kafka/cluster.mjs';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const BIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const RECORDS = arg('records', 1_000_000);
const PAIRS = arg('pairs', 5);
const VALUE_BYTES = arg('value-bytes', 100);
const PARTITIONS = 12;

const { KafkaClient } = await import(join(ROOT, 'dist/src/wire/client.js'));
const { encodeRecordBatch } = await import(join(ROOT, 'dist/src/records/index.js'));
const { describeGroup } = await import(join(ROOT, 'dist/src/admin/groups.js'));

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kafka-wire ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

async function timed(f) {
  const t = process.hrtime.bigint();
  await f();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

async function produce(bootstrap, topic) {
  const client = new KafkaClient({ bootstrap });
  const info = await client.topic(topic);
  const value = 'v'.repeat(VALUE_BYTES);
  const per = RECORDS / PARTITIONS;
  await Promise.all(info.partitions.map(async ({ partition }) => {
    for (let done = 0; done < per; done += 2000) {
      const records = Array.from({ length: Math.min(2000, per - done) }, (_, i) => ({ key: `k${done + i}`, value }));
      for (;;) {
        const conn = await client.leader(topic, partition);
        const v = conn.versionFor(0);
        const res = await conn.request(0, v, { acks: -1, timeoutMs: 30_000, topicData: [{ ...(v >= 13 ? { topicId: info.topicId } : { name: topic }), partitionData: [{ index: partition, records: encodeRecordBatch({ records, compression: 'none' }) }] }] });
        if (res.responses[0].partitionResponses[0].errorCode === 0) break;
        await new Promise((r) => setTimeout(r, 200));
        await client.metadata([topic]);
      }
    }
  }));
  await client.close();
}

let groupRun = 0;
async function groupImport(bootstrap, members) {
  const group = `bench-${process.pid}-${groupRun++}`;
  const secs = await timed(() => Promise.all(Array.from({ length: members }, () =>
    run(['consume', '-b', bootstrap, '-G', group, '-o', 'beginning', '-e', '--session-timeout', '6000', 'bench']))));
  const client = new KafkaClient({ bootstrap });
  const d = await describeGroup(client, group);
  await client.close();
  const committed = d.offsets.reduce((n, o) => n + Number(o.committed ?? 0n), 0);
  if (committed !== RECORDS) throw new Error(`group ${group}: committed ${committed} of ${RECORDS}`);
  return secs;
}

const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); const i = (s.length - 1) * p; const lo = Math.floor(i); return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo); };
const fmt = (xs) => `${Math.round(q(xs, 0.5)).toLocaleString('en')} [${Math.round(q(xs, 0.25)).toLocaleString('en')}-${Math.round(q(xs, 0.75)).toLocaleString('en')}]`;

const kafka = await startKafka({ nodes: 1, config: { 'group.initial.rebalance.delay.ms': '0', 'offsets.topic.replication.factor': '1' } });
try {
  await kafka.createTopic('bench', { partitions: PARTITIONS });
  console.log(`Kafka ${kafka.version} at ${kafka.bootstrap}; producing ${RECORDS.toLocaleString('en')} records of ${VALUE_BYTES} B into ${PARTITIONS} partitions`);
  await produce(kafka.bootstrap, 'bench');
  const load0 = loadavg()[0];
  // Warm the page cache and the broker (the first group also creates __consumer_offsets).
  await run(['consume', '-b', kafka.bootstrap, '-t', 'bench', '-e']);
  await groupImport(kafka.bootstrap, 1);
  const plain = [];
  const one = [];
  const ratio = [];
  for (let i = 0; i < PAIRS; i++) {
    // Alternate which goes first, so a drift in machine load favours neither.
    const [a, b] = i % 2 === 0
      ? [await timed(() => run(['consume', '-b', kafka.bootstrap, '-t', 'bench', '-e'])), await groupImport(kafka.bootstrap, 1)]
      : [null, null];
    let p = a, g = b;
    if (i % 2 === 1) { g = await groupImport(kafka.bootstrap, 1); p = await timed(() => run(['consume', '-b', kafka.bootstrap, '-t', 'bench', '-e'])); }
    plain.push(RECORDS / p);
    one.push(RECORDS / g);
    ratio.push(g / p);
  }
  const byMembers = new Map([[1, []], [2, []], [4, []]]);
  for (let i = 0; i < PAIRS; i++) for (const n of byMembers.keys()) byMembers.get(n).push(RECORDS / await groupImport(kafka.bootstrap, n));
  console.log(`\nmachine: ${cpus().length} cores (${cpus()[0]?.model}), load average ${load0.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`);
  console.log(`records/s, median [quartiles] over ${PAIRS} runs (wall time, process start to exit):`);
  console.log(`  consume -t (no group)         ${fmt(plain)}`);
  console.log(`  consume -G, 1 member          ${fmt(one)}`);
  console.log(`  group / plain time, per pair  ${q(ratio, 0.5).toFixed(3)} [${q(ratio, 0.25).toFixed(3)}-${q(ratio, 0.75).toFixed(3)}]  (goal: within 1.10: ${q(ratio, 0.5) <= 1.1 ? 'held' : 'NOT HELD'})`);
  for (const [n, xs] of byMembers) console.log(`  consume -G, ${n} member${n > 1 ? 's' : ' '}        ${fmt(xs)}  (together)`);
} finally {
  await kafka.stop();
}
