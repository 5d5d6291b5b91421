// The read of given partitions from a start to their end, or on until a limit, a stop timestamp or
// a signal (what `kafka-wire consume` runs without -G): on the library's one fetch loop
// (./fetcher.ts, the Consumer's too), every record handed on at once as the answer that holds it
// comes in, while the next Fetch of that leader is already under way.

import type { KafkaClient, TopicInfo } from '../wire/client.js';
import type { RecordBatch } from '../records/index.js';
import { IsolationLevel } from '../wire/isolation.js';
import { FETCH_MAX_BYTES, FETCH_PARTITION_MAX_BYTES } from '../limits.js';
import { Fetcher, type PartitionBatch } from './fetcher.js';
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
  /**
   * When given, records `from` to `to` (exclusive) of `batch` at once instead of one `record`
   * call each, for every batch whose offsets are safe integers (offset = baseOffsetNumber +
   * offsetDeltaAt(i)) when no stopAtTimestamp is set: what a writer doing a batch in one call
   * takes. Records are handed on in the same order either way.
   */
  records?(partition: number, batch: RecordBatch, from: number, to: number): void;
  /** One answer's records of `partition` have all been handed on (a place to flush output). */
  answered?(partition: number): void;
  /**
   * `record` and `records` keep nothing of the batches they are handed (no views of their data,
   * keys or values) once `answered` returns: each partition's batch is then released
   * (PartitionBatch.release()), and its memory, with the client's FramePool its answer's frame
   * too, read into again (kafka-wire consume). Default false.
   */
  releaseBatches?: boolean;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The first record of `b` whose offset delta is at least `skip`, when every record after it has
 * one too (as in any batch a broker writes); else -1, and the records go one by one (each tested).
 */
function firstAtOrAfter(b: RecordBatch, skip: number): number {
  let from = 0;
  while (from < b.recordCount && b.offsetDeltaAt(from) < skip) from++;
  for (let i = from + 1; i < b.recordCount; i++) if (b.offsetDeltaAt(i) < skip) return -1;
  return from;
}
/** How long a Fetch waits at the broker for records: briefly when the end is the goal. */
const WAIT_AT_END_MS = 100;
const WAIT_FOR_MORE_MS = 500;

/**
 * Reads `info`'s partitions from `options.start` on, handing each record to `options.record`;
 * resolves with how many. Errors are not retried (a partition's error, a moved leader, a lost
 * connection reject it): what it reads is the log as the start found it.
 */
export function readAssigned(client: KafkaClient, info: TopicInfo, options: ReadAssignedOptions): Promise<number> {
  const { exitAtEnd, signal, stopAtTimestamp, record, records, answered, releaseBatches } = options;
  const limit = options.limit ?? Infinity;
  const topic = info.name;
  let handed = 0;
  if (handed >= limit || signal?.aborted) return Promise.resolve(0);
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      // Stopped early (limit, signal, error): a Fetch still in flight ends on its own, its answer dropped.
      fetcher.stop();
      signal?.removeEventListener('abort', aborted);
      if (error) reject(error); else resolve(handed);
    };
    const aborted = () => settle();
    const fetcher: Fetcher = new Fetcher(client, {
      isolationLevel: options.isolationLevel === IsolationLevel.READ_COMMITTED ? 1 : 0,
      lazy: true,
      maxWaitMs: exitAtEnd ? WAIT_AT_END_MS : WAIT_FOR_MORE_MS,
      maxBytes: FETCH_MAX_BYTES,
      partitionMaxBytes: FETCH_PARTITION_MAX_BYTES,
      maxBufferedBytes: Infinity, // each answer is handed on and released before the loop goes on
      onFetchError: 'fail',
      exitAtEnd,
      deliver: (batch) => {
        fetcher.release(batch.byteLength);
        try {
          handOn(batch);
        } finally {
          if (releaseBatches) batch.release();
        }
      },
      failed: (error) => settle(error),
      ended: () => settle(),
    });
    /** One partition's batch, its records handed on from the fetch offset to the limit. */
    const handOn = (batch: PartitionBatch<unknown, unknown>): void => {
      if (settled) return;
      const { partition, firstOffset } = batch;
      for (const b of batch.batches) {
        const safe = b.baseOffset + BigInt(b.lastOffsetDelta) <= MAX_SAFE;
        const base = Number(b.baseOffset);
        const skip = firstOffset - b.baseOffset; // records before the fetch offset: skipped
        if (records !== undefined && safe && stopAtTimestamp === undefined && b.baseOffset >= -MAX_SAFE) {
          const from = skip <= 0n ? 0 : firstAtOrAfter(b, Number(skip));
          if (from >= 0) {
            const to = Math.min(b.recordCount, from + (limit - handed));
            if (to > from) records(partition, b, from, to);
            handed += Math.max(0, to - from);
            continue;
          }
        }
        for (let i = 0; i < b.recordCount && handed < limit; i++) {
          const delta = b.offsetDeltaAt(i);
          if (delta < skip) continue;
          if (stopAtTimestamp !== undefined && b.timestampAt(i) >= stopAtTimestamp) {
            fetcher.remove(topic, partition); // nothing more of it is handed on
            answered?.(partition);
            return;
          }
          record(partition, b, i, safe ? base + delta : b.offsetAt(i));
          handed++;
        }
      }
      answered?.(partition);
      if (handed >= limit) settle();
    };
    signal?.addEventListener('abort', aborted, { once: true });
    for (const [p, s] of options.start) fetcher.add(topic, p, s.offset, s.end);
  });
}
