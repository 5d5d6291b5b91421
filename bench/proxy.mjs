// Bench row for `kafka-wire proxy`: produce and consume throughput (kcat against the memory
// broker) direct and through the proxy, in interleaved rounds (the order rotates from round to
// round); reports the median with quartiles and the proxy's cost. With --record a second,
// recording proxy (a pcap file) joins each round, and the cost of recording is taken against the
// plain proxy of the same round. The goal is recording's: under 10% of the plain proxy's
// throughput; the proxy's own cost against direct is reported beside it. Throughput on a loaded machine
// swings widely, so each proxy's own CPU time per MB forwarded (all threads, from /proc
// schedstat; its system part apart, where the file writes go) is reported too: it is what
// recording adds, whatever the load. Each round also writes as many bytes as the recording got
// through the page cache to a new file: what a recorder that does not write past the page cache
// (the proxy does where it can) would pay the kernel for them here. The goal prints as held or
// NOT HELD. --cli runs another build's CLI.
//
//   node bench/proxy.mjs [--mb 64] [--runs 7] [--record] [--cli OTHER/dist/cjs/cli/main.cjs]
//   (after `npm run build`)
import { spawn, execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { binOf, ROOT } from './lib/data.mjs';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '64' }, runs: { type: 'string', default: '7' }, record: { type: 'boolean', default: false }, cli: { type: 'string', default: binOf(ROOT) } } });
const runs = Number(values.runs);
const messageSize = 1000;
const messages = Math.round((Number(values.mb) * 1e6) / messageSize);
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-bench-proxy-'));
const input = join(dir, 'messages.txt');
writeFileSync(input, `${'x'.repeat(messageSize - 1)}\n`.repeat(messages));
const recordFile = join(dir, 'record.pcap');

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
const startProxy = (record) => start([values.cli, 'proxy', '--listen', '127.0.0.1:0', '--upstream', brokerAddress,
  ...(record ? ['--record', recordFile] : [])], /proxy: (127\.0\.0\.1:\d+) ->/);
const proxies = { proxy: await startProxy(false), ...(values.record ? { recording: await startProxy(true) } : {}) };
const bootstraps = { direct: brokerAddress, ...Object.fromEntries(Object.entries(proxies).map(([name, p]) => [name, p.match[1]])) };
const paths = Object.keys(bootstraps);

/** A process's CPU time so far in ms, all its threads (schedstat: nanoseconds, not 10 ms ticks). */
const cpuMs = (pid) => readdirSync(`/proc/${pid}/task`)
  .reduce((ms, task) => ms + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
/** A process's kernel (system) time so far in ms: the recorder's file writes are mostly this. */
const systemMs = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[12]) * 10;
/** MB/s of one kcat run against `path`, and the CPU (and system) ms per MB its proxy spent meanwhile. */
const timed = async (path, args, cpu, system) => {
  const pid = proxies[path]?.child.pid;
  const before = pid === undefined ? 0 : cpuMs(pid);
  const systemBefore = pid === undefined ? 0 : systemMs(pid);
  const rate = Number(values.mb) / await kcat(args);
  if (pid !== undefined) {
    cpu[path].push((cpuMs(pid) - before) / Number(values.mb));
    system[path].push((systemMs(pid) - systemBefore) / Number(values.mb));
  }
  return rate;
};

