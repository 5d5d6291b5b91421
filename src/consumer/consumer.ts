// The library consumer (`kafka-wire/consumer`): reads topics by name or pattern, as a member of a
// consumer group (classic or KIP-848) when given a group id, else the partitions it is given.
//
//   const consumer = new Consumer({ bootstrap: 'localhost:9092', groupId: 'import', topics: ['orders', /^audit-/] });
//   for await (const batch of consumer) {             // one partition's records per batch
//     for (const r of batch.records()) handle(r);      // a body that runs to its end finishes the batch
//   }                                                  // (committed at the next commit)
//   await consumer.close();                            // commits what is finished, leaves the group
//
// Guarantee: at least once. An offset is committed only after the records before it were
// finished: the loop body ran to its end, a run() handler resolved, or markOffset() /
// markFinished() said so. A body left by throw or break, or a handler that throws, finishes
// nothing more than was marked. Revoked partitions are committed before they are given up; a
// crash re-delivers what was finished after the last commit, never skips.

import { Emitter as EventEmitter } from '../wire/emitter.js';
import { KafkaClient, type ClientOptions, type TopicInfo } from '../wire/client.js';
import { ConnectionError, kafkaErrorName } from '../wire/errors.js';
import type { Connection } from '../wire/connection.js';
import { findCoordinator } from './classic.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, COORDINATOR_ERRORS, GroupErrorCode } from './errors.js';
import { ASSIGNORS, type Assignor } from './assignors.js';
import { ClassicMembership, type Membership, type MembershipHooks } from './group.js';
import { NextGenMembership } from './next-gen.js';
import { commitOffsets, fetchCommitted, listOffsets, PartitionErrors, policyTimestamp, setOffset, type OffsetMap, type ResetPolicy } from './offsets.js';
import { Fetcher, FETCH_DEFAULTS, PartitionBatch } from './fetcher.js';
import type { TopicPartitions } from './protocol.js';
import { RecordDeserializer, type ConsumerRecord, type DeserializerOptions } from '../serde.js';
import type { KafkaRecord } from '../records/index.js';
import { createLogger, withDebugCallback, type Logger } from '../logger.js';
import { ConsumerMetrics } from './metrics.js';
import { TelemetryPusher } from '../wire/telemetry.js';
import { FramePool } from '../wire/frame-pool.js';
import type { MetricValue } from '../observe/metrics.js';

export { PartitionBatch };

/**
 * K, V: the types keyDeserializer / valueDeserializer give (bytes without them); records of
 * those types come from batch.consumerRecords() and run({ eachRecord }).
 */
export interface ConsumerOptions<K = Uint8Array, V = Uint8Array> extends Omit<ClientOptions, 'bootstrap'>, DeserializerOptions<K, V> {
  bootstrap: string | string[];
  /** Join this consumer group; without it the consumer reads `assign`. */
  groupId?: string;
  /** With a group: the topics, by name or pattern (patterns skip internal topics such as __consumer_offsets). */
  topics?: readonly (string | RegExp)[];
  /** Without a group (or with one, committing as a "simple" group): partitions to read; all of a topic when partitions is absent. */
  assign?: readonly { topic: string; partitions?: readonly number[] }[];
  /**
   * The group protocol: 'consumer' is KIP-848 (the broker assigns), 'classic' is JoinGroup/SyncGroup
   * (the leader member assigns). 'auto' (default) takes KIP-848 where the broker offers it.
   */
  groupProtocol?: 'auto' | 'classic' | 'consumer';
  /** Classic: assignors offered, in preference order (default range, cooperative-sticky, as Java). */
  assignors?: readonly (string | Assignor)[];
  /** KIP-848: the server-side assignor (default: the broker's, uniform). */
  serverAssignor?: string;
  groupInstanceId?: string;
  sessionTimeoutMs?: number;
  rebalanceTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Where to start a partition the group has no committed offset for (default 'latest', as Java). */
  resetPolicy?: ResetPolicy;
  isolationLevel?: 'read_uncommitted' | 'read_committed';
  /** Decode batches lazily (columnar accessors; records built only when asked for). Default false. */
  lazy?: boolean;
  /** Stop fetching while this many bytes of fetched records wait for the caller (default 64 MiB). */
  maxBufferedBytes?: number;
  maxWaitMs?: number;
  fetchMaxBytes?: number;
  partitionMaxBytes?: number;
  /**
   * When finished work is committed: 'interval' (every autoCommitIntervalMs, and on revoke and
   * close; default), 'batch' (after every batch), or 'manual' (only commit(), revoke and close).
   */
  autoCommit?: 'interval' | 'batch' | 'manual';
  autoCommitIntervalMs?: number;
  /** How often topic patterns and partition counts are checked (default 30 s). */
  metadataRefreshMs?: number;
  /**
   * A subscribed topic (by name) that the metadata says does not exist: 'wait' (default) reads
   * it once it is created, saying so at once (the 'missingTopics' event and a debug line);
   * 'error' also fails the consumer with ConsumerError UNKNOWN_TOPIC (what `consume -e` wants).
   * An assigned topic that does not exist is always that error.
   */
  missingTopics?: 'wait' | 'error';
  /** A line of what the consumer does (joins, assignments, retries): its logger's debug entries, as text. */
  debug?: (message: string) => void;
}

