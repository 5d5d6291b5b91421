// kafkajs's consumer over kafka-wire's own (src/consumer/): subscribe() then run() with
// eachMessage or eachBatch, kafkajs's commit points (after each batch, and on the interval or
// threshold asked), its retries of a failing handler (the record is fetched again, never
// committed past) and crash-and-restart, and its instrumentation events.
//
// How offsets stay honest: the kafka-wire consumer counts a batch done when the handler given to
// its run() resolves. This handler resolves only when every record of the batch was resolved
// (and, without autoCommit, never: kafkajs then commits nothing itself); otherwise it marks what
// was resolved, seeks the partition back to the first record not resolved, and throws
// INCOMPLETE, which the loop here takes as "go on", not as a failure.
import { Consumer as WireConsumer, ConsumerError, commitOffsets as commitWire, type PartitionBatch, type TopicPartitions as WireTopicPartitions } from '../consumer/index.js';
import { findCoordinator } from '../consumer/classic.js';
import { ApiKey } from '../generated/types.js';
import { KafkaClient } from '../wire/client.js';
import { int64, rowTape } from '../records/batch.js';
import * as abi from '../wasm/abi.js';
import type { ProducerOptions } from '../producer/index.js';
import { roundRobinAssignor, ROUND_ROBIN } from './assigners.js';
import {
  fromWire, KafkaJSError, KafkaJSNonRetriableError, KafkaJSNotImplemented, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError,
} from './errors.js';
import { Instrumentation } from './instrumentation.js';
import type { Logger } from './logger.js';
import type {
  Batch, Consumer, ConsumerConfig, ConsumerEvents, ConsumerRunConfig, ConsumerSubscribeTopic, ConsumerSubscribeTopics,
  EachBatchPayload, GroupDescription, IHeaders, KafkaMessage, Offsets, OffsetsByTopicPartition, RetryOptions,
  TopicPartitionOffset, TopicPartitionOffsetAndMetadata, TopicPartitions,
} from './types.js';

export interface ConsumerContext {
  options(): Promise<Omit<ProducerOptions, 'acks'>>;
  logger: Logger;
}

export const CONSUMER_EVENTS: ConsumerEvents = {
  HEARTBEAT: 'consumer.heartbeat',
  COMMIT_OFFSETS: 'consumer.commit_offsets',
  GROUP_JOIN: 'consumer.group_join',
  FETCH_START: 'consumer.fetch_start',
  FETCH: 'consumer.fetch',
  START_BATCH_PROCESS: 'consumer.start_batch_process',
  END_BATCH_PROCESS: 'consumer.end_batch_process',
  CONNECT: 'consumer.connect',
  DISCONNECT: 'consumer.disconnect',
  STOP: 'consumer.stop',
  CRASH: 'consumer.crash',
  REBALANCING: 'consumer.rebalancing',
  RECEIVED_UNSUBSCRIBED_TOPICS: 'consumer.received_unsubscribed_topics',
  REQUEST: 'consumer.network.request',
  REQUEST_TIMEOUT: 'consumer.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'consumer.network.request_queue_size',
};

/** kafkajs's defaults for its consumer (its docs' values). */
const DEFAULTS = {
  sessionTimeout: 30_000, rebalanceTimeout: 60_000, heartbeatInterval: 3_000, maxWaitTimeInMs: 5_000,
  maxBytesPerPartition: 1_048_576, maxBytes: 10_485_760, metadataMaxAge: 300_000,
} as const;
const RETRY_DEFAULTS = { initialRetryTime: 300, maxRetryTime: 30_000, factor: 0.2, multiplier: 2, retries: 5 } as const;

/** Thrown out of the kafka-wire run() handler: the batch is not done (see the top of the file). */
const INCOMPLETE = Symbol('incomplete batch');
/**
 * Thrown out of the kafka-wire run() handler with partitionsConsumedConcurrently above 1: the
 * batch was handed to a task of its own (or dropped as stale), so the kafka-wire consumer counts
 * nothing of it done; the task marks what the app resolved, as the one-at-a-time path does.
 */
