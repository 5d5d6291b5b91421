// Consumer groups against librdkafka's mock cluster (classic protocol): the library consumer, the
// `consume -G` command in several processes with one killed, a group mixed with kcat -G members,
// a slow handler during a rebalance, commit on close, a topic created later matching a pattern,
// and pause / resume / seek / the buffer limit without a group.
//
// The mock coordinator refuses OffsetCommit while a rebalance is under way (Kafka accepts it from
// members of the current generation), so here the last batch before a rebalance can be read
// twice; every such duplicate must be explained by its first reader not having committed it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { mockClusterAvailable, startMockCluster, type MockCluster } from '../wire/mock-cluster.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { Consumer, type PartitionBatch } from '../../src/consumer/index.js';
import { fetchCommitted } from '../../src/consumer/offsets.js';
import { findCoordinator } from '../../src/consumer/classic.js';
import { KafkaClient } from '../../src/wire/client.js';
import { account, bin, printed, produceNumbered, sleep, startKcatMember, startMember, until, type Member } from './group-helpers.js';

const mockOk = peer('librdkafka mock cluster', (await mockClusterAvailable()).ok, 'apt-get install librdkafka-dev and a C compiler');
const kcatOk = peer('kcat', hasCommand('kcat'), 'apt-get install kcat');
const binOk = peer(`the built bin (${bin})`, existsSync(bin), 'npm run build');

/** Group timing for tests: the mock waits session timeout - 1 s for members to rejoin. */
const FAST = { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, groupProtocol: 'classic' as const, resetPolicy: 'earliest' as const };

const values = (b: PartitionBatch) => b.records().map((r) => Buffer.from(r.value!).toString());

