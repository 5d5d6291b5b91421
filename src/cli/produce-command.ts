// kafka-wire produce: stdin (or -l FILE) split into records as bytes, kcat -P style, sent by the
// producer (src/producer): -D record delimiter (default newline), -K key delimiter (default tab),
// -k fixed key, idempotent by default, --transactional-id for one transaction around the input,
// -X for the producer's settings; a summary on stderr.
import { TOKEN_SASL_PROPERTIES } from './sasl-properties.js';
import { closeSync, openSync, read } from 'node:fs';
import { createProducer, ProducerError, type Producer, type ProducerOptions } from '../producer/index.js';
import { COMPRESSION_NAMES, type CompressionName } from '../records/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { stringOption, type OptionValues, type ParsedArgs } from './options.js';
import {
  clientOptionsFrom, noPositionals, partitionArg, requiredTopic, NETWORK_OPTIONS, PARTITION_OPTION, SECURITY_PROPERTIES, TOPIC_OPTION,
} from './client-options.js';
import { NO_CREATE_HELP, topicForProduce } from './produce-topic.js';
import { startStats, statsIntervalArg, STATS_OPTION } from './stats.js';

const utf8 = new TextEncoder();
const READ_CHUNK = 1 << 20;

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

/**
 * A descriptor's bytes in chunks of up to READ_CHUNK, one read ahead: two buffers taking turns, so
 * a chunk stays valid until the next one is asked for. A non-blocking descriptor (a pipe Node set
 * so) with nothing to read yet is polled again after a millisecond.
 */
async function* readAhead(fd: number, close: boolean): AsyncGenerator<Uint8Array> {
  const buffers = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  const readInto = async (buffer: Buffer): Promise<number> => {
    for (;;) {
      try {
        return await new Promise<number>((resolve, reject) => read(fd, buffer, 0, buffer.length, null, (err, n) => (err ? reject(err) : resolve(n))));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((r) => setTimeout(r, 1));
      }
    }
  };
  let turn = 0;
  let next = readInto(buffers[0]!);
  try {
    for (;;) {
      const n = await next;
      if (n === 0) return;
      const chunk = buffers[turn]!.subarray(0, n);
      turn ^= 1;
      next = readInto(buffers[turn]!);
      yield chunk;
    }
  } finally {
    next.catch(() => undefined); // a read still running when the consumer stopped early
    if (close) closeSync(fd);
  }
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
  const splitter = new RecordSplitter(producer, topic, partition, recordDelim, keyDelim, fixedKey, headers.length > 0 ? headers : undefined);
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
    const input: AsyncIterable<string | Uint8Array> = file !== undefined ? readAhead(openSync(file, 'r'), true)
      : io.stdin === process.stdin ? readAhead(0, false)
      : io.stdin as AsyncIterable<string | Uint8Array>;
    for await (const chunk of input) {
      await splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    }
    await splitter.end();
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
      throw new InputLineError(`${splitter.recordName(failure.record)}: refused by the broker as too large (${failure.message})`);
    }
    if (failure instanceof RangeError) throw new UsageError(failure.message);
    throw failure;
  }
  return 0;
}

/** An input record the producer refused, named by its number in the input (its line, with -D \n). */
class InputLineError extends Error {
  override readonly name = 'InputLineError';
}

/**
 * Splits input chunks into records at the record delimiter and each record into key and value at
 * the first key delimiter, handing ranges of the chunk to the producer (no copy here, no text).
 * A record split across chunks is joined from the two pieces alone.
 */
class RecordSplitter {
  #carry: Uint8Array | null = null;
  #record = 0;
  readonly #producer: Producer;
  readonly #topic: string;
  readonly #partition: number | undefined;
  readonly #delim: Uint8Array;
  readonly #keyDelim: Uint8Array;
  readonly #fixedKey: Uint8Array | undefined;
  readonly #headers: { key: string; value: Uint8Array }[] | undefined;

