// The admin client's cluster and security operations against one real Kafka 4.4 broker with
// Kafka's StandardAuthorizer and a SASL listener, each result checked against Kafka's own Java
// Admin: SCRAM credentials (a user created through kafka-wire then signs in with its password),
// ACLs (created through kafka-wire, they refuse that SCRAM user when Kafka's own Java Admin asks
// as it; described and deleted), client quotas, log dirs, leader election, partition
// reassignments, transactions (listed, described, their producers, a hung one aborted and
// read past at read_committed, as Kafka's Java consumer and kafka-transactions.sh see), feature updates and
// delegation tokens (created, renewed, expired).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin, AdminError, createAdmin } from '../../src/admin/index.js';
import { createProducer } from '../../src/producer/index.js';
import { KafkaClient } from '../../src/wire/client.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { javaAdmin, javaAdminOne } from './java-admin.js';
import { kafkaClasspath, kafkaJava } from '../helpers/kafka.js';
import { spawn } from 'node:child_process';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One of Kafka's own tools (org.apache.kafka.tools.X): its stdout. */
async function kafkaTool(tool: string, args: string[]): Promise<string> {
  const r = await kafkaJava(`org.apache.kafka.tools.${tool}`, args, { timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`${tool} ${args.join(' ')} exited ${r.code}:\n${r.stderr.slice(-2000)}`);
  return r.stdout;
}

const ok = await kafkaPeer();

async function rejection(promise: Promise<unknown>): Promise<AdminError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AdminError) return error;
    throw error;
  }
  throw new Error('expected an AdminError, and the call succeeded');
}

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await check()) return true;
  return false;
}

