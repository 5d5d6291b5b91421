// The produce benchmark: loading 1,000,000 lines `key<TAB>json` into a topic of 4 partitions.
//   CLI rows:     `kafka-wire produce -t T` (idempotent, its default) vs `kcat -P -K '\t' -t T`, the whole process
//                 timed by wall clock (start-up included), stdin the file itself (as `< file` in a shell;
//                 --stdin pipe streams it through this process instead); uncompressed and lz4.
//   Both: the process's CPU time (user + system, GNU time) beside the wall clock.
//   Library rows: kafka-wire's producer (write(), the bulk form; and send() of 10,000 records at a
//                 time) vs kafkajs and @platformatic/kafka producers, idempotence on in all, each in
//                 its own process, timed inside it from the first send to the last acknowledgement.
// Every run gets a fresh broker: a `kafka-wire broker` process (memory), or a new topic on one real
// Kafka node (--broker kafka). In every round each row runs once, the order rotating, so round i of
// two rows is a pair; ratios are medians of per-pair ratios with their quartiles. Each run's record
// count is checked with ListOffsets. The load average is printed with every round.
//
//   node bench/produce.mjs [--records 1000000] [--pairs 5] [--broker memory|kafka] [--only cli,lib] [--codecs none,lz4] [--stdin file|pipe] [--lines wide|small]
import { spawn, execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, openSync, closeSync, writeSync, writeFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { binOf, ROOT } from './lib/data.mjs';
import { median, quantile, pairRatios, ratioStats } from './lib/report.mjs';

const { values: args } = parseArgs({ options: {
  records: { type: 'string', default: '1000000' },
  pairs: { type: 'string', default: '5' },
  broker: { type: 'string', default: 'memory' },
  only: { type: 'string', default: 'cli,lib' },
  codecs: { type: 'string', default: 'none,lz4' },
  stdin: { type: 'string', default: 'file' },
  /** wide: `key<TAB>json` of about 81 bytes; small: 58 on average, 37-66 (`k<i><TAB>json`: issue 45's small records). */
  lines: { type: 'string', default: 'wide' },
} });
if (args.lines !== 'wide' && args.lines !== 'small') throw new Error(`--lines wide|small, not ${args.lines}`);
if (args.stdin !== 'file' && args.stdin !== 'pipe') throw new Error(`--stdin file|pipe, not ${args.stdin}`);
const N = Number(args.records);
const PAIRS = Number(args.pairs);
const CLI = binOf(ROOT);
const PARTITIONS = 4;

/** The input: N lines `key<TAB>json` (about 81 bytes a line, or 58 with --lines small), made once per N. */
const line = args.lines === 'wide'
  ? (i) => `key${i % 100000}\t${JSON.stringify({ id: i, user: `user${i}`, score: (i * 7) % 1000, active: i % 2 === 0, tag: 'abc' })}\n`
  : (i) => `k${i}\t${JSON.stringify({ id: i, n: `u${i % 1000}`, ok: i % 2 === 0, v: (i * 7) % 100 })}${'x'.repeat(i % 16)}\n`;
function inputFile() {
  const dir = join(tmpdir(), 'kafka-wire-produce-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `lines-${args.lines}-${N}.txt`);
  if (existsSync(file)) return file;
  const fd = openSync(file, 'w');
  let buf = [];
  for (let i = 0; i < N; i++) {
    buf.push(line(i));
    if (buf.length === 10000) { writeSync(fd, buf.join('')); buf = []; }
  }
  writeSync(fd, buf.join(''));
  closeSync(fd);
  return file;
}

function run(cmd, argv, { stdinFile, env } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const fromFile = stdinFile !== undefined && args.stdin === 'file';
    const fd = fromFile ? openSync(stdinFile, 'r') : undefined;
    const child = spawn(cmd, argv, { stdio: [fd ?? 'pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    if (fd !== undefined) closeSync(fd);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    if (fromFile) { /* the child reads the file itself */ } else if (stdinFile) createReadStream(stdinFile).pipe(child.stdin); else child.stdin.end();
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${cmd} ${argv.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      else resolve({ ms, out, err });
    });
  });
}

/** A fresh `kafka-wire broker` process with topic t; stopped by its PID. */
async function memoryBroker() {
  const child = spawn(process.execPath, [CLI, 'broker', '--listen', '127.0.0.1:0', '-t', `t:${PARTITIONS}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const rl = createInterface({ input: child.stdout });
  const bootstrap = await new Promise((resolve) => rl.once('line', (l) => resolve(l.trim())));
  rl.close();
  return { bootstrap, topic: 't', stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

let kafka;
let topicNumber = 0;
async function realBroker() {
  if (!kafka) {
    const { startKafka } = await import('../kafka/cluster.mjs');
    kafka = await startKafka({ nodes: 1 });
  }
  const topic = `produce-bench-${topicNumber++}`;
  await kafka.createTopic(topic, { partitions: PARTITIONS });
  return { bootstrap: kafka.bootstrap, topic, stop: async () => undefined };
}

/** Records in the topic, by ListOffsets (latest) over its partitions. */
async function countRecords(bootstrap, topic) {
  const { KafkaClient } = await import('../dist/src/wire/index.js');
  const client = new KafkaClient({ bootstrap });
  try {
    const info = await client.topic(topic);
    const conn = await client.leader(topic, 0);
    const res = await conn.request(2, Math.min(conn.versionFor(2), 7), { replicaId: -1, isolationLevel: 0,
      topics: [{ name: topic, partitions: info.partitions.map((p) => ({ partitionIndex: p.partition, timestamp: -1n })) }] });
    return res.topics[0].partitions.reduce((n, p) => n + Number(p.offset), 0);
  } finally {
    await client.close();
  }
}

const file = inputFile();
const bytes = statSync(file).size;
const rows = [];
for (const codec of args.codecs.split(',')) {
  if (args.only.includes('cli')) {
    rows.push({ group: `CLI, ${codec}`, name: 'kafka-wire produce', ours: true, codec,
      cmd: (b) => [process.execPath, [CLI, 'produce', '-b', b.bootstrap, '-t', b.topic, '-q', ...(codec === 'none' ? [] : ['-z', codec])]] });
    rows.push({ group: `CLI, ${codec}`, name: "kcat -P -K '\\t'", codec,
      cmd: (b) => ['kcat', ['-P', '-b', b.bootstrap, '-t', b.topic, '-K', '\t', ...(codec === 'none' ? [] : ['-z', codec])]] });
  }
  if (args.only.includes('lib')) {
    const script = (name) => join(ROOT, 'bench/produce', name);
    rows.push({ group: `library, idempotent, ${codec}`, name: 'kafka-wire write()', ours: true, codec, inner: true,
      cmd: (b) => [process.execPath, [script('kafka-wire.mjs'), b.bootstrap, b.topic, file, codec, 'stream']] });
    rows.push({ group: `library, idempotent, ${codec}`, name: 'kafka-wire send() x10k', ours: true, codec, inner: true,
      cmd: (b) => [process.execPath, [script('kafka-wire.mjs'), b.bootstrap, b.topic, file, codec, 'send']] });
    rows.push({ group: `library, idempotent, ${codec}`, name: 'kafkajs send() x10k', codec, inner: true,
      cmd: (b) => [process.execPath, [script('kafkajs.mjs'), b.bootstrap, b.topic, file, codec]] });
    rows.push({ group: `library, idempotent, ${codec}`, name: '@platformatic/kafka send() x10k', codec, inner: true,
      cmd: (b) => [process.execPath, [script('platformatic.mjs'), b.bootstrap, b.topic, file, codec]] });
  }
}
for (const r of rows) { r.times = []; r.cpu = []; }
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const loads = [];
console.log(`produce bench: ${N} lines (${(bytes / 1e6).toFixed(1)} MB), ${PARTITIONS} partitions, ${args.broker} broker, ${PAIRS} rounds`);
for (let round = 0; round < PAIRS; round++) {
  loads.push(loadavg()[0]);
  const groups = [...new Set(rows.map((r) => r.group))];
  for (const g of groups) {
    const members = rows.filter((r) => r.group === g);
    const order = members.map((_, i) => members[(i + round) % members.length]);
    for (const row of order) {
      const broker = args.broker === 'kafka' ? await realBroker() : await memoryBroker();
      try {
        const [cmd, argv] = row.cmd(broker);
        // CPU time (user + system) of the whole process, from GNU time when it is there: on a
        // loaded machine it says more than wall clock about the work each contender does.
        const res = TIME ? await run(TIME, ['-f', 'cpu %U %S', cmd, ...argv], { stdinFile: row.inner ? undefined : file })
          : await run(cmd, argv, { stdinFile: row.inner ? undefined : file });
        const ms = row.inner ? JSON.parse(res.out.trim().split('\n').pop()).ms : res.ms;
        const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(res.err);
        if (cpu) row.cpu.push((Number(cpu[1]) + Number(cpu[2])) * 1000);
        if (round === 0) {
          const count = await countRecords(broker.bootstrap, broker.topic);
          if (count !== N) throw new Error(`${row.name} (${g}): ${count} records in the topic, not ${N}`);
        }
        row.times.push(ms);
      } finally {
        await broker.stop();
      }
    }
  }
  console.log(`round ${round + 1}/${PAIRS} done, load average ${loads[round].toFixed(1)}`);
}
await kafka?.stop();

const lines = [`Produce bench: ${N.toLocaleString('en')} lines key<TAB>json (${(bytes / 1e6).toFixed(1)} MB) into ${PARTITIONS} partitions, ${args.broker === 'kafka' ? 'a new topic on one real Kafka node (4.4.0)' : 'a fresh kafka-wire memory broker process'} per run; stdin ${args.stdin === 'file' ? 'the file itself' : 'a pipe from the bench process'}; ${PAIRS} rounds; load average (1 min) at each round: ${loads.map((l) => l.toFixed(1)).join(', ')} on ${execFileSync('nproc').toString().trim()} cores.`, '',
  '| group | contender | time median (quartiles) | records/s | ours vs this (paired median [quartiles]) | process CPU s median (quartiles) | ours vs this, CPU |', '| --- | --- | --- | --- | --- | --- | --- |'];
for (const g of [...new Set(rows.map((r) => r.group))]) {
  const members = rows.filter((r) => r.group === g);
  const ours = members[0];
  for (const r of members) {
    const ratio = r === ours ? '' : (() => { const s = ratioStats(pairRatios(r.times, ours.times)); return `${s.median.toFixed(2)}x [${s.q1.toFixed(2)}-${s.q3.toFixed(2)}]`; })();
    const cpu = r.cpu.length ? `${(median(r.cpu) / 1000).toFixed(2)} (${(quantile(r.cpu, 0.25) / 1000).toFixed(2)}-${(quantile(r.cpu, 0.75) / 1000).toFixed(2)})` : 'n/a';
    const cpuRatio = r === ours || !r.cpu.length ? '' : (() => { const s = ratioStats(pairRatios(r.cpu, ours.cpu)); return `${s.median.toFixed(2)}x [${s.q1.toFixed(2)}-${s.q3.toFixed(2)}]`; })();
    lines.push(`| ${g} | ${r.name} | ${(median(r.times) / 1000).toFixed(3)} s (${(quantile(r.times, 0.25) / 1000).toFixed(3)}-${(quantile(r.times, 0.75) / 1000).toFixed(3)}) | ${Math.round(N / median(r.times) * 1000).toLocaleString('en')} | ${ratio} | ${cpu} | ${cpuRatio} |`);
  }
}
const text = lines.join('\n') + '\n';
console.log(text);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
// Each input shape keeps its own table (the small lines are issue 45's goal 2).
writeFileSync(join(ROOT, 'bench/results', `produce-${args.broker}${args.lines === 'small' ? '-small' : ''}.md`), text);
