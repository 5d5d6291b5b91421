// Consumer groups against real Apache Kafka (kafka/cluster.mjs), with both group protocols: the
// library member and resume after commit, three `consume -G` processes with one SIGKILLed (every
// duplicate must be the killed member's uncommitted work), a classic group mixed with kcat -G,
// read_committed over aborted transactions, a subscribed topic that does not exist, Metadata answers cut mid-frame, and on three nodes one node stopped and restarted
// in the middle of an import.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaClasspath, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { Consumer, ConsumerError, type PartitionBatch } from '../../src/consumer/index.js';
import { runCli } from '../wire/cli-io.js';
import { parseHostPort } from '../../src/wire/client.js';
import { ApiKey } from '../../src/generated/types.js';
import { firstN, startCuttingProxy } from './cut-proxy.js';
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { account, bin, printed, produceNumbered, produceTransactions, sleep, startJavaMember, startKcatMember, startMember, until, type Member } from './group-helpers.js';

const ok = await kafkaPeer();
const kcatOk = peer('kcat', hasCommand('kcat'), 'apt-get install kcat');
const binOk = peer(`the built bin (${bin})`, existsSync(bin), 'npm run build');

/** Broker settings that make group changes take seconds rather than the defaults' minute. */
const GROUP_CONFIG = {
  'group.initial.rebalance.delay.ms': '0',
  'group.consumer.session.timeout.ms': '6000',
  'group.consumer.min.session.timeout.ms': '6000',
  'group.consumer.heartbeat.interval.ms': '500',
  'group.consumer.min.heartbeat.interval.ms': '500',
  'offsets.topic.replication.factor': '1',
  'transaction.state.log.replication.factor': '1',
  'transaction.state.log.min.isr': '1',
};
const PROTOCOLS = ['classic', 'consumer'] as const;
const values = (b: PartitionBatch) => b.records().map((r) => Buffer.from(r.value!).toString());

/** Three members, the second SIGKILLed once it has read something, while records keep coming. */
async function killTest(bootstrap: string, topic: string, protocol: string, dir: string): Promise<void> {
  const total = 24_000;
  const group = ['a', 'b', 'c'].map((n) => startMember(dir, `${topic}-${n}`, ['-b', bootstrap, '-G', `${topic}-g`, '--group-protocol', protocol, '--session-timeout', '6000', topic]));
  try {
    const producing = (async () => {
      for (let from = 0; from < total; from += 1200) {
        await produceNumbered(bootstrap, topic, 12, from, from + 1200);
        await sleep(250);
      }
    })();
    const victim = group[1]!;
    expect(await until(() => printed(victim).size > 500, 60_000)).toBe(true);
    victim.child.kill('SIGKILL');
    await producing;
    const complete = await until(() => account(group, topic, total).lost.length === 0, 60_000, 500);
    const survivors = group.filter((m) => m !== victim);
    for (const m of survivors) m.child.kill('SIGTERM');
    const codes = await Promise.all(survivors.map((m) => m.exited));
    const result = account(group, topic, total);
    console.log(`${topic} (${protocol}): produced ${total}; read ${[...result.byMember].map(([n, c]) => `${n} ${c}`).join(', ')}; ` +
      `duplicates ${result.duplicates} (${[...result.explainedBy].map(([n, c]) => `${c} uncommitted by ${n}`).join(', ') || 'none'})`);
    expect(complete).toBe(true);
    expect(result.lost).toEqual([]);
    expect(result.unexplained).toEqual([]);
    // Kafka accepts commits during a rebalance: only the killed member's unfinished work repeats.
    expect([...result.explainedBy.keys()].filter((n) => n !== victim.name)).toEqual([]);
    expect(codes).toEqual([0, 0]);
  } finally {
    for (const m of group) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
  }
}

/** `kafka-wire consume` in process, its stdout a stream whose reader starts `lateMs` late (a pipe not read yet). */
async function consumeWithLateReader(args: string[], lateMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const chunks: Buffer[] = [];
  const readFrom = Date.now() + lateMs;
  const stdout = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) { chunks.push(Buffer.from(chunk)); setTimeout(done, Math.max(0, readFrom - Date.now())); },
  });
  let stderr = '';
  const code = await main(['consume', ...args], { stdin: Readable.from([]), stdout, stderr: { write: (t: string) => { stderr += t; return true; } } });
  return { code, stdout: Buffer.concat(chunks).toString(), stderr };
}

