// The fault suite's runner: one cell is a fault kind × a component (the producer, the consumer
// plain or in a group, the CLI's produce and consume -e), run once per seed against a memory
// broker (a librdkafka mock cluster for groups) behind the fault proxy, the client in a process
// of its own. Each run is judged: no crash, no hang past the deadlines plus a margin, no untyped
// error, the process exits after close, acknowledged records present once and in send order per
// partition, consumed records gap-free and in order, consume -e exiting 0 only at the true end.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { createProducer } from '../../src/producer/index.js';
import { partitionForKey } from '../../src/wire/partitioner.js';
import { startFaultProxy, type FaultKind } from '../helpers/fault-proxy.js';
import { prng } from '../helpers/random.js';
import { startMockCluster } from '../wire/mock-cluster.js';
import { judgeAcks, storedRecords } from './log.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const childScript = join(here, 'child.mjs');
/** The clients under test: this checkout's build, or KAFKA_WIRE_ROOT's. */
const cliBin = join(process.env.KAFKA_WIRE_ROOT ?? repoRoot, 'dist', 'src', 'cli', 'main.js');

export const COMPONENTS = ['producer', 'consumer', 'group', 'cli-produce', 'cli-consume'] as const;
export type Component = (typeof COMPONENTS)[number];

/** The clients' deadlines, and the margins a run gets past them before it counts as a hang. */
export const DEADLINES = { requestTimeoutMs: 1000, retryTimeoutMs: 8000, deliveryTimeoutMs: 15_000, consumeMs: 25_000 } as const;
const RUN_LIMIT_MS = 45_000;
const EXIT_MARGIN_MS = 3000;
const RECORDS = 1200;
const PARTITIONS = 3;
/** Errors of these classes are typed (a code saying what went wrong). */
const TYPED = new Set(['ConnectionError', 'ProducerError', 'ConsumerError', 'RecordsError', 'KafkaWireError', 'FrameError', 'Deadline']);

export interface Verdict {
  crashes: number; hangs: number; exits: number; untyped: number;
  lost: number; duplicated: number; reordered: number; misplaced: number;
  /** What went wrong, for the report. */
  notes: string[];
  faults: number;
}

export interface CellResult extends Verdict { component: Component; kind: FaultKind; runs: number }

const empty = (): Verdict => ({ crashes: 0, hangs: 0, exits: 0, untyped: 0, lost: 0, duplicated: 0, reordered: 0, misplaced: 0, notes: [], faults: 0 });

export function clean(v: Verdict): boolean {
  return v.crashes + v.hangs + v.exits + v.untyped + v.lost + v.duplicated + v.reordered + v.misplaced === 0;
}

interface ChildRun { code: number | null; signal: string | null; stdout: string; stderr: string; hung: boolean; lingered: boolean }

/** Runs a process; kills it at RUN_LIMIT_MS (hung) or EXIT_MARGIN_MS after it printed "closed" (lingered). */
function runChild(args: string[], stdin?: string): Promise<ChildRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let hung = false;
    let lingered = false;
    let exitTimer: ReturnType<typeof setTimeout> | undefined;
    const limit = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, RUN_LIMIT_MS);
    child.stdout.on('data', (d) => {
      stdout += String(d);
      if (exitTimer === undefined && /(^|\n)closed\n/.test(stdout)) exitTimer = setTimeout(() => { lingered = true; child.kill('SIGKILL'); }, EXIT_MARGIN_MS);
    });
    child.stderr.on('data', (d) => { stderr += String(d); });
    child.stdin.on('error', () => undefined);
    if (stdin !== undefined) child.stdin.end(stdin); else child.stdin.end();
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      if (exitTimer) clearTimeout(exitTimer);
      resolve({ code, signal, stdout, stderr, hung, lingered });
    });
  });
}

function lastJson(stdout: string): any {
  const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
  return lines.length === 0 ? null : JSON.parse(lines[lines.length - 1]!);
}

/** Offsets per partition must run 0, 1, 2, ... (a prefix when the run ended early). */
function judgeConsumed(v: Verdict, records: [number, string][], complete: boolean, expected: number): void {
  const next = new Map<number, bigint>();
  const seen = new Set<string>();
  for (const [p, o] of records) {
    const offset = BigInt(o);
    if (seen.has(`${p}/${o}`)) { v.duplicated++; continue; }
    seen.add(`${p}/${o}`);
    const want = next.get(p) ?? 0n;
    if (offset !== want) { v.reordered++; v.notes.push(`p${p}: offset ${offset} where ${want} was due`); }
    next.set(p, offset + 1n);
  }
  if (complete && seen.size < expected) { v.lost += expected - seen.size; v.notes.push(`ended as complete with ${seen.size} of ${expected}`); }
}

