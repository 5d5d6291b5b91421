// kafka-wire produce: stdin (or -l FILE) as records, kcat -P style, split and sent by the
// producer's DelimitedWriter (src/producer/delimited.ts): -D record delimiter (default newline),
// -K key delimiter (default tab), -k fixed key, idempotent by default, --transactional-id for one
// transaction around the input, -X for the producer's settings; a summary on stderr.
import { TOKEN_SASL_PROPERTIES } from './sasl-properties.js';
import { openSync } from 'node:fs';
import { createProducer, DelimitedWriter, ProducerError, type ProducerOptions } from '../producer/index.js';
import { COMPRESSION_NAMES, type CompressionName } from '../records/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { stringOption, type OptionValues, type ParsedArgs } from './options.js';
import {
  clientOptionsFrom, noPositionals, partitionArg, requiredTopic, NETWORK_OPTIONS, PARTITION_OPTION, SECURITY_PROPERTIES, TOPIC_OPTION,
} from './client-options.js';
import { NO_CREATE_HELP, topicForProduce } from './produce-topic.js';
import { startStats, statsIntervalArg, STATS_OPTION } from './stats.js';
import { readAhead } from './input.js';

const utf8 = new TextEncoder();

/** --acks and -X acks= as Kafka's clients spell it. */
const ACKS: Record<string, -1 | 0 | 1> = { all: -1, '-1': -1, '0': 0, '1': 1 };

/** -X names (Kafka's and librdkafka's spellings) and the producer option each sets. */
const SETTINGS: Record<string, { option: keyof ProducerOptions; kind: 'int' | 'acks' | 'bool' | 'codec' | 'string' | 'kbytes' }> = {
  'linger.ms': { option: 'lingerMs', kind: 'int' },
  'queue.buffering.max.ms': { option: 'lingerMs', kind: 'int' },
  'batch.size': { option: 'batchBytes', kind: 'int' },
  'max.in.flight': { option: 'maxInFlight', kind: 'int' },
  'max.in.flight.requests.per.connection': { option: 'maxInFlight', kind: 'int' },
  'acks': { option: 'acks', kind: 'acks' },
  'request.required.acks': { option: 'acks', kind: 'acks' },
  'enable.idempotence': { option: 'idempotent', kind: 'bool' },
  'compression.type': { option: 'compression', kind: 'codec' },
  'compression.codec': { option: 'compression', kind: 'codec' },
  'message.max.bytes': { option: 'maxRecordBytes', kind: 'int' },
  'max.request.size': { option: 'maxRequestBytes', kind: 'int' },
  'buffer.memory': { option: 'bufferBytes', kind: 'int' },
  'queue.buffering.max.kbytes': { option: 'bufferBytes', kind: 'kbytes' },
  'delivery.timeout.ms': { option: 'deliveryTimeoutMs', kind: 'int' },
  'message.timeout.ms': { option: 'deliveryTimeoutMs', kind: 'int' },
  'request.timeout.ms': { option: 'requestTimeoutMs', kind: 'int' },
  'retry.backoff.ms': { option: 'retryBackoffMs', kind: 'int' },
  'transactional.id': { option: 'transactionalId', kind: 'string' },
  'transaction.timeout.ms': { option: 'transactionTimeoutMs', kind: 'int' },
  'enable.metrics.push': { option: 'enableMetricsPush', kind: 'bool' },
};

export const produce: Command = {
  name: 'produce',
  summary: 'stdin (or a file) split into records, "key<TAB>value" or as -K/-D say, sent by the idempotent producer (kcat -P)',
  synopsis: ['-b HOST:PORT -t TOPIC [-p N] [-K DELIM] [-D DELIM] [-k KEY] [-l FILE] [-z CODEC] [-H key=value]... [--acks all|0|1] [--transactional-id ID] [-X name=value]...'],
  options: [
    ...NETWORK_OPTIONS.filter((o) => o.name !== 'property'), TOPIC_OPTION,
    { ...PARTITION_OPTION, help: 'this partition (default: murmur2 of the key as the Java client; sticky partitions for records without a key)' },
    { name: 'key-delimiter', short: 'K', value: 'DELIM', help: 'splits each record into key and value at its first DELIM (default \\t; escapes \\t \\n \\r \\0 \\\\ \\xNN); "" for none: the record is the value' },
    { name: 'delimiter', short: 'D', value: 'DELIM', help: 'separates records (default \\n; the same escapes)' },
    { name: 'key', short: 'k', value: 'KEY', help: 'this key on every record (the input is values only)' },
    { name: 'file', short: 'l', value: 'FILE', help: 'read records from FILE instead of stdin' },
    { name: 'compression', short: 'z', value: 'CODEC', help: `${COMPRESSION_NAMES.join(', ')} (default none)` },
    { name: 'header', short: 'H', value: 'key=value', multiple: true, help: 'a header on every record (repeatable)' },
    STATS_OPTION,
    { name: 'acks', value: 'ACKS', help: 'all (default, also -1), 0 (no response) or 1 (the leader only); 0 and 1 turn idempotence off' },
    { name: 'transactional-id', value: 'ID', help: 'send the whole input in one transaction with this id (committed at the end, aborted on error)' },
    { name: 'no-idempotence', help: 'plain producer: no producer id and sequence numbers (retries may duplicate)' },
    { name: 'property', short: 'X', value: 'name=value', multiple: true, help: `producer settings: ${Object.keys(SETTINGS).join(', ')}; and the security settings: ${Object.keys(SECURITY_PROPERTIES).join(', ')}` },
    { name: 'no-create', help: NO_CREATE_HELP },
    { name: 'quiet', short: 'q', help: 'no summary on stderr' },
  ],
  notes: [
    'Records are split as bytes (no text decoding): keys and values are sent exactly as they appear in the input.',
    'A last record without a delimiter after it is sent too. Exit 1 on the first record the broker (or a limit) refuses; the summary says how many records were acknowledged before it.',
  ],
  run: runProduce,
};

