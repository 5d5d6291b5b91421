// kafka-wire perf against Kafka's own load generators and kcat, records per second.
//
//   node bench/perf.mjs                         # 200,000 records (Kafka), 1,000,000 (memory broker), 3 pairs
//   node bench/perf.mjs --records 500000 --memory-records 2000000 --pairs 5 --only kafka|memory
//
// Real Kafka (one node, kafka/cluster.mjs): `kafka-wire perf produce` against Kafka's
// ProducerPerformance (the kafka-tools jar of the same version), 100-byte records, for acks 1 and
// all, compression none and lz4, both with linger.ms=5 and batch.size=1000000 (kafka-wire's
// defaults; Java's default batch.size is 16384), a new 3-partition topic per run; then
// `kafka-wire perf consume -G` against ConsumerPerformance (a new group each run) reading the same
// topic. The figure is each tool's own records/s line (its clock starts after the client is up,
// so the JVM's start-up is not in Java's figure, nor Node's in ours). Memory broker (a sink
// that forgets batches, bench/lib/sink-broker.mjs): `kafka-wire perf produce` against `kcat -P`
// loading the same 100-byte lines, acks all for both, timed as whole processes (start-up in both).
// Each pair runs the two tools back to back, the order alternating; ratios are per pair
// (ours / theirs, > 1 means kafka-wire is faster), reported as median [quartiles]. The load
// average is printed with every pair. Results: bench/results/perf.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafka, kafkaJava, KAFKA_VERSION } from '../kafka/cluster.mjs';
import { median, quantile } from './lib/report.mjs';
import { binOf, ROOT } from './lib/data.mjs';

const BIN = binOf(ROOT);
const argv = process.argv.slice(2);
const option = (name, fallback) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const RECORDS = Number(option('--records', '200000'));
/** The memory broker rows time whole processes: enough records that start-up is not all there is. */
const MEMORY_RECORDS = Number(option('--memory-records', '1000000'));
const PAIRS = Number(option('--pairs', '3'));
const ONLY = option('--only', 'kafka,memory').split(',');
const SIZE = 100;

/** Runs a command; resolves with stdout, stderr, exit code and wall time. */
function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

