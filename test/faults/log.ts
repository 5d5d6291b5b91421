// What a broker's log holds, for the fault tests' verdicts: every record of a topic with its
// partition and offset (a memory broker's log, or real Kafka's read back), and the checks on what
// a producer said it wrote.
import type { MemoryBroker } from '../../src/wire/memory-broker.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import type { RecordMetadata } from '../../src/producer/index.js';
import { KafkaClient } from '../../src/wire/client.js';
import { startOffsets } from '../../src/consumer/offsets.js';
import { readAssigned } from '../../src/consumer/assigned.js';

const text = new TextDecoder();

export interface StoredRecord { partition: number; offset: bigint; value: string }

/** Every record of `topic`, by partition, in offset order. */
export function storedRecords(broker: MemoryBroker, topic: string): StoredRecord[][] {
  const t = broker.topics.get(topic);
  if (t === undefined) return [];
  return t.partitions.map((log, partition) => {
    const out: StoredRecord[] = [];
    for (const sb of log.batches) {
      for (const batch of decodeRecordBatches(sb.bytes).batches) {
        for (const r of batch.records) out.push({ partition, offset: r.offset, value: r.value === null ? '' : text.decode(r.value) });
      }
    }
    return out;
  });
}

export interface AckVerdict {
  /** Acknowledged records missing from the log. */
  lost: number;
  /** Records in the log more than once. */
  duplicated: number;
  /** Pairs of acknowledged records of one partition whose log order is not their send order. */
  reordered: number;
  /** Acknowledged records found at another partition or offset than send() said. */
  misplaced: number;
}

/**
 * Judges acknowledged sends against the log (a memory broker's, or one read back from Kafka by
 * readStored). `acked[i]` is what send #i (value `values[i]`)
 * resolved with, or undefined when it did not resolve; values are unique.
 */
export function judgeAcks(log: MemoryBroker | StoredRecord[][], topic: string, values: readonly string[], acked: readonly (RecordMetadata | undefined)[]): AckVerdict {
  const where = new Map<string, StoredRecord[]>();
  for (const partition of Array.isArray(log) ? log : storedRecords(log, topic)) for (const r of partition) {
    const list = where.get(r.value);
    if (list === undefined) where.set(r.value, [r]); else list.push(r);
  }
  let lost = 0, duplicated = 0, reordered = 0, misplaced = 0;
  for (const list of where.values()) if (list.length > 1) duplicated += list.length - 1;
  const lastByPartition = new Map<number, bigint>();
  for (let i = 0; i < values.length; i++) {
    const meta = acked[i];
    if (meta === undefined) continue;
    const found = where.get(values[i]!);
    if (found === undefined) { lost++; continue; }
    const r = found[0]!;
    if (r.partition !== meta.partition || r.offset !== meta.offset) misplaced++;
    const last = lastByPartition.get(r.partition);
    if (last !== undefined && r.offset < last) reordered++;
    lastByPartition.set(r.partition, r.offset);
  }
  return { lost, duplicated, reordered, misplaced };
}

/** Every record of `topic` on a real broker, by partition, in offset order (read to the end, straight from the broker). */
export async function readStored(bootstrap: string, topic: string): Promise<StoredRecord[][]> {
  const client = new KafkaClient({ bootstrap });
  try {
    const info = await client.topic(topic);
    const partitions = Array.from({ length: info.partitions.length }, (_, p) => p);
    const out: StoredRecord[][] = partitions.map(() => []);
    const start = await startOffsets(client, topic, partitions, 'earliest');
    await readAssigned(client, info, {
      start, exitAtEnd: true,
      record(partition, batch, index, offset) {
        const v = batch.record(index).value;
        out[partition]!.push({ partition, offset: BigInt(offset), value: v === null ? '' : text.decode(v) });
      },
    });
    return out;
  } finally {
    await client.close();
  }
}
