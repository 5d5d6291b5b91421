// Share-group consume bench on a real broker (kafka/cluster.mjs, one node): kafka-wire's
// ShareConsumer (one member, implicit acknowledgement, in a process of its own; also with
// prefetch: true, one ShareFetch ahead per leader) against Kafka's
// ShareConsumerPerformance (kafka-share-consumer-perf-test, one thread) on the same topic, in
// interleaved pairs, each run a new share group reading from the earliest offset; then the CLI's
// `consume --share -c N` (N: every record) against plain `consume -e`, both writing JSON lines to
// /dev/null. It ends with the goals' ratios pair by pair.
//
//   node bench/share.mjs [--records 1000000] [--pairs 3] [--value-bytes 100] [--max-records 500] [--only cli|library]
//
// --only cli times only the CLI's two rows (consume --share against plain consume -e); --only
// library only the ShareConsumer's rows against Kafka's. --assignment-interval-ms N sets each
// share group's share.assignment.interval.ms (the broker's default, 1000, is how long a new
// member waits for its first partitions: most of a 1M-record CLI run; every share row gets it).
//
// Figures are records per second of wall time, process start to exit (joining included).

import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath, startKafka } from '../kafka/cluster.mjs';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const BIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const RECORDS = arg('records', 1_000_000);
const PAIRS = arg('pairs', 3);
const VALUE_BYTES = arg('value-bytes', 100);
const MAX_RECORDS = arg('max-records', 500);
const ONLY = (() => { const i = process.argv.indexOf('--only'); return i > 0 ? process.argv[i + 1] : undefined; })();
if (ONLY !== undefined && ONLY !== 'cli' && ONLY !== 'library') throw new Error(`--only cli or --only library, not ${ONLY}`);
const ASSIGNMENT_INTERVAL_MS = arg('assignment-interval-ms', undefined);
const PARTITIONS = 12;
/** What is produced: a whole number of records per partition. */
const PER_PARTITION = Math.floor(RECORDS / PARTITIONS);
const TOTAL = PER_PARTITION * PARTITIONS;

const { KafkaClient } = await import(join(ROOT, 'dist/src/wire/client.js'));
const { encodeRecordBatch } = await import(join(ROOT, 'dist/src/records/index.js'));
const { alterShareGroupConfig } = await import(join(ROOT, 'dist/src/admin/share-groups.js'));

