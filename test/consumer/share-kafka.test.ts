// Share groups (KIP-932) against real Apache Kafka 4.4, one broker for the file: ShareConsumer
// members reading one topic between them (with Kafka's KafkaShareConsumer too), every
// acknowledgement type, the delivery count limit, a late acknowledgement, a member SIGKILLed
// while holding records, read_committed, the admin functions, commitAsync, implicit and explicit
// modes, prefetch, the group configs set by incremental alter, and `consume --share` processes
// (with their output failing: EPIPE, ENOSPC).

import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaClasspath, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';
import { ShareConsumer, type AcknowledgementResult, type ShareRecord } from '../../src/consumer/share.js';
import {
  alterShareGroupConfig, alterShareGroupOffsets, deleteShareGroup, deleteShareGroupOffsets, describeShareGroup, listShareGroups, resetShareGroupOffsets,
} from '../../src/admin/share-groups.js';
import { KafkaClient } from '../../src/wire/client.js';
import { Connection } from '../../src/wire/connection.js';
import { ApiKey } from '../../src/generated/types.js';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { bin, produceNumbered, produceTransactions, sleep, startMember, until } from './group-helpers.js';

const ok = await kafkaPeer();

/** Broker settings: short locks and heartbeats so that redelivery and joins take seconds. */
const LOCK_MS = 4000;
const DELIVERY_LIMIT = 3;
const SHARE_CONFIG = {
  'group.share.min.record.lock.duration.ms': '1000',
  'group.share.record.lock.duration.ms': String(LOCK_MS),
  'group.share.delivery.count.limit': String(DELIVERY_LIMIT),
  'group.share.heartbeat.interval.ms': '1000',
  'group.share.min.heartbeat.interval.ms': '1000',
  'group.share.session.timeout.ms': '6000',
  'group.share.min.session.timeout.ms': '6000',
  'transaction.state.log.replication.factor': '1',
  'transaction.state.log.min.isr': '1',
};

const text = (r: ShareRecord) => Buffer.from(r.value!).toString();
const distShare = join(repoRoot, 'dist', 'src', 'consumer', 'share.js');
const binOk = peer(`the built bin (${bin})`, existsSync(bin), 'npm run build');
const distOk = peer('the built library (dist/src/consumer/share.js)', existsSync(distShare), 'npm run build');

async function untilAsync(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > end) return false;
    await sleep(250);
  }
}

/** Offsets Kafka took as `type` (acknowledgements that succeeded), as "partition@offset". */
function took(results: readonly AcknowledgementResult[], type: string): string[] {
  return results.filter((r) => r.type === type && r.errorCode === 0).flatMap((r) => r.offsets.map((o) => `${r.partition}@${o}`));
}

