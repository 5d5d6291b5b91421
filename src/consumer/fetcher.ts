// Fetching for a consumer: one loop per leader broker, each with one Fetch in flight for the
// partitions that broker leads and the consumer owns, unpaused, with a known position. Answers
// are decoded (eager or lazy), filtered for read_committed, and queued as per-partition batches;
// no new Fetch starts while the queued bytes are at the limit, so a busy caller holds memory to
// that limit. A partition's `epoch` changes when it is removed or seeked, so an answer that
// arrives afterwards for the old position is dropped rather than delivered.

import type { KafkaClient } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { decodeRecordBatches, type KafkaRecord, type RecordBatch } from '../records/index.js';
import { FETCH_MAX_BYTES, FETCH_PARTITION_MAX_BYTES } from '../limits.js';
import { readCommitted } from '../wire/isolation.js';
import { ConsumerError, GroupErrorCode, RETRIABLE_PARTITION_ERRORS } from './errors.js';
import { listOffsets, policyTimestamp, type ResetPolicy } from './offsets.js';
import { fetchOnce, type FetchAnswer } from './assigned.js';
import { RecordDeserializer, type ConsumerRecord } from '../serde.js';

const NO_DESERIALIZER = new RecordDeserializer<Uint8Array, Uint8Array>({});

/** Records of one partition from one Fetch, in offset order (K, V: what the consumer's deserialisers give). */
export class PartitionBatch<K = Uint8Array, V = Uint8Array> {
  readonly #deserializer: RecordDeserializer<K, V>;

  constructor(
    readonly topic: string,
    readonly partition: number,
    /** Decoded batches; with read_committed, aborted ones and control batches are already gone. */
    readonly batches: readonly RecordBatch[],
    /** The first offset to handle: the first batch may begin before it (a compressed batch is fetched whole). */
    readonly firstOffset: bigint,
    /** The offset after this answer: what finishing this batch commits. */
    readonly nextOffset: bigint,
    readonly highWatermark: bigint,
    /** Bytes of record data held (what counts against the buffer limit). */
    readonly byteLength: number,
    deserializer: RecordDeserializer<K, V> = NO_DESERIALIZER as RecordDeserializer<never, never>,
  ) {
    this.#deserializer = deserializer;
  }

  /**
   * The records from firstOffset on as ConsumerRecords: keys and values through the consumer's
   * keyDeserializer / valueDeserializer (bytes without one), offsets and timestamps absolute.
   * A deserialiser that throws throws SerdeError here (in the handler: nothing more is finished).
   */
  consumerRecords(): ConsumerRecord<K, V>[] {
    return this.records().map((r) => this.consumerRecord(r));
  }

  /** One record of this batch (from records()) as a ConsumerRecord. */
  consumerRecord(record: KafkaRecord): ConsumerRecord<K, V> {
    return this.#deserializer.record(this.topic, this.partition, record);
  }

  /** The records from firstOffset on (materialized; for speed, walk `batches` with the lazy accessors). */
  records(): KafkaRecord[] {
    const out: KafkaRecord[] = [];
    for (const b of this.batches) for (const r of b.records) if (r.offset >= this.firstOffset) out.push(r);
    return out;
  }

  /** How many records from firstOffset on. */
  get recordCount(): number {
    let n = 0;
    for (const b of this.batches) {
      const skip = this.firstOffset - b.baseOffset;
      if (skip <= 0n) { n += b.recordCount; continue; }
      for (let i = 0; i < b.recordCount; i++) if (BigInt(b.offsetDeltaAt(i)) >= skip) n++;
    }
    return n;
  }
}

