// kafka-wire perf produce | consume: load a cluster and measure it, with the options and output
// lines of Kafka's kafka-producer-perf-test.sh / kafka-consumer-perf-test.sh (ProducerPerformance,
// ConsumerPerformance) so runs compare line by line; --json for pipelines, --report FILE.html for a
// page of plots, --progress for a bar on a terminal. The load runs in src/perf/load.ts (the library
// producer and consumer), the counting, histogram and page in src/perf; this file parses and prints.
import { readFileSync } from 'node:fs';
import { createProducer, type Producer } from '../producer/index.js';
import { Consumer } from '../consumer/index.js';
import { UsageError } from '../errors.js';
import { consumeLoad, produceLoad, recordsIn } from '../perf/load.js';
import {
  CONSUME_DETAILED_HEADER, CONSUME_HEADER, ConsumeStats, ProduceStats, REPORT_INTERVAL_MS, consumeSummaryLine, kafkaDate,
  produceProgressLine, produceSummaryLine, progressJson, roundTo,
} from '../perf/stats.js';
import { writeReport } from '../perf/report.js';
import { filePayloads, randomPayloads, type Payloads } from '../perf/payloads.js';
import { ProgressBar } from '../perf/progress.js';
import type { Command, Io } from './command.js';
import { clientOptionsFrom, requiredTopic, NETWORK_OPTIONS, TOPIC_OPTION } from './client-options.js';
import { COMPRESSION_NAMES } from '../records/index.js';
import { producerOptions, delimiterArg } from './produce.js';
import { integerArg, stringOption, type OptionValues, type ParsedArgs } from './options.js';
import { withoutSecret } from './sasl-properties.js';
import { startStats, statsIntervalArg, STATS_OPTION } from './stats.js';

export const perf: Command = {
  name: 'perf',
  summary: 'benchmark a cluster: produce or consume N records, Kafka perf-test lines (records/s, MB/s, latency percentiles), --report FILE.html',
  synopsis: [
    'produce -b HOST:PORT -t TOPIC --records N (--record-size B | --payload-file F) [--throughput R] [--acks all|1|0] [-z CODEC] [-X name=value]... [--json] [--report FILE.html] [--progress]',
    'consume -b HOST:PORT -t TOPIC [--records N] [-G GROUP] [--from-latest] [--show-detailed-stats] [--json] [--report FILE.html] [--progress]',
  ],
  options: [
    ...NETWORK_OPTIONS.filter((o) => o.name !== 'property'), TOPIC_OPTION,
    { name: 'records', value: 'N', help: 'produce: records to send; consume: records to read (default: what the topic holds at the start)' },
    { name: 'num-records', value: 'N', help: 'the same as --records (ProducerPerformance\'s name)' },
    { name: 'messages', value: 'N', help: 'the same as --records (ConsumerPerformance\'s name)' },
    { name: 'record-size', value: 'B', help: 'produce: each record\'s value is B random upper-case letters (no key)' },
    { name: 'payload-file', value: 'F', help: 'produce: values drawn at random from F\'s records (split at --payload-delimiter)' },
    { name: 'payload-delimiter', value: 'DELIM', help: 'produce: separates --payload-file\'s records (default \\n; escapes as produce -D)' },
    { name: 'throughput', value: 'R', help: 'produce: at most R records/s, evenly (default -1: no limit)' },
    { name: 'acks', value: 'ACKS', help: 'produce: all (default, idempotent), 1 or 0' },
    { name: 'compression', short: 'z', value: 'CODEC', help: `produce: ${COMPRESSION_NAMES.join(', ')} (default none)` },
    { name: 'transactional-id', value: 'ID', help: 'produce: the whole run in one transaction' },
    { name: 'no-idempotence', help: 'produce: no producer id and sequence numbers' },
    { name: 'property', short: 'X', value: 'name=value', multiple: true, help: 'producer settings as kafka-wire produce -X (linger.ms, batch.size, ...), and the security settings (security.protocol, sasl.*, ssl.ca.location)' },
    { name: 'group', short: 'G', value: 'GROUP', help: 'consume: read as a member of this consumer group (default: no group, every partition)' },
    { name: 'from-latest', help: 'consume: start at the end of partitions without a committed offset (default: the beginning)' },
    { name: 'idle-timeout', value: 'MS', help: 'consume: stop after MS without a record (default 10000; ConsumerPerformance\'s --timeout)' },
    { name: 'show-detailed-stats', help: 'consume: a line every reporting interval, as ConsumerPerformance' },
    { name: 'reporting-interval', value: 'MS', help: 'progress lines every MS (default 5000)' },
    { name: 'json', help: 'JSON lines on stdout instead of Kafka\'s text lines: {"type":"progress",...} and one {"type":"summary",...}' },
    { name: 'report', value: 'FILE.html', help: 'write a self-contained page with throughput over time and the latency distribution' },
    { name: 'progress', help: 'a live progress bar on stderr when it is a terminal' },
    STATS_OPTION,
  ],
  notes: [
    'produce prints ProducerPerformance\'s lines: every 5 s "N records sent, R records/sec (M MB/sec), A ms avg latency, X ms max latency."',
    'and at the end the same with the 50th, 95th, 99th and 99.9th percentiles, then one line of the producer\'s own figures.',
    'Latency is per batch, from its closing (ready to send) to its acknowledgement, counted once per record of it (HDR histogram, fixed memory).',
    'consume prints ConsumerPerformance\'s header and final line (start.time, end.time, data.consumed.in.MB, MB.sec, ...).',
  ],
  run: runPerf,
};

