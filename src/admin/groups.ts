// Consumer groups seen from outside, as Kafka's kafka-consumer-groups.sh shows them: a group's
// members with their assignments and, per partition, the committed offset, the log end and the
// lag; and a reset of its committed offsets (a plan, committed only with `execute`, refused while
// the group has members). These take a KafkaClient (they were kafka-wire/consumer's admin
// functions, which still re-exports them) and run on the Admin's calls.
import type { KafkaClient } from '../wire/client.js';
import type { TopicPartitions } from '../consumer/protocol.js';
import { Admin, type GroupListing } from './admin.js';
import { AdminError } from './errors.js';

export type { GroupListing };

/** Every group every broker coordinates. */
export function listGroups(client: KafkaClient): Promise<GroupListing[]> {
  return new Admin(client).listGroups();
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
  /** Empty, Stable, PreparingRebalance, ... (classic) or Empty, Assigning, Reconciling, Stable (consumer); Dead: no such group. */
  state: string;
  /** classic (JoinGroup/SyncGroup) or consumer (KIP-848). */
  protocol: 'classic' | 'consumer';
  /** The assignor in use. */
  assignor: string;
  members: GroupMemberDescription[];
  offsets: PartitionOffsets[];
}

/** The only failure of a one-resource call, as itself. */
function single(error: unknown): unknown {
  return error instanceof AdminError && error.code === 'RESOURCES' && error.failures.length === 1 ? error.failures[0] : error;
}

/** A group's members, assignments, committed offsets, log ends and lag. A group that does not exist is Dead. */
export async function describeGroup(client: KafkaClient, groupId: string): Promise<GroupDescription> {
  const admin = new Admin(client);
  let described: Omit<GroupDescription, 'offsets'>;
  try {
    const [d] = await admin.describeGroups([groupId]);
    described = {
      groupId, state: d!.state, protocol: d!.type, assignor: d!.assignor,
      members: d!.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, clientId: m.clientId, host: m.host, assignment: m.assignment })),
    };
  } catch (error) {
    const e = single(error);
    if (!(e instanceof AdminError) || e.errorCode !== 69) throw e; // GROUP_ID_NOT_FOUND
    described = { groupId, state: 'Dead', protocol: 'classic', assignor: '', members: [] };
  }
  const committed = await admin.fetchOffsets(groupId).catch((error: unknown) => { throw single(error); });
  const owner = new Map<string, string>();
  const key = (t: string, p: number) => `${t}\u0000${p}`;
  for (const m of described.members) for (const tp of m.assignment) for (const p of tp.partitions) owner.set(key(tp.topic, p), m.memberId);
  // Every partition that is committed or assigned.
  const partitions = new Map<string, { topic: string; partition: number }>();
  for (const c of committed) partitions.set(key(c.topic, c.partition), c);
  for (const m of described.members) for (const tp of m.assignment) for (const p of tp.partitions) partitions.set(key(tp.topic, p), { topic: tp.topic, partition: p });
  const list = [...partitions.values()].sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  const ends = list.length > 0 ? await admin.listOffsets(list.map((p) => ({ ...p, spec: 'latest' as const }))) : [];
  const offsets = list.map((p, i) => {
    const c = committed.find((x) => x.topic === p.topic && x.partition === p.partition)?.offset ?? null;
    const logEnd = ends[i]!.offset;
    return { topic: p.topic, partition: p.partition, committed: c, logEnd, lag: c === null ? null : logEnd - c, memberId: owner.get(key(p.topic, p.partition)) ?? null };
  });
  return { ...described, offsets };
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
  const admin = new Admin(client);
  const described = await describeGroup(client, groupId);
  if (described.members.length > 0) {
    throw new AdminError('BROKER', `group ${groupId} has ${described.members.length} active member(s) (state ${described.state}); stop them before resetting its offsets`,
      { resource: `group ${groupId}`, errorCode: 68 }); // NON_EMPTY_GROUP
  }
  let partitions: { topic: string; partition: number }[];
  if (options.topics && options.topics.length > 0) {
    const topics = await admin.describeTopics(options.topics).catch((error: unknown) => { throw single(error); });
    partitions = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partition })));
  } else {
    partitions = described.offsets.map((o) => ({ topic: o.topic, partition: o.partition }));
  }
  if (partitions.length === 0) return [];
  const at = (spec: 'earliest' | 'latest' | { timestamp: bigint }) => admin.listOffsets(partitions.map((p) => ({ ...p, spec })));
  const [earliest, latest] = await Promise.all([at('earliest'), at('latest')]);
  const atTime = typeof target === 'object' && 'timestamp' in target ? await at({ timestamp: target.timestamp }) : null;
  const rows = partitions.map((p, i) => {
    const lo = earliest[i]!.offset;
    const hi = latest[i]!.offset;
    // A time after the last record has no offset (-1): the end.
    let to = target === 'earliest' ? lo : target === 'latest' ? hi : 'offset' in target ? target.offset : atTime![i]!.offset < 0n ? hi : atTime![i]!.offset;
    if (to < lo) to = lo;
    if (to > hi) to = hi;
    const from = described.offsets.find((o) => o.topic === p.topic && o.partition === p.partition)?.committed ?? null;
    return { topic: p.topic, partition: p.partition, from, to };
  });
  if (options.execute) await admin.alterOffsets(groupId, rows.map((r) => ({ topic: r.topic, partition: r.partition, offset: r.to })));
  return rows;
}
