// Test helpers for consumer groups against any broker (the mock cluster, real Kafka): produce
// numbered records, run `kafka-wire consume -G` members as child processes with their debug log,
// and account for an import: what was lost, what was read twice, and whether each duplicate is
// explained by work its first reader had not committed.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KafkaClient } from '../../src/wire/client.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { builtBin } from '../helpers/shared.js';
import { COORDINATOR_TRANSACTION } from '../../src/consumer/classic.js';

export const bin = builtBin;

/** Produces records value `${prefix}${i}` for i in [from, to), record i to partition i % partitions, batches of `batch`. */
export async function produceNumbered(bootstrap: string, topic: string, partitions: number, from: number, to: number, prefix = 'r', batch = 100): Promise<void> {
  const client = new KafkaClient({ bootstrap, maxVersions: { 2: 3 } });
  try {
    const info = await client.topic(topic, { allowAutoTopicCreation: true });
    const byPartition = new Map<number, string[]>();
    for (let i = from; i < to; i++) {
      const p = i % partitions;
      const list = byPartition.get(p) ?? [];
      list.push(`${prefix}${i}`);
      byPartition.set(p, list);
    }
    await Promise.all([...byPartition].map(async ([p, values]) => {
      for (let i = 0; i < values.length; i += batch) {
        const records = values.slice(i, i + batch).map((value) => ({ key: value, value }));
        for (let attempt = 0; ; attempt++) {
          const conn = await client.leader(topic, p);
          const version = conn.versionFor(0)!;
          const res = await conn.request(0, version, { acks: -1, timeoutMs: 10_000, topicData: [{ ...(version >= 13 ? { topicId: info.topicId } : { name: topic }), partitionData: [{ index: p, records: encodeRecordBatch({ records }) }] }] });
          const code = res!.responses[0]!.partitionResponses[0]!.errorCode;
          if (code === 0) break;
          if (attempt > 20) throw new Error(`produce ${topic}/${p}: error ${code}`);
          await new Promise((r) => setTimeout(r, 200));
          await client.metadata([topic]);
        }
      }
    }));
  } finally {
    await client.close();
  }
}

export interface Member {
  name: string;
  child: ChildProcess;
  out: string;
  err: string;
  exited: Promise<number | null>;
}

/** Starts `kafka-wire consume -G ...` with stdout and stderr (its group debug log) in files under dir. */
export function startMember(dir: string, name: string, args: string[]): Member {
  const out = join(dir, `${name}.out`);
  const err = join(dir, `${name}.err`);
  const outFd = openSync(out, 'w');
  const errFd = openSync(err, 'w');
  const child = spawn(process.execPath, [bin, 'consume', ...args], {
    stdio: ['ignore', outFd, errFd], env: { ...process.env, KAFKA_WIRE_DEBUG: 'group' },
  });
  closeSync(outFd);
  closeSync(errFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, out, err, exited };
}

/** Starts kcat as a balanced consumer printing "partition offset value" lines. */
export function startKcatMember(dir: string, name: string, bootstrap: string, group: string, topic: string): Member {
  const out = join(dir, `${name}.out`);
  const err = join(dir, `${name}.err`);
  const outFd = openSync(out, 'w');
  const errFd = openSync(err, 'w');
  const child = spawn('kcat', ['-b', bootstrap, '-G', group, '-X', 'auto.offset.reset=earliest', '-X', 'session.timeout.ms=6000',
    '-X', 'enable.auto.commit=true', '-X', 'auto.commit.interval.ms=200', '-q', '-u', '-f', '%p %o %s\\n', topic], { stdio: ['ignore', outFd, errFd] });
  closeSync(outFd);
  closeSync(errFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, out, err, exited };
}

/** Starts Kafka's own console consumer (the Java client, classic protocol) as a group member. */
export function startJavaMember(dir: string, name: string, classpath: string, bootstrap: string, group: string, topic: string, assignor?: string): Member {
  const out = join(dir, `${name}.out`);
  const err = join(dir, `${name}.err`);
  const outFd = openSync(out, 'w');
  const errFd = openSync(err, 'w');
  const child = spawn('java', ['-Xmx256m', '-cp', classpath, 'org.apache.kafka.tools.consumer.ConsoleConsumer',
    '--bootstrap-server', bootstrap, '--topic', topic, '--group', group,
    '--consumer-property', 'group.protocol=classic', '--consumer-property', 'session.timeout.ms=6000',
    '--consumer-property', 'auto.offset.reset=earliest', '--consumer-property', 'auto.commit.interval.ms=200',
    ...(assignor ? ['--consumer-property', `partition.assignment.strategy=${assignor}`] : []),
    '--formatter-property', 'print.partition=true', '--formatter-property', 'print.offset=true'], { stdio: ['ignore', outFd, errFd] });
  closeSync(outFd);
  closeSync(errFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, out, err, exited };
}

/** Records a member printed: "partition offset" -> value. JSON lines (kafka-wire) or "p o value" (kcat). */
export function printed(m: Member): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(m.out, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('{')) {
      let r: { partition: number; offset: number; value: string };
      try { r = JSON.parse(line); } catch { continue; } // a SIGKILL may cut the last line
      out.set(`${r.partition} ${r.offset}`, r.value);
    } else if (line.startsWith('Partition:')) {
      // Kafka's console consumer: "Partition:P\tOffset:O\tVALUE"
      const m = /^Partition:(\d+)\tOffset:(\d+)\t(.*)$/.exec(line);
      if (m) out.set(`${m[1]} ${m[2]}`, m[3]!);
    } else if (/^\d+ \d+ /.test(line)) {
      const [p, o, ...v] = line.split(' ');
      out.set(`${p} ${o}`, v.join(' '));
    }
  }
  return out;
}

