// The producer: records appended per partition (accumulator.ts), sent by a pipelined sender
// (sender.ts), idempotent by default (idempotence.ts), with transactions on request
// (transactions.ts), partitioned as the Java client does (partitioner.ts).
//
//   const producer = await createProducer({ bootstrap: '127.0.0.1:9092' });
//   const [meta] = await producer.send('orders', [{ key: 'k', value: 'v' }]);   // acknowledged
//   await producer.topic('orders');                       // the streaming form: no promise per record
//   while (more) if (!producer.write('orders', key, value)) await producer.ready();
//   await producer.flush();                               // everything written acknowledged
//   await producer.close();
import { KafkaClient, type ClientOptions, type TopicInfo } from '../wire/client.js';
import { ConnectionError } from '../wire/errors.js';
import { initZstd } from '../records/zstd.js';
import { encodeUtf8Into } from '../text.js';
import { BATCH_OVERHEAD, RecordColumns } from '../records/columns.js';
import { SplitBatch, SplitBatches, SPLIT_FULL, SPLIT_NEED_MORE, SPLIT_NO_KEY } from '../records/split.js';
import { decodeRecordBatches } from '../records/decode.js';
import { encodeRecordBatch } from '../records/encode.js';
import type { CompressionName, CompressOptions, RecordInput } from '../records/types.js';
import { serializeRecords, type RawField, type RecordToSend, type SerializerOptions } from '../serde.js';
import { recordsError } from '../records/errors.js';
import { Accumulator, ProducerBatch, type OpenBatch, type PartitionState, type RecordMetadata, type SendOp, type Waiter } from './accumulator.js';
import { ProducerError, errorName } from './errors.js';
import { initProducerId, nextSequence, type ProducerIdAndEpoch } from './idempotence.js';
import { StickyPartitions, keyedPartition, partitionForKey, type Partitioner } from './partitioner.js';
import { Sender, type BatchAck } from './sender.js';
import { Transactions, TRANSACTIONAL_MAX_PRODUCE_VERSION, type GroupMetadata, type OffsetToCommit } from './transactions.js';
import { createLogger, type Logger } from '../logger.js';
import { ProducerMetrics } from './metrics.js';
import { TelemetryPusher } from '../wire/telemetry.js';
import type { MetricValue } from '../observe/metrics.js';

/** K, V: what keySerializer / valueSerializer take (without them: bytes or strings). */
export interface ProducerOptions<K = RawField, V = RawField> extends ClientOptions, SerializerOptions<K, V> {
  /** 'all' (-1, the default), 1 (the leader only) or 0 (no answer; offsets unknown). */
  acks?: 'all' | -1 | 0 | 1;
  /**
   * Idempotence (InitProducerId, sequence numbers): retries never duplicate or reorder. Default
   * true with acks 'all'; an explicit acks 0 or 1 turns the default off (as the Java client).
   */
  idempotent?: boolean;
  /** Transactions: beginTransaction(), commitTransaction(), abortTransaction(). Implies idempotence. */
  transactionalId?: string;
  /** Default 60 000. */
  transactionTimeoutMs?: number;
  /** Per batch; default 'none'. */
  compression?: CompressionName;
  compressionOptions?: CompressOptions;
  /** A batch is sealed at this many bytes (uncompressed estimate); default 1 000 000. */
  batchBytes?: number;
  /** A batch not full waits at most this long for more records; default 5 ms. */
  lingerMs?: number;
  /** Bytes of records held (appended, not yet acknowledged) before write() says to wait; default 64 MiB. */
  bufferBytes?: number;
  /** Produce requests in flight per broker; default 5. */
  maxInFlight?: number;
  /** One record's largest size (Kafka's message.max.bytes); default 1 000 000. */
  maxRecordBytes?: number;
  /** A Produce request's largest size before another starts; default 8 MiB. */
  maxRequestBytes?: number;
  /** A batch not acknowledged within this time, retries included, fails; default 120 000. */
  deliveryTimeoutMs?: number;
  /** First wait before a retry (doubling to 1 s); default 100. */
  retryBackoffMs?: number;
  /** The caller's partitioner; default: murmur2 of the key, sticky partitions for null keys. */
  partitioner?: Partitioner;
  /** Ask brokers to create unknown topics (if they are configured to); default true. */
  allowAutoTopicCreation?: boolean;
  /** Each acknowledged batch, with its latency (for progress and performance figures). */
  onBatchAcked?: (ack: BatchAck) => void;
  /** Each failed batch (write() records have no promise: this and flush() report them). */
  onDeliveryError?: (error: ProducerError) => void;
}

/** Counters, updated as batches are acknowledged. */
export interface ProducerStats {
  recordsAppended: number;
  recordsAcked: number;
  batchesAcked: number;
  bytesAcked: number;
  recordsFailed: number;
  retries: number;
  /** Produce requests sent, and the most that waited for answers at once. */
  requests: number;
  maxInFlightRequests: number;
}