function judgeErrors(v: Verdict, errors: { name: string; code?: string; message: string }[]): void {
  for (const e of errors) if (!TYPED.has(e.name)) { v.untyped++; v.notes.push(`untyped ${e.name}: ${e.message}`); }
}

function judgeProcess(v: Verdict, run: ChildRun, what: string): void {
  if (run.hung) { v.hangs++; v.notes.push(`${what}: still running after ${RUN_LIMIT_MS} ms`); }
  if (run.lingered) { v.exits++; v.notes.push(`${what}: did not exit within ${EXIT_MARGIN_MS} ms of close`); }
  const crash = run.stdout.split('\n').find((l) => l.startsWith('{"crash"'));
  if (crash !== undefined || (!run.hung && !run.lingered && run.code !== 0 && run.code !== 1)) {
    v.crashes++;
    v.notes.push(`${what}: crashed (${run.code ?? run.signal}) ${crash ?? run.stderr.slice(0, 300)}`);
  }
}

const value = (i: number) => `r${String(i).padStart(6, '0')}`;

/** Seeds a topic with RECORDS records (keys k<i % 17>, values r<i>), straight to the broker. */
async function seed(bootstrap: string, topic: string): Promise<void> {
  const p = await createProducer({ bootstrap, lingerMs: 1 });
  try {
    await Promise.all(Array.from({ length: RECORDS }, (_, i) => p.send(topic, { key: `k${i % 17}`, value: value(i) })));
  } finally {
    await p.close();
  }
}

