// The consume-CPU benchmark (issue 45's goal 3): N records of 100 bytes in a `kafka-wire broker`
// process (4 partitions), read to their end and printed as JSON lines to /dev/null by
// `kafka-wire consume` and by `kcat -C -J`, each a fresh process whose CPU time (user + system,
// GNU time) is the measure; and kafka-wire's library Consumer iterating the same records without
// JSON (bench/consume-cpu/child.mjs: lazy columns, with and without releasing each batch, and
// record objects), as records per CPU second of the iteration itself. Rows rotate within each
// round, so round i of two rows is a pair; ratios are medians of per-pair ratios with quartiles.
//   node bench/consume-cpu.mjs [--records 1000000] [--pairs 5] [--baseline DIR]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { binOf, ROOT } from './lib/data.mjs';
import { median, quantile, pairRatios, ratioStats } from './lib/report.mjs';

const { values: args } = parseArgs({ options: {
  records: { type: 'string', default: '1000000' },
  pairs: { type: 'string', default: '5' },
  /** Another checkout with dist/ built: its `consume` as a row beside this one's (before/after). */
  baseline: { type: 'string' },
} });
const N = Number(args.records);
const TOPIC = 'cpu';
if (!existsSync('/usr/bin/time')) throw new Error('consume-cpu needs GNU time (/usr/bin/time) for the child processes\' CPU time');

/** Runs argv with stdout to /dev/null; resolves with the CPU seconds GNU time reports. */
function cpuOf(argv, env = {}) {
  return new Promise((resolve, reject) => {
    const devnull = openSync('/dev/null', 'w');
    const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', ...argv], { stdio: ['ignore', devnull, 'pipe'], env: { ...process.env, ...env } });
    closeSync(devnull);
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.once('close', (code) => {
      const m = /cpu ([\d.]+) ([\d.]+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`${argv.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      else resolve(Number(m[1]) + Number(m[2]));
    });
  });
}

/** The library child: resolves with records per CPU second of its iteration. */
function libraryRate(mode, bootstrap) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/consume-cpu/child.mjs'), mode, String(N), bootstrap, TOPIC], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.once('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) { reject(new Error(`child ${mode} exited ${code}: ${err.slice(0, 500)}`)); return; }
      const r = JSON.parse(line);
      if (r.records !== N) reject(new Error(`child ${mode} read ${r.records} records, not ${N}`));
      else resolve(r.records / (r.cpuMs / 1000));
    });
  });
}

async function startBroker() {
  const child = spawn(process.execPath, [binOf(ROOT), 'broker', '--listen', '127.0.0.1:0', '--topic', `${TOPIC}:4`, '--fill', String(N), '--value-size', '100'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const address = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.split('\n')[0].trim()); });
    child.once('exit', (code) => reject(new Error(`kafka-wire broker exited ${code}`)));
  });
  return { address, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

const broker = await startBroker();
const b = broker.address;
const cliRows = [
  { name: 'kafka-wire consume (JSON lines)', run: () => cpuOf([process.execPath, binOf(ROOT), 'consume', '-b', b, '-t', TOPIC, '-e']) },
  ...(args.baseline ? [{ name: 'kafka-wire consume, baseline', run: () => cpuOf([process.execPath, binOf(args.baseline), 'consume', '-b', b, '-t', TOPIC, '-e']) }] : []),
  { name: 'kcat -C -J (librdkafka)', run: () => cpuOf(['kcat', '-C', '-b', b, '-t', TOPIC, '-o', 'beginning', '-e', '-J', '-q']) },
];
const libRows = [
  { name: 'Consumer, lazy columns', run: () => libraryRate('columns', b) },
  { name: 'Consumer, lazy columns, release()', run: () => libraryRate('released', b) },
  { name: 'Consumer, records()', run: () => libraryRate('records', b) },
];
const results = new Map([...cliRows, ...libRows].map((r) => [r.name, []]));
const loads = [];
try {
  for (let round = 0; round < Number(args.pairs); round++) {
    for (const rows of [cliRows, libRows]) {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[(i + round) % rows.length];
        results.get(row.name).push(await row.run());
      }
    }
    loads.push(loadavg()[0]);
    console.error(`round ${round + 1}: load ${loads.at(-1).toFixed(2)}`);
  }
} finally {
  await broker.stop();
}

const q = (xs, f = (x) => x.toFixed(3)) => `${f(median(xs))} [${f(quantile(xs, 0.25))}-${f(quantile(xs, 0.75))}]`;
const kw = results.get(cliRows[0].name);
const lines = [
  `Consume CPU: ${N.toLocaleString('en')} records of 100 B (4 partitions, a kafka-wire broker process), ${args.pairs} rounds, load average (1 min) ${loads.map((l) => l.toFixed(1)).join(', ')} on ${execFileSync('nproc').toString().trim()} cores.`, '',
  '| row | CPU s (user + system), median [q1-q3] | this / kafka-wire consume, per pair |', '|---|---|---|',
  ...cliRows.map((r) => `| ${r.name} | ${q(results.get(r.name))} | ${r === cliRows[0] ? '' : q(pairRatios(results.get(r.name), kw), (x) => x.toFixed(2))} |`), '',
  '| library row | records per CPU second of the iteration, median [q1-q3] |', '|---|---|',
  ...libRows.map((r) => `| ${r.name} | ${q(results.get(r.name), (x) => Math.round(x).toLocaleString('en'))} |`),
];
console.log(lines.join('\n'));
