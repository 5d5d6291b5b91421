// kafkajs's producer over kafka-wire's own (src/producer/): send() and sendBatch() resolve to
// kafkajs's per-partition RecordMetadata, transactions keep kafkajs's shape, and messages keep
// kafkajs's partitioners. kafkajs sends at once, so the kafka-wire producers here do not linger.
// kafkajs takes acks and compression per call while kafka-wire sets them per producer: one
// kafka-wire producer is made for each (acks, compression) an app uses, on first use.
import { Producer as WireProducer, type ProducerOptions, type RecordMetadata as WireMetadata } from '../producer/index.js';
import type { RecordInput } from '../records/types.js';
import type { TopicInfo } from '../wire/client.js';
import { COMPRESSION_NAME, CompressionTypes } from './constants.js';
import { fromWire, KafkaJSNonRetriableError } from './errors.js';
import { Instrumentation } from './instrumentation.js';
import type { Logger } from './logger.js';
import { Partitioners } from './partitioners.js';
import type {
  IHeaders, Message, Offsets, PartitionerArgs, PartitionMetadata, Producer, ProducerBatch, ProducerConfig, ProducerEvents, ProducerRecord,
  RecordMetadata, Transaction,
} from './types.js';

/** What a producer needs from its Kafka: the client options (brokers resolved) and a logger. */
export interface ClientContext {
  options(): Promise<Omit<ProducerOptions, 'acks'>>;
  logger: Logger;
}

export const PRODUCER_EVENTS: ProducerEvents = {
  CONNECT: 'producer.connect',
  DISCONNECT: 'producer.disconnect',
  REQUEST: 'producer.network.request',
  REQUEST_TIMEOUT: 'producer.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'producer.network.request_queue_size',
};

const toBytes = (v: Buffer | string | null | undefined): Uint8Array | string | null => (v === undefined ? null : v);

/** kafkajs headers ({ name: value | value[] }) as a record's header list. */
export function headerList(headers: IHeaders | undefined): { key: string; value: Uint8Array | string | null }[] | undefined {
  if (headers === undefined) return undefined;
  const out: { key: string; value: Uint8Array | string | null }[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.push({ key, value: v });
    else out.push({ key, value });
  }
  return out;
}

function recordOf(m: Message): RecordInput {
  if (m === null || typeof m !== 'object') throw new KafkaJSNonRetriableError(`Invalid message: ${String(m)}`);
  if (m.value === undefined) throw new KafkaJSNonRetriableError('Invalid message without value');
  // Without headers or a timestamp a kafkajs message is already a record as kafka-wire takes it
  // (its partition field is not read): no object per message.
  if (m.headers === undefined && (m.timestamp === undefined || m.timestamp === null) && m.key !== undefined) return m as RecordInput;
  const r: RecordInput = { key: toBytes(m.key), value: toBytes(m.value), headers: headerList(m.headers) };
  if (m.timestamp !== undefined && m.timestamp !== null) r.timestamp = Number(m.timestamp);
  return r;
}

export function partitionMetadataOf(info: TopicInfo): PartitionMetadata[] {
  return info.partitions.map((p) => ({ partitionErrorCode: p.errorCode, partitionId: p.partition, leader: p.leader, replicas: p.replicas, isr: p.isr }));
}

/**
 * kafka-wire's per-record results as kafkajs's: one entry per topic-partition, with its base
 * offset. kafka-wire's producer does not hand on the log start offset or append time: -1, unknown.
 */
function perPartition(results: WireMetadata[]): RecordMetadata[] {
  const out: RecordMetadata[] = [];
  const lowest: bigint[] = [];
  const slots = new Map<string, number[]>(); // topic → partition → index in out
  let lastTopic: string | undefined;
  let lastSlots: number[] = [];
  for (const r of results) {
    if (r.topic !== lastTopic) {
      lastTopic = r.topic;
      let s = slots.get(r.topic);
      if (s === undefined) slots.set(r.topic, s = []);
      lastSlots = s;
    }
    const at = lastSlots[r.partition];
    if (at === undefined) {
      lastSlots[r.partition] = out.length;
      out.push({ topicName: r.topic, partition: r.partition, errorCode: 0, baseOffset: '', logAppendTime: '-1', logStartOffset: '-1' });
      lowest.push(r.offset);
    } else if (r.offset >= 0n && lowest[at]! > r.offset) lowest[at] = r.offset;
  }
  for (let i = 0; i < out.length; i++) out[i]!.baseOffset = String(lowest[i]);
  return out;
}