/** Creates a producer: connects, learns the cluster and (idempotent or transactional) gets a producer id. */
export async function createProducer<K = RawField, V = RawField>(options: ProducerOptions<K, V>): Promise<Producer<K, V>> {
  const producer = new Producer(options);
  try {
    await producer.connect();
  } catch (error) {
    await producer.close().catch(() => undefined);
    throw error;
  }
  return producer;
}

/** writeDelimited() keeps an open batch per partition in WebAssembly memory: up to this many. */
const MAX_SPLIT_PARTITIONS = 64;

const NO_ID: ProducerIdAndEpoch = { producerId: -1n, epoch: -1 };

export class Producer<K = RawField, V = RawField> {
  readonly options: ProducerOptions<K, V>;
  readonly client: KafkaClient;
  readonly idempotent: boolean;
  readonly acks: -1 | 0 | 1;
  /** The `logger` option's logger (silent without it); the connections log through it too. */
  readonly logger: Logger;
  readonly stats: ProducerStats = { recordsAppended: 0, recordsAcked: 0, batchesAcked: 0, bytesAcked: 0, recordsFailed: 0, retries: 0, requests: 0, maxInFlightRequests: 0 };
  readonly #accumulator: Accumulator;
  readonly #sender: Sender;
  readonly #metrics: ProducerMetrics;
  /** KIP-714's push of the metrics (null with enableMetricsPush: false). */
  readonly #telemetry: TelemetryPusher | null;
  readonly #sticky: StickyPartitions;
  readonly #transactions: Transactions | null;
  #id: ProducerIdAndEpoch = NO_ID;
  #errors: ProducerError[] = [];
  #fatal: ProducerError | null = null;
  #closed = false;
  #flushWaiters: (() => void)[] = [];
  #idleCheck = false;
  #spaceWaiters: (() => void)[] = [];
  readonly #codec: CompressionName;
  /** Topic lookups in progress, shared by their callers. */
  readonly #lookups = new Map<string, Promise<TopicInfo>>();
  /** send() calls waiting to append, per topic, in call order: the last one's turn, and how many wait. */
  readonly #lines = new Map<string, { tail: Promise<void>; waiting: number }>();
  /** writeDelimited()'s open batches in WebAssembly memory, per topic. */
  readonly #split = new Map<string, SplitBatches>();
  /** send()'s string keys as UTF-8, to hash them (reused). */
  #keyScratch = new Uint8Array(256);