describe.skipIf(!mockOk)('consumer groups on the mock cluster', () => {
  let mc: MockCluster;
  let dir: string;
  const members: Member[] = [];
  beforeAll(async () => {
    mc = await startMockCluster({ brokers: 3, topics: ['lib:4', 'split:12', 'mixed:12', 'slow:2', 'closing:3', 'assigned:2'] });
    dir = mkdtempSync(join(tmpdir(), 'kafka-wire-groups-'));
  });
  afterAll(async () => {
    for (const m of members) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    await mc?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a member reads everything and commits; the next one resumes after it', async () => {
    await produceNumbered(mc.bootstrap, 'lib', 4, 0, 400);
    const first = new Consumer({ bootstrap: mc.bootstrap, groupId: 'lib-g', topics: ['lib'], ...FAST });
    const got: string[] = [];
    for await (const batch of first) {
      got.push(...values(batch));
      if (got.length >= 400) { first.markFinished(batch); break; } // a break alone finishes nothing of the batch
    }
    await first.close();
    expect(new Set(got).size).toBe(400);

    await produceNumbered(mc.bootstrap, 'lib', 4, 400, 500);
    const second = new Consumer({ bootstrap: mc.bootstrap, groupId: 'lib-g', topics: ['lib'], ...FAST });
    const later: string[] = [];
    await new Promise<void>((resolve, reject) => {
      second.run((batch) => { later.push(...values(batch)); if (later.length >= 100) resolve(); }).catch(reject);
    });
    await second.close();
    expect(later.sort()).toEqual(Array.from({ length: 100 }, (_, i) => `r${400 + i}`).sort());
  });

  it.skipIf(!binOk)('three consume -G processes split 12 partitions; one SIGKILLed mid-import loses nothing', async () => {
    const total = 24_000;
    const args = (name: string) => startMember(dir, name, ['-b', mc.bootstrap, '-G', 'split-g', '--session-timeout', '6000', 'split']);
    const group = ['a', 'b', 'c'].map(args);
    members.push(...group);
    // Produce while they run, so the kill lands mid-import.
    const producing = (async () => {
      for (let from = 0; from < total; from += 1200) {
        await produceNumbered(mc.bootstrap, 'split', 12, from, from + 1200);
        await sleep(250);
      }
    })();
    // Wait for the group to form and the victim to have read something, then kill it.
    const victim = group[1]!;
    expect(await until(() => printed(victim).size > 500, 30_000)).toBe(true);
    victim.child.kill('SIGKILL');
    await producing;
    const survivors = group.filter((m) => m !== victim);
    const everything = () => account(group, 'split', total).lost.length === 0;
    const complete = await until(everything, 45_000, 500);
    for (const m of survivors) m.child.kill('SIGTERM');
    const codes = await Promise.all(survivors.map((m) => m.exited));
    const result = account(group, 'split', total);
    console.log(`split: produced ${total}; read ${[...result.byMember].map(([n, c]) => `${n} ${c}`).join(', ')}; ` +
      `duplicates ${result.duplicates} (${[...result.explainedBy].map(([n, c]) => `${c} uncommitted by ${n}`).join(', ') || 'none'})`);
    expect(complete).toBe(true);
    expect(result.lost).toEqual([]);
    expect(result.unexplained).toEqual([]);
    expect(codes).toEqual([0, 0]);
    for (const m of survivors) expect(result.byMember.get(m.name)).toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(!binOk || !kcatOk)('a mixed group: kafka-wire and kcat -G (librdkafka) members split the partitions', async () => {
    const total = 6000;
    await produceNumbered(mc.bootstrap, 'mixed', 12, 0, total);
    const group = [
      startMember(dir, 'kw1', ['-b', mc.bootstrap, '-G', 'mixed-g', '--session-timeout', '6000', 'mixed']),
      startKcatMember(dir, 'kcat1', mc.bootstrap, 'mixed-g', 'mixed'),
      startMember(dir, 'kw2', ['-b', mc.bootstrap, '-G', 'mixed-g', '--session-timeout', '6000', 'mixed']),
      startKcatMember(dir, 'kcat2', mc.bootstrap, 'mixed-g', 'mixed'),
    ];
    members.push(...group);
    // Four members of two clients joining one by one: eager rebalances on the mock cluster take a
    // few seconds each, and under a loaded CI machine several of them (45 s was seen to fall short).
    const complete = await until(() => account(group, 'mixed', total).lost.length === 0, 100_000, 500);
    await sleep(1000);
    for (const m of group) m.child.kill('SIGTERM');
    await Promise.all(group.map((m) => m.exited));
    const result = account(group, 'mixed', total);
    console.log(`mixed: read ${[...result.byMember].map(([n, c]) => `${n} ${c}`).join(', ')}; duplicates ${result.duplicates}`);
    expect(complete).toBe(true);
    expect(result.lost).toEqual([]);
    expect(result.unexplained).toEqual([]);
    // Both kinds of member took part (the group formed across clients, with one assignor).
    expect((result.byMember.get('kw1') ?? 0) + (result.byMember.get('kw2') ?? 0)).toBeGreaterThan(0);
    expect((result.byMember.get('kcat1') ?? 0) + (result.byMember.get('kcat2') ?? 0)).toBeGreaterThan(0);
  }, 150_000);

  it('a slow handler finishes before its partitions are given up in a rebalance', async () => {
    await produceNumbered(mc.bootstrap, 'slow', 2, 0, 200);
    const events: string[] = [];
    const a = new Consumer({ bootstrap: mc.bootstrap, groupId: 'slow-g', topics: ['slow'], ...FAST, autoCommit: 'batch', maxWaitMs: 100 });
    a.on('revoked', (tps) => events.push(`revoked ${tps.map((tp) => tp.partitions.join(',')).join(' ')}`));
    a.on('assigned', (tps) => events.push(`assigned ${tps.map((tp) => tp.partitions.join(',')).join(' ')}`));
    let b: Consumer | undefined;
    const readByA: string[] = [];
    let slowDone = false;
    const running = a.run(async (batch) => {
      if (b === undefined) {
        // The first batch: a second member joins while this handler takes its time.
        b = new Consumer({ bootstrap: mc.bootstrap, groupId: 'slow-g', topics: ['slow'], ...FAST });
        void b.start();
        events.push('slow handler started');
        await sleep(1500);
        events.push('slow handler done');
        slowDone = true;
      }
      readByA.push(...values(batch));
    });
    expect(await until(() => events.some((e) => e.startsWith('revoked')), 30_000)).toBe(true);
    expect(slowDone).toBe(true);
    expect(events.indexOf('slow handler done')).toBeLessThan(events.findIndex((e) => e.startsWith('revoked')));
    const readByB: string[] = [];
    const bRun = b!.run((batch) => { readByB.push(...values(batch)); });
    expect(await until(() => new Set([...readByA, ...readByB]).size >= 200, 30_000)).toBe(true);
    await Promise.all([a.close(), b!.close()]);
    await Promise.all([running, bRun]);
    // Nothing lost; anything read twice was in A's batch whose commit the mock refused mid-rebalance.
    expect(new Set([...readByA, ...readByB]).size).toBe(200);
  }, 60_000);

  it('close() commits what was finished', async () => {
    await produceNumbered(mc.bootstrap, 'closing', 3, 0, 300);
    const c = new Consumer({ bootstrap: mc.bootstrap, groupId: 'close-g', topics: ['closing'], ...FAST, autoCommit: 'manual' });
    let n = 0;
    for await (const batch of c) {
      n += batch.recordCount;
      if (n >= 300) { c.markFinished(batch); break; }
    }
    await c.close();
    const client = new KafkaClient({ bootstrap: mc.bootstrap });
    const conn = await findCoordinator(client, 'close-g');
    const committed = await fetchCommitted(conn, 'close-g', [{ topic: 'closing', partitions: [0, 1, 2] }], false);
    await conn.close();
    await client.close();
    expect([...committed.get('closing')!].sort()).toEqual([[0, 100n], [1, 100n], [2, 100n]]);
  });

  it('a topic created later that matches the pattern is joined and read', async () => {
    await produceNumbered(mc.bootstrap, 'pat-first', 2, 0, 20, 'first');
    const c = new Consumer({ bootstrap: mc.bootstrap, groupId: 'pat-g', topics: [/^pat-/], ...FAST, metadataRefreshMs: 500 });
    const got = new Set<string>();
    const running = c.run((batch) => { for (const v of values(batch)) got.add(`${batch.topic} ${v}`); });
    expect(await until(() => got.size >= 20, 20_000)).toBe(true);
    await produceNumbered(mc.bootstrap, 'pat-later', 3, 0, 30, 'later');
    expect(await until(() => got.size >= 50, 30_000)).toBe(true);
    expect([...got].filter((g) => g.startsWith('pat-later ')).length).toBe(30);
    await c.close();
    await running;
  }, 60_000);

  it('without a group: pause, resume, seek, and the buffer limit', async () => {
    await produceNumbered(mc.bootstrap, 'assigned', 2, 0, 4000, 'x', 50);
    const limit = 4096;
    const c = new Consumer({
      bootstrap: mc.bootstrap, assign: [{ topic: 'assigned' }], resetPolicy: 'earliest',
      maxBufferedBytes: limit, partitionMaxBytes: 2048, fetchMaxBytes: 4096, maxWaitMs: 50,
    });
    await c.start();
    c.pause([{ topic: 'assigned', partitions: [1] }]);
    const seen: [number, bigint][] = [];
    let maxBuffered = 0;
    let sought = false;
    for await (const batch of c) {
      maxBuffered = Math.max(maxBuffered, c.bufferedBytes);
      seen.push([batch.partition, batch.firstOffset]);
      await sleep(5); // a slow caller: fetching must wait for it
      if (!sought && batch.partition === 0 && batch.nextOffset > 100n) {
        sought = true;
        c.seek('assigned', 0, 10n);
        continue;
      }
      if (sought && seen.filter(([p]) => p === 0).length > 0 && batch.partition === 0 && batch.firstOffset === 10n) {
        c.resume([{ topic: 'assigned', partitions: [1] }]);
      }
      if (batch.partition === 1) break;
    }
    await c.close();
    const firstOfOne = seen.findIndex(([p]) => p === 1);
    const seekIndex = seen.findIndex(([p, o]) => p === 0 && o === 10n);
    expect(seekIndex).toBeGreaterThan(0);               // seek: partition 0 again from offset 10
    expect(firstOfOne).toBeGreaterThan(seekIndex);      // paused until resumed after the seek
    // Buffered: at most the limit plus the one answer that crossed it (one per leader).
    expect(maxBuffered).toBeLessThanOrEqual(limit + 3 * 4096);
  }, 60_000);
});

describe.skipIf(!mockOk)('consume -G on the mock cluster, in process', () => {
  let mc: MockCluster;
  beforeAll(async () => { mc = await startMockCluster({ brokers: 1, topics: ['cli:3'] }); });
  afterAll(async () => { await mc?.stop(); });

  it('-c stops after COUNT records and commits exactly those; -e exits at the end; the next run goes on', async () => {
    const { runCli, jsonLines } = await import('../wire/cli-io.js');
    await produceNumbered(mc.bootstrap, 'cli', 3, 0, 300);
    const args = ['-b', mc.bootstrap, '-G', 'cli-g', '--session-timeout', '6000'];
    const first = await runCli('consume', [...args, '-c', '50', 'cli']);
    expect(first.code).toBe(0);
    const firstLines = jsonLines(first.stdout);
    expect(firstLines).toHaveLength(50);
    const rest = await runCli('consume', [...args, '-e', 'cli']);
    expect(rest.code).toBe(0);
    const restLines = jsonLines(rest.stdout);
    // Together: every record once.
    const all = [...firstLines, ...restLines].map((r) => r.value).sort();
    expect(all).toEqual(Array.from({ length: 300 }, (_, i) => `r${i}`).sort());
    const again = await runCli('consume', [...args, '-e', 'cli']);
    expect(jsonLines(again.stdout)).toEqual([]);
  }, 60_000);

  it('group-only options without -G are refused', async () => {
    const { runCli } = await import('../wire/cli-io.js');
    // (--isolation is not one of them: consume without a group reads read_committed too.)
    const r = await runCli('consume', ['-b', mc.bootstrap, '-t', 'cli', '--group-protocol', 'classic']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--group-protocol needs -G GROUP/);
    const bad = await runCli('consume', ['-b', mc.bootstrap, '-G', 'g', '-o', '5', 'cli']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/reset policy/);
  });
});