function run(file, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} ${args.slice(0, 4).join(' ')} exited ${code}: ${err.slice(-2000)}`))));
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
  const per = PER_PARTITION;
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

// A fresh cluster's first share group creates __share_group_state; share-partitions whose
// initialization lost that race are retried after group.share.initialize.retry.interval.ms.
const kafka = await startKafka({ config: {
  'group.share.heartbeat.interval.ms': '1000', 'group.share.min.heartbeat.interval.ms': '1000', 'group.share.initialize.retry.interval.ms': '1000',
}, heap: '1g' });
try {
  const topic = 'share-bench';
  await kafka.createTopic(topic, { partitions: PARTITIONS });
  await produce(kafka.bootstrap, topic);
  const admin = new KafkaClient({ bootstrap: kafka.bootstrap });
  let groups = 0;
  const newGroup = async () => {
    const group = `share-bench-${++groups}`;
    await alterShareGroupConfig(admin, group, { 'share.auto.offset.reset': 'earliest', ...(ASSIGNMENT_INTERVAL_MS === undefined ? {} : { 'share.assignment.interval.ms': String(ASSIGNMENT_INTERVAL_MS) }) });
    return group;
  };
  const cp = await kafkaClasspath();
  const library = `const { ShareConsumer } = await import(${JSON.stringify(join(ROOT, 'dist/src/consumer/share.js'))});
    const [bootstrap, group, topic, total, maxRecords, prefetch] = process.argv.slice(1);
    const c = new ShareConsumer({ bootstrap, groupId: group, topics: [topic], maxRecords: Number(maxRecords), prefetch: prefetch === 'true' });
    let n = 0;
    for (let got = -1; n < Number(total) && got !== 0; n += got) got = (await c.poll(15000)).length;
    await c.close();
    if (n < Number(total)) { console.error('only ' + n + ' records of ' + total + ' came'); process.exit(3); }`;
  const runs = {
    'kafka-wire ShareConsumer': async () => run(process.execPath, ['--input-type=module', '-e', library, kafka.bootstrap, await newGroup(), topic, String(TOTAL), String(MAX_RECORDS), 'false']),
    'kafka-wire ShareConsumer prefetch': async () => run(process.execPath, ['--input-type=module', '-e', library, kafka.bootstrap, await newGroup(), topic, String(TOTAL), String(MAX_RECORDS), 'true']),
    'Kafka ShareConsumerPerformance': async () => run('java', ['-Xmx1g', '-cp', cp, 'org.apache.kafka.tools.ShareConsumerPerformance', '--bootstrap-server', kafka.bootstrap,
      '--topic', topic, '--group', await newGroup(), '--num-records', String(TOTAL), '--threads', '1', '--timeout', '60000']),
    'kafka-wire consume --share -c N': async () => run(process.execPath, [BIN, 'consume', '-b', kafka.bootstrap, '--share', await newGroup(), '-c', String(TOTAL), topic]),
    'kafka-wire consume -e (plain)': async () => run(process.execPath, [BIN, 'consume', '-b', kafka.bootstrap, '-t', topic, '-e']),
  };
  for (const name of Object.keys(runs)) if (ONLY !== undefined && name.includes('consume') !== (ONLY === 'cli')) delete runs[name];
  // The cluster's first share group creates __share_group_state: not part of any timed run.
  await run(process.execPath, [BIN, 'consume', '-b', kafka.bootstrap, '--share', await newGroup(), '-c', '1', topic]);
  const startLoad = loadavg().map((l) => l.toFixed(1)).join(' ');
  const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let pair = 0; pair < PAIRS; pair++) {
    for (const [name, f] of Object.entries(runs)) {
      const s = await timed(f);
      times[name].push(s);
      console.error(`pair ${pair + 1}: ${name}: ${s.toFixed(2)} s (load ${loadavg()[0].toFixed(1)})`);
    }
  }
  await admin.close();
  const quantile = (xs, f) => { const a = [...xs].sort((x, y) => x - y); const i = (a.length - 1) * f; const lo = Math.floor(i); const hi = Math.ceil(i); return a[lo] + (a[hi] - a[lo]) * (i - lo); };
  const median = (xs) => quantile(xs, 0.5);
  console.log(`\nshare consume of ${TOTAL} records of ${VALUE_BYTES} B, ${PARTITIONS} partitions, one broker, ${PAIRS} interleaved rounds${ASSIGNMENT_INTERVAL_MS === undefined ? '' : `, share.assignment.interval.ms ${ASSIGNMENT_INTERVAL_MS}`} (${cpus().length} cores, load ${startLoad} at the start, ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end)\n`);
  console.log('| run | median s (q1-q3) | records/s |');
  console.log('|---|---|---|');
  for (const [name, xs] of Object.entries(times)) console.log(`| ${name} | ${median(xs).toFixed(2)} (${quantile(xs, 0.25).toFixed(2)}-${quantile(xs, 0.75).toFixed(2)}) | ${Math.round(TOTAL / median(xs)).toLocaleString('en')} |`);
  // The goals, pair by pair (each ratio from runs next to each other): the ShareConsumer at least
  // 2x Kafka's records/s, consume --share within 25% of plain consume's (its time at most 1.25x).
  const ratios = (a, b) => times[a].map((t, i) => times[b][i] / t);
  for (const [what, a, b] of [
    ['Kafka ShareConsumerPerformance s / ShareConsumer s (goal >= 2)', 'kafka-wire ShareConsumer', 'Kafka ShareConsumerPerformance'],
    ['Kafka ShareConsumerPerformance s / ShareConsumer prefetch s', 'kafka-wire ShareConsumer prefetch', 'Kafka ShareConsumerPerformance'],
    ['consume --share s / plain consume -e s (goal <= 1.25)', 'kafka-wire consume -e (plain)', 'kafka-wire consume --share -c N'],
  ]) {
    if (!times[a] || !times[b]) continue;
    const r = ratios(a, b);
    console.log(`\n${what}: per pair ${r.map((x) => x.toFixed(2)).join(' ')}; median ${median(r).toFixed(2)} (${quantile(r, 0.25).toFixed(2)}-${quantile(r, 0.75).toFixed(2)})`);
  }
} finally {
  await kafka.stop();
}