async function runPerf(args: ParsedArgs, io: Io): Promise<number> {
  const [action, ...rest] = args.positionals;
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  if (action === 'produce') return runPerfProduce(args.options, io);
  if (action === 'consume') return runPerfConsume(args.options, io);
  throw new UsageError(`perf needs produce or consume${action ? `, not ${JSON.stringify(action)}` : ''}`);
}

function recordsArg(values: OptionValues, required: boolean): number | undefined {
  const given = ['records', 'num-records', 'messages'].filter((n) => values[n] !== undefined);
  if (given.length > 1) throw new UsageError(`give one of --${given.join(', --')}`);
  const text = given.length === 0 ? undefined : stringOption(values, given[0]!);
  if (text === undefined) {
    if (required) throw new UsageError('--records N is required');
    return undefined;
  }
  const n = integerArg(text, `--${given[0]}`, 1, Number.MAX_SAFE_INTEGER)!;
  if (n < 1) throw new UsageError(`--${given[0]} must be at least 1`);
  return n;
}

/** Writes text lines or JSON lines, the one output switch of both commands. */
function printer(values: OptionValues, io: Io) {
  const json = values.json === true;
  return {
    json,
    line(text: string, object: Record<string, unknown>) {
      io.stdout.write(json ? JSON.stringify(object) + '\n' : text + '\n');
    },
  };
}

function intervalArg(values: OptionValues): number {
  const text = stringOption(values, 'reporting-interval');
  return text === undefined ? REPORT_INTERVAL_MS : integerArg(text, '--reporting-interval', 1)!;
}


/** The payloads the options ask for: --record-size B random letters, or --payload-file F's records. */
function payloadsFrom(values: OptionValues): Payloads {
  const sizeText = stringOption(values, 'record-size');
  const file = stringOption(values, 'payload-file');
  if ((sizeText === undefined) === (file === undefined)) throw new UsageError('give exactly one of --record-size B and --payload-file F');
  if (sizeText !== undefined) {
    const size = integerArg(sizeText, '--record-size', 1)!;
    if (size < 1) throw new UsageError('--record-size must be at least 1');
    return randomPayloads(size);
  }
  const delim = delimiterArg(stringOption(values, 'payload-delimiter') ?? '\\n', '--payload-delimiter');
  if (delim.length === 0) throw new UsageError('--payload-delimiter cannot be empty');
  const payloads = filePayloads(readFileSync(file!), delim);
  if (payloads === null) throw new UsageError(`--payload-file ${file}: no records in it`);
  return payloads;
}