  constructor(options: ProducerOptions<K, V>) {
    this.options = options;
    this.logger = createLogger(options.logger, 'producer');
    this.client = new KafkaClient({ clientId: 'kafka-wire-producer', ...options, logger: this.logger });
    const acks = options.acks === 'all' || options.acks === undefined ? -1 : options.acks;
    if (acks !== -1 && acks !== 0 && acks !== 1) throw new RangeError(`acks must be 'all', -1, 0 or 1, not ${String(options.acks)}`);
    const transactional = options.transactionalId !== undefined;
    this.idempotent = transactional || (options.idempotent ?? acks === -1);
    if (options.idempotent === false && transactional) throw new RangeError('transactions need idempotence (idempotent: false given with a transactionalId)');
    if (this.idempotent && acks !== -1) throw new RangeError(`idempotence needs acks 'all' (acks ${acks} given); set idempotent: false`);
    this.acks = acks;
    this.#codec = options.compression ?? 'none';
    const batchBytes = options.batchBytes ?? 1_000_000;
    const maxInFlight = options.maxInFlight ?? 5;
    if (!(Number.isInteger(maxInFlight) && maxInFlight >= 1)) throw new RangeError('maxInFlight must be an integer >= 1');
    this.#accumulator = new Accumulator({
      batchBytes,
      lingerMs: options.lingerMs ?? 5,
      bufferBytes: options.bufferBytes ?? 64 * 1024 * 1024,
      maxRecordBytes: options.maxRecordBytes ?? 1_000_000,
    }, (state, columns) => this.#sealBatch(state, columns), () => this.#sender.schedule());
    this.#sticky = new StickyPartitions(batchBytes);
    this.#transactions = transactional ? new Transactions(this.client, options.transactionalId!, {
      identity: () => this.#id,
      added: () => this.#sender.schedule(),
    }) : null;
    this.#metrics = new ProducerMetrics(this.client.options.clientId ?? 'kafka-wire-producer', {
      inFlight: () => this.#sender.inFlight, bufferTotal: this.#accumulator.options.bufferBytes, buffered: () => this.#accumulator.buffered,
    });
    this.#telemetry = options.enableMetricsPush === false ? null
      : new TelemetryPusher(this.client, () => this.metrics(), this.logger.enabled('debug') ? (m) => this.logger.debug(m) : undefined);
    this.#sender = new Sender({
      client: this.client,
      accumulator: this.#accumulator,
      identity: () => this.#id,
      bumpEpoch: async () => {
        this.#id = await initProducerId(() => this.client.anyConnection(), null, this.options.transactionTimeoutMs ?? 60_000, this.#id);
        return this.#id;
      },
      canSend: (state) => this.#transactions === null || this.#transactions.canSend(state),
      acked: (batch, baseOffset, requestMs) => this.#acked(batch, baseOffset, requestMs),
      sent: (inFlight, records) => {
        this.#metrics.sent(records);
        this.stats.requests++;
        if (inFlight > this.stats.maxInFlightRequests) this.stats.maxInFlightRequests = inFlight;
      },
      failed: (batch, error) => this.#failed(batch, error),
      split: (batch) => this.#splitBatch(batch),
      fatal: (error) => this.#onFatal(error),
    }, {
      acks, idempotent: this.idempotent, transactionalId: options.transactionalId ?? null,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      deliveryTimeoutMs: options.deliveryTimeoutMs ?? 120_000,
      retryBackoffMs: options.retryBackoffMs ?? 100,
      maxInFlight,
      maxRequestBytes: options.maxRequestBytes ?? 8 * 1024 * 1024,
      maxProduceVersion: transactional ? TRANSACTIONAL_MAX_PRODUCE_VERSION : undefined,
    });
  }

  /** The producer id and epoch (-1n / -1 without idempotence). */
  get producerId(): ProducerIdAndEpoch { return this.#id; }

  /** True when write() would say false: await ready() before writing more. */
  get full(): boolean { return this.#accumulator.full; }

  /** The Java producer's metrics (producer-metrics: record-send-rate, request-latency-avg, buffer-available-bytes, ...) now. */
  metrics(): MetricValue[] { return this.#metrics.snapshot(); }

  /** Every metric name metrics() gives (for the prom-client and OpenTelemetry adapters). */
  metricNames(): { group: string; name: string }[] { return this.#metrics.metrics.names(); }

  /** Bytes of records held: appended, not yet acknowledged. */
  get bufferedBytes(): number { return this.#accumulator.buffered; }

  /** Connects (createProducer() calls it): metadata, and the producer id when idempotent. */
  async connect(): Promise<void> {
    if (this.#codec === 'zstd') await initZstd();
    await this.client.metadata([], false);
    this.#telemetry?.start();
    if (this.#transactions !== null) {
      const tx = this.#transactions;
      this.#id = await initProducerId(() => tx.coordinator(), tx.transactionalId, this.options.transactionTimeoutMs ?? 60_000);
    } else if (this.idempotent) {
      this.#id = await initProducerId(() => this.client.anyConnection(), null, this.options.transactionTimeoutMs ?? 60_000);
    }
  }

  /**
   * The topic's metadata (fetched once; the streaming write() needs it first). Throws UNKNOWN_TOPIC.
   * Concurrent callers share one lookup (500 first sends: one Metadata request).
   */
  async topic(name: string): Promise<TopicInfo> {
    const known = this.#usable(name);
    if (known !== undefined) return known;
    let lookup = this.#lookups.get(name);
    if (lookup === undefined) {
      lookup = this.#lookUp(name).finally(() => { this.#lookups.delete(name); });
      this.#lookups.set(name, lookup);
    }
    return lookup;
  }

  async #lookUp(name: string): Promise<TopicInfo> {
    try {
      const info = await this.client.topic(name, { allowAutoTopicCreation: this.options.allowAutoTopicCreation ?? true, attempts: 6 });
      this.#telemetry?.start();
      return info;
    } catch (error) {
      if (error instanceof ConnectionError) throw error;
      throw new ProducerError('UNKNOWN_TOPIC', `topic ${name}: ${(error as Error).message.replace(/^topic \S+: /, '')}`, { topic: name, cause: error });
    }
  }

  /** The topic's cached metadata when records can be partitioned with it now. */
  #usable(name: string): TopicInfo | undefined {
    const known = this.client.topics.get(name);
    return known !== undefined && known.errorCode === 0 && known.partitions.length > 0 ? known : undefined;
  }

  /**
   * Sends records to `topic` and resolves, once every one is acknowledged, with each record's
   * partition and offset (in the order given). Rejects with the first failed batch's ProducerError.
   * Records of successive calls are appended in call order, also while the topic's metadata is
   * being looked up or the buffer is full (so a partition holds them in send() order).
   */
  send(topic: string, records: RecordToSend<K, V> | readonly RecordToSend<K, V>[], options: { partition?: number } = {}): Promise<RecordMetadata[]> {
    // Not an async function: #append's promise is handed back as it is (an async function's own
    // promise, resolved with it, would take three more microtasks to settle after the answer).
    let list: readonly RecordInput[];
    let info: TopicInfo | undefined;
    try {
      list = serializeRecords(topic, Array.isArray(records) ? records : [records as RecordToSend<K, V>], this.options);
      this.#checkOpen();
      this.#transactions?.checkAppend();
      for (let i = 0; i < list.length; i++) checkRecord(list[i]!, i); // a refused call appends nothing
      info = this.#usable(topic);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#lines.has(topic) && info !== undefined && !this.#accumulator.full) return this.#append(topic, list, info, options);
    return this.#sendInLine(topic, list, info, options);
  }

  /**
   * send() behind the earlier calls for the topic still waiting, for its metadata (one lookup for
   * all) and for room in the buffer. Its place in line is taken before it returns.
   */
  async #sendInLine(topic: string, list: readonly RecordInput[], info: TopicInfo | undefined, options: { partition?: number }): Promise<RecordMetadata[]> {
    let line = this.#lines.get(topic);
    const lookup = info === undefined ? this.topic(topic) : undefined;
    if (line === undefined) this.#lines.set(topic, line = { tail: Promise.resolve(), waiting: 0 });
    const entry = line;
    entry.waiting++;
    const appended = entry.tail.then(async () => {
      let ready = (lookup === undefined ? undefined : await lookup) ?? this.#usable(topic) ?? await this.topic(topic);
      while (this.#accumulator.full) {
        await this.ready();
        this.#checkOpen();
      }
      this.#checkOpen();
      ready = this.#usable(topic) ?? ready;
      return { acked: this.#append(topic, list, ready, options) };
    }).finally(() => {
      if (--entry.waiting === 0 && this.#lines.get(topic) === entry) this.#lines.delete(topic);
    });
    entry.tail = appended.then(() => undefined, () => undefined);
    return (await appended).acked;
  }

  #append(topic: string, list: readonly RecordInput[], info: TopicInfo, options: { partition?: number }): Promise<RecordMetadata[]> {
    return new Promise<RecordMetadata[]>((resolve, reject) => {
      const op: SendOp = { results: new Array(list.length), pending: 0, resolve, reject, failed: false };
      const now = Date.now();
      try {
        for (let i = 0; i < list.length; i++) {
          const r = list[i]!;
          let partition: number;
          let size: number;
          let record = r;
          if (typeof r.key === 'string' && options.partition === undefined && this.options.partitioner === undefined) {
            // The default partitioner hashes the key's UTF-8 bytes in a reused buffer; the batch
            // writes the string itself (no Uint8Array nor record copy per string key).
            let scratch = this.#keyScratch;
            if (scratch.length < r.key.length * 3) scratch = this.#keyScratch = new Uint8Array(r.key.length * 3);
            const n = encodeUtf8Into(r.key, scratch, 0);
            partition = partitionForKey(scratch, info.partitions.length, 0, n);
            size = fieldBytes(r, null) + n;
          } else {
            const key = r.key == null ? null : typeof r.key === 'string' ? utf8.encode(r.key) : r.key;
            size = fieldBytes(r, key);
            partition = this.#partitionFor(info, key, size, options.partition);
            // A copy only for a key encoded here (an absent key is null to the batch as it is).
            if (key !== null && key !== r.key) record = { ...r, key };
          }
          op.results[i] = { topic, partition, offset: -1n };
          const state = this.#accumulator.state(topic, partition);
          this.#accumulator.append(state, record, size, now, op, i);
          this.#accumulator.soon(state);
          this.stats.recordsAppended++;
        }
      } catch (error) {
        op.failed = true;
        reject(error);
        return;
      }
      if (op.pending === 0) resolve(op.results);
    });
  }

  /**
   * The streaming form: appends one record without a promise; false when the buffer is full
   * (await ready() before writing more). Failures go to onDeliveryError and flush(). The topic's
   * metadata must be loaded (await topic(name) once).
   */
  write(topic: string, key: Uint8Array | string | null, value: Uint8Array | string | null, partition?: number,
    headers?: RecordInput['headers']): boolean {
    const info = this.#known(topic);
    const k = typeof key === 'string' ? utf8.encode(key) : key;
    const record: RecordInput = { key: k, value, headers };
    const size = fieldBytes(record, k);
    const p = this.#partitionFor(info, k, size, partition);
    this.#accumulator.append(this.#accumulator.state(topic, p), record, size, Date.now(), null, 0);
    this.stats.recordsAppended++;
    return !this.#accumulator.full;
  }

  /**
   * write() for records that are ranges of one buffer: key src[keyStart, keyEnd) (keyStart < 0:
   * null key), value src[valueStart, valueEnd). The bytes are copied once, no view made.
   */
  writeRange(topic: string, src: Uint8Array, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, partition?: number): boolean {
    const info = this.#known(topic);
    let p = partition;
    if (p === undefined) {
      const size = (keyStart < 0 ? 0 : keyEnd - keyStart) + valueEnd - valueStart;
      p = keyStart < 0 || this.options.partitioner !== undefined
        ? this.#partitionFor(info, keyStart < 0 ? null : src.subarray(keyStart, keyEnd), size, undefined)
        : partitionForKey(src, info.partitions.length, keyStart, keyEnd);
    } else if (!(p >= 0 && p < info.partitions.length)) this.#badPartition(info, p);
    this.#accumulator.appendRange(this.#accumulator.state(topic, p), src, keyStart, keyEnd, valueStart, valueEnd, Date.now());
    this.stats.recordsAppended++;
    return !this.#accumulator.full;
  }

  /**
   * The bulk form for delimited bytes (kcat -P's input): the records of `bytes[start, end)`, each
   * ended by the byte `recordDelimiter` and split into key and value at its first `keyDelimiter`
   * (-1: no keys), are split and encoded in one pass in WebAssembly memory, each into the open
   * batch of its partition (`partition`, else murmur2 of the key; sticky partitions for records
   * without a key). Returns the bytes consumed: whole records, all of them with `final` (the end
   * ends a last record), and fewer when the buffer filled up (await ready(), then call again with
   * the rest). A record over maxRecordBytes throws RECORD_TOO_LARGE naming its number (`record`,
   * from 1, among all records written). Topics of more than 64 partitions are refused (RangeError):
   * use writeRange() there. The open batches take about 1.6 × max(batchBytes, maxRecordBytes) of
   * WebAssembly memory per partition, from the first call to close().
   */
  writeDelimited(topic: string, bytes: Uint8Array, start: number, end: number,
    options: { recordDelimiter: number; keyDelimiter: number; partition?: number; final?: boolean }): number {
    const info = this.#known(topic);
    const P = info.partitions.length;
    const given = options.partition;
    if (given !== undefined && !(Number.isInteger(given) && given >= 0 && given < P)) this.#badPartition(info, given);
    const acc = this.#accumulator;
    let split = this.#split.get(topic);
    if (split === undefined || split.layout.partitions !== P) {
      if (P > MAX_SPLIT_PARTITIONS) throw new RangeError(`writeDelimited: ${topic} has ${P} partitions, more than ${MAX_SPLIT_PARTITIONS}`);
      if (split !== undefined) for (const b of split.batches) acc.seal(acc.state(topic, b.partition));
      split = new SplitBatches({ partitions: P, batchBytes: acc.options.batchBytes, maxFieldBytes: acc.options.maxRecordBytes - RecordColumns.recordSize(0) });
      this.#split.set(topic, split);
    }
    const hashed = options.keyDelimiter >= 0 && given === undefined && this.options.partitioner === undefined;
    if (options.keyDelimiter >= 0 && given === undefined && !hashed) throw new RangeError('writeDelimited: a custom partitioner needs writeRange()');
    const now = Date.now();
    const states = split.batches.map((b) => acc.state(topic, b.partition));
    let added = 0;
    const grew = (p: number, records: number, bytes: number, wasEmpty: boolean) => {
      acc.grewInPlace(states[p]!, split!.batches[p]!, records, bytes, wasEmpty, now);
      added = bytes;
    };
    const rd = options.recordDelimiter;
    const kd = options.keyDelimiter;
    const final = options.final === true;
    split.load(bytes, start, end);
    try {
      split.nextRecord = acc.appended;
      let at = 0;
      const length = end - start;
      while (at < length) {
        // Records without a key: the sticky partition, until a batch's worth of bytes went there.
        const fixed = given ?? (hashed ? -1 : this.#sticky.next(topic, P, 0));
        added = 0;
        let r = split.split(at, fixed, rd, kd, final, now, grew);
        if (fixed >= 0 && given === undefined) this.#sticky.next(topic, P, added);
        at += r.consumed;
        if (r.reason === SPLIT_NO_KEY) {
          // One record without a key among keyed ones: its own sticky partition.
          const stop = bytes.indexOf(rd, start + at);
          if ((stop < 0 || stop >= end) && !final) break; // it has not ended yet
          const recordEnd = stop < 0 || stop >= end ? length : stop - start + 1;
          const p = this.#sticky.next(topic, P, recordEnd - at);
          r = split.split(at, p, rd, kd, final, now, grew, recordEnd);
          at += r.consumed;
          if (r.reason === SPLIT_NEED_MORE) { if (acc.full) break; continue; }
        }
        if (r.reason === SPLIT_FULL) acc.seal(states[r.partition]!);
        else if (r.reason === SPLIT_NEED_MORE) break;
        else {
          const stop = bytes.indexOf(rd, start + at);
          const size = (stop < 0 || stop >= end ? end : stop) - (start + at);
          throw new ProducerError('RECORD_TOO_LARGE', `record ${acc.appended + 1} for ${topic} is ${size} bytes, above the limit of ${acc.options.maxRecordBytes} (maxRecordBytes)`,
            { topic, record: acc.appended + 1, size });
        }
        if (acc.full) break;
      }
      this.stats.recordsAppended = acc.appended;
      return at;
    } finally {
      split.release();
    }
  }

  /** Resolves when the buffer has room again (or the producer failed or closed). */
  ready(): Promise<void> {
    if (!this.#accumulator.full || this.#fatal !== null || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#spaceWaiters.push(resolve));
  }

  /**
   * Sends everything appended now (no lingering) and resolves when all of it is acknowledged;
   * rejects with the first delivery error of write()/writeRange() records since the last flush.
   */
  async flush(): Promise<void> {
    this.#accumulator.sealLingered(true);
    this.#sender.schedule();
    while (!(this.#accumulator.empty && this.#sender.inFlight === 0) && this.#fatal === null) {
      await new Promise<void>((resolve) => this.#flushWaiters.push(resolve));
    }
    if (this.#fatal !== null) throw this.#fatal;
    const errors = this.#errors;
    this.#errors = [];
    if (errors.length > 0) {
      const first = errors[0]!;
      if (errors.length > 1) first.message += ` (and ${errors.length - 1} more failed batches)`;
      throw first;
    }
  }

  // ---- transactions ----

  beginTransaction(): void {
    this.#checkOpen();
    this.#tx().begin();
  }

  /** Commits the consumer group's offsets with the running transaction (consume-transform-produce). */
  async sendOffsetsToTransaction(offsets: readonly OffsetToCommit[], group: GroupMetadata | string): Promise<void> {
    const tx = this.#tx();
    await tx.sendOffsets(offsets, typeof group === 'string' ? { groupId: group } : group);
    tx.offsetsSent();
  }

  /** Flushes the transaction's records and commits them; a failure leaves abortTransaction() to call. */
  async commitTransaction(): Promise<void> {
    const tx = this.#tx();
    if (tx.state !== 'in-transaction') await tx.end(true); // rejects with the state error
    try {
      await this.flush();
    } catch (error) {
      if (error instanceof ProducerError && tx.state === 'in-transaction') tx.fail(error);
      throw error;
    }
    await tx.end(true);
  }

  /** Drops what was not sent, waits for what is in flight, and aborts the transaction. */
  async abortTransaction(): Promise<void> {
    const tx = this.#tx();
    if (tx.state === 'fenced') throw tx.error!;
    const lostSequence = tx.error?.code === 'TRANSACTION_ABORTABLE' && (tx.error.errorCode === 45 || tx.error.errorCode === 59);
    await this.#sender.idle();
    const aborted = new ProducerError('TRANSACTION_ABORTABLE', 'the transaction was aborted');
    for (const state of this.#accumulator.states()) {
      if (state.open !== null) {
        for (const w of state.openWaiters ?? []) this.#settleOp(w.op, aborted);
        this.#accumulator.buffered -= state.open.sizeInBytes - BATCH_OVERHEAD;
        state.open.reset();
        if (state.open instanceof RecordColumns) state.spare = state.open;
        state.open = null;
        state.openWaiters = null;
      }
      const dropped = state.queue.splice(0);
      if (dropped.length > 0) state.nextSequence = dropped[0]!.baseSequence; // they never reached the broker
      state.firstWaiting = 0;
      state.retrying = false;
      for (const b of dropped) this.#failed(b, aborted, false);
    }
    this.#errors = [];
    await tx.end(false);
    if (lostSequence) {
      // The broker lost our sequence: a new epoch numbers every partition from 0 again (KIP-360).
      this.#id = await initProducerId(() => tx.coordinator(), tx.transactionalId, this.options.transactionTimeoutMs ?? 60_000, this.#id);
      for (const state of this.#accumulator.states()) state.nextSequence = 0;
    }
  }

  /** Flushes (unless `force`), then closes every connection. */
  async close(options: { force?: boolean } = {}): Promise<void> {
    if (this.#closed) return;
    try {
      if (!options.force && this.#fatal === null && this.client.brokers.size > 0) await this.flush().catch(() => undefined);
    } finally {
      this.#closed = true;
      this.logger.debug('closing', { recordsAcked: this.stats.recordsAcked, recordsFailed: this.stats.recordsFailed });
      for (const split of [...this.#split.values()].reverse()) split.dispose();
      this.#split.clear();
      this.#sender.stop();
      this.#accumulator.stop();
      this.#wake();
      await this.#transactions?.close();
      await this.#telemetry?.close();
      await this.client.close();
    }
  }

  // ---- internals ----

  #tx(): Transactions {
    if (this.#transactions === null) throw new ProducerError('TRANSACTION_STATE', 'this producer has no transactionalId');
    return this.#transactions;
  }

  #checkOpen(): void {
    if (this.#closed) throw new ProducerError('CLOSED', 'the producer is closed');
    if (this.#fatal !== null) throw this.#fatal;
  }

  #known(topic: string): TopicInfo {
    const info = this.client.topics.get(topic);
    if (info === undefined || info.partitions.length === 0) {
      this.#checkOpen();
      throw new ProducerError('UNKNOWN_TOPIC', `topic ${topic}: load its metadata first (await producer.topic('${topic}'))`, { topic });
    }
    if (this.#fatal !== null || this.#closed) this.#checkOpen();
    if (this.#transactions !== null) this.#transactions.checkAppend();
    return info;
  }

  #badPartition(info: TopicInfo, p: number): never {
    throw new ProducerError('UNKNOWN_TOPIC', `topic ${info.name} has no partition ${p} (it has ${info.partitions.length})`, { topic: info.name, partition: p });
  }

  #partitionFor(info: TopicInfo, key: Uint8Array | null, size: number, given: number | undefined): number {
    const count = info.partitions.length;
    let p: number;
    if (given !== undefined) p = given;
    else if (this.options.partitioner !== undefined) p = this.options.partitioner(info.name, key, count);
    else p = key === null ? this.#sticky.next(info.name, count, size) : keyedPartition(key, count);
    if (!(Number.isInteger(p) && p >= 0 && p < count)) this.#badPartition(info, p);
    return p;
  }

  #sealBatch(state: PartitionState, columns: OpenBatch): ProducerBatch {
    const seq = this.idempotent ? state.nextSequence : -1;
    const bytes = columns.encode({
      producerId: this.#id.producerId, producerEpoch: this.#id.epoch, baseSequence: seq,
      isTransactional: this.#transactions !== null, compression: this.#codec,
    }, this.options.compressionOptions);
    if (this.idempotent) state.nextSequence = nextSequence(seq, columns.count);
    return new ProducerBatch(state, columns.count, bytes, seq, Date.now(),
      columns instanceof SplitBatch ? columns.recordNumbers() : state.openNumbers.slice(0, columns.count), state.openWaiters,
      columns.sizeInBytes - BATCH_OVERHEAD);
  }

  /**
   * Two batches of the records of `batch` (first half, second half), encoded again with its
   * producer id, epoch and compression, the first with its base sequence and the second after it;
   * send() callers waiting on it wait on the halves; its buffered bytes are shared between them.
   */
  #splitBatch(batch: ProducerBatch): ProducerBatch[] {
    const decoded = decodeRecordBatches(batch.bytes).batches[0]!;
    const records = decoded.records;
    const half = Math.ceil(records.length / 2);
    const pieces: ProducerBatch[] = [];
    let accounted = batch.accounted;
    for (const [from, to] of [[0, half], [half, records.length]] as const) {
      const seq = batch.baseSequence < 0 ? -1 : nextSequence(batch.baseSequence, from);
      const bytes = encodeRecordBatch({
        producerId: decoded.producerId, producerEpoch: decoded.producerEpoch, baseSequence: seq,
        isTransactional: decoded.isTransactional, compression: this.#codec, baseTimestamp: decoded.baseTimestamp,
        records: records.slice(from, to).map((r) => ({ key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp })),
      }, this.options.compressionOptions);
      const share = to === records.length ? accounted : Math.floor(batch.accounted * (to - from) / records.length);
      accounted -= share;
      pieces.push(new ProducerBatch(batch.partitionState, to - from, bytes, seq, batch.sealedAt, batch.recordNumbers.subarray(from, to),
        splitWaiters(batch.waiters, from, to), share));
    }
    // A send() call whose records went into both halves now waits for one batch more.
    for (const w of batch.waiters ?? []) {
      if (pieces.every((piece) => piece.waiters?.some((x) => x.op === w.op))) w.op.pending++;
    }
    return pieces;
  }

  #acked(batch: ProducerBatch, baseOffset: bigint, requestMs: number): void {
    this.stats.recordsAcked += batch.count;
    this.stats.batchesAcked++;
    this.stats.bytesAcked += batch.bytes.length;
    if (batch.attempts > 1) this.stats.retries += batch.attempts - 1;
    if (batch.waiters !== null) {
      for (const w of batch.waiters) {
        const op = w.op;
        if (!op.failed) {
          for (let i = 0; i < w.indices.length; i++) {
            op.results[w.indices[i]!]!.offset = baseOffset < 0n ? -1n : baseOffset + BigInt(w.firstDelta + i);
          }
        }
        this.#settleOp(op, null);
      }
    }
    const ack = {
      topic: batch.topic, partition: batch.partition, baseOffset, records: batch.count, bytes: batch.bytes.length,
      latencyMs: Date.now() - batch.sealedAt, requestMs, attempts: batch.attempts,
    };
    this.#metrics.acked(ack);
    this.options.onBatchAcked?.(ack);
    // Written and answered: nothing reads its bytes again (writeDelimited's batches reuse them).
    this.#split.get(batch.topic)?.recycle(batch.bytes);
    this.#released(batch);
  }

  #failed(batch: ProducerBatch, error: ProducerError, report = true): void {
    this.stats.recordsFailed += batch.count;
    this.#metrics.failed(batch.count);
    let owned = false;
    if (batch.waiters !== null) {
      for (const w of batch.waiters) { this.#settleOp(w.op, error); owned = true; }
    }
    if (report) {
      if (!owned && this.#errors.length < 100) this.#errors.push(error);
      this.logger.warn(error.message, { code: error.code, topic: error.topic, partition: error.partition, records: batch.count });
      this.options.onDeliveryError?.(error);
      if (this.#transactions !== null && this.#transactions.state === 'in-transaction') this.#transactions.fail(error);
    }
    this.#released(batch);
  }

  #settleOp(op: SendOp, error: ProducerError | null): void {
    op.pending--;
    if (op.failed) return;
    if (error !== null) { op.failed = true; op.reject(error); return; }
    if (op.pending === 0) op.resolve(op.results);
  }

  #released(batch: ProducerBatch): void {
    this.#accumulator.buffered -= batch.accounted;
    this.#wake();
  }

  #wake(): void {
    // Runs on every acknowledgement: each list is looked at only when someone waits in it (empty
    // looks at every partition).
    if (this.#spaceWaiters.length > 0 && (!this.#accumulator.full || this.#fatal !== null || this.#closed)) {
      const w = this.#spaceWaiters;
      this.#spaceWaiters = [];
      for (const f of w) f();
    }
    if (this.#flushWaiters.length === 0) return;
    if ((this.#accumulator.empty && this.#sender.inFlight === 0) || this.#fatal !== null || this.#closed) {
      const w = this.#flushWaiters;
      this.#flushWaiters = [];
      for (const f of w) f();
    } else if (this.#sender.inFlight > 0 && this.#accumulator.empty && !this.#idleCheck) {
      // The last batch settled before its request did: check again once the request has.
      this.#idleCheck = true;
      void this.#sender.idle().then(() => { this.#idleCheck = false; this.#wake(); });
    }
  }

  #onFatal(error: ProducerError): void {
    if (this.#transactions !== null) {
      this.#transactions.fail(error);
      if (error.code !== 'FENCED') return; // abortable: abortTransaction() clears it
    }
    if (this.#fatal !== null) return;
    this.#fatal = error;
    for (const state of this.#accumulator.states()) {
      for (const b of state.queue.splice(state.firstWaiting)) this.#failed(b, error, false);
    }
    this.#wake();
  }
}

const utf8 = new TextEncoder();

/** The send() waiters of a batch's records [from, to), renumbered from `from` (each op waits on one more batch per extra piece). */
function splitWaiters(waiters: Waiter[] | null, from: number, to: number): Waiter[] | null {
  if (waiters === null) return null;
  const out: Waiter[] = [];
  for (const w of waiters) {
    const first = Math.max(w.firstDelta, from);
    const last = Math.min(w.firstDelta + w.indices.length, to);
    if (first >= last) continue;
    out.push({ op: w.op, indices: w.indices.slice(first - w.firstDelta, last - w.firstDelta), firstDelta: first - from });
  }
  return out.length > 0 ? out : null;
}

/** Refuses, before any record of a send() call is appended, a record the batch could not encode. */
function checkRecord(r: RecordInput, index: number): void {
  const bad = (field: string, what: string) => recordsError('INVALID_ARGUMENT', -1, `records[${index}].${field}`, what);
  if (r === null || typeof r !== 'object') throw bad('', 'a record must be an object ({ key, value, headers, timestamp })');
  if (!isField(r.key)) throw bad('key', 'record keys, values and headers must be Uint8Array, string or null');
  if (!isField(r.value)) throw bad('value', 'record keys, values and headers must be Uint8Array, string or null');
  if (r.timestamp !== undefined && !Number.isSafeInteger(Number(r.timestamp))) throw bad('timestamp', 'timestamp must be a safe integer');
  if (r.headers === undefined) return;
  if (!Array.isArray(r.headers)) throw bad('headers', 'headers must be an array of { key, value }');
  for (let j = 0; j < r.headers.length; j++) {
    const h = r.headers[j];
    if (h === null || typeof h !== 'object' || h.key == null) throw bad(`headers[${j}].key`, 'header keys cannot be null');
    if (!isField(h.key) || !isField(h.value)) throw bad(`headers[${j}]`, 'record keys, values and headers must be Uint8Array, string or null');
  }
}

function isField(x: unknown): boolean {
  return x == null || typeof x === 'string' || x instanceof Uint8Array;
}

/** Key, value and header bytes of a record (strings counted by UTF-16 length: a lower bound). */
function fieldBytes(r: RecordInput, key: Uint8Array | null): number {
  let n = (key?.length ?? 0) + (r.value == null ? 0 : r.value.length);
  if (r.headers !== undefined) for (const h of r.headers) n += h.key.length + (h.value == null ? 0 : h.value.length);
  return n;
}

export { errorName };