export interface ConsumerEvents {
  assigned: [partitions: TopicPartitions[]];
  revoked: [partitions: TopicPartitions[]];
  lost: [partitions: TopicPartitions[]];
  committed: [offsets: { topic: string; partition: number; offset: bigint }[]];
  /** Topics asked for by name that the metadata answered do not exist (once per topic, until it exists). */
  missingTopics: [topics: string[]];
  error: [error: Error];
}

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Java's defaults. */
const DEFAULT_SESSION_TIMEOUT_MS = 45_000;
const DEFAULT_REBALANCE_TIMEOUT_MS = 60_000;
const DEFAULT_HEARTBEAT_INTERVAL_MS = 3_000;
const DEFAULT_AUTO_COMMIT_INTERVAL_MS = 5_000;
const DEFAULT_METADATA_REFRESH_MS = 30_000;

interface Current { batch: PartitionBatch<unknown, unknown>; epoch: number; finished: Promise<void>; finish(): void; viaRun: boolean }

/**
 * What run() calls: `eachBatch` per batch, or `eachRecord` per record (one at a time, in offset
 * order). Either way a throw finishes nothing past the last batch / record that resolved.
 */
export type RunHandlers<K, V> =
  | { eachBatch: (batch: PartitionBatch<K, V>) => unknown; eachRecord?: never }
  | { eachRecord: (record: ConsumerRecord<K, V>, batch: PartitionBatch<K, V>) => unknown; eachBatch?: never };

/** A partition's offset, as positions say it. */
export interface PartitionOffset { topic: string; partition: number; offset: bigint }

export class Consumer<K = Uint8Array, V = Uint8Array> extends EventEmitter<ConsumerEvents> {
  readonly client: KafkaClient;
  readonly options: ConsumerOptions<K, V>;
  /** The `logger` option's logger (silent without it, but for `debug`); the connections log through it too. */
  readonly logger: Logger;
  readonly #fetcher: Fetcher;
  #membership: Membership | null = null;
  readonly #ready: { batch: PartitionBatch<K, V>; epoch: number }[] = [];
  #readyWaiter: (() => void) | null = null;
  #current: Current | null = null;
  /** Next offset to commit per partition (what is finished) and what the group has. */
  readonly #finished = new Map<string, { topic: string; partition: number; offset: bigint }>();
  readonly #committed = new Map<string, bigint>();
  #owned: TopicPartitions[] = [];
  #started: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  #failure: Error | null = null;
  #timers: ReturnType<typeof setInterval>[] = [];
  #queuedCommit: Promise<void> | null = null;
  #commitChain: Promise<void> = Promise.resolve();
  #subscribed: string[] = [];
  #partitionCounts = new Map<string, number>();
  /** Topics by name that were reported missing (a topic that then appears means a rebalance). */
  readonly #missing = new Set<string>();
  readonly #metrics: ConsumerMetrics;
  /** KIP-714's push of the metrics (null with enableMetricsPush: false). */
  #telemetry: TelemetryPusher | null = null;