  constructor(producer: Producer, topic: string, partition: number | undefined, delim: Uint8Array, keyDelim: Uint8Array,
    fixedKey: Uint8Array | undefined, headers: { key: string; value: Uint8Array }[] | undefined) {
    this.#producer = producer;
    this.#topic = topic;
    this.#partition = partition;
    this.#delim = delim;
    this.#keyDelim = keyDelim;
    this.#fixedKey = fixedKey;
    this.#headers = headers;
  }

  /**
   * One-byte delimiters, no fixed key or headers, few partitions: the producer splits and encodes
   * the input in WebAssembly (writeDelimited), with no record handled here one by one.
   */
  get #inPlace(): boolean {
    return this.#delim.length === 1 && this.#keyDelim.length <= 1 && this.#fixedKey === undefined && this.#headers === undefined &&
      this.#producer.options.partitioner === undefined && (this.#producer.client.topics.get(this.#topic)?.partitions.length ?? Infinity) <= 64;
  }

  /** Hands buf[start, end) to writeDelimited, waiting for room as it asks; returns where the unfinished record starts. */
  async #writeInPlace(buf: Uint8Array, start: number, end: number, final: boolean): Promise<number> {
    const p = this.#producer;
    const options = { recordDelimiter: this.#delim[0]!, keyDelimiter: this.#keyDelim.length === 0 ? -1 : this.#keyDelim[0]!, partition: this.#partition, final };
    for (;;) {
      try {
        start += p.writeDelimited(this.#topic, buf, start, end, options);
      } catch (error) {
        if (error instanceof ProducerError && error.code === 'RECORD_TOO_LARGE' && error.record !== undefined && error.size !== undefined) {
          this.#record = error.record - 1;
          this.#tooLarge(error.size, false);
        }
        throw error;
      }
      if (start >= end || !p.full) return start;
      await p.ready();
    }
  }

  async push(chunk: Uint8Array): Promise<void> {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.#inPlace) return this.#pushInPlace(buf);
    const delim = this.#delim;
    const dl = delim.length;
    const d0 = delim[0]!;
    const single = dl === 1;
    let start = 0;
    const carry = this.#carry;
    if (carry !== null) {
      // The record began in an earlier chunk: join its pieces, up to and with the first delimiter
      // of this chunk; one that straddles the two is found from dl - 1 bytes before the join.
      const first = buf.indexOf(delim);
      const joined = Buffer.concat([carry, first < 0 ? buf : buf.subarray(0, first + dl)]);
      const end = joined.indexOf(delim, Math.max(0, carry.length - dl + 1));
      if (end < 0) {
        this.#carry = joined;
        if (joined.length > this.#limit) this.#tooLarge(joined.length);
        return;
      }
      this.#carry = null;
      start = end + dl - carry.length;
      if (!this.#add(joined, 0, end)) await this.#producer.ready();
    }
    for (;;) {
      const end = single ? buf.indexOf(d0, start) : buf.indexOf(delim, start);
      if (end < 0) break;
      const more = this.#add(buf, start, end);
      start = end + dl;
      if (!more) await this.#producer.ready();
    }
    if (start < buf.length) {
      this.#carry = Buffer.from(buf.subarray(start)); // a copy: the reader reuses its buffers
      if (this.#carry.length > this.#limit) this.#tooLarge(this.#carry.length);
    }
  }

  async #pushInPlace(buf: Buffer): Promise<void> {
    let start = 0;
    const carry = this.#carry;
    if (carry !== null) {
      // The record that began in an earlier chunk, joined with its end (the rest goes in place).
      const first = buf.indexOf(this.#delim[0]!);
      if (first < 0) {
        this.#carry = Buffer.concat([carry, buf]);
        this.#record = this.#producer.stats.recordsAppended;
        if (this.#carry.length > this.#limit) this.#tooLarge(this.#carry.length);
        return;
      }
      this.#carry = null;
      const joined = Buffer.concat([carry, buf.subarray(0, first + 1)]);
      await this.#writeInPlace(joined, 0, joined.length, false);
      start = first + 1;
    }
    const rest = await this.#writeInPlace(buf, start, buf.length, false);
    if (rest < buf.length) {
      this.#carry = Buffer.from(buf.subarray(rest)); // a copy: the reader reuses its buffers
      this.#record = this.#producer.stats.recordsAppended;
      if (this.#carry.length > this.#limit) this.#tooLarge(this.#carry.length);
    }
  }

  /** A record cannot be larger than the record limit plus the key delimiter. */
  get #limit(): number {
    return (this.#producer.options.maxRecordBytes ?? 1_000_000) + this.#keyDelim.length;
  }

  /** The input's record `n` is over the limit: `partial` when it has not even ended yet. */
  #tooLarge(bytes: number, partial = true): never {
    throw new InputLineError(`${this.recordName(this.#record + 1)}: ${bytes} bytes${partial ? ' or more' : ''}, above the record limit of ${this.#producer.options.maxRecordBytes ?? 1_000_000} bytes (-X message.max.bytes)`);
  }

  /** The input's record `n` (from 1): its line, or its number as -D splits. */
  recordName(n: number): string {
    return this.#byLine ? `line ${n}` : `record ${n} (as -D splits the input)`;
  }

  get #byLine(): boolean {
    return this.#delim.length === 1 && this.#delim[0] === 10;
  }

  async end(): Promise<void> {
    const carry = this.#carry;
    this.#carry = null;
    if (carry !== null && carry.length > 0 && this.#inPlace) {
      await this.#writeInPlace(carry, 0, carry.length, true);
      return;
    }
    if (carry !== null && carry.length > 0 && !this.#add(carry, 0, carry.length)) await this.#producer.ready();
  }

  #keyCache = -1;
  #keyCacheBuf: Uint8Array | null = null;
  /** The last #split's key start and end (-1: no key) and value start. */
  #ks = -1;
  #ke = -1;
  #vs = 0;

  /** Appends src[start, end) as one record; false when the producer's buffer is full. */
  #add(src: Uint8Array, start: number, end: number): boolean {
    this.#record++;
    const p = this.#producer;
    try {
      this.#split(src, start, end);
      if (this.#fixedKey !== undefined || this.#headers !== undefined) {
        const key = this.#fixedKey ?? (this.#ks < 0 ? null : src.subarray(this.#ks, this.#ke));
        return p.write(this.#topic, key, src.subarray(this.#vs, end), this.#partition, this.#headers);
      }
      return p.writeRange(this.#topic, src, this.#ks, this.#ke, this.#vs, end, this.#partition);
    } catch (error) {
      if (error instanceof ProducerError && error.code === 'RECORD_TOO_LARGE') {
        this.#record--;
        this.#tooLarge(end - start, false);
      }
      throw error;
    }
  }

  /** Finds the key delimiter of the record src[start, end). */
  #split(src: Uint8Array, start: number, end: number): void {
    const kd = this.#keyDelim;
    if (kd.length === 0 || this.#fixedKey !== undefined) { this.#ks = -1; this.#ke = -1; this.#vs = start; return; }
    // The next key delimiter found may lie in a later record: keep it for the records before it.
    let at: number;
    if (this.#keyCacheBuf === src && this.#keyCache >= start) at = this.#keyCache;
    else {
      at = kd.length === 1 ? (src as Buffer).indexOf(kd[0]!, start) : (src as Buffer).indexOf(kd, start);
      if (at < 0) at = Number.MAX_SAFE_INTEGER;
      this.#keyCacheBuf = src;
      this.#keyCache = at;
    }
    if (at + kd.length > end) { this.#ks = -1; this.#ke = -1; this.#vs = start; return; }
    this.#ks = start;
    this.#ke = at;
    this.#vs = at + kd.length;
  }
}
