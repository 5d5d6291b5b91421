// Decompression against native: kafka-wire's decode of the reference tools' own output (zstd -3,
// lz4 -1 frames, libsnappy raw blocks) beside the native libraries' in-process decode of the same
// bytes, measured in the same run, on three inputs: the zstd fixture's records
// (bench/fixtures/records-1000.zst, decompressed), 1 MiB of JSON events (./events.mjs) and 1 MiB
// of records-like text with random ids.
//
// The native side is bench/native/decode.c, compiled here against Debian's libzstd, liblz4 and
// libsnappy: it times whole decodes (zstd: ZSTD_decompressDCtx; lz4: LZ4F_decompress of the frame,
// content checksum included, and LZ4_decompress_safe on the frame's blocks alone; snappy: snappy_uncompress) exactly as kafka-wire is timed here, the
// fastest batch of 4 calls within a 1 s window. The tools' own benchmarks (`zstd -b3`, `lz4 -b1`
// on raw blocks they make themselves, no frame or checksum, so lz4 rows also time kafka-wire on
// the same frame made without its content checksum, `lz4 --no-frame-crc`, as the like-for-like
// figure; python3-snappy's uncompress in a loop)
// run in the same round: they time ~1 s loops of wall clock, so on a loaded machine they fall with
// the load while batch minima do not, but on an idle one `lz4 -b1` is the faster of the two. The
// goal's denominator is, in each round, the faster of the two native figures. Every round runs
// the harness, the tool and kafka-wire back to back (in the same stretch of a loaded machine); a
// row gives MB/s (10^6 bytes/s) as medians with quartiles over rounds and the median (quartiles)
// of the per-round ratio kafka-wire / native. With `--against DIR` an older build's dist/ runs in
// the same rounds.
//
//   node bench/lib/decompress.mjs [--rounds N] [--against DIR] [--codecs zstd,lz4,snappy] [--json]   (needs npm run build,
//   gcc, zstd, lz4, python3-snappy and libzstd-dev liblz4-dev libsnappy-dev)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, FIXTURES } from './data.mjs';
import { jsonEvents } from './events.mjs';
import { prng } from './prng.mjs';
import { quartiles } from './compression.mjs';

/** The goals: kafka-wire's decode speed as a share of the native tool's. */
export const DECOMPRESS_GOALS = { zstd: 0.5, lz4: 1 / 3, snappy: 1 / 3 };
const CODECS = ['zstd', 'lz4', 'snappy'];
/** Seconds of each tool's timed window (its -i), and ours. */
const WINDOW_S = 1;
const PYTHON = '/usr/bin/python3';

/** `size` bytes of Kafka-record-like text lines: random ids and keys, a few enum fields, numbers. */
export function recordsText(size = 1 << 20, seed = 7) {
  const rnd = prng(seed);
  const hex = (n) => { let s = ''; for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rnd() * 16)]; return s; };
  const STATUS = ['CREATED', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];
  const parts = [];
  let length = 0;
  for (let offset = 5_000_000; length < size; offset++) {
    const line = `offset=${offset} key=${hex(16)} order=${hex(32)} customer=c${Math.floor(rnd() * 1e6)} ` +
      `status=${STATUS[Math.floor(rnd() * STATUS.length)]} total=${(rnd() * 1000).toFixed(2)} ts=${1_700_000_000_000 + offset * 7}\n`;
    parts.push(line);
    length += line.length;
  }
  return new TextEncoder().encode(parts.join('')).subarray(0, size);
}

export function decompressInputs() {
  const fixture = execFileSync('zstd', ['-d', '-c', join(FIXTURES, 'records-1000.zst')], { maxBuffer: 64 << 20 });
  return [
    { name: 'zstd fixture records', data: new Uint8Array(fixture) },
    { name: 'JSON events, 1 MiB', data: jsonEvents() },
    { name: 'records-like text, 1 MiB', data: recordsText() },
  ];
}

const SNAPPY_COMPRESS = 'import sys, snappy; sys.stdout.buffer.write(snappy.compress(sys.stdin.buffer.read()))';
// Fastest pass of snappy.uncompress over the compressed file within the window, as MB/s of output.
const SNAPPY_BENCH = `
import sys, time, snappy
c = open(sys.argv[1], 'rb').read(); n = len(snappy.uncompress(c)); window = float(sys.argv[2])
best = 1e9; start = time.perf_counter()
while time.perf_counter() - start < window:
    t = time.perf_counter()
    for _ in range(8): snappy.uncompress(c)
    best = min(best, (time.perf_counter() - t) / 8)
print(n / best / 1e6)`;

