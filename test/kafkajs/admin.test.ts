// kafkajs's admin client, run with kafkajs 2.2.4 and with kafka-wire/kafkajs against one real
// Kafka 4.4 (an authorizer on, so ACL calls work): every method of kafkajs's Admin, the same calls
// with each module, and the results compared (names made per module are written back to one
// name first). Where kafkajs is wrong, or the two differ on purpose, the difference is named
// where it is allowed. Wrong arguments are compared by the error class each module throws.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as ours from '../../src/kafkajs/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';

const require = createRequire(import.meta.url);
const kafkajs = require('kafkajs') as typeof import('kafkajs');
type Module = typeof ours;
const MODULES: [string, Module][] = [['kafkajs', kafkajs as unknown as Module], ['kafka-wire', ours]];

const ok = await kafkaPeer();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
let serial = 0;

/** The error a call rejects with, as its class name and (for protocol errors) Kafka's error name; 'resolved' when it does not. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    const err = e as { name: string; type?: string; errors?: { name: string; type?: string }[] };
    const inner = err.errors?.map((x) => `${x.name}${x.type ? `:${x.type}` : ''}`).join(',');
    return `${err.name}${err.type ? `:${err.type}` : ''}${inner ? `[${inner}]` : ''}`;
  }
}

describe.skipIf(!ok)('kafkajs\'s admin client, run with kafkajs and with kafka-wire/kafkajs against Kafka 4.4', () => {
  const cluster = useKafka({
    config: {
      'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      'super.users': 'User:ANONYMOUS',
      'allow.everyone.if.no.acl.found': 'true',
    },
  });

  /** Runs a scenario once per module (kafkajs first) with an admin connected, its own names written back to ID in the result. */
  async function both<T>(scenario: (admin: ours.Admin, kafka: ours.Kafka, name: (what: string) => string, mod: Module) => Promise<T>): Promise<{ kafkajs: T; ours: T }> {
    const out: T[] = [];
    for (const [label, mod] of MODULES) {
      const id = `${label}-${++serial}`;
      const kafka = new mod.Kafka({ clientId: 'compat', brokers: [cluster().bootstrap], logLevel: mod.logLevel.NOTHING, retry: { retries: 2, initialRetryTime: 50 } });
      const admin = kafka.admin();
      await admin.connect();
      try {
        const result = await scenario(admin, kafka, (what) => `${what}-${id}`, mod);
        out.push(JSON.parse(JSON.stringify(result ?? null, (_k, v) => (Buffer.isBuffer(v) ? `buffer:${v.length}` : v)).replaceAll(id, 'ID')) as T);
      } finally {
        await admin.disconnect();
      }
    }
    return { kafkajs: out[0]!, ours: out[1]! };
  }

  async function produce(kafka: ours.Kafka, topic: string, messages: ours.Message[]): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages });
    await producer.disconnect();
  }

  it('topics: createTopics (true, then false for one that exists), listTopics, fetchTopicMetadata, createPartitions, deleteTopics', async () => {
    const r = await both(async (admin, _kafka, name) => {
      const [a, b, c] = [name('a'), name('b'), name('c')];
      const created = await admin.createTopics({ topics: [{ topic: a, numPartitions: 3 }, { topic: b, replicaAssignment: [{ partition: 1, replicas: [1] }, { partition: 0, replicas: [1] }] }] });
      const again = await admin.createTopics({ topics: [{ topic: a, numPartitions: 3 }] });
      const mixed = await admin.createTopics({ topics: [{ topic: a }, { topic: c, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }] });
      const validateOnly = await failure(admin.createTopics({ validateOnly: true, topics: [{ topic: name('never') }] }));
      // Not c: kafkajs's createTopics returns false (a existed) without waiting for c's leader,
      // so a listing right after it may not have c yet; it is looked for below, after a wait.
      const listed = (await admin.listTopics()).filter((t) => t.endsWith(a.slice(1)) || t === b || t.startsWith('never')).sort();
      let cListed = false;
      for (let i = 0; i < 100 && !cListed; i++) { cListed = (await admin.listTopics()).includes(c); if (!cListed) await sleep(50); }
      const internal = (await admin.listTopics()).includes('__consumer_offsets');
      const { topics } = await admin.fetchTopicMetadata({ topics: [a, b] });
      const grown = await admin.createPartitions({ topicPartitions: [{ topic: a, count: 5 }] });
      const after = await admin.fetchTopicMetadata({ topics: [a] });
      const all = (await admin.fetchTopicMetadata()).topics.map((t) => t.name).filter((n) => n === a || n === b || n === c).sort();
      await admin.deleteTopics({ topics: [b, c] });
      const gone = (await admin.listTopics()).filter((t) => t === b || t === c);
      return {
        created, again, mixed, validateOnly, listed, cListed, internal, grown, all, gone,
        metadata: topics.map((t) => ({ name: t.name, partitions: [...t.partitions].sort((x, y) => x.partitionId - y.partitionId) })).sort((x, y) => x.name.localeCompare(y.name)),
        partitionsAfter: after.topics[0]!.partitions.length,
      };
    });
    expect(r.ours.created).toBe(true);
    expect(r.ours.again).toBe(false);
    // Where kafkajs is wrong: with validateOnly (and waitForLeaders, its default) it waits for the
    // leaders of a topic it did not create, and fails UNKNOWN_TOPIC_OR_PARTITION; kafka-wire
    // resolves true (the topic is valid) and waits for nothing.
    expect(r.kafkajs.validateOnly).toBe('KafkaJSProtocolError:UNKNOWN_TOPIC_OR_PARTITION');
    expect(r.ours.validateOnly).toBe('resolved');
    r.ours.validateOnly = r.kafkajs.validateOnly;
    expect(r.ours.grown).toBeUndefined(); // kafkajs resolves createPartitions to nothing (its types say boolean)
    expect(r.ours).toEqual(r.kafkajs);
  }, 120_000);

  it('topics: the same refusals (bad arguments before sending, broker errors as protocol errors)', async () => {
    const r = await both(async (admin, _kafka, name) => {
      const t = name('t');
      await admin.createTopics({ topics: [{ topic: t }] });
      return {
        noTopics: await failure(admin.createTopics({ topics: undefined as never })),
        duplicate: await failure(admin.createTopics({ topics: [{ topic: 'x' }, { topic: 'x' }] })),
        badConfig: await failure(admin.createTopics({ topics: [{ topic: 'x', configEntries: [{ name: 'a' } as never] }] })),
        replication: await failure(admin.createTopics({ topics: [{ topic: name('r'), replicationFactor: 5 }] })),
        badDelete: await failure(admin.deleteTopics({ topics: [1 as never] })),
        emptyPartitions: await failure(admin.createPartitions({ topicPartitions: [] })),
        fewerPartitions: await failure(admin.createPartitions({ topicPartitions: [{ topic: t, count: 1 }] })),
        badMetadata: await failure(admin.fetchTopicMetadata({ topics: [''] })),
        badOffsets: await failure(admin.fetchTopicOffsets('')),
      };
    });
    expect(r.ours.replication).toBe('KafkaJSAggregateError[KafkaJSCreateTopicError:INVALID_REPLICATION_FACTOR]');
    expect(r.ours).toEqual(r.kafkajs);
  }, 60_000);

  it('offsets: fetchTopicOffsets, fetchTopicOffsetsByTimestamp, deleteTopicRecords', async () => {
    const r = await both(async (admin, kafka, name) => {
      const topic = name('o');
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
      // Recent timestamps: records older than the broker's retention (7 days) may be deleted under the test.
      const base = Date.now() - 3_600_000;
      await produce(kafka, topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}`, partition: i % 2, timestamp: String(base + i * 1000) })));
      const offsets = await admin.fetchTopicOffsets(topic);
      const atStart = await admin.fetchTopicOffsetsByTimestamp(topic, base);
      const middle = await admin.fetchTopicOffsetsByTimestamp(topic, base + 4_000);
      const future = await admin.fetchTopicOffsetsByTimestamp(topic, Date.now() + 3_600_000);
      await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '3' }, { partition: 1, offset: '-1' }] });
      const afterDelete = await admin.fetchTopicOffsets(topic);
      const badPartitions = await failure(admin.deleteTopicRecords({ topic, partitions: [] }));
      const sort = <T extends { partition: number }>(l: T[]) => [...l].sort((x, y) => x.partition - y.partition);
      return { offsets: sort(offsets), atStart: sort(atStart), middle: sort(middle), future: sort(future), afterDelete: sort(afterDelete), badPartitions };
    });
    expect(r.ours.afterDelete).toEqual([{ partition: 0, offset: '5', high: '5', low: '3' }, { partition: 1, offset: '5', high: '5', low: '5' }]);
    expect(r.ours).toEqual(r.kafkajs);
  }, 60_000);

  it('group offsets: setOffsets, fetchOffsets (with and without topics, resolveOffsets), resetOffsets; a group with members is refused', async () => {
    const r = await both(async (admin, kafka, name) => {
      const topic = name('g');
      const groupId = name('group');
      await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] });
      await produce(kafka, topic, Array.from({ length: 9 }, (_, i) => ({ value: `v${i}`, partition: i % 3 })));
      const sort = (l: { topic: string; partitions: { partition: number }[] }[]) => l.map((t) => ({ ...t, partitions: [...t.partitions].sort((x, y) => x.partition - y.partition) }));
      // kafkajs's fetchOffsets does not retry NOT_COORDINATOR, which a cluster's first group
      // call meets while __consumer_offsets is made: the coordinator is found first, for both.
      for (let i = 0; i < 100 && (await failure(admin.fetchOffsets({ groupId, topics: [topic] }))) !== 'resolved'; i++) await sleep(100);
      const none = await admin.fetchOffsets({ groupId, topics: [topic] });
      await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '2' }, { partition: 1, offset: '1' }] });
      const set = await admin.fetchOffsets({ groupId, topics: [topic] });
      const allTopics = await admin.fetchOffsets({ groupId });
      const resolved = await admin.fetchOffsets({ groupId, topics: [topic], resolveOffsets: true });
      const afterResolve = await admin.fetchOffsets({ groupId, topics: [topic] });
      await admin.resetOffsets({ groupId, topic, earliest: true });
      const earliest = await admin.fetchOffsets({ groupId, topics: [topic] });
      await admin.resetOffsets({ groupId, topic });
      const latest = await admin.fetchOffsets({ groupId, topics: [topic] });
      // A running member: setOffsets is refused.
      const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
      await consumer.connect();
      await consumer.subscribe({ topic });
      let joined = false;
      consumer.on(consumer.events.GROUP_JOIN, () => { joined = true; });
      await consumer.run({ eachMessage: async () => undefined });
      for (let i = 0; i < 400 && !joined; i++) await sleep(25);
      const running = await failure(admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '0' }] }));
      await consumer.disconnect();
      return {
        none: sort(none), set: sort(set), allTopics: sort(allTopics), resolved: sort(resolved), afterResolve: sort(afterResolve), earliest: sort(earliest), latest: sort(latest), running,
        noGroup: await failure(admin.fetchOffsets({ groupId: '' })),
        noPartitions: await failure(admin.setOffsets({ groupId, topic, partitions: [] })),
      };
    });
    expect(r.ours.set[0]!.partitions.map((p) => p.offset)).toEqual(['2', '1', '-1']);
    expect(r.ours.running).toBe('KafkaJSNonRetriableError');
    // Where kafkajs is wrong: resetOffsets (and a setOffsets to -1 or -2) commits the placeholder
    // itself (-2 earliest, -1 latest), which other clients (Java's, kafka-wire's) read as no valid
    // offset; kafka-wire commits the offsets they stand for at the time of the reset.
    const offsetsOf = (l: typeof r.ours.earliest) => l[0]!.partitions.map((p) => p.offset);
    expect(offsetsOf(r.kafkajs.earliest)).toEqual(['-2', '-2', '-2']);
    expect(offsetsOf(r.ours.earliest)).toEqual(['0', '0', '0']);
    expect(offsetsOf(r.kafkajs.latest)).toEqual(['-1', '-1', '-1']);
    expect(offsetsOf(r.ours.latest)).toEqual(['3', '3', '3']);
    expect({ ...r.ours, earliest: null, latest: null }).toEqual({ ...r.kafkajs, earliest: null, latest: null });
  }, 120_000);

  it('groups: listGroups, describeGroups (members\' bytes included), deleteGroups and its error', async () => {
    const r = await both(async (admin, kafka, name) => {
      const topic = name('d');
      const groupId = name('described');
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
      const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
      await consumer.connect();
      await consumer.subscribe({ topic });
      let joined = false;
      consumer.on(consumer.events.GROUP_JOIN, () => { joined = true; });
      await consumer.run({ eachMessage: async () => undefined });
      for (let i = 0; i < 400 && !joined; i++) await sleep(25);
      const listed = (await admin.listGroups()).groups.filter((g) => g.groupId === groupId);
      const { groups } = await admin.describeGroups([groupId, name('nobody')]);
      const described = groups.map((g) => ({
        ...g, members: g.members.map((m) => ({ ...m, memberId: m.memberId.length > 0, memberMetadata: m.memberMetadata.length > 0, memberAssignment: m.memberAssignment.length > 0 })),
      }));
      const busy = await failure(admin.deleteGroups([groupId]));
      await consumer.disconnect();
      const deleted = await admin.deleteGroups([groupId]);
      let unknown: unknown = null;
      try {
        await admin.deleteGroups([name('unknown')]);
      } catch (e) {
        const err = e as ours.KafkaJSDeleteGroupsError;
        unknown = { name: err.name, groups: err.groups.map((g) => ({ groupId: g.groupId, errorCode: g.errorCode, error: g.error?.type })) };
      }
      return { listed, described, busy, deleted, unknown, badIds: await failure(admin.deleteGroups(undefined as never)) };
    });
    expect(r.ours.described[0]!.state).toBe('Stable');
    expect(r.ours).toEqual(r.kafkajs);
  }, 120_000);

  it('configs: describeConfigs (a topic\'s, some names, synonyms, a broker\'s), alterConfigs replacing the dynamic configs', async () => {
    const r = await both(async (admin, _kafka, name, mod) => {
      const topic = name('c');
      const { TOPIC, BROKER } = mod.ConfigResourceTypes;
      await admin.createTopics({ topics: [{ topic, configEntries: [{ name: 'retention.ms', value: '3600000' }, { name: 'cleanup.policy', value: 'compact' }] }] });
      const pick = (res: ours.DescribeConfigResponse) => res.resources.map((x) => ({ ...x, configEntries: [...x.configEntries].sort((p, q) => p.configName.localeCompare(q.configName)) }));
      const some = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC, name: topic, configNames: ['retention.ms', 'cleanup.policy', 'segment.bytes'] }] });
      const synonyms = await admin.describeConfigs({ includeSynonyms: true, resources: [{ type: TOPIC, name: topic, configNames: ['retention.ms', 'min.insync.replicas'] }] });
      const all = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC, name: topic }] });
      const broker = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: BROKER, name: '1', configNames: ['log.retention.hours', 'num.partitions'] }] });
      const altered = await admin.alterConfigs({ validateOnly: false, resources: [{ type: TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: '1000' }] }] });
      const after = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC, name: topic, configNames: ['retention.ms', 'cleanup.policy'] }] });
      return {
        some: pick(some), synonyms: pick(synonyms), allCount: all.resources[0]!.configEntries.length > 20, broker: pick(broker), altered, after: pick(after),
        empty: await failure(admin.describeConfigs({ includeSynonyms: false, resources: [] })),
        badType: await failure(admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 99 as never, name: topic }] })),
        badValue: await failure(admin.alterConfigs({ validateOnly: false, resources: [{ type: TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: 5 as never }] }] })),
        unknownConfig: await failure(admin.alterConfigs({ validateOnly: false, resources: [{ type: TOPIC, name: topic, configEntries: [{ name: 'no.such.config', value: '1' }] }] })),
      };
    });
    // kafkajs sends AlterConfigs, which replaces: cleanup.policy (not given) is back to its default.
    expect(r.ours.after[0]!.configEntries.map((e) => [e.configName, e.configValue, e.isDefault])).toEqual([['cleanup.policy', 'delete', true], ['retention.ms', '1000', false]]);
    expect(r.ours).toEqual(r.kafkajs);
  }, 60_000);

  it('cluster: describeCluster', async () => {
    const r = await both(async (admin) => admin.describeCluster());
    expect(r.ours.brokers).toHaveLength(1);
    expect(r.ours).toEqual(r.kafkajs);
  }, 30_000);

  it('ACLs: createAcls, describeAcls, deleteAcls and their argument checks', async () => {
    const r = await both(async (admin, _kafka, name, mod) => {
      const topic = name('acl');
      const base = {
        resourceType: mod.AclResourceTypes.TOPIC, resourceName: topic, resourcePatternType: mod.ResourcePatternTypes.LITERAL,
        principal: 'User:app', host: '*', permissionType: mod.AclPermissionTypes.ALLOW,
      };
      const created = await admin.createAcls({ acl: [{ ...base, operation: mod.AclOperationTypes.READ }, { ...base, operation: mod.AclOperationTypes.WRITE }, { ...base, principal: 'User:other', operation: mod.AclOperationTypes.READ }] });
      const filter = { ...base, principal: undefined, host: undefined, operation: mod.AclOperationTypes.ANY, permissionType: mod.AclPermissionTypes.ANY };
      let described = await admin.describeAcls(filter);
      for (let i = 0; i < 40 && described.resources.flatMap((x) => x.acls).length < 3; i++) { await sleep(50); described = await admin.describeAcls(filter); }
      const deleted = await admin.deleteAcls({ filters: [{ ...filter, principal: 'User:other' }] });
      let left = await admin.describeAcls(filter);
      for (let i = 0; i < 40 && left.resources.flatMap((x) => x.acls).length > 2; i++) { await sleep(50); left = await admin.describeAcls(filter); }
      const sortAcls = (res: ours.DescribeAclResponse) => ({ ...res, resources: res.resources.map((x) => ({ ...x, acls: [...x.acls].sort((p, q) => `${p.principal}${p.operation}`.localeCompare(`${q.principal}${q.operation}`)) })) });
      return {
        created, described: sortAcls(described), deleted, left: sortAcls(left),
        empty: await failure(admin.createAcls({ acl: [] })),
        badOperation: await failure(admin.createAcls({ acl: [{ ...base, operation: 99 as never }] })),
        badHost: await failure(admin.describeAcls({ ...filter, host: 5 as never })),
        badFilters: await failure(admin.deleteAcls({ filters: [] })),
      };
    });
    expect(r.ours.left.resources[0]!.acls).toHaveLength(2);
    expect(r.ours).toEqual(r.kafkajs);
  }, 60_000);

  it('reassignments: alterPartitionReassignments (to the replicas it has), listPartitionReassignments, their argument checks', async () => {
    const r = await both(async (admin, _kafka, name) => {
      const topic = name('re');
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
      const altered = await admin.alterPartitionReassignments({ topics: [{ topic, partitionAssignment: [{ partition: 0, replicas: [1] }] }] });
      const listed = await admin.listPartitionReassignments({ topics: [{ topic, partitions: [0, 1] }] });
      const all = await admin.listPartitionReassignments({});
      return {
        altered, listed, all: all.topics.length,
        badPartition: await failure(admin.alterPartitionReassignments({ topics: [{ topic, partitionAssignment: [{ partition: -1, replicas: [1] }] }] })),
        badReplica: await failure(admin.alterPartitionReassignments({ topics: [{ topic, partitionAssignment: [{ partition: 0, replicas: [-1] }] }] })),
        unknownBroker: await failure(admin.alterPartitionReassignments({ topics: [{ topic, partitionAssignment: [{ partition: 0, replicas: [7] }] }] })),
        badList: await failure(admin.listPartitionReassignments({ topics: [{ topic, partitions: [-1] }] })),
      };
    });
    expect(r.ours.listed).toEqual({ topics: [] });
    expect(r.ours).toEqual(r.kafkajs);
  }, 60_000);

  it('events: admin.connect and admin.disconnect with kafkajs\'s shape; an unknown event name is refused', async () => {
    const r = await both(async (_admin, kafka) => {
      const admin = kafka.admin();
      const seen: unknown[] = [];
      const remove = admin.on(admin.events.CONNECT, (e) => seen.push({ type: e.type, payload: e.payload, id: typeof e.id, timestamp: typeof e.timestamp }));
      admin.on(admin.events.DISCONNECT, (e) => seen.push({ type: e.type, payload: e.payload }));
      await admin.connect();
      remove();
      await admin.connect();
      await admin.disconnect();
      let refused = '';
      try { admin.on('admin.nothing' as never, () => undefined); } catch (e) { refused = (e as Error).name; }
      return { seen, refused, events: admin.events, logger: typeof admin.logger().info };
    });
    expect(r.ours.seen).toHaveLength(2);
    expect(r.ours).toEqual(r.kafkajs);
  }, 30_000);
});
