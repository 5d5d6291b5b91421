// kafka-wire benchmark suite: kafka-wire vs kafkajs vs @platformatic/kafka 2.x and 1.x.
//
//   npm run bench                      full run (installs bench/package.json's peers first)
//   node bench/run.mjs --quick         smoke run (rough numbers)
//   node bench/run.mjs --only fetch    one or more workloads: fetch,produce,metadata,frames,crc,decompress,import
//   options: --rounds N (pairs per row; default 10)  --time MS (per task and round)  --no-mixed
//            --no-kafka (import from the kafka-wire broker only, not also from a real Kafka)
//            --baseline DIR (another checkout, dist/ built: each kafka-wire row is timed against
//            that build's in the same rounds; e.g. a worktree of the commit before a change)
//
// Every (task, round) runs in a fresh child process (bench/child.mjs) loading only its own
// contender's code. In each round the rows of one table run one after another (order rotating
// from round to round), so round i of two rows is a pair measured in the same stretch of the
// machine; ratios are medians of per-pair ratios (lib/report.mjs). Then one "mixed" process runs
// every task together. All contenders decode the same bytes (built once here, into a temporary
// directory) and must produce the same digest. The import workload (bench/import.mjs) consumes
// from a kafka-wire broker over loopback.
// Broker-level benches run on their own: bench/produce.mjs, bench/groups.mjs, and bench/perf.mjs
// (kafka-wire perf against Kafka's ProducerPerformance / ConsumerPerformance and kcat -P).
// Full runs write bench/results/latest.{json,md}; --quick / --only runs write
// bench/results/partial.{json,md}. Needs `npm run build` first (it benchmarks dist/).
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { cpus, totalmem, tmpdir, release, platform, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { buildData, ROOT, DIST } from './lib/data.mjs';
import { allTasks, sizeOf, WORKLOADS, KEPT_RESULTS } from './lib/tasks.mjs';
import { RecordsDigest, same } from './lib/digest.mjs';
import { aggregate, baselineTable, goals, textTables, markdown } from './lib/report.mjs';

// kafka-wire in this process only checks the Produce outputs (untimed); loaded below.
const kw = {};
const HERE = fileURLToPath(new URL('.', import.meta.url));
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
for (let i = 0; i < argv.length; i++) {
  if (['--quick', '--no-mixed', '--no-kafka'].includes(argv[i])) continue;
  if (['--only', '--rounds', '--time', '--baseline'].includes(argv[i])) { i++; continue; }
  console.error(`unknown argument ${argv[i]}\nusage: node bench/run.mjs [--quick] [--only ${ALL.join(',')}] [--rounds N] [--time MS] [--no-mixed] [--no-kafka] [--baseline DIR]`);
  process.exit(2);
}

const quick = flag('--quick');
const only = option('--only')?.split(',');
const ALL = [...WORKLOADS, 'decompress', 'import'];
if (only) for (const w of only) if (!ALL.includes(w)) { console.error(`--only: unknown workload ${w} (${ALL.join(', ')})`); process.exit(2); }
const params = {
  rounds: Number(option('--rounds') ?? (quick ? 3 : 10)),
  // Processes short enough for 10 pairs per row, long enough that the mean is not warm-up
  // (at 100 ms kafka-wire's Metadata decode measured 1.5x its 1 s figure, kafkajs's 1.05x).
  time: Number(option('--time') ?? (quick ? 80 : 250)),
  warmupTime: quick ? 30 : 100,
  iterations: quick ? 3 : 5,
  warmupIterations: quick ? 2 : 3,
  mixedRounds: flag('--no-mixed') ? 0 : 1,
  importPairs: quick ? 1 : 3,
  importRecords: quick ? 200_000 : 1_000_000,
};
const baseline = option('--baseline') === undefined ? undefined : resolve(option('--baseline'));
const partial = quick || only !== undefined || option('--rounds') !== undefined || option('--time') !== undefined || baseline !== undefined;
if (baseline !== undefined) {
  if (!existsSync(join(baseline, 'dist/src/index.js'))) {
    console.error(`--baseline ${baseline}: no dist/src/index.js there (run npm run build in it first)`);
    process.exit(2);
  }
  process.env.KAFKA_WIRE_BENCH_BASELINE = baseline; // read by tasks.mjs here and in every child
}

if (!existsSync(join(HERE, 'node_modules/tinybench'))) {
  console.error('bench/node_modules is missing: run npm run bench (or npm --prefix bench install) first');
  process.exit(1);
}
if (!existsSync(join(DIST, 'src/index.js')) || !existsSync(join(DIST, 'src/records/index.js'))) {
  console.error('dist/ is missing: run npm run build first');
  process.exit(1);
}
Object.assign(kw, await import(join(DIST, 'src/index.js')), await import(join(DIST, 'src/records/index.js')));

const machine = machineInfo();
console.log(`kafka-wire bench: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.date}`);
if (machine.loadAverage[0] > machine.cores / 2) console.log(`warning: load average ${machine.loadAverage[0].toFixed(2)} on ${machine.cores} cores: other processes will disturb the figures`);
console.log(`rounds ${params.rounds}, time ${params.time} ms, warmup ${params.warmupTime} ms, mixed rounds ${params.mixedRounds}${only ? `, only ${only.join(',')}` : ''}`);

const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-bench-'));
let exitCode = 0;
try {
  const t0 = Date.now();
  const manifest = await buildData(dir);
  console.log(`data built in ${dir} (${Date.now() - t0} ms)`);

  // ---- which tasks ----
  const selected = new Set(only ?? ALL);
  const rows = allTasks().filter((t) => selected.has(t.workload) || (selected.has('frames') && t.id === 'crc/1MiB/reference/memcpy'));
  const runnable = rows.filter((t) => !t.na);
  for (const r of rows) {
    r.roundsMs = [];
    r.mixedMs = [];
    Object.assign(r, sizeOf(r, manifest));
  }

  // ---- isolated rounds: each table's rows back to back, in a rotating order ----
  const started = Date.now();
  const tables = [...new Set(runnable.map((t) => `${t.workload}/${t.case}`))].map((k) => runnable.filter((t) => `${t.workload}/${t.case}` === k));
  for (let round = 0; round < params.rounds; round++) {
    for (const table of tables) {
      const order = table.map((_, i) => table[(i + round) % table.length]);
      for (const task of order) {
        // Allocation once per row, in round 1 (kept rows allocate what their eager rows do).
        const res = runChild([task], `r${round + 1}`, round === 0 && task.mode !== 'kept')[0];
        check(task, res, manifest);
        task.roundsMs.push(res.meanMs);
        if (res.alloc) task.alloc = res.alloc;
        process.stdout.write(`[round ${round + 1}/${params.rounds}] ${task.id.padEnd(44)} ${res.meanMs.toFixed(3).padStart(9)} ms${task.verified === false ? '  DIGEST MISMATCH' : ''}\n`);
      }
    }
  }
  console.log(`isolated rounds: ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // ---- mixed: every task and contender in one process ----
  for (let m = 0; m < params.mixedRounds; m++) {
    // The baseline's rows stay out: one process loads one kafka-wire.
    const mixable = runnable.filter((t) => t.twinOf === undefined);
    if (mixable.length === 0) break; // --only decompress / import: no decode task to mix
    const list = m % 2 === 0 ? mixable : [...mixable].reverse();
    const t1 = Date.now();
    const res = runChild(list, `mixed${m + 1}`);
    for (const task of list) {
      const r = res.find((x) => x.id === task.id);
      check(task, r, manifest);
      task.mixedMs.push(r.meanMs);
    }
    console.log(`mixed run ${m + 1}/${params.mixedRounds}: ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  }

  // ---- report ----
  for (const r of rows) if (r.workload === 'produce' && r.outputBytes) r.bytes = r.outputBytes;
  machine.loadAverageEnd = loadavg();
  const groups = aggregate(rows);
  const importer = selected.has('import') ? await import('./import.mjs') : null;
  // The import goals are against a real Kafka too (kafka/cluster.mjs), when this machine has one prepared.
  const kafkaMissing = importer && !flag('--no-kafka') ? await (await import('../kafka/cluster.mjs')).kafkaAvailable() : 'skipped (--no-kafka)';
  if (importer && kafkaMissing) console.log(`import: no real Kafka rows: ${kafkaMissing}`);
  const imported = importer ? await importer.runImport({ pairs: params.importPairs, records: params.importRecords, kafka: !kafkaMissing }) : null;
  // Decompression against the native libraries (bench/lib/decompress.mjs), in this process.
  const decompressor = selected.has('decompress') || selected.has('fetch') ? await import('./lib/decompress.mjs') : null;
  const missing = decompressor?.decompressToolsMissing();
  if (missing) console.log(`decompress: skipped: ${missing}`);
  const decompressed = selected.has('decompress') && !missing ? await decompressor.decompressRows({ rounds: quick ? 2 : 5 }) : null;
  // The Fetch rows with each codec against native decompress + CRC of the same batch bytes.
  const fetchNative = selected.has('fetch') && decompressor && !missing
    ? decompressor.fetchNativeRows(Object.fromEntries(['gzip', 'snappy', 'lz4', 'zstd'].map((c) => [c, rows.find((r) => r.id === `fetch/${c}/kafka-wire/eager-v12`)])), dir, params.rounds)
    : null;
  const goalRows = goals(rows, [...(imported ? importer.importGoals(imported) : []), ...(decompressed ? decompressor.decompressGoals(decompressed) : []),
    ...(fetchNative ? decompressor.fetchNativeGoals(fetchNative) : [])]);
  const bundle = bundleSize();
  const notes = NOTES(manifest);
  console.log(textTables(groups));
  const baselineLines = baseline === undefined ? [] : baselineTable(groups, `${baseline}, commit ${gitHead(baseline)}`);
  if (baselineLines.length) console.log(`\n${baselineLines.join('\n')}`);
  if (imported) console.log(`\n${importer.importTable(imported).join('\n')}`);
  const decompressLines = decompressed ? ['## Decompression against native', '', decompressor.decompressTable(decompressed)] : [];
  if (decompressed) console.log(`\n${decompressLines.join('\n')}`);
  console.log('\n== Goals ==');
  for (const g of goalRows) console.log(`  ${g.holds === null ? 'n/a     ' : g.holds ? 'held    ' : 'NOT HELD'} ${g.goal}: ${g.display ?? g.note} (target ${g.target})`);
  if (bundle) console.log(`\nbundle: dist/browser/kafka-wire.js ${bundle.raw} bytes raw, ${bundle.gzip} bytes gzip -9`);

  const command = `node bench/run.mjs${argv.length ? ' ' + argv.join(' ') : ''}`;
  const json = {
    machine, params, command, partial, workloads: [...selected],
    data: { files: manifest.files, fetch: manifest.fetch, metadata: manifest.metadata, stream: manifest.stream, expected: manifest.expected },
    rows: rows.map(({ roundsMs, mixedMs, ...r }) => ({ ...r, roundsMs, mixedMs })),
    import: imported, decompress: decompressed, fetchNative, goals: goalRows, bundle, notes,
  };
  const outDir = join(HERE, 'results');
  mkdirSync(outDir, { recursive: true });
  const base = partial ? 'partial' : 'latest';
  writeFileSync(join(outDir, `${base}.json`), JSON.stringify(json, (k, v) => (typeof v === 'bigint' ? v.toString() : v), 1) + '\n');
  writeFileSync(join(outDir, `${base}.md`), markdown({ machine, params, groups, goalRows, bundle, notes, command, importLines: [...baselineLines, ...(imported ? importer.importTable(imported, true) : []), ...(decompressLines.length ? ['', ...decompressLines] : [])] }));
  console.log(`\nwrote bench/results/${base}.json and bench/results/${base}.md (${((Date.now() - t0) / 1000).toFixed(0)} s in all)`);
  if (rows.some((r) => r.verified === false)) {
    console.error('some contenders did not produce the expected result (DIGEST MISMATCH above)');
    exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);

// ------------------------------------------------------------------------------------------

function gitHead(cwd) {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function runChild(tasks, tag, alloc = false) {
  const out = join(dir, `result-${tag}-${process.hrtime.bigint()}.json`);
  const r = spawnSync(process.execPath, [join(HERE, 'child.mjs'),
    '--data', dir, '--tasks', tasks.map((t) => t.id).join(','), '--out', out,
    '--time', String(params.time), '--warmup-time', String(params.warmupTime),
    '--iterations', String(params.iterations), '--warmup-iterations', String(params.warmupIterations),
    ...(alloc ? ['--alloc'] : []),
  ], { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT });
  if (r.status !== 0) throw new Error(`child for ${tasks.map((t) => t.id).join(',')} failed (${r.status ?? r.signal})`);
  const res = JSON.parse(readFileSync(out, 'utf8')).results;
  rmSync(out);
  return res;
}

/** Compares a child's digest (or output bytes) with the expected one; marks task.verified. */
function check(task, res, manifest) {
  let actual;
  let expected;
  const e = manifest.expected;
  if (task.workload === 'fetch') {
    actual = res.digest;
    expected = task.case === 'none10' ? e.fetch10 : e.fetch1;
  } else if (task.workload === 'metadata' && task.case === 'decode') {
    actual = res.digest;
    expected = e.metadata;
  } else if (task.workload === 'metadata') {
    actual = readFileSync(res.outputFile).equals(readFileSync(join(dir, `metadata-v${task.version}.bin`)));
    expected = true; // re-encoding the decoded frame gives the same bytes
  } else if (task.workload === 'produce') {
    const frame = readFileSync(res.outputFile);
    task.outputBytes = frame.length;
    actual = produceDigest(frame);
    expected = e.produce;
  } else if (task.workload === 'frames') {
    actual = res.digest;
    expected = task.contender === 'reference' ? true : e.frames;
  } else if (task.workload === 'crc') {
    actual = res.digest;
    expected = task.contender === 'reference' ? true : e.crc;
  }
  const ok = same(actual, expected);
  if (!ok) {
    console.error(`${task.id}: digest mismatch\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}`);
    task.verified = false;
  } else if (task.verified === undefined) {
    task.verified = true;
  }
  task.digest = actual;
  if (res.info) task.info = res.info;
}

/**
 * A produced frame, decoded by kafka-wire in this (untimed) process with CRC verification: the
 * size prefix must match, and the records must be the source records.
 */
function produceDigest(frame) {
  try {
    if (frame.readInt32BE(0) !== frame.length - 4) return { error: 'size prefix' };
    const { apiKey, apiVersion, body } = kw.decodeRequest(frame);
    if (apiKey !== 0 || apiVersion !== 7) return { error: `api ${apiKey} v${apiVersion}` };
    const d = new RecordsDigest();
    for (const t of body.topicData) {
      for (const p of t.partitionData) {
        for (const b of kw.decodeRecordBatches(p.records, { verifyCrc: true }).batches) {
          for (const r of b.records) d.add(r.offset, r.timestamp, r.key, r.value, r.headers.map((h) => [h.key, h.value]));
        }
      }
    }
    return d.toJSON();
  } catch (err) {
    return { error: String(err) };
  }
}

function machineInfo() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const m = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) cpu = m[1].trim();
  } catch { /* not Linux */ }
  const version = (p, modules = join(HERE, 'node_modules')) => JSON.parse(readFileSync(join(modules, p, 'package.json'), 'utf8')).version;
  return {
    cpu, cores: cpus().length, loadAverage: loadavg(), memoryBytes: totalmem(), node: process.versions.node, v8: process.versions.v8,
    os: `${platform()} ${release()}`, date: new Date().toISOString(),
    git: gitState(),
    distBuilt: statSync(join(DIST, 'src/index.js')).mtime.toISOString(),
    versions: { kafkajs: version('kafkajs', join(ROOT, 'node_modules')), '@platformatic/kafka': version('@platformatic/kafka'), '@platformatic/kafka 1.x': version('platformatic-kafka-1'), tinybench: version('tinybench') },
  };
}

