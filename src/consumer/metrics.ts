// The consumer's metrics under the Java consumer's names and groups: what was consumed and how
// far behind it is (consumer-fetch-manager-metrics: records-consumed-rate, bytes-consumed-rate,
// fetch-rate, fetch-latency-avg, records-lag per partition, records-lag-max), the group's work
// (consumer-coordinator-metrics: commit-latency-avg, commit-rate, assigned-partitions,
// rebalance-total, rebalance-latency-avg, ...) and the connections (consumer-metrics:
// connection-count, request-rate, request-latency-avg, ...). It also publishes the consumer's
// diagnostics channels, kafka-wire:fetch (each batch handed to the app) and kafka-wire:group
// (join, assign, revoke, lost, commit, leave): the consumer calls into it at those points.
//
// Lag is Java's: the partition's end offset (the last Fetch answer's high watermark) minus the
// consumer's position (the offset after the last record handed to the app, or where it started).
import { Metrics, type MetricValue } from '../observe/metrics.js';
import { NetworkMetrics } from '../observe/network-metrics.js';
import { fetchChannel, groupChannel, type FetchTrace, type GroupEvent, type GroupTrace } from '../observe/channels.js';
import type { TopicPartitions } from './protocol.js';

const FETCH = 'consumer-fetch-manager-metrics';
const COORDINATOR = 'consumer-coordinator-metrics';
const CONSUMER = 'consumer-metrics';