/** CPU ms per MB of writing `bytes` through the page cache to a new file a MiB at a time (kept until the end, as the recording is). */
const writeFloor = (bytes, name) => {
  const fd = openSync(join(dir, name), 'w');
  const chunk = Buffer.alloc(1 << 20, 1);
  const before = process.cpuUsage();
  for (let left = bytes; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  const spent = process.cpuUsage(before);
  closeSync(fd);
  return (spent.user + spent.system) / 1000 / (bytes / 1e6);
};
const floor = [];
/** The recording's size so far (its file may not be open yet). */
const recordedBytes = () => { try { return statSync(recordFile).size; } catch { return 0; } };

const rows = { produce: {}, consume: {} };
const cpu = { produce: {}, consume: {} };
const system = { produce: {}, consume: {} };
for (const table of [rows, cpu, system]) for (const row of Object.values(table)) for (const path of paths) row[path] = [];
const loadBefore = loadavg();
try {
  for (let run = 0; run < runs; run++) {
    // Rotate which path goes first, so drift in the machine's load is shared.
    const order = paths.map((_, i) => paths[(i + run) % paths.length]);
    const recorded = recordedBytes();
    for (const path of order) {
      const t = `bench-${run}-${path}`;
      rows.produce[path].push(await timed(path, ['-b', bootstraps[path], '-P', '-t', t, '-l', input, '-X', 'linger.ms=5', '-X', 'batch.size=1000000'], cpu.produce, system.produce));
      rows.consume[path].push(await timed(path, ['-b', bootstraps[path], '-C', '-t', t, '-o', 'beginning', '-e', '-q', '-c', String(messages)], cpu.consume, system.consume));
    }
    if (values.record) floor.push(writeFloor(recordedBytes() - recorded, `floor-${run}`));
  }
} finally {
  for (const p of Object.values(proxies)) p.child.kill('SIGINT');
  broker.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
const loadAfter = loadavg();

function quartiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}
const mbps = (xs) => { const q = quartiles(xs); return `${q.median.toFixed(0)} MB/s (q1 ${q.q1.toFixed(0)}, q3 ${q.q3.toFixed(0)})`; };
const percent = (q) => `${(q.median * 100).toFixed(1)}% (q1 ${(q.q1 * 100).toFixed(1)}%, q3 ${(q.q3 * 100).toFixed(1)}%)`;
// A cost from each round's own ratio, so the round's shared load cancels.
const costOf = (of, against) => quartiles(against.map((x, i) => 1 - of[i] / x));
const cost = (of, against) => percent(costOf(of, against));
/** What recording adds to the plain proxy's CPU per MB, round by round. */
const addedOf = (row) => quartiles(row.recording.map((x, i) => x / row.proxy[i] - 1));
const ms = (xs) => { const q = quartiles(xs); return `${q.median.toFixed(2)} (q1 ${q.q1.toFixed(2)}, q3 ${q.q3.toFixed(2)})`; };
console.log(`${values.mb} MB of ${messageSize}-byte messages, kcat against the memory broker, ${runs} interleaved rounds, CLI ${values.cli}`);
for (const [name, row] of Object.entries(rows)) {
  let line = `${name.padEnd(8)} direct ${mbps(row.direct)}, proxied ${mbps(row.proxy)}, proxy cost ${cost(row.proxy, row.direct)}`;
  if (row.recording !== undefined) line += `; recording ${mbps(row.recording)}, recording cost against the plain proxy ${cost(row.recording, row.proxy)}, against direct ${cost(row.recording, row.direct)}`;
  console.log(line);
  let work = `${''.padEnd(8)} proxy CPU ms per MB: plain ${ms(cpu[name].proxy)} (system ${ms(system[name].proxy)})`;
  if (row.recording !== undefined) work += `, recording ${ms(cpu[name].recording)} (system ${ms(system[name].recording)}); recording adds ${percent(addedOf(cpu[name]))} to the plain proxy's CPU`;
  console.log(work);
}
if (values.record) console.log(`writing the recorded bytes through the page cache to a new file would cost ${ms(floor)} ms of CPU per MB here`);
// The goal, on the medians: recording costs under 10% of the plain proxy's throughput. The
// other two figures are reported with no goal of their own.
const GOAL = 0.1;
const medians = (costs) => Object.entries(costs).map(([name, q]) => `${name} ${(q.median * 100).toFixed(1)}%`).join(', ');
const each = (f) => Object.fromEntries(Object.keys(rows).map((name) => [name, f(name)]));
console.log(`reported: proxy throughput cost against direct: ${medians(each((name) => costOf(rows[name].proxy, rows[name].direct)))}`);
if (values.record) {
  const costs = each((name) => costOf(rows[name].recording, rows[name].proxy));
  const held = Object.values(costs).every((q) => q.median < GOAL);
  console.log(`goal: recording throughput cost against the plain proxy < ${GOAL * 100}%: ${medians(costs)}: ${held ? 'held' : 'NOT HELD'}`);
  console.log(`reported: CPU per MB recording adds to the plain proxy's: ${medians(each((name) => addedOf(cpu[name])))}`);
}
console.log(`load average (1, 5, 15 min): before ${loadBefore.map((x) => x.toFixed(1)).join(', ')}; after ${loadAfter.map((x) => x.toFixed(1)).join(', ')}`);