/** A delimiter argument with kcat's escapes, as bytes. */
export function delimiterArg(text: string, what: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 === text.length) { out.push(...utf8.encode(c)); continue; }
    const e = text[++i]!;
    if (e === 't') out.push(9);
    else if (e === 'n') out.push(10);
    else if (e === 'r') out.push(13);
    else if (e === '0') out.push(0);
    else if (e === '\\') out.push(92);
    else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) { out.push(parseInt(text.slice(i + 1, i + 3), 16)); i += 2; }
    else throw new UsageError(`${what}: unknown escape \\${e} (\\t \\n \\r \\0 \\\\ \\xNN)`);
  }
  return new Uint8Array(out);
}

/** The producer options --acks, -z, --transactional-id, --no-idempotence and -X give (perf produce shares them). */
export function producerOptions(values: OptionValues): ProducerOptions {
  const options: ProducerOptions = { ...clientOptionsFrom(values, Object.keys(SETTINGS)), clientId: stringOption(values, 'client-id') ?? 'kafka-wire-cli' };
  const compression = stringOption(values, 'compression');
  if (compression !== undefined) options.compression = codecArg(compression, '-z');
  const acks = stringOption(values, 'acks');
  if (acks !== undefined) options.acks = acksArg(acks, '--acks');
  const txn = stringOption(values, 'transactional-id');
  if (txn !== undefined) options.transactionalId = txn;
  if (values['no-idempotence']) options.idempotent = false;
  for (const setting of (values.property ?? []) as string[]) {
    const eq = setting.indexOf('=');
    if (eq <= 0) throw new UsageError(`-X ${setting}: want name=value`);
    const name = setting.slice(0, eq);
    const text = setting.slice(eq + 1);
    if (Object.hasOwn(SECURITY_PROPERTIES, name) || (TOKEN_SASL_PROPERTIES as readonly string[]).includes(name)) continue; // clientOptionsFrom's
    const known = SETTINGS[name];
    if (known === undefined) throw new UsageError(`-X ${name}: unknown setting (known: ${Object.keys(SETTINGS).join(', ')})`);
    let value: unknown;
    switch (known.kind) {
      case 'int':
      case 'kbytes':
        if (!/^\d+$/.test(text)) throw new UsageError(`-X ${name} must be a non-negative integer, not ${JSON.stringify(text)}`);
        value = Number(text) * (known.kind === 'kbytes' ? 1024 : 1);
        break;
      case 'acks': value = acksArg(text, `-X ${name}`); break;
      case 'codec': value = codecArg(text, `-X ${name}`); break;
      case 'bool':
        if (text !== 'true' && text !== 'false') throw new UsageError(`-X ${name} must be true or false`);
        value = text === 'true';
        break;
      default: value = text;
    }
    (options as unknown as Record<string, unknown>)[known.option] = value;
  }
  if (options.maxInFlight !== undefined && options.maxInFlight < 1) throw new UsageError('max.in.flight must be at least 1');
  if (options.idempotent === true && options.acks !== undefined && options.acks !== -1) {
    throw new UsageError('enable.idempotence=true needs acks all');
  }
  return options;
}

function acksArg(text: string, what: string): -1 | 0 | 1 {
  const acks = Object.hasOwn(ACKS, text) ? ACKS[text] : undefined;
  if (acks === undefined) throw new UsageError(`${what} must be all, -1, 0 or 1, not ${JSON.stringify(text)}`);
  return acks;
}

function codecArg(text: string, what: string): CompressionName {
  if (!(COMPRESSION_NAMES as readonly string[]).includes(text)) throw new UsageError(`${what}: unknown compression ${text} (${COMPRESSION_NAMES.join(', ')})`);
  return text as CompressionName;
}