function gitState() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'assembly', 'scripts'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean).length;
    return { head, dirtySourceFiles: dirty };
  } catch {
    return null;
  }
}

function bundleSize() {
  const p = join(DIST, 'browser/kafka-wire.js');
  if (!existsSync(p)) return null;
  const b = readFileSync(p);
  return { file: 'dist/browser/kafka-wire.js', raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
}

function NOTES(m) {
  return [
    'CRC: kafka-wire verifies the CRC-32C of every batch while decoding (the default, verifyCrc: true); kafkajs and @platformatic/kafka do not verify CRCs on decode at all, so their Fetch rows do less work.',
    'Versions: kafkajs implements Fetch up to v11 and Metadata up to v6; @platformatic/kafka implements Fetch v12-v17 and Metadata v9-v12, so there is no version both peers support. Each peer decodes its own version of the same content (same records bytes, same topics) and kafka-wire is shown on both; the goal ratios use the kafka-wire row of the fastest peer\'s version.',
    'Check: before timing, every contender\'s result is reduced to a digest (record count, key/value/header byte counts, FNV hashes of every offset, timestamp, key, value and header; for Metadata every broker, topic and partition) and compared with the digest of the source data; Produce frames are decoded by kafka-wire with CRC verification and compared with the source records; kafka-wire\'s Metadata encode must give back the exact input frame.',
    'kafka-wire decodes the Fetch records inline (decodeResponse(frame, 1, version, { records: true }), lazy: { records: { lazy: true } }) when the build has that option, else with decodeRecordBatches on each partition\'s records; the notes of the first Fetch table say which.',
    `Fetch rows read what a consumer reads: every record's key, value and every header's key and value (their lengths are summed; bench/lib/consume.mjs). "kept" rows also hold the last ${KEPT_RESULTS} decoded results alive, as a pipelined consumer holds batches while processing them, so the young generation's scavenges copy live record graphs instead of freeing dead ones.`,
    'Fetch "eager" returns record objects. kafka-wire records carry offset/timestamp deltas (offset and timestamp are getters); kafkajs computes absolute offsets and timestamps as decimal strings (Long) and turns headers into an object; @platformatic/kafka records carry deltas (timestampDelta as bigint) and headers as [key, value] Buffer pairs.',
    'Fetch "lazy" (kafka-wire only): the records decoded with { lazy: true } plus, for every record, offsetDeltaAt, timestampDeltaAt, headerCountAt and the key and value positions in batch.data (keyOffsetAt, keySizeAt, valueOffsetAt, valueSizeAt): no object per record, not even a view (keyAt/valueAt would make one each, ~35 ns), headers not materialized; the digest check reads every key and value through the same positions. It does less than a consumer that builds records, so it is its own category: no ratio to the peers.',
    'kafkajs decoders and its Produce encoder are async: one promise per call is included. Its frame splitting lives in Connection#processData, run here on a stand-in connection object; @platformatic/kafka splits frames in the private Connection#onData (n/a).',
    'Compression: kafkajs has only gzip built in (snappy/lz4/zstd need plugin packages, not installed: n/a). @platformatic/kafka uses node:zlib for gzip (native) and zstd (not in Node 20: n/a), and WebAssembly for snappy and lz4; it cannot read xerial-framed snappy (what the Java producer writes; it fails with "unreachable"), so the snappy case uses raw snappy blocks, which every contender reads. The zstd batch is real zstd (level 3) from bench/fixtures/records-1000.zst, made with the zstd CLI (an independent encoder, fixed bytes).',
    'CRC-32C: @platformatic/kafka\'s default crc32c is the native addon @node-rs/crc32 (an optional dependency, installed here) behind a copy of the input (new Uint8Array(data)); its WebAssembly fallback and JS table are shown too. kafka-wire\'s crc32c copies the input into WebAssembly memory on every call (included).',
    `Produce: every contender builds one batch of the same 1000 records (each contender's natural input: Buffers, string header key for kafka-wire/kafkajs, a Map of Buffers for @platformatic/kafka) and writes the whole v7 request frame; the @platformatic/kafka frame header and size are written with its Writer as its Connection#send does. MB/s counts each contender's own output frame.`,
    'mixed/iso: a kafka-wire row far above 1 whose peers\' rows of the same workload rise too points at the mixed process\'s heap state rather than at shared code. For the Metadata decoders (some 25,000 objects per call) it is V8\'s allocation-site pretenuring: once the young generation is at its largest (after the Fetch tasks) and a scavenge finds a half-built result alive, V8 allocates the objects of those sites in the old generation from then on, and every store of a young object into them costs a write barrier. Measured in a mixed process, last in order: kafka-wire v6 85-219 ns/partition and kafkajs 528-638; with node --no-allocation-site-pretenuring 68 and 235-250; with --max-semi-space-size=64 64-65 and 219-244 (the isolated figures). kafka-wire builds structs with constructors (not tracked); its arrays are literals (tracked), which is what is left. It varies from run to run.',
    'Frame splitting, default mode: every frame spanning chunks needs new memory, and what that costs depends on glibc\'s malloc (heap trimming and re-faulting of the heap top); the splitter keeps the last joined frame alive until the next join, which keeps the heap top in use (3.3 -> 5.7-6.5 GB/s here). { reuse: true } assembles spanning frames in one buffer the splitter keeps (valid until the next push), so no allocation and no page faults per frame.',
    `Frame splitting: ${m.stream.frames} frames (16 B - 4 MiB, size-prefixed) in a ${m.stream.bytes / 2 ** 20} MiB stream pushed as ${m.stream.chunkBytes / 1024} KiB Buffer chunks; the consumer callback counts frames and bytes and hashes correlation ids. memcpy is Uint8Array.prototype.set of 1 MiB.`,
  ];
}
