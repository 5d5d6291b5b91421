// `kafka-wire consume`, kcat -C's habits (-b, -t, -p, -o, -e, -c, -J/-K/-f): a thin face over the
// library. Without -G it reads the partitions straight from their leaders (consumer/assigned.ts:
// readAssigned, from startOffsets); with -G as a group member (./group-consume.ts). Output forms
// are ./consume-output.ts.
import { readAssigned } from '../consumer/assigned.js';
import { startOffsets, type PartitionStart, type StartAt } from '../consumer/offsets.js';
import { IsolationLevel, ISOLATION_NAMES, type IsolationName } from '../wire/isolation.js';
import { TopicError } from '../wire/client.js';
import { KafkaErrorCode } from '../wire/errors.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { integerArg, stringOption, type OptionValues, type ParsedArgs } from './options.js';
import { clientOptionsFrom, NETWORK_OPTIONS, noPositionals, PARTITION_OPTION, partitionArg, requiredTopic, TOPIC_OPTION } from './client-options.js';
import { GROUP_CONSUME_OPTIONS, refuseGroupOptions, runGroupConsume } from './group-consume.js';
import { SHARE_CONSUME_OPTIONS, refuseShareOptions, runShareConsume } from './share-consume.js';
import { CONSUME_OUTPUT_OPTIONS, directWriter, ENCODINGS, JsonLinesWriter, outputOptions, rangeWriter, recordWriter, type Encoding } from './consume-output.js';
import { startStats, statsIntervalArg, STATS_OPTION } from './stats.js';
import { KafkaClient } from '../wire/client.js';
import { FramePool } from '../wire/frame-pool.js';
import { Metrics } from '../observe/metrics.js';
import { NetworkMetrics } from '../observe/network-metrics.js';

export const consume: Command = {
  name: 'consume',
  summary: 'records to stdout, one JSON object per line {topic, partition, offset, timestamp, key, value, headers} (kcat -C)',
  synopsis: [
    '-b HOST:PORT -t TOPIC [-p N] [-o beginning|end|N|-N|s@TS] [-o e@TS] [-e] [-c COUNT] [--encoding utf8|base64|hex] [--isolation read_committed] [-J | -K DELIM | -f FORMAT] [-Z] [-u]',
    '-b HOST:PORT -G GROUP TOPIC|^REGEX... [-o beginning|end|s@TIMESTAMP] [--isolation read_committed] [-e] [-c COUNT]',
    '-b HOST:PORT --share GROUP TOPIC... [--release-on-error | --reject] [-e] [-c COUNT] [-J | -K DELIM | -f FORMAT]',
  ],
  options: [
    ...NETWORK_OPTIONS, TOPIC_OPTION, PARTITION_OPTION,
    { name: 'offset', short: 'o', value: 'OFFSET', multiple: true, help: 'beginning (default), end, N, -N (N before the end), s@TS (the first record at or after TS ms); e@TS stops before the first record at or after TS (repeat -o for both)' },
    { name: 'exit', short: 'e', help: 'exit at the end of the partitions instead of waiting for more' },
    { name: 'count', short: 'c', value: 'COUNT', help: 'exit after COUNT records' },
    { name: 'encoding', value: 'ENCODING', help: 'keys, values and headers as utf8 (default), base64 or hex' },
    { name: 'isolation', value: 'LEVEL', help: 'read_uncommitted (default) or read_committed (no aborted transactions; -e stops at the last stable offset)' },
    ...GROUP_CONSUME_OPTIONS,
    ...SHARE_CONSUME_OPTIONS,
    ...CONSUME_OUTPUT_OPTIONS,
    STATS_OPTION,
  ],
  run: runConsume,
};