describe.skipIf(!ok)('consumer groups on real Kafka, one node', () => {
  const kafka = useKafka({ nodes: 1, config: GROUP_CONFIG });
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-groups-kafka-'));

  for (const protocol of PROTOCOLS) {
    it(`${protocol}: a member reads and commits; the next resumes after it`, async () => {
      const k = kafka();
      const topic = `lib-${protocol}`;
      await k.createTopic(topic, { partitions: 4 });
      await produceNumbered(k.bootstrap, topic, 4, 0, 400);
      const options = { bootstrap: k.bootstrap, groupId: `${topic}-g`, topics: [topic], groupProtocol: protocol, resetPolicy: 'earliest' as const };
      const first = new Consumer(options);
      const got: string[] = [];
      for await (const batch of first) {
        got.push(...values(batch));
        if (got.length >= 400) { first.markFinished(batch); break; } // a break alone finishes nothing of the batch
      }
      await first.close();
      expect(new Set(got).size).toBe(400);
      await produceNumbered(k.bootstrap, topic, 4, 400, 500);
      const second = new Consumer(options);
      const later: string[] = [];
      await new Promise<void>((resolve, reject) => {
        second.run((batch) => { later.push(...values(batch)); if (later.length >= 100) resolve(); }).catch(reject);
      });
      await second.close();
      expect(later.sort()).toEqual(Array.from({ length: 100 }, (_, i) => `r${400 + i}`).sort());
    }, 120_000);

    it(`${protocol}: group list, describe (members, assignment, lag) and reset-offsets`, async () => {
      const k = kafka();
      const topic = `lib-${protocol}`; // the test above left its group with 125 committed per partition
      const groupId = `${topic}-g`;
      const list = JSON.parse((await runCli('group', ['list', '-b', k.bootstrap])).stdout);
      expect(list.map((g: { groupId: string }) => g.groupId)).toContain(groupId);
      const idle = JSON.parse((await runCli('group', ['describe', '-b', k.bootstrap, groupId])).stdout);
      expect(idle).toMatchObject({ groupId, state: 'Empty', members: [] });
      expect(idle.offsets.map((o: any) => [o.partition, o.committed, o.logEnd, o.lag])).toEqual(
        [0, 1, 2, 3].map((p) => [p, '125', '125', '0']));

      // A live member: described with its assignment, and resetting is refused.
      const member = new Consumer({ bootstrap: k.bootstrap, groupId, topics: [topic], groupProtocol: protocol, resetPolicy: 'earliest' });
      const running = member.run(() => {});
      expect(await until(() => member.assignment().length > 0 && member.membership?.state === 'stable', 30_000)).toBe(true);
      const live = JSON.parse((await runCli('group', ['describe', '-b', k.bootstrap, groupId])).stdout);
      expect(live.protocol).toBe(protocol);
      expect(live.members).toHaveLength(1);
      expect(live.members[0].assignment).toEqual([{ topic, partitions: [0, 1, 2, 3] }]);
      expect(live.offsets.every((o: any) => o.memberId === live.members[0].memberId)).toBe(true);
      const refused = await runCli('group', ['reset-offsets', '-b', k.bootstrap, groupId, '--to', 'earliest', '--execute']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/active member/);
      await member.close();
      await running;

      const dry = await runCli('group', ['reset-offsets', '-b', k.bootstrap, groupId, '--to', 'earliest']);
      expect(JSON.parse(dry.stdout).offsets.map((o: any) => [o.partition, o.from, o.to])).toEqual([0, 1, 2, 3].map((p) => [p, '125', '0']));
      expect(JSON.parse((await runCli('group', ['describe', '-b', k.bootstrap, groupId])).stdout).offsets[0].committed).toBe('125');
      const done = await runCli('group', ['reset-offsets', '-b', k.bootstrap, groupId, '--to', '7', '--topic', topic, '--execute']);
      expect(done.code).toBe(0);
      const after = JSON.parse((await runCli('group', ['describe', '-b', k.bootstrap, groupId])).stdout);
      expect(after.offsets.map((o: any) => [o.committed, o.lag])).toEqual([0, 1, 2, 3].map(() => ['7', '118']));
      // The next member starts where the reset put it.
      const next = new Consumer({ bootstrap: k.bootstrap, groupId, topics: [topic], groupProtocol: protocol });
      const firstOffsets = new Map<number, bigint>();
      await new Promise<void>((resolve, reject) => {
        next.run((b) => { if (!firstOffsets.has(b.partition)) firstOffsets.set(b.partition, b.firstOffset); if (firstOffsets.size === 4) resolve(); }).catch(reject);
      });
      await next.close();
      expect([...firstOffsets.values()]).toEqual([7n, 7n, 7n, 7n]);
    }, 120_000);

    it(`${protocol}: consume -G -e ends at the true end (a reader 2 s late); -K and -f print as kcat's; a missing topic or group is said at once`, async () => {
      const k = kafka();
      const topic = `cli-e-${protocol}`;
      await k.createTopic(topic, { partitions: 4 });
      await produceNumbered(k.bootstrap, topic, 4, 0, 20_000);
      const base = ['-b', k.bootstrap, '--group-protocol', protocol, '--session-timeout', '6000'];
      const late = await consumeWithLateReader([...base, '-G', `${topic}-late`, topic, '-e', '-o', 'beginning'], 2000);
      expect(late.code, late.stderr).toBe(0);
      const lines = late.stdout.trim().split('\n');
      expect(new Set(lines.map((l) => JSON.parse(l).value)).size).toBe(20_000);
      expect(lines).toHaveLength(20_000);

      const keyed = await runCli('consume', [...base, '-G', `${topic}-k`, topic, '-e', '-c', '5', '-K', '\\t']);
      expect(keyed.code, keyed.stderr).toBe(0);
      const pairs = keyed.stdout.trim().split('\n');
      expect(pairs).toHaveLength(5);
      for (const l of pairs) expect(l).toMatch(/^(r\d+)\t\1$/); // key TAB value, no JSON
      const formatted = await runCli('consume', [...base, '-G', `${topic}-f`, topic, '-e', '-c', '5', '-f', '%t/%p@%o %k=%s\\n']);
      expect(formatted.code, formatted.stderr).toBe(0);
      const shown = formatted.stdout.trim().split('\n');
      expect(shown).toHaveLength(5);
      for (const l of shown) expect(l).toMatch(new RegExp(`^${topic}/[0-3]@\\d+ (r\\d+)=\\1$`));

      const started = Date.now();
      const missing = await runCli('consume', [...base, '-G', `${topic}-missing`, `no-such-${protocol}`, '-e']);
      expect(missing.stderr).toContain(`Subscribed topic not available: no-such-${protocol}: Unknown topic or partition`);
      expect(missing.code).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);

      const nogroup = await runCli('group', ['describe', '-b', k.bootstrap, `no-such-group-${protocol}`]);
      expect(nogroup.stderr).toContain(`Consumer group 'no-such-group-${protocol}' does not exist`);
      expect(nogroup.code).toBe(1);
      expect(nogroup.stdout).toBe('');
    }, 180_000);

    it(`${protocol}: a topic created later that matches the pattern is joined and read`, async () => {
      const k = kafka();
      await k.createTopic(`pat-${protocol}-first`, { partitions: 2 });
      await produceNumbered(k.bootstrap, `pat-${protocol}-first`, 2, 0, 20, 'first');
      const c = new Consumer({ bootstrap: k.bootstrap, groupId: `pat-${protocol}-g`, topics: [new RegExp(`^pat-${protocol}-`)], groupProtocol: protocol, resetPolicy: 'earliest', metadataRefreshMs: 500 });
      const got = new Set<string>();
      const running = c.run((batch) => { for (const v of values(batch)) got.add(`${batch.topic} ${v}`); });
      expect(await until(() => got.size >= 20, 30_000)).toBe(true);
      await k.createTopic(`pat-${protocol}-later`, { partitions: 3 });
      await produceNumbered(k.bootstrap, `pat-${protocol}-later`, 3, 0, 30, 'later');
      expect(await until(() => got.size >= 50, 30_000)).toBe(true);
      expect([...got].filter((g) => g.startsWith(`pat-${protocol}-later `)).length).toBe(30);
      await c.close();
      await running;
    }, 90_000);

    it(`${protocol}: a subscribed topic that does not exist is said at once, read once created; with missingTopics 'error' a typed error`, async () => {
      const k = kafka();
      const topic = `missing-${protocol}`;
      const lines: string[] = [];
      const c = new Consumer({ bootstrap: k.bootstrap, groupId: `${topic}-g`, topics: [topic], groupProtocol: protocol, resetPolicy: 'earliest', metadataRefreshMs: 500, debug: (m) => lines.push(m) });
      const missing = new Promise<string[]>((resolve) => c.once('missingTopics', resolve));
      const got: string[] = [];
      const running = c.run((batch) => { got.push(...values(batch)); });
      expect(await missing).toEqual([topic]);
      expect(lines.filter((l) => l.startsWith(`topic ${topic} not available: UNKNOWN_TOPIC_OR_PARTITION (3)`))).toHaveLength(1);
      await k.createTopic(topic, { partitions: 2 });
      await produceNumbered(k.bootstrap, topic, 2, 0, 10);
      expect(await until(() => got.length >= 10, 30_000)).toBe(true);
      await c.close();
      await running;

      const strict = new Consumer({ bootstrap: k.bootstrap, groupId: `${topic}-strict-g`, topics: [topic, `${topic}-never`], groupProtocol: protocol, missingTopics: 'error' });
      const started = Date.now();
      const err = await (async () => { for await (const _ of strict) { /* fails first */ } })().catch((e: unknown) => e);
      await strict.close();
      expect(err).toBeInstanceOf(ConsumerError);
      expect(err).toMatchObject({ code: 'UNKNOWN_TOPIC', errorName: 'UNKNOWN_TOPIC_OR_PARTITION', topic: `${topic}-never` });
      expect(Date.now() - started).toBeLessThan(10_000);
    }, 90_000);

    it(`${protocol}: a member whose first Metadata answers are cut mid-frame still reads (issue 37 item 4)`, async () => {
      const k = kafka();
      const topic = `cut-${protocol}`;
      await k.createTopic(topic, { partitions: 2 });
      await produceNumbered(k.bootstrap, topic, 2, 0, 20);
      for (const cuts of [1, 2]) {
        const proxy = await startCuttingProxy(parseHostPort(k.bootstrap.split(',')[0]!), firstN(ApiKey.Metadata, cuts));
        const log: string[] = [];
        const errors: Error[] = [];
        const c = new Consumer({ bootstrap: proxy.bootstrap, groupId: `${topic}-${cuts}-g`, topics: [topic], groupProtocol: protocol, resetPolicy: 'earliest', debug: (m) => log.push(m) });
        c.on('error', (e) => errors.push(e));
        const got: string[] = [];
        const running = c.run((batch) => { got.push(...values(batch)); }).catch((e: Error) => { errors.push(e); });
        await until(() => got.length >= 20 || errors.length > 0, 30_000);
        await c.close();
        await running;
        await proxy.close();
        expect(proxy.cuts).toBe(cuts);
        expect(errors).toEqual([]);
        expect(new Set(got).size, log.join('\n')).toBe(20);
      }
    }, 90_000);

    it(`${protocol}: a slow handler finishes and is committed before its partitions move; nothing read twice`, async () => {
      const k = kafka();
      const topic = `slow-${protocol}`;
      await k.createTopic(topic, { partitions: 4 });
      await produceNumbered(k.bootstrap, topic, 4, 0, 400);
      const options = { bootstrap: k.bootstrap, groupId: `${topic}-g`, topics: [topic], groupProtocol: protocol, resetPolicy: 'earliest' as const, autoCommit: 'manual' as const };
      const events: string[] = [];
      const a = new Consumer(options);
      a.on('revoked', () => events.push('revoked'));
      a.on('committed', () => events.push('committed'));
      let b: Consumer | undefined;
      const readByA: string[] = [];
      const readByB: string[] = [];
      const runningA = a.run(async (batch) => {
        if (b === undefined) {
          b = new Consumer(options);
          void b.run((x) => { readByB.push(...values(x)); });
          events.push('slow handler started');
          await sleep(3000);
          events.push('slow handler done');
        }
        readByA.push(...values(batch));
      });
      expect(await until(() => new Set([...readByA, ...readByB]).size >= 400, 60_000)).toBe(true);
      await Promise.all([a.close(), b!.close()]);
      await runningA;
      // Given up only after the handler finished, and committed (manual mode: only at revoke) before.
      expect(events).toContain('slow handler done');
      if (protocol === 'classic') {
        // Eager: everything is given up at once, after the handler, with a commit in between.
        const done = events.indexOf('slow handler done');
        const revoked = events.indexOf('revoked');
        expect(revoked).toBeGreaterThan(done);
        expect(events.slice(done, revoked)).toContain('committed');
      }
      // The slow batch was committed before its partition moved (manual mode: only revoke and
      // close commit), so nothing was read twice.
      expect(readByA.length + readByB.length).toBe(400);
    }, 120_000);

    it.skipIf(!binOk)(`${protocol}: three consume -G processes, one SIGKILLed mid-import: nothing lost`, async () => {
      const k = kafka();
      const topic = `split-${protocol}`;
      await k.createTopic(topic, { partitions: 12 });
      await killTest(k.bootstrap, topic, protocol, dir);
    }, 180_000);
  }

  it.skipIf(!binOk || !kcatOk)('a classic group mixed with kcat -G (librdkafka) members and the Java consumer', async () => {
    const k = kafka();
    const total = 6000;
    await k.createTopic('mixed', { partitions: 12 });
    const group: Member[] = [
      startMember(dir, 'mixed-kw1', ['-b', k.bootstrap, '-G', 'mixed-g', '--group-protocol', 'classic', '--session-timeout', '6000', 'mixed']),
      startKcatMember(dir, 'mixed-kcat1', k.bootstrap, 'mixed-g', 'mixed'),
      startMember(dir, 'mixed-kw2', ['-b', k.bootstrap, '-G', 'mixed-g', '--group-protocol', 'classic', '--session-timeout', '6000', 'mixed']),
      startKcatMember(dir, 'mixed-kcat2', k.bootstrap, 'mixed-g', 'mixed'),
      startJavaMember(dir, 'mixed-java', await kafkaClasspath(), k.bootstrap, 'mixed-g', 'mixed'),
    ];
    try {
      // Records only once everyone is in (kcat starts faster and would read them all alone).
      const inGroup = (m: Member) => readFileSync(m.err, 'utf8').includes('-> stable');
      expect(await until(() => inGroup(group[0]!) && inGroup(group[2]!), 60_000)).toBe(true);
      // The JVM takes longest: wait for its consumer to be assigned partitions.
      await until(() => /Adding newly assigned partitions: .*mixed-\d/.test(readFileSync(group[4]!.err, 'utf8')), 30_000);
      await sleep(3000);
      for (let from = 0; from < total; from += 1000) {
        await produceNumbered(k.bootstrap, 'mixed', 12, from, from + 1000);
        await sleep(200);
      }
      // The Java console consumer's output may sit in its buffer until it exits: judge after.
      await until(() => account(group, 'mixed', total).lost.length === 0, 20_000, 500);
      for (const m of group) m.child.kill('SIGTERM');
      await Promise.all(group.map((m) => m.exited));
      const result = account(group, 'mixed', total);
      console.log(`mixed: read ${[...result.byMember].map(([n, c]) => `${n} ${c}`).join(', ')}; duplicates ${result.duplicates}`);
      expect(result.lost).toEqual([]);
      expect(result.unexplained).toEqual([]);
      expect((result.byMember.get('mixed-kw1') ?? 0) + (result.byMember.get('mixed-kw2') ?? 0)).toBeGreaterThan(0);
      expect((result.byMember.get('mixed-kcat1') ?? 0) + (result.byMember.get('mixed-kcat2') ?? 0)).toBeGreaterThan(0);
      expect(result.byMember.get('mixed-java')).toBeGreaterThan(0);
    } finally {
      for (const m of group) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    }
  }, 120_000);

  it.skipIf(!binOk)('cooperative-sticky: members keep what they own across rebalances, with the Java consumer in the group', async () => {
    const k = kafka();
    const total = 12_000;
    await k.createTopic('coop', { partitions: 12 });
    const kw = (name: string) => startMember(dir, name, ['-b', k.bootstrap, '-G', 'coop-g', '--group-protocol', 'classic', '--assignor', 'cooperative-sticky', '--session-timeout', '6000', 'coop']);
    const group: Member[] = [kw('coop-kw1')];
    try {
      // Half the records with one member, the second half once all three hold partitions.
      await produceNumbered(k.bootstrap, 'coop', 12, 0, total / 2);
      expect(await until(() => printed(group[0]!).size > 0, 60_000)).toBe(true);
      group.push(startJavaMember(dir, 'coop-java', await kafkaClasspath(), k.bootstrap, 'coop-g', 'coop', 'org.apache.kafka.clients.consumer.CooperativeStickyAssignor'));
      expect(await until(() => /Adding newly assigned partitions: .*coop-\d/.test(readFileSync(group[1]!.err, 'utf8')), 60_000)).toBe(true);
      group.push(kw('coop-kw2'));
      expect(await until(() => /assigned coop\[\d/.test(readFileSync(group[2]!.err, 'utf8')), 60_000)).toBe(true);
      await sleep(1000);
      for (let from = total / 2; from < total; from += 600) await produceNumbered(k.bootstrap, 'coop', 12, from, from + 600);
      await until(() => account(group, 'coop', total).lost.length === 0, 30_000, 500);
      for (const m of group) m.child.kill('SIGTERM');
      await Promise.all(group.map((m) => m.exited));
      const result = account(group, 'coop', total);
      console.log(`coop: read ${[...result.byMember].map(([n, c]) => `${n} ${c}`).join(', ')}; duplicates ${result.duplicates}`);
      expect(result.lost).toEqual([]);
      expect(result.unexplained).toEqual([]);
      for (const m of group) expect(result.byMember.get(m.name)).toBeGreaterThan(0);
      // Cooperative: the first member gave up only what moved, never everything at once.
      const log = readFileSync(group[0]!.err, 'utf8');
      expect(log).toMatch(/cooperative-sticky/);
      expect(log).not.toMatch(/eager rebalance/);
      expect(log).toMatch(/revoking .* \(assigned elsewhere\)/);
    } finally {
      for (const m of group) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    }
  }, 180_000);

  it('read_committed skips aborted transactions and markers; read_uncommitted sees them', async () => {
    const k = kafka();
    await k.createTopic('txn', { partitions: 1 });
    await produceTransactions(k.bootstrap, 'txn', 0, [
      { commit: true, values: ['c1', 'c2'] },
      { commit: false, values: ['a1', 'a2', 'a3'] },
      { commit: true, values: ['c3'] },
      { commit: false, values: ['a4'] },
    ]);
    await produceNumbered(k.bootstrap, 'txn', 1, 0, 1, 'plain');
    const read = async (isolationLevel: 'read_committed' | 'read_uncommitted') => {
      const c = new Consumer({ bootstrap: k.bootstrap, groupId: `txn-${isolationLevel}`, topics: ['txn'], resetPolicy: 'earliest', isolationLevel });
      const got: string[] = [];
      for await (const batch of c) {
        got.push(...values(batch));
        if (got.includes('plain0')) break;
      }
      await c.close();
      return got;
    };
    expect(await read('read_committed')).toEqual(['c1', 'c2', 'c3', 'plain0']);
    expect(await read('read_uncommitted')).toEqual(['c1', 'c2', 'a1', 'a2', 'a3', 'c3', 'a4', 'plain0']);
  }, 120_000);
});