/** What a handed-out batch tells the metrics (PartitionBatch has these). */
interface BatchLike { topic: string; partition: number; firstOffset: bigint; nextOffset: bigint; highWatermark: bigint; byteLength: number; recordCount: number }

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const names = (tps: readonly TopicPartitions[]) => tps.flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`));
const count = (tps: readonly TopicPartitions[]) => tps.reduce((n, tp) => n + tp.partitions.length, 0);

export class ConsumerMetrics {
  readonly metrics: Metrics;
  /** The connections' observer (ConnectOptions.observer of the consumer's client). */
  readonly network: NetworkMetrics;
  readonly #groupId: string | null;
  readonly #memberId: () => string;
  readonly #highWatermark: (topic: string, partition: number) => bigint;
  /** Per partition read now: the consumer's position. */
  readonly #positions = new Map<string, { topic: string; partition: number; offset: bigint }>();
  readonly #recordsConsumed;
  readonly #bytesConsumed;
  readonly #fetch;
  readonly #fetchLatency;
  readonly #commit;
  readonly #commitLatency;
  readonly #rebalanceLatency;
  readonly #assignedLatency;
  readonly #revokedLatency;
  readonly #lostLatency;
  #rebalances = 0;
  #failedRebalances = 0;
  #assigned = 0;
  /** When the rebalance under way began (start, a revoke or a loss); null when none is. */
  #rebalanceStart: number | null;
  #lastRebalance: number | null = null;
  #rebalanceLatencyTotal = 0;

  constructor(clientId: string, live: { groupId: string | null; memberId: () => string; highWatermark: (topic: string, partition: number) => bigint }) {
    const m = this.metrics = new Metrics(clientId);
    this.#groupId = live.groupId;
    this.#memberId = live.memberId;
    this.#highWatermark = live.highWatermark;
    this.#rebalanceStart = Date.now();
    this.#recordsConsumed = m.meter(FETCH, 'records-consumed');
    this.#bytesConsumed = m.meter(FETCH, 'bytes-consumed');
    this.#fetch = m.meter(FETCH, 'fetch');
    this.#fetchLatency = m.stat(FETCH, 'fetch-latency');
    m.gauge(FETCH, 'records-lag-max', () => { let max = NaN; for (const l of this.#lags()) if (!(l.value <= max)) max = l.value; return max; });
    m.gauges(FETCH, 'records-lag', () => this.#lags());
    this.#commit = m.meter(COORDINATOR, 'commit');
    this.#commitLatency = m.stat(COORDINATOR, 'commit-latency');
    m.gauge(COORDINATOR, 'assigned-partitions', () => this.#assigned);
    m.gauge(COORDINATOR, 'rebalance-total', () => this.#rebalances);
    m.gauge(COORDINATOR, 'failed-rebalance-total', () => this.#failedRebalances);
    this.#rebalanceLatency = m.stat(COORDINATOR, 'rebalance-latency');
    m.gauge(COORDINATOR, 'rebalance-latency-total', () => this.#rebalanceLatencyTotal);
    m.gauge(COORDINATOR, 'last-rebalance-seconds-ago', () => this.#lastRebalance === null ? -1 : (Date.now() - this.#lastRebalance) / 1000);
    this.#assignedLatency = m.stat(COORDINATOR, 'partition-assigned-latency');
    this.#revokedLatency = m.stat(COORDINATOR, 'partition-revoked-latency');
    this.#lostLatency = m.stat(COORDINATOR, 'partition-lost-latency');
    this.network = new NetworkMetrics(m, CONSUMER);
  }

  /** Per partition read now whose end offset is known: end offset minus position. */
  *#lags(): Generator<{ tags: Record<string, string>; value: number }> {
    for (const p of this.#positions.values()) {
      const hw = this.#highWatermark(p.topic, p.partition);
      if (hw < 0n) continue;
      const lag = hw - p.offset;
      yield { tags: { topic: p.topic, partition: String(p.partition) }, value: Number(lag > 0n ? lag : 0n) };
    }
  }

  // ---- fetching ----

  /** A Fetch was answered after `ms`. */
  fetched(ms: number): void {
    this.#fetch.record();
    this.#fetchLatency.record(ms);
  }

  /** The consumer reads topic/partition from `offset` (assigned, or seeked). */
  position(topic: string, partition: number, offset: bigint): void {
    this.#positions.set(keyOf(topic, partition), { topic, partition, offset });
  }

  /** A batch goes to the app: counted, the position moves past it, and kafka-wire:fetch sees it unless `traced` (run() traces its handler). */
  consumed(batch: BatchLike, traced: boolean): void {
    const records = batch.recordCount;
    this.#recordsConsumed.record(records);
    this.#bytesConsumed.record(batch.byteLength);
    const p = this.#positions.get(keyOf(batch.topic, batch.partition));
    if (p !== undefined && p.offset < batch.nextOffset) p.offset = batch.nextOffset;
    if (!traced) fetchChannel.event(() => this.#fetchTrace(batch, records));
  }

  /** run()'s handler for a batch, traced on kafka-wire:fetch (start, asyncEnd, error when it throws). */
  handle<T>(batch: BatchLike, fn: () => Promise<T>): Promise<T> {
    return fetchChannel.tracePromise(() => this.#fetchTrace(batch, batch.recordCount), fn);
  }

  #fetchTrace(batch: BatchLike, records: number): FetchTrace {
    return { topic: batch.topic, partition: batch.partition, records, bytes: batch.byteLength, firstOffset: batch.firstOffset, groupId: this.#groupId };
  }

  // ---- the group ----

  #groupTrace(event: GroupEvent, partitions: string[]): GroupTrace {
    return { event, groupId: this.#groupId ?? '', memberId: this.#memberId(), partitions };
  }

  /** Partitions became ours (`take` starts reading them); `member`: a group's rebalance done, traced as join then assign. */
  async assigned(tps: TopicPartitions[], member: boolean, take: () => Promise<void>): Promise<void> {
    const t0 = Date.now();
    if (member) groupChannel.event(() => this.#groupTrace('join', []));
    try {
      await groupChannel.tracePromise(() => this.#groupTrace('assign', names(tps)), take);
    } catch (err) {
      this.#failedRebalances++;
      throw err;
    }
    const now = Date.now();
    this.#assigned += count(tps);
    this.#assignedLatency.record(now - t0);
    if (member) {
      this.#rebalances++;
      this.#lastRebalance = now;
      const ms = now - (this.#rebalanceStart ?? t0);
      this.#rebalanceLatency.record(ms);
      this.#rebalanceLatencyTotal += ms;
      this.#rebalanceStart = null;
    }
  }

  /** Partitions given up (`giveUp` commits and stops reading them), or lost without a commit. */
  async givenUp(tps: TopicPartitions[], lost: boolean, giveUp: () => Promise<void>): Promise<void> {
    const t0 = Date.now();
    this.#rebalanceStart ??= t0;
    await groupChannel.tracePromise(() => this.#groupTrace(lost ? 'lost' : 'revoke', names(tps)), giveUp);
    (lost ? this.#lostLatency : this.#revokedLatency).record(Date.now() - t0);
    this.#assigned = Math.max(0, this.#assigned - count(tps));
    for (const tp of tps) for (const p of tp.partitions) this.#positions.delete(keyOf(tp.topic, p));
  }

  /** One OffsetCommit (`send`), timed and traced as commit. */
  async commit<T>(offsets: readonly { topic: string; partition: number; offset: bigint }[], send: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const result = await groupChannel.tracePromise(() => this.#groupTrace('commit', offsets.map((o) => `${o.topic}-${o.partition}`)), send);
    this.#commit.record();
    this.#commitLatency.record(performance.now() - t0);
    return result;
  }

  /** Leaving the group (`leave`), traced as leave. */
  leave(leave: () => Promise<void>): Promise<void> {
    return groupChannel.tracePromise(() => this.#groupTrace('leave', []), leave);
  }

  snapshot(): MetricValue[] { return this.metrics.snapshot(); }
}
