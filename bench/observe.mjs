// What publishing on the diagnostics channels and keeping metrics costs: kafka-wire's producer and
// consumer (library, eager records) moving N records through a memory broker, each run in a fresh
// process (bench/observe/child.mjs), with subscribers on every kafka-wire channel ("subscribed")
// and with none ("none"); with --baseline DIR also DIR's build (a checkout before this work, with
// dist/ built), with none. Every round runs each row once in a rotating order, so round i of two
// rows is a pair; a row's time is the median over rounds with its quartiles, and the cost of a row
// against "none" is the median of per-pair ratios with their quartiles.
//
//   npm run build && node bench/observe.mjs [--records 200000] [--pairs 10] [--only produce,consume] [--baseline DIR]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/data.mjs';
import { median, quantile } from './lib/report.mjs';

const { values: args } = parseArgs({ options: {
  records: { type: 'string', default: '200000' },
  pairs: { type: 'string', default: '10' },
  only: { type: 'string', default: 'produce,consume' },
  baseline: { type: 'string' },
} });
const N = Number(args.records);
const PAIRS = Number(args.pairs);
const DIST = join(ROOT, 'dist');
const CHILD = join(ROOT, 'bench/observe/child.mjs');
const { startMemoryBroker } = await import(pathToFileURL(join(DIST, 'src/wire/memory-broker.js')).href);

function child(task, subscribers, dist, bootstrap, topic) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, task, subscribers, dist, bootstrap, topic, String(N)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('error', reject);
    p.on('close', (code) => code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`child ${task} ${subscribers} exited ${code}`)));
  });
}

const rows = [{ name: 'none', subscribers: 'none', dist: DIST }, { name: 'subscribed', subscribers: 'subscribed', dist: DIST }];
if (args.baseline) rows.push({ name: 'baseline (none)', subscribers: 'none', dist: join(args.baseline, 'dist') });

const fmt = (x) => x.toFixed(0);
const q = (xs) => `${fmt(median(xs))} ms (${fmt(quantile(xs, 0.25))}–${fmt(quantile(xs, 0.75))})`;
const ratio = (xs) => `${median(xs).toFixed(3)} (${quantile(xs, 0.25).toFixed(3)}–${quantile(xs, 0.75).toFixed(3)})`;

for (const task of args.only.split(',')) {
  // Consume reads one filled topic; produce writes to a fresh broker each run.
  let filled;
  if (task === 'consume') {
    filled = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { c: 1 } });
    await child('produce', 'none', DIST, filled.bootstrap, 'c');
  }
  const times = new Map(rows.map((r) => [r.name, []]));
  const events = new Map(rows.map((r) => [r.name, 0]));
  for (let round = 0; round < PAIRS; round++) {
    const order = rows.map((_, i) => rows[(i + round) % rows.length]);
    for (const row of order) {
      const broker = filled ?? await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { p: 4 } });
      const r = await child(task, row.subscribers, row.dist, broker.bootstrap, filled ? 'c' : 'p');
      if (!filled) await broker.close();
      times.get(row.name).push(r.ms);
      events.set(row.name, r.events);
    }
    process.stderr.write(`${task} round ${round + 1}/${PAIRS} load ${loadavg()[0].toFixed(2)}\n`);
  }
  await filled?.close();
  const none = times.get('none');
  console.log(`\n${task}: ${N} records, ${PAIRS} pairs (median ms, quartiles; ratio to "none": median of per-pair ratios, quartiles)`);
  console.log('| row | time | records/s | ratio to none | events seen per run |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) {
    const t = times.get(row.name);
    const ratios = t.map((x, i) => x / none[i]);
    console.log(`| ${row.name} | ${q(t)} | ${Math.round(N / (median(t) / 1000))} | ${row.name === 'none' ? '1' : ratio(ratios)} | ${events.get(row.name)} |`);
  }
}