export interface FetcherOptions {
  isolationLevel: 0 | 1;
  lazy: boolean;
  maxWaitMs: number;
  maxBytes: number;
  partitionMaxBytes: number;
  maxBufferedBytes: number;
  resetPolicy: ResetPolicy;
  /** Given to every batch: its consumerRecords() deserialise with it. */
  deserializer?: RecordDeserializer<unknown, unknown>;
  /** A batch is ready (the consumer queues it). */
  deliver(batch: PartitionBatch<unknown, unknown>): void;
  /** Fetching a partition cannot go on. */
  failed(error: Error): void;
  /** A Fetch was answered after `ms` (the consumer's metrics). */
  fetched?(ms: number): void;
  debug?(message: string): void;
}

export const FETCH_DEFAULTS = { maxWaitMs: 500, maxBytes: FETCH_MAX_BYTES, partitionMaxBytes: FETCH_PARTITION_MAX_BYTES, maxBufferedBytes: 64 << 20 } as const;

interface Position {
  topic: string;
  partition: number;
  offset: bigint;
  epoch: number;
  paused: boolean;
  /** A Fetch for it is under way (a leader change must not start a second one). */
  inFlight: boolean;
  /** Waiting for a reset (ListOffsets) after OFFSET_OUT_OF_RANGE. */
  resetting: boolean;
  highWatermark: bigint;
}

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;
/** Metadata refreshes for leader changes at most this often. */
const MIN_REFRESH_INTERVAL_MS = 200;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Fetcher {
  readonly #positions = new Map<string, Position>();
  readonly #loops = new Map<number, Promise<void>>();
  #epochs = 0;
  #buffered = 0;
  #spaceWaiters: (() => void)[] = [];
  #closed = false;
  #refreshing: Promise<void> | null = null;
  #lastRefresh = 0;
  /** Connections with a Fetch under way. */
  readonly #waiting = new Set<Connection>();

  constructor(private readonly client: KafkaClient, private readonly options: FetcherOptions) {}

  get bufferedBytes(): number { return this.#buffered; }

  /** Starts reading topic/partition at offset (replacing any earlier position). */
  add(topic: string, partition: number, offset: bigint): void {
    this.#positions.set(keyOf(topic, partition), {
      topic, partition, offset, epoch: ++this.#epochs, paused: false, inFlight: false, resetting: false, highWatermark: -1n,
    });
    this.#kick();
  }

  /** Stops reading it; an answer still under way for it is dropped. */
  remove(topic: string, partition: number): void {
    this.#positions.delete(keyOf(topic, partition));
  }

  has(topic: string, partition: number): boolean { return this.#positions.has(keyOf(topic, partition)); }

  /** Whether this batch is still for the current position (not removed or seeked since). */
  current(topic: string, partition: number, epoch: number): boolean {
    return this.#positions.get(keyOf(topic, partition))?.epoch === epoch;
  }

  epochOf(topic: string, partition: number): number { return this.#positions.get(keyOf(topic, partition))?.epoch ?? -1; }

  seek(topic: string, partition: number, offset: bigint): void {
    const p = this.#positions.get(keyOf(topic, partition));
    if (!p) throw new ConsumerError('USAGE', `seek: ${topic}/${partition} is not assigned to this consumer`);
    p.offset = offset;
    p.epoch = ++this.#epochs;
    p.inFlight = false; // the answer under way is dropped (epoch), so another may start
    p.resetting = false;
    this.#kick();
  }

  setPaused(topic: string, partition: number, paused: boolean): void {
    const p = this.#positions.get(keyOf(topic, partition));
    if (!p) throw new ConsumerError('USAGE', `${paused ? 'pause' : 'resume'}: ${topic}/${partition} is not assigned to this consumer`);
    p.paused = paused;
    if (!paused) this.#kick();
  }

  isPaused(topic: string, partition: number): boolean { return this.#positions.get(keyOf(topic, partition))?.paused ?? false; }

  highWatermark(topic: string, partition: number): bigint { return this.#positions.get(keyOf(topic, partition))?.highWatermark ?? -1n; }

  /** Position (next offset to fetch) of every partition. */
  positions(): { topic: string; partition: number; offset: bigint; highWatermark: bigint }[] {
    return [...this.#positions.values()].map(({ topic, partition, offset, highWatermark }) => ({ topic, partition, offset, highWatermark }));
  }

  /** The consumer handed a batch on or dropped it: its bytes no longer count. */
  release(bytes: number): void {
    this.#buffered -= bytes;
    if (this.#buffered < this.options.maxBufferedBytes && this.#spaceWaiters.length > 0) {
      const waiters = this.#spaceWaiters;
      this.#spaceWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Stops fetching. A Fetch still waiting at the broker is not waited for (its answer is dropped). */
  close(): void {
    this.#closed = true;
    const waiters = this.#spaceWaiters;
    this.#spaceWaiters = [];
    for (const w of waiters) w();
    for (const p of this.#positions.values()) p.epoch = ++this.#epochs;
    // A Fetch the broker holds (up to maxWaitMs) would hold the connection's close as long.
    for (const conn of this.#waiting) conn.destroy();
    this.#waiting.clear();
  }

  /** Metadata refreshed since a leader moved or a broker went away; then loops start where needed. */
  refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      // A leader that stays unknown (a partition offline) must not turn into back-to-back Metadata.
      await sleep(Math.max(0, this.#lastRefresh + MIN_REFRESH_INTERVAL_MS - Date.now()));
      this.#lastRefresh = Date.now();
      try {
        const topics = [...new Set([...this.#positions.values()].map((p) => p.topic))];
        if (topics.length > 0) await this.client.metadata(topics);
      } catch (err) {
        this.options.debug?.(`metadata refresh failed: ${(err as Error).message}`);
        await sleep(500);
      } finally {
        this.#refreshing = null;
      }
      this.#kick();
    })();
    return this.#refreshing;
  }

  #leaderOf(p: Position): number {
    return this.client.leaderOf(p.topic, p.partition);
  }

  #fetchable(p: Position): boolean {
    return !p.paused && !p.inFlight && !p.resetting;
  }

  /** Starts a loop for every leader with fetchable partitions and none running. */
  #kick(): void {
    if (this.#closed) return;
    let unknown = false;
    const leaders = new Set<number>();
    for (const p of this.#positions.values()) {
      if (!this.#fetchable(p)) continue;
      const leader = this.#leaderOf(p);
      if (leader < 0) unknown = true; else leaders.add(leader);
    }
    for (const leader of leaders) {
      if (this.#loops.has(leader)) continue;
      const loop = this.#loop(leader).catch((err) => this.options.failed(err)).finally(() => {
        if (this.#loops.get(leader) === loop) this.#loops.delete(leader);
        // Partitions may have moved to it while it was ending.
        if (!this.#closed && [...this.#positions.values()].some((p) => this.#fetchable(p) && this.#leaderOf(p) === leader)) this.#kick();
      });
      this.#loops.set(leader, loop);
    }
    if (unknown && !this.#refreshing) void this.refresh();
  }

  async #loop(leader: number): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      if (this.#buffered >= this.options.maxBufferedBytes) {
        await new Promise<void>((r) => this.#spaceWaiters.push(r));
        continue;
      }
      const parts = [...this.#positions.values()].filter((p) => this.#fetchable(p) && this.#leaderOf(p) === leader);
      if (parts.length === 0) return;
      const taken = parts.map((p) => ({ p, offset: p.offset, epoch: p.epoch }));
      for (const t of taken) t.p.inFlight = true;
      let answer: FetchAnswer[];
      let conn: Connection | undefined;
      try {
        conn = await this.client.broker(leader);
        this.#waiting.add(conn);
        const t0 = performance.now();
        answer = await this.#fetch(conn, taken.map((t) => [t.p.topic, t.p.partition, t.offset] as const));
        this.options.fetched?.(performance.now() - t0);
        failures = 0;
      } catch (err) {
        if (conn) this.#waiting.delete(conn);
        for (const t of taken) if (t.p.epoch === t.epoch) t.p.inFlight = false;
        if (err instanceof ConsumerError || this.#closed) throw err;
        failures++;
        this.options.debug?.(`Fetch from broker ${leader} failed (${(err as Error).message}); refreshing metadata`);
        await sleep(Math.min(50 * 2 ** failures, 1000));
        await this.refresh();
        continue;
      }
      this.#waiting.delete(conn);
      if (this.#closed) return;
      let refresh = false;
      for (const t of taken) {
        const current = this.#positions.get(keyOf(t.p.topic, t.p.partition)) === t.p && t.p.epoch === t.epoch;
        if (current) t.p.inFlight = false;
        const a = answer.find((x) => x.topic === t.p.topic && x.partition === t.p.partition);
        if (!current || !a) continue;
        if (a.errorCode !== 0) this.options.debug?.(`Fetch ${t.p.topic}/${t.p.partition} at ${t.offset}: ${kafkaErrorName(a.errorCode)}`);
        if (a.errorCode === GroupErrorCode.OFFSET_OUT_OF_RANGE) { void this.#reset(t.p); continue; }
        if (RETRIABLE_PARTITION_ERRORS.has(a.errorCode)) { refresh = true; continue; }
        if (a.errorCode !== 0) throw new ConsumerError('FETCH', `Fetch ${t.p.topic}/${t.p.partition} at ${t.offset}: ${kafkaErrorName(a.errorCode)}`, { errorCode: a.errorCode });
        t.p.highWatermark = a.highWatermark;
        this.#accept(t.p, t.offset, a);
      }
      if (refresh) await this.refresh();
    }
  }

  /** Decodes one partition's answer, moves its position on, and delivers what is left to deliver. */
  #accept(p: Position, from: bigint, a: FetchAnswer): void {
    if (a.records === null || a.records.length === 0) return;
    const decoded = decodeRecordBatches(a.records, { lazy: this.options.lazy }).batches;
    if (decoded.length === 0) return;
    const last = decoded[decoded.length - 1]!;
    const next = last.baseOffset + BigInt(last.lastOffsetDelta) + 1n;
    if (next <= from) return;
    p.offset = next;
    let batches = this.options.isolationLevel === 1 ? readCommitted(decoded, a.abortedTransactions) : decoded.filter((b) => !b.isControl);
    batches = batches.filter((b) => b.baseOffset + BigInt(b.lastOffsetDelta) >= from && b.recordCount > 0);
    let bytes = 0;
    for (const b of batches) bytes += b.byteLength;
    this.#buffered += bytes;
    // An answer of only markers or aborted records still moves the committable offset on.
    this.options.deliver(new PartitionBatch(p.topic, p.partition, batches, from, next, a.highWatermark, bytes, this.options.deserializer));
  }

  /** OFFSET_OUT_OF_RANGE: the position under the reset policy. */
  async #reset(p: Position): Promise<void> {
    p.resetting = true;
    const epoch = p.epoch;
    try {
      const ts = policyTimestamp(this.options.resetPolicy);
      const offsets = await listOffsets(this.client, [{ topic: p.topic, partitions: [p.partition] }], ts, this.options.isolationLevel);
      const offset = offsets.get(p.topic)?.get(p.partition);
      if (p.epoch !== epoch || offset === undefined) return;
      this.options.debug?.(`${p.topic}/${p.partition}: offset ${p.offset} out of range, reset to ${offset}`);
      p.offset = offset;
    } catch (err) {
      this.options.failed(err instanceof ConsumerError ? err : new ConsumerError('FETCH', `${p.topic}/${p.partition}: reset failed: ${(err as Error).message}`, { cause: err }));
    } finally {
      if (p.epoch === epoch) p.resetting = false;
      this.#kick();
    }
  }

  /** The one Fetch (assigned.ts), with this fetcher's sizes and isolation level. */
  #fetch(conn: Connection, wanted: readonly (readonly [string, number, bigint])[]): Promise<FetchAnswer[]> {
    return fetchOnce(this.client, conn, wanted, this.options);
  }
}