/** One run of `component` with seeded faults of `kind`. */
export async function runOnce(component: Component, kind: FaultKind, seedNumber: number): Promise<Verdict> {
  const v = empty();
  const topic = 'faults';
  let broker: MemoryBroker | undefined;
  let stopCluster: (() => Promise<void>) | undefined;
  let upstream: { host: string; port: number };
  if (component === 'group') {
    const cluster = await startMockCluster({ topics: [`${topic}:${PARTITIONS}`] });
    stopCluster = () => cluster.stop();
    upstream = cluster.brokers[0]!;
    await seed(cluster.bootstrap, topic);
  } else {
    broker = await startMemoryBroker({ topics: { [topic]: PARTITIONS } });
    upstream = broker;
    if (component === 'consumer' || component === 'cli-consume') await seed(broker.bootstrap, topic);
  }
  // A seed picks which answers are spoiled: one of the first ten (start-up included), and with a
  // small chance one more later on.
  const salt = seedNumber * 7919 + FAULT_SALT[kind];
  const nth = 1 + Math.floor(prng(salt)() * 10);
  const proxy = await startFaultProxy({ upstream, seed: salt, script: [{ nth, kind }], rate: 0.03, kinds: [kind], maxFaults: 1, delayMs: 1500 });
  try {
    const common = { bootstrap: proxy.bootstrap, topic, records: RECORDS, requestTimeoutMs: DEADLINES.requestTimeoutMs, retryTimeoutMs: DEADLINES.retryTimeoutMs };
    switch (component) {
      case 'producer': {
        const run = await runChild([childScript, JSON.stringify({ ...common, component, deliveryTimeoutMs: DEADLINES.deliveryTimeoutMs })]);
        judgeProcess(v, run, 'producer');
        const out = lastJson(run.stdout);
        if (out !== null && out.acked !== undefined) {
          judgeErrors(v, out.errors);
          const acked = new Array(RECORDS).fill(undefined);
          for (const [i, partition, offset] of out.acked) acked[i] = { topic, partition, offset: BigInt(offset) };
          const verdict = judgeAcks(broker!, topic, Array.from({ length: RECORDS }, (_, i) => value(i)), acked);
          v.lost += verdict.lost; v.duplicated += verdict.duplicated; v.reordered += verdict.reordered; v.misplaced += verdict.misplaced;
          if (verdict.misplaced > 0) v.notes.push(`${verdict.misplaced} sends resolved with offsets their records are not at`);
        }
        break;
      }
      case 'consumer':
      case 'group': {
        const run = await runChild([childScript, JSON.stringify({ ...common, component, group: `g${seedNumber}`, deadlineMs: DEADLINES.consumeMs })]);
        judgeProcess(v, run, component);
        const out = lastJson(run.stdout);
        if (out !== null && out.records !== undefined) {
          judgeErrors(v, out.errors);
          // Faults may legitimately end a run early with a typed error; a run without one must be whole.
          judgeConsumed(v, out.records, out.errors.length === 0, RECORDS);
          if (out.errors.some((e: { name: string }) => e.name === 'Deadline')) { v.hangs++; v.notes.push(`${component}: ${out.records.length} of ${RECORDS} records within ${DEADLINES.consumeMs} ms`); }
        }
        break;
      }
      case 'cli-produce': {
        const lines = Array.from({ length: RECORDS }, (_, i) => `k${i % 17}\t${value(i)}\n`).join('');
        const run = await runChild([cliBin, 'produce', '-b', proxy.bootstrap, '-t', topic, '--timeout', String(DEADLINES.requestTimeoutMs)], lines);
        judgeProcess(v, run, 'cli produce');
        if (run.code === 1 && !/^kafka-wire/m.test(run.stderr) && run.stderr.includes('    at ')) { v.untyped++; v.notes.push(`cli produce: ${run.stderr.slice(0, 300)}`); }
        // Every line acknowledged when it exits 0; in any case none twice, in input order per partition.
        const stored = storedRecords(broker!, topic);
        const index = new Map<string, number>();
        for (const partition of stored) for (const r of partition) {
          if (index.has(r.value)) v.duplicated++;
          index.set(r.value, Number(r.value.slice(1)));
        }
        for (const partition of stored) {
          let last = -1;
          for (const r of partition) { const i = Number(r.value.slice(1)); if (i < last) v.reordered++; last = i; }
        }
        for (let i = 0; i < RECORDS && run.code === 0; i++) {
          if (!index.has(value(i))) v.lost++;
          else if (!stored[partitionForKey(new TextEncoder().encode(`k${i % 17}`), PARTITIONS)]!.some((r) => r.value === value(i))) v.misplaced++;
        }
        break;
      }
      case 'cli-consume': {
        const run = await runChild([cliBin, 'consume', '-b', proxy.bootstrap, '-t', topic, '-e', '-o', 'beginning', '-f', '%p %o\\n', '--timeout', String(DEADLINES.requestTimeoutMs)]);
        judgeProcess(v, run, 'cli consume');
        const records = run.stdout.split('\n').filter((l) => /^\d+ \d+$/.test(l)).map((l) => l.split(' ') as [string, string]).map(([p, o]) => [Number(p), o] as [number, string]);
        judgeConsumed(v, records, run.code === 0, RECORDS);
        if (run.code === 1 && run.stderr.includes('    at ')) { v.untyped++; v.notes.push(`cli consume: ${run.stderr.slice(0, 300)}`); }
        break;
      }
    }
  } finally {
    v.faults = proxy.faults.length;
    if (!clean(v)) v.notes.push(`faults: ${proxy.faults.map((f) => `${f.kind} on answer ${f.nth} of API ${f.apiKey}`).join(', ')}`);
    await proxy.close();
    await broker?.close();
    await stopCluster?.();
  }
  return v;
}

const FAULT_SALT: Record<FaultKind, number> = { flip: 1, truncate: 2, stall: 3, duplicate: 4, swap: 5, delay: 6, midframe: 7, garbage: 8 };

/** Runs a cell for seeds 1..seeds and adds the verdicts up. */
export async function runCell(component: Component, kind: FaultKind, seeds: number, firstSeed = 1): Promise<CellResult> {
  const total: CellResult = { component, kind, runs: 0, ...empty() };
  for (let s = firstSeed; s < firstSeed + seeds; s++) {
    const v = await runOnce(component, kind, s);
    total.runs++;
    for (const k of ['crashes', 'hangs', 'exits', 'untyped', 'lost', 'duplicated', 'reordered', 'misplaced', 'faults'] as const) total[k] += v[k];
    total.notes.push(...v.notes.map((n) => `seed ${s}: ${n}`));
  }
  return total;
}

/** The table: kind × component, runs, crashes, hangs, exits, untyped, lost, duplicated, reordered, misplaced. */
export function formatTable(cells: readonly CellResult[]): string {
  const head = ['kind', 'component', 'runs', 'faults', 'crashes', 'hangs', 'exits', 'untyped', 'lost', 'duplicated', 'reordered', 'misplaced'];
  const rows = cells.map((c) => [c.kind, c.component, c.runs, c.faults, c.crashes, c.hangs, c.exits, c.untyped, c.lost, c.duplicated, c.reordered, c.misplaced].map(String));
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  return out.join('\n');
}
