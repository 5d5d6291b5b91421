// Looking at and changing groups from outside them, as Kafka's kafka-consumer-groups.sh does:
// list the groups, describe one (members, what each is assigned, committed offsets and lag per
// partition), and reset a group's committed offsets (only while it has no members).

import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, GroupErrorCode } from './errors.js';
import { findCoordinator } from './classic.js';
import { commitOffsets, listOffsets, setOffset, type OffsetMap } from './offsets.js';
import { CONSUMER_PROTOCOL_TYPE, decodeAssignment, type TopicPartitions } from './protocol.js';

export interface GroupListing { groupId: string; protocolType: string; state: string | null; type: string | null }

/** Every group every broker coordinates (ListGroups asks each broker for its own). */
export async function listGroups(client: KafkaClient): Promise<GroupListing[]> {
  await client.metadata([]);
  const out = new Map<string, GroupListing>();
  await Promise.all([...client.brokers.keys()].map(async (nodeId) => {
    const conn = await client.broker(nodeId);
    const version = conn.versionFor(ApiKey.ListGroups);
    if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks ListGroups`);
    const res = await conn.request(ApiKey.ListGroups, version, {});
    if (res.errorCode) throw new ConsumerError('GROUP', `ListGroups from broker ${nodeId}: ${kafkaErrorName(res.errorCode)}`, { errorCode: res.errorCode });
    for (const g of res.groups) {
      out.set(g.groupId, { groupId: g.groupId, protocolType: g.protocolType, state: version >= 4 ? g.groupState : null, type: version >= 5 ? g.groupType : null });
    }
  }));
  return [...out.values()].sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
}

export interface GroupMemberDescription {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  host: string;
  assignment: TopicPartitions[];
}

export interface PartitionOffsets {
  topic: string;
  partition: number;
  /** The group's committed offset (null: none). */
  committed: bigint | null;
  /** The partition's end (high watermark). */
  logEnd: bigint;
  /** logEnd - committed (null without a committed offset). */
  lag: bigint | null;
  /** The member assigned this partition now, if any. */
  memberId: string | null;
}

export interface GroupDescription {
  groupId: string;
  /** Empty, Stable, PreparingRebalance, ... (classic) or Empty, Assigning, Reconciling, Stable (consumer). */
  state: string;
  /** classic (JoinGroup/SyncGroup) or consumer (KIP-848). */
  protocol: 'classic' | 'consumer';
  /** The assignor in use. */
  assignor: string;
  members: GroupMemberDescription[];
  offsets: PartitionOffsets[];
}

export async function describeGroup(client: KafkaClient, groupId: string): Promise<GroupDescription> {
  const conn = await findCoordinator(client, groupId);
  try {
    let described: Omit<GroupDescription, 'offsets'> | null = null;
    if (conn.versionFor(ApiKey.ConsumerGroupDescribe) !== undefined) {
      const res = await conn.request(ApiKey.ConsumerGroupDescribe, undefined, { groupIds: [groupId] });
      const g = res.groups[0]!;
      if (g.errorCode === 0) {
        described = {
          groupId, state: g.groupState, protocol: 'consumer', assignor: g.assignorName,
          members: g.members.map((m) => ({
            memberId: m.memberId, groupInstanceId: m.instanceId, clientId: m.clientId, host: m.clientHost,
            assignment: m.assignment.topicPartitions.map((tp) => ({ topic: tp.topicName, partitions: [...tp.partitions].sort((a, b) => a - b) })),
          })),
        };
      } else if (g.errorCode !== GroupErrorCode.GROUP_ID_NOT_FOUND) {
        throw new ConsumerError('GROUP', `ConsumerGroupDescribe ${groupId}: ${kafkaErrorName(g.errorCode)}${g.errorMessage ? `: ${g.errorMessage}` : ''}`, { errorCode: g.errorCode });
      }
    }
    if (described === null) {
      const version = conn.versionFor(ApiKey.DescribeGroups);
      if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks DescribeGroups`);
      const res = await conn.request(ApiKey.DescribeGroups, version, { groups: [groupId] });
      const g = res.groups[0]!;
      if (g.errorCode !== 0 && g.errorCode !== GroupErrorCode.GROUP_ID_NOT_FOUND) {
        throw new ConsumerError('GROUP', `DescribeGroups ${groupId}: ${kafkaErrorName(g.errorCode)}`, { errorCode: g.errorCode });
      }
      described = {
        groupId, state: g.errorCode === 0 ? g.groupState : 'Dead', protocol: 'classic', assignor: g.protocolData,
        members: g.members.map((m) => ({
          memberId: m.memberId, groupInstanceId: m.groupInstanceId, clientId: m.clientId, host: m.clientHost,
          // Assignments are the consumer protocol's bytes only for consumer groups.
          assignment: g.protocolType === CONSUMER_PROTOCOL_TYPE && m.memberAssignment.length > 0 ? decodeAssignment(m.memberAssignment).assignedPartitions : [],
        })),
      };
    }
    const committed = await allCommitted(conn, groupId);
    const owner = new Map<string, string>();
    for (const m of described.members) for (const tp of m.assignment) for (const p of tp.partitions) owner.set(`${tp.topic}\u0000${p}`, m.memberId);
    // Every partition that is committed or assigned.
    const partitions: OffsetMap = new Map();
    for (const [t, ps] of committed) for (const [p, o] of ps) setOffset(partitions, t, p, o);
    for (const m of described.members) for (const tp of m.assignment) for (const p of tp.partitions) if (!partitions.get(tp.topic)?.has(p)) setOffset(partitions, tp.topic, p, -1n);
    const list = [...partitions].map(([topic, ps]) => ({ topic, partitions: [...ps.keys()].sort((a, b) => a - b) }));
    const ends = list.length > 0 ? await listOffsets(client, list, -1n) : new Map();
    const offsets: PartitionOffsets[] = [];
    for (const tp of list.sort((a, b) => (a.topic < b.topic ? -1 : 1))) {
      for (const p of tp.partitions) {
        const c = committed.get(tp.topic)?.get(p) ?? null;
        const logEnd = ends.get(tp.topic)?.get(p) ?? -1n;
        offsets.push({ topic: tp.topic, partition: p, committed: c, logEnd, lag: c === null ? null : logEnd - c, memberId: owner.get(`${tp.topic}\u0000${p}`) ?? null });
      }
    }
    return { ...described, offsets };
  } finally {
    await conn.close();
  }
}