describe.skipIf(!ok)('share groups against Kafka 4.4', () => {
  const kafka = useKafka({ config: SHARE_CONFIG });

  /** A new topic and a share group that starts at its beginning. */
  async function setup(name: string, partitions = 1, configs: Record<string, string> = {}): Promise<{ topic: string; group: string }> {
    const topic = `share-${name}`;
    const group = `${topic}-g`;
    await kafka().createTopic(topic, { partitions });
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try { await alterShareGroupConfig(client, group, { 'share.auto.offset.reset': 'earliest', ...configs }); } finally { await client.close(); }
    return { topic, group };
  }

  it('hands out every record with delivery count 1, and RELEASE hands it out again with 2', async () => {
    const { topic, group } = await setup('release');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const results: AcknowledgementResult[] = [];
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit', onAcknowledgement: (r) => results.push(...r) });
    try {
      const seen: ShareRecord[] = [];
      while (seen.length < 10) {
        const got = await c.poll(10_000);
        for (const r of got) { seen.push(r); c.acknowledge(r, r.offset === 3n ? 'release' : 'accept'); }
      }
      expect(seen.map(text)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
      expect(seen.every((r) => r.deliveryCount === 1)).toBe(true);
      const again = await c.poll(10_000);
      expect(again.map((r) => [r.offset, r.deliveryCount])).toEqual([[3n, 2]]);
      c.acknowledge(again[0]!, 'accept');
      const sent = await c.commitSync();
      expect(sent.map((r) => r.error?.message ?? null)).toEqual(sent.map(() => null));
      expect(results.filter((r) => r.type === 'release').flatMap((r) => r.offsets)).toEqual([3n]);
      expect(results.filter((r) => r.type === 'accept' && r.errorCode === 0).flatMap((r) => r.offsets).sort((a, b) => Number(a - b))).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i)));
    } finally {
      await c.close();
    }
  }, 60_000);

  it('shares one topic among three members: every record delivered, none accepted twice (implicit mode)', async () => {
    const { topic, group } = await setup('three', 3);
    const total = 3000;
    const results: AcknowledgementResult[] = [];
    const members = [0, 1, 2].map(() => new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], maxRecords: 50, onAcknowledgement: (r) => results.push(...r) }));
    const delivered = members.map(() => 0);
    try {
      await Promise.all(members.map((m) => m.start()));
      await produceNumbered(kafka().bootstrap, topic, 3, 0, total);
      const accepted = () => new Set(took(results, 'accept')).size;
      await Promise.all(members.map(async (m, i) => {
        const deadline = Date.now() + 60_000;
        while (accepted() < total && Date.now() < deadline) {
          delivered[i]! += (await m.poll(500)).length;
          await sleep(5); // let the others in
        }
        await m.commitSync();
      }));
      const all = took(results, 'accept');
      console.log(`share group of 3 on ${total} records: delivered ${delivered.join(' + ')}; accepted ${all.length}`);
      expect(new Set(all).size).toBe(total);
      expect(all.length).toBe(total); // no record accepted twice
      expect(delivered.filter((n) => n > 0).length).toBeGreaterThan(1);
      const description = await (async () => { const c = new KafkaClient({ bootstrap: kafka().bootstrap }); try { return await describeShareGroup(c, group); } finally { await c.close(); } })();
      expect(description.members.map((m) => m.memberId).sort()).toEqual(members.map((m) => m.memberId).sort());
      expect(description.members.every((m) => m.assignment.length === 1 && m.assignment[0]!.topic === topic)).toBe(true);
    } finally {
      await Promise.all(members.map((m) => m.close()));
    }
  }, 120_000);

  it('shares a topic between three kafka-wire members and Kafka\'s KafkaShareConsumer', async () => {
    const { topic, group } = await setup('java', 3);
    const total = 3000;
    const results: AcknowledgementResult[] = [];
    const java = spawn('java', ['-Xmx256m', '-cp', await kafkaClasspath(), 'dev.kafkawire.JavaClient', 'share', kafka().bootstrap, topic, `group.id=${group}`], { stdio: ['pipe', 'pipe', 'pipe'] });
    let javaOut = '';
    let javaErr = '';
    java.stdout.on('data', (d) => { javaOut += d; });
    java.stderr.on('data', (d) => { javaErr += d; });
    const javaExited = new Promise<number | null>((resolve) => java.once('exit', resolve));
    // Small, paced takes, so that the Java member (which takes more per poll) gets its share too.
    const members = [0, 1, 2].map(() => new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], maxRecords: 20, onAcknowledgement: (r) => results.push(...r) }));
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      await Promise.all(members.map((m) => m.start()));
      expect(await untilAsync(async () => {
        const d = await describeShareGroup(client, group);
        return d.members.length === 4 && d.members.every((m) => m.assignment.length > 0);
      }, 60_000)).toBe(true);
      await sleep(1500); // the Java member hears of its assignment at its next heartbeat
      await produceNumbered(kafka().bootstrap, topic, 3, 0, total);
      const javaRecords = () => javaOut.split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l) as { partition: number; offset: number; deliveryCount: number; value: string });
      const done = () => new Set([...took(results, 'accept'), ...javaRecords().map((r) => `${r.partition}@${r.offset}`)]).size >= total;
      await Promise.all(members.map(async (m) => {
        const deadline = Date.now() + 60_000;
        while (!done() && Date.now() < deadline) { await m.poll(300); await sleep(100); }
        await m.commitSync();
      }));
      java.stdin.end();
      expect(await javaExited, javaErr).toBe(0);
      const ours = took(results, 'accept');
      const theirs = javaRecords();
      console.log(`share group of 3 kafka-wire members and KafkaShareConsumer on ${total} records: kafka-wire accepted ${ours.length}, Java got ${theirs.length}`);
      expect(theirs.length).toBeGreaterThan(0);
      expect(ours.length).toBeGreaterThan(0);
      const all = [...ours, ...theirs.map((r) => `${r.partition}@${r.offset}`)];
      expect(new Set(all).size).toBe(total);
      expect(all.length).toBe(total); // no record accepted by two members
      expect(theirs.every((r) => r.deliveryCount === 1)).toBe(true);
    } finally {
      java.kill('SIGKILL');
      await Promise.all(members.map((m) => m.close()));
      await client.close();
    }
  }, 150_000);

  it('never hands out a REJECTed record again, and archives one released past the delivery count limit', async () => {
    const { topic, group } = await setup('reject');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 5);
    const results: AcknowledgementResult[] = [];
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit', onAcknowledgement: (r) => results.push(...r) });
    const deliveries = new Map<bigint, number[]>();
    try {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const got = await c.poll(1500);
        if (got.length === 0 && deliveries.size === 5) break; // nothing more comes
        for (const r of got) {
          deliveries.set(r.offset, [...(deliveries.get(r.offset) ?? []), r.deliveryCount]);
          // 1 is rejected; 0 released every time; the rest accepted.
          c.acknowledge(r, r.offset === 1n ? 'reject' : r.offset === 0n ? 'release' : 'accept');
        }
      }
      await c.commitSync();
    } finally {
      await c.close();
    }
    expect(deliveries.get(1n)).toEqual([1]);
    expect(deliveries.get(0n)).toEqual(Array.from({ length: DELIVERY_LIMIT }, (_, i) => i + 1));
    for (const o of [2n, 3n, 4n]) expect(deliveries.get(o)).toEqual([1]);
    expect(took(results, 'reject')).toEqual(['0@1']);
    expect(took(results, 'release')).toEqual(Array.from({ length: DELIVERY_LIMIT }, () => '0@0'));
    // Everything is done with: nothing lags.
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      expect(await untilAsync(async () => (await describeShareGroup(client, group)).offsets[0]?.lag === 0n, 10_000)).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('takes the group\'s share.record.lock.duration.ms, reports an acknowledgement that came after the lock expired, and the record comes again', async () => {
    const groupLockMs = 2500;
    const { topic, group } = await setup('late', 1, { 'share.record.lock.duration.ms': String(groupLockMs) });
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 1);
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit' });
    try {
      const [first] = await c.poll(10_000);
      expect(first!.deliveryCount).toBe(1);
      expect(c.acquisitionLockTimeoutMs).toBe(groupLockMs); // the group's, not the broker's LOCK_MS
      expect(first!.lockExpiresAt).toBeLessThanOrEqual(Date.now() + groupLockMs);
      await sleep(groupLockMs + 1500);
      c.acknowledge(first!, 'accept');
      const [late] = await c.commitSync();
      expect(late).toMatchObject({ type: 'accept', offsets: [0n], errorCode: 121 });
      expect(late!.error!.message).toMatch(/INVALID_RECORD_STATE.*lock had expired/);
      const [again] = await c.poll(10_000);
      expect([again!.offset, again!.deliveryCount]).toEqual([0n, 2]);
      c.acknowledge(again!, 'accept');
      expect((await c.commitSync()).map((r) => r.errorCode)).toEqual([0]);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('RENEW keeps the lock past its duration (KIP-1222)', async () => {
    const { topic, group } = await setup('renew');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 1);
    const results: AcknowledgementResult[] = [];
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit', onAcknowledgement: (r) => results.push(...r) });
    try {
      const [r] = await c.poll(10_000);
      // Explicit mode: no more records while one handed out is not acknowledged.
      await expect(c.poll(100)).rejects.toThrow(/not acknowledged yet/);
      const until = Date.now() + LOCK_MS * 2;
      while (Date.now() < until) {
        c.acknowledge(r!, 'renew');
        await c.commitSync();
        await sleep(LOCK_MS / 3);
      }
      expect(took(results, 'renew').length).toBeGreaterThan(3);
      expect(results.filter((x) => x.errorCode !== 0)).toEqual([]);
      c.acknowledge(r!, 'accept');
      expect((await c.commitSync()).map((x) => [x.type, x.errorCode])).toEqual([['accept', 0]]);
      expect(await c.poll(1500)).toEqual([]);
    } finally {
      await c.close();
    }
  }, 60_000);

  it.skipIf(!distOk)('gives a SIGKILLed member\'s records to the others once its locks expire, and a closed member lets the process exit', async () => {
    const { topic, group } = await setup('kill');
    const total = 200;
    await produceNumbered(kafka().bootstrap, topic, 1, 0, total);
    // A member in a process of its own that takes records and never acknowledges them.
    const script = `import { ShareConsumer } from ${JSON.stringify(distShare)};
      const c = new ShareConsumer({ bootstrap: ${JSON.stringify(kafka().bootstrap)}, groupId: ${JSON.stringify(group)}, topics: [${JSON.stringify(topic)}], acknowledgementMode: 'explicit', maxRecords: 50 });
      const got = await c.poll(20000);
      process.stdout.write(got.map((r) => String(r.offset)).join(',') + '\\n');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    expect(await until(() => out.includes('\n'), 30_000)).toBe(true);
    child.kill('SIGKILL');
    const held = out.trim().split(',').map(BigInt);
    expect(held.length).toBeGreaterThan(0);
    const results: AcknowledgementResult[] = [];
    const seen = new Map<bigint, number>();
    const others = [0, 1].map(() => new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], onAcknowledgement: (r) => results.push(...r) }));
    try {
      await Promise.all(others.map(async (m) => {
        const deadline = Date.now() + 40_000;
        while (new Set(took(results, 'accept')).size < total && Date.now() < deadline) {
          for (const r of await m.poll(500)) seen.set(r.offset, Math.max(seen.get(r.offset) ?? 0, r.deliveryCount));
        }
        await m.commitSync();
      }));
    } finally {
      await Promise.all(others.map((m) => m.close()));
    }
    const accepted = took(results, 'accept');
    expect(new Set(accepted).size).toBe(total);
    expect(accepted.length).toBe(total);
    // What the killed member held came again, counted as a second delivery.
    for (const o of held) expect(seen.get(o)).toBe(2);
    expect([...seen].filter(([o, n]) => n > 1 && !held.includes(o))).toEqual([]);

    // A member that closes (acknowledging, leaving, closing its sessions) holds nothing open.
    await produceNumbered(kafka().bootstrap, topic, 1, total, total + 10);
    const tidy = spawn(process.execPath, ['--input-type=module', '-e', `import { ShareConsumer } from ${JSON.stringify(distShare)};
      const c = new ShareConsumer({ bootstrap: ${JSON.stringify(kafka().bootstrap)}, groupId: ${JSON.stringify(group)}, topics: [${JSON.stringify(topic)}] });
      const got = await c.poll(20000);
      await c.close();
      process.stdout.write(String(got.length));`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let tidyOut = '';
    tidy.stdout.on('data', (d) => { tidyOut += d; });
    const code = await new Promise<number | null>((resolve) => {
      const t = setTimeout(() => { tidy.kill('SIGKILL'); resolve(null); }, 30_000);
      tidy.once('exit', (c) => { clearTimeout(t); resolve(c); });
    });
    expect(code).toBe(0);
    expect(Number(tidyOut)).toBeGreaterThan(0);
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      // It left the group (epoch -1): only the killed member may linger until its session times out.
      expect((await describeShareGroup(client, group)).members.length).toBeLessThanOrEqual(1);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('a read_committed share group (share.isolation.level) hands out only committed records; markers are acknowledged as gaps', async () => {
    const { topic, group } = await setup('txn', 1, { 'share.isolation.level': 'read_committed' });
    await produceTransactions(kafka().bootstrap, topic, 0, [
      { commit: true, values: ['c1', 'c2'] },
      { commit: false, values: ['a1', 'a2', 'a3'] },
      { commit: true, values: ['c3'] },
      { commit: false, values: ['a4'] },
    ]);
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 1, 'plain');
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic] });
    const got: string[] = [];
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      const deadline = Date.now() + 30_000;
      while (!got.includes('plain0') && Date.now() < deadline) got.push(...(await c.poll(1000)).map(text));
      expect(await c.poll(1500)).toEqual([]);
      await c.commitSync();
      expect(got).toEqual(['c1', 'c2', 'c3', 'plain0']);
      // Every offset is done with, the markers' and aborted records' too.
      expect(await untilAsync(async () => (await describeShareGroup(client, group)).offsets[0]?.lag === 0n, 10_000)).toBe(true);
    } finally {
      await c.close();
      await client.close();
    }
  }, 60_000);

  it('lists, describes, alters, resets and deletes share groups and their offsets', async () => {
    const { topic, group } = await setup('admin', 2);
    await produceNumbered(kafka().bootstrap, topic, 2, 0, 20);
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic] });
    try {
      let n = 0;
      while (n < 20) n += (await c.poll(10_000)).length;
      expect((await listShareGroups(client)).find((g) => g.groupId === group)).toEqual({ groupId: group, state: 'Stable' });
      const d = await describeShareGroup(client, group);
      expect(d.members).toHaveLength(1);
      expect(d.members[0]).toMatchObject({ memberId: c.memberId, subscribedTopicNames: [topic], assignment: [{ topic, partitions: [0, 1] }] });
      // Implicit mode: close accepts what was handed out (no commit before it) and leaves.
      await c.close();
      expect(await untilAsync(async () => (await describeShareGroup(client, group)).offsets.every((o) => o.lag === 0n), 10_000)).toBe(true);
      expect((await describeShareGroup(client, group)).members).toEqual([]);
      // With no members, the start offsets can move: back to 0 (lag 10 each), then to the end.
      await alterShareGroupOffsets(client, group, [{ topic, partition: 0, offset: 0n }, { topic, partition: 1, offset: 0n }]);
      expect((await describeShareGroup(client, group)).offsets).toEqual([
        { topic, partition: 0, startOffset: 0n, lag: 10n }, { topic, partition: 1, startOffset: 0n, lag: 10n },
      ]);
      expect(await resetShareGroupOffsets(client, group, [topic], 'latest')).toEqual([{ topic, partition: 0, offset: 10n }, { topic, partition: 1, offset: 10n }]);
      expect((await describeShareGroup(client, group)).offsets.map((o) => o.startOffset)).toEqual([10n, 10n]);
      await deleteShareGroupOffsets(client, group, [topic]);
      expect((await describeShareGroup(client, group)).offsets).toEqual([]);
      await deleteShareGroup(client, group);
      expect((await listShareGroups(client)).some((g) => g.groupId === group)).toBe(false);
    } finally {
      await c.close();
      await client.close();
    }
  }, 60_000);

  it.skipIf(!binOk)('two `consume --share` processes read a topic between them, every record written once', async () => {
    const { topic, group } = await setup('cli', 4);
    const total = 100_000;
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-share-'));
    const members = ['a', 'b'].map((n) => startMember(dir, n, ['-b', kafka().bootstrap, '--share', group, topic]));
    try {
      await produceNumbered(kafka().bootstrap, topic, 4, 0, total);
      const lines = () => members.flatMap((m) => readFileSync(m.out, 'utf8').split('\n').filter((l) => l.endsWith('}')));
      expect(await until(() => lines().length >= total, 90_000, 250)).toBe(true);
      await sleep(500); // anything written twice would show by now
      for (const m of members) m.child.kill('SIGTERM');
      expect(await Promise.all(members.map((m) => m.exited))).toEqual([0, 0]);
      const written = members.map((m) => readFileSync(m.out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { partition: number; offset: number; value: string; deliveryCount: number }));
      const keys = written.flat().map((r) => `${r.partition}@${r.offset}`);
      console.log(`consume --share x2 on ${total} records: ${written.map((w) => w.length).join(' + ')} lines`);
      expect(keys.length).toBe(total);
      expect(new Set(keys).size).toBe(total);
      expect(new Set(written.flat().map((r) => r.value)).size).toBe(total);
      expect(written.flat().every((r) => r.deliveryCount === 1)).toBe(true);
      expect(written.every((w) => w.length > 0)).toBe(true);
    } finally {
      for (const m of members) m.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it.skipIf(!binOk)('`consume --share` fetches ahead while its lines wait, accepts a record only after its line got out, and what it fetched ahead but never wrote comes again: each line written once', async () => {
    // A lock long enough that the lines held back below never outlast it.
    // Four partitions: a member holds at most group.share.partition.max.record.locks (2000) of
    // each, and both ShareFetches (5000 records each) must find records to lock.
    const { topic, group } = await setup('cli-ahead', 4, { 'share.record.lock.duration.ms': '15000' });
    const total = 40_000;
    // Long values: one poll's lines are far more than a pipe holds.
    await produceNumbered(kafka().bootstrap, topic, 4, 0, total, 'r'.padEnd(200, '-'));
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    const child = spawn(process.execPath, [bin, 'consume', '-b', kafka().bootstrap, '--share', group, topic], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KAFKA_WIRE_DEBUG: 'share' } });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let err = '';
    child.stderr!.on('data', (d) => { err += d; });
    /** The debug line of each ShareFetch answer: its acknowledgement count and whether it brought records. */
    const fetches = () => [...err.matchAll(/ShareFetch broker \d+ epoch \d+: (\d+) acks, .*; acquired (.*)/g)].map((m) => ({ acks: Number(m[1]), records: m[2] !== 'nothing' }));
    let out = '';
    try {
      // Nobody reads stdout: the first poll's lines (~1.5 MB) fill the pipe and their flush waits.
      child.stdout!.pause();
      expect(await until(() => fetches().filter((f) => f.records).length >= 2, 30_000, 50), err).toBe(true);
      await sleep(1500);
      const held = fetches();
      // One ShareFetch ahead of the lines being written, no more, and none carried an
      // acknowledgement: nothing is accepted before its line is out.
      expect(held.filter((f) => f.records).length).toBe(2);
      expect(held.every((f) => f.acks === 0)).toBe(true);
      const before = (await describeShareGroup(client, group)).offsets;
      expect(before.every((p) => (p.startOffset ?? 0n) === 0n)).toBe(true);
      // Reading now: the flushed lines' records are accepted with the next ShareFetch; stopped
      // part way, the member writes and accepts what it has in hand and releases the rest.
      child.stdout!.on('data', (d) => { out += d; });
      child.stdout!.resume();
      expect(await until(() => out.split('\n').length > 7000, 60_000, 10)).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(fetches().some((f) => f.acks > 0)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
    try {
      const first = lines(out);
      const second = await consumeShare(['--share', group, '-e', topic], 'pipe');
      expect(second.code, second.err).toBe(0);
      const rest = lines(second.out);
      console.log(`consume --share stopped after ${first.length} lines; the second member wrote ${rest.length}, ${rest.filter((r) => r.deliveryCount > 1).length} of them a second delivery`);
      expect(first.length).toBeGreaterThanOrEqual(7000);
      expect(first.every((r) => r.deliveryCount === 1)).toBe(true);
      const values = [...first, ...rest].map((r) => r.value);
      expect(values.length).toBe(total); // none written twice
      expect(new Set(values).size).toBe(total); // none lost
      expect(rest.every((r) => r.deliveryCount <= 2)).toBe(true);
      expect(await untilAsync(async () => (await describeShareGroup(client, group)).offsets.every((p) => p.lag === 0n), 10_000)).toBe(true);
    } finally {
      await client.close();
    }
  }, 150_000);

  it.skipIf(!binOk)('`consume --share -f` prints kcat formats, and -c stops after COUNT with the rest released', async () => {
    const { topic, group } = await setup('cli-format');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const run = (args: string[]) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'consume', '-b', kafka().bootstrap, '--share', group, ...args, topic], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = ''; let err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.once('exit', (code) => resolve({ code, out, err }));
    });
    const first = await run(['-c', '4', '-f', '%p:%o:%s\\n']);
    expect(first).toMatchObject({ code: 0, out: '0:0:r0\n0:1:r1\n0:2:r2\n0:3:r3\n' });
    // The six past -c were released: the next member gets them at once, a second delivery each.
    const second = await run(['-e']);
    expect(second.code).toBe(0);
    const rest = second.out.trim().split('\n').map((l) => JSON.parse(l) as { offset: number; deliveryCount: number });
    // Offsets as consume prints them (Numbers while exact).
    expect(rest.map((r) => [r.offset, r.deliveryCount])).toEqual([4, 5, 6, 7, 8, 9].map((o) => [o, 2]));
    expect((await run(['--reject', '--release-on-error'])).err).toMatch(/one of --release-on-error and --reject/);
  }, 60_000);

  it('commitAsync sends acknowledgements without waiting; the callback learns each result, and nothing accepted or rejected comes again', async () => {
    const { topic, group } = await setup('async');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const results: AcknowledgementResult[] = [];
    let calls = 0;
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit', onAcknowledgement: (r) => { calls++; results.push(...r); } });
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      const seen: ShareRecord[] = [];
      while (seen.length < 10) seen.push(...await c.poll(10_000));
      for (const r of seen) c.acknowledge(r, r.offset === 8n ? 'reject' : r.offset === 9n ? 'release' : 'accept');
      expect(c.commitAsync()).toBeUndefined(); // returns at once: nothing answered yet
      expect(results).toEqual([]);
      expect(await until(() => results.length >= 3, 10_000)).toBe(true);
      expect(calls).toBe(1); // one ShareAcknowledge, its results in one call
      expect(took(results, 'accept')).toEqual(Array.from({ length: 8 }, (_, i) => `0@${i}`));
      expect(took(results, 'reject')).toEqual(['0@8']);
      expect(took(results, 'release')).toEqual(['0@9']);
      expect(results.every((r) => r.errorCode === 0 && r.error === null)).toBe(true);
      // Only the released record comes again; accepting it by commitAsync too leaves nothing to deliver.
      const again = await c.poll(10_000);
      expect(again.map((r) => [r.offset, r.deliveryCount])).toEqual([[9n, 2]]);
      c.acknowledge(again[0]!, 'accept');
      c.commitAsync();
      expect(await until(() => took(results, 'accept').length === 9, 10_000)).toBe(true);
      expect(await untilAsync(async () => (await describeShareGroup(client, group)).offsets[0]?.lag === 0n, 10_000)).toBe(true);
      expect(await c.poll(1500)).toEqual([]);
    } finally {
      await c.close();
      await client.close();
    }
    // A new member of the group after the locks would have expired: nothing comes again.
    await sleep(LOCK_MS);
    const d = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic] });
    try { expect(await d.poll(2000)).toEqual([]); } finally { await d.close(); }
  }, 60_000);

  it('pollRuns hands out runs of a batch\'s records; acknowledgeRun sends each run as one offset range (not a batch per record), and what it released comes again', async () => {
    const { topic, group } = await setup('runs');
    const total = 1000;
    await produceNumbered(kafka().bootstrap, topic, 1, 0, total); // batches of 100
    // What goes on the wire: every acknowledgement batch of each ShareFetch and ShareAcknowledge.
    const sent: { firstOffset: bigint; lastOffset: bigint; acknowledgeTypes: number[] }[] = [];
    const request = Connection.prototype.request;
    Connection.prototype.request = function (this: Connection, apiKey: number, ...rest: unknown[]) {
      if (apiKey === ApiKey.ShareFetch || apiKey === ApiKey.ShareAcknowledge) {
        const body = rest[1] as { topics: { partitions: { acknowledgementBatches?: typeof sent }[] }[] };
        for (const t of body.topics) for (const p of t.partitions) sent.push(...(p.acknowledgementBatches ?? []));
      }
      return (request as (...a: unknown[]) => Promise<unknown>).call(this, apiKey, ...rest);
    } as typeof request;
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit', maxRecords: total });
    const c2 = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic] });
    try {
      const runs: Awaited<ReturnType<ShareConsumer['pollRuns']>> = [];
      let n = 0;
      for (let i = 0; i < 40 && n < total; i++) {
        const got = await c.pollRuns(1000);
        // Each run: accept its first half, release the rest (two ranges), before the next poll.
        for (const run of got) {
          const mid = run.from + Math.floor((run.to - run.from) / 2);
          c.acknowledgeRun(run, 'accept', run.from, mid);
          c.acknowledgeRun(run, 'release', mid, run.to);
          expect(() => c.acknowledgeRun(run, 'accept', mid, mid + 1)).toThrow(/already acknowledged|not a run this consumer holds/);
          n += run.to - run.from;
        }
        runs.push(...got);
      }
      expect(n).toBe(total);
      // One run per produced batch at most (runs do not cross batches), each all of one delivery count.
      expect(runs.length).toBeGreaterThanOrEqual(total / 100);
      expect(runs.every((r) => r.deliveryCount === 1 && r.lastOffset - r.firstOffset === BigInt(r.to - r.from - 1))).toBe(true);
      const results = await c.commitSync();
      const released = new Set(took(results, 'release'));
      // Two ranges per run on the wire (accept, then release; nothing else: the offsets have no gaps).
      expect(sent.length).toBe(2 * runs.length);
      expect(sent.every((b) => b.acknowledgeTypes.length === 1)).toBe(true);
      const expected = runs.flatMap((r) => {
        const mid = r.firstOffset + BigInt(Math.floor((r.to - r.from) / 2));
        return [{ firstOffset: r.firstOffset, lastOffset: mid - 1n, acknowledgeTypes: [1] }, { firstOffset: mid, lastOffset: r.lastOffset, acknowledgeTypes: [2] }];
      });
      expect([...sent].sort((a, b) => Number(a.firstOffset - b.firstOffset))).toEqual(expected.sort((a, b) => Number(a.firstOffset - b.firstOffset)));
      // The released records come again (to another member), counted twice; the accepted ones do not.
      const again: ShareRecord[] = [];
      for (let i = 0; i < 40 && again.length < released.size; i++) again.push(...await c2.poll(1000));
      expect(new Set(again.map((r) => `${r.partition}@${r.offset}`))).toEqual(released);
      expect(released.size).toBe(total / 2);
      expect(again.every((r) => r.deliveryCount === 2)).toBe(true);
    } finally {
      Connection.prototype.request = request;
      await c.close();
      await c2.close();
    }
  }, 60_000);

  it('implicit mode accepts what was handed out when the next records are asked for; explicit mode waits for each record\'s word', async () => {
    const { topic, group } = await setup('modes');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 5);
    const results: AcknowledgementResult[] = [];
    const implicit = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], onAcknowledgement: (r) => results.push(...r) });
    try {
      const first: ShareRecord[] = [];
      while (first.length < 5) first.push(...await implicit.poll(10_000));
      expect(results).toEqual([]); // nothing acknowledged while the records are the caller's
      await produceNumbered(kafka().bootstrap, topic, 1, 5, 8);
      const second: ShareRecord[] = [];
      while (second.length < 3) second.push(...await implicit.poll(10_000));
      // Asking for more accepted the first five (on the ShareFetch that brought the next three).
      expect(took(results, 'accept')).toEqual(['0@0', '0@1', '0@2', '0@3', '0@4']);
      expect(results.every((r) => r.errorCode === 0)).toBe(true);
      expect(second.map((r) => r.offset)).toEqual([5n, 6n, 7n]);
    } finally {
      await implicit.close(); // accepts the three
    }
    expect(took(results, 'accept')).toHaveLength(8);
    await produceNumbered(kafka().bootstrap, topic, 1, 8, 10);
    const explicit = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit' });
    try {
      const got: ShareRecord[] = [];
      while (got.length < 2) got.push(...await explicit.poll(10_000));
      explicit.acknowledge(got[0]!, 'accept');
      await expect(explicit.poll(100)).rejects.toThrow(/1 record\(s\) handed out are not acknowledged yet/);
      expect(() => explicit.acknowledge(got[0]!, 'accept')).toThrow(/not a record this consumer holds/);
      explicit.acknowledge(got[1]!, 'release');
      const again = await explicit.poll(10_000);
      expect(again.map((r) => [r.offset, r.deliveryCount])).toEqual([[9n, 2]]);
      explicit.acknowledge(again[0]!, 'accept');
    } finally {
      await explicit.close();
    }
  }, 60_000);

  it('prefetch: true fetches ahead while the caller works; every record once, and what waits at close comes again counted twice', async () => {
    const { topic, group } = await setup('prefetch');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 300);
    const results: AcknowledgementResult[] = [];
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], maxRecords: 100, prefetch: true, onAcknowledgement: (r) => results.push(...r) });
    const first = await c.poll(10_000);
    expect(first[0]!.offset).toBe(0n);
    // While the caller holds the first records, the next ones are fetched (and locked to it).
    const fetched = new Set<bigint>(first.map((r) => r.offset));
    await sleep(1500);
    const second = await c.poll(0); // there already: no wait
    expect(second.length).toBeGreaterThan(0);
    for (const r of second) fetched.add(r.offset);
    expect(second.every((r) => r.deliveryCount === 1 && !first.some((f) => f.offset === r.offset))).toBe(true);
    await sleep(1500); // a third batch arrives and waits
    await c.close(); // accepts the first two batches; the waiting one is released
    const accepted = took(results, 'accept');
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(accepted.length).toBe(fetched.size);
    const rest = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic] });
    const counts = new Map<bigint, number>();
    try {
      while (counts.size < 300 - fetched.size) for (const r of await rest.poll(10_000)) counts.set(r.offset, r.deliveryCount);
    } finally {
      await rest.close();
    }
    expect([...counts.keys()].some((o) => fetched.has(o))).toBe(false); // nothing accepted came again
    expect([...counts.values()].filter((n) => n === 2).length).toBeGreaterThan(0); // the batch that waited at close
  }, 60_000);

  it('respects the group configs set by incremental alter: share.auto.offset.reset latest (the default) and by_duration, share.delivery.count.limit; share.acknowledgement.mode is the consumer\'s', async () => {
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      // latest: a group that never set it reads only what comes after it started.
      const latest = 'share-latest';
      await kafka().createTopic(latest, { partitions: 1 });
      await produceNumbered(kafka().bootstrap, latest, 1, 0, 5, 'old');
      const l = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: `${latest}-g`, topics: [latest] });
      try {
        expect(await l.poll(2000)).toEqual([]); // joins; the share-partition starts at the end
        await produceNumbered(kafka().bootstrap, latest, 1, 0, 3, 'new');
        const got: string[] = [];
        while (got.length < 3) got.push(...(await l.poll(10_000)).map(text));
        expect(got).toEqual(['new0', 'new1', 'new2']);
      } finally {
        await l.close();
      }
      // by_duration: from the records of the last hour (all of them, here).
      const { topic: dur, group: durGroup } = await setup('duration', 1, { 'share.auto.offset.reset': 'by_duration:PT1H' });
      await produceNumbered(kafka().bootstrap, dur, 1, 0, 4);
      const d = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: durGroup, topics: [dur] });
      try {
        const got: string[] = [];
        while (got.length < 4) got.push(...(await d.poll(10_000)).map(text));
        expect(got).toEqual(['r0', 'r1', 'r2', 'r3']);
      } finally {
        await d.close();
      }
      // share.delivery.count.limit per group (the broker's is DELIVERY_LIMIT): released twice, then archived.
      const { topic, group } = await setup('group-limit', 1, { 'share.delivery.count.limit': '2' });
      await produceNumbered(kafka().bootstrap, topic, 1, 0, 1);
      const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit' });
      const counts: number[] = [];
      try {
        for (;;) {
          const got = await c.poll(counts.length === 0 ? 10_000 : 1500);
          if (got.length === 0) break;
          for (const r of got) { counts.push(r.deliveryCount); c.acknowledge(r, 'release'); }
        }
      } finally {
        await c.close();
      }
      expect(counts).toEqual([1, 2]);
      // Kafka 4.4 has no group config share.acknowledgement.mode (it is the consumer's setting,
      // ShareConsumer's acknowledgementMode): the alter is refused, naming the config.
      await expect(alterShareGroupConfig(client, group, { 'share.acknowledgement.mode': 'explicit' })).rejects.toThrow(/INVALID_CONFIG.*share\.acknowledgement\.mode|share\.acknowledgement\.mode.*INVALID_CONFIG/s);
      await expect(alterShareGroupConfig(client, group, { 'share.auto.offset.reset': 'sometimes' })).rejects.toThrow(/INVALID_CONFIG/);
    } finally {
      await client.close();
    }
  }, 90_000);

  /** `consume --share` with stdout as given; resolves with its exit code, stdout and stderr. */
  function consumeShare(args: string[], stdout: 'pipe' | number | 'closed'): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, 'consume', '-b', kafka().bootstrap, ...args], { stdio: ['ignore', stdout === 'closed' ? 'pipe' : stdout, 'pipe'] });
      let out = ''; let err = '';
      // 'closed': the reader is gone before anything is written (the writes fail with EPIPE).
      if (stdout === 'closed') child.stdout!.destroy(); else child.stdout?.on('data', (d) => { out += d; });
      child.stderr!.on('data', (d) => { err += d; });
      const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', (code) => { clearTimeout(t); resolve({ code, out, err }); });
    });
  }
  const lines = (out: string) => out.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { offset: number; deliveryCount: number; value: string });

  it.skipIf(!binOk)('`consume --share --release-on-error`: when stdout\'s reader is gone (EPIPE), the records not written are released, not accepted', async () => {
    const { topic, group } = await setup('cli-release');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const failed = await consumeShare(['--share', group, '--release-on-error', '-e', topic], 'closed');
    expect(failed.code, failed.err).toBe(0); // a reader that stopped early is not an error, as for consume
    const again = await consumeShare(['--share', group, '-e', topic], 'pipe');
    expect(again.code, again.err).toBe(0);
    expect(lines(again.out).map((r) => [r.value, r.deliveryCount])).toEqual(Array.from({ length: 10 }, (_, i) => [`r${i}`, 2]));
  }, 60_000);

  it.skipIf(!binOk)('`consume --share --reject`: when writing fails (ENOSPC on /dev/full), the records not written are rejected: never delivered again', async () => {
    const { topic, group } = await setup('cli-reject');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const full = openSync('/dev/full', 'w');
    let failed;
    try { failed = await consumeShare(['--share', group, '--reject', '-e', topic], full); } finally { closeSync(full); }
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/ENOSPC/);
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try {
      // Rejected is done with: the start offset moved past them, and no member gets them.
      expect(await untilAsync(async () => (await describeShareGroup(client, group)).offsets[0]?.lag === 0n, 10_000)).toBe(true);
    } finally {
      await client.close();
    }
    const again = await consumeShare(['--share', group, '-e', topic], 'pipe');
    expect(again).toMatchObject({ code: 0, out: '' });
  }, 60_000);

  it.skipIf(!binOk)('`consume --share` without either option: records whose lines failed are not accepted; closing the session releases them', async () => {
    const { topic, group } = await setup('cli-unacked');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const full = openSync('/dev/full', 'w');
    let failed;
    try { failed = await consumeShare(['--share', group, '-e', topic], full); } finally { closeSync(full); }
    expect(failed.code).toBe(1);
    const again = await consumeShare(['--share', group, '-e', topic], 'pipe');
    expect(again.code, again.err).toBe(0);
    expect(lines(again.out).map((r) => r.value)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
    expect(lines(again.out).every((r) => r.deliveryCount >= 1)).toBe(true);
  }, 60_000);
});