  constructor(options: ConsumerOptions<K, V>) {
    super();
    // The debug lines go to the logger, and to the older `debug` callback when given.
    this.logger = withDebugCallback(createLogger(options.logger, 'consumer'), options.debug);
    this.options = { ...options, debug: this.logger.enabled('debug') ? (message) => this.logger.debug(message) : undefined };
    if (options.groupId === undefined && !options.assign) throw new ConsumerError('USAGE', 'give a groupId with topics, or assign partitions');
    if (options.topics && options.groupId === undefined) throw new ConsumerError('USAGE', 'topics need a groupId (without one, list partitions in assign)');
    if (options.topics && options.assign) throw new ConsumerError('USAGE', 'topics and assign exclude each other');
    this.#metrics = new ConsumerMetrics(options.clientId ?? 'kafka-wire', {
      groupId: options.groupId ?? null,
      memberId: () => this.#membership?.memberId ?? '',
      highWatermark: (topic, partition) => this.#fetcher.highWatermark(topic, partition),
    });
    // Large answers are received into frames that released batches gave back (PartitionBatch.release()).
    this.client = new KafkaClient({
      maxVersions: { [ApiKey.ListOffsets]: 3 }, frames: new FramePool(), ...options, bootstrap: options.bootstrap, logger: this.logger, observer: this.#metrics.network,
    });
    this.#fetcher = new Fetcher(this.client, {
      isolationLevel: options.isolationLevel === 'read_committed' ? 1 : 0,
      lazy: options.lazy ?? false,
      maxWaitMs: options.maxWaitMs ?? FETCH_DEFAULTS.maxWaitMs,
      maxBytes: options.fetchMaxBytes ?? FETCH_DEFAULTS.maxBytes,
      partitionMaxBytes: options.partitionMaxBytes ?? FETCH_DEFAULTS.partitionMaxBytes,
      maxBufferedBytes: options.maxBufferedBytes ?? FETCH_DEFAULTS.maxBufferedBytes,
      resetPolicy: options.resetPolicy ?? 'latest',
      deserializer: new RecordDeserializer<K, V>(options) as RecordDeserializer<unknown, unknown>,
      deliver: (batch) => this.#deliver(batch as PartitionBatch<K, V>),
      failed: (err) => this.#fail(err),
      fetched: (ms) => this.#metrics.fetched(ms),
      debug: this.options.debug,
    });
  }

  /** The Java consumer's metrics now (consumer-fetch-manager-metrics: records-consumed-rate, records-lag per partition, ...; consumer-coordinator-metrics; consumer-metrics). */
  metrics(): MetricValue[] { return this.#metrics.snapshot(); }

  /** Every metric name metrics() gives (for the prom-client and OpenTelemetry adapters). */
  metricNames(): { group: string; name: string }[] { return this.#metrics.metrics.names(); }

  // ---- starting ----

  /** Connects and joins (or assigns); iterating or run() call it. */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    const o = this.options;
    if (o.enableMetricsPush !== false) {
      this.#telemetry = new TelemetryPusher(this.client, () => this.metrics(), this.options.debug);
      this.#telemetry.start();
    }
    if (o.topics) {
      const conn = await this.client.anyConnection();
      const nextGen = o.groupProtocol === 'consumer' || (o.groupProtocol !== 'classic' && conn.versionFor(ApiKey.ConsumerGroupHeartbeat) !== undefined);
      this.#membership = this.#newMembership(nextGen);
      this.#membership.start();
      void this.#checkMetadata(true);
      this.#timers.push(setInterval(() => { void this.#checkMetadata(); }, o.metadataRefreshMs ?? DEFAULT_METADATA_REFRESH_MS));
    } else {
      const partitions: TopicPartitions[] = [];
      for (const a of o.assign!) {
        const info = await this.#assignedTopic(a.topic);
        const all = info.partitions.map((p) => p.partition);
        for (const p of a.partitions ?? []) if (!all.includes(p)) throw new ConsumerError('USAGE', `topic ${a.topic} has no partition ${p} (it has ${all.length})`);
        partitions.push({ topic: a.topic, partitions: [...(a.partitions ?? all)] });
      }
      await this.#metrics.assigned(partitions, false, () => this.#take(partitions));
    }
    if ((o.autoCommit ?? 'interval') === 'interval' && o.groupId !== undefined) {
      this.#timers.push(setInterval(() => { this.commit().catch((err) => this.#fail(err)); }, o.autoCommitIntervalMs ?? DEFAULT_AUTO_COMMIT_INTERVAL_MS));
    }
    for (const t of this.#timers) (t as { unref?: () => void }).unref?.();
  }

  #newMembership(nextGen: boolean): Membership {
    const o = this.options;
    const hooks = this.#hooks();
    if (nextGen) {
      return new NextGenMembership(this.client, {
        groupId: o.groupId!, groupInstanceId: o.groupInstanceId ?? null, rebalanceTimeoutMs: o.rebalanceTimeoutMs ?? DEFAULT_REBALANCE_TIMEOUT_MS,
        serverAssignor: o.serverAssignor ?? null, subscription: o.topics!,
      }, hooks);
    }
    const assignors = (o.assignors ?? ['range', 'cooperative-sticky']).map((a) => {
      if (typeof a !== 'string') return a;
      const found = ASSIGNORS[a];
      if (!found) throw new ConsumerError('USAGE', `unknown assignor ${a} (${Object.keys(ASSIGNORS).join(', ')})`);
      return found;
    });
    return new ClassicMembership(this.client, {
      groupId: o.groupId!, groupInstanceId: o.groupInstanceId ?? null, assignors,
      sessionTimeoutMs: o.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      rebalanceTimeoutMs: o.rebalanceTimeoutMs ?? DEFAULT_REBALANCE_TIMEOUT_MS,
      heartbeatIntervalMs: o.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
    }, hooks);
  }

  #hooks(): MembershipHooks {
    return {
      subscribedTopics: () => this.#resolveSubscription(),
      partitionCounts: async (topics) => {
        await this.client.metadata(topics);
        const counts = new Map<string, number>();
        for (const t of topics) {
          const info = this.client.topics.get(t);
          if (info && info.errorCode === 0 && info.partitions.length > 0) counts.set(t, info.partitions.length);
        }
        return counts;
      },
      assigned: (tps) => this.#metrics.assigned(tps, true, () => this.#take(tps)),
      revoked: (tps) => this.#metrics.givenUp(tps, false, () => this.#giveUp(tps, true)),
      lost: (tps) => this.#metrics.givenUp(tps, true, () => this.#giveUp(tps, false)),
      failed: (err) => {
        // 'auto' found ConsumerGroupHeartbeat listed but the broker does not run KIP-848 groups
        // (group.coordinator.rebalance.protocols without "consumer"): classic, then.
        if ((this.options.groupProtocol ?? 'auto') === 'auto' && this.#membership instanceof NextGenMembership
            && err instanceof ConsumerError && err.errorCode === GroupErrorCode.UNSUPPORTED_VERSION && this.#owned.length === 0) {
          this.options.debug?.(`KIP-848 refused (${err.message}); joining with the classic protocol`);
          this.#membership = this.#newMembership(false);
          this.#membership.start();
          return;
        }
        this.#fail(err);
      },
      debug: this.options.debug,
    };
  }

  /** The subscription's topic names now: names as given, patterns matched against all topics. */
  async #resolveSubscription(): Promise<string[]> {
    const names = new Set<string>();
    const patterns: RegExp[] = [];
    for (const t of this.options.topics ?? []) if (typeof t === 'string') names.add(t); else patterns.push(t);
    if (patterns.length > 0) {
      const md = await this.client.metadata(null);
      for (const t of md.topics) {
        if (t.name === null || t.isInternal || t.name.startsWith('__')) continue;
        if (patterns.some((re) => { re.lastIndex = 0; return re.test(t.name!); })) names.add(t.name);
      }
    }
    this.#subscribed = [...names].sort();
    return this.#subscribed;
  }

  /**
   * Periodic (and once at start): a new topic matching a pattern, a named topic that now exists,
   * or more partitions, means a rebalance; a named topic that does not exist is reported.
   */
  async #checkMetadata(first = false): Promise<void> {
    const m = this.#membership;
    if (!m || (!first && m.state !== 'stable') || this.#closing) return;
    try {
      const before = this.#subscribed.join('\n');
      const topics = await this.#resolveSubscription();
      const md = topics.length > 0 ? await this.client.metadata(topics) : null;
      let changed = topics.join('\n') !== before && !first;
      const named = new Set(this.options.topics?.filter((t) => typeof t === 'string'));
      const missing: string[] = [];
      for (const t of md?.topics ?? []) {
        if (t.name === null) continue;
        if (t.errorCode === GroupErrorCode.UNKNOWN_TOPIC_OR_PARTITION && named.has(t.name)) { missing.push(t.name); continue; }
        if (t.errorCode !== 0) continue;
        if (this.#missing.delete(t.name)) changed = true;
        const n = t.partitions.length;
        if (this.#partitionCounts.has(t.name) && this.#partitionCounts.get(t.name) !== n) changed = true;
        this.#partitionCounts.set(t.name, n);
      }
      if (missing.length > 0) this.#topicsMissing(missing);
      if (changed && m instanceof ClassicMembership) m.requestRejoin('subscribed topics or partition counts changed');
      else if (changed && m instanceof NextGenMembership) m.subscriptionChanged();
    } catch (err) {
      this.options.debug?.(`metadata check failed: ${(err as Error).message}`);
    }
  }

  /** Topics by name that the metadata answered do not exist: said at once (event and log line), fatal with missingTopics 'error'. */
  #topicsMissing(topics: string[]): void {
    const fresh = topics.filter((t) => !this.#missing.has(t));
    for (const t of fresh) this.#missing.add(t);
    const fatal = this.options.missingTopics === 'error' || this.options.assign !== undefined;
    if (fresh.length > 0) {
      this.options.debug?.(`topic${fresh.length > 1 ? 's' : ''} ${fresh.join(', ')} not available: ${kafkaErrorName(GroupErrorCode.UNKNOWN_TOPIC_OR_PARTITION)}${fatal ? '' : ' (waiting for it to be created)'}`);
      this.emit('missingTopics', fresh);
    }
    if (fatal && this.options.topics) this.#fail(missingTopicError(topics[0]!));
  }

  /** An assigned topic's metadata; a topic that does not exist is ConsumerError UNKNOWN_TOPIC. */
  async #assignedTopic(name: string): Promise<TopicInfo> {
    try {
      return await this.client.topic(name);
    } catch (err) {
      if (err instanceof ConnectionError) throw err;
      const code = this.client.topics.get(name)?.errorCode;
      if (code === GroupErrorCode.UNKNOWN_TOPIC_OR_PARTITION || code === undefined) {
        this.#topicsMissing([name]);
        throw missingTopicError(name, err);
      }
      throw new ConsumerError('FETCH', (err as Error).message, { errorCode: code === 0 ? undefined : code, topic: name, cause: err });
    }
  }

  /** Partitions now ours: start each at the group's committed offset, else by the reset policy. */
  async #take(tps: TopicPartitions[]): Promise<void> {
    const committed = this.options.groupId !== undefined ? await this.#fetchCommitted(tps) : new Map();
    const missing: TopicPartitions[] = [];
    for (const tp of tps) {
      const without = tp.partitions.filter((p) => committed.get(tp.topic)?.get(p) === undefined);
      if (without.length > 0) missing.push({ topic: tp.topic, partitions: without });
    }
    const reset = missing.length > 0
      ? await listOffsets(this.client, missing, policyTimestamp(this.options.resetPolicy ?? 'latest'), this.options.isolationLevel === 'read_committed' ? 1 : 0)
      : new Map();
    for (const tp of tps) {
      for (const p of tp.partitions) {
        const c = committed.get(tp.topic)?.get(p);
        const k = keyOf(tp.topic, p);
        // Finished here before, past what the group has: that commit was refused; go on from it.
        const ours = this.#finished.get(k)?.offset;
        const resumed = ours !== undefined && (c === undefined || ours > c);
        const offset = resumed ? ours : c ?? reset.get(tp.topic)?.get(p);
        if (offset === undefined) throw new ConsumerError('FETCH', `${tp.topic}/${p}: no start offset`);
        if (c !== undefined) this.#committed.set(k, c); else this.#committed.delete(k);
        if (!resumed) this.#finished.delete(k);
        this.#fetcher.add(tp.topic, p, offset);
        this.#metrics.position(tp.topic, p, offset);
        this.options.debug?.(`${tp.topic}/${p}: starting at ${offset} (${resumed ? 'finished here, not yet committed' : c !== undefined ? 'committed' : 'reset policy'})`);
      }
    }
    this.#owned = mergeTopicPartitions(this.#owned, tps);
    this.emit('assigned', tps);
    if (tps.some((tp) => tp.partitions.some((p) => this.#finished.has(keyOf(tp.topic, p))))) void this.commit().catch((err) => this.#fail(err));
  }

  async #fetchCommitted(tps: TopicPartitions[]): Promise<OffsetMap> {
    for (let attempt = 0; ; attempt++) {
      try {
        const conn = this.#membership ? await this.#membership.coordinator() : await this.#simpleCoordinator();
        return await fetchCommitted(conn, this.options.groupId!, tps);
      } catch (err) {
        const codes = err instanceof PartitionErrors ? err.errors.map((e) => e.errorCode) : [];
        const retriable = err instanceof ConnectionError || codes.every((c) => COORDINATOR_ERRORS.has(c) || c === GroupErrorCode.UNSTABLE_OFFSET_COMMIT);
        if (!retriable || attempt >= 20) throw err instanceof ConsumerError ? err : new ConsumerError('GROUP', `OffsetFetch: ${(err as Error).message}`, { cause: err });
        if (codes.some((c) => COORDINATOR_ERRORS.has(c)) || err instanceof ConnectionError) this.#coordinatorFailed();
        await sleep(Math.min(100 * 2 ** attempt, 1000));
      }
    }
  }

  /** Partitions to give up: drop what is queued, wait for the batch under way, commit (unless lost). */
  async #giveUp(tps: TopicPartitions[], commit: boolean): Promise<void> {
    const keys = new Set(tps.flatMap((tp) => tp.partitions.map((p) => keyOf(tp.topic, p))));
    for (const tp of tps) for (const p of tp.partitions) this.#fetcher.remove(tp.topic, p);
    for (let i = this.#ready.length - 1; i >= 0; i--) {
      const { batch } = this.#ready[i]!;
      if (keys.has(keyOf(batch.topic, batch.partition))) {
        this.#ready.splice(i, 1);
        this.#fetcher.release(batch.byteLength);
        batch.release(); // never handed on: nothing of it is anyone's
      }
    }
    const cur = this.#current;
    if (cur && keys.has(keyOf(cur.batch.topic, cur.batch.partition)) && !this.#closing) await cur.finished;
    if (commit) {
      try {
        await this.#commitNow(keys);
      } catch (err) {
        this.options.debug?.(`commit before giving up partitions failed: ${(err as Error).message}`);
      }
    }
    // What was finished stays known: if the commit above was refused (a rebalance under way) and
    // the partition comes back to this member, #take starts after it and commits it then.
    for (const k of keys) this.#committed.delete(k);
    this.#owned = removeTopicPartitions(this.#owned, tps);
    this.emit(commit ? 'revoked' : 'lost', tps);
  }

  // ---- delivery ----

  #deliver(batch: PartitionBatch<K, V>): void {
    this.#ready.push({ batch, epoch: this.#fetcher.epochOf(batch.topic, batch.partition) });
    const w = this.#readyWaiter;
    this.#readyWaiter = null;
    w?.();
  }

  /** The next batch to hand on (skipping paused partitions), waiting for one; null once closing. */
  async #next(viaRun = false): Promise<PartitionBatch<K, V> | null> {
    for (;;) {
      if (this.#failure) throw this.#failure;
      if (this.#closing) return null;
      const i = this.#ready.findIndex(({ batch }) => !this.#fetcher.isPaused(batch.topic, batch.partition));
      if (i >= 0) {
        const { batch, epoch } = this.#ready.splice(i, 1)[0]!;
        this.#fetcher.release(batch.byteLength);
        if (!this.#fetcher.current(batch.topic, batch.partition, epoch)) { batch.release(); continue; } // seeked or revoked since
        if (batch.batches.length === 0) { this.#markFinished(batch); batch.release(); continue; }
        let finish!: () => void;
        const finished = new Promise<void>((r) => { finish = r; });
        this.#current = { batch, epoch, finished, finish, viaRun };
        this.#metrics.consumed(batch, viaRun);
        return batch;
      }
      await new Promise<void>((r) => { this.#readyWaiter = r; });
    }
  }

  /** The batch handed on last is done with: its offsets become committable. */
  #finishCurrent(): void {
    const cur = this.#current;
    if (!cur) return;
    this.#current = null;
    // Finished counts while the partition is ours, also while it is being given up (the revoke
    // waits for this batch so that it can commit it).
    if (this.#owns(cur.batch.topic, cur.batch.partition) || this.#closing) this.#markFinished(cur.batch);
    cur.finish();
    if (this.options.autoCommit === 'batch') this.commit().catch((err) => this.#fail(err));
  }

  #owns(topic: string, partition: number): boolean {
    return this.#owned.some((tp) => tp.topic === topic && tp.partitions.includes(partition));
  }

  #markFinished(batch: PartitionBatch<unknown, unknown>): void {
    const k = keyOf(batch.topic, batch.partition);
    const prev = this.#finished.get(k);
    if (!prev || prev.offset < batch.nextOffset) this.#finished.set(k, { topic: batch.topic, partition: batch.partition, offset: batch.nextOffset });
  }

  /**
   * Batches one at a time. A batch is finished (its offsets committable) when the loop body runs
   * to its end and the loop asks for the next one. A body left by `throw`, `break` or `return`
   * finishes only what markOffset() marked (or markFinished(batch) before leaving), nothing
   * else: the rest of the batch comes again after a restart. Ends when the consumer closes;
   * throws when it fails.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<PartitionBatch<K, V>, void, undefined> {
    await this.start();
    try {
      for (;;) {
        const batch = await this.#next();
        if (batch === null) return;
        yield batch;
        this.#finishCurrent(); // the loop asked for the next batch: the body ran to its end
      }
    } finally {
      this.#abandonCurrent();
    }
  }

  /** The batch handed on last was left part way: only what markOffset() marked of it counts. */
  #abandonCurrent(): void {
    const cur = this.#current;
    this.#current = null;
    cur?.finish();
  }

  /**
   * Runs a handler for every batch, one at a time, or with `{ eachRecord }` for every record;
   * a batch is finished when its handler resolves, a record when eachRecord resolves for it. A
   * handler that throws finishes nothing more (what resolved before it stays finished), and
   * run() rejects with what it threw. Resolves on close.
   */
  async run(handler: ((batch: PartitionBatch<K, V>) => unknown) | RunHandlers<K, V>): Promise<void> {
    await this.start();
    const eachBatch = typeof handler === 'function' ? handler : handler.eachBatch;
    const eachRecord = typeof handler === 'function' ? undefined : handler.eachRecord;
    if (!eachBatch && !eachRecord) throw new ConsumerError('USAGE', 'run() needs a batch handler, { eachBatch } or { eachRecord }');
    for (;;) {
      const batch = await this.#next(true);
      if (batch === null) return;
      try {
        await this.#metrics.handle(batch, async () => {
          if (eachBatch) await eachBatch(batch);
          else for (const r of batch.records()) await this.#eachRecord(batch, r, eachRecord!);
        });
      } catch (err) {
        // Not finished: its offsets stay uncommitted, so it comes back after a restart.
        this.#abandonCurrent();
        throw err;
      }
      this.#finishCurrent();
    }
  }

  /** One record through eachRecord; once it resolved, the record is finished. */
  async #eachRecord(batch: PartitionBatch<K, V>, r: KafkaRecord, eachRecord: NonNullable<RunHandlers<K, V>['eachRecord']>): Promise<void> {
    await eachRecord(batch.consumerRecord(r), batch);
    if (this.#owns(batch.topic, batch.partition) || this.#closing) this.markOffset(batch.topic, batch.partition, r.offset + 1n);
  }

  /**
   * Marks topic/partition finished up to (not including) `nextOffset`: for a caller that stops
   * part way through a batch. The next commit commits it.
   */
  markOffset(topic: string, partition: number, nextOffset: bigint): void {
    const k = keyOf(topic, partition);
    const prev = this.#finished.get(k);
    if (!prev || prev.offset < nextOffset) this.#finished.set(k, { topic, partition, offset: nextOffset });
  }

  /** Marks a batch handed on by the iterator as finished now (e.g. before a `break` that should commit it). */
  markFinished(batch: PartitionBatch<K, V>): void {
    if (this.#current?.batch === batch) this.#finishCurrent();
    else this.#markFinished(batch);
  }

  // ---- committing ----

  /** Commits every finished offset not committed yet (one OffsetCommit at a time; calls made meanwhile share the next). */
  commit(): Promise<void> {
    if (this.#queuedCommit) return this.#queuedCommit;
    const run = this.#commitChain.catch(() => {}).then(() => {
      this.#queuedCommit = null;
      return this.#commitNow(null);
    });
    this.#queuedCommit = run;
    this.#commitChain = run;
    return run;
  }

  async #commitNow(only: Set<string> | null): Promise<void> {
    if (this.options.groupId === undefined) return;
    const offsets: OffsetMap = new Map();
    const list: { key: string; topic: string; partition: number; offset: bigint }[] = [];
    const owned = new Set(this.#owned.flatMap((tp) => tp.partitions.map((p) => keyOf(tp.topic, p))));
    for (const [key, f] of this.#finished) {
      // Only what is ours now: an old offset of a partition another member has moved on would undo its progress.
      if ((only && !only.has(key)) || !owned.has(key)) continue;
      if (this.#committed.get(key) === f.offset) continue;
      setOffset(offsets, f.topic, f.partition, f.offset);
      list.push({ key, ...f });
    }
    if (list.length === 0) return;
    for (let attempt = 0; ; attempt++) {
      const m = this.#membership;
      const who = m ? m.commitIdentity() : { groupId: this.options.groupId, generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null };
      if (!who) return; // not a member right now: kept for the next commit
      try {
        const conn = m ? await m.coordinator() : await this.#simpleCoordinator();
        await this.#metrics.commit(list, () => commitOffsets(conn, who, offsets));
        for (const c of list) this.#committed.set(c.key, c.offset);
        this.options.debug?.(`committed ${list.map((c) => `${c.topic}/${c.partition}@${c.offset}`).join(' ')}`);
        this.emit('committed', list.map(({ topic, partition, offset }) => ({ topic, partition, offset })));
        return;
      } catch (err) {
        const codes = err instanceof PartitionErrors ? err.errors.map((e) => e.errorCode) : [];
        const E = GroupErrorCode;
        if (codes.some((c) => c === E.REBALANCE_IN_PROGRESS || c === E.UNKNOWN_MEMBER_ID || c === E.ILLEGAL_GENERATION
            || c === E.FENCED_MEMBER_EPOCH || c === E.STALE_MEMBER_EPOCH)) {
          // The generation is moving on (the heartbeat finds out and rejoins): what is still ours
          // after the rebalance is committed then.
          this.options.debug?.(`commit not accepted now (${(err as Error).message}); kept for later`);
          return;
        }
        const retriable = err instanceof ConnectionError || (codes.length > 0 && codes.every((c) => COORDINATOR_ERRORS.has(c)));
        if (!retriable || attempt >= 10) throw err instanceof ConsumerError ? err : new ConsumerError('COMMIT', `commit failed: ${(err as Error).message}`, { cause: err });
        this.#coordinatorFailed();
        await sleep(Math.min(100 * 2 ** attempt, 1000));
      }
    }
  }

  /** Without a membership (assigned partitions, committing as a simple group): the coordinator found once. */
  #simpleCoordinatorConn: Promise<Connection> | null = null;
  async #simpleCoordinator(): Promise<Connection> {
    this.#simpleCoordinatorConn ??= findCoordinator(this.client, this.options.groupId!);
    const c = await this.#simpleCoordinatorConn;
    if (c.closed) { this.#simpleCoordinatorConn = null; return this.#simpleCoordinator(); }
    return c;
  }

  #coordinatorFailed(): void {
    if (this.#membership) this.#membership.coordinatorFailed();
    else { const c = this.#simpleCoordinatorConn; this.#simpleCoordinatorConn = null; c?.then((x) => x.close()).catch(() => {}); }
  }

  // ---- control ----

  /** The partitions this consumer owns now. */
  assignment(): TopicPartitions[] { return this.#owned.map((tp) => ({ topic: tp.topic, partitions: [...tp.partitions] })); }

  /**
   * Per owned partition: the next offset to fetch and the last high watermark seen. It runs ahead
   * of what the app has processed (batches fetched and not yet handed on or finished).
   */
  fetchPositions(): (PartitionOffset & { highWatermark: bigint })[] { return this.#fetcher.positions(); }

  /** The same as fetchPositions() (its older name; it is not what the app has processed). */
  positions(): (PartitionOffset & { highWatermark: bigint })[] { return this.fetchPositions(); }

  /**
   * Per owned partition: the next offset after what the app has finished (a batch whose loop body
   * ran to its end or whose handler resolved, a record eachRecord finished, markOffset()): what the
   * next commit commits. A partition with nothing finished on this member is absent.
   */
  processedPositions(): PartitionOffset[] {
    return this.#ownedEntries([...this.#finished.values()]);
  }

  /**
   * Per owned partition: what the group has committed, as this member knows it (read when the
   * partition was assigned, then its own commits). A partition the group has no offset for is absent.
   */
  committed(): PartitionOffset[] {
    const all: PartitionOffset[] = [];
    for (const tp of this.#owned) for (const p of tp.partitions) {
      const offset = this.#committed.get(keyOf(tp.topic, p));
      if (offset !== undefined) all.push({ topic: tp.topic, partition: p, offset });
    }
    return all;
  }

  /**
   * Whether every owned partition has been read to its end: fetched up to the last high watermark
   * seen, and nothing of it waiting to be handed out or being handled. (`consume -e`'s test: the
   * fetch positions alone reach the end while fetched batches still wait in the buffer.)
   */
  atEnd(): boolean {
    const positions = this.#fetcher.positions();
    if (positions.length === 0 || this.#current !== null || this.#ready.length > 0) return false;
    return positions.every((p) => p.highWatermark >= 0n && p.offset >= p.highWatermark);
  }

  #ownedEntries(list: readonly PartitionOffset[]): PartitionOffset[] {
    return list.filter((e) => this.#owns(e.topic, e.partition)).map(({ topic, partition, offset }) => ({ topic, partition, offset }))
      .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  }

  pause(tps: readonly TopicPartitions[]): void { for (const tp of tps) for (const p of tp.partitions) this.#fetcher.setPaused(tp.topic, p, true); }
  resume(tps: readonly TopicPartitions[]): void {
    for (const tp of tps) for (const p of tp.partitions) this.#fetcher.setPaused(tp.topic, p, false);
    const w = this.#readyWaiter; this.#readyWaiter = null; w?.();
  }

  /** Reads topic/partition from `offset` next; batches already fetched past it are dropped. */
  seek(topic: string, partition: number, offset: bigint): void {
    this.#fetcher.seek(topic, partition, offset);
    this.#metrics.position(topic, partition, offset);
  }

  get membership(): Membership | null { return this.#membership; }

  /** Bytes of fetched records waiting for the caller. */
  get bufferedBytes(): number { return this.#fetcher.bufferedBytes; }

  #fail(err: Error): void {
    if (this.#failure || this.#closing) return;
    this.#failure = err;
    if (this.listenerCount('error') > 0) this.emit('error', err);
    const w = this.#readyWaiter; this.#readyWaiter = null; w?.();
  }

  /**
   * Stops fetching, commits what is finished, leaves the group (so the others take over at once)
   * and closes the connections. A batch the iterator has handed on and the loop has not finished
   * is not committed (it comes again); run() waits for its handler.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const t of this.#timers) clearInterval(t);
      const w = this.#readyWaiter; this.#readyWaiter = null; w?.();
      if (this.#started) await this.#started.catch(() => {});
      // run(): the handler under way finishes first, so its batch is committed with the rest.
      if (this.#current?.viaRun) await this.#current.finished;
      this.#fetcher.close();
      try {
        const m = this.#membership;
        if (m) await this.#metrics.leave(() => m.close());
        else await this.#commitNow(null);
      } finally {
        await this.#commitChain.catch(() => {});
        await this.#telemetry?.close();
        await this.client.close();
        const c = this.#simpleCoordinatorConn;
        if (c) await c.then((x) => x.close()).catch(() => {});
      }
    })();
    return this.#closing;
  }
}

function missingTopicError(topic: string, cause?: unknown): ConsumerError {
  const code = GroupErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  return new ConsumerError('UNKNOWN_TOPIC', `topic ${topic} does not exist: ${kafkaErrorName(code)}`, { errorCode: code, topic, cause });
}

function mergeTopicPartitions(a: readonly TopicPartitions[], b: readonly TopicPartitions[]): TopicPartitions[] {
  const m = new Map<string, Set<number>>();
  for (const tp of [...a, ...b]) for (const p of tp.partitions) (m.get(tp.topic) ?? m.set(tp.topic, new Set()).get(tp.topic)!).add(p);
  return [...m].map(([topic, ps]) => ({ topic, partitions: [...ps].sort((x, y) => x - y) }));
}

function removeTopicPartitions(a: readonly TopicPartitions[], b: readonly TopicPartitions[]): TopicPartitions[] {
  const drop = new Set(b.flatMap((tp) => tp.partitions.map((p) => keyOf(tp.topic, p))));
  return a.map((tp) => ({ topic: tp.topic, partitions: tp.partitions.filter((p) => !drop.has(keyOf(tp.topic, p))) })).filter((tp) => tp.partitions.length > 0);
}
