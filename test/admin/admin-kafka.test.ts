// The admin client against one real Kafka 4.4 broker, each result checked against what Kafka's own
// Java Admin (kafka/src's JavaAdmin) reports for the same resource: topics (create, describe,
// list, create partitions, delete by name and by id), configs (describe, incremental alter;
// client-metrics subscriptions too, and the config resources listed),
// offsets and records (list offsets, delete records), groups (list, describe classic and KIP-848,
// offsets fetched, altered, reset and deleted, members removed, groups deleted; share groups and
// their start offsets), the cluster and
// its features (metadata.version's release names as Kafka's enum and kafka-features.sh have them); and the partial failures, each named while the rest is done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin, AdminError, createAdmin, METADATA_VERSIONS, metadataVersionName } from '../../src/admin/index.js';
import { createProducer } from '../../src/producer/index.js';
import { Consumer, ShareConsumer } from '../../src/consumer/index.js';
import { listShareGroups as oldListShareGroups } from '../../src/consumer.js';
import { kafkaJava, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { KafkaClient } from '../../src/wire/client.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { javaAdmin, javaAdminOne } from './java-admin.js';

const ok = await kafkaPeer();

/** The AdminError a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<AdminError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AdminError) return error;
    throw error;
  }
  throw new Error('expected an AdminError, and the call succeeded');
}

async function until(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await check()) return true;
  return false;
}

/** One of Kafka's own tools (kafka-topics.sh is org.apache.kafka.tools.TopicCommand): its stdout. */
async function kafkaTool(tool: string, args: string[]): Promise<string> {
  const r = await kafkaJava(`org.apache.kafka.tools.${tool}`, args, { timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`${tool} ${args.join(' ')} exited ${r.code}:\n${r.stderr.slice(-2000)}`);
  return r.stdout;
}

describe.skipIf(!ok)('the admin client against Kafka 4.4, checked by Kafka\'s Java Admin', () => {
  const kafka = useKafka();
  let admin: Admin;
  let bootstrap: string;
  beforeAll(async () => {
    bootstrap = kafka().bootstrap;
    admin = await createAdmin({ bootstrap, clientId: 'kafka-wire-admin-test' });
  });
  afterAll(async () => { await admin?.close(); });

  it('creates topics (counts, an explicit assignment, configs), describes them as the Java Admin does, and validate-only creates nothing', async () => {
    const created = await admin.createTopics([
      { name: 'a-counts', partitions: 3, replicationFactor: 1, configs: { 'cleanup.policy': 'compact', 'retention.ms': '3600000' } },
      { name: 'a-assigned', assignments: [[1], [1]] },
      { name: 'a-defaults' },
    ]);
    expect(created.map((t) => [t.name, t.partitions, t.replicationFactor])).toEqual([['a-counts', 3, 1], ['a-assigned', 2, 1], ['a-defaults', 1, 1]]);
    expect(created[0]!.configs.find((c) => c.name === 'cleanup.policy')).toMatchObject({ value: 'compact', source: 'DYNAMIC_TOPIC_CONFIG' });
    const ours = await admin.describeTopics(['a-counts', 'a-assigned', 'a-defaults']);
    const java = await javaAdminOne(bootstrap, { op: 'describeTopics', topics: ['a-counts', 'a-assigned', 'a-defaults'] });
    expect(ours.map((t) => ({
      name: t.name, topicId: t.topicId, internal: t.internal, authorizedOperations: t.authorizedOperations,
      partitions: t.partitions.map((p) => ({ partition: p.partition, leader: p.leader, replicas: p.replicas, isr: p.isr, eligibleLeaderReplicas: p.eligibleLeaderReplicas, lastKnownElr: p.lastKnownElr })),
    }))).toEqual(java);
    expect(created.map((t) => t.topicId)).toEqual(java.map((t: { topicId: string }) => t.topicId));
    // By id: the same description.
    expect(await admin.describeTopics([{ topicId: ours[0]!.topicId }])).toEqual([ours[0]]);

    const checked = await admin.createTopics([{ name: 'a-validate-only', partitions: 2 }], { validateOnly: true });
    expect(checked[0]!.partitions).toBe(2);
    expect(await javaAdminOne(bootstrap, { op: 'listTopics' })).not.toContain('a-validate-only');
  });

  it('a batch create where one topic exists: that one named TOPIC_ALREADY_EXISTS, the other created', async () => {
    await admin.createTopics([{ name: 'b-exists' }]);
    const e = await rejection(admin.createTopics([{ name: 'b-exists' }, { name: 'b-new', partitions: 2 }]));
    expect(e.code).toBe('RESOURCES');
    expect(e.failures.map((f) => [f.resource, f.errorName, f.code])).toEqual([['topic b-exists', 'TOPIC_ALREADY_EXISTS', 'BROKER']]);
    expect(e.message).toMatch(/topic b-exists: TOPIC_ALREADY_EXISTS \(36\)/);
    expect((e.succeeded as { name: string }[]).map((t) => t.name)).toEqual(['b-new']);
    expect(await javaAdminOne(bootstrap, { op: 'listTopics' })).toContain('b-new');
  });

  it('refuses bad input before sending anything', async () => {
    // Nothing listens on port 1: a call that sent anything would fail to connect instead.
    const offline = new Admin({ bootstrap: '127.0.0.1:1', connectTimeoutMs: 1000 });
    try {
      for (const call of [
        () => offline.createTopics([{ name: 'x', partitions: -3 }]),
        () => offline.createTopics([{ name: 'bad name!' }]),
        () => offline.createTopics([{ name: 'x'.repeat(250) }]),
        () => offline.createTopics([{ name: '..' }]),
        () => offline.createTopics([{ name: 'x', replicationFactor: 0 }]),
        () => offline.createTopics([{ name: 'x', assignments: [[1, 1]] }]),
        () => offline.alterConfigs([{ type: 'topic', name: 'x', changes: [{ name: 'retention.ms', op: 'multiply' as never, value: '1' }] }]),
        () => offline.alterConfigs([{ type: 'nope' as never, name: 'x', changes: [{ name: 'a', value: '1' }] }]),
        () => offline.createPartitions([{ topic: 'x', count: 0 }]),
        () => offline.deleteRecords([{ topic: 'x', partition: 0, before: -5n }]),
        () => offline.listOffsets([{ topic: 'x', partition: 0, spec: 'soonest' as never }]),
        () => offline.deleteTopics([{ topicId: 'not-an-id' }]),
      ]) {
        const e = await rejection(call());
        expect(e.code, e.message).toBe('INVALID_ARGUMENT');
      }
      expect((await rejection(offline.createTopics([{ name: 'x', partitions: -3 }]))).message).toMatch(/partitions must be an integer of at least 1, not -3/);
      expect((await rejection(offline.alterConfigs([{ type: 'topic', name: 'x', changes: [{ name: 'a', op: 'multiply' as never, value: '1' }] }]))).message).toMatch(/config operation "multiply"/);
    } finally {
      await offline.close();
    }
  });

  it('lists topics (internal ones on request), adds partitions, and deletes by name and by id; missing ones named, the others deleted', async () => {
    await admin.createTopics([{ name: 'c-one' }, { name: 'c-two' }, { name: 'c-three' }]);
    await admin.alterOffsets('c-group', [{ topic: 'c-one', partition: 0, offset: 0 }]); // makes __consumer_offsets
    const [javaPlain, javaAll] = await javaAdmin(bootstrap, [{ op: 'listTopics' }, { op: 'listTopics', internal: true }]);
    expect((await admin.listTopics()).map((t) => t.name)).toEqual(javaPlain);
    const all = await admin.listTopics({ internal: true });
    expect(all.map((t) => t.name)).toEqual(javaAll);
    expect(all.find((t) => t.name === '__consumer_offsets')?.internal).toBe(true);

    expect(await admin.createPartitions([{ topic: 'c-one', count: 4 }])).toEqual([{ topic: 'c-one', count: 4 }]);
    const grown = await javaAdminOne(bootstrap, { op: 'describeTopics', topics: ['c-one'] });
    expect(grown[0].partitions).toHaveLength(4);
    const shrink = await rejection(admin.createPartitions([{ topic: 'c-one', count: 2 }, { topic: 'c-two', count: 2 }]));
    expect(shrink.failures.map((f) => [f.resource, f.errorName])).toEqual([['topic c-one', 'INVALID_PARTITIONS']]);

    const id = all.find((t) => t.name === 'c-three')!.topicId;
    expect(await admin.deleteTopics(['c-one', { topicId: id }])).toEqual([{ name: 'c-one', topicId: all.find((t) => t.name === 'c-one')!.topicId }, { name: 'c-three', topicId: id }]);
    const missing = await rejection(admin.deleteTopics(['c-missing', 'c-two', { topicId: 'AAAAAAAAAAAAAAAAAAAAAQ' }]));
    expect(missing.failures.map((f) => [f.resource, f.errorName])).toEqual([['topic c-missing', 'UNKNOWN_TOPIC_OR_PARTITION'], ['topic id AAAAAAAAAAAAAAAAAAAAAQ', 'UNKNOWN_TOPIC_ID']]);
    expect(await until(async () => {
      const left = await javaAdminOne(bootstrap, { op: 'listTopics' });
      return !left.includes('c-one') && !left.includes('c-two') && !left.includes('c-three');
    })).toBe(true);
  });

  it('describes configs of topics, brokers, broker loggers and groups as the Java Admin does: values, sources, synonyms, defaults, sensitivity', async () => {
    await admin.createTopics([{ name: 'd-configs', configs: { 'retention.ms': '123456' } }]);
    await admin.alterOffsets('d-group', [{ topic: 'd-configs', partition: 0, offset: 0 }]);
    const resources = [
      { type: 'topic', name: 'd-configs', java: 'TOPIC' }, { type: 'broker', name: '1', java: 'BROKER' },
      { type: 'broker-logger', name: '1', java: 'BROKER_LOGGER' }, { type: 'group', name: 'd-group', java: 'GROUP' },
    ] as const;
    const ours = await admin.describeConfigs(resources.map(({ type, name }) => ({ type, name })));
    const java = await javaAdmin(bootstrap, resources.map(({ java: type, name }) => ({ op: 'describeConfigs', type, name })));
    ours.forEach((d, i) => {
      expect(d.entries.length, d.type).toBeGreaterThan(0);
      expect(d.entries.slice().sort((x, y) => (x.name < y.name ? -1 : 1)).map((e) => ({
        name: e.name, value: e.value, source: e.source, isSensitive: e.isSensitive, isReadOnly: e.readOnly, isDefault: e.isDefault, type: e.type, synonyms: e.synonyms,
      })), d.type).toEqual(java[i]);
    });
    const retention = ours[0]!.entries.find((e) => e.name === 'retention.ms')!;
    expect(retention).toMatchObject({ value: '123456', source: 'DYNAMIC_TOPIC_CONFIG', isDefault: false });
    expect(retention.synonyms[0]).toEqual({ name: 'retention.ms', value: '123456', source: 'DYNAMIC_TOPIC_CONFIG' });
    // Only the keys asked for, with the broker's documentation when asked.
    const [one] = await admin.describeConfigs([{ type: 'topic', name: 'd-configs', keys: ['cleanup.policy'] }], { documentation: true });
    expect(one!.entries.map((e) => e.name)).toEqual(['cleanup.policy']);
    expect(one!.entries[0]!.documentation).toMatch(/\w/);
    const missing = await rejection(admin.describeConfigs([{ type: 'topic', name: 'd-missing' }, { type: 'topic', name: 'd-configs' }]));
    expect(missing.failures.map((f) => [f.resource, f.errorName])).toEqual([['topic d-missing', 'UNKNOWN_TOPIC_OR_PARTITION']]);
  });

  it('alters configs incrementally (set, delete, append, subtract, validate-only); a refused config is named, the others done', async () => {
    await admin.createTopics([{ name: 'e-alter' }, { name: 'e-other' }]);
    const value = async (topic: string, name: string) => (await javaAdminOne(bootstrap, { op: 'describeConfigs', type: 'TOPIC', name: topic })).find((e: { name: string }) => e.name === name);
    await admin.alterConfigs([{ type: 'topic', name: 'e-alter', changes: [{ name: 'retention.ms', value: '7200000' }, { name: 'cleanup.policy', value: 'delete' }] }]);
    expect(await value('e-alter', 'retention.ms')).toMatchObject({ value: '7200000', source: 'DYNAMIC_TOPIC_CONFIG' });
    await admin.alterConfigs([{ type: 'topic', name: 'e-alter', changes: [{ name: 'cleanup.policy', op: 'append', value: 'compact' }] }]);
    expect((await value('e-alter', 'cleanup.policy')).value).toBe('delete,compact');
    await admin.alterConfigs([{ type: 'topic', name: 'e-alter', changes: [{ name: 'cleanup.policy', op: 'subtract', value: 'delete' }] }]);
    expect((await value('e-alter', 'cleanup.policy')).value).toBe('compact');
    await admin.alterConfigs([{ type: 'topic', name: 'e-alter', changes: [{ name: 'retention.ms', op: 'delete' }] }]);
    expect(await value('e-alter', 'retention.ms')).toMatchObject({ source: 'DEFAULT_CONFIG', isDefault: true });
    await admin.alterConfigs([{ type: 'topic', name: 'e-alter', changes: [{ name: 'retention.ms', value: '1000' }] }], { validateOnly: true });
    expect((await value('e-alter', 'retention.ms')).source).toBe('DEFAULT_CONFIG');
    // A broker's dynamic config, on that broker.
    await admin.alterConfigs([{ type: 'broker', name: '1', changes: [{ name: 'log.cleaner.threads', value: '2' }] }]);
    expect((await javaAdminOne(bootstrap, { op: 'describeConfigs', type: 'BROKER', name: '1' })).find((e: { name: string }) => e.name === 'log.cleaner.threads'))
      .toMatchObject({ value: '2', source: 'DYNAMIC_BROKER_CONFIG' });

    const refused = await rejection(admin.alterConfigs([
      { type: 'topic', name: 'e-alter', changes: [{ name: 'retention.ms', value: 'soon' }] },
      { type: 'topic', name: 'e-other', changes: [{ name: 'retention.ms', value: '5000' }] },
    ]));
    expect(refused.failures.map((f) => [f.resource, f.errorName])).toEqual([['topic e-alter', 'INVALID_CONFIG']]);
    expect(refused.succeeded).toEqual([{ type: 'topic', name: 'e-other' }]);
    expect((await value('e-other', 'retention.ms')).value).toBe('5000');
  });

  it('lists offsets (earliest, latest, at a time, max timestamp, read_committed) as the Java Admin does, and deletes records', async () => {
    await admin.createTopics([{ name: 'f-offsets', partitions: 1 }]);
    const producer = await createProducer({ bootstrap, transactionalId: 'f-txn' });
    try {
      const base = 1_700_000_000_000;
      producer.beginTransaction();
      await producer.send('f-offsets', [0, 1, 2, 3, 4].map((i) => ({ value: `v${i}`, timestamp: base + (i === 2 ? 5000 : i) })), { partition: 0 });
      await producer.commitTransaction();
      producer.beginTransaction();
      await producer.send('f-offsets', [{ value: 'open', timestamp: base + 10 }], { partition: 0 }); // left open: the last stable offset stays behind it
      const specs = [['earliest', 'earliest'], ['latest', 'latest'], ['max-timestamp', 'maxTimestamp'], [{ timestamp: base + 3 }, String(base + 3)]] as const;
      const ours = await admin.listOffsets(specs.map(([spec]) => ({ topic: 'f-offsets', partition: 0, spec })));
      const java = await javaAdmin(bootstrap, [
        ...specs.map(([, spec]) => ({ op: 'listOffsets', topic: 'f-offsets', partition: 0, spec })),
        { op: 'listOffsets', topic: 'f-offsets', partition: 0, spec: 'latest', isolation: 'read_committed' },
      ]);
      expect(ours.map((o) => ({ offset: String(o.offset), timestamp: String(o.timestamp), leaderEpoch: o.leaderEpoch }))).toEqual(java.slice(0, 4));
      // 5 records, the commit marker (at 5, stamped now: the largest timestamp), the open one at 6;
      // record 2 (base + 5000) is the first at or after base + 3.
      expect(ours.map((o) => o.offset)).toEqual([0n, 7n, 5n, 2n]);
      const [committed] = await admin.listOffsets([{ topic: 'f-offsets', partition: 0, spec: 'latest' }], { isolation: 'read_committed' });
      expect(String(committed!.offset)).toBe(java[4].offset);
      expect(committed!.offset).toBe(6n);
      await producer.abortTransaction();
    } finally {
      await producer.close();
    }
    expect(await admin.deleteRecords([{ topic: 'f-offsets', partition: 0, before: 2n }])).toEqual([{ topic: 'f-offsets', partition: 0, lowWatermark: 2n }]);
    expect((await javaAdminOne(bootstrap, { op: 'listOffsets', topic: 'f-offsets', partition: 0, spec: 'earliest' })).offset).toBe('2');
    const beyond = await rejection(admin.deleteRecords([{ topic: 'f-offsets', partition: 0, before: 1000n }, { topic: 'f-missing', partition: 0, before: 0n }]));
    expect(beyond.failures.map((f) => [f.resource, f.errorName])).toEqual([['f-offsets-0', 'OFFSET_OUT_OF_RANGE'], ['f-missing-0', 'UNKNOWN_TOPIC_OR_PARTITION']]);
  });

  it('groups: lists (with type and state filters) and describes classic and KIP-848 groups as the Java Admin does; fetches, alters, resets and deletes offsets; removes members; deletes groups', async () => {
    await admin.createTopics([{ name: 'g-topic', partitions: 2 }]);
    await admin.alterOffsets('g-idle', [{ topic: 'g-topic', partition: 0, offset: 0 }, { topic: 'g-topic', partition: 1, offset: 0 }]);
    const next = new Consumer({ bootstrap, groupId: 'g-848', topics: ['g-topic'], groupProtocol: 'consumer', resetPolicy: 'earliest' });
    const classic = new Consumer({ bootstrap, groupId: 'g-classic', topics: ['g-topic'], groupProtocol: 'classic', resetPolicy: 'earliest', groupInstanceId: 'static-1' });
    const runs = [next.run(() => {}), classic.run(() => {})];
    try {
      expect(await until(() => next.assignment().length > 0 && classic.assignment().length > 0)).toBe(true);
      const listed = await admin.listGroups();
      // Kafka's Java Admin prints group types capitalised (GroupType.toString); the wire has them lower-case.
      const java = (await javaAdminOne(bootstrap, { op: 'listGroups' })).map((g: { type: string }) => ({ ...g, type: g.type.toLowerCase() }));
      expect(listed).toEqual(java);
      expect(listed.find((g) => g.groupId === 'g-848')).toMatchObject({ type: 'consumer', state: 'Stable' });
      expect((await admin.listGroups({ types: ['classic'] })).map((g) => g.groupId)).toEqual(java.filter((g: { type: string }) => g.type === 'classic').map((g: { groupId: string }) => g.groupId));
      expect((await admin.listGroups({ states: ['Empty'] })).map((g) => g.groupId)).toContain('g-idle');
      expect((await admin.listGroups({ states: ['Empty'] })).map((g) => g.groupId)).not.toContain('g-848');

      const described = await admin.describeGroups(['g-848', 'g-classic']);
      const javaGroups = await javaAdminOne(bootstrap, { op: 'describeConsumerGroups', groups: ['g-848', 'g-classic'] });
      expect(described.map((d) => ({
        groupId: d.groupId, state: d.state, type: d.type, assignor: d.assignor, coordinator: d.coordinator,
        members: d.members.map((m) => ({ memberId: m.memberId, clientId: m.clientId, host: m.host, assignment: m.assignment.flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`)).sort() })),
      }))).toEqual(javaGroups.map((g: any) => ({ ...g, type: g.type.toLowerCase() })));
      expect(described[0]).toMatchObject({ type: 'consumer', state: 'Stable' });
      expect(described[0]!.members[0]!.memberEpoch).toBeGreaterThan(0);
      expect(described[1]).toMatchObject({ type: 'classic', state: 'Stable', assignor: expect.any(String) });
      const nope = await rejection(admin.describeGroups(['g-nope', 'g-848']));
      expect(nope.failures.map((f) => [f.resource, f.errorName])).toEqual([['group g-nope', 'GROUP_ID_NOT_FOUND']]);

      // A live group's members: the static member removed by its instance id.
      expect(await admin.removeMembers('g-classic', [{ groupInstanceId: 'static-1' }])).toEqual(['static-1']);
      const gone = await rejection(admin.removeMembers('g-classic', [{ groupInstanceId: 'static-nobody' }]));
      expect(gone.failures.map((f) => f.errorName)).toEqual(['UNKNOWN_MEMBER_ID']);
      const refused = await rejection(admin.deleteGroups(['g-848', 'g-idle']));
      expect(refused.failures.map((f) => [f.resource, f.errorName])).toEqual([['group g-848', 'NON_EMPTY_GROUP']]);
      expect(refused.succeeded).toEqual(['g-idle']);
    } finally {
      await Promise.all([next.close(), classic.close()]);
      await Promise.all(runs);
    }

    await admin.alterOffsets('g-offsets', [{ topic: 'g-topic', partition: 0, offset: 1, metadata: 'm' }, { topic: 'g-topic', partition: 1, offset: 0 }]);
    const fetched = await admin.fetchOffsets('g-offsets');
    expect(Object.fromEntries(fetched.map((o) => [`${o.topic}-${o.partition}`, String(o.offset)]))).toEqual(await javaAdminOne(bootstrap, { op: 'listConsumerGroupOffsets', group: 'g-offsets' }));
    expect(fetched[0]).toMatchObject({ metadata: 'm' });
    // kafka-wire group's table form, kafka-consumer-groups.sh's columns.
    const shown = await runCli('group', ['describe', '-b', bootstrap, 'g-offsets', '-T']);
    expect(shown.stdout.split('\n').filter((l) => l.startsWith('g-offsets')).map((l) => l.split(/ +/))).toEqual([
      ['g-offsets', 'g-topic', '0', '1', '0', '-1', '-', '-', '-'], ['g-offsets', 'g-topic', '1', '0', '0', '0', '-', '-', '-']]);
    expect(shown.stdout).toMatch(/^\nConsumer group 'g-offsets' has no active members.\n\nGROUP +TOPIC +PARTITION +CURRENT-OFFSET +LOG-END-OFFSET +LAG +CONSUMER-ID +HOST +CLIENT-ID\n/);
    expect((await runCli('group', ['list', '-b', bootstrap, '-T'])).stdout).toMatch(/^GROUP +TYPE +STATE +PROTOCOL-TYPE\n(.*\n)*g-offsets +classic +Empty +-\n/);
    expect(await admin.deleteOffsets('g-offsets', [{ topic: 'g-topic', partitions: [1] }])).toEqual([{ topic: 'g-topic', partition: 1 }]);
    expect(await javaAdminOne(bootstrap, { op: 'listConsumerGroupOffsets', group: 'g-offsets' })).toEqual({ 'g-topic-0': '1' });
    expect(await admin.deleteGroups(['g-offsets'])).toEqual(['g-offsets']);
    expect((await javaAdminOne(bootstrap, { op: 'listGroups' })).map((g: { groupId: string }) => g.groupId)).not.toContain('g-offsets');
  });

  it('describes the cluster and its features as the Java Admin does', async () => {
    const [cluster, features] = await javaAdmin(bootstrap, [{ op: 'describeCluster' }, { op: 'describeFeatures' }]);
    const ours = await admin.describeCluster();
    expect({
      clusterId: ours.clusterId, controller: ours.controllerId, authorizedOperations: ours.authorizedOperations,
      brokers: ours.brokers.map(({ nodeId, host, port, rack }) => ({ nodeId, host, port, rack })),
    }).toEqual(cluster);
    expect(ours.clusterId).toBe(kafka().clusterId);
    const f = await admin.describeFeatures();
    expect({
      finalized: Object.fromEntries(Object.entries(f.finalized).map(([k, v]) => [k, { min: v.minVersionLevel, max: v.maxVersionLevel }])),
      supported: Object.fromEntries(Object.entries(f.supported).map(([k, v]) => [k, { min: v.minVersion, max: v.maxVersion }])),
    }).toEqual({ finalized: features.finalized, supported: features.supported });
    // The epoch is the metadata log's offset of the last feature record: it moves on with every
    // change of the cluster, so ours (asked after Kafka's Java Admin) is at least its.
    expect(f.finalizedEpoch).toBeGreaterThanOrEqual(BigInt(features.finalizedEpoch));
    expect(f.finalized['metadata.version']).toBeDefined();

    // metadata.version's release names: the committed table is Kafka 4.4's MetadataVersion enum,
    // and `kafka-wire features describe` prints what kafka-features.sh describe prints.
    const enumLines = await kafkaJava('dev.kafkawire.JavaAdmin', ['metadata-versions']);
    expect(enumLines.code, enumLines.stderr).toBe(0);
    expect(METADATA_VERSIONS.map(([level, name]) => ({ level, name }))).toEqual(jsonLines(enumLines.stdout));
    expect(metadataVersionName(f.finalized['metadata.version']!.maxVersionLevel)).toMatch(/^4\.4-IV\d$/);
    // The epoch moves on with every change of the cluster: compared without it.
    const noEpoch = (text: string) => text.replace(/Epoch: \d+$/gm, 'Epoch: N');
    const ourFeatures = await runCli('features', ['describe', '--bootstrap-server', bootstrap]);
    expect(ourFeatures.code, ourFeatures.stderr).toBe(0);
    expect(ourFeatures.stdout).toMatch(/^Feature: metadata\.version +SupportedMinVersion: 3\.3-IV3 +SupportedMaxVersion: 4\.\d-IV\d +FinalizedVersionLevel: 4\.4-IV\d +Epoch: \d+$/m);
    expect(noEpoch(ourFeatures.stdout)).toBe(noEpoch(await kafkaTool('FeatureCommand', ['--bootstrap-server', bootstrap, 'describe'])));
  });

  it('kafka-wire topics: create, list, describe (what kafka-topics.sh --describe prints), alter, delete; -J lines; failures named', async () => {
    const b = ['--bootstrap-server', bootstrap];
    const created = await runCli('topics', ['create', ...b, '--topic', 'h-cli', '--partitions', '3', '--config', 'retention.ms=1000', '--config', 'cleanup.policy=compact']);
    expect(created).toMatchObject({ code: 0, stdout: 'Created topic h-cli.\n' });
    expect((await runCli('topics', ['create', '-b', bootstrap, '--topic', 'h-assigned', '--replica-assignment', '1,1'])).code).toBe(0);
    const again = await runCli('topics', ['create', ...b, '--topic', 'h-cli']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/topic h-cli: TOPIC_ALREADY_EXISTS \(36\)/);
    expect((await runCli('topics', ['create', ...b, '--topic', 'h-cli', '--if-not-exists'])).code).toBe(0);

    const ours = await runCli('topics', ['describe', ...b, '--topic', 'h-cli', '--topic', 'h-assigned']);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(await kafkaTool('TopicCommand', ['--bootstrap-server', bootstrap, '--describe', '--topic', 'h-cli|h-assigned']).then((text) => {
      // kafka-topics.sh takes a pattern and prints in its own order: compare topic by topic.
      const blocks = text.split(/(?=^Topic: )/m);
      return ['h-cli', 'h-assigned'].map((t) => blocks.find((x) => x.startsWith(`Topic: ${t}\t`))).join('');
    }));
    expect(ours.stdout).toMatch(/^Topic: h-cli\tTopicId: \S{22}\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: .*retention.ms=1000/);
    const lines = jsonLines((await runCli('topics', ['describe', ...b, '--topic', 'h-cli', '-J'])).stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ name: 'h-cli', configs: { 'retention.ms': '1000', 'cleanup.policy': 'compact' } });
    expect(lines[0].partitions).toHaveLength(3);

    const listed = (await runCli('topics', ['list', ...b])).stdout.trim().split('\n');
    expect(listed).toEqual((await kafkaTool('TopicCommand', ['--bootstrap-server', bootstrap, '--list'])).trim().split('\n').sort());
    expect((await runCli('topics', ['alter', ...b, '--topic', 'h-cli', '--partitions', '5'])).code).toBe(0);
    expect((await javaAdminOne(bootstrap, { op: 'describeTopics', topics: ['h-cli'] }))[0].partitions).toHaveLength(5);

    const bad = await runCli('topics', ['create', '-b', '127.0.0.1:1', '--topic', 'h-bad', '--partitions', '-2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/partitions must be an integer of at least 1, not -2/);

    const deleted = await runCli('topics', ['delete', ...b, '--topic', 'h-cli', '--topic', 'h-nope']);
    expect(deleted.code).toBe(1);
    expect(deleted.stdout).toBe('Deleted topic h-cli.\n');
    expect(deleted.stderr).toMatch(/topic h-nope: UNKNOWN_TOPIC_OR_PARTITION \(3\)/);
    expect((await runCli('topics', ['delete', ...b, '--topic', 'h-nope', '--if-exists'])).code).toBe(0);
  });

  it('client-metrics subscriptions (KIP-714): set, described and listed as the Java Admin does, shown and altered as kafka-configs.sh does, deleted', async () => {
    const metrics = 'org.apache.kafka.producer.,org.apache.kafka.consumer.';
    await admin.alterConfigs([{ type: 'client-metrics', name: 'm-sub', changes: [
      { name: 'metrics', value: metrics }, { name: 'interval.ms', value: '60000' }, { name: 'match', value: 'client_id=kafka-wire.*' },
    ] }]);
    await admin.alterConfigs([{ type: 'client-metrics', name: 'm-other', changes: [{ name: 'metrics', value: '*' }] }]);
    // A bad subscription (an interval below Kafka's 100 ms) refused and named (Kafka says INVALID_REQUEST), the other done.
    const refused = await rejection(admin.alterConfigs([
      { type: 'client-metrics', name: 'm-bad', changes: [{ name: 'interval.ms', value: '5' }] },
      { type: 'client-metrics', name: 'm-other', changes: [{ name: 'interval.ms', value: '30000' }] },
    ]));
    expect(refused.failures.map((f) => [f.resource, f.errorName])).toEqual([['client-metrics m-bad', 'INVALID_REQUEST']]);
    expect(await until(async () => (await admin.listConfigResources(['client-metrics'])).length === 2)).toBe(true);

    const [javaDescribed, javaOther, javaListed] = await javaAdmin(bootstrap, [
      { op: 'describeConfigs', type: 'CLIENT_METRICS', name: 'm-sub' }, { op: 'describeConfigs', type: 'CLIENT_METRICS', name: 'm-other' },
      { op: 'listConfigResources', types: ['CLIENT_METRICS'] },
    ]);
    const ours = await admin.describeConfigs([{ type: 'client-metrics', name: 'm-sub' }, { type: 'client-metrics', name: 'm-other' }]);
    ours.forEach((d, i) => {
      expect(d.entries.slice().sort((x, y) => (x.name < y.name ? -1 : 1)).map((e) => ({
        name: e.name, value: e.value, source: e.source, isSensitive: e.isSensitive, isReadOnly: e.readOnly, isDefault: e.isDefault, type: e.type, synonyms: e.synonyms,
      }))).toEqual([javaDescribed, javaOther][i]);
    });
    expect(ours[0]!.entries.find((e) => e.name === 'metrics')).toMatchObject({ value: metrics, source: 'DYNAMIC_CLIENT_METRICS_CONFIG' });
    expect(ours[1]!.entries.find((e) => e.name === 'interval.ms')).toMatchObject({ value: '30000' });
    const listed = await admin.listConfigResources(['client-metrics']);
    expect(listed).toEqual(javaListed.map((r: { name: string }) => ({ type: 'client-metrics', name: r.name })));
    expect(listed.map((r) => r.name)).toEqual(['m-other', 'm-sub']);
    expect((await admin.listConfigResources()).filter((r) => r.type === 'client-metrics')).toEqual(listed);

    // The command line: kafka-configs.sh's view of a subscription, then its metrics set anew
    // (Kafka keeps them as one string: a SUBTRACT is refused, named).
    const b = ['--entity-type', 'client-metrics', '--entity-name', 'm-sub'];
    const kafkaConfigs = () => kafkaTool('ConfigCommand', ['--bootstrap-server', bootstrap, ...b, '--describe']);
    expect((await runCli('configs', ['describe', '-b', bootstrap, ...b])).stdout).toBe(await kafkaConfigs());
    const subtracted = await runCli('configs', ['alter', '-b', bootstrap, ...b, '--subtract-config', 'metrics=org.apache.kafka.consumer.']);
    expect(subtracted).toMatchObject({ code: 1, stderr: expect.stringContaining('client-metrics m-sub: INVALID_CONFIG (40)') });
    const set = await runCli('configs', ['alter', '-b', bootstrap, ...b, '--add-config', 'metrics=org.apache.kafka.producer.']);
    expect(set.code, set.stderr).toBe(0);
    expect(await until(async () => (await admin.describeConfigs([{ type: 'client-metrics', name: 'm-sub', keys: ['metrics'] }]))[0]!.entries[0]!.value === 'org.apache.kafka.producer.')).toBe(true);
    expect((await runCli('configs', ['describe', '-b', bootstrap, ...b])).stdout).toBe(await kafkaConfigs());

    // Deleting every config deletes the subscription.
    await admin.alterConfigs([{ type: 'client-metrics', name: 'm-other', changes: [{ name: 'metrics', op: 'delete' }, { name: 'interval.ms', op: 'delete' }] }]);
    expect(await until(async () => (await admin.listConfigResources(['client-metrics'])).map((r) => r.name).join() === 'm-sub')).toBe(true);
  });

  it('share groups through the Admin: listed, described, start offsets altered, reset and deleted, the group deleted, as Kafka\'s Java Admin sees them; the old kafka-wire/consumer names still work', async () => {
    const group = 'o-share-g';
    await admin.createTopics([{ name: 'o-share', partitions: 2 }]);
    const producer = await createProducer({ bootstrap });
    try {
      for (const partition of [0, 1]) await producer.send('o-share', Array.from({ length: 5 }, (_, i) => ({ value: `r${i}` })), { partition });
    } finally {
      await producer.close();
    }
    await admin.alterConfigs([{ type: 'group', name: group, changes: [{ name: 'share.auto.offset.reset', value: 'earliest' }] }]);
    const member = new ShareConsumer({ bootstrap, groupId: group, topics: ['o-share'] });
    const ourOffsets = async () => (await admin.describeShareGroups([group]))[0]!.offsets.map((o) => ({ ...o, startOffset: o.startOffset === null ? null : String(o.startOffset), lag: o.lag === null ? null : String(o.lag) }));
    try {
      for (let n = 0, end = Date.now() + 90_000; n < 10; n += (await member.poll(5_000)).length) if (Date.now() > end) throw new Error(`the share member got ${n} of 10 records in 90 s`);
      expect((await admin.listShareGroups()).find((g) => g.groupId === group)).toEqual({ groupId: group, state: 'Stable' });
      const javaGroups = await javaAdminOne(bootstrap, { op: 'listGroups' });
      expect(javaGroups.find((g: { groupId: string }) => g.groupId === group)).toMatchObject({ type: 'Share', state: 'Stable' });
      const [d] = await admin.describeShareGroups([group]);
      const [{ coordinator: _, ...jd }] = await javaAdminOne(bootstrap, { op: 'describeShareGroups', groups: [group] });
      expect({ groupId: d!.groupId, state: d!.state, groupEpoch: d!.groupEpoch, assignmentEpoch: d!.assignmentEpoch, members: d!.members.map((m) => ({ memberId: m.memberId, clientId: m.clientId })) })
        .toEqual(jd);
      expect(d!.members[0]!.assignment).toEqual([{ topic: 'o-share', partitions: [0, 1] }]);
    } finally {
      await member.close();
    }
    // The member gone (what it had acknowledged is Kafka's business): the group empty, its start
    // offsets as the Java Admin has them.
    expect(await until(async () => (await admin.describeShareGroups([group]))[0]!.members.length === 0, 60_000)).toBe(true);
    let java: unknown = null;
    expect(await until(async () => JSON.stringify(await ourOffsets()) === JSON.stringify(java = await javaAdminOne(bootstrap, { op: 'listShareGroupOffsets', group })), 60_000), JSON.stringify(java)).toBe(true);
    await admin.alterShareGroupOffsets(group, [{ topic: 'o-share', partition: 0, offset: 0 }, { topic: 'o-share', partition: 1, offset: 2n }]);
    expect((await ourOffsets()).map((o) => [o.startOffset, o.lag])).toEqual([['0', '5'], ['2', '3']]);
    expect(await ourOffsets()).toEqual(await javaAdminOne(bootstrap, { op: 'listShareGroupOffsets', group }));
    expect(await admin.resetShareGroupOffsets(group, ['o-share'], 'latest')).toEqual([{ topic: 'o-share', partition: 0, offset: 5n }, { topic: 'o-share', partition: 1, offset: 5n }]);
    await admin.deleteShareGroupOffsets(group, ['o-share']);
    expect(await ourOffsets()).toEqual([]);
    // A group that is not there named, the other described; bad input refused before sending.
    const missing = await rejection(admin.describeShareGroups([group, 'o-nobody']));
    expect(missing.failures.map((f) => f.resource)).toEqual(['group o-nobody']);
    expect(missing.failures[0]!.errorName).toBe('GROUP_ID_NOT_FOUND');
    expect(missing.succeeded).toHaveLength(1);
    expect((await rejection(admin.alterShareGroupOffsets(group, [{ topic: 'o-share', partition: -1, offset: 0 }]))).code).toBe('INVALID_ARGUMENT');
    // The functions kafka-wire/consumer exported keep working (deprecated there).
    const client = new KafkaClient({ bootstrap });
    try {
      expect((await oldListShareGroups(client)).map((g) => g.groupId)).toContain(group);
    } finally {
      await client.close();
    }
    expect(await admin.deleteShareGroups([group])).toEqual([group]);
    expect((await admin.listShareGroups()).some((g) => g.groupId === group)).toBe(false);
  }, 180_000); // a share member's join and leave take Kafka's default heartbeats (5 s) and session (45 s) on this shared broker

  it('kafka-wire configs: describe prints what kafka-configs.sh prints (dynamic and --all), alter adds, deletes, appends and subtracts', async () => {
    await admin.createTopics([{ name: 'i-cli', configs: { 'retention.ms': '1000', 'cleanup.policy': 'compact' } }]);
    const b = ['-b', bootstrap, '--entity-type', 'topics', '--entity-name', 'i-cli'];
    const kafkaConfigs = (more: string[]) => kafkaTool('ConfigCommand', ['--bootstrap-server', bootstrap, '--entity-type', 'topics', '--entity-name', 'i-cli', ...more]);
    expect((await runCli('configs', ['describe', ...b])).stdout).toBe(await kafkaConfigs(['--describe']));
    expect((await runCli('configs', ['describe', ...b, '--all'])).stdout).toBe(await kafkaConfigs(['--describe', '--all']));
    const altered = await runCli('configs', ['alter', ...b, '--add-config', 'retention.ms=2000,cleanup.policy=[delete,compact]', '--delete-config', 'segment.bytes']);
    expect(altered).toMatchObject({ code: 0, stdout: 'Completed updating config for topic i-cli.\n' });
    expect((await runCli('configs', ['describe', ...b])).stdout).toBe(await kafkaConfigs(['--describe']));
    expect((await runCli('configs', ['alter', ...b, '--subtract-config', 'cleanup.policy=delete'])).code).toBe(0);
    const [line] = jsonLines((await runCli('configs', ['describe', ...b, '-J'])).stdout);
    expect(line.entries.map((e: { name: string; value: string }) => `${e.name}=${e.value}`)).toEqual(['cleanup.policy=compact', 'retention.ms=2000']);
    const broker = await runCli('configs', ['describe', '-b', bootstrap, '--entity-type', 'brokers', '--entity-name', '1']);
    expect(broker.stdout).toBe(await kafkaTool('ConfigCommand', ['--bootstrap-server', bootstrap, '--entity-type', 'brokers', '--entity-name', '1', '--describe']));
    const refused = await runCli('configs', ['alter', ...b, '--add-config', 'retention.ms=soon']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/topic i-cli: INVALID_CONFIG \(40\)/);
    expect((await runCli('configs', ['alter', ...b, '--add-config', 'nonsense'])).code).toBe(2);
  });

  it('a client quota set through kafka-wire throttles a producer: the Produce response\'s throttle time rises', async () => {
    await admin.createTopics([{ name: 'j-throttled' }]);
    const produce = async (clientId: string) => {
      const client = new KafkaClient({ bootstrap, clientId });
      try {
        const info = await client.topic('j-throttled');
        const conn = await client.leader('j-throttled', 0);
        let throttled = 0;
        // The broker answers a request over the quota at once, with the throttle time, then holds
        // the connection's next request that long: stop at the first throttled answer.
        for (let i = 0; i < 3 && throttled === 0; i++) {
          const res = await conn.request(0, undefined, { acks: -1, timeoutMs: 10_000, topicData: [{ name: 'j-throttled', topicId: info.topicId, partitionData: [{ index: 0, records: encodeRecordBatch({ records: [{ value: new Uint8Array(16 << 10) }] }) }] }] });
          throttled = res!.throttleTimeMs;
        }
        return throttled;
      } finally {
        await client.close();
      }
    };
    expect(await produce('j-free')).toBe(0);
    await admin.alterClientQuotas([{ entity: { 'client-id': 'j-slow' }, values: { producer_byte_rate: 4096 } }]);
    await until(async () => (await admin.describeClientQuotas({ 'client-id': 'j-slow' })).length === 1);
    expect(await produce('j-slow')).toBeGreaterThan(0);
  });
});