describe.skipIf(!ok)('cluster and security operations against Kafka 4.4 with an authorizer, checked by Kafka\'s Java Admin', () => {
  const kafka = useKafka({
    sasl: { users: { admin: 'admin-secret' } },
    config: {
      'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'super.users': 'User:ANONYMOUS;User:admin',
      'delegation.token.secret.key': 'kafka-wire-test-token-key',
    },
  });
  let admin: Admin;
  let bootstrap: string;
  beforeAll(async () => {
    bootstrap = kafka().bootstrap;
    admin = await createAdmin({ bootstrap });
  });
  afterAll(async () => { await admin?.close(); });

  /** Kafka's Java Admin signed in as a SCRAM user on the SASL listener. */
  const asUser = (user: string, password: string) => [
    'security.protocol=SASL_PLAINTEXT', 'sasl.mechanism=SCRAM-SHA-256',
    `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${user}" password="${password}";`,
  ];

  it('SCRAM credentials: created (salted here), described as the Java Admin does, used to sign in, deleted', async () => {
    expect(await admin.alterScramCredentials([
      { user: 'carol', mechanism: 'SCRAM-SHA-256', password: 'carol-secret', iterations: 8192 },
      { user: 'dave', mechanism: 'SCRAM-SHA-256', password: 'dave-secret' },
    ])).toEqual(['carol', 'dave']);
    // Kafka refuses a second change of one user in the same request: named, the other done.
    const twice = await rejection(admin.alterScramCredentials([
      { user: 'carol', mechanism: 'SCRAM-SHA-512', password: 'carol-secret' }, { user: 'carol', mechanism: 'SCRAM-SHA-256', delete: true },
    ]));
    expect(twice.failures.map((f) => f.errorName)).toEqual(['DUPLICATE_RESOURCE', 'DUPLICATE_RESOURCE']);
    await admin.alterScramCredentials([{ user: 'carol', mechanism: 'SCRAM-SHA-512', password: 'carol-secret' }]);
    await until(async () => (await admin.describeScramCredentials()).find((u) => u.user === 'carol')?.credentials.length === 2);
    const ours = await admin.describeScramCredentials();
    const java = await javaAdminOne(bootstrap, { op: 'describeUserScramCredentials' });
    const sorted = (list: { user: string; credentials: { mechanism: string; iterations: number }[] }[]) =>
      list.map((u) => ({ ...u, credentials: u.credentials.slice().sort((a, b) => (a.mechanism < b.mechanism ? -1 : 1)) }));
    expect(sorted(ours)).toEqual(sorted(java));
    expect(ours.find((u) => u.user === 'carol')!.credentials).toContainEqual({ mechanism: 'SCRAM-SHA-256', iterations: 8192 });
    // The password works: kafka-wire's own client signs in with it.
    const carol = new KafkaClient({ bootstrap: kafka().listeners.SASL_PLAINTEXT!, sasl: { mechanism: 'SCRAM-SHA-512', username: 'carol', password: 'carol-secret' } });
    try {
      await carol.anyConnection();
    } finally {
      await carol.close();
    }
    expect(await admin.alterScramCredentials([{ user: 'dave', mechanism: 'SCRAM-SHA-256', delete: true }])).toEqual(['dave']);
    const missing = await rejection(admin.describeScramCredentials(['dave', 'carol']));
    expect(missing.failures.map((f) => [f.resource, f.errorName])).toEqual([['user dave', 'RESOURCE_NOT_FOUND']]);
    expect((missing.succeeded as { user: string }[]).map((u) => u.user)).toEqual(['carol']);
    expect(JSON.stringify(await admin.describeScramCredentials())).not.toContain('secret');
  });

  it('ACLs: created through kafka-wire they refuse a SCRAM user, as Kafka\'s Java Admin signed in as that user sees; described as the Java Admin does; deleted', async () => {
    await admin.createTopics([{ name: 'k-acl' }, { name: 'k-open' }]);
    await admin.alterScramCredentials([{ user: 'erin', mechanism: 'SCRAM-SHA-256', password: 'erin-secret' }]);
    const created = await admin.createAcls([
      { resourceType: 'TOPIC', resourceName: 'k-open', patternType: 'LITERAL', principal: 'User:erin', host: '*', operation: 'DESCRIBE', permission: 'ALLOW' },
      { resourceType: 'TOPIC', resourceName: 'k-op', patternType: 'PREFIXED', principal: 'User:erin', host: '*', operation: 'ALTER', permission: 'ALLOW' },
      { resourceType: 'GROUP', resourceName: 'k-group', patternType: 'LITERAL', principal: 'User:erin', host: '*', operation: 'READ', permission: 'DENY' },
    ]);
    expect(created).toHaveLength(3);
    // The controller has them; each broker's authorizer a moment later.
    expect(await until(async () => (await admin.describeAcls()).length === 3)).toBe(true);
    const ours = await admin.describeAcls();
    const java = await javaAdminOne(bootstrap, { op: 'describeAcls' });
    expect(ours.map((a) => [a.resourceType, a.resourceName, a.patternType, a.principal, a.host, a.operation, a.permission].join('|')).sort()).toEqual(java);
    expect(await admin.describeAcls({ resourceType: 'TOPIC', resourceName: 'k-open' })).toEqual([created[0]]);

    const [open, closed] = await javaAdmin(kafka().listeners.SASL_PLAINTEXT!, [{ op: 'describeTopics', topics: ['k-open'] }, { op: 'describeTopics', topics: ['k-acl'] }], asUser('erin', 'erin-secret'));
    expect(open[0]).toMatchObject({ name: 'k-open', authorizedOperations: ['ALTER', 'DESCRIBE'] });
    expect(closed.error).toMatch(/TopicAuthorizationException/);

    const refused = await rejection(admin.createAcls([
      { resourceType: 'TOPIC', resourceName: 'k-x', patternType: 'LITERAL', principal: 'erin', host: '*', operation: 'READ', permission: 'ALLOW' },
      { resourceType: 'TOPIC', resourceName: 'k-y', patternType: 'LITERAL', principal: 'User:erin', host: '*', operation: 'READ', permission: 'ALLOW' },
    ]));
    expect(refused.failures.map((f) => f.errorName)).toEqual(['INVALID_REQUEST']);
    expect(refused.succeeded).toHaveLength(1);
    const bad = await rejection(admin.createAcls([{ resourceType: 'TOPIC', resourceName: 'x', patternType: 'ANY', principal: 'User:x', host: '*', operation: 'READ', permission: 'ALLOW' }]));
    expect(bad.code).toBe('INVALID_ARGUMENT');

    const [deleted] = await admin.deleteAcls([{ principal: 'User:erin' }]);
    expect(deleted!.length).toBe(4);
    expect(await until(async () => (await admin.describeAcls()).length === 0)).toBe(true);
    expect(await javaAdminOne(bootstrap, { op: 'describeAcls' })).toEqual([]);
  });

  it('client quotas: set, described as the Java Admin does, removed', async () => {
    expect(await admin.alterClientQuotas([
      { entity: { user: 'carol' }, values: { producer_byte_rate: 1024, consumer_byte_rate: 2048 } },
      { entity: { 'client-id': null }, values: { request_percentage: 50 } },
    ])).toEqual([{ user: 'carol' }, { 'client-id': null }]);
    expect(await until(async () => (await admin.describeClientQuotas()).length === 2)).toBe(true);
    const ours = await admin.describeClientQuotas();
    const java = await javaAdminOne(bootstrap, { op: 'describeClientQuotas' });
    const key = (q: { entity: object }) => JSON.stringify(q.entity);
    expect(ours.slice().sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual(java.slice().sort((a: { entity: object }, b: { entity: object }) => (key(a) < key(b) ? -1 : 1)));
    expect(await admin.describeClientQuotas({ user: 'carol' })).toEqual([{ entity: { user: 'carol' }, values: { producer_byte_rate: 1024, consumer_byte_rate: 2048 } }]);
    await admin.alterClientQuotas([{ entity: { user: 'carol' }, values: { producer_byte_rate: null, consumer_byte_rate: null } }]);
    expect(await until(async () => (await admin.describeClientQuotas({ user: 'carol' })).length === 0)).toBe(true);
    expect((await rejection(admin.alterClientQuotas([{ entity: { user: 'x' }, values: { producer_byte_rate: -1 } }]))).code).toBe('INVALID_ARGUMENT');
    const refused = await rejection(admin.alterClientQuotas([{ entity: { user: 'carol' }, values: { no_such_quota: 1 } }, { entity: { user: 'frank' }, values: { producer_byte_rate: 10 } }]));
    expect(refused.failures.map((f) => [f.resource, f.errorName])).toEqual([['quota of user carol', 'INVALID_REQUEST']]);
  });

  it('log dirs, leader election, partition reassignments: as the Java Admin reports them, the refusals named', async () => {
    await admin.createTopics([{ name: 'l-topic', partitions: 2 }]);
    // A new partition's log appears on disk a moment after its leader is known.
    expect(await until(async () => (await admin.describeLogDirs())[0]!.partitions.filter((p) => p.topic === 'l-topic').length === 2)).toBe(true);
    const ours = await admin.describeLogDirs();
    const java = await javaAdminOne(bootstrap, { op: 'describeLogDirs', brokers: [1] });
    expect(ours.map((d) => ({ ...d, totalBytes: String(d.totalBytes), usableBytes: String(d.usableBytes), partitions: d.partitions.map((p) => ({ ...p, size: String(p.size), offsetLag: String(p.offsetLag) })).sort((a, b) => (`${a.topic}-${a.partition}` < `${b.topic}-${b.partition}` ? -1 : 1)) }))
      .map(({ usableBytes: _u, ...rest }) => rest)).toEqual(java.map(({ usableBytes: _u, ...rest }: { usableBytes: string }) => rest));
    expect(ours[0]!.partitions.some((p) => p.topic === 'l-topic')).toBe(true);

    const election = await rejection(admin.electLeaders([{ topic: 'l-topic', partition: 0 }, { topic: 'l-topic', partition: 9 }]));
    expect(election.failures.map((f) => [f.resource, f.errorName])).toEqual([['l-topic-0', 'ELECTION_NOT_NEEDED'], ['l-topic-9', 'UNKNOWN_TOPIC_OR_PARTITION']]);

    expect(await admin.listPartitionReassignments()).toEqual(await javaAdminOne(bootstrap, { op: 'listPartitionReassignments' }));
    expect(await admin.alterPartitionReassignments([{ topic: 'l-topic', partition: 0, replicas: [1] }])).toEqual([{ topic: 'l-topic', partition: 0 }]);
    const cancel = await rejection(admin.cancelPartitionReassignments([{ topic: 'l-topic', partition: 1 }]));
    expect(cancel.failures.map((f) => [f.resource, f.errorName])).toEqual([['l-topic-1', 'NO_REASSIGNMENT_IN_PROGRESS']]);
    const nowhere = await rejection(admin.alterPartitionReassignments([{ topic: 'l-topic', partition: 1, replicas: [7] }]));
    expect(nowhere.failures.map((f) => f.errorName)).toEqual(['INVALID_REPLICA_ASSIGNMENT']);
  });

  it('transactions: an open one listed, described and its producer shown as the Java Admin does', async () => {
    await admin.createTopics([{ name: 'm-txn' }]);
    const producer = await createProducer({ bootstrap, transactionalId: 'm-txn-id' });
    try {
      producer.beginTransaction();
      await producer.send('m-txn', [{ value: 'open' }], { partition: 0 });
      const [javaList, javaDescribed, javaProducers] = await javaAdmin(bootstrap, [
        { op: 'listTransactions' }, { op: 'describeTransactions', ids: ['m-txn-id'] }, { op: 'describeProducers', topic: 'm-txn', partition: 0 },
      ]);
      const listed = await admin.listTransactions();
      // Kafka's Java Admin names states in its enum's words (ONGOING); the wire in Kafka's (Ongoing).
      expect(listed.map((t) => ({ transactionalId: t.transactionalId, producerId: String(t.producerId), state: t.state }))).toEqual(javaList.map((t: { state: string }) => ({ ...t, state: listed.find(() => true)!.state })));
      expect(javaList.map((t: { state: string }) => t.state.toLowerCase())).toEqual(listed.map((t) => t.state.toLowerCase()));
      expect((await admin.listTransactions({ states: ['CompleteCommit'] })).map((t) => t.transactionalId)).not.toContain('m-txn-id');
      const [described] = await admin.describeTransactions(['m-txn-id']);
      expect({ ...described, state: described!.state.toLowerCase(), producerId: String(described!.producerId), partitions: described!.partitions.flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`)), startTimeMs: undefined })
        .toEqual({ ...javaDescribed[0], state: javaDescribed[0].state.toLowerCase(), startTimeMs: undefined });
      const [producers] = await admin.describeProducers([{ topic: 'm-txn', partition: 0 }]);
      expect(producers!.producers.map((p) => ({ ...p, producerId: String(p.producerId), lastTimestamp: String(p.lastTimestamp), currentTxnStartOffset: String(p.currentTxnStartOffset) }))).toEqual(javaProducers);
      const unknown = await rejection(admin.describeTransactions(['m-nobody']));
      expect(unknown.failures.map((f) => f.errorName)).toEqual(['TRANSACTIONAL_ID_NOT_FOUND']);
      await producer.abortTransaction();
    } finally {
      await producer.close();
    }
  });

  it('aborts a hung transaction (a Java producer killed inside it): a read_committed consumer then reads past it; Kafka\'s tool and Java Admin see it closed', async () => {
    await admin.createTopics([{ name: 'm-hung' }]);
    const tp = { topic: 'm-hung', partition: 0 };
    const plain = await createProducer({ bootstrap });
    const hex = (text: string) => Buffer.from(text).toString('hex');
    /** Kafka's Java consumer at read_committed: the values it reads to the last stable offset. */
    const committed = async () => {
      const r = await kafkaJava('dev.kafkawire.JavaClient', ['consume', bootstrap, 'm-hung', 'isolation.level=read_committed'], { timeoutMs: 120_000 });
      if (r.code !== 0) throw new Error(r.stderr.slice(-2000));
      return jsonLines(r.stdout).map((x) => Buffer.from(x.value, 'hex').toString());
    };
    /** A Java producer begins a transaction, writes one record, and is killed (SIGKILL) before ending it; the producer state of it. */
    const hang = async (id: string, startOffset: bigint) => {
      const child = spawn('java', ['-Xmx256m', '-cp', await kafkaClasspath(), 'dev.kafkawire.JavaClient', 'produce', bootstrap, 'm-hung', `transactional.id=${id}`, 'transaction.timeout.ms=600000'],
        { stdio: ['pipe', 'ignore', 'pipe'] });
      child.stdin.write(`{"begin":true}\n{"partition":0,"value":"${hex(`hung ${id}`)}"}\n`);
      try {
        expect(await until(async () => (await admin.describeProducers([tp]))[0]!.producers.some((p) => p.currentTxnStartOffset === startOffset), 60_000)).toBe(true);
      } finally {
        child.kill('SIGKILL');
      }
      return (await admin.describeProducers([tp]))[0]!.producers.find((p) => p.currentTxnStartOffset === startOffset)!;
    };
    try {
      await plain.send('m-hung', [{ value: 'before' }], { partition: 0 });
      const hung = await hang('m-hung-a', 1n);
      await plain.send('m-hung', [{ value: 'after' }], { partition: 0 });
      // The open transaction holds the last stable offset at its start: read_committed stops there.
      expect((await admin.listOffsets([{ ...tp, spec: 'latest' }], { isolation: 'read_committed' }))[0]!.offset).toBe(1n);
      expect(await committed()).toEqual(['before']);
      const tool = await kafkaTool('TransactionsCommand', ['--bootstrap-server', bootstrap, 'describe-producers', '--topic', 'm-hung', '--partition', '0']);
      expect(tool.split('\n').find((l) => l.startsWith(`${hung.producerId} `))?.trim().split(/\s+/).at(-1)).toBe('1');

      // By the producer, as Admin.abortTransaction takes it.
      const spec = { ...tp, producerId: hung.producerId, producerEpoch: hung.producerEpoch, coordinatorEpoch: Math.max(0, hung.coordinatorEpoch) };
      expect(await admin.abortTransaction(spec)).toEqual(spec);
      expect(await committed()).toEqual(['before', 'after']);
      // The abort marker is offset 3: the last stable offset is the end.
      expect((await admin.listOffsets([{ ...tp, spec: 'latest' }], { isolation: 'read_committed' }))[0]!.offset).toBe(4n);

      // By the start offset, from the command line, as kafka-transactions.sh abort --start-offset.
      const second = await hang('m-hung-b', 4n);
      await plain.send('m-hung', [{ value: 'later' }], { partition: 0 });
      expect(await committed()).toEqual(['before', 'after']);
      const none = await runCli('transactions', ['abort', '-b', bootstrap, '--topic', 'm-hung', '--partition', '0', '--start-offset', '2']);
      expect(none.code).not.toBe(0);
      expect(none.stderr).toContain('no producer with an open transaction starting at offset 2 (open ones start at 4)');
      const cli = await runCli('transactions', ['abort', '-b', bootstrap, '--topic', 'm-hung', '--partition', '0', '--start-offset', '4']);
      expect(cli, cli.stderr).toMatchObject({ code: 0, stdout: `Aborted the transaction of producer ${second.producerId} (epoch ${second.producerEpoch}, coordinator epoch ${Math.max(0, second.coordinatorEpoch)}) on m-hung-0.\n` });
      expect(await committed()).toEqual(['before', 'after', 'later']);
      const javaProducers = await javaAdminOne(bootstrap, { op: 'describeProducers', topic: 'm-hung', partition: 0 });
      expect(javaProducers.filter((p: { currentTxnStartOffset: string }) => p.currentTxnStartOffset !== '-1')).toEqual([]);
      const after = await kafkaTool('TransactionsCommand', ['--bootstrap-server', bootstrap, 'describe-producers', '--topic', 'm-hung', '--partition', '0']);
      expect(after.split('\n').filter((l) => /^\d+ /.test(l)).map((l) => l.trim().split(/\s+/).at(-1))).toEqual(['None', 'None', 'None']);
      // A bad spec is refused before anything is sent.
      expect((await rejection(admin.abortTransaction({ ...tp, producerId: 1n, producerEpoch: 40_000, coordinatorEpoch: 0 }))).code).toBe('INVALID_ARGUMENT');
    } finally {
      await plain.close();
    }
  }, 180_000); // nine JVMs one after another (two killed producers, four read_committed consumers, Kafka's tool twice, the Java Admin): 20 s alone, minutes on a loaded machine

  it('the CLI: acls (listed as kafka-acls.sh lists them), quotas and users scram (as kafka-configs.sh shows them), records delete, reassign, transactions, features, cluster', async () => {
    const b = ['-b', bootstrap];
    await admin.createTopics([{ name: 'n-cli', partitions: 2 }]);
    const added = await runCli('acls', ['add', ...b, '--allow-principal', 'User:gina', '--operation', 'Read', '--operation', 'DescribeConfigs', '--topic', 'n-cli']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added ACL (principal=User:gina, host=*, operation=DESCRIBE_CONFIGS, permissionType=ALLOW) for resource `ResourcePattern(resourceType=TOPIC, name=n-cli, patternType=LITERAL)`');
    expect(await until(async () => (await admin.describeAcls({ principal: 'User:gina' })).length === 2)).toBe(true);
    const listed = await runCli('acls', ['list', ...b, '--topic', 'n-cli']);
    // kafka-acls.sh lists a resource's entries in a hash set's order: the same lines, in any order.
    const lines = (text: string) => text.split('\n').sort();
    expect(lines(listed.stdout)).toEqual(lines(await kafkaTool('AclCommand', ['--bootstrap-server', bootstrap, '--list', '--topic', 'n-cli'])));
    expect(listed.stdout).toMatch(/^Current ACLs for resource `ResourcePattern\(resourceType=TOPIC, name=n-cli, patternType=LITERAL\)`:\n\t\(principal=User:gina, host=\*, operation=DESCRIBE_CONFIGS, permissionType=ALLOW\)\n\t\(principal=User:gina, host=\*, operation=READ, permissionType=ALLOW\)\n\n$/);
    expect(jsonLines((await runCli('acls', ['list', ...b, '--principal', 'User:gina', '-J'])).stdout).map((a) => a.operation)).toEqual(['DESCRIBE_CONFIGS', 'READ']);
    const removed = await runCli('acls', ['remove', ...b, '--allow-principal', 'User:gina', '--operation', 'Read', '--topic', 'n-cli']);
    expect(removed.stdout).toContain('Removed ACL (principal=User:gina, host=*, operation=READ, permissionType=ALLOW)');
    expect((await runCli('acls', ['add', ...b, '--allow-principal', 'User:gina', '--topic', 'n-cli'])).code).toBe(2);

    expect((await runCli('quotas', ['alter', ...b, '--entity-type', 'users', '--entity-name', 'hank', '--add-config', 'producer_byte_rate=1024,consumer_byte_rate=2048'])).code).toBe(0);
    expect(await until(async () => (await admin.describeClientQuotas({ user: 'hank' })).length === 1)).toBe(true);
    const quota = await runCli('quotas', ['describe', ...b, '--entity-type', 'users', '--entity-name', 'hank']);
    expect(quota.stdout.trim()).toBe((await kafkaTool('ConfigCommand', ['--bootstrap-server', bootstrap, '--describe', '--entity-type', 'users', '--entity-name', 'hank'])).trim());

    const scram = await runCli('users', ['scram', 'alter', ...b, '--user', 'ivy', '--add-config', 'SCRAM-SHA-256=[iterations=8192,password=ivy-secret]']);
    expect(scram.code, scram.stderr).toBe(0);
    expect(scram.stdout + scram.stderr).not.toContain('ivy-secret');
    expect(await until(async () => (await admin.describeScramCredentials()).some((u) => u.user === 'ivy'))).toBe(true);
    const users = await runCli('users', ['scram', 'describe', ...b, '--user', 'ivy']);
    expect(users.stdout).toBe("SCRAM credential configs for user-principal 'ivy' are SCRAM-SHA-256=iterations=8192\n");

    const producer = await createProducer({ bootstrap });
    try {
      await producer.send('n-cli', [{ value: 'a' }, { value: 'b' }, { value: 'c' }], { partition: 0 });
    } finally {
      await producer.close();
    }
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-admin-'));
    writeFileSync(join(dir, 'delete.json'), JSON.stringify({ partitions: [{ topic: 'n-cli', partition: 0, offset: 2 }], version: 1 }));
    const deleted = await runCli('records', ['delete', ...b, '--offset-json-file', join(dir, 'delete.json')]);
    expect(deleted.stdout).toBe('Executing records delete operation\nRecords delete operation completed:\npartition: n-cli-0\tlow_watermark: 2\n');

    writeFileSync(join(dir, 'move.json'), JSON.stringify({ version: 1, partitions: [{ topic: 'n-cli', partition: 1, replicas: [1] }] }));
    expect((await runCli('reassign', ['execute', ...b, '--reassignment-json-file', join(dir, 'move.json')])).code).toBe(0);
    const verified = await runCli('reassign', ['verify', ...b, '--reassignment-json-file', join(dir, 'move.json')]);
    expect(verified).toMatchObject({ code: 0, stdout: 'Status of partition reassignment:\nReassignment of partition n-cli-1 is completed.\n' });
    expect((await kafkaTool('reassign.ReassignPartitionsCommand', ['--bootstrap-server', bootstrap, '--verify', '--reassignment-json-file', join(dir, 'move.json')]))).toContain('Reassignment of partition n-cli-1 is completed.');

    const features = await runCli('features', ['describe', ...b]);
    expect(features.stdout).toMatch(/^Feature: metadata.version +SupportedMinVersion: 3\.3-IV3 +SupportedMaxVersion: [\d.]+-IV\d +FinalizedVersionLevel: 4\.4-IV\d +Epoch: \d+$/m);
    const cluster = await runCli('cluster', ['describe', ...b]);
    expect(cluster.stdout).toMatch(new RegExp(`^Cluster ID: ${kafka().clusterId}\nController: 1\nBROKER +HOST +PORT +RACK +FENCED\n1 +127.0.0.1 +\\d+ +- +false\n$`));
    expect(jsonLines((await runCli('transactions', ['list', ...b, '-J'])).stdout).every((t) => typeof t.producerId === 'string')).toBe(true);
  });

  it('feature updates (validate-only) and delegation tokens: created over SASL, described as the Java Admin does, renewed, expired', async () => {
    expect(await admin.updateFeatures([{ feature: 'group.version', maxVersionLevel: 1 }], { validateOnly: true })).toEqual(['group.version']);
    const beyond = await rejection(admin.updateFeatures([{ feature: 'group.version', maxVersionLevel: 99 }], { validateOnly: true }));
    expect(beyond.failures.map((f) => [f.resource, f.errorName])).toEqual([['feature group.version', 'INVALID_UPDATE_VERSION']]);

    // Over PLAINTEXT no token: named.
    expect((await rejection(admin.createDelegationToken())).errorName).toBe('DELEGATION_TOKEN_REQUEST_NOT_ALLOWED');
    const sasl = await createAdmin({ bootstrap: kafka().listeners.SASL_PLAINTEXT!, sasl: { mechanism: 'SCRAM-SHA-256', username: 'admin', password: 'admin-secret' } });
    try {
      const token = await sasl.createDelegationToken({ renewers: ['User:carol'] });
      expect(token).toMatchObject({ owner: 'User:admin', requester: 'User:admin', renewers: ['User:carol'] });
      expect(token.hmac.length).toBeGreaterThan(0);
      // The controller has it; the broker asked a moment later.
      expect(await until(async () => (await sasl.describeDelegationTokens()).length === 1)).toBe(true);
      const ours = await sasl.describeDelegationTokens();
      const java = await javaAdminOne(kafka().listeners.SASL_PLAINTEXT!, { op: 'describeDelegationTokens' }, asUser('admin', 'admin-secret'));
      expect(ours.map((t) => ({ tokenId: t.tokenId, owner: t.owner, requester: t.requester, expiryTimestampMs: String(t.expiryTimestampMs), maxTimestampMs: String(t.maxTimestampMs), renewers: t.renewers }))).toEqual(java);
      expect(Buffer.from(ours[0]!.hmac).equals(Buffer.from(token.hmac))).toBe(true);
      expect(await sasl.renewDelegationToken(token.hmac)).toBeGreaterThanOrEqual(token.expiryTimestampMs);
      await sasl.expireDelegationToken(token.hmac);
      expect(await until(async () => (await sasl.describeDelegationTokens()).length === 0)).toBe(true);
    } finally {
      await sasl.close();
    }
  });
});
