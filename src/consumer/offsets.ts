// Offsets: what a group has committed (OffsetFetch), committing (OffsetCommit), and where a
// partition with no committed offset starts (ListOffsets under the reset policy).

import type { Connection } from '../wire/connection.js';
import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { KAFKA_ERROR_NAMES } from '../wire/error-names.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, RETRIABLE_PARTITION_ERRORS } from './errors.js';
import type { TopicPartitions } from './protocol.js';

/** Where to start without a committed offset: the log's start or end, a time (ms), or nowhere ('none' fails). */
export type ResetPolicy = 'earliest' | 'latest' | 'none' | { timestamp: number | bigint };

/** The highest OffsetCommit / OffsetFetch versions that still name topics (v10 switches to topic ids). */
const OFFSET_COMMIT_BY_NAME = 9;
const OFFSET_FETCH_BY_NAME = 7;

/** topic -> partition -> value. */
export type OffsetMap = Map<string, Map<number, bigint>>;

export function setOffset(map: OffsetMap, topic: string, partition: number, offset: bigint): void {
  let byPartition = map.get(topic);
  if (!byPartition) map.set(topic, byPartition = new Map());
  byPartition.set(partition, offset);
}

function capped(conn: Connection, apiKey: number, cap: number, what: string): number {
  const v = conn.versionFor(apiKey);
  if (v === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks ${what}`);
  return Math.min(v, cap);
}

/** A partition-level failure of a request that as a whole was answered. */
export class PartitionErrors extends Error {
  constructor(readonly what: string, readonly errors: { topic: string; partition: number; errorCode: number }[]) {
    super(`${what}: ${errors.slice(0, 4).map((e) => `${e.topic}/${e.partition} ${kafkaErrorName(e.errorCode)}`).join(', ')}${errors.length > 4 ? ', ...' : ''}`);
  }
}

/**
 * The group's committed offsets for `partitions`; a partition without one is absent. Throws
 * PartitionErrors (with the codes) when the coordinator refuses.
 */
export async function fetchCommitted(conn: Connection, groupId: string, partitions: readonly TopicPartitions[], requireStable = true): Promise<OffsetMap> {
  const version = capped(conn, ApiKey.OffsetFetch, OFFSET_FETCH_BY_NAME, 'OffsetFetch');
  const res = await conn.request(ApiKey.OffsetFetch, version, {
    groupId,
    topics: partitions.map((tp) => ({ name: tp.topic, partitionIndexes: tp.partitions })),
    ...(version >= 7 ? { requireStable } : {}),
  });
  if (res.errorCode) throw new PartitionErrors('OffsetFetch', [{ topic: '*', partition: -1, errorCode: res.errorCode }]);
  const out: OffsetMap = new Map();
  const errors: { topic: string; partition: number; errorCode: number }[] = [];
  for (const t of res.topics) {
    for (const p of t.partitions) {
      if (p.errorCode) errors.push({ topic: t.name, partition: p.partitionIndex, errorCode: p.errorCode });
      else if (p.committedOffset >= 0n) setOffset(out, t.name, p.partitionIndex, p.committedOffset);
    }
  }
  if (errors.length > 0) throw new PartitionErrors('OffsetFetch', errors);
  return out;
}

export interface CommitIdentity {
  groupId: string;
  /** The classic generation, or the KIP-848 member epoch; -1 for a commit from outside the group. */
  generationIdOrMemberEpoch: number;
  memberId: string;
  groupInstanceId: string | null;
}

/** Commits `offsets` (the next offset to read, per partition). Throws PartitionErrors naming each refusal. */
export async function commitOffsets(conn: Connection, who: CommitIdentity, offsets: OffsetMap): Promise<void> {
  if (offsets.size === 0) return;
  const version = capped(conn, ApiKey.OffsetCommit, OFFSET_COMMIT_BY_NAME, 'OffsetCommit');
  const res = await conn.request(ApiKey.OffsetCommit, version, {
    groupId: who.groupId,
    generationIdOrMemberEpoch: who.generationIdOrMemberEpoch,
    memberId: who.memberId,
    ...(version >= 7 ? { groupInstanceId: who.groupInstanceId } : {}),
    topics: [...offsets].map(([name, byPartition]) => ({
      name,
      partitions: [...byPartition].map(([partitionIndex, committedOffset]) => ({ partitionIndex, committedOffset, committedMetadata: '' })),
    })),
  });
  const errors: { topic: string; partition: number; errorCode: number }[] = [];
  for (const t of res.topics) for (const p of t.partitions) if (p.errorCode) errors.push({ topic: t.name, partition: p.partitionIndex, errorCode: p.errorCode });
  if (errors.length > 0) throw new PartitionErrors('OffsetCommit', errors);
}

/** The ListOffsets timestamp for a policy: -2 earliest, -1 latest, else the time. */
export function policyTimestamp(policy: ResetPolicy): bigint {
  if (policy === 'earliest') return -2n;
  if (policy === 'latest') return -1n;
  if (policy === 'none') throw new ConsumerError('FETCH', 'no committed offset and the reset policy is none');
  return BigInt(policy.timestamp);
}

/**
 * Offsets for `timestamp` (-2 earliest, -1 latest, else the first offset at or after that time;
 * a time after the last record gives the end) per partition, asking each partition's leader.
 * Leadership errors refresh metadata and retry a few times.
 */
export async function listOffsets(client: KafkaClient, partitions: readonly TopicPartitions[], timestamp: bigint, isolationLevel = 0): Promise<OffsetMap> {
  const out: OffsetMap = new Map();
  let todo = partitions.flatMap((tp) => tp.partitions.map((p) => [tp.topic, p] as [string, number]));
  for (let attempt = 0; todo.length > 0; attempt++) {
    const byLeader = new Map<number, [string, number][]>();
    for (const [topic, p] of todo) {
      if (client.leaderOf(topic, p) < 0) await client.topic(topic);
      const leader = client.leaderOf(topic, p);
      if (leader < 0) throw new ConsumerError('FETCH', `ListOffsets ${topic}/${p}: no such partition`);
      byLeader.set(leader, [...(byLeader.get(leader) ?? []), [topic, p]]);
    }
    const retry: [string, number][] = [];
    await Promise.all([...byLeader].map(async ([leader, list]) => {
      let res;
      try {
        const conn = await client.broker(leader);
        const version = conn.versionFor(ApiKey.ListOffsets);
        if (version === undefined) throw new ConsumerError('FETCH', `broker ${conn.host}:${conn.port} lacks ListOffsets`);
        if (isolationLevel !== 0 && version < 2) throw new ConsumerError('FETCH', `broker ${conn.host}:${conn.port} lacks ListOffsets v2+ (isolation levels)`);
        const topics = new Map<string, number[]>();
        for (const [t, p] of list) topics.set(t, [...(topics.get(t) ?? []), p]);
        res = await conn.request(ApiKey.ListOffsets, version, {
          replicaId: -1,
          isolationLevel,
          topics: [...topics].map(([name, ps]) => ({ name, partitions: ps.map((partitionIndex) => ({ partitionIndex, timestamp, maxNumOffsets: 1 })) })),
        });
        // An answer can be confused (a corrupted frame decodes too: ListOffsets carries no
        // checksum): a partition not asked for, one answered twice or not at all, an error code
        // Kafka does not have, a negative offset where a log position is due. Those partitions are
        // asked again (issue 37: start-up requests are retried), not taken, nor failed at once.
        const asked = new Set(list.map(([t, p]) => `${t}\0${p}`));
        const answered = new Set<string>();
        for (const t of res.topics) {
          for (const p of t.partitions) {
            const key = `${t.name}\0${p.partitionIndex}`;
            if (!asked.has(key) || answered.has(key)) continue;
            answered.add(key);
            const offset = version === 0 ? (p.oldStyleOffsets[0] ?? 0n) : p.offset;
            if (RETRIABLE_PARTITION_ERRORS.has(p.errorCode) || !KAFKA_ERROR_NAMES.has(p.errorCode)) retry.push([t.name, p.partitionIndex]);
            else if (p.errorCode) throw new ConsumerError('FETCH', `ListOffsets ${t.name}/${p.partitionIndex}: ${kafkaErrorName(p.errorCode)}`, { errorCode: p.errorCode });
            else if (offset < -1n || (offset === -1n && timestamp < 0n)) retry.push([t.name, p.partitionIndex]);
            else setOffset(out, t.name, p.partitionIndex, offset);
          }
        }
        for (const [t, p] of list) if (!answered.has(`${t}\0${p}`)) retry.push([t, p]);
      } catch (err) {
        if (err instanceof ConsumerError) throw err;
        retry.push(...list); // the broker went away: refresh and ask again
      }
    }));
    // A time after the last record has no offset (-1): start at the end.
    const missing = timestamp >= 0n ? [...out].flatMap(([t, m]) => [...m].filter(([, o]) => o < 0n).map(([p]) => [t, p] as [string, number])) : [];
    if (missing.length > 0) {
      const ends = await listOffsets(client, missing.map(([t, p]) => ({ topic: t, partitions: [p] })), -1n, isolationLevel);
      for (const [t, m] of ends) for (const [p, o] of m) setOffset(out, t, p, o);
    }
    if (retry.length > 0 && attempt >= 10) throw new ConsumerError('FETCH', `ListOffsets: ${retry.length} partitions still without a leader or a plausible answer`);
    if (retry.length > 0) {
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 1000)));
      await client.metadata([...new Set(retry.map(([t]) => t))]).catch(() => {});
    }
    todo = retry;
  }
  return out;
}

/** Where a read of assigned partitions starts: the log's start or end, an offset, N records before the end, or the first record at or after a time (ms). */
export type StartAt = 'earliest' | 'latest' | { offset: bigint } | { beforeEnd: bigint } | { timestamp: bigint };

/** A partition's first offset to read and its end when asked (the last stable offset under read_committed). */
export interface PartitionStart { offset: bigint; end: bigint }

/**
 * Where each of `partitions` of `topic` starts under `at`, and where its end is now. An answer
 * that cannot be true (a negative offset, the log's start past its end: a corrupted or confused
 * ListOffsets) is a ConsumerError, not a start that quietly reads nothing.
 */
export async function startOffsets(client: KafkaClient, topic: string, partitions: readonly number[], at: StartAt, isolationLevel = 0): Promise<Map<number, PartitionStart>> {
  const tps = [{ topic, partitions: [...partitions] }];
  const ask = () => Promise.all([
    listOffsets(client, tps, -2n, isolationLevel), listOffsets(client, tps, -1n, isolationLevel),
    typeof at === 'object' && 'timestamp' in at ? listOffsets(client, tps, at.timestamp, isolationLevel) : null,
  ]);
  const implausible = (lo: bigint | undefined, hi: bigint | undefined) => lo === undefined || hi === undefined || lo < 0n || hi < 0n || lo > hi;
  let [earliest, latest, byTime] = await ask();
  // A start past the end cannot be true: a corrupted or confused answer; asked again (twice)
  // before it is an error (issue 37: start-up requests are retried).
  for (let again = 0; again < 2 && partitions.some((p) => implausible(earliest.get(topic)?.get(p), latest.get(topic)?.get(p))); again++) {
    await new Promise((r) => setTimeout(r, 100 * (again + 1)));
    [earliest, latest, byTime] = await ask();
  }
  const out = new Map<number, PartitionStart>();
  for (const p of partitions) {
    const lo = earliest.get(topic)?.get(p);
    const hi = latest.get(topic)?.get(p);
    if (lo === undefined || hi === undefined) throw new ConsumerError('FETCH', `ListOffsets ${topic}/${p}: no answer`);
    if (implausible(lo, hi)) {
      throw new ConsumerError('FETCH', `ListOffsets ${topic}/${p}: the log starts at ${lo} and ends at ${hi}, which cannot be (a corrupted or confused answer)`);
    }
    let offset: bigint;
    if (at === 'earliest') offset = lo;
    else if (at === 'latest') offset = hi;
    else if ('timestamp' in at) offset = byTime!.get(topic)?.get(p) ?? hi;
    else if ('beforeEnd' in at) offset = hi - at.beforeEnd < lo ? lo : hi - at.beforeEnd;
    else offset = at.offset;
    out.set(p, { offset, end: hi });
  }
  return out;
}
