// Compression rows: compress and decompress MB/s and the ratio per codec on 1 MiB of JSON events
// (bench/lib/events.mjs), kafka-wire beside @platformatic/kafka's and kafkajs's codecs on the
// same bytes, with the reference command-line tools' sizes for scale. Contenders run in
// interleaved rounds (each round times every contender once, so load bursts hit all alike) and
// time CPU, not wall clock; rows give the median MB/s with its quartiles. Every contender's output
// is checked to decompress to the input, by itself and by kafka-wire, before anything is timed.
//
//   node bench/lib/compression.mjs [--rounds N] [--json]     (needs npm run build)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST } from './data.mjs';
import { jsonEvents } from './events.mjs';

const require = createRequire(import.meta.url);
const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'];
/** Calls per timed sample: a 1 MiB call takes about a millisecond, near the CPU clock's grain. */
const CALLS = 3;

/** The reference tools, for the ratio column only (not timed: they are separate processes). */
const REFERENCE = {
  gzip: ['gzip', ['-6', '-c']],
  snappy: ['/usr/bin/python3', ['-c', 'import sys, snappy; sys.stdout.buffer.write(snappy.compress(sys.stdin.buffer.read()))']],
  lz4: ['lz4', ['-1', '-c']],
  zstd: ['zstd', ['-3', '-c']],
};
const REFERENCE_NAMES = { gzip: 'gzip -6', snappy: 'libsnappy', lz4: 'lz4 -1', zstd: 'zstd -3' };

/** Each contender: codec -> { compress, decompress } or a reason it cannot take part. */
async function contenders() {
  const kw = await import(join(DIST, 'src/records/index.js'));
  await kw.initZstd();
  const wire = Object.fromEntries(CODECS.map((c) => [c, { compress: (d) => kw.compress(c, d), decompress: (d) => kw.decompress(c, d) }]));
  const { compressionsAlgorithms: p } = await import('@platformatic/kafka');
  const platformatic = Object.fromEntries(CODECS.map((c) => [c, p[c].available
    ? { compress: (d) => p[c].compressSync(Buffer.from(d.buffer, d.byteOffset, d.length)), decompress: (d) => p[c].decompressSync(Buffer.from(d.buffer, d.byteOffset, d.length)) }
    : { na: `needs node:zlib zstd (Node >= 22.15; this is ${process.version})` }]));
  const kafkajsCodecs = require('kafkajs/src/protocol/message/compression/index.js');
  const gzip = kafkajsCodecs.Codecs[kafkajsCodecs.Types.GZIP]();
  const kafkajs = Object.fromEntries(CODECS.map((c) => [c, c === 'gzip'
    // kafkajs's codec API is asynchronous (zlib on the thread pool): awaited per call.
    ? { compress: (d) => gzip.compress({ buffer: Buffer.from(d) }), decompress: (d) => gzip.decompress(Buffer.from(d)) }
    : { na: 'not built in (a plugin package, not installed)' }]));
  return { 'kafka-wire': { codecs: wire, check: kw }, '@platformatic/kafka': { codecs: platformatic }, kafkajs: { codecs: kafkajs } };
}

const same = (a, b) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));

/** CPU microseconds per call of fn, averaged over CALLS calls. */
async function cpuTime(fn, arg) {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await fn(arg);
  const d = process.cpuUsage(start);
  return (d.user + d.system) / CALLS;
}

export function quartiles(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}

function referenceSize(codec, data) {
  const [command, args] = REFERENCE[codec];
  try {
    return execFileSync(command, args, { input: data, maxBuffer: 64 << 20, stdio: ['pipe', 'pipe', 'ignore'] }).length;
  } catch {
    return undefined;
  }
}

/** Measures every codec of every contender; returns one row per (codec, contender). */
export async function compressionRows({ rounds = 25, data = jsonEvents() } = {}) {
  const all = await contenders();
  const kw = all['kafka-wire'].check;
  const rows = [];
  for (const codec of CODECS) {
    const live = [];
    const absent = [];
    for (const [name, { codecs }] of Object.entries(all)) {
      const c = codecs[codec];
      if (c.na) { absent.push({ codec, contender: name, na: c.na }); continue; }
      const compressed = new Uint8Array(await c.compress(data));
      if (!same(new Uint8Array(await c.decompress(compressed)), data)) throw new Error(`${name} ${codec} does not round-trip`);
      if (!same(kw.decompress(codec, compressed), data)) throw new Error(`kafka-wire cannot read ${name}'s ${codec}`);
      live.push({ name, c, compressed, compressUs: [], decompressUs: [] });
    }
    for (let r = 0; r < rounds; r++) {
      for (const x of live) {
        x.compressUs.push(await cpuTime(x.c.compress, data));
        x.decompressUs.push(await cpuTime(x.c.decompress, x.compressed));
      }
    }
    const reference = referenceSize(codec, data);
    for (const x of live) {
      const mbps = (us) => quartiles(us.map((t) => data.length / t)); // bytes per microsecond = MB/s
      rows.push({
        codec, contender: x.name, bytes: data.length, compressedBytes: x.compressed.length, ratio: data.length / x.compressed.length,
        compressMBps: mbps(x.compressUs), decompressMBps: mbps(x.decompressUs),
        reference: reference === undefined ? undefined : { tool: REFERENCE_NAMES[codec], compressedBytes: reference, ratio: data.length / reference },
      });
    }
    rows.push(...absent);
  }
  return rows;
}

/** The rows as a Markdown table. */
export function compressionTable(rows) {
  const speed = (q) => `${q.median.toFixed(0)} (${q.q1.toFixed(0)}–${q.q3.toFixed(0)})`;
  const lines = [
    '| codec | contender | compressed bytes | ratio | compress MB/s median (quartiles) | decompress MB/s median (quartiles) | reference tool: ratio |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    if (r.na) { lines.push(`| ${r.codec} | ${r.contender} | n/a | | | | ${r.na} |`); continue; }
    const ref = r.reference ? `${r.reference.tool}: ${r.reference.ratio.toFixed(2)}×` : 'tool missing';
    lines.push(`| ${r.codec} | ${r.contender} | ${r.compressedBytes} | ${r.ratio.toFixed(2)}× | ${speed(r.compressMBps)} | ${speed(r.decompressMBps)} | ${ref} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--rounds');
  const rows = await compressionRows({ rounds: at >= 0 ? Number(args[at + 1]) : undefined });
  console.log(args.includes('--json') ? JSON.stringify(rows, null, 2) : compressionTable(rows));
}