/** The reference tool's own compressed bytes for `codec`, or a reason it is missing. */
function toolCompress(codec, data) {
  const [cmd, args] = codec === 'zstd' ? ['zstd', ['-3', '-c', '-q']] : codec === 'lz4' ? ['lz4', ['-1', '-c', '-q']]
    : [PYTHON, ['-c', SNAPPY_COMPRESS]];
  return new Uint8Array(execFileSync(cmd, args, { input: data, maxBuffer: 64 << 20, stdio: ['pipe', 'pipe', 'ignore'] }));
}

const HARNESS = fileURLToPath(new URL('../native/decode.c', import.meta.url));

/** Compiles the native harness into `dir`; returns its path. */
function buildHarness(dir) {
  const exe = join(dir, 'decode');
  execFileSync('gcc', ['-O2', '-msse4.2', '-o', exe, HARNESS, '-lzstd', '-llz4', '-lsnappy', '-lz'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return exe;
}

/** The tool's own benchmark figure in MB/s (10^6 bytes/s) over `file` (the raw input; snappy: the compressed). */
function toolMBps(codec, file) {
  if (codec === 'snappy') {
    return Number(execFileSync(PYTHON, ['-c', SNAPPY_BENCH, file, String(WINDOW_S)], { encoding: 'utf8' }).trim());
  }
  const args = codec === 'zstd' ? ['-b3', `-i${WINDOW_S}`, file] : ['-b1', `-i${WINDOW_S}`, file];
  const run = spawnSync(codec, args, { encoding: 'utf8' });
  // The result line (after \r-separated progress) ends "..., <compress> MB/s, <decompress> MB/s", on stderr.
  const last = `${run.stdout}\n${run.stderr}`.split(/[\r\n]/).filter((l) => /MB\/s.*MB\/s/.test(l)).pop();
  const speeds = [...(last ?? '').matchAll(/([\d.]+) MB\/s/g)].map((m) => Number(m[1]));
  if (run.status !== 0 || speeds.length < 2) throw new Error(`cannot read ${codec}'s benchmark line: ${JSON.stringify((run.stderr ?? '').slice(-200))}`);
  return speeds[1];
}

/** Fastest batch of decode calls within the window, as MB/s of output. */
function oursMBps(decode, compressed, size) {
  const CALLS = 4;
  let best = Infinity;
  const start = process.hrtime.bigint();
  const window = BigInt(WINDOW_S * 1e9);
  while (process.hrtime.bigint() - start < window) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) decode(compressed);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / CALLS);
  }
  return size / best * 1000; // bytes per ns * 1000 = MB/s
}

