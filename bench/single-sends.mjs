// Single-message sends (issue 45 goal 1): `await send()` of one 100-byte message at a time
// (2,000) and 20,000 single-message send() calls at once, kafka-wire against kafkajs and
// @platformatic/kafka (idempotence on in all), each run a fresh process (bench/single/client.mjs)
// on a fresh topic of the same broker: a `kafka-wire broker` process (memory) or a broker given by
// --bootstrap (real Kafka, e.g. from kafka/cluster.mjs). Rounds rotate the rows' order; round i of
// two rows is a pair, and ratios are medians of per-pair ratios with quartiles. --baseline DIR adds
// the rows of another checkout's build (its dist/), e.g. main's, for before/after.
//
//   node bench/single-sends.mjs [--pairs 5] [--bootstrap HOST:PORT] [--baseline /path/to/main] [--awaited 2000] [--concurrent 20000] [--skip platformatic]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { binOf, ROOT } from './lib/data.mjs';
import { median, quantile, pairRatios, ratioStats } from './lib/report.mjs';

const { values: args } = parseArgs({ options: {
  pairs: { type: 'string', default: '5' },
  bootstrap: { type: 'string' },
  baseline: { type: 'string' },
  awaited: { type: 'string', default: '2000' },
  concurrent: { type: 'string', default: '20000' },
  /** Leave out clients, e.g. --skip platformatic (it does not finish against the memory broker). */
  skip: { type: 'string', default: '' },
} });
const skipped = new Set(args.skip.split(',').filter(Boolean));
const CLIENT = join(ROOT, 'bench/single/client.mjs');
const CLI = binOf(ROOT);

async function memoryBroker() {
  const child = spawn(process.execPath, [CLI, 'broker', '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const rl = createInterface({ input: child.stdout });
  const bootstrap = await new Promise((resolve) => rl.once('line', (l) => resolve(l.trim())));
  rl.close();
  return { bootstrap, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

function runClient(row, mode, n, bootstrap, topic) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...(row.root ? { KAFKA_WIRE_ROOT: row.root } : {}) };
    const child = spawn(process.execPath, [CLIENT, row.client, mode, String(n), bootstrap, topic], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`${row.name} ${mode} exited ${code}: ${err.slice(0, 500)}`));
      else { const r = JSON.parse(line); resolve(r.records / (r.ms / 1000)); }
    });
  });
}

const rows = [
  { name: 'kafka-wire', client: 'kafka-wire' },
  ...(args.baseline ? [{ name: 'kafka-wire (baseline)', client: 'kafka-wire', root: args.baseline }] : []),
  { name: 'kafkajs 2.2.4', client: 'kafkajs' },
  { name: '@platformatic/kafka', client: 'platformatic' },
].filter((r) => !skipped.has(r.client));
const modes = [['awaited', Number(args.awaited)], ['concurrent', Number(args.concurrent)]];
const broker = args.bootstrap ? null : await memoryBroker();
const bootstrap = args.bootstrap ?? broker.bootstrap;
const rates = new Map(); // `${mode} ${row}` → msg/s per round
let topicNumber = 0;
try {
  for (let round = 0; round < Number(args.pairs); round++) {
    for (const [mode, n] of modes) {
      const order = rows.map((_, i) => rows[(i + round) % rows.length]);
      for (const row of order) {
        const key = `${mode} ${row.name}`;
        const rate = await runClient(row, mode, n, bootstrap, `single-${process.pid}-${topicNumber++}`);
        if (!rates.has(key)) rates.set(key, []);
        rates.get(key).push(rate);
      }
    }
    console.error(`round ${round + 1}: load ${loadavg()[0].toFixed(2)}`);
  }
} finally {
  await broker?.stop();
}
const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log(`| workload | client | msg/s median [q1-q3] | kafka-wire / this, per pair median [q1-q3] |`);
console.log('|---|---|---|---|');
for (const [mode, n] of modes) {
  const ours = rates.get(`${mode} kafka-wire`);
  for (const row of rows) {
    const xs = rates.get(`${mode} ${row.name}`);
    const r = row.name === 'kafka-wire' ? null : ratioStats(pairRatios(ours, xs));
    const title = mode === 'awaited' ? `await send() of one 100 B message, one at a time (${fmt(n)})` : `${fmt(n)} single-message send() calls at once`;
    console.log(`| ${title} | ${row.name} | ${fmt(median(xs))} [${fmt(quantile(xs, 0.25))}-${fmt(quantile(xs, 0.75))}] | ${r ? `${r.median.toFixed(2)} [${r.q1.toFixed(2)}-${r.q3.toFixed(2)}]` : ''} |`);
  }
}
