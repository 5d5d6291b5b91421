// `kafka-wire consume -G GROUP TOPIC...`: the import as a consumer group member, as kcat -G has
// it. Topics are arguments (`^regex` for patterns); -o is the reset policy for partitions the
// group has no committed offset for; each batch is written (JSON lines, -K or -f) and flushed
// before its offsets are committed, so a crash repeats at most what was written since the last
// commit; -e ends once every assigned partition is printed, not merely fetched, to its end.

import { Consumer, type ConsumerOptions, type PartitionBatch } from '../consumer/consumer.js';
import type { ResetPolicy } from '../consumer/offsets.js';
import { flushedWriter, JsonLinesWriter, type RecordWriter } from './consume-output.js';
import type { ClientOptions } from '../wire/client.js';
import { startStats, statsIntervalArg } from './stats.js';
import { UsageError } from '../errors.js';
import type { Io } from './command.js';
import { integerArg, stringOption, type OptionSpec, type OptionValues } from './options.js';

/** The options `consume` takes for group mode (network.ts lists them with its own). */
export const GROUP_CONSUME_OPTIONS: readonly OptionSpec[] = [
  { name: 'group', short: 'G', value: 'GROUP', help: 'consume as a member of this consumer group; topics are then arguments (^regex for patterns)' },
  { name: 'group-protocol', value: 'PROTOCOL', help: 'auto (default: KIP-848 where the broker has it), consumer (KIP-848) or classic' },
  { name: 'session-timeout', value: 'MS', help: 'group session timeout: a member silent this long is dropped (default 45000)' },
  { name: 'assignor', value: 'NAMES', help: 'classic protocol: assignors offered, comma-separated (default range,cooperative-sticky)' },
];

/** Group-only options given without -G are a mistake, not something to ignore. */
export function refuseGroupOptions(values: OptionValues): void {
  for (const spec of GROUP_CONSUME_OPTIONS) {
    if (spec.name !== 'group' && values[spec.name] !== undefined) {
      throw new UsageError(`--${spec.name} needs -G GROUP`);
    }
  }
}

/** -o in group mode: where a partition without a committed offset starts. */
export function resetPolicyArg(text: string | undefined): ResetPolicy {
  if (text === undefined || text === 'beginning' || text === 'earliest') return 'earliest';
  if (text === 'end' || text === 'latest') return 'latest';
  const at = /^s@(\d+)$/.exec(text);
  if (at) return { timestamp: BigInt(at[1]!) };
  throw new UsageError(`with -G, -o is the reset policy: beginning, end or s@TIMESTAMP_MS, not ${JSON.stringify(text)}`);
}

/** A topic argument: `^...` is a pattern (as kcat and librdkafka read it), anything else a name. */
export function topicArg(text: string): string | RegExp {
  if (!text.startsWith('^')) return text;
  try {
    return new RegExp(text);
  } catch (err) {
    throw new UsageError(`bad topic pattern ${text}: ${(err as Error).message}`);
  }
}

export interface GroupConsumeOptions {
  group: string;
  topics: string[];
  values: OptionValues;
  client: ClientOptions;
  exitAtEnd: boolean;
  limit: number;
  /** How a topic's records are printed: JSON lines, or -K's or -f's text. */
  writerFor(topic: string, out: JsonLinesWriter): RecordWriter;
}

const STOP = Symbol('stop');

