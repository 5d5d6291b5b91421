// Bench row for `kafka-wire proxy`: produce and consume throughput (kcat against the memory
// broker) direct and through the proxy, in interleaved pairs; reports the median with quartiles
// and the proxy's cost. The goal is under 10%. With --record it measures a recording proxy.
//
//   node bench/proxy.mjs [--mb 64] [--runs 7] [--record]      (after `npm run build`)
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '64' }, runs: { type: 'string', default: '7' }, record: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const messageSize = 1000;
const messages = Math.round((Number(values.mb) * 1e6) / messageSize);
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-bench-proxy-'));
const input = join(dir, 'messages.txt');
writeFileSync(input, `${'x'.repeat(messageSize - 1)}\n`.repeat(messages));

/** Starts a child process and resolves with it and the first line matching `pattern` on its output. */
function start(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: args[0] === '-e' || args[0] === '--input-type=module' ? child.stdout : child.stderr });
    lines.on('line', (line) => { const m = pattern.exec(line); if (m) resolve({ child, match: m }); });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

function kcat(args) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    execFile('kcat', args, { maxBuffer: 1 << 30 }, (error) => (error ? reject(error) : resolve(Number(process.hrtime.bigint() - t) / 1e9)));
  });
}

const broker = await start(['--input-type=module', '-e', `
  import { startMemoryBroker } from './dist/src/wire/index.js';
  const b = await startMemoryBroker({ host: '127.0.0.1', port: 0 });
  console.log('broker ' + b.port);`], /^broker (\d+)$/);
const brokerAddress = `127.0.0.1:${broker.match[1]}`;
const proxy = await start(['dist/src/cli/main.js', 'proxy', '--listen', '127.0.0.1:0', '--upstream', brokerAddress,
  ...(values.record ? ['--record', join(dir, 'record.pcap')] : [])], /proxy: (127\.0\.0\.1:\d+) ->/);
const proxyAddress = proxy.match[1];

const rows = { produce: { direct: [], proxy: [] }, consume: { direct: [], proxy: [] } };
try {
  for (let run = 0; run < runs; run++) {
    const topic = `bench-${run}`;
    // Alternate which path goes first, so drift in the machine's load is shared.
    const order = run % 2 === 0 ? ['direct', 'proxy'] : ['proxy', 'direct'];
    for (const path of order) {
      const bootstrap = path === 'direct' ? brokerAddress : proxyAddress;
      const t = `${topic}-${path}`;
      rows.produce[path].push(Number(values.mb) / await kcat(['-b', bootstrap, '-P', '-t', t, '-l', input, '-X', 'linger.ms=5', '-X', 'batch.size=1000000']));
      rows.consume[path].push(Number(values.mb) / await kcat(['-b', bootstrap, '-C', '-t', t, '-o', 'beginning', '-e', '-q', '-c', String(messages)]));
    }
  }
} finally {
  proxy.child.kill('SIGINT');
  broker.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}

function quartiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}
console.log(`${values.mb} MB of ${messageSize}-byte messages, kcat against the memory broker, ${runs} interleaved pairs${values.record ? ', proxy recording a pcap' : ''}`);
for (const [name, { direct, proxy: proxied }] of Object.entries(rows)) {
  const d = quartiles(direct);
  const p = quartiles(proxied);
  // The cost from each pair's own ratio, so the pairs' shared load cancels.
  const cost = quartiles(direct.map((x, i) => 1 - proxied[i] / x));
  console.log(`${name.padEnd(8)} direct ${d.median.toFixed(0)} MB/s (q1 ${d.q1.toFixed(0)}, q3 ${d.q3.toFixed(0)}), `
    + `proxied ${p.median.toFixed(0)} MB/s (q1 ${p.q1.toFixed(0)}, q3 ${p.q3.toFixed(0)}), `
    + `cost ${(cost.median * 100).toFixed(1)}% (q1 ${(cost.q1 * 100).toFixed(1)}%, q3 ${(cost.q3 * 100).toFixed(1)}%)`);
}
