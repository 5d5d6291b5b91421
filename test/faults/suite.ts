// The fault suite's runner: one cell is a fault kind × a component (the producer, the consumer
// plain, in a group or in a share group, the admin client, the CLI's produce, consume -e and
// consume -G -e) × a broker, run once per seed behind the fault proxy, the client in a process of
// its own. The brokers: 'memory' (the memory broker; librdkafka's mock cluster for groups; share
// groups are real Kafka's only) and 'kafka' (real Kafka 4.4, one node the caller started, a topic
// of its own per run). Each run is judged: no crash, no hang past the deadlines plus a margin, no
// untyped error, the process exits after close, acknowledged records present once and in send
// order per partition, consumed records gap-free and in order, consume -e exiting 0 only at the
// true end, the admin client's answers true.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { createProducer } from '../../src/producer/index.js';
import { partitionForKey } from '../../src/wire/partitioner.js';
import { startFaultProxy, type FaultKind } from '../helpers/fault-proxy.js';
import { prng } from '../helpers/random.js';
import { startMockCluster } from '../wire/mock-cluster.js';
import { judgeAcks, readStored, storedRecords, type StoredRecord } from './log.js';
import { KafkaClient, parseHostPort } from '../../src/wire/client.js';
import { alterShareGroupConfig } from '../../src/admin/share-groups.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const childScript = join(here, 'child.mjs');
/** The clients under test: this checkout's build, or KAFKA_WIRE_ROOT's. */
const cliBin = join(process.env.KAFKA_WIRE_ROOT ?? repoRoot, 'dist', 'src', 'cli', 'main.js');

export const COMPONENTS = ['producer', 'consumer', 'group', 'share', 'admin', 'cli-produce', 'cli-consume', 'cli-group'] as const;
export type Component = (typeof COMPONENTS)[number];
export type Target = 'memory' | 'kafka';
/** What each broker can serve: share groups (KIP-932) only real Kafka; groups the mock cluster on 'memory'. */
export const TARGET_COMPONENTS: Record<Target, readonly Component[]> = { memory: COMPONENTS.filter((c) => c !== 'share'), kafka: COMPONENTS };
const ON_MOCK_CLUSTER: ReadonlySet<Component> = new Set(['group', 'cli-group']);

/** Real Kafka for the 'kafka' cells (started by the caller, e.g. test/helpers/kafka.ts useKafka with KAFKA_CONFIG). */
export interface KafkaTarget {
  bootstrap: string;
  createTopic(name: string, options?: { partitions?: number }): Promise<void>;
}
/** Broker settings the 'kafka' cells need: joins without the initial delay, share-group locks that end within a run. */
export const KAFKA_CONFIG: Record<string, string> = {
  'group.initial.rebalance.delay.ms': '0',
  'group.share.min.record.lock.duration.ms': '1000',
  'group.share.record.lock.duration.ms': '4000',
  'group.share.heartbeat.interval.ms': '1000',
  'group.share.min.heartbeat.interval.ms': '1000',
  'group.share.session.timeout.ms': '6000',
  'group.share.min.session.timeout.ms': '6000',
  'group.consumer.heartbeat.interval.ms': '1000',
  'group.consumer.min.heartbeat.interval.ms': '1000',
  'group.consumer.session.timeout.ms': '6000',
  'group.consumer.min.session.timeout.ms': '6000',
};

/** The clients' deadlines, and the margins a run gets past them before it counts as a hang. */
export const DEADLINES = { requestTimeoutMs: 1000, retryTimeoutMs: 8000, deliveryTimeoutMs: 15_000, consumeMs: 25_000 } as const;
const RUN_LIMIT_MS = 45_000;
/** consume -G: the CLI's rebalance timeout (60 s, not an option) plus the margin. */
const CLI_GROUP_LIMIT_MS = 60_000 + 25_000;
const EXIT_MARGIN_MS = 3000;
const RECORDS = 1200;
const PARTITIONS = 3;
/** Errors of these classes are typed (a code saying what went wrong). */
const TYPED = new Set(['ConnectionError', 'ProducerError', 'ConsumerError', 'AdminError', 'RecordsError', 'KafkaWireError', 'FrameError', 'Deadline']);

export interface Verdict {
  crashes: number; hangs: number; exits: number; untyped: number;
  lost: number; duplicated: number; reordered: number;
  /** Acknowledged records at another place than said; admin answers that are not true. */
  misplaced: number;
  /** What went wrong, for the report. */
  notes: string[];
  faults: number;
}

export interface CellResult extends Verdict { target: Target; component: Component; kind: FaultKind; runs: number }

