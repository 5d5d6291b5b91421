// The import benchmark: consume N records (100-byte values, uncompressed and lz4) from a
// `kafka-wire broker` process over loopback, as JSON lines to /dev/null, with `kafka-wire consume`,
// `kcat -C -J` (librdkafka, C), and small kafkajs and @platformatic/kafka 2.x / 1.x consumer
// scripts (bench/import/). Each run is a fresh process timed by wall clock; in each round every
// contender runs once (order rotating), so ratios are medians of per-round pairs. Before timing,
// each contender's output is checked once: N lines, and the JavaScript contenders' lines the same
// bytes as kafka-wire's. With --kafka the same contenders also read from a real Apache Kafka (one
// node, kafka/cluster.mjs), a topic per codec (none, lz4, zstd) filled by Kafka's Java producer:
// rows "kafka:CODEC" beside the memory broker's.
//   node bench/import.mjs [--records N] [--pairs N] [--partitions N] [--kafka] [--baseline DIR]   (run.mjs --only import calls runImport)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binOf, ROOT } from './lib/data.mjs';
import { median, ratioStats, pairRatios } from './lib/report.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CLI = binOf(ROOT);
const TOPIC = 'import';
export const IMPORT_CODECS = ['none', 'lz4'];
/** The real broker's topics, each filled by the Java producer with this compression.type. */
export const KAFKA_IMPORT_CODECS = ['none', 'lz4', 'zstd'];
export const VALUE_BYTES = 100;

/**
 * The contenders: each a command line reading every partition of topic `t` from address `a` to its
 * end (`real`: a real Kafka, which the platformatic scripts fetch from by topic id).
 */
const CONTENDERS = [
  { id: 'kafka-wire', label: 'kafka-wire consume', argv: (a, t) => [process.execPath, CLI, 'consume', '-b', a, '-t', t, '-e'], js: true },
  { id: 'kcat', label: 'kcat -C -J (librdkafka)', argv: (a, t) => ['kcat', '-C', '-b', a, '-t', t, '-o', 'beginning', '-e', '-J', '-q'], peer: 'c' },
  { id: 'kafkajs', label: 'kafkajs script', argv: (a, t) => [process.execPath, join(HERE, 'import/kafkajs.mjs'), a, t], js: true, peer: 'js' },
  { id: 'platformatic', label: '@platformatic/kafka 2.x script', argv: (a, t, real) => [process.execPath, join(HERE, 'import/platformatic.mjs'), a, t, ...(real ? ['by-id'] : [])], js: true, peer: 'js' },
  { id: 'platformatic1', label: '@platformatic/kafka 1.x script', argv: (a, t, real) => [process.execPath, join(HERE, 'import/platformatic.mjs'), a, t, ...(real ? ['by-id'] : [])], env: { PACKAGE: 'platformatic-kafka-1' }, js: true, peer: 'js' },
];

/**
 * With a baseline (run.mjs's --baseline DIR, passed on in KAFKA_WIRE_BENCH_BASELINE, or this file's
 * own --baseline DIR), the CLI built in DIR runs as one more contender in the same rounds: its
 * "kafka-wire vs this" ratio is the change's before/after per pair. It is no peer: no goal counts it.
 */
function baselineContender(dir) {
  const cli = binOf(dir);
  return { id: 'kafka-wire@baseline', label: `kafka-wire consume (baseline ${dir})`, argv: (a, t) => [process.execPath, cli, 'consume', '-b', a, '-t', t, '-e'], js: true };
}