async function runPerfProduce(values: OptionValues, io: Io): Promise<number> {
  const topic = requiredTopic(values);
  const records = recordsArg(values, true)!;
  const payloads = payloadsFrom(values);
  const throughputText = stringOption(values, 'throughput');
  const throughput = throughputText === undefined ? -1 : Number(throughputText);
  if (!Number.isFinite(throughput) || (throughput <= 0 && throughput !== -1)) throw new UsageError('--throughput must be a positive number of records/s, or -1 for no limit');
  const interval = intervalArg(values);
  const out = printer(values, io);
  const options = producerOptions(values);
  const reportFile = stringOption(values, 'report');
  const statsMs = statsIntervalArg(values);

  let wireBytes = 0;
  let stats: ProduceStats | undefined;
  const producer: Producer = await createProducer({
    ...options,
    onBatchAcked: (ack) => {
      wireBytes += ack.bytes;
      stats?.acked(ack.records, ack.records * payloads.averageBytes, ack.latencyMs);
    },
  });
  const stopStats = startStats(statsMs, options.clientId ?? 'kafka-wire-cli', () => producer.metrics(), io);
  const bar = values.progress === true ? new ProgressBar(io.stderr, records) : null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let barTimer: ReturnType<typeof setInterval> | undefined;
  let failure: unknown;
  try {
    await producer.topic(topic);
    if (options.transactionalId !== undefined) producer.beginTransaction();
    stats = new ProduceStats();
    const s = stats;
    timer = setInterval(() => {
      const w = s.window();
      bar?.clear();
      out.line(produceProgressLine(w), { type: 'progress', ...progressJson(w) });
    }, interval);
    if (bar) barTimer = setInterval(() => bar.draw(s.records, s.summary().recordsPerSec), 200);
    await produceLoad(producer, topic, payloads, records, throughput);
    if (options.transactionalId !== undefined) await producer.commitTransaction();
    else await producer.flush();
  } catch (error) {
    failure = error;
  } finally {
    clearInterval(timer);
    clearInterval(barTimer);
    bar?.clear();
    await producer.close({ force: failure !== undefined });
    stopStats();
  }
  if (failure !== undefined) {
    if (failure instanceof RangeError) throw new UsageError(failure.message);
    throw failure;
  }
  const summary = stats!.summary();
  const p = producer.stats;
  const own = {
    batches: p.batchesAcked,
    recordsPerBatch: p.batchesAcked === 0 ? 0 : p.recordsAcked / p.batchesAcked,
    batchBytes: p.batchesAcked === 0 ? 0 : wireBytes / p.batchesAcked,
    requests: p.requests,
    maxRequestsInFlight: p.maxInFlightRequests,
    compressionRatio: wireBytes === 0 ? 0 : summary.bytes / wireBytes,
    retries: p.retries,
  };
  out.line(produceSummaryLine(summary), { type: 'summary', ...progressJson(summary), batches: summary.batches,
    p50Ms: summary.p50Ms, p95Ms: summary.p95Ms, p99Ms: summary.p99Ms, p999Ms: summary.p999Ms,
    producer: { ...own, recordsPerBatch: roundTo(own.recordsPerBatch, 1), batchBytes: Math.round(own.batchBytes), compressionRatio: roundTo(own.compressionRatio) } });
  if (!out.json) {
    io.stdout.write(`producer: ${own.batches} batches (${own.recordsPerBatch.toFixed(1)} records, ${Math.round(own.batchBytes)} bytes on average), ` +
      `${own.requests} requests (at most ${own.maxRequestsInFlight} in flight), compression ratio ${own.compressionRatio.toFixed(2)} ` +
      `(payload / batch bytes, ${options.compression ?? 'none'}), ${own.retries} retries.\n`);
  }
  if (reportFile !== undefined) {
    writeReport(reportFile, {
      kind: 'produce', topic, title: `kafka-wire perf produce: ${topic}`,
      settings: settingsText(values, ['records', 'num-records', 'record-size', 'payload-file', 'throughput', 'acks', 'compression', 'property']),
      summaryLines: [produceSummaryLine(summary)],
      timeline: stats!.timeline.points, elapsedMs: summary.elapsedMs, targetRate: throughput > 0 ? throughput : undefined,
      histogram: stats!.histogram,
      figures: [
        ['records', summary.records.toLocaleString('en-US')], ['records/s', Math.round(summary.recordsPerSec).toLocaleString('en-US')],
        ['MB/s', summary.mbPerSec.toFixed(2)], ['p50', `${summary.p50Ms.toFixed(1)} ms`], ['p99', `${summary.p99Ms.toFixed(1)} ms`],
        ['p99.9', `${summary.p999Ms.toFixed(1)} ms`], ['max', `${summary.maxLatencyMs.toFixed(0)} ms`],
        ['batches', own.batches.toLocaleString('en-US')], ['records/batch', own.recordsPerBatch.toFixed(1)],
        ['max in flight', String(own.maxRequestsInFlight)], ['compression ratio', own.compressionRatio.toFixed(2)],
      ],
    });
  }
  return 0;
}

/** The run's settings as given, for the report's header. */
function settingsText(values: OptionValues, names: string[]): string {
  const parts: string[] = [];
  for (const n of names) {
    const v = values[n];
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) parts.push(one === true ? `--${n}` : `--${n} ${n === 'property' ? withoutSecret(String(one)) : one}`);
  }
  return parts.join(' ');
}

