// The load of `kafka-wire perf`: records written at a target rate through the library's producer,
// and records read through its consumer until a count or an idle timeout, each counted into the
// stats of ./stats.ts. The command (src/cli/perf.ts) parses options and prints; this runs.
import type { Producer } from '../producer/index.js';
import type { Consumer } from '../consumer/index.js';
import { listOffsets } from '../consumer/index.js';
import type { KafkaClient } from '../wire/client.js';
import { Throttle } from './throttle.js';
import type { Payloads } from './payloads.js';
import type { ConsumeStats } from './stats.js';

/** Records written between yields to the event loop, so acknowledgements and timers run during a run. */
const YIELD_EVERY = 4_096;

/**
 * Writes `records` of the payloads (in turn, or at random when the payloads say so) to `topic` at
 * `throughput` records/s (-1: as fast as the producer takes them), then flushes. The producer's
 * onBatchAcked is where acknowledgements are counted.
 */
export async function produceLoad(producer: Producer, topic: string, payloads: Payloads, records: number, throughput: number): Promise<void> {
  const throttle = new Throttle(throughput);
  const { pool, starts, ends } = payloads;
  const slots = starts.length;
  for (let i = 0; i < records; i++) {
    // Waiting for the schedule yields too; a sender behind it (or unthrottled) yields every so often.
    const wait = throttle.delayFor(i);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else if ((i & (YIELD_EVERY - 1)) === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
    const slot = payloads.pickAtRandom ? Math.floor(Math.random() * slots) : i % slots;
    if (!producer.writeRange(topic, pool, -1, -1, starts[slot]!, ends[slot]!)) await producer.ready();
  }
}

/** What `topic` holds now: the sum over its partitions of end minus start offsets. */
export async function recordsIn(client: KafkaClient, topic: string): Promise<number> {
  const info = await client.topic(topic);
  const partitions = [{ topic, partitions: info.partitions.map((p) => p.partition) }];
  const [start, end] = await Promise.all([listOffsets(client, partitions, -2n), listOffsets(client, partitions, -1n)]);
  let n = 0n;
  for (const [p, e] of end.get(topic) ?? []) n += e - (start.get(topic)?.get(p) ?? 0n);
  return Number(n);
}

/**
 * Reads through `consumer` (lazy batches) until `goal` records, counting records and key + value
 * bytes into `stats`; 'idle' when no batch came for `idleMs`.
 */
export async function consumeLoad(consumer: Consumer, goal: number, stats: ConsumeStats, idleMs: number): Promise<'done' | 'idle'> {
  if (goal <= 0) return 'done';
  const iterator = consumer[Symbol.asyncIterator]();
  for (;;) {
    let idle: ReturnType<typeof setTimeout> | undefined;
    const next = await Promise.race([
      iterator.next(),
      new Promise<'idle'>((resolve) => { idle = setTimeout(() => resolve('idle'), idleMs); }),
    ]);
    clearTimeout(idle);
    if (next === 'idle') return 'idle';
    if (next.done) return 'done';
    const batch = next.value;
    let n = 0;
    let bytes = 0;
    const left = goal - stats.records;
    for (const b of batch.batches) {
      const skip = Number(batch.firstOffset - b.baseOffset);
      for (let i = 0; i < b.recordCount && n < left; i++) {
        if (skip > 0 && b.offsetDeltaAt(i) < skip) continue;
        n++;
        bytes += (b.keyAt(i)?.length ?? 0) + (b.valueAt(i)?.length ?? 0);
      }
    }
    stats.read(n, bytes);
    if (stats.records >= goal) { await iterator.return?.(undefined); return 'done'; }
  }
}