async function runConsume({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const share = stringOption(values, 'share');
  const statsMs = statsIntervalArg(values);
  if (share !== undefined) {
    if (statsMs !== undefined) throw new UsageError('--stats-interval: the share consumer has no metrics yet (-t or -G have)');
    const encoding = (stringOption(values, 'encoding') ?? 'utf8') as Encoding;
    if (!ENCODINGS.includes(encoding)) throw new UsageError(`--encoding must be ${ENCODINGS.join(', ')}, not ${JSON.stringify(encoding)}`);
    const limit = integerArg(stringOption(values, 'count'), '-c (count)', 0, Number.MAX_SAFE_INTEGER) ?? Infinity;
    return runShareConsume({ group: share, topics: positionals, values, client: clientOptionsFrom(values), output: outputOptions(values, encoding), exitAtEnd: values.exit === true, limit, encoding }, io);
  }
  refuseShareOptions(values);
  const group = stringOption(values, 'group');
  if (group === undefined) { noPositionals(positionals); refuseGroupOptions(values); }
  const topic = group === undefined ? requiredTopic(values) : '';
  const only = partitionArg(values);
  const { start: startAt, stopAt } = offsetSpecs(values);
  const limit = integerArg(stringOption(values, 'count'), '-c (count)', 0, Number.MAX_SAFE_INTEGER) ?? Infinity;
  const encoding = (stringOption(values, 'encoding') ?? 'utf8') as Encoding;
  if (!ENCODINGS.includes(encoding)) throw new UsageError(`--encoding must be ${ENCODINGS.join(', ')}, not ${JSON.stringify(encoding)}`);
  const isolation = (stringOption(values, 'isolation') ?? 'read_uncommitted') as IsolationName;
  if (!ISOLATION_NAMES.includes(isolation)) throw new UsageError(`--isolation must be ${ISOLATION_NAMES.join(' or ')}, not ${JSON.stringify(isolation)}`);
  const isolationLevel = isolation === 'read_committed' ? IsolationLevel.READ_COMMITTED : IsolationLevel.READ_UNCOMMITTED;
  const exitAtEnd = values.exit === true;
  const signal = io.signal;
  const output = outputOptions(values, encoding);
  if (group !== undefined) {
    return runGroupConsume({ group, topics: positionals, values, client: clientOptionsFrom(values), exitAtEnd, limit,
      writerFor: (name, out) => recordWriter(name, output, out) }, io);
  }

  // Without a group: the records handed on and the connections, under the Java consumer's names.
  const options = clientOptionsFrom(values);
  const metrics = new Metrics(options.clientId ?? 'kafka-wire-cli');
  const consumed = statsMs === undefined ? undefined : { records: metrics.meter('consumer-fetch-manager-metrics', 'records-consumed'), bytes: metrics.meter('consumer-fetch-manager-metrics', 'bytes-consumed') };
  // Each answer's frame is given back once its records are printed (releaseBatches below), and
  // the next large one is received into it: no fresh memory per answer.
  const frames = new FramePool();
  const client = new KafkaClient({ ...options, frames, ...(statsMs === undefined ? {} : { observer: new NetworkMetrics(metrics, 'consumer-metrics') }) });
  const stopStats = startStats(statsMs, metrics.clientId, () => metrics.snapshot(), io);
  try {
    const info = await client.topic(topic);
    const partitions = only === undefined ? info.partitions.map((p) => p.partition) : [only];
    if (only !== undefined && !info.partitions.some((p) => p.partition === only)) {
      // The broker's answer, not the command line, says so: a runtime error (exit 1), as the library's.
      throw new TopicError(topic, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic ${topic} has no partition ${only} (it has ${info.partitions.length})`);
    }
    const start = await startOffsets(client, topic, partitions, startAt, isolationLevel);
    // One write per answer and partition (-u: per record), the bytes built in place.
    // A stream says when it is done with each buffer (written, or failed: consume stops then
    // anyway), and the writer fills it again.
    const stream = io.stdout as Io['stdout'] & { write(data: Uint8Array, cb: () => void): boolean; once?: unknown };
    // To a file or /dev/null, JSON lines written a batch at a time go out with no copy (directWriter).
    const out = new JsonLinesWriter(typeof stream.once === 'function' ? (bytes, done) => stream.write(bytes, done) : (bytes) => io.stdout.write(bytes),
      directWriter(io.stdout));
    const written = recordWriter(topic, output, out);
    const format: typeof written = consumed === undefined ? written : (partition, batch, i, offset) => {
      consumed.records.record();
      consumed.bytes.record((batch.keyAt(i)?.length ?? 0) + (batch.valueAt(i)?.length ?? 0));
      written(partition, batch, i, offset);
    };
    const unbuffered = values.unbuffered === true;
    // JSON lines a batch at a time (in WebAssembly) unless each record is counted or flushed.
    const range = consumed === undefined && !unbuffered ? rangeWriter(topic, output, out) : undefined;
    const printed = await readAssigned(client, info, {
      start, exitAtEnd, limit, isolationLevel, signal, stopAtTimestamp: stopAt,
      record: unbuffered
        ? (partition, batch, i, offset) => { format(partition, batch, i, offset); out.flush(); }
        : format,
      records: range,
      answered: () => out.flush(),
      // Every line of a partition's batch is written (or copied) once answered() has flushed.
      releaseBatches: true,
    });
    out.flush();
    if (printed === 0 && exitAtEnd && !signal?.aborted) io.stderr.write(`kafka-wire consume: ${nothingPrinted(topic, start, stopAt)}\n`);
    return 0;
  } finally {
    await client.close();
    stopStats();
  }
}

/** The -o options: where to start (beginning, end, N, -N, s@TS) and the e@TS to stop at. */
function offsetSpecs(values: OptionValues): { start: StartAt; stopAt?: bigint } {
  let start: StartAt = 'earliest';
  let stopAt: bigint | undefined;
  for (const spec of (values.offset ?? []) as string[]) {
    if (/^e@\d+$/.test(spec)) stopAt = BigInt(spec.slice(2));
    else if (spec === 'beginning') start = 'earliest';
    else if (spec === 'end') start = 'latest';
    else if (/^s@\d+$/.test(spec)) start = { timestamp: BigInt(spec.slice(2)) };
    else if (/^-\d+$/.test(spec)) start = { beforeEnd: -BigInt(spec) };
    else if (/^\d+$/.test(spec)) start = { offset: BigInt(spec) };
    else throw new UsageError(`bad offset ${spec} (beginning, end, N, -N, s@TIMESTAMP or e@TIMESTAMP)`);
  }
  return { start, stopAt };
}

/** Why -e ended without printing a record, partition by partition (for stderr). */
function nothingPrinted(topic: string, start: ReadonlyMap<number, PartitionStart>, stopAt: bigint | undefined): string {
  const where = [...start].sort(([a], [b]) => a - b).map(([p, { offset, end }]) =>
    offset > end ? `partition ${p}: offset ${offset} is past its end (${end})` : `partition ${p}: at its end, offset ${end}`);
  const stop = stopAt === undefined ? '' : ` or at the e@${stopAt} stop timestamp`;
  return `no records printed: -e exits at the end of each partition${stop}, and ${topic} had none to give from the start offset `
    + `(${where.join('; ')}); start earlier with -o beginning or -o -N`;
}