/** Whether every tool is present (a reason string otherwise). */
export function decompressToolsMissing() {
  for (const [cmd, args] of [['zstd', ['-V']], ['lz4', ['-V']], [PYTHON, ['-c', 'import snappy']]]) {
    try { execFileSync(cmd, args, { stdio: 'ignore' }); } catch { return `${cmd} ${args.join(' ')} failed (apt-get install zstd lz4 python3-snappy)`; }
  }
  const dir = mkdtempSync(join(tmpdir(), 'kw-harness-'));
  try {
    buildHarness(dir);
  } catch (error) {
    return `cannot compile bench/native/decode.c (apt-get install gcc libzstd-dev liblz4-dev libsnappy-dev zlib1g-dev): ${error.stderr ?? error.message}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
}

/**
 * One row per (input, codec): native and kafka-wire MB/s and the ratio, over `rounds` pairs.
 * `against` (a dist/ directory) adds an older build in the same rounds.
 */
export async function decompressRows({ rounds = 5, against, codecs = CODECS } = {}) {
  const kw = await import(join(DIST, 'src/records/index.js'));
  const old = against ? await import(join(against, 'src/records/index.js')) : undefined;
  old?.crc32c(new Uint8Array(1)); // builds before 2026-12-01 failed a first snappy/lz4 decode before the module loaded
  const dir = mkdtempSync(join(tmpdir(), 'kw-decompress-'));
  const rows = [];
  try {
    const harness = buildHarness(dir);
    for (const input of decompressInputs()) {
      const raw = join(dir, 'input');
      writeFileSync(raw, input.data);
      for (const codec of codecs) {
        const compressed = toolCompress(codec, input.data);
        const compressedFile = join(dir, `input.${codec}`);
        writeFileSync(compressedFile, compressed);
        const decode = (d) => kw.decompress(codec, d);
        const out = decode(compressed);
        if (Buffer.compare(Buffer.from(out), Buffer.from(input.data)) !== 0) throw new Error(`kafka-wire misreads ${codec} of ${input.name}`);
        // lz4 -b1 times raw blocks with no frame checksum: our decode of the same frame without its
        // content checksum (lz4 --no-frame-crc) is the like-for-like figure beside it.
        const blockOnly = codec === 'lz4' ? new Uint8Array(execFileSync('lz4', ['-1', '-c', '-q', '--no-frame-crc'], { input: input.data, maxBuffer: 64 << 20 })) : undefined;
        if (blockOnly && Buffer.compare(Buffer.from(decode(blockOnly)), Buffer.from(input.data)) !== 0) throw new Error(`kafka-wire misreads lz4 --no-frame-crc of ${input.name}`);
        const native = [], tool = [], wire = [], before = [], block = [], nativeBlocks = [];
        const nativeMBps = (mode = codec) => Number(execFileSync(harness, [mode, compressedFile, String(input.data.length), String(WINDOW_S)], { encoding: 'utf8' }));
        for (let r = 0; r < rounds; r++) {
          native.push(nativeMBps());
          tool.push(toolMBps(codec, codec === 'snappy' ? compressedFile : raw));
          wire.push(oursMBps(decode, compressed, input.data.length));
          if (blockOnly) {
            nativeBlocks.push(nativeMBps('lz4blocks'));
            block.push(oursMBps(decode, blockOnly, input.data.length));
          }
          if (old) before.push(oursMBps((d) => old.decompress(codec, d), compressed, input.data.length));
        }
        const faster = native.map((n, i) => Math.max(n, tool[i]));
        const ratio = quartiles(wire.map((w, i) => w / faster[i]));
        rows.push({
          input: input.name, codec, bytes: input.data.length, toolRatio: input.data.length / compressed.length,
          data: input.data, native: quartiles(native), tool: quartiles(tool), wire: quartiles(wire), ratio,
          before: old ? quartiles(before) : undefined,
          block: blockOnly ? quartiles(block) : undefined, nativeBlocks: blockOnly ? quartiles(nativeBlocks) : undefined,
          blockRatio: blockOnly ? quartiles(block.map((b, i) => b / Math.max(nativeBlocks[i], tool[i]))) : undefined,
          beforeRatio: old ? quartiles(before.map((b, i) => b / faster[i])) : undefined,
          // lz4 holds only if it holds both ways: the frame against the faster native figure, and
          // block-only against raw blocks (the harness's or the tool's, the faster).
          goal: DECOMPRESS_GOALS[codec],
          held: ratio.median >= DECOMPRESS_GOALS[codec] && (!blockOnly || quartiles(block.map((b, i) => b / Math.max(nativeBlocks[i], tool[i]))).median >= DECOMPRESS_GOALS[codec]),
        });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Our own compression ratios, for the same inputs: zstd compression loads its module lazily, so
  // only now (every decode above ran without initZstd()).
  await kw.initZstd();
  for (const row of rows) {
    row.oursRatio = row.bytes / kw.compress(row.codec, row.data).length;
    delete row.data;
  }
  return rows;
}

const TOOL = { zstd: 'zstd -b3', lz4: 'lz4 -b1 (raw blocks, no checksum)', snappy: 'python3-snappy' };

/** The rows as a Markdown table. */
export function decompressTable(rows) {
  const q = (x, d = 0) => `${x.median.toFixed(d)} (${x.q1.toFixed(d)}–${x.q3.toFixed(d)})`;
  const pct = (x) => `${(x.median * 100).toFixed(0)}% (${(x.q1 * 100).toFixed(0)}–${(x.q3 * 100).toFixed(0)}%)`;
  const withBefore = rows.some((r) => r.before);
  const lines = [
    `| input | codec | native harness MB/s | tool's own benchmark MB/s | kafka-wire MB/s | kafka-wire / faster native | goal |${withBefore ? ' before MB/s | before / native |' : ''} ratio: tool / kafka-wire's own | like for like (lz4, raw blocks): kafka-wire MB/s without the content checksum vs LZ4_decompress_safe on the frame's blocks; share of the faster of that and lz4 -b1 |`,
    `|---|---|---:|---|---:|---:|---|${withBefore ? '---:|---:|' : ''}---|---|`,
  ];
  for (const r of rows) {
    // lz4: the tool's figure is raw blocks (no frame, no checksum); ours without the content checksum beside it.
    const like = r.block ? ` ${q(r.block)} vs raw blocks in the harness ${q(r.nativeBlocks)}: ${pct(r.blockRatio)} of the faster |` : ' |';
    lines.push(`| ${r.input} | ${r.codec} | ${q(r.native)} | ${TOOL[r.codec]}: ${q(r.tool)} | ${q(r.wire)} | ${pct(r.ratio)} | ` +
      `>= ${(r.goal * 100).toFixed(0)}%: ${r.held ? 'held' : 'NOT HELD'} |` +
      `${withBefore ? ` ${q(r.before)} | ${pct(r.beforeRatio)} |` : ''} ${r.toolRatio.toFixed(2)}× / ${r.oursRatio.toFixed(2)}× |${like}`);
  }
  return lines.join('\n');
}

