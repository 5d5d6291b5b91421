// Where a record goes: the Java client's choice (murmur2 of the key for keyed records; for null
// keys one "sticky" partition per topic until a batch's worth of bytes went there, then another,
// so batches fill up), or the caller's function.
import { partitionForKey } from '../wire/partitioner.js';

/** The caller's partitioner: the partition for a record of `topic` (keys as bytes; null key possible). */
export type Partitioner = (topic: string, key: Uint8Array | null, partitionCount: number) => number;

/** Sticky partitions for null keys, per topic. */
export class StickyPartitions {
  readonly #byTopic = new Map<string, { partition: number; bytes: number }>();
  readonly #switchAfterBytes: number;

  constructor(switchAfterBytes: number) {
    this.#switchAfterBytes = switchAfterBytes;
  }

  /** The partition for a null-keyed record of `bytes` bytes. */
  next(topic: string, partitionCount: number, bytes: number): number {
    let s = this.#byTopic.get(topic);
    if (s === undefined || s.partition >= partitionCount) {
      s = { partition: Math.floor(Math.random() * partitionCount), bytes: 0 };
      this.#byTopic.set(topic, s);
    } else if (s.bytes >= this.#switchAfterBytes && partitionCount > 1) {
      // Another partition than the last, at random (KIP-794 weighs by queue size; uniform is enough here).
      s.partition = (s.partition + 1 + Math.floor(Math.random() * (partitionCount - 1))) % partitionCount;
      s.bytes = 0;
    }
    s.bytes += bytes;
    return s.partition;
  }
}

export { murmur2, partitionForKey } from '../wire/partitioner.js';

/** The default choice for a record with a key: murmur2 as the Java client. */
export function keyedPartition(key: Uint8Array, partitionCount: number): number {
  return partitionForKey(key, partitionCount);
}