function check(r, what) {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${(r.stdout + r.stderr).slice(-2000)}`);
  return r;
}

/** records/sec of ProducerPerformance's (and our) final line. */
const produceRate = (text) => {
  const m = /^(\d+) records sent, ([\d.]+) records\/sec .*99\.9th\.$/m.exec(text);
  if (!m) throw new Error(`no final line in:\n${text.slice(-2000)}`);
  return { records: Number(m[1]), rate: Number(m[2]) };
};
/** nMsg.sec and the count of ConsumerPerformance's (and our) final line. */
const consumeRate = (text) => {
  const m = /^\d{4}-[^,]+, [^,]+, [\d.]+, [\d.]+, (\d+), ([\d.]+), /m.exec(text);
  if (!m) throw new Error(`no final line in:\n${text.slice(-2000)}`);
  return { records: Number(m[1]), rate: Number(m[2]) };
};

const stat = (xs) => `${fmt(median(xs))} [${fmt(quantile(xs, 0.25))}-${fmt(quantile(xs, 0.75))}]`;
const ratio = (xs) => `${median(xs).toFixed(2)} [${quantile(xs, 0.25).toFixed(2)}-${quantile(xs, 0.75).toFixed(2)}]`;
function fmt(n) { return Math.round(n).toLocaleString('en-US'); }
const load = () => loadavg()[0].toFixed(1);

const rows = [];
const loads = [];
let n = 0;

/** Runs `pairs` pairs of ours / theirs (order alternating); each returns records/s. */
async function pairs(label, ours, theirs, theirName) {
  const a = [];
  const b = [];
  for (let i = 0; i < PAIRS; i++) {
    const l = load();
    loads.push(Number(l));
    if (i % 2 === 0) { a.push(await ours()); b.push(await theirs()); } else { b.push(await theirs()); a.push(await ours()); }
    console.log(`  ${label} pair ${i + 1}: kafka-wire ${fmt(a[i])}, ${theirName} ${fmt(b[i])} records/s (load ${l})`);
  }
  rows.push({ label, theirName, ours: stat(a), theirs: stat(b), ratio: ratio(a.map((x, i) => x / b[i])) });
}

const lines = [];
console.log(`kafka-wire perf bench: ${RECORDS} records of ${SIZE} B (memory broker: ${MEMORY_RECORDS}), ${PAIRS} pairs, ${cpus().length} cores, load ${load()}`);

if (ONLY.includes('kafka')) {
  const kafka = await startKafka({ nodes: 1 });
  try {
    console.log(`Kafka ${KAFKA_VERSION} at ${kafka.bootstrap}`);
    const consumeTopics = [];
    for (const acks of ['1', 'all']) {
      for (const codec of ['none', 'lz4']) {
        const label = `produce acks=${acks} ${codec}`;
        await pairs(label, async () => {
          const topic = `kw-${++n}`;
          await kafka.createTopic(topic, { partitions: 3 });
          const r = check(await run(process.execPath, [BIN, 'perf', 'produce', '-b', kafka.bootstrap, '-t', topic, '--records', String(RECORDS),
            '--record-size', String(SIZE), '--acks', acks, '-z', codec, '-X', 'linger.ms=5', '-X', 'batch.size=1000000']), label);
          const p = produceRate(r.stdout);
          if (p.records !== RECORDS) throw new Error(`${label}: ${p.records} records acknowledged`);
          if (codec === 'none' && acks === 'all') consumeTopics.push(topic);
          return p.rate;
        }, async () => {
          const topic = `java-${++n}`;
          await kafka.createTopic(topic, { partitions: 3 });
          const r = check(await kafkaJava('org.apache.kafka.tools.ProducerPerformance', ['--bootstrap-server', kafka.bootstrap, '--topic', topic,
            '--num-records', String(RECORDS), '--record-size', String(SIZE), '--throughput', '-1',
            '--command-property', `acks=${acks}`, `compression.type=${codec}`, 'linger.ms=5', 'batch.size=1000000'], { timeoutMs: 600_000 }), label);
          const p = produceRate(r.stdout);
          if (p.records !== RECORDS) throw new Error(`${label} (Java): ${p.records} records`);
          return p.rate;
        }, 'ProducerPerformance');
      }
    }
    let g = 0;
    await pairs('consume -G (3 partitions)', async () => {
      const r = check(await run(process.execPath, [BIN, 'perf', 'consume', '-b', kafka.bootstrap, '-t', consumeTopics[0], '--records', String(RECORDS), '-G', `kw-g-${++g}`]), 'consume');
      const c = consumeRate(r.stdout);
      if (c.records !== RECORDS) throw new Error(`consume: ${c.records} records`);
      return c.rate;
    }, async () => {
      const r = check(await kafkaJava('org.apache.kafka.tools.ConsumerPerformance', ['--bootstrap-server', kafka.bootstrap, '--topic', consumeTopics[0],
        '--num-records', String(RECORDS), '--group', `java-g-${++g}`, '--timeout', '60000'], { timeoutMs: 600_000 }), 'ConsumerPerformance');
      const c = consumeRate(r.stdout);
      if (c.records < RECORDS) throw new Error(`ConsumerPerformance: ${c.records} records`);
      return c.rate;
    }, 'ConsumerPerformance');
  } finally {
    await kafka.stop();
  }
}

if (ONLY.includes('memory')) {
  const dir = mkdtempSync(join(tmpdir(), 'kw-perf-bench-'));
  const sink = spawn(process.execPath, [join(ROOT, 'bench/lib/sink-broker.mjs'), 'sink', '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const bootstrap = await new Promise((resolve) => sink.stdout.once('data', (d) => resolve(String(d).trim())));
    // The same 100-byte records for kcat: random upper-case letters, one per line.
    const file = join(dir, 'records.txt');
    const line = () => { let s = ''; for (let i = 0; i < SIZE; i++) s += String.fromCharCode(65 + Math.floor(Math.random() * 26)); return s; };
    const pool = Array.from({ length: 1024 }, line);
    writeFileSync(file, Array.from({ length: MEMORY_RECORDS }, (_, i) => pool[i % pool.length]).join('\n') + '\n');
    await pairs('produce acks=all, memory broker, whole process', async () => {
      const r = check(await run(process.execPath, [BIN, 'perf', 'produce', '-b', bootstrap, '-t', 'sink', '--records', String(MEMORY_RECORDS), '--record-size', String(SIZE)]), 'perf produce');
      if (produceRate(r.stdout).records !== MEMORY_RECORDS) throw new Error('perf produce: short');
      return MEMORY_RECORDS / (r.ms / 1000);
    }, async () => {
      const r = check(await run('kcat', ['-P', '-b', bootstrap, '-t', 'sink', '-X', 'acks=all', '-l', file]), 'kcat -P');
      return MEMORY_RECORDS / (r.ms / 1000);
    }, 'kcat -P');
  } finally {
    sink.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

lines.push(`# kafka-wire perf vs Kafka's perf tools and kcat`, '',
  `${RECORDS} records of ${SIZE} B per Kafka run (${MEMORY_RECORDS} per memory-broker run), ${PAIRS} pairs per row, ${cpus().length} cores, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} during the runs, Kafka ${KAFKA_VERSION}, ${new Date().toISOString()}.`,
  'Command: `node bench/perf.mjs ' + argv.join(' ') + '`', '',
  '| run | kafka-wire records/s | other | other records/s | kafka-wire / other, per pair |', '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.label} | ${r.ours} | ${r.theirName} | ${r.theirs} | ${r.ratio} |`));
console.log('\n' + lines.join('\n'));
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/perf.md'), lines.join('\n') + '\n');