export class KafkaJSProducer implements Producer {
  readonly events = PRODUCER_EVENTS;
  readonly #context: ClientContext;
  readonly #config: ProducerConfig;
  readonly #instrumentation = new Instrumentation({ request: PRODUCER_EVENTS.REQUEST, timeout: PRODUCER_EVENTS.REQUEST_TIMEOUT });
  readonly #partition: (args: PartitionerArgs) => number;
  /**
   * The partitioner is kafkajs's default (the Java client's murmur2 for keys): keyed messages
   * without a partition go to the kafka-wire producer as they are, which picks the same
   * partitions (one call per topic, each key encoded once).
   */
  readonly #keysByWire: boolean;
  /** kafka-wire producers by `${acks}/${codec}`; the transactional one is the only one when transactional. */
  readonly #producers = new Map<string, Promise<WireProducer>>();
  #connected = false;
  #transaction: KafkaJSTransaction | null = null;
  readonly #log: Logger;

  constructor(context: ClientContext, config: ProducerConfig = {}) {
    this.#context = context;
    this.#config = config;
    this.#log = context.logger.namespace('Producer');
    this.#partition = (config.createPartitioner ?? Partitioners.DefaultPartitioner)();
    const p = config.createPartitioner;
    this.#keysByWire = p === undefined || p === Partitioners.DefaultPartitioner || p === Partitioners.JavaCompatiblePartitioner;
  }

  get #transactional(): boolean { return this.#config.transactionalId !== undefined; }

