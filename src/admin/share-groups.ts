// Share groups (KIP-932) in the admin client: list and describe share groups (members,
// assignments, start offsets, lag), alter, reset and delete their start offsets, delete a group,
// and set a group's share.* configs (share.auto.offset.reset, share.isolation.level,
// share.record.lock.duration.ms, ...). These functions over a KafkaClient are what the Admin's
// share-group methods call; kafka-wire/consumer still offers them under their old names
// (deprecated there). Every call finds the group's coordinator itself.

import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { findCoordinator } from '../consumer/classic.js';
import { ConsumerError, COORDINATOR_ERRORS } from '../consumer/errors.js';
import { listOffsets } from '../consumer/offsets.js';
import type { TopicPartitions } from '../consumer/protocol.js';
import type { Connection } from '../wire/connection.js';

/** The config resource type of a group (IncrementalAlterConfigs, DescribeConfigs). */
const GROUP_RESOURCE = 32;
const CONFIG_SET = 0;
const CONFIG_DELETE = 1;

export interface ShareGroupListing { groupId: string; state: string | null }

export interface ShareMemberDescription {
  memberId: string;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  rackId: string | null;
  subscribedTopicNames: string[];
  assignment: TopicPartitions[];
}

export interface SharePartitionOffsets {
  topic: string;
  partition: number;
  /** The share-partition start offset: records before it are done with (null: the group has not read it). */
  startOffset: bigint | null;
  /** Records from the start offset not yet acknowledged (null where Kafka does not say). */
  lag: bigint | null;
}

export interface ShareGroupDescription {
  groupId: string;
  state: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignor: string;
  members: ShareMemberDescription[];
  offsets: SharePartitionOffsets[];
}

function check(what: string, errorCode: number, message?: string | null): void {
  if (errorCode !== 0) throw new ConsumerError('GROUP', `${what}: ${kafkaErrorName(errorCode)}${message ? `: ${message}` : ''}`, { errorCode });
}