/** Every committed offset of the group (OffsetFetch for all topics). */
async function allCommitted(conn: Awaited<ReturnType<typeof findCoordinator>>, groupId: string): Promise<OffsetMap> {
  const version = Math.min(conn.versionFor(ApiKey.OffsetFetch) ?? -1, 7);
  if (version < 2) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks OffsetFetch v2+ (all topics)`);
  const res = await conn.request(ApiKey.OffsetFetch, version, { groupId, topics: null });
  if (res.errorCode) throw new ConsumerError('GROUP', `OffsetFetch ${groupId}: ${kafkaErrorName(res.errorCode)}`, { errorCode: res.errorCode });
  const out: OffsetMap = new Map();
  for (const t of res.topics) for (const p of t.partitions) if (p.errorCode === 0 && p.committedOffset >= 0n) setOffset(out, t.name, p.partitionIndex, p.committedOffset);
  return out;
}

/** Where a reset goes: a log position, an offset, or the first offset at or after a time (ms). */
export type ResetTarget = 'earliest' | 'latest' | { offset: bigint } | { timestamp: bigint };

export interface ResetPlanRow { topic: string; partition: number; from: bigint | null; to: bigint }

/**
 * Computes (and with `execute`, commits) new offsets for the group: every partition of `topics`,
 * or, without topics, every partition the group has committed. An offset is clamped to the log
 * (as kafka-consumer-groups.sh does). Refuses while the group has members.
 */
export async function resetOffsets(client: KafkaClient, groupId: string, target: ResetTarget, options: { topics?: string[]; execute?: boolean } = {}): Promise<ResetPlanRow[]> {
  const described = await describeGroup(client, groupId);
  if (described.members.length > 0) {
    throw new ConsumerError('GROUP', `group ${groupId} has ${described.members.length} active member(s) (state ${described.state}); stop them before resetting its offsets`);
  }
  let partitions: TopicPartitions[];
  if (options.topics && options.topics.length > 0) {
    partitions = [];
    for (const t of options.topics) partitions.push({ topic: t, partitions: (await client.topic(t)).partitions.map((p) => p.partition) });
  } else {
    const byTopic = new Map<string, number[]>();
    for (const o of described.offsets) byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), o.partition]);
    partitions = [...byTopic].map(([topic, ps]) => ({ topic, partitions: ps }));
  }
  if (partitions.length === 0) return [];
  const [earliest, latest] = await Promise.all([listOffsets(client, partitions, -2n), listOffsets(client, partitions, -1n)]);
  const atTime = typeof target === 'object' && 'timestamp' in target ? await listOffsets(client, partitions, target.timestamp) : null;
  const rows: ResetPlanRow[] = [];
  const commit: OffsetMap = new Map();
  for (const tp of partitions) {
    for (const p of tp.partitions) {
      const lo = earliest.get(tp.topic)!.get(p)!;
      const hi = latest.get(tp.topic)!.get(p)!;
      let to = target === 'earliest' ? lo : target === 'latest' ? hi : 'offset' in target ? target.offset : atTime!.get(tp.topic)!.get(p)!;
      if (to < lo) to = lo;
      if (to > hi) to = hi;
      const from = described.offsets.find((o) => o.topic === tp.topic && o.partition === p)?.committed ?? null;
      rows.push({ topic: tp.topic, partition: p, from, to });
      setOffset(commit, tp.topic, p, to);
    }
  }
  if (options.execute) {
    const conn = await findCoordinator(client, groupId);
    try {
      await commitOffsets(conn, { groupId, generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null }, commit);
    } finally {
      await conn.close();
    }
  }
  return rows;
}