const DETACHED = Symbol('batch handled by a task');

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const asBuffer = (b: Uint8Array | null): Buffer | null => (b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

function parseOffset(offset: unknown, what = 'offset'): bigint {
  let n: bigint;
  try {
    n = BigInt(offset as string);
  } catch {
    throw new KafkaJSNonRetriableError(`Invalid ${what}, expected a long received ${String(offset)}`);
  }
  if (n < 0n) throw new KafkaJSNonRetriableError('Offset must not be a negative number');
  return n;
}

function checkTopicPartitions(list: Array<{ topic: string; partitions?: number[] }>, verb: string): void {
  for (const tp of list) {
    if (!tp || !tp.topic) throw new KafkaJSNonRetriableError(`Invalid topic ${String(tp?.topic ?? tp)}`);
    if (tp.partitions !== undefined && (!Array.isArray(tp.partitions) || tp.partitions.some((p) => Number.isNaN(Number(p))))) {
      throw new KafkaJSNonRetriableError(`Array of valid partitions required to ${verb} specific partitions instead of ${String(tp.partitions)}`);
    }
  }
}

/** kafkajs's backoff: each wait the last times `multiplier`, give or take `factor`, at most maxRetryTime. */
function nextRetryTime(retry: Required<Omit<RetryOptions, 'restartOnFailure'>>, last: number): number {
  const jitter = last * retry.factor;
  const randomized = last - jitter + Math.random() * 2 * jitter;
  return Math.min(Math.round(randomized * retry.multiplier), retry.maxRetryTime);
}

type WireRecordBatch = PartitionBatch['batches'][number];

/** What every message of one record batch shares (its batchContext, where its bytes are). */
interface BatchView {
  b: WireRecordBatch;
  batchContext: object;
  bytes: ArrayBufferLike;
  at: number;
  /** Records before this offset delta are before the partition batch's first offset. */
  skip: number;
  /** Offsets and timestamps as numbers where exact (every real one). */
  exact: boolean;
  /** The log append time as a string ('' for create time). */
  appendTime: string;
  /** The batch's row tape (rowTape(); null: read through the accessors) and where its rows start. */
  rows: Int32Array | null;
  rowBase: number;
}

// The tape's word positions as this module's own constants (V8 folds them into the per-record code).
const ROW_WORDS = abi.ROW_WORDS, ROW_TIMESTAMP_DELTA = abi.ROW_TIMESTAMP_DELTA, ROW_OFFSET_DELTA = abi.ROW_OFFSET_DELTA,
  ROW_KEY_OFFSET = abi.ROW_KEY_OFFSET, ROW_KEY_LENGTH = abi.ROW_KEY_LENGTH, ROW_VALUE_OFFSET = abi.ROW_VALUE_OFFSET,
  ROW_VALUE_LENGTH = abi.ROW_VALUE_LENGTH, ROW_HEADER_COUNT = abi.ROW_HEADER_COUNT;

/** A kafka-wire batch's record batches (control batches left out) as BatchViews. */
function viewsOf(batch: PartitionBatch): BatchView[] {
  const out: BatchView[] = [];
  for (const b of batch.batches) {
    if (b.isControl) continue;
    const logAppend = b.timestampType === 'logAppend' && b.magic === 2;
    const tape = rowTape(b);
    out.push({
      b,
      batchContext: {
        firstOffset: String(b.baseOffset), firstTimestamp: String(b.baseTimestamp), partitionLeaderEpoch: b.partitionLeaderEpoch,
        inTransaction: b.isTransactional, isControlBatch: b.isControl, lastOffsetDelta: b.lastOffsetDelta,
        producerId: String(b.producerId), producerEpoch: b.producerEpoch, firstSequence: b.baseSequence,
        maxTimestamp: String(b.maxTimestamp), timestampType: logAppend ? 1 : 0, magicByte: b.magic,
      },
      bytes: b.data.buffer,
      at: b.data.byteOffset,
      skip: batch.firstOffset > b.baseOffset ? Number(batch.firstOffset - b.baseOffset) : 0,
      exact: Number.isSafeInteger(b.baseOffsetNumber + b.lastOffsetDelta),
      appendTime: logAppend ? String(b.maxTimestamp) : '',
      rows: tape?.rows ?? null,
      rowBase: tape?.base ?? 0,
    });
  }
  return out;
}

/**
 * Record i of a view as kafkajs's message, key and value as Buffers over the fetched bytes: its
 * columns read from the row tape (small code that V8 optimizes soon, while the first batch
 * runs), through the accessors for a batch without one.
 */
function messageAt(v: BatchView, i: number): KafkaMessage {
  const rows = v.rows;
  if (rows === null) {
    const b = v.b;
    const keySize = b.keySizeAt(i);
    const valueSize = b.valueSizeAt(i);
    return messageOf(v, i, b.timestampDeltaAt(i), b.offsetDeltaAt(i), keySize < 0 ? 0 : b.keyOffsetAt(i), keySize,
      valueSize < 0 ? 0 : b.valueOffsetAt(i), valueSize, b.headerCountAt(i));
  }
  const o = v.rowBase + i * ROW_WORDS;
  return messageOf(v, i, int64(rows[o + ROW_TIMESTAMP_DELTA]!, rows[o + ROW_TIMESTAMP_DELTA + 1]!), rows[o + ROW_OFFSET_DELTA]!,
    rows[o + ROW_KEY_OFFSET]!, rows[o + ROW_KEY_LENGTH]!, rows[o + ROW_VALUE_OFFSET]!, rows[o + ROW_VALUE_LENGTH]!, rows[o + ROW_HEADER_COUNT]!);
}

/** kafkajs's message from record i's columns (a size -1: null). */
function messageOf(v: BatchView, i: number, timestampDelta: number, offsetDelta: number, keyAt: number, keySize: number,
  valueAt: number, valueSize: number, headerCount: number): KafkaMessage {
  const b = v.b;
  return {
    magicByte: b.magic,
    attributes: 0,
    timestamp: v.appendTime !== '' ? v.appendTime : String(b.baseTimestampNumber + timestampDelta),
    offset: v.exact ? String(b.baseOffsetNumber + offsetDelta) : String(b.offsetAt(i)),
    key: keySize < 0 ? null : Buffer.from(v.bytes, v.at + keyAt, keySize),
    value: valueSize < 0 ? null : Buffer.from(v.bytes, v.at + valueAt, valueSize),
    headers: headerCount > 0 ? headersAt(b, i) : {},
    isControlRecord: false,
    batchContext: v.batchContext,
  } as KafkaMessage;
}

/** Record i's headers as kafkajs's object: a key given more than once has an array of its values. */
function headersAt(b: WireRecordBatch, i: number): IHeaders {
  const headers: IHeaders = {};
  for (const h of b.headersAt(i)) {
    const value = asBuffer(h.value) ?? Buffer.alloc(0);
    const have = headers[h.key];
    if (have === undefined) headers[h.key] = value;
    else if (Array.isArray(have)) have.push(value);
    else headers[h.key] = [have, value];
  }
  return headers;
}

/** The first record of a view at or after the partition batch's first offset (recordCount: none). */
function firstIndex(v: BatchView): number {
  let i = 0;
  if (v.skip > 0) while (i < v.b.recordCount && v.b.offsetDeltaAt(i) < v.skip) i++;
  return i;
}

/** The offsets of the first and last message of the views (null: no message). */
function messageRange(views: BatchView[]): { first: bigint; last: bigint } | null {
  let first: bigint | null = null;
  for (const v of views) {
    const i = firstIndex(v);
    if (i < v.b.recordCount) { first = v.b.offsetAt(i); break; }
  }
  if (first === null) return null;
  for (let j = views.length - 1; j >= 0; j--) {
    const v = views[j]!;
    const n = v.b.recordCount;
    if (n > 0 && v.b.offsetDeltaAt(n - 1) >= v.skip) return { first, last: v.b.offsetAt(n - 1) };
  }
  return null;
}

/** A kafka-wire batch's records from its first offset on, as kafkajs's messages (eachBatch's batch.messages). */
function messagesOf(views: BatchView[]): KafkaMessage[] {
  const out: KafkaMessage[] = [];
  for (const v of views) {
    const skip = v.skip;
    for (let i = firstIndex(v); i < v.b.recordCount; i++) {
      if (skip > 0 && v.b.offsetDeltaAt(i) < skip) continue;
      out.push(messageAt(v, i));
    }
  }
  return out;
}

function countMessages(views: BatchView[]): number {
  let n = 0;
  for (const v of views) for (let i = firstIndex(v); i < v.b.recordCount; i++) if (v.b.offsetDeltaAt(i) >= v.skip) n++;
  return n;
}

function batchOf(batch: PartitionBatch, messages: KafkaMessage[], range: { first: bigint; last: bigint } | null): Batch {
  const hw = batch.highWatermark;
  const last = range !== null ? range.last : batch.nextOffset - 1n;
  const first = range !== null ? range.first : null;
  return {
    topic: batch.topic,
    partition: batch.partition,
    highWatermark: String(hw),
    messages,
    isEmpty: () => first === null,
    firstOffset: () => (first === null ? null : String(first)),
    lastOffset: () => String(last),
    offsetLag: () => String(hw - 1n - last < 0n ? 0n : hw - 1n - last),
    offsetLagLow: () => String(first === null ? 0n : hw - 1n - first < 0n ? 0n : hw - 1n - first),
  };
}

/** The last message an eachMessage loop handled: its view and index (view null: none yet). */
interface Handled { view: BatchView | null; index: number }

interface RunState {
  config: ConsumerRunConfig;
  autoCommit: boolean;
  retry: Required<Omit<RetryOptions, 'restartOnFailure'>> & { restartOnFailure?: (e: Error) => Promise<boolean> };
  retryCount: number;
  retryTime: number;
  lastCommit: number;
  resolvedSinceCommit: number;
}

export class KafkaJSConsumer implements Consumer {
  readonly events = CONSUMER_EVENTS;
  readonly #context: ConsumerContext;
  readonly #config: ConsumerConfig;
  readonly #instrumentation = new Instrumentation({
    request: CONSUMER_EVENTS.REQUEST, timeout: CONSUMER_EVENTS.REQUEST_TIMEOUT,
    // kafkajs's fetch and heartbeat events, from the requests the kafka-wire consumer sends.
    more: {
      names: [CONSUMER_EVENTS.FETCH_START, CONSUMER_EVENTS.FETCH, CONSUMER_EVENTS.HEARTBEAT],
      owner: {
        started: (trace) => {
          if (trace.apiKey === ApiKey.Fetch && this.#instrumentation.has(CONSUMER_EVENTS.FETCH_START)) this.#instrumentation.emit(CONSUMER_EVENTS.FETCH_START, { nodeId: this.#nodeOf(trace.broker) });
        },
        answered: (trace, _response, _sentAt, duration) => {
          if (trace.apiKey === ApiKey.Fetch) {
            // kafkajs gives 0 batches since its 1.12 (it no longer counts them); so does this.
            if (this.#instrumentation.has(CONSUMER_EVENTS.FETCH)) this.#instrumentation.emit(CONSUMER_EVENTS.FETCH, { numberOfBatches: 0, duration, nodeId: this.#nodeOf(trace.broker) });
          } else if ((trace.apiKey === ApiKey.Heartbeat || trace.apiKey === ApiKey.ConsumerGroupHeartbeat) && this.#instrumentation.has(CONSUMER_EVENTS.HEARTBEAT)) {
            const m = this.#wire?.membership as { memberId?: string; generationId?: number; memberEpoch?: number } | null | undefined;
            this.#instrumentation.emit(CONSUMER_EVENTS.HEARTBEAT, { groupId: this.#config.groupId, memberId: m?.memberId ?? '', groupGenerationId: m?.generationId ?? m?.memberEpoch ?? -1 });
          }
        },
      },
    },
  });
  readonly #log: Logger;
  readonly #subscriptions: (string | RegExp)[] = [];
  #fromBeginning: boolean | undefined;
  #wire: WireConsumer | null = null;
  #run: RunState | null = null;
  #running = false;
  #connected = false;
  #loop: Promise<void> | null = null;
  #restartTimer: ReturnType<typeof setTimeout> | null = null;
  /** Where a handler failed (the record to fetch again). */
  #failedAt: { topic: string; partition: number; offset: bigint } | null = null;
  /** Partitions seeked (or revoked) while their batch was being handled: isStale(). */
  readonly #stale = new Set<string>();
  /** Seeks asked for partitions not assigned yet: applied when they are. */
  readonly #pendingSeeks = new Map<string, { topic: string; partition: number; offset: bigint }>();
  /** Paused partitions (null: the whole topic), kept across rebalances as kafkajs does. */
  readonly #pausedTopics = new Map<string, Set<number> | null>();
  /** Next offset to commit per partition: what the handlers resolved, and what the group has. */
  readonly #resolved = new Map<string, { topic: string; partition: number; offset: bigint }>();
  readonly #committed = new Map<string, bigint>();
  /** partitionsConsumedConcurrently above 1: the batch task running per partition (one each, so order is kept). */
  readonly #tasks = new Map<string, Promise<void>>();
  /** Seeks of the wire consumer per partition: a batch held while the one before ran is dropped when it moved. */
  readonly #seeks = new Map<string, number>();
  /** A task's failure, for the run loop (which retries or crashes as for the one-at-a-time path). */
  #taskFailure: { error: unknown; failedAt: { topic: string; partition: number; offset: bigint } | null } | null = null;
  #wakeLoop: (() => void) | null = null;

  constructor(context: ConsumerContext, config: ConsumerConfig) {
    if (config === undefined || typeof config.groupId !== 'string' || config.groupId === '') {
      throw new KafkaJSNonRetriableError('Consumer groupId must be a non-empty string.');
    }
    this.#context = context;
    this.#config = config;
    this.#log = context.logger.namespace('Consumer');
  }

  logger(): Logger { return this.#log; }

  /** A broker's node id from its "host:port", as text (kafkajs's fetch events name brokers so). */
  #nodeOf(broker: string): string {
    for (const b of this.#wire?.client.brokers.values() ?? []) if (`${b.host}:${b.port}` === broker) return String(b.nodeId);
    return '-1';
  }

  on(eventName: string, listener: (event: never) => void): () => void {
    return this.#instrumentation.on(eventName, Object.values(CONSUMER_EVENTS), listener);
  }

  async connect(): Promise<void> {
    // Fails here, as kafkajs's does, when no broker answers: one connection to a bootstrap broker.
    const client = new KafkaClient(await this.#context.options());
    try {
      await client.anyConnection();
    } catch (error) {
      throw fromWire(error);
    } finally {
      await client.close().catch(() => undefined);
    }
    if (!this.#connected) {
      this.#connected = true;
      this.#instrumentation.emit(CONSUMER_EVENTS.CONNECT);
    }
  }

  async disconnect(): Promise<void> {
    await this.stop();
    if (this.#connected) {
      this.#connected = false;
      this.#instrumentation.emit(CONSUMER_EVENTS.DISCONNECT);
    }
  }

  async subscribe(subscription: ConsumerSubscribeTopics | ConsumerSubscribeTopic): Promise<void> {
    if (this.#running) throw new KafkaJSNonRetriableError('Cannot subscribe to topic while consumer is running');
    const s = subscription as Partial<ConsumerSubscribeTopics & ConsumerSubscribeTopic>;
    const topics = s.topics ?? (s.topic === undefined ? undefined : [s.topic]);
    if (topics === undefined) throw new KafkaJSNonRetriableError('Missing required argument "topics"');
    if (!Array.isArray(topics)) throw new KafkaJSNonRetriableError('Argument "topics" must be an array');
    for (const t of topics) {
      if (typeof t !== 'string' && !(t instanceof RegExp)) {
        throw new KafkaJSNonRetriableError(`Invalid topic ${String(t)} (${typeof t}), the topic name has to be a String or a RegExp`);
      }
    }
    const fromBeginning = s.fromBeginning ?? false;
    if (this.#fromBeginning !== undefined && this.#fromBeginning !== fromBeginning) {
      throw new KafkaJSNotImplemented('kafka-wire/kafkajs: every subscribe() of a consumer must ask the same fromBeginning (the reset policy is the consumer\'s)');
    }
    this.#fromBeginning = fromBeginning;
    this.#subscriptions.push(...topics);
  }

  async run(config: ConsumerRunConfig = {}): Promise<void> {
    if (this.#running) {
      this.#log.warn('consumer#run was called, but the consumer is already running', { groupId: this.#config.groupId });
      return;
    }
    if (config.eachMessage === undefined && config.eachBatch === undefined) {
      throw new KafkaJSNonRetriableError('Consumer#run needs eachMessage or eachBatch');
    }
    if (this.#subscriptions.length === 0) throw new KafkaJSNonRetriableError('Consumer#run: subscribe to a topic first');
    const r = this.#config.retry ?? {};
    this.#run = {
      config,
      autoCommit: config.autoCommit ?? true,
      retry: {
        initialRetryTime: r.initialRetryTime ?? RETRY_DEFAULTS.initialRetryTime, maxRetryTime: r.maxRetryTime ?? RETRY_DEFAULTS.maxRetryTime,
        factor: r.factor ?? RETRY_DEFAULTS.factor, multiplier: r.multiplier ?? RETRY_DEFAULTS.multiplier, retries: r.retries ?? RETRY_DEFAULTS.retries,
        restartOnFailure: r.restartOnFailure,
      },
      retryCount: 0,
      retryTime: r.initialRetryTime ?? RETRY_DEFAULTS.initialRetryTime,
      lastCommit: Date.now(),
      resolvedSinceCommit: 0,
    };
    this.#running = true;
    try {
      await this.#instrumentation.work(() => this.#start());
    } catch (error) {
      this.#running = false;
      await this.#closeWire();
      throw fromWire(error);
    }
  }

  /** A kafka-wire consumer joins; resolves once it has its first assignment, as kafkajs's run() does. */
  async #start(): Promise<void> {
    const c = this.#config;
    if (c.partitionAssigners !== undefined && c.partitionAssigners.some((a) => a({ cluster: { findTopicPartitionMetadata: () => [] }, groupId: c.groupId, logger: this.#log }).name !== ROUND_ROBIN)) {
      throw new KafkaJSNotImplemented('kafka-wire/kafkajs runs only PartitionAssigners.roundRobin (kafkajs\'s default); a custom assigner is not supported');
    }
    const base = await this.#context.options();
    const wire = new WireConsumer({
      ...base,
      groupId: c.groupId,
      topics: this.#subscriptions,
      groupProtocol: c.groupProtocol ?? 'classic',
      assignors: [roundRobinAssignor],
      sessionTimeoutMs: c.sessionTimeout ?? DEFAULTS.sessionTimeout,
      rebalanceTimeoutMs: c.rebalanceTimeout ?? DEFAULTS.rebalanceTimeout,
      heartbeatIntervalMs: c.heartbeatInterval ?? DEFAULTS.heartbeatInterval,
      resetPolicy: this.#fromBeginning === true ? 'earliest' : 'latest',
      isolationLevel: c.readUncommitted === true ? 'read_uncommitted' : 'read_committed',
      maxWaitMs: c.maxWaitTimeInMs ?? DEFAULTS.maxWaitTimeInMs,
      fetchMaxBytes: c.maxBytes ?? DEFAULTS.maxBytes,
      partitionMaxBytes: c.maxBytesPerPartition ?? DEFAULTS.maxBytesPerPartition,
      metadataRefreshMs: c.metadataMaxAge ?? DEFAULTS.metadataMaxAge,
      autoCommit: 'manual',
      lazy: true,
      debug: (message) => this.#log.debug(message, { groupId: c.groupId }),
    });
    this.#wire = wire;
    const started = Date.now();
    // Joined: the first assignment (or a stable membership with nothing assigned), a failure, or stop().
    let assignedOnce = false;
    wire.once('assigned', () => { assignedOnce = true; });
    const firstAssignment = (async () => {
      while (!assignedOnce && this.#running && this.#wire === wire && wire.membership?.state !== 'stable' && wire.membership?.state !== 'failed') await sleep(20);
    })();
    wire.on('assigned', (tps) => this.#assigned(wire, tps, started));
    wire.on('revoked', (tps) => this.#revoked(tps));
    wire.on('lost', (tps) => this.#revoked(tps));
    wire.on('committed', (offsets) => this.#onCommitted(wire, offsets));
    wire.on('error', (error) => { this.#log.error(error.message, { groupId: c.groupId }); });
    await wire.start();
    this.#loop = this.#consume(wire);
    await firstAssignment;
  }

  #assigned(wire: WireConsumer, tps: WireTopicPartitions[], started: number): void {
    for (const tp of tps) {
      for (const p of tp.partitions) {
        const k = keyOf(tp.topic, p);
        this.#resolved.delete(k);
        const seek = this.#pendingSeeks.get(k);
        if (seek !== undefined) {
          this.#pendingSeeks.delete(k);
          wire.seek(tp.topic, p, seek.offset);
        }
        const paused = this.#pausedTopics.get(tp.topic);
        if (paused === null || paused?.has(p)) wire.pause([{ topic: tp.topic, partitions: [p] }]);
      }
    }
    if (this.#instrumentation.has(CONSUMER_EVENTS.RECEIVED_UNSUBSCRIBED_TOPICS)) {
      // Another member led the group and gave this one topics it did not subscribe to (kafkajs's
      // round robin assigns every member's topics to every member).
      const assignedTopics = wire.assignment().map((tp) => tp.topic);
      const subscribed = (t: string) => this.#subscriptions.some((s) => (typeof s === 'string' ? s === t : s.test(t)));
      const topicsNotSubscribed = assignedTopics.filter((t) => !subscribed(t));
      if (topicsNotSubscribed.length > 0) {
        const m = wire.membership as { memberId?: string; generationId?: number } | null;
        const topicsSubscribed = [...new Set([...this.#subscriptions.filter((s): s is string => typeof s === 'string'), ...assignedTopics.filter(subscribed)])];
        this.#instrumentation.emit(CONSUMER_EVENTS.RECEIVED_UNSUBSCRIBED_TOPICS, {
          groupId: this.#config.groupId, generationId: m?.generationId ?? -1, memberId: m?.memberId ?? '', assignedTopics, topicsSubscribed, topicsNotSubscribed,
        });
      }
    }
    if (!this.#instrumentation.has(CONSUMER_EVENTS.GROUP_JOIN)) return;
    const m = wire.membership as { memberId?: string; generationId?: number; protocolName?: string | null } | null;
    const memberAssignment: Record<string, number[]> = {};
    for (const tp of wire.assignment()) memberAssignment[tp.topic] = tp.partitions;
    this.#instrumentation.emit(CONSUMER_EVENTS.GROUP_JOIN, {
      groupId: this.#config.groupId, memberId: m?.memberId ?? '', leaderId: '', isLeader: false,
      memberAssignment, groupProtocol: m?.protocolName ?? ROUND_ROBIN, duration: Date.now() - started,
    });
  }

  #revoked(tps: WireTopicPartitions[]): void {
    for (const tp of tps) for (const p of tp.partitions) this.#stale.add(keyOf(tp.topic, p));
    const m = this.#wire?.membership;
    this.#instrumentation.emit(CONSUMER_EVENTS.REBALANCING, { groupId: this.#config.groupId, memberId: m?.memberId ?? '' });
  }

  #onCommitted(wire: WireConsumer, offsets: { topic: string; partition: number; offset: bigint }[]): void {
    for (const o of offsets) this.#committed.set(keyOf(o.topic, o.partition), o.offset);
    if (!this.#instrumentation.has(CONSUMER_EVENTS.COMMIT_OFFSETS)) return;
    const m = wire.membership as { memberId?: string; generationId?: number } | null;
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const o of offsets) {
      const list = byTopic.get(o.topic) ?? byTopic.set(o.topic, []).get(o.topic)!;
      list.push({ partition: o.partition, offset: String(o.offset) });
    }
    this.#instrumentation.emit(CONSUMER_EVENTS.COMMIT_OFFSETS, {
      groupId: this.#config.groupId, memberId: m?.memberId ?? '', groupGenerationId: m?.generationId ?? -1,
      topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
    });
  }

  /** Hands batches to the app until stopped: a failing handler is retried, then the consumer crashes (and restarts). */
  async #consume(wire: WireConsumer): Promise<void> {
    const run = this.#run!;
    const concurrently = Math.max(1, Math.floor(Number(run.config.partitionsConsumedConcurrently ?? 1)) || 1);
    const handler = concurrently === 1 ? (batch: PartitionBatch) => this.#handle(wire, batch) : (batch: PartitionBatch) => this.#dispatch(wire, batch, concurrently);
    /** The kafka-wire run() waiting for a batch (kept across a task's failure, which does not end it). */
    let pending: Promise<void> | null = null;
    for (;;) {
      try {
        if (concurrently === 1) {
          await wire.run(handler);
          return;
        }
        const running = pending ??= wire.run(handler).finally(() => { if (pending === running) pending = null; });
        running.catch(() => undefined); // it is awaited below, or after a task's failure, or left when stopped
        const failed = new Promise<void>((r) => { this.#wakeLoop = r; if (this.#taskFailure !== null) r(); });
        await Promise.race([running, failed]);
        if (pending === null && this.#taskFailure === null) return; // the kafka-wire consumer closed
        const f = this.#taskFailure;
        if (f === null) continue;
        this.#taskFailure = null;
        this.#failedAt = f.failedAt;
        throw f.error;
      } catch (error) {
        if (!this.#running || this.#wire !== wire) return;
        if (error === INCOMPLETE || error === DETACHED) continue;
        const failed = this.#failedAt;
        this.#failedAt = null;
        const retriable = failed !== null && !(error instanceof KafkaJSError && !error.retriable);
        if (failed !== null) {
          // Fetch the record again (what was fetched past it is dropped), whatever happens next.
          this.#moved(failed.topic, failed.partition);
          try { wire.seek(failed.topic, failed.partition, failed.offset); } catch { /* revoked meanwhile */ }
        }
        if (retriable && run.retryCount < run.retry.retries) {
          const wait = run.retryTime;
          run.retryCount++;
          run.retryTime = nextRetryTime(run.retry, wait);
          await sleep(wait);
          if (!this.#running || this.#wire !== wire) return;
          continue;
        }
        const crash = retriable
          ? new KafkaJSNumberOfRetriesExceeded(error as Error, { retryCount: run.retryCount, retryTime: run.retryTime })
          : (fromWire(error) as Error);
        await this.#crash(wire, crash);
        return;
      }
    }
  }

  async #crash(wire: WireConsumer, error: Error): Promise<void> {
    const run = this.#run!;
    this.#log.error(`Crash: ${error.name}: ${error.message}`, { groupId: this.#config.groupId, retryCount: run.retryCount });
    await Promise.allSettled([...this.#tasks.values()]);
    await this.#closeWire();
    const original = (e: unknown): unknown => (e instanceof Error && e.cause !== undefined ? original(e.cause) : e);
    const retriable = error instanceof KafkaJSNumberOfRetriesExceeded || (original(error) as { retriable?: boolean })?.retriable === true;
    let restart = retriable;
    if (restart && run.retry.restartOnFailure !== undefined) {
      restart = await run.retry.restartOnFailure(error).catch(() => true);
    }
    this.#instrumentation.emit(CONSUMER_EVENTS.CRASH, { error, groupId: this.#config.groupId, restart });
    if (!restart || !this.#running || this.#wire !== null) {
      if (!restart) this.#running = false;
      return;
    }
    const wait = run.retryTime;
    run.retryCount = 0;
    run.retryTime = run.retry.initialRetryTime;
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = null;
      if (!this.#running) return;
      this.#instrumentation.work(() => this.#start()).catch((e) => {
        void this.#crash(this.#wire ?? wire, fromWire(e) as Error);
      });
    }, wait);
  }

  #moved(topic: string, partition: number): void {
    const k = keyOf(topic, partition);
    this.#seeks.set(k, (this.#seeks.get(k) ?? 0) + 1);
  }

  /**
   * partitionsConsumedConcurrently: the batch goes to a task of its own once its partition's
   * previous batch is done (order kept per partition) and fewer than `limit` tasks run; the
   * kafka-wire consumer goes on to the next batch meanwhile (DETACHED counts none of it done).
   */
  async #dispatch(wire: WireConsumer, batch: PartitionBatch, limit: number): Promise<void> {
    const key = keyOf(batch.topic, batch.partition);
    const seeks = this.#seeks.get(key) ?? 0;
    for (let before = this.#tasks.get(key); before !== undefined; before = this.#tasks.get(key)) await before;
    while (this.#tasks.size >= limit) await Promise.race(this.#tasks.values());
    // Seeked while the batch before it ran (a retry, a part left, the app's seek): fetched again from there.
    if ((this.#seeks.get(key) ?? 0) !== seeks || !this.#running || this.#wire !== wire || this.#taskFailure !== null) throw DETACHED;
    const task = this.#handle(wire, batch).then(() => undefined, (error) => {
      if (error === INCOMPLETE) return;
      const failedAt = this.#failedAt;
      this.#failedAt = null;
      this.#taskFailure ??= { error, failedAt };
      this.#wakeLoop?.();
    }).finally(() => { this.#tasks.delete(key); });
    this.#tasks.set(key, task);
    throw DETACHED;
  }

  /**
   * eachMessage over a batch's messages in order, until one fails (its offset kept in #failedAt),
   * the partition is paused or seeked, or the consumer stops; `handled` is the last one handled.
   * Its own small function, not part of #handle: V8 optimizes this loop while the first batch
   * runs, which a recompile of all of #handle (tens of ms when it deoptimizes) held back.
   */
  async #eachMessage(
    eachMessage: NonNullable<ConsumerRunConfig['eachMessage']>, views: BatchView[], topic: string, partition: number, key: string,
    heartbeat: () => Promise<void>, pause: () => () => void, handled: Handled, afterEach: ((next: bigint) => Promise<void>) | null,
  ): Promise<void> {
    for (let j = 0; j < views.length; j++) {
      const v = views[j]!;
      const b = v.b;
      const skip = v.skip;
      for (let i = firstIndex(v); i < b.recordCount; i++) {
        if (skip > 0 && b.offsetDeltaAt(i) < skip) continue;
        if (!this.#running || (this.#stale.size > 0 && this.#stale.has(key))) return;
        const message = messageAt(v, i);
        try {
          await eachMessage({ topic, partition, message, heartbeat, pause });
        } catch (error) {
          this.#messageFailed(error, topic, partition, message.offset, b.offsetAt(i));
          throw error;
        }
        handled.view = v;
        handled.index = i;
        if (afterEach !== null) await afterEach(b.offsetAt(i) + 1n);
        if (this.#pausedTopics.size > 0 && this.#isPaused(topic, partition)) return;
      }
    }
  }

  #messageFailed(error: unknown, topic: string, partition: number, offset: string, at: bigint): void {
    if (!(error instanceof KafkaJSError)) this.#log.error('Error when calling eachMessage', { topic, partition, offset, stack: (error as Error)?.stack, error });
    this.#failedAt = { topic, partition, offset: at };
  }

  /** One partition's batch through the app's handler; resolves only when all of it was resolved. */
  async #handle(wire: WireConsumer, batch: PartitionBatch): Promise<void> {
    const run = this.#run!;
    const { topic, partition } = batch;
    const key = keyOf(topic, partition);
    this.#stale.delete(key);
    const views = viewsOf(batch);
    const range = messageRange(views);
    const lastOffset = range === null ? null : range.last;
    /** Next offset this batch resolved so far (null: nothing). */
    let resolved: bigint | null = null;
    const resolve = (next: bigint) => {
      if (resolved !== null && next <= resolved) return;
      // The last record resolved: the batch is (control records after it included).
      const upTo = lastOffset !== null && next > lastOffset ? batch.nextOffset : next;
      run.resolvedSinceCommit += Number(upTo - (resolved ?? batch.firstOffset));
      resolved = upTo;
      this.#resolved.set(key, { topic, partition, offset: upTo });
      if (run.autoCommit) wire.markOffset(topic, partition, upTo);
    };
    if (range === null) {
      // Only control records or aborted transactions' records: resolved without the app, as kafkajs does.
      resolve(batch.nextOffset);
    } else {
      const started = Date.now();
      const { eachMessage, eachBatch } = run.config;
      // eachMessage's messages are made one at a time (each dies young); eachBatch's all at once.
      const messages = eachMessage !== undefined ? null : messagesOf(views);
      const kbatch = batchOf(batch, messages ?? [], range);
      const payload = this.#instrumentation.has(CONSUMER_EVENTS.START_BATCH_PROCESS) || this.#instrumentation.has(CONSUMER_EVENTS.END_BATCH_PROCESS)
        ? {
          topic, partition, highWatermark: kbatch.highWatermark, offsetLag: kbatch.offsetLag(), offsetLagLow: kbatch.offsetLagLow(),
          batchSize: messages?.length ?? countMessages(views), firstOffset: kbatch.firstOffset()!, lastOffset: kbatch.lastOffset(),
        }
        : null;
      if (payload !== null) this.#instrumentation.emit(CONSUMER_EVENTS.START_BATCH_PROCESS, payload);
      const pause = () => {
        this.pause([{ topic, partitions: [partition] }]);
        return () => this.resume([{ topic, partitions: [partition] }]);
      };
      const heartbeat = async () => undefined; // the kafka-wire member heartbeats on its own schedule
      try {
        if (eachMessage !== undefined) {
          const commitsInBatch = run.autoCommit && (run.config.autoCommitInterval != null || run.config.autoCommitThreshold != null);
          const handled: Handled = { view: null, index: -1 };
          try {
            await this.#eachMessage(eachMessage, views, topic, partition, key, heartbeat, pause, handled,
              commitsInBatch ? async (next) => { resolve(next); await this.#commitIfNecessary(wire); } : null);
          } finally {
            if (handled.view !== null) resolve(handled.view.b.offsetAt(handled.index) + 1n);
          }
        } else {
          const payload: EachBatchPayload = {
            batch: kbatch,
            resolveOffset: (offset) => resolve(parseOffset(offset) + 1n),
            heartbeat,
            pause,
            commitOffsetsIfNecessary: async (offsets?: Offsets) => {
              if (offsets !== undefined) await this.#commitExplicit(offsets.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: p.offset }))));
              else await this.#commitIfNecessary(wire);
            },
            uncommittedOffsets: () => this.#uncommittedOffsets(),
            isRunning: () => this.#running,
            isStale: () => this.#stale.has(key),
          };
          try {
            await eachBatch!(payload);
          } catch (error) {
            if (!(error instanceof KafkaJSError)) this.#log.error('Error when calling eachBatch', { topic, partition, offset: kbatch.firstOffset(), stack: (error as Error)?.stack, error });
            this.#failedAt = { topic, partition, offset: resolved ?? batch.firstOffset };
            throw error;
          }
          if ((run.config.eachBatchAutoResolve ?? true) && !this.#stale.has(key)) resolve(lastOffset! + 1n);
        }
      } catch (error) {
        // kafkajs commits what was resolved before the failure (with autoCommit).
        if (run.autoCommit) await wire.commit().catch(() => undefined);
        throw error;
      }
      if (payload !== null) this.#instrumentation.emit(CONSUMER_EVENTS.END_BATCH_PROCESS, { ...payload, duration: Date.now() - started });
    }
    run.retryCount = 0;
    run.retryTime = run.retry.initialRetryTime;
    if (run.autoCommit) {
      // kafkajs commits after every batch; here the commit goes out as the next batch starts (one
      // OffsetCommit at a time, later calls sharing it), not awaited: at least once either way.
      wire.commit().catch((error) => this.#log.warn(`commit failed: ${(error as Error).message}`, { groupId: this.#config.groupId }));
      run.lastCommit = Date.now();
      run.resolvedSinceCommit = 0;
    }
    const done = resolved !== null && resolved >= batch.nextOffset;
    if (done && run.autoCommit) return;
    // Not all resolved (paused, seeked, stopped, eachBatch left some), or no autoCommit: read it
    // again from the first record not resolved, unless the app seeked it elsewhere.
    if (!this.#stale.has(key)) {
      this.#moved(topic, partition);
      try { wire.seek(topic, partition, resolved ?? batch.firstOffset); } catch { /* revoked meanwhile */ }
    }
    throw INCOMPLETE;
  }

  async #commitIfNecessary(wire: WireConsumer): Promise<void> {
    const run = this.#run!;
    if (!run.autoCommit) return;
    const interval = run.config.autoCommitInterval;
    const threshold = run.config.autoCommitThreshold;
    const timeUp = interval !== undefined && interval !== null && Date.now() >= run.lastCommit + interval;
    const enough = threshold !== undefined && threshold !== null && run.resolvedSinceCommit >= threshold;
    if (!timeUp && !enough) return;
    await wire.commit();
    run.lastCommit = Date.now();
    run.resolvedSinceCommit = 0;
  }

  #uncommittedOffsets(): OffsetsByTopicPartition {
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const [k, r] of this.#resolved) {
      if (this.#committed.get(k) === r.offset) continue;
      const list = byTopic.get(r.topic) ?? byTopic.set(r.topic, []).get(r.topic)!;
      list.push({ partition: r.partition, offset: String(r.offset) });
    }
    return { topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) };
  }

  #isPaused(topic: string, partition: number): boolean {
    const p = this.#pausedTopics.get(topic);
    return p === null || (p !== undefined && p.has(partition));
  }

  #requireRun(): WireConsumer {
    if (this.#wire === null || !this.#running) throw new KafkaJSNonRetriableError('Consumer group was not initialized, consumer#run must be called first');
    return this.#wire;
  }

  async commitOffsets(topicPartitions: Array<TopicPartitionOffsetAndMetadata>): Promise<void> {
    for (const { topic, partition, offset, metadata } of topicPartitions) {
      if (!topic) throw new KafkaJSNonRetriableError(`Invalid topic ${String(topic)}`);
      if (Number.isNaN(Number(partition))) throw new KafkaJSNonRetriableError(`Invalid partition, expected a number received ${String(partition)}`);
      parseOffset(offset);
      if (metadata !== undefined && metadata !== null && typeof metadata !== 'string') throw new KafkaJSNonRetriableError(`Invalid offset metadata, expected string or null, received ${String(metadata)}`);
    }
    this.#requireRun();
    await this.#commitExplicit(topicPartitions);
  }

  /** Commits the offsets given (the app's own, which may go back), as this member of the group. */
  async #commitExplicit(list: Array<{ topic: string; partition: number; offset: string }>): Promise<void> {
    const wire = this.#requireRun();
    const m = wire.membership;
    const who = m?.commitIdentity();
    if (!m || !who) throw new KafkaJSProtocolError('The group is rebalancing, so a rejoin is needed', { code: 27 });
    const offsets = new Map<string, Map<number, bigint>>();
    for (const { topic, partition, offset } of list) (offsets.get(topic) ?? offsets.set(topic, new Map()).get(topic)!).set(Number(partition), parseOffset(offset));
    try {
      await commitWire(await m.coordinator(), who, offsets);
    } catch (error) {
      throw fromWire(error);
    }
    const committed: { topic: string; partition: number; offset: bigint }[] = [];
    for (const [topic, ps] of offsets) for (const [partition, offset] of ps) committed.push({ topic, partition, offset });
    this.#onCommitted(wire, committed);
  }

  seek({ topic, partition, offset }: TopicPartitionOffset): void {
    if (!topic) throw new KafkaJSNonRetriableError(`Invalid topic ${String(topic)}`);
    if (Number.isNaN(Number(partition))) throw new KafkaJSNonRetriableError(`Invalid partition, expected a number received ${String(partition)}`);
    const at = parseOffset(offset);
    const wire = this.#requireRun();
    const k = keyOf(topic, partition);
    this.#stale.add(k);
    const run = this.#run!;
    // As kafkajs: the sought offset counts as resolved, and with autoCommit it is committed at once.
    this.#resolved.set(k, { topic, partition, offset: at });
    try {
      this.#moved(topic, partition);
      wire.seek(topic, partition, at);
      if (run.autoCommit) void this.#commitExplicit([{ topic, partition, offset: String(at) }]).catch(() => undefined);
    } catch (error) {
      if (!(error instanceof ConsumerError)) throw error;
      this.#pendingSeeks.set(k, { topic, partition, offset: at }); // not assigned yet: when it is
    }
  }

  pause(topics: Array<{ topic: string; partitions?: number[] }>): void {
    checkTopicPartitions(topics, 'pause');
    const wire = this.#requireRun();
    for (const { topic, partitions } of topics) {
      if (partitions === undefined) this.#pausedTopics.set(topic, null);
      else {
        const have = this.#pausedTopics.get(topic);
        if (have === null) continue;
        const set = have ?? new Set<number>();
        for (const p of partitions) set.add(p);
        this.#pausedTopics.set(topic, set);
      }
      const owned = wire.assignment().find((tp) => tp.topic === topic)?.partitions ?? [];
      const these = partitions === undefined ? owned : partitions.filter((p) => owned.includes(p));
      if (these.length > 0) wire.pause([{ topic, partitions: these }]);
    }
  }

  resume(topics: Array<{ topic: string; partitions?: number[] }>): void {
    checkTopicPartitions(topics, 'resume');
    const wire = this.#requireRun();
    for (const { topic, partitions } of topics) {
      const owned = wire.assignment().find((tp) => tp.topic === topic)?.partitions ?? [];
      if (partitions === undefined) this.#pausedTopics.delete(topic);
      else {
        const have = this.#pausedTopics.get(topic);
        const set = have === null ? new Set(owned) : (have ?? new Set<number>());
        for (const p of partitions) set.delete(p);
        if (set.size === 0) this.#pausedTopics.delete(topic); else this.#pausedTopics.set(topic, set);
      }
      const these = partitions === undefined ? owned : partitions.filter((p) => owned.includes(p));
      if (these.length > 0) wire.resume([{ topic, partitions: these }]);
    }
  }

  paused(): TopicPartitions[] {
    if (this.#wire === null) return [];
    const out: TopicPartitions[] = [];
    for (const [topic, set] of this.#pausedTopics) {
      const partitions = set === null ? (this.#wire.assignment().find((tp) => tp.topic === topic)?.partitions ?? []) : [...set].sort((a, b) => a - b);
      if (partitions.length > 0) out.push({ topic, partitions });
    }
    return out;
  }

  async describeGroup(): Promise<GroupDescription> {
    const own = this.#wire === null;
    const client = this.#wire?.client ?? new KafkaClient(await this.#context.options());
    try {
      const conn = await findCoordinator(client, this.#config.groupId);
      const res = await conn.request(ApiKey.DescribeGroups, undefined, { groups: [this.#config.groupId], includeAuthorizedOperations: false });
      const g = res.groups.find((x) => x.groupId === this.#config.groupId) ?? res.groups[0]!;
      if (g.errorCode !== 0) throw new KafkaJSProtocolError(g.errorCode);
      const description = {
        errorCode: g.errorCode,
        groupId: g.groupId,
        state: g.groupState as GroupDescription['state'],
        protocolType: g.protocolType,
        protocol: g.protocolData,
        members: g.members.map((m) => ({
          memberId: m.memberId, clientId: m.clientId, clientHost: m.clientHost,
          memberMetadata: asBuffer(m.memberMetadata)!, memberAssignment: asBuffer(m.memberAssignment)!,
        })),
      };
      return description;
    } catch (error) {
      throw fromWire(error);
    } finally {
      if (own) await client.close().catch(() => undefined);
    }
  }

  async #closeWire(): Promise<void> {
    const wire = this.#wire;
    this.#wire = null;
    if (wire === null) return;
    await wire.close().catch((error) => { this.#log.warn(`closing: ${(error as Error).message}`, { groupId: this.#config.groupId }); });
  }

  async stop(): Promise<void> {
    if (this.#restartTimer !== null) clearTimeout(this.#restartTimer);
    this.#restartTimer = null;
    const wasRunning = this.#running;
    this.#running = false;
    await Promise.allSettled([...this.#tasks.values()]);
    await this.#closeWire();
    await this.#loop?.catch(() => undefined);
    this.#loop = null;
    this.#stale.clear();
    if (wasRunning) this.#instrumentation.emit(CONSUMER_EVENTS.STOP);
  }
}