function need(conn: Connection, key: number, name: string): number {
  const v = conn.versionFor(key);
  if (v === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks ${name} (share groups, KIP-932)`);
  return v;
}

/** Runs `fn` on the group's coordinator, finding it again while Kafka says it moved or is loading. */
async function onCoordinator<T>(client: KafkaClient, groupId: string, fn: (conn: Connection) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const conn = await findCoordinator(client, groupId).catch((err) => {
      if (attempt >= 10) throw err;
      return null;
    });
    try {
      if (conn) return await fn(conn);
    } catch (err) {
      if (!(err instanceof ConsumerError && err.errorCode !== undefined && COORDINATOR_ERRORS.has(err.errorCode)) || attempt >= 10) throw err;
    } finally {
      await conn?.close();
    }
    await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 1000)));
  }
}

/** Every share group of the cluster (ListGroups to every broker, typesFilter share). */
export async function listShareGroups(client: KafkaClient): Promise<ShareGroupListing[]> {
  await client.metadata([]);
  const out = new Map<string, ShareGroupListing>();
  await Promise.all([...client.brokers.keys()].map(async (nodeId) => {
    const conn = await client.broker(nodeId);
    const version = need(conn, ApiKey.ListGroups, 'ListGroups');
    if (version < 5) throw new ConsumerError('GROUP', `broker ${nodeId} lacks ListGroups v5 (group types)`);
    const res = await conn.request(ApiKey.ListGroups, version, { statesFilter: [], typesFilter: ['share'] });
    check(`ListGroups from broker ${nodeId}`, res.errorCode);
    for (const g of res.groups) out.set(g.groupId, { groupId: g.groupId, state: g.groupState });
  }));
  return [...out.values()].sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
}

/** Members with their assignments, and the start offset and lag of every partition the group has read. */
export async function describeShareGroup(client: KafkaClient, groupId: string): Promise<ShareGroupDescription> {
  return onCoordinator(client, groupId, async (conn) => {
    const res = await conn.request(ApiKey.ShareGroupDescribe, need(conn, ApiKey.ShareGroupDescribe, 'ShareGroupDescribe'), { groupIds: [groupId], includeAuthorizedOperations: false });
    const g = res.groups.find((x) => x.groupId === groupId);
    if (!g) throw new ConsumerError('GROUP', `ShareGroupDescribe: group ${groupId} not in the answer`);
    check(`ShareGroupDescribe ${groupId}`, g.errorCode, g.errorMessage);
    const offsets = await describeOffsets(conn, groupId);
    return {
      groupId, state: g.groupState, groupEpoch: g.groupEpoch, assignmentEpoch: g.assignmentEpoch, assignor: g.assignorName,
      members: g.members.map((m) => ({
        memberId: m.memberId, memberEpoch: m.memberEpoch, clientId: m.clientId, clientHost: m.clientHost, rackId: m.rackId,
        subscribedTopicNames: m.subscribedTopicNames,
        assignment: m.assignment.topicPartitions.map((tp) => ({ topic: tp.topicName, partitions: [...tp.partitions].sort((a, b) => a - b) })),
      })),
      offsets,
    };
  });
}

async function describeOffsets(conn: Connection, groupId: string): Promise<SharePartitionOffsets[]> {
  const version = need(conn, ApiKey.DescribeShareGroupOffsets, 'DescribeShareGroupOffsets');
  const res = await conn.request(ApiKey.DescribeShareGroupOffsets, version, { groups: [{ groupId, topics: null }] });
  const g = res.groups.find((x) => x.groupId === groupId);
  if (!g) return [];
  check(`DescribeShareGroupOffsets ${groupId}`, g.errorCode, g.errorMessage);
  const out: SharePartitionOffsets[] = [];
  for (const t of g.topics) {
    for (const p of t.partitions) {
      check(`DescribeShareGroupOffsets ${groupId} ${t.topicName}/${p.partitionIndex}`, p.errorCode, p.errorMessage);
      out.push({ topic: t.topicName, partition: p.partitionIndex, startOffset: p.startOffset < 0n ? null : p.startOffset, lag: version >= 1 && p.lag >= 0n ? p.lag : null });
    }
  }
  return out.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

/** Sets share-partition start offsets (the group must have no members). */
export async function alterShareGroupOffsets(client: KafkaClient, groupId: string, offsets: readonly { topic: string; partition: number; offset: bigint }[]): Promise<void> {
  const byTopic = new Map<string, { partitionIndex: number; startOffset: bigint }[]>();
  for (const o of offsets) (byTopic.get(o.topic) ?? byTopic.set(o.topic, []).get(o.topic)!).push({ partitionIndex: o.partition, startOffset: o.offset });
  await onCoordinator(client, groupId, async (conn) => {
    const res = await conn.request(ApiKey.AlterShareGroupOffsets, need(conn, ApiKey.AlterShareGroupOffsets, 'AlterShareGroupOffsets'), {
      groupId, topics: [...byTopic].map(([topicName, partitions]) => ({ topicName, partitions })),
    });
    check(`AlterShareGroupOffsets ${groupId}`, res.errorCode, res.errorMessage);
    for (const t of res.responses) for (const p of t.partitions) check(`AlterShareGroupOffsets ${groupId} ${t.topicName}/${p.partitionIndex}`, p.errorCode, p.errorMessage);
  });
}

export type ShareResetTarget = 'earliest' | 'latest' | { timestamp: bigint };

/** Moves the start offsets of the topics' partitions (all of each) to the earliest, latest or first at a timestamp; returns what was set. */
export async function resetShareGroupOffsets(client: KafkaClient, groupId: string, topics: readonly string[], target: ShareResetTarget): Promise<{ topic: string; partition: number; offset: bigint }[]> {
  const tps: TopicPartitions[] = [];
  for (const topic of topics) tps.push({ topic, partitions: (await client.topic(topic)).partitions.map((p) => p.partition) });
  const ts = target === 'earliest' ? -2n : target === 'latest' ? -1n : target.timestamp;
  const found = await listOffsets(client, tps, ts);
  const plan: { topic: string; partition: number; offset: bigint }[] = [];
  for (const tp of tps) {
    for (const partition of tp.partitions) {
      let offset = found.get(tp.topic)?.get(partition);
      // No record at or after the timestamp: the end.
      if (offset === undefined || offset < 0n) offset = (await listOffsets(client, [{ topic: tp.topic, partitions: [partition] }], -1n)).get(tp.topic)!.get(partition)!;
      plan.push({ topic: tp.topic, partition, offset });
    }
  }
  await alterShareGroupOffsets(client, groupId, plan);
  return plan;
}

/** Forgets the group's state for these topics (the group must have no members). */
export async function deleteShareGroupOffsets(client: KafkaClient, groupId: string, topics: readonly string[]): Promise<void> {
  await onCoordinator(client, groupId, async (conn) => {
    const res = await conn.request(ApiKey.DeleteShareGroupOffsets, need(conn, ApiKey.DeleteShareGroupOffsets, 'DeleteShareGroupOffsets'), {
      groupId, topics: topics.map((topicName) => ({ topicName })),
    });
    check(`DeleteShareGroupOffsets ${groupId}`, res.errorCode, res.errorMessage);
    for (const t of res.responses) check(`DeleteShareGroupOffsets ${groupId} ${t.topicName}`, t.errorCode, t.errorMessage);
  });
}

/** Deletes a share group (it must have no members). */
export async function deleteShareGroup(client: KafkaClient, groupId: string): Promise<void> {
  await onCoordinator(client, groupId, async (conn) => {
    const res = await conn.request(ApiKey.DeleteGroups, need(conn, ApiKey.DeleteGroups, 'DeleteGroups'), { groupsNames: [groupId] });
    const r = res.results.find((x) => x.groupId === groupId);
    if (!r) throw new ConsumerError('GROUP', `DeleteGroups: ${groupId} not in the answer`);
    check(`DeleteGroups ${groupId}`, r.errorCode, r.errorMessage);
  });
}

/**
 * Sets (string) or removes (null) a group's configs by IncrementalAlterConfigs, e.g.
 * { 'share.auto.offset.reset': 'earliest', 'share.record.lock.duration.ms': '15000' }.
 */
export async function alterShareGroupConfig(client: KafkaClient, groupId: string, configs: Record<string, string | null>): Promise<void> {
  const conn = await client.anyConnection();
  const res = await conn.request(ApiKey.IncrementalAlterConfigs, need(conn, ApiKey.IncrementalAlterConfigs, 'IncrementalAlterConfigs'), {
    resources: [{
      resourceType: GROUP_RESOURCE, resourceName: groupId,
      configs: Object.entries(configs).map(([name, value]) => ({ name, configOperation: value === null ? CONFIG_DELETE : CONFIG_SET, value })),
    }],
    validateOnly: false,
  });
  for (const r of res.responses) check(`IncrementalAlterConfigs group ${groupId}`, r.errorCode, r.errorMessage);
}