/** One goal row per (input, codec), in bench/lib/report.mjs's shape. */
export function decompressGoals(rows) {
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  return rows.map((r) => ({
    goal: `${r.codec} decode of the tool's output, ${r.input}, vs native`,
    target: `>= ${pct(r.goal)} of native${r.block ? ' (frame with its checksum, and block-only against raw blocks)' : ''}`,
    display: `${pct(r.ratio.median)} [${pct(r.ratio.q1)}-${pct(r.ratio.q3)}] (${r.wire.median.toFixed(0)} vs ${Math.max(r.native.median, r.tool.median).toFixed(0)} MB/s)` +
      (r.block ? `; without the content checksum, against raw blocks: ${pct(r.blockRatio.median)} [${pct(r.blockRatio.q1)}-${pct(r.blockRatio.q3)}] (${r.block.median.toFixed(0)} vs ${Math.max(r.nativeBlocks.median, r.tool.median).toFixed(0)} MB/s)` : ''),
    holds: r.held,
  }));
}

/**
 * The Fetch rows with each codec against the least any consumer does with the same batch: the
 * native harness's CRC-32C check and decompression of records-<codec>.bin (bench/lib/data.mjs's
 * batch, the one inside that Fetch response), `rounds` times. `fetchRows` are the aggregated
 * kafka-wire eager rows by codec (bench/lib/report.mjs); the share is native time / kafka-wire's
 * whole decode (Fetch response, batch, every record's key, value and header), per round.
 */
export function fetchNativeRows(fetchRows, dataDir, rounds) {
  const dir = mkdtempSync(join(tmpdir(), 'kw-fetch-native-'));
  try {
    const harness = buildHarness(dir);
    return Object.entries(fetchRows).filter(([, row]) => row?.roundsMs?.length).map(([codec, row]) => {
      const file = join(dataDir, `records-${codec}.bin`);
      const nativeMs = Array.from({ length: rounds }, () => Number(execFileSync(harness, ['batch', codec, file, String(WINDOW_S / 2)], { encoding: 'utf8' })) / 1e6);
      const share = quartiles(row.roundsMs.map((ms, i) => nativeMs[i % nativeMs.length] / ms));
      return { codec, row: row.id, ours: quartiles(row.roundsMs), native: quartiles(nativeMs), share };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows in bench/lib/report.mjs's goal shape: rows to read, with no target (holds: null). */
export function fetchNativeGoals(rows) {
  const ms = (x) => `${(x.median * 1000).toFixed(0)} µs [${(x.q1 * 1000).toFixed(0)}-${(x.q3 * 1000).toFixed(0)}]`;
  return rows.map((r) => ({
    goal: `Fetch eager, 1 batch, ${r.codec}: kafka-wire's whole decode vs native decompress + CRC-32C of the same batch`,
    target: 'a row to read (no target)',
    display: `native ${ms(r.native)} = ${(r.share.median * 100).toFixed(0)}% [${(r.share.q1 * 100).toFixed(0)}-${(r.share.q3 * 100).toFixed(0)}%] of kafka-wire's ${ms(r.ours)} per batch`,
    holds: null, row: r.row,
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name) => { const at = args.indexOf(name); return at >= 0 ? args[at + 1] : undefined; };
  const missing = decompressToolsMissing();
  if (missing) throw new Error(missing);
  const rows = await decompressRows({ rounds: opt('--rounds') ? Number(opt('--rounds')) : undefined, against: opt('--against'), codecs: opt('--codecs')?.split(',') });
  console.log(args.includes('--json') ? JSON.stringify(rows, null, 2) : decompressTable(rows));
  const { loadavg } = await import('node:os');
  console.log(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