const empty = (): Verdict => ({ crashes: 0, hangs: 0, exits: 0, untyped: 0, lost: 0, duplicated: 0, reordered: 0, misplaced: 0, notes: [], faults: 0 });

export function clean(v: Verdict): boolean {
  return v.crashes + v.hangs + v.exits + v.untyped + v.lost + v.duplicated + v.reordered + v.misplaced === 0;
}

interface ChildRun { code: number | null; signal: string | null; stdout: string; stderr: string; hung: boolean; lingered: boolean }

/** Runs a process; kills it at RUN_LIMIT_MS (hung) or EXIT_MARGIN_MS after it printed "closed" (lingered). */
function runChild(args: string[], stdin?: string, limitMs = RUN_LIMIT_MS): Promise<ChildRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let hung = false;
    let lingered = false;
    let exitTimer: ReturnType<typeof setTimeout> | undefined;
    const limit = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, limitMs);
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

/**
 * A share group hands records out at least once: a record may come again after its lock ended
 * (an acknowledgement lost on the way), with a higher delivery count. The same delivery twice is
 * a duplicate; first deliveries of a partition come in offset order; a run without an error saw
 * every record.
 */
function judgeShared(v: Verdict, records: [number, string, number][], complete: boolean, expected: number): void {
  const deliveries = new Set<string>();
  const seen = new Set<string>();
  const lastFirst = new Map<number, bigint>();
  for (const [p, o, count] of records) {
    if (deliveries.has(`${p}/${o}/${count}`)) { v.duplicated++; v.notes.push(`share: p${p} offset ${o} handed out twice as delivery ${count}`); continue; }
    deliveries.add(`${p}/${o}/${count}`);
    seen.add(`${p}/${o}`);
    if (count !== 1) continue;
    const last = lastFirst.get(p);
    if (last !== undefined && BigInt(o) < last) { v.reordered++; v.notes.push(`share: p${p} first delivery of ${o} after ${last}`); }
    lastFirst.set(p, BigInt(o));
  }
  if (complete && seen.size < expected) { v.lost += expected - seen.size; v.notes.push(`share: ended as complete with ${seen.size} of ${expected}`); }
}

function judgeErrors(v: Verdict, errors: { name: string; code?: string; message: string }[]): void {
  for (const e of errors) if (!TYPED.has(e.name)) { v.untyped++; v.notes.push(`untyped ${e.name}: ${e.message}`); }
}