describe.skipIf(!ok)('consumer groups on real Kafka, three nodes', () => {
  const kafka = useKafka({ nodes: 3, config: { ...GROUP_CONFIG, 'offsets.topic.replication.factor': '3', 'transaction.state.log.replication.factor': '3', 'transaction.state.log.min.isr': '2' } });
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-groups-kafka3-'));

  it.skipIf(!binOk)('a node stopped and restarted mid-import: the import finishes, nothing lost', async () => {
    const k = kafka();
    const total = 24_000;
    await k.createTopic('failover', { partitions: 12, replicationFactor: 3, config: { 'min.insync.replicas': '2' } });
    const group = ['a', 'b'].map((n) => startMember(dir, `failover-${n}`, ['-b', k.bootstrap, '-G', 'failover-g', '--session-timeout', '6000', 'failover']));
    try {
      await produceNumbered(k.bootstrap, 'failover', 12, 0, total / 2);
      // Mid-import: the group has read the first half (which member read what depends on when the
      // second got its partitions, so that is not waited for).
      expect(await until(() => new Set(group.flatMap((m) => [...printed(m).keys()])).size >= total / 2, 90_000)).toBe(true);
      const stopped = k.nodes[1]!.nodeId;
      await k.stopNode(stopped);
      await produceNumbered(k.bootstrap, 'failover', 12, total / 2, total);
      await sleep(2000);
      await k.startNode(stopped);
      const complete = await until(() => account(group, 'failover', total).lost.length === 0, 90_000, 500);
      for (const m of group) m.child.kill('SIGTERM');
      const codes = await Promise.all(group.map((m) => m.exited));
      const result = account(group, 'failover', total);
      console.log(`failover: read ${[...result.byMember].map(([n, c]) => `${n} ${c}`).join(', ')}; duplicates ${result.duplicates}`);
      expect(complete).toBe(true);
      expect(result.lost).toEqual([]);
      expect(result.unexplained).toEqual([]);
      expect(codes).toEqual([0, 0]);
    } finally {
      for (const m of group) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    }
  }, 240_000);
});