export function kcatAvailable() {
  return spawnSync('kcat', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Starts `kafka-wire broker` filled with `records` records; resolves with its address and a stop function. */
async function startBroker(records, partitions, codec) {
  const child = spawn(process.execPath, [CLI, 'broker', '--listen', '127.0.0.1:0', '--topic', `${TOPIC}:${partitions}`,
    '--fill', String(records), '--value-size', String(VALUE_BYTES), '--compression', codec], { stdio: ['ignore', 'pipe', 'inherit'] });
  const address = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.trim()); });
    child.on('exit', (code) => reject(new Error(`kafka-wire broker exited ${code} before listening`)));
  });
  return {
    address,
    stop: () => new Promise((resolve) => { child.on('exit', resolve); child.kill('SIGTERM'); }),
  };
}

/**
 * A one-node real Kafka with a topic per codec, each filled with `records` records (100-byte
 * values, `partitions` partitions) by Kafka's Java producer (dev.kafkawire.JavaClient's fill).
 */
async function startRealKafka(records, partitions, codecs, log) {
  const cluster = await import('../kafka/cluster.mjs');
  const why = await cluster.kafkaAvailable();
  if (why) throw new Error(`real Kafka is not available: ${why}`);
  const kafka = await cluster.startKafka({ nodes: 1, heap: '1g' });
  log(`import/kafka: Apache Kafka ${kafka.version} ready in ${kafka.startupMs} ms at ${kafka.bootstrap}`);
  try {
    for (const codec of codecs) {
      const topic = `${TOPIC}-${codec}`;
      await kafka.createTopic(topic, { partitions });
      const t0 = Date.now();
      const per = Math.ceil(records / partitions);
      const lines = Array.from({ length: partitions }, (_, p) => JSON.stringify({ fill: Math.min(per, records - p * per), partition: p, valueSize: VALUE_BYTES }));
      const r = await cluster.kafkaJava('dev.kafkawire.JavaClient', ['produce', kafka.bootstrap, topic, `compression.type=${codec}`, 'linger.ms=10', 'batch.size=262144'],
        { input: lines.join('\n'), jvmArgs: ['-Xmx1g'] });
      if (r.code !== 0) throw new Error(`the Java producer failed filling ${topic}:\n${r.stderr.slice(-2000)}`);
      log(`import/kafka:${codec}: ${topic} filled by the Java producer with ${records} records in ${Date.now() - t0} ms`);
    }
  } catch (error) {
    await kafka.stop({ keepLogs: true });
    throw error;
  }
  return kafka;
}