async function runProduce({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  noPositionals(positionals);
  const topic = requiredTopic(values);
  const partition = partitionArg(values);
  const recordDelim = delimiterArg(stringOption(values, 'delimiter') ?? '\\n', '-D');
  if (recordDelim.length === 0) throw new UsageError('-D: the record delimiter cannot be empty');
  const fixedKeyText = stringOption(values, 'key');
  const fixedKey = fixedKeyText === undefined ? undefined : utf8.encode(fixedKeyText);
  const keyDelim = fixedKey !== undefined ? new Uint8Array(0) : delimiterArg(stringOption(values, 'key-delimiter') ?? '\\t', '-K');
  const headers = ((values.header ?? []) as string[]).map((h) => {
    const i = h.indexOf('=');
    if (i <= 0) throw new UsageError(`bad header ${h} (want key=value)`);
    return { key: h.slice(0, i), value: utf8.encode(h.slice(i + 1)) };
  });
  const file = stringOption(values, 'file');
  const options = producerOptions(values);
  const statsMs = statsIntervalArg(values);

  const started = performance.now();
  const producer = await createProducer(options);
  const stopStats = startStats(statsMs, options.clientId ?? 'kafka-wire-cli', () => producer.metrics(), io);
  const input = new DelimitedWriter(producer, topic, {
    recordDelimiter: recordDelim, keyDelimiter: keyDelim, partition, key: fixedKey, headers,
    recordName: recordDelim.length === 1 && recordDelim[0] === 10 ? (n) => `line ${n}` : (n) => `record ${n} (as -D splits the input)`,
    limitSetting: '-X message.max.bytes',
  });
  let failure: unknown;
  try {
    const info = await topicForProduce(producer.client, topic,
      { create: values['no-create'] !== true, note: (line) => io.stderr.write(`kafka-wire produce: ${line}\n`) });
    if (partition !== undefined && partition >= info.partitions.length) {
      throw new ProducerError('UNKNOWN_TOPIC', `topic ${topic} has no partition ${partition} (it has ${info.partitions.length})`, { topic, partition });
    }
    if (options.transactionalId !== undefined) producer.beginTransaction();
    // The process's stdin (file, pipe or terminal) and -l files are read by the descriptor in
    // 1 MiB chunks, the next read running (in libuv's thread pool) while a chunk is encoded.
    const chunks: AsyncIterable<string | Uint8Array> = file !== undefined ? readAhead(openSync(file, 'r'), true)
      : io.stdin === process.stdin ? readAhead(0, false)
      : io.stdin as AsyncIterable<string | Uint8Array>;
    for await (const chunk of chunks) await input.push(typeof chunk === 'string' ? utf8.encode(chunk) : chunk);
    await input.end();
    if (options.transactionalId !== undefined) await producer.commitTransaction();
    else await producer.flush();
  } catch (error) {
    failure = error;
    // What was appended before the failure still goes out (and stays sent); a transaction is aborted.
    try {
      if (options.transactionalId !== undefined && !(error instanceof ProducerError && error.code === 'FENCED')) await producer.abortTransaction();
      else await producer.flush();
    } catch { /* the first error is the one to report */ }
  } finally {
    await producer.close({ force: failure !== undefined });
    stopStats();
  }
  const seconds = (performance.now() - started) / 1000;
  const s = producer.stats;
  if (!values.quiet || failure !== undefined) {
    io.stderr.write(`% ${s.recordsAcked} records (${s.bytesAcked} bytes in ${s.batchesAcked} batches) acknowledged by ${topic} in ${seconds.toFixed(3)} s` +
      ` (${Math.round(s.recordsAcked / Math.max(seconds, 1e-9))} records/s, ${(s.bytesAcked / 1e6 / Math.max(seconds, 1e-9)).toFixed(1)} MB/s)` +
      `${s.retries ? `, ${s.retries} retries` : ''}${s.recordsFailed ? `, ${s.recordsFailed} failed` : ''}` +
      `${options.transactionalId !== undefined ? (failure === undefined ? ', transaction committed' : ', transaction aborted') : ''}\n`);
  }
  if (failure !== undefined) {
    // The broker refused one record alone (too large even as a batch of its own): name its line.
    if (failure instanceof ProducerError && failure.code === 'RECORD_TOO_LARGE' && failure.record !== undefined) {
      throw new ProducerError('RECORD_TOO_LARGE', `${input.recordName(failure.record)}: refused by the broker as too large (${failure.message})`,
        { topic, partition: failure.partition, errorCode: failure.errorCode, record: failure.record, size: failure.size, cause: failure });
    }
    if (failure instanceof RangeError) throw new UsageError(failure.message);
    throw failure;
  }
  return 0;
}