  /**
   * The kafka-wire producer for acks and a codec (made and connected on first use); with
   * `inTransaction`, the transactional one. (kafkajs lets a transactional producer send outside
   * a transaction too: those records go through a plain idempotent producer.)
   */
  #producer(acks: number, compression: number, inTransaction = false): Promise<WireProducer> {
    const codec = COMPRESSION_NAME[compression];
    if (codec === undefined) throw new KafkaJSNonRetriableError(`Unsupported compression codec ${compression}`);
    if (acks !== -1 && acks !== 0 && acks !== 1) throw new KafkaJSNonRetriableError(`Invalid acks ${acks}: kafka-wire takes -1, 0 or 1`);
    // A transaction has one producer id: its records all go through the one producer (and acks -1).
    const key = inTransaction ? 'tx' : `${acks}/${codec}`;
    let p = this.#producers.get(key);
    if (p === undefined) {
      p = this.#instrumentation.work(async () => {
        const c = this.#config;
        const base = await this.#context.options();
        const producer = new WireProducer({
          ...base,
          acks: inTransaction ? 'all' : (acks as -1 | 0 | 1),
          compression: inTransaction ? 'none' : codec,
          idempotent: inTransaction ? true : (c.idempotent ?? acks === -1),
          transactionalId: inTransaction ? c.transactionalId : undefined,
          transactionTimeoutMs: c.transactionTimeout,
          allowAutoTopicCreation: c.allowAutoTopicCreation ?? true,
          maxInFlight: c.maxInFlightRequests,
          retryBackoffMs: c.retry?.initialRetryTime ?? base.retryBackoffMs,
          lingerMs: 0,
        });
        try {
          await producer.connect();
        } catch (error) {
          await producer.close({ force: true }).catch(() => undefined);
          throw fromWire(error);
        }
        return producer;
      });
      this.#producers.set(key, p);
      p.catch(() => { if (this.#producers.get(key) === p) this.#producers.delete(key); });
    }
    return p;
  }

  async connect(): Promise<void> {
    // kafkajs connects to the cluster here; so does this (the default producer, or the transactional one).
    await this.#producer(-1, CompressionTypes.None, this.#transactional);
    if (!this.#connected) {
      this.#connected = true;
      this.#instrumentation.emit(PRODUCER_EVENTS.CONNECT);
    }
  }

  async disconnect(): Promise<void> {
    const all = [...this.#producers.values()];
    this.#producers.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close().catch(() => undefined)));
    if (this.#connected) {
      this.#connected = false;
      this.#instrumentation.emit(PRODUCER_EVENTS.DISCONNECT);
    }
  }

  isIdempotent(): boolean { return this.#config.idempotent === true || this.#transactional; }

  on(eventName: string, listener: (event: never) => void): () => void {
    return this.#instrumentation.on(eventName, Object.values(PRODUCER_EVENTS), listener);
  }

  logger(): Logger { return this.#log; }

  async send(record: ProducerRecord): Promise<RecordMetadata[]> {
    return this.sendBatch({ acks: record.acks, timeout: record.timeout, compression: record.compression, topicMessages: [{ topic: record.topic, messages: record.messages }] });
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    return this.sendNow(batch, false);
  }

  /** Sends a batch of topics' messages (the transaction's sends come here too, `inTransaction`). */
  sendNow(batch: ProducerBatch, inTransaction: boolean): Promise<RecordMetadata[]> {
    return this.#instrumentation.work(() => this.#sendNow(batch, inTransaction));
  }

  async #sendNow(batch: ProducerBatch, inTransaction: boolean): Promise<RecordMetadata[]> {
    const topicMessages = batch.topicMessages ?? [];
    for (const { topic, messages } of topicMessages) {
      if (typeof topic !== 'string' || topic === '') throw new KafkaJSNonRetriableError(`Invalid topic ${String(topic)}`);
      if (!Array.isArray(messages)) throw new KafkaJSNonRetriableError(`Invalid messages array [${String(messages)}] for topic "${topic}"`);
    }
    const producer = await this.#producer(batch.acks ?? -1, batch.compression ?? CompressionTypes.None, inTransaction);
    try {
      const sends: Promise<WireMetadata[]>[] = [];
      for (const { topic, messages } of topicMessages) {
        if (messages.length === 0) continue;
        if (this.#keysByWire && messages.every((m) => m !== null && typeof m === 'object' && m.key !== null && m.key !== undefined && (m.partition === null || m.partition === undefined))) {
          sends.push(producer.send(topic, messages.map(recordOf)));
          continue;
        }
        const info = await producer.topic(topic);
        const partitionMetadata = partitionMetadataOf(info);
        // Each partition's records in one call (kafka-wire's send takes a partition per call), in the order given.
        const byPartition = new Map<number, RecordInput[]>();
        for (const message of messages) {
          const record = recordOf(message);
          const partition = this.#partition({ topic, partitionMetadata, message });
          const list = byPartition.get(partition);
          if (list === undefined) byPartition.set(partition, [record]); else list.push(record);
        }
        for (const [partition, records] of byPartition) sends.push(producer.send(topic, records, { partition }));
      }
      const results = await Promise.all(sends);
      return perPartition(results.flat());
    } catch (error) {
      throw fromWire(error);
    }
  }

  async transaction(): Promise<Transaction> {
    if (!this.#transactional) throw new KafkaJSNonRetriableError('Must provide transactional id for transactional producer');
    if (this.#transaction !== null) throw new KafkaJSNonRetriableError('There is already an ongoing transaction for this producer. Please end the transaction before beginning another.');
    const producer = await this.#producer(-1, CompressionTypes.None, true);
    try {
      producer.beginTransaction();
    } catch (error) {
      throw fromWire(error);
    }
    const tx = new KafkaJSTransaction(this, producer, () => { this.#transaction = null; });
    this.#transaction = tx;
    return tx;
  }
}

export class KafkaJSTransaction implements Transaction {
  readonly #owner: KafkaJSProducer;
  readonly #producer: WireProducer;
  readonly #ended: () => void;
  #active = true;

  constructor(owner: KafkaJSProducer, producer: WireProducer, ended: () => void) {
    this.#owner = owner;
    this.#producer = producer;
    this.#ended = ended;
  }

  #check(): void {
    if (!this.#active) throw new KafkaJSNonRetriableError('Transaction is not active');
  }

  isActive(): boolean { return this.#active; }

  async send(record: ProducerRecord): Promise<RecordMetadata[]> {
    this.#check();
    return this.#owner.sendNow({ acks: record.acks, compression: record.compression, topicMessages: [{ topic: record.topic, messages: record.messages }] }, true);
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    this.#check();
    return this.#owner.sendNow(batch, true);
  }

  async sendOffsets({ consumerGroupId, topics }: Offsets & { consumerGroupId: string }): Promise<void> {
    this.#check();
    const offsets = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: BigInt(p.offset) })));
    try {
      await this.#producer.sendOffsetsToTransaction(offsets, consumerGroupId);
    } catch (error) {
      throw fromWire(error);
    }
  }

  async commit(): Promise<void> {
    this.#check();
    try {
      await this.#producer.commitTransaction();
    } catch (error) {
      throw fromWire(error);
    }
    this.#end();
  }

  async abort(): Promise<void> {
    this.#check();
    try {
      await this.#producer.abortTransaction();
    } catch (error) {
      throw fromWire(error);
    }
    this.#end();
  }

  #end(): void {
    this.#active = false;
    this.#ended();
  }
}
