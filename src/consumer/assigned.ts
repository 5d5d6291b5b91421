// The fetch loop for assigned partitions, once (it was the CLI's): every partition read from its
// leader, one Fetch kept in flight per leader while the previous answer is handed on record by
// record (so the broker and the network work while the caller formats), until a limit, the end
// of every partition, a stop timestamp or a signal. And the one Fetch request with its answer,
// which the group consumer's fetcher sends too.

import type { KafkaClient, TopicInfo } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { decodeRecordBatches, type RecordBatch } from '../records/index.js';
import { IsolationLevel, readCommitted, type AbortedTransaction } from '../wire/isolation.js';
import { FETCH_MAX_BYTES, FETCH_PARTITION_MAX_BYTES } from '../limits.js';
import { ConsumerError } from './errors.js';
import type { PartitionStart } from './offsets.js';

export interface ReadAssignedOptions {
  /** Partition → first offset to hand on and its end known at the start (startOffsets gives both). */
  start: ReadonlyMap<number, PartitionStart>;
  /** Stop each partition once it reached its end (the high watermark; under read_committed the last stable offset). */
  exitAtEnd: boolean;
  /** Records to hand on at most (default: no limit). */
  limit?: number;
  /** Stop each partition at its first record with a timestamp at or after this (ms), not handing it on. */
  stopAtTimestamp?: bigint;
  /**
   * IsolationLevel.READ_COMMITTED: Fetch at read_committed (up to the last stable offset), drop
   * aborted transactions' batches, and end at the last stable offset. Default READ_UNCOMMITTED.
   * Control batches are never handed on either way.
   */
  isolationLevel?: number;
  signal?: AbortSignal;
  /**
   * Record `index` of `batch`, at `offset` of `partition` (a Number while offsets are safe
   * integers, as they are in practice; else a bigint). Records come in offset order per partition.
   */
  record(partition: number, batch: RecordBatch, index: number, offset: number | bigint): void;
  /** One answer's records of `partition` have all been handed on (a place to flush output). */
  answered?(partition: number): void;
}

interface PartitionState { next: bigint; end: bigint; done: boolean }

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** How long a Fetch waits at the broker for records: briefly when the end is the goal. */
const WAIT_AT_END_MS = 100;
const WAIT_FOR_MORE_MS = 500;

/** Reads `info`'s partitions from `options.start` on, handing each record to `options.record`; resolves with how many. */
export async function readAssigned(client: KafkaClient, info: TopicInfo, options: ReadAssignedOptions): Promise<number> {
  const { exitAtEnd, signal, stopAtTimestamp, record, answered } = options;
  const limit = options.limit ?? Infinity;
  const isolationLevel = options.isolationLevel ?? IsolationLevel.READ_UNCOMMITTED;
  const committedOnly = isolationLevel === IsolationLevel.READ_COMMITTED;
  const settings: FetchSettings = {
    maxWaitMs: exitAtEnd ? WAIT_AT_END_MS : WAIT_FOR_MORE_MS, maxBytes: FETCH_MAX_BYTES, partitionMaxBytes: FETCH_PARTITION_MAX_BYTES, isolationLevel,
  };
  const state = new Map<number, PartitionState>();
  for (const [p, s] of options.start) state.set(p, { next: s.offset, end: s.end, done: exitAtEnd && s.offset >= s.end });
  /** Partitions that reached the stop timestamp: nothing more of them is handed on. */
  const stoppedAt = new Set<number>();
  let handed = 0;
  const stopped = () => handed >= limit || signal?.aborted === true;

  const leaderLoop = async (partitions: number[]) => {
    const conn = await client.leader(info.name, partitions[0]!);
    const request = () => {
      const active = partitions.filter((p) => !state.get(p)!.done);
      if (active.length === 0 || stopped()) return null;
      return fetchOnce(client, conn, active.map((p) => [info.name, p, state.get(p)!.next] as const), settings);
    };
    let inflight = request();
    try {
      while (inflight !== null) {
        const answers = await inflight;
        // Decode and advance every partition past what this answer holds, ask for what follows, then hand on.
        const parts: { partition: number; from: bigint; batches: readonly RecordBatch[] }[] = [];
        for (const a of answers) {
          const s = state.get(a.partition)!;
          if (a.errorCode !== 0) {
            throw new ConsumerError('FETCH', `Fetch ${info.name}/${a.partition} at ${s.next}: ${kafkaErrorName(a.errorCode)}`, { errorCode: a.errorCode });
          }
          const decoded = a.records !== null && a.records.length > 0 ? decodeRecordBatches(a.records, { lazy: true }).batches : [];
          parts.push({ partition: a.partition, from: s.next, batches: committedOnly ? readCommitted(decoded, a.abortedTransactions) : decoded });
          // read_committed sees records up to the last stable offset only: that is its end.
          s.end = committedOnly && a.lastStableOffset >= 0n ? a.lastStableOffset : a.highWatermark;
          const last = decoded[decoded.length - 1];
          if (last !== undefined) {
            const after = last.baseOffset + BigInt(last.lastOffsetDelta) + 1n;
            if (after > s.next) s.next = after;
          }
          if (exitAtEnd && s.next >= s.end) s.done = true;
        }
        inflight = request();
        for (const { partition, from, batches } of parts) {
          if (stopped()) return;
          if (stoppedAt.has(partition)) continue;
          for (const batch of batches) {
            if (batch.isControl || stoppedAt.has(partition)) continue;
            const safe = batch.baseOffset + BigInt(batch.lastOffsetDelta) <= MAX_SAFE;
            const base = Number(batch.baseOffset);
            const skip = from - batch.baseOffset; // records before the fetch offset: skipped
            for (let i = 0; i < batch.recordCount && handed < limit; i++) {
              const delta = batch.offsetDeltaAt(i);
              if (delta < skip) continue;
              if (stopAtTimestamp !== undefined && batch.timestampAt(i) >= stopAtTimestamp) {
                stoppedAt.add(partition);
                state.get(partition)!.done = true;
                break;
              }
              record(partition, batch, i, safe ? base + delta : batch.offsetAt(i));
              handed++;
            }
          }
          answered?.(partition);
        }
      }
    } finally {
      // Stopped early (limit, signal, error): the request still in flight fails when the client closes.
      inflight?.catch(() => {});
    }
  };
  await Promise.all(byLeader(client, info.name, [...state.keys()]).map(leaderLoop));
  return handed;
}