export async function runGroupConsume(o: GroupConsumeOptions, io: Io): Promise<number> {
  if (o.topics.length === 0) throw new UsageError('-G GROUP needs at least one topic argument');
  if (stringOption(o.values, 'topic') !== undefined || stringOption(o.values, 'partition') !== undefined) {
    throw new UsageError('with -G, topics are arguments and the group assigns partitions (no -t or -p)');
  }
  const isolation = stringOption(o.values, 'isolation') ?? 'read_uncommitted';
  if (isolation !== 'read_uncommitted' && isolation !== 'read_committed') throw new UsageError(`--isolation must be read_uncommitted or read_committed, not ${JSON.stringify(isolation)}`);
  const protocol = stringOption(o.values, 'group-protocol') ?? 'auto';
  if (protocol !== 'auto' && protocol !== 'classic' && protocol !== 'consumer') throw new UsageError(`--group-protocol must be auto, classic or consumer, not ${JSON.stringify(protocol)}`);
  const assignors = stringOption(o.values, 'assignor')?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const sessionTimeoutMs = integerArg(stringOption(o.values, 'session-timeout'), '--session-timeout', 1000);
  const started = performance.now();
  const debugOn = /\bgroup\b|\ball\b/.test(io.env?.KAFKA_WIRE_DEBUG ?? '');
  const options: ConsumerOptions = {
    ...o.client,
    groupId: o.group,
    topics: o.topics.map(topicArg),
    resetPolicy: resetPolicyArg(((o.values.offset ?? []) as string[]).at(-1)), // -o may be given more than once: the last start wins
    isolationLevel: isolation,
    groupProtocol: protocol,
    ...(assignors ? { assignors } : {}),
    ...(sessionTimeoutMs !== undefined ? { sessionTimeoutMs, heartbeatIntervalMs: Math.max(100, Math.floor(sessionTimeoutMs / 10)) } : {}),
    lazy: true,
    autoCommit: 'batch',
    ...(debugOn ? { debug: (m: string) => io.stderr.write(`kafka-wire: +${Math.round(performance.now() - started)} ms ${m}\n`) } : {}),
  };
  const consumer = new Consumer(options);
  const stopStats = startStats(statsIntervalArg(o.values), options.clientId ?? 'kafka-wire-cli', () => consumer.metrics(), io);
  const onAbort = () => { void consumer.close(); };
  io.signal?.addEventListener('abort', onAbort, { once: true });
  if (io.signal?.aborted) onAbort();

  // A topic named that does not exist is said at once (kcat's words); with -e it is the end.
  const missing = await consumer.client.missingTopics(o.topics.filter((t) => !t.startsWith('^'))).catch(() => []);
  for (const m of missing) io.stderr.write(`kafka-wire consume: Subscribed topic not available: ${m.topic}: Unknown topic or partition\n`);
  if (o.exitAtEnd && missing.length > 0) {
    io.signal?.removeEventListener('abort', onAbort);
    await consumer.close();
    throw missing[0]!;
  }

  const writer = flushedWriter(io.stdout);
  const out = new JsonLinesWriter((bytes, done) => writer.write(bytes, done));
  const formatters = new Map<string, RecordWriter>();
  const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
  let printed = 0;
  /** A batch is being printed (its records are out of the consumer's buffer but not yet on stdout). */
  let printing = false;
  let endCheck: ReturnType<typeof setInterval> | undefined;
  if (o.exitAtEnd) {
    // kcat -G -e: done once every partition this member owns has been read to its end AND
    // printed: the fetch position runs ahead of stdout (a slow reader), so nothing may be
    // waiting in the consumer's buffer or in the handler either.
    endCheck = setInterval(() => {
      const positions = consumer.positions();
      if (consumer.membership?.state !== 'stable' || positions.length === 0 || printing || consumer.bufferedBytes > 0) return;
      if (positions.every((p) => p.highWatermark >= 0n && p.offset >= p.highWatermark)) void consumer.close();
    }, 100);
  }
  try {
    await consumer.run(async (batch) => {
      printing = true;
      try {
        await printBatch(batch);
      } finally {
        printing = false;
      }
    });
  } catch (err) {
    if (err !== STOP) throw err;
  } finally {
    if (endCheck) clearInterval(endCheck);
    io.signal?.removeEventListener('abort', onAbort);
    await consumer.close();
    stopStats();
  }
  return 0;

  async function printBatch(batch: PartitionBatch): Promise<void> {
    let format = formatters.get(batch.topic);
    if (!format) formatters.set(batch.topic, format = o.writerFor(batch.topic, out));
    let lastPrinted = -1n;
    for (const rb of batch.batches) {
      const skip = batch.firstOffset - rb.baseOffset;
      const safe = rb.baseOffset + BigInt(rb.lastOffsetDelta) <= MAX_SAFE;
      const base = Number(rb.baseOffset);
      for (let i = 0; i < rb.recordCount; i++) {
        const delta = rb.offsetDeltaAt(i);
        if (delta < skip) continue;
        if (printed >= o.limit) {
          // -c reached inside this batch: commit exactly what was printed, then stop.
          out.flush();
          await writer.flushed();
          if (lastPrinted >= 0n) consumer.markOffset(batch.topic, batch.partition, lastPrinted + 1n);
          throw STOP;
        }
        format(batch.partition, rb, i, safe ? base + delta : rb.offsetAt(i));
        lastPrinted = rb.baseOffset + BigInt(delta);
        printed++;
      }
    }
    out.flush();
    await writer.flushed();
    if (printed >= o.limit) setImmediate(() => { void consumer.close(); });
  }
}
