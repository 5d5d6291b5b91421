// One benchmark process: sets up the given tasks (only their contenders' code is loaded), checks
// each one's result once (digest, or output bytes for the parent to check), then times them with
// tinybench and writes the results as JSON. Run by bench/run.mjs (and bench/profile.mjs); not
// meant to be run by hand.
//   node bench/child.mjs --data DIR --tasks ID[,ID...] --out FILE [--time MS --warmup-time MS
//     --iterations N --warmup-iterations N] [--profile SECONDS] [--alloc]
// --alloc: after timing, measures one call's allocation (bytes and objects; see allocation()).
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Bench } from 'tinybench';
import { allTasks } from './lib/tasks.mjs';

const args = parseArgs(process.argv.slice(2));
const dir = args.data;
const ids = args.tasks.split(',');
const byId = new Map(allTasks().map((t) => [t.id, t]));
const tasks = ids.map((id) => {
  const t = byId.get(id);
  if (!t || t.na) throw new Error(`unknown or n/a task ${id}`);
  return t;
});

const modules = {};
for (const c of new Set(tasks.map((t) => t.contender))) modules[c] = await import(`./lib/contenders/${c}.mjs`);

// Setup and check every task first (in a mixed run, all code is loaded and warm before timing).
const prepared = [];
const results = [];
for (const task of tasks) {
  const p = await modules[task.contender].setup(task, dir);
  const out = p.isAsync ? await p.fn() : p.fn();
  const r = { id: task.id, info: p.info };
  if (p.digest) r.digest = p.digest(out);
  if (p.output) {
    const bytes = p.output(out);
    mkdirSync(join(dir, 'out'), { recursive: true });
    const file = join(dir, 'out', `${task.id.replaceAll('/', '_')}.bin`);
    writeFileSync(file, bytes);
    r.outputFile = file;
  }
  prepared.push({ task, p });
  results.push(r);
}

if (args.profile) {
  // For node --cpu-prof: loop the first task for the given seconds. With more tasks (a mixed
  // profile), every task is first benchmarked briefly in this process, as in the mixed run.
  if (prepared.length > 1) {
    const warm = new Bench({ time: 100, warmupTime: 20, iterations: 3, warmupIterations: 1, throws: true });
    for (const { task, p } of prepared) warm.add(task.id, p.fn, { async: p.isAsync === true });
    await warm.run();
  }
  const { task, p } = prepared[0];
  const n = await profileLoop(p, Number(args.profile) * 1000);
  results[0].profileIterations = n;
  console.error(`${task.id}: ${n} iterations, ${((Number(args.profile) * 1e3) / n).toFixed(3)} ms each`);
} else {
  const bench = new Bench({
    time: Number(args.time ?? 1000),
    warmupTime: Number(args['warmup-time'] ?? 250),
    iterations: Number(args.iterations ?? 10),
    warmupIterations: Number(args['warmup-iterations'] ?? 5),
    throws: true,
  });
  for (const { task, p } of prepared) bench.add(task.id, p.fn, { async: p.isAsync === true });
  await bench.run();
  for (const bt of bench.tasks) {
    const res = bt.result;
    const r = results.find((x) => x.id === bt.name);
    if (res.state !== 'completed') throw new Error(`${bt.name}: ${res.state} ${res.error ?? ''}`);
    r.meanMs = res.latency.mean;
    r.p50Ms = res.latency.p50;
    r.minMs = res.latency.min;
    r.rme = res.latency.rme;
    r.samples = res.latency.samplesCount ?? res.latency.samples?.length;
  }
  if (args.alloc) for (const [i, { p }] of prepared.entries()) results[i].alloc = await allocation(p);
}
writeFileSync(args.out, JSON.stringify({ pid: process.pid, results }, null, 1));

/** The profiled loop (bench/profile.mjs keeps only samples under this function). */
async function profileLoop(p, ms) {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    if (p.isAsync) await p.fn(); else p.fn();
    n++;
  }
  return n;
}

/**
 * What one call allocates on the JavaScript heap: V8's sampling heap profiler with a 1-byte
 * interval samples every allocation, including objects a scavenge or a full GC has already freed
 * by the end of the call; the median of 3 calls. ArrayBuffer backing stores outside the heap are
 * not counted (the records' bytes are views of the frame in every contender).
 */
async function allocation(p) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  const runs = [];
  for (let i = 0; i < 3; i++) {
    gc();
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    if (p.isAsync) await p.fn(); else p.fn();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    let bytes = 0;
    for (const s of profile.samples) bytes += s.size;
    runs.push({ bytes, objects: profile.samples.length });
  }
  session.disconnect();
  const mid = (k) => runs.map((x) => x[k]).sort((a, b) => a - b)[1];
  return { bytes: mid('bytes'), objects: mid('objects') };
}

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) throw new Error(`bad argument ${argv[i]}`);
    const k = argv[i].slice(2);
    const v = argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[++i] : true;
    o[k] = v;
  }
  return o;
}