/** The partitions grouped by their leader, one list per leader. */
export function byLeader(client: KafkaClient, topic: string, partitions: readonly number[]): number[][] {
  const groups = new Map<number, number[]>();
  for (const p of partitions) {
    const leader = client.leaderOf(topic, p);
    groups.set(leader, [...(groups.get(leader) ?? []), p]);
  }
  return [...groups.values()];
}

/** How a Fetch asks: how long the broker may wait, how many bytes in all and per partition, at which isolation level. */
export interface FetchSettings { maxWaitMs: number; maxBytes: number; partitionMaxBytes: number; isolationLevel: number }

/** One partition's part of a Fetch answer, records still as bytes. */
export interface FetchAnswer {
  topic: string;
  partition: number;
  errorCode: number;
  highWatermark: bigint;
  lastStableOffset: bigint;
  records: Uint8Array | null;
  abortedTransactions: AbortedTransaction[] | null;
}

/**
 * One Fetch to `conn` for `wanted` ([topic, partition, offset]), by topic id from v13 (the ids
 * from the client's metadata). A broker without Fetch v4 (record batches v2) is a ConsumerError;
 * an error for the whole request a plain Error (the caller may retry it).
 */
export async function fetchOnce(client: KafkaClient, conn: Connection, wanted: readonly (readonly [string, number, bigint])[], settings: FetchSettings): Promise<FetchAnswer[]> {
  const version = conn.versionFor(ApiKey.Fetch);
  if (version === undefined || version < 4) throw new ConsumerError('FETCH', `broker ${conn.host}:${conn.port} lacks Fetch v4+ (record batches v2)`);
  const byTopic = new Map<string, { partition: number; fetchOffset: bigint; partitionMaxBytes: number }[]>();
  for (const [topic, partition, fetchOffset] of wanted) {
    let list = byTopic.get(topic);
    if (list === undefined) byTopic.set(topic, list = []);
    list.push({ partition, fetchOffset, partitionMaxBytes: settings.partitionMaxBytes });
  }
  const byId = new Map<string, string>();
  const topics = [...byTopic].map(([name, partitions]) => {
    if (version < 13) return { topic: name, partitions };
    const topicId = client.topics.get(name)?.topicId;
    if (!topicId) throw new Error(`no topic id known for ${name}`);
    byId.set(topicId, name);
    return { topicId, partitions };
  });
  const { maxWaitMs } = settings;
  const res = await conn.request(ApiKey.Fetch, version, {
    replicaId: -1, maxWaitMs, minBytes: 1, maxBytes: settings.maxBytes, isolationLevel: settings.isolationLevel, topics,
  }, { timeoutMs: Math.max(conn.requestTimeoutMs, maxWaitMs + 10_000) });
  if (res.errorCode) throw new Error(`Fetch: ${kafkaErrorName(res.errorCode)}`);
  const out: FetchAnswer[] = [];
  for (const t of res.responses) {
    const topic = version >= 13 ? byId.get(t.topicId) : t.topic;
    if (topic === undefined) continue;
    for (const p of t.partitions) {
      out.push({
        topic, partition: p.partitionIndex, errorCode: p.errorCode, highWatermark: p.highWatermark, lastStableOffset: p.lastStableOffset,
        records: p.records, abortedTransactions: p.abortedTransactions,
      });
    }
  }
  return out;
}