/** The highest offset the member's debug log says it committed, per partition. */
export function committedByLog(m: Member, topic: string): Map<number, number> {
  const out = new Map<number, number>();
  const re = new RegExp(`${topic.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(\\d+)@(\\d+)`, 'g');
  for (const line of readFileSync(m.err, 'utf8').split('\n')) {
    if (!line.includes('committed ')) continue;
    for (const [, p, o] of line.matchAll(re)) out.set(Number(p), Math.max(out.get(Number(p)) ?? 0, Number(o)));
  }
  return out;
}

export interface Accounting {
  produced: number;
  lost: string[];
  /** Records printed more than once (counting each extra print). */
  duplicates: number;
  /** Duplicates whose every printer but the last had committed past them: a real error. */
  unexplained: string[];
  /** Duplicates explained by the named member's uncommitted work. */
  explainedBy: Map<string, number>;
  byMember: Map<string, number>;
}

/**
 * Compares what members printed with what was produced (value `${prefix}${i}`): a duplicate is
 * explained when one of its printers never committed past it (that member's work was lost to a
 * crash or a rebalance, so the next owner read it again).
 */
export function account(members: Member[], topic: string, produced: number, prefix = 'r'): Accounting {
  const seen = new Map<string, string[]>();
  const values = new Set<string>();
  const byMember = new Map<string, number>();
  for (const m of members) {
    const recs = printed(m);
    byMember.set(m.name, recs.size);
    for (const [k, v] of recs) {
      seen.set(k, [...(seen.get(k) ?? []), m.name]);
      values.add(v);
    }
  }
  const lost: string[] = [];
  for (let i = 0; i < produced; i++) if (!values.has(`${prefix}${i}`)) lost.push(`${prefix}${i}`);
  const commits = new Map(members.map((m) => [m.name, m.child.spawnfile === 'kcat' || m.child.spawnfile === 'java' ? null : committedByLog(m, topic)]));
  let duplicates = 0;
  const unexplained: string[] = [];
  const explainedBy = new Map<string, number>();
  for (const [k, names] of seen) {
    if (names.length < 2) continue;
    duplicates += names.length - 1;
    const [p, o] = k.split(' ').map(Number) as [number, number];
    const culprit = names.find((n) => {
      const c = commits.get(n);
      return c === null || c === undefined || (c.get(p) ?? 0) <= o;
    });
    if (culprit === undefined) unexplained.push(`${k} read by ${names.join(', ')}`);
    else explainedBy.set(culprit, (explainedBy.get(culprit) ?? 0) + names.length - 1);
  }
  return { produced, lost, duplicates, unexplained, explainedBy, byMember };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until `done()` or the timeout; returns whether it became true. */
export async function until(done: () => boolean, timeoutMs: number, stepMs = 200): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (done()) return true;
    await sleep(stepMs);
  }
  return done();
}

/**
 * Writes transactions by hand on the wire (InitProducerId, AddPartitionsToTxn v3, Produce with a
 * transactional batch, EndTxn), each committed or aborted as listed, to one partition.
 */
export async function produceTransactions(bootstrap: string, topic: string, partition: number,
  transactions: { commit: boolean; values: string[] }[], transactionalId = `txn-${Math.random().toString(36).slice(2)}`): Promise<void> {
  const client = new KafkaClient({ bootstrap });
  const retry = async <T>(what: string, f: () => Promise<T & { errorCode: number }>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const res = await f();
      if (res.errorCode === 0) return res;
      // COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, CONCURRENT_TRANSACTIONS
      if (attempt < 50 && [14, 15, 16, 51].includes(res.errorCode)) { await sleep(100); continue; }
      throw new Error(`${what}: error ${res.errorCode}`);
    }
  };
  try {
    await client.topic(topic);
    const any = await client.anyConnection();
    const found = await retry('FindCoordinator', () => any.request(10, 3, { key: transactionalId, keyType: COORDINATOR_TRANSACTION }));
    const txnConn = await client.broker(found.nodeId);
    const { producerId, producerEpoch } = await retry('InitProducerId', () => txnConn.request(22, undefined, { transactionalId, transactionTimeoutMs: 60_000 }));
    let sequence = 0;
    for (const txn of transactions) {
      await retry('AddPartitionsToTxn', async () => {
        const r = await txnConn.request(24, 3, {
          v3AndBelowTransactionalId: transactionalId, v3AndBelowProducerId: producerId, v3AndBelowProducerEpoch: producerEpoch,
          v3AndBelowTopics: [{ name: topic, partitions: [partition] }],
        });
        return { ...r, errorCode: r.resultsByTopicV3AndBelow[0]!.resultsByPartition[0]!.partitionErrorCode };
      });
      const leader = await client.leader(topic, partition);
      const records = encodeRecordBatch({ isTransactional: true, producerId, producerEpoch, baseSequence: sequence, records: txn.values.map((value) => ({ value })) });
      sequence += txn.values.length;
      await retry('Produce', async () => {
        const r = await leader.request(0, Math.min(leader.versionFor(0)!, 11), { transactionalId, acks: -1, timeoutMs: 10_000, topicData: [{ name: topic, partitionData: [{ index: partition, records }] }] });
        return { errorCode: r!.responses[0]!.partitionResponses[0]!.errorCode };
      });
      await retry('EndTxn', () => txnConn.request(26, Math.min(txnConn.versionFor(26)!, 4), { transactionalId, producerId, producerEpoch, committed: txn.commit }));
    }
  } finally {
    await client.close();
  }
}