/** Runs one contender with stdout to `file`; resolves with the wall time in ms. */
function timed(c, source, file) {
  const fd = openSync(file, 'w');
  const t0 = process.hrtime.bigint();
  const [cmd, ...args] = c.argv(source.address, source.topic, source.real);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', fd, 'inherit'], env: { ...process.env, ...c.env } });
    child.on('error', reject);
    child.on('exit', (code) => {
      closeSync(fd);
      if (code !== 0) reject(new Error(`${c.id} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  });
}

/**
 * Line count and an order-independent digest of the lines (the sum of their SHA-256 prefixes):
 * contenders interleave partitions differently, each partition's records are the same.
 */
async function linesAndHash(file) {
  let lines = 0;
  let sum = 0n;
  let rest = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let i = buf.indexOf(10); i >= 0; start = i + 1, i = buf.indexOf(10, start)) {
      sum += createHash('sha256').update(buf.subarray(start, i)).digest().readBigUInt64BE(0);
      lines++;
    }
    rest = buf.subarray(start);
  }
  return { lines, sha256: BigInt.asUintN(64, sum).toString(16) };
}

/**
 * Every contender once to a file (the check, and a warm-up of the broker and the file cache), then
 * `pairs` rounds, each contender once per round in rotating order; the rows for one source.
 */
async function measure(contenders, source, { records, pairs, dir, log, name }) {
  const rows = contenders.map((c) => ({ id: c.id, label: c.label, peer: c.peer, runsMs: [] }));
  let reference;
  for (const [i, c] of contenders.entries()) {
    const file = join(dir, `${c.id}.jsonl`);
    try {
      await timed(c, source, file);
    } catch (error) {
      // A client that cannot read this source at all (@platformatic/kafka 2.x has no zstd on Node 20).
      rows[i].failed = error.message;
      rows[i].verified = false;
      rmSync(file, { force: true });
      log(`import/${name}/${c.id}: ${error.message}: left out`);
      continue;
    }
    const { lines, sha256 } = await linesAndHash(file);
    rmSync(file);
    rows[i].verified = lines === records && (!c.js || (reference ??= sha256) === sha256);
    if (!rows[i].verified) log(`import/${name}/${c.id}: ${lines} lines${c.js ? `, sha256 ${sha256} (kafka-wire: ${reference})` : ''}: CHECK FAILED`);
  }
  for (let round = 0; round < pairs; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (k + round) % contenders.length;
      if (rows[i].failed) continue;
      const ms = await timed(contenders[i], source, '/dev/null');
      rows[i].runsMs.push(ms);
      log(`[import ${round + 1}/${pairs}] ${name.padEnd(10)} ${contenders[i].id.padEnd(14)} ${ms.toFixed(0).padStart(7)} ms  ${(records / ms * 1000).toFixed(0).padStart(9)} records/s`);
    }
  }
  const ours = rows[0];
  for (const r of rows) {
    if (r.failed) continue;
    r.medianMs = median(r.runsMs);
    r.recordsPerSec = records / (r.medianMs / 1000);
    r.ratio = ratioStats(pairRatios(r.runsMs, ours.runsMs)); // this row's time / ours: above 1, ours is faster
  }
  return rows;
}

/**
 * The whole import benchmark; returns { records, partitions, pairs, codecs: { codec: rows } }, with
 * `kafka: true` also rows "kafka:CODEC" read from a real Kafka.
 */
export async function runImport({ records = 1_000_000, pairs = 3, partitions = 4, kafka = false, baseline = process.env.KAFKA_WIRE_BENCH_BASELINE, log = console.log } = {}) {
  const contenders = CONTENDERS.filter((c) => c.id !== 'kcat' || kcatAvailable());
  if (baseline) contenders.splice(1, 0, baselineContender(baseline));
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-import-'));
  const result = { records, partitions, valueBytes: VALUE_BYTES, pairs, codecs: {} };
  const options = { records, pairs, dir, log };
  try {
    for (const codec of IMPORT_CODECS) {
      const t0 = Date.now();
      const broker = await startBroker(records, partitions, codec);
      log(`import/${codec}: broker at ${broker.address} filled with ${records} records in ${Date.now() - t0} ms`);
      try {
        result.codecs[codec] = await measure(contenders, { address: broker.address, topic: TOPIC, real: false }, { ...options, name: codec });
      } finally {
        await broker.stop();
      }
    }
    if (kafka) {
      const real = await startRealKafka(records, partitions, KAFKA_IMPORT_CODECS, log);
      result.kafkaVersion = real.version;
      try {
        for (const codec of KAFKA_IMPORT_CODECS) {
          const source = { address: real.bootstrap, topic: `${TOPIC}-${codec}`, real: true };
          result.codecs[`kafka:${codec}`] = await measure(contenders, source, { ...options, name: `kafka:${codec}` });
        }
      } finally {
        await real.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/**
 * The import goals: at least 2x the faster JavaScript peer, and against kcat at least 1x from the
 * memory broker and 3x from a real Kafka (rows "kafka:CODEC").
 */
export function importGoals(result) {
  const out = [];
  for (const [codec, rows] of Object.entries(result.codecs)) {
    const kcatTarget = codec.startsWith('kafka:') ? 3 : 1;
    const source = codec.startsWith('kafka:') ? `real Kafka, ${codec.slice(6)}` : `kafka-wire broker, ${codec}`;
    const js = rows.filter((r) => r.peer === 'js' && !r.failed).sort((a, b) => a.medianMs - b.medianMs)[0];
    const c = rows.find((r) => r.peer === 'c');
    // Every contender that ran gave the right lines (one that cannot read this codec is left out, and said so).
    const checked = rows.every((r) => r.verified || r.failed);
    const show = (r) => `${r.ratio.median.toFixed(2)}x [${r.ratio.q1.toFixed(2)}-${r.ratio.q3.toFixed(2)}] vs ${r.label} (${fmt(rows[0].recordsPerSec)} vs ${fmt(r.recordsPerSec)} records/s, ${r.ratio.pairs.length} pairs)`;
    if (js) out.push({ goal: `Import end to end, ${source}: kafka-wire consume vs the fastest JavaScript client`, target: '>= 2x', value: js.ratio.median, display: show(js), holds: js.ratio.median >= 2 && checked });
    if (c) out.push({ goal: `Import end to end, ${source}: kafka-wire consume vs kcat`, target: `>= ${kcatTarget}x`, value: c.ratio.median, display: show(c), holds: c.ratio.median >= kcatTarget && checked });
    else out.push({ goal: `Import end to end, ${source}: kafka-wire consume vs kcat`, target: `>= ${kcatTarget}x`, value: null, display: 'kcat not installed', holds: null });
  }
  return out;
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : `${(x / 1e3).toFixed(0)} k`);

/** The import table, as text lines (or markdown). */
export function importTable(result, markdown = false) {
  const head = ['contender', 'records/s (median)', 'time (median)', 'kafka-wire vs this (paired median [quartiles])', 'checked'];
  const L = [markdown ? `## Import end to end: ${result.records} records (${result.valueBytes}-byte values, ${result.partitions} partitions) over loopback, JSON lines to /dev/null` : `== Import end to end: ${result.records} records, ${result.partitions} partitions, JSON lines to /dev/null ==`];
  for (const [codec, rows] of Object.entries(result.codecs)) {
    const source = codec.startsWith('kafka:') ? `Apache Kafka ${result.kafkaVersion ?? ''} (one node, filled by its Java producer), ${codec.slice(6)}` : `kafka-wire broker, ${codec}`;
    const cells = [head, ...rows.map((r) => r.failed ? [r.label, 'n/a', 'n/a', '', `no: ${r.failed}`] : [r.label, fmt(r.recordsPerSec), `${(r.medianMs / 1000).toFixed(2)} s`, r.id === 'kafka-wire' ? '' : `${r.ratio.median.toFixed(2)}x [${r.ratio.q1.toFixed(2)}-${r.ratio.q3.toFixed(2)}]`, r.verified ? 'yes' : 'MISMATCH'])];
    if (markdown) {
      L.push('', `**${source}**`, '', `| ${head.join(' | ')} |`, `| --- | ${head.slice(1).map(() => '---:').join(' | ')} |`);
      for (const row of cells.slice(1)) L.push(`| ${row.join(' | ')} |`);
    } else {
      L.push(`-- ${source}`);
      const w = head.map((_, i) => Math.max(...cells.map((row) => String(row[i]).length)));
      for (const row of cells) L.push('  ' + row.map((x, i) => (i === 0 ? String(x).padEnd(w[i]) : String(x).padStart(w[i]))).join('  '));
    }
  }
  return L;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const opt = (n, d) => { const i = process.argv.indexOf(n); return i >= 0 ? Number(process.argv[i + 1]) : d; };
  const at = process.argv.indexOf('--baseline');
  const baseline = at >= 0 ? process.argv[at + 1] : undefined;
  const result = await runImport({ records: opt('--records', 1_000_000), pairs: opt('--pairs', 3), partitions: opt('--partitions', 4), kafka: process.argv.includes('--kafka'), baseline });
  console.log(importTable(result).join('\n'));
  for (const g of importGoals(result)) console.log(`  ${g.holds === null ? 'n/a     ' : g.holds ? 'held    ' : 'NOT HELD'} ${g.goal}: ${g.display} (target ${g.target})`);
}