function judgeProcess(v: Verdict, run: ChildRun, what: string, limitMs = RUN_LIMIT_MS): void {
  if (run.hung) { v.hangs++; v.notes.push(`${what}: still running after ${limitMs} ms`); }
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

/** One run of `component` with seeded faults of `kind`, on the memory broker or on `kafka`. */
export async function runOnce(component: Component, kind: FaultKind, seedNumber: number, kafka?: KafkaTarget): Promise<Verdict> {
  const v = empty();
  const target: Target = kafka === undefined ? 'memory' : 'kafka';
  if (!TARGET_COMPONENTS[target].includes(component)) throw new Error(`${component} does not run on ${target}`);
  // On Kafka every run has topics of its own (and groups: g<seed> would be reused across cells).
  const tag = kafka === undefined ? '' : `-${component}-${kind}-${seedNumber}-${process.pid}-${runCounter++}`;
  const topic = `faults${tag}`;
  const group = `g${seedNumber}${tag}`;
  const consumes = component !== 'producer' && component !== 'cli-produce';
  let broker: MemoryBroker | undefined;
  let stopCluster: (() => Promise<void>) | undefined;
  let upstream: { host: string; port: number };
  let direct: string;
  if (kafka !== undefined) {
    await kafka.createTopic(topic, { partitions: PARTITIONS });
    direct = kafka.bootstrap;
    upstream = parseHostPort(kafka.bootstrap.split(',')[0]!);
    if (component === 'share') {
      const client = new KafkaClient({ bootstrap: direct });
      try { await alterShareGroupConfig(client, group, { 'share.auto.offset.reset': 'earliest' }); } finally { await client.close(); }
    }
  } else if (ON_MOCK_CLUSTER.has(component)) {
    const cluster = await startMockCluster({ topics: [`${topic}:${PARTITIONS}`] });
    stopCluster = () => cluster.stop();
    upstream = cluster.brokers[0]!;
    direct = cluster.bootstrap;
  } else {
    broker = await startMemoryBroker({ topics: { [topic]: PARTITIONS } });
    upstream = broker;
    direct = broker.bootstrap;
  }
  if (consumes) await seed(direct, topic);
  const stored = async (): Promise<StoredRecord[][]> => broker !== undefined ? storedRecords(broker, topic) : readStored(direct, topic);
  // A seed picks which answers are spoiled: one of the first ten (start-up included), and with a
  // small chance one more later on.
  const salt = seedNumber * 7919 + FAULT_SALT[kind];
  const nth = 1 + Math.floor(prng(salt)() * 10);
  const proxy = await startFaultProxy({ upstream, seed: salt, script: [{ nth, kind }], rate: 0.03, kinds: [kind], maxFaults: 1, delayMs: 1500 });
  try {
    const common = { bootstrap: proxy.bootstrap, topic, records: RECORDS, requestTimeoutMs: DEADLINES.requestTimeoutMs, retryTimeoutMs: DEADLINES.retryTimeoutMs };
    // Groups on Kafka: the classic protocol for odd seeds, KIP-848's for even ones (the mock cluster has classic only).
    const groupProtocol = kafka !== undefined && seedNumber % 2 === 0 ? 'consumer' : 'classic';
    switch (component) {
      case 'producer': {
        const run = await runChild([childScript, JSON.stringify({ ...common, component, deliveryTimeoutMs: DEADLINES.deliveryTimeoutMs })]);
        judgeProcess(v, run, 'producer');
        const out = lastJson(run.stdout);
        if (out !== null && out.acked !== undefined) {
          judgeErrors(v, out.errors);
          const acked = new Array(RECORDS).fill(undefined);
          for (const [i, partition, offset] of out.acked) acked[i] = { topic, partition, offset: BigInt(offset) };
          const verdict = judgeAcks(await stored(), topic, Array.from({ length: RECORDS }, (_, i) => value(i)), acked);
          v.lost += verdict.lost; v.duplicated += verdict.duplicated; v.reordered += verdict.reordered; v.misplaced += verdict.misplaced;
          if (verdict.misplaced > 0) v.notes.push(`${verdict.misplaced} sends resolved with offsets their records are not at`);
        }
        break;
      }
      case 'consumer':
      case 'group': {
        const run = await runChild([childScript, JSON.stringify({ ...common, component, group, groupProtocol, deadlineMs: DEADLINES.consumeMs })]);
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
        const log = await stored();
        const index = new Map<string, number>();
        for (const partition of log) for (const r of partition) {
          if (index.has(r.value)) v.duplicated++;
          index.set(r.value, Number(r.value.slice(1)));
        }
        for (const partition of log) {
          let last = -1;
          for (const r of partition) { const i = Number(r.value.slice(1)); if (i < last) v.reordered++; last = i; }
        }
        for (let i = 0; i < RECORDS && run.code === 0; i++) {
          if (!index.has(value(i))) v.lost++;
          else if (!log[partitionForKey(new TextEncoder().encode(`k${i % 17}`), PARTITIONS)]!.some((r) => r.value === value(i))) v.misplaced++;
        }
        break;
      }
      case 'cli-consume':
      case 'cli-group': {
        const what = component === 'cli-group' ? 'cli consume -G' : 'cli consume';
        // The group's session timeout as the library's runs have it; a JoinGroup or SyncGroup may
        // wait out the rebalance timeout, which the CLI leaves at its default (60 s): the limit is past it.
        const how = component === 'cli-group' ? ['-G', group, topic, '--group-protocol', groupProtocol, '--session-timeout', '6000'] : ['-t', topic];
        const limit = component === 'cli-group' ? CLI_GROUP_LIMIT_MS : RUN_LIMIT_MS;
        const run = await runChild([cliBin, 'consume', '-b', proxy.bootstrap, ...how, '-e', '-o', 'beginning', '-f', '%p %o\\n', '--timeout', String(DEADLINES.requestTimeoutMs)], undefined, limit);
        judgeProcess(v, run, what, limit);
        const records = run.stdout.split('\n').filter((l) => /^\d+ \d+$/.test(l)).map((l) => l.split(' ') as [string, string]).map(([p, o]) => [Number(p), o] as [number, string]);
        // -e exits 0 only at the true end: every record printed.
        judgeConsumed(v, records, run.code === 0, RECORDS);
        if (run.code === 1 && run.stderr.includes('    at ')) { v.untyped++; v.notes.push(`${what}: ${run.stderr.slice(0, 300)}`); }
        break;
      }
      case 'share': {
        const run = await runChild([childScript, JSON.stringify({ ...common, component, group, deadlineMs: DEADLINES.consumeMs })]);
        judgeProcess(v, run, 'share');
        const out = lastJson(run.stdout);
        if (out !== null && out.records !== undefined) {
          judgeErrors(v, out.errors);
          judgeShared(v, out.records, out.errors.length === 0, RECORDS);
          if (out.errors.some((e: { name: string }) => e.name === 'Deadline')) { v.hangs++; v.notes.push(`share: ${new Set(out.records.map(([p, o]: [number, string]) => `${p}/${o}`)).size} of ${RECORDS} records within ${DEADLINES.consumeMs} ms`); }
        }
        break;
      }
      case 'admin': {
        const created = kafka !== undefined ? `${topic}-created` : undefined;
        const run = await runChild([childScript, JSON.stringify({ ...common, component, partitions: PARTITIONS, createTopic: created })]);
        judgeProcess(v, run, 'admin');
        const out = lastJson(run.stdout);
        if (out !== null && out.answers !== undefined) {
          judgeErrors(v, out.errors);
          // Each call that answered must have answered the truth (a call may fail, typed).
          const log = await stored();
          const truth: Record<string, unknown> = {
            described: [[topic, PARTITIONS]], listed: [topic],
            earliest: log.map((_, p) => [p, '0']), latest: log.map((records, p) => [p, String(records.length)]),
            ...(created !== undefined ? { created: [[created, 2]] } : {}),
          };
          for (const [call, want] of Object.entries(truth)) {
            const got = out.answers[call];
            if (got === undefined) { if (out.errors.length === 0) { v.lost++; v.notes.push(`admin ${call}: no answer and no error`); } continue; }
            if (JSON.stringify(got) !== JSON.stringify(want)) { v.misplaced++; v.notes.push(`admin ${call}: answered ${JSON.stringify(got)} where the truth is ${JSON.stringify(want)}`); }
          }
        }
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

let runCounter = 0;

/** Runs a cell for seeds firstSeed.. (seeds of them) and adds the verdicts up. */
export async function runCell(component: Component, kind: FaultKind, seeds: number, firstSeed = 1, kafka?: KafkaTarget): Promise<CellResult> {
  const total: CellResult = { target: kafka === undefined ? 'memory' : 'kafka', component, kind, runs: 0, ...empty() };
  for (let s = firstSeed; s < firstSeed + seeds; s++) {
    const v = await runOnce(component, kind, s, kafka);
    total.runs++;
    for (const k of ['crashes', 'hangs', 'exits', 'untyped', 'lost', 'duplicated', 'reordered', 'misplaced', 'faults'] as const) total[k] += v[k];
    total.notes.push(...v.notes.map((n) => `seed ${s}: ${n}`));
  }
  return total;
}

/** One run to make: a cell's seed. */
export interface Task { component: Component; kind: FaultKind; seed: number }

/**
 * Runs `tasks`, `jobs` at a time (the runs wait on deadlines far more than they compute, and each
 * has brokers, proxy and ports of its own), and adds the verdicts up per cell, in the tasks' order.
 */
export async function runTasks(tasks: readonly Task[], jobs = 1, kafka?: KafkaTarget): Promise<CellResult[]> {
  const cells = new Map<string, CellResult>();
  const target: Target = kafka === undefined ? 'memory' : 'kafka';
  for (const t of tasks) {
    const key = `${t.kind}:${t.component}`;
    if (!cells.has(key)) cells.set(key, { target, component: t.component, kind: t.kind, runs: 0, ...empty() });
  }
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const t = tasks[next++]!;
      const v = await runOnce(t.component, t.kind, t.seed, kafka);
      const total = cells.get(`${t.kind}:${t.component}`)!;
      total.runs++;
      for (const k of ['crashes', 'hangs', 'exits', 'untyped', 'lost', 'duplicated', 'reordered', 'misplaced', 'faults'] as const) total[k] += v[k];
      total.notes.push(...v.notes.map((n) => `seed ${t.seed}: ${n}`));
      done++;
      // FAULT_PROGRESS=FILE: a line per run as it ends (a long run can be followed, and what it found so far kept).
      if (process.env.FAULT_PROGRESS) appendFileSync(process.env.FAULT_PROGRESS, `${done}/${tasks.length} ${target} ${t.kind} ${t.component} seed ${t.seed}${clean(v) ? '' : `: ${v.notes.join('; ')}`}\n`);
    }
  };
  let done = 0;
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return [...cells.values()];
}

/** The table: kind × component, runs, crashes, hangs, exits, untyped, lost, duplicated, reordered, misplaced. */
export function formatTable(cells: readonly CellResult[]): string {
  const head = ['broker', 'kind', 'component', 'runs', 'faults', 'crashes', 'hangs', 'exits', 'untyped', 'lost', 'duplicated', 'reordered', 'misplaced'];
  const rows = cells.map((c) => [c.target, c.kind, c.component, c.runs, c.faults, c.crashes, c.hangs, c.exits, c.untyped, c.lost, c.duplicated, c.reordered, c.misplaced].map(String));
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  return out.join('\n');
}