async function runPerfConsume(values: OptionValues, io: Io): Promise<number> {
  const topic = requiredTopic(values);
  let target = recordsArg(values, false);
  const groupId = stringOption(values, 'group');
  const fromLatest = values['from-latest'] === true;
  if (fromLatest && target === undefined) throw new UsageError('--from-latest needs --records N (what to wait for)');
  const idleText = stringOption(values, 'idle-timeout');
  const idleMs = idleText === undefined ? 10_000 : integerArg(idleText, '--idle-timeout', 1)!;
  const interval = intervalArg(values);
  const detailed = values['show-detailed-stats'] === true;
  const out = printer(values, io);
  const reportFile = stringOption(values, 'report');
  const statsMs = statsIntervalArg(values);

  const consumer = new Consumer({
    ...clientOptionsFrom(values),
    ...(groupId !== undefined ? { groupId, topics: [topic] } : { assign: [{ topic }] }),
    resetPolicy: fromLatest ? 'latest' : 'earliest',
    lazy: true,
    autoCommit: groupId !== undefined ? 'interval' : 'manual',
  });
  const stopStats = startStats(statsMs, consumer.client.options.clientId ?? 'kafka-wire-cli', () => consumer.metrics(), io);
  if (!out.json) io.stdout.write((detailed ? CONSUME_DETAILED_HEADER : CONSUME_HEADER) + '\n');
  const startWall = Date.now();
  const stats = new ConsumeStats();
  const joinStart = performance.now();
  let joined = groupId === undefined;
  consumer.on('assigned', () => {
    if (!joined) { joined = true; stats.rebalanced(performance.now() - joinStart); }
  });
  let bar: ProgressBar | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let barTimer: ReturnType<typeof setInterval> | undefined;
  let timedOut = false;
  try {
    if (target === undefined) target = await recordsIn(consumer.client, topic);
    const goal = target;
    bar = values.progress === true ? new ProgressBar(io.stderr, goal) : null;
    if (detailed || out.json) {
      timer = setInterval(() => {
        const { line, progress } = stats.windowLine(kafkaDate, Date.now());
        bar?.clear();
        if (out.json) out.line('', { type: 'progress', ...progress, elapsedMs: roundTo(progress.elapsedMs, 1), recordsPerSec: roundTo(progress.recordsPerSec, 1), mbPerSec: roundTo(progress.mbPerSec) });
        else io.stdout.write(line + '\n');
      }, interval);
    }
    if (bar) { const b = bar; barTimer = setInterval(() => b.draw(stats.records, stats.summary().recordsPerSec), 200); }
    timedOut = await consumeLoad(consumer, goal, stats, idleMs) === 'idle';
  } finally {
    clearInterval(timer);
    clearInterval(barTimer);
    bar?.clear();
    await consumer.close();
    stopStats();
  }
  const endWall = Date.now();
  const summary = stats.summary();
  if (timedOut && !out.json) {
    io.stdout.write(`WARNING: Exiting before consuming the expected number of messages: timeout (${idleMs} ms) exceeded. You can use the --idle-timeout option to increase the timeout.\n`);
  }
  if (out.json) {
    out.line('', { type: 'summary', ...summary, elapsedMs: roundTo(summary.elapsedMs, 1), fetchMs: roundTo(summary.fetchMs, 1), rebalanceMs: roundTo(summary.rebalanceMs, 1),
      mbPerSec: roundTo(summary.mbPerSec, 4), recordsPerSec: roundTo(summary.recordsPerSec, 1), fetchMbPerSec: roundTo(summary.fetchMbPerSec, 4),
      fetchRecordsPerSec: roundTo(summary.fetchRecordsPerSec, 1), expected: target, timedOut });
  } else if (!detailed) {
    io.stdout.write(consumeSummaryLine(summary, kafkaDate(startWall), kafkaDate(endWall)) + '\n');
  }
  if (reportFile !== undefined) {
    writeReport(reportFile, {
      kind: 'consume', topic, title: `kafka-wire perf consume: ${topic}`,
      settings: settingsText(values, ['records', 'messages', 'group', 'from-latest']),
      summaryLines: [CONSUME_HEADER, consumeSummaryLine(summary, kafkaDate(startWall), kafkaDate(endWall))],
      timeline: stats.timeline.points, elapsedMs: summary.elapsedMs, histogram: null,
      figures: [
        ['records', summary.records.toLocaleString('en-US')], ['records/s', Math.round(summary.recordsPerSec).toLocaleString('en-US')],
        ['MB/s', summary.mbPerSec.toFixed(2)], ['rebalance', `${Math.round(summary.rebalanceMs)} ms`],
      ],
    });
  }
  return timedOut ? 1 : 0;
}
