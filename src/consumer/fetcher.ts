// The library's one fetch loop: one loop per leader broker, each with one Fetch in flight for the
// partitions that broker leads and the reader owns, unpaused, not at their end, with a known
// position. An answer is decoded (eager or lazy), filtered for read_committed, every position moved
// past it, and the next Fetch sent BEFORE its records are handed on, so the broker and the network
// work while the caller does (what made the CLI's loop the fast one). No new Fetch starts while the
// handed-on bytes not yet released are at the limit, so a busy caller holds memory to that limit. A
// partition's `epoch` changes when it is removed or seeked, so an answer that arrives afterwards for
// the old position is dropped rather than delivered. Two readers run on it: the Consumer (batches
// queued for its iterator and run(), in every mode) and readAssigned (./assigned.ts: records handed
// on at once, to the partitions' ends). And the one Fetch request with its answer (fetchOnce).
// Memory: a batch its reader releases gives its row tables, and its answer's frame once every
// batch of the answer is released, back to pools that the next answers are read into.

import type { KafkaClient } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { decodeRecordBatches, type KafkaRecord, type RecordBatch } from '../records/index.js';
import { prepareRecordsWasm } from '../records/decode.js';
import { FETCH_MAX_BYTES, FETCH_PARTITION_MAX_BYTES } from '../limits.js';
import { readCommitted, type AbortedTransaction } from '../wire/isolation.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, GroupErrorCode, RETRIABLE_PARTITION_ERRORS } from './errors.js';
import { listOffsets, policyTimestamp, type ResetPolicy } from './offsets.js';
import { RecordDeserializer, type ConsumerRecord } from '../serde.js';
import { FramePool } from '../wire/frame-pool.js';

const NO_DESERIALIZER = new RecordDeserializer<Uint8Array, Uint8Array>({});

/**
 * The memory a Fetch answer's delivered batches lie in: its frame goes back to `frames` (when the
 * connection received it into a buffer of that pool) once all `left` of them are released; each
 * batch's row tables go back to `tables` with it.
 */
interface AnswerMemory { frames: FramePool | undefined; tables: FramePool; frame: ArrayBufferLike; left: number }

const NO_BATCHES: readonly RecordBatch[] = Object.freeze([]);

/** Records of one partition from one Fetch, in offset order (K, V: what the consumer's deserialisers give). */
export class PartitionBatch<K = Uint8Array, V = Uint8Array> {
  readonly #deserializer: RecordDeserializer<K, V>;
  #batches: readonly RecordBatch[];
  /** @internal Set by the Fetcher on delivery: what release() gives back. */
  _memory: AnswerMemory | undefined = undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    batches: readonly RecordBatch[],
    /** The first offset to handle: the first batch may begin before it (a compressed batch is fetched whole). */
    readonly firstOffset: bigint,
    /** The offset after this answer: what finishing this batch commits. */
    readonly nextOffset: bigint,
    readonly highWatermark: bigint,
    /** Bytes of record data held (what counts against the buffer limit). */
    readonly byteLength: number,
    deserializer: RecordDeserializer<K, V> = NO_DESERIALIZER as RecordDeserializer<never, never>,
  ) {
    this.#batches = batches;
    this.#deserializer = deserializer;
  }

  /** Decoded batches; with read_committed, aborted ones and control batches are already gone. None once released. */
  get batches(): readonly RecordBatch[] {
    return this.#batches;
  }

  /**
   * Says the caller is done with this batch: nothing read from it (records, their keys, values
   * and headers, views of a batch's `data`) is used any more, for they will be overwritten. Its
   * memory then goes to the answers that follow (its row tables at once, its answer's frame once
   * every partition of that answer is released): no fresh memory per answer and far less for
   * the GC. Optional: without it the memory is the GC's, as ever. Afterwards `batches` is empty;
   * offsets (finishing, commits) are not affected; a second release does nothing.
   */
  release(): void {
    const memory = this._memory;
    const batches = this.#batches;
    this.#batches = NO_BATCHES;
    this._memory = undefined;
    if (memory === undefined) return;
    for (const b of batches) {
      if (b._rows !== undefined) memory.tables.giveBack(b._rows.buffer);
      if (b._hdrs !== undefined) memory.tables.giveBack(b._hdrs.buffer);
    }
    if (--memory.left === 0) memory.frames?.giveBack(memory.frame);
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
  /** Handed-on bytes not yet released at which no new Fetch starts (Infinity: the caller releases at once). */
  maxBufferedBytes: number;
  /** Where OFFSET_OUT_OF_RANGE moves a partition (ListOffsets); without one it is an error. */
  resetPolicy?: ResetPolicy;
  /**
   * A Fetch that fails (the connection) or a partition whose leader moved: 'retry' (default)
   * refreshes the metadata and fetches again; 'fail' is an error at once (readAssigned's way).
   */
  onFetchError?: 'retry' | 'fail';
  /** A partition that reached its end (the high watermark; read_committed: the last stable offset) is no longer fetched. */
  exitAtEnd?: boolean;
  /** Given to every batch: its consumerRecords() deserialise with it. */
  deserializer?: RecordDeserializer<unknown, unknown>;
  /** A batch is ready: the next Fetch for its leader is already under way (the consumer queues it; readAssigned hands its records on). */
  deliver(batch: PartitionBatch<unknown, unknown>): void;
  /** Fetching a partition cannot go on. */
  failed(error: Error): void;
  /** Nothing is left to fetch: no loop runs and every position is at its end (exitAtEnd) or removed. */
  ended?(): void;
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
  /** Where it ends (with exitAtEnd): the high watermark, under read_committed the last stable offset; -1 unknown. */
  end: bigint;
  /** exitAtEnd: it reached its end and is no longer fetched. */
  done: boolean;
}

/** One Fetch sent for some positions (each with the offset and epoch it was sent for), and what came of it. */
type Sent =
  | { taken: { p: Position; offset: bigint; epoch: number }[]; answer: FetchAnswer[] }
  | { taken: { p: Position; offset: bigint; epoch: number }[]; error: unknown };

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
  #endCheck = false;
  #kickQueued = false;
  /** Connections with a Fetch under way. */
  readonly #waiting = new Set<Connection>();
  /**
   * Where lazy decodes put their row tables, and released batches give them back (a table is
   * 40 bytes a record: as much garbage as the records' bytes, without it). Tables of 64 KiB and
   * more are pooled; an answer's partitions each have one, hence more kept than of frames.
   */
  readonly #tables = new FramePool({ keep: 16, minBytes: 64 << 10 });
  readonly #allocateTables = (bytes: number) => this.#tables.take(bytes);

  constructor(private readonly client: KafkaClient, private readonly options: FetcherOptions) {
    // While the positions are found (a group joined, offsets looked up), not on the first answer.
    prepareRecordsWasm();
  }

  get bufferedBytes(): number { return this.#buffered; }

  /** Starts reading topic/partition at offset (replacing any earlier position); `end` where it ends if known (exitAtEnd). */
  add(topic: string, partition: number, offset: bigint, end = -1n): void {
    this.#positions.set(keyOf(topic, partition), {
      topic, partition, offset, epoch: ++this.#epochs, paused: false, inFlight: false, resetting: false, highWatermark: -1n,
      end, done: this.options.exitAtEnd === true && end >= 0n && offset >= end,
    });
    this.#kick();
  }

  /** Stops reading it; an answer still under way for it is dropped. */
  remove(topic: string, partition: number): void {
    this.#positions.delete(keyOf(topic, partition));
    this.#checkEnded();
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
    p.done = this.options.exitAtEnd === true && p.end >= 0n && offset >= p.end;
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

  /**
   * Stops fetching: nothing more is delivered. A Fetch under way is left to end on its
   * connection (its answer dropped), so the client's connections stay usable (readAssigned).
   */
  stop(): void {
    this.#closed = true;
    const waiters = this.#spaceWaiters;
    this.#spaceWaiters = [];
    for (const w of waiters) w();
    for (const p of this.#positions.values()) p.epoch = ++this.#epochs;
  }

  /** Stops fetching. A Fetch still waiting at the broker is not waited for (its connection is destroyed). */
  close(): void {
    this.stop();
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
    return !p.paused && !p.inFlight && !p.resetting && !p.done;
  }

  /**
   * Soon (a microtask), a loop for every leader with fetchable partitions and none running.
   * Not at once: partitions are added one after another, and a loop's first Fetch takes what is
   * fetchable when it starts, so partitions assigned together go into one first Fetch (one
   * alone, if empty, would be held by the broker for maxWaitMs while the others wait).
   */
  #kick(): void {
    if (this.#closed || this.#kickQueued) return;
    this.#kickQueued = true;
    queueMicrotask(() => {
      this.#kickQueued = false;
      this.#startLoops();
    });
  }

  #startLoops(): void {
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
        this.#checkEnded();
      });
      this.#loops.set(leader, loop);
    }
    if (unknown && !this.#refreshing) void this.refresh();
    this.#checkEnded();
  }

  /** Soon (positions are often added one after another): `ended` if nothing is left to fetch. */
  #checkEnded(): void {
    if (this.options.ended === undefined || this.#endCheck) return;
    this.#endCheck = true;
    queueMicrotask(() => {
      this.#endCheck = false;
      if (this.#closed || this.#loops.size > 0 || this.#refreshing) return;
      for (const p of this.#positions.values()) if (!p.done) return;
      this.options.ended!();
    });
  }

  /** One leader's loop: a Fetch in flight while the answer before it is handed on. */
  async #loop(leader: number): Promise<void> {
    let failures = 0;
    let pending: Promise<Sent | null> = this.#send(leader);
    for (;;) {
      let sent = await pending;
      if (sent === null || this.#closed) return;
      if ('error' in sent) {
        const err = sent.error as Error;
        if (err instanceof ConsumerError || this.options.onFetchError === 'fail') throw err;
        failures++;
        this.options.debug?.(`Fetch from broker ${leader} failed (${err.message}); refreshing metadata`);
        await sleep(Math.min(50 * 2 ** failures, 1000));
        await this.refresh();
        pending = this.#send(leader);
        continue;
      }
      failures = 0;
      const next = this.#handOn(leader, sent);
      // Nothing of the answer stays referenced from this frame while the next one is awaited: the
      // caller's batches (and the records it materializes on them) die young, as the GC likes.
      sent = null;
      if (next !== null) { pending = next; continue; }
      await this.refresh();
      pending = this.#send(leader);
    }
  }

  /**
   * One answer handed on: the next Fetch for `leader` goes out first (the broker and the network
   * work while the caller does), then the batches are delivered. Null when a leader moved: the
   * caller refreshes the metadata before sending again.
   */
  #handOn(leader: number, sent: { taken: { p: Position; offset: bigint; epoch: number }[]; answer: FetchAnswer[] }): Promise<Sent | null> | null {
    const { ready, refresh } = this.#answered(sent.taken, sent.answer);
    const next = refresh ? null : this.#send(leader);
    const frame = sent.answer.find((a) => a.records !== null)?.records!.buffer;
    if (frame !== undefined && ready.length > 0) {
      const memory = { frames: this.client.options.frames, tables: this.#tables, frame, left: ready.length };
      for (const batch of ready) batch._memory = memory;
    }
    for (const batch of ready) this.options.deliver(batch);
    return next;
  }

  /** Sends the next Fetch for `leader`'s fetchable positions, once the buffer has room; null when there are none. */
  async #send(leader: number): Promise<Sent | null> {
    while (this.#buffered >= this.options.maxBufferedBytes && !this.#closed) await new Promise<void>((r) => this.#spaceWaiters.push(r));
    if (this.#closed) return null;
    const taken: { p: Position; offset: bigint; epoch: number }[] = [];
    for (const p of this.#positions.values()) if (this.#fetchable(p) && this.#leaderOf(p) === leader) taken.push({ p, offset: p.offset, epoch: p.epoch });
    if (taken.length === 0) return null;
    for (const t of taken) t.p.inFlight = true;
    let conn: Connection | undefined;
    try {
      conn = await this.client.broker(leader);
      this.#waiting.add(conn);
      const t0 = this.options.fetched === undefined ? 0 : performance.now();
      const answer = await fetchOnce(this.client, conn, taken.map((t) => [t.p.topic, t.p.partition, t.offset] as const), this.options);
      this.options.fetched?.(performance.now() - t0);
      return { taken, answer };
    } catch (error) {
      for (const t of taken) if (t.p.epoch === t.epoch) t.p.inFlight = false;
      return { taken, error };
    } finally {
      if (conn) this.#waiting.delete(conn);
    }
  }

  /** One answer: every position still current moved past it; the batches to hand on, and whether a leader moved. */
  #answered(taken: { p: Position; offset: bigint; epoch: number }[], answer: FetchAnswer[]): { ready: PartitionBatch<unknown, unknown>[]; refresh: boolean } {
    const retry = this.options.onFetchError !== 'fail';
    const committedOnly = this.options.isolationLevel === 1;
    const ready: PartitionBatch<unknown, unknown>[] = [];
    let refresh = false;
    for (const t of taken) {
      const current = this.#positions.get(keyOf(t.p.topic, t.p.partition)) === t.p && t.p.epoch === t.epoch;
      if (current) t.p.inFlight = false;
      const a = answer.find((x) => x.topic === t.p.topic && x.partition === t.p.partition);
      if (!current || !a) continue;
      if (a.errorCode !== 0) this.options.debug?.(`Fetch ${t.p.topic}/${t.p.partition} at ${t.offset}: ${kafkaErrorName(a.errorCode)}`);
      if (a.errorCode === GroupErrorCode.OFFSET_OUT_OF_RANGE && this.options.resetPolicy !== undefined) { void this.#reset(t.p); continue; }
      if (retry && RETRIABLE_PARTITION_ERRORS.has(a.errorCode)) { refresh = true; continue; }
      if (a.errorCode !== 0) throw new ConsumerError('FETCH', `Fetch ${t.p.topic}/${t.p.partition} at ${t.offset}: ${kafkaErrorName(a.errorCode)}`, { errorCode: a.errorCode });
      t.p.highWatermark = a.highWatermark;
      // read_committed sees records up to the last stable offset only: that is its end.
      t.p.end = committedOnly && a.lastStableOffset >= 0n ? a.lastStableOffset : a.highWatermark;
      const batch = this.#accept(t.p, t.offset, a);
      if (this.options.exitAtEnd && t.p.offset >= t.p.end) t.p.done = true;
      if (batch) ready.push(batch);
    }
    return { ready, refresh };
  }

  /** Decodes one partition's answer, moves its position on, and counts its bytes; the batch to deliver, if any. */
  #accept(p: Position, from: bigint, a: FetchAnswer): PartitionBatch<unknown, unknown> | undefined {
    if (a.records === null || a.records.length === 0) return undefined;
    const decoded = decodeRecordBatches(a.records, { lazy: this.options.lazy, allocateTables: this.#allocateTables }).batches;
    if (decoded.length === 0) return undefined;
    const last = decoded[decoded.length - 1]!;
    const next = last.baseOffset + BigInt(last.lastOffsetDelta) + 1n;
    if (next <= from) return undefined;
    p.offset = next;
    let batches = this.options.isolationLevel === 1 ? readCommitted(decoded, a.abortedTransactions) : decoded.filter((b) => !b.isControl);
    batches = batches.filter((b) => b.baseOffset + BigInt(b.lastOffsetDelta) >= from && b.recordCount > 0);
    let bytes = 0;
    for (const b of batches) bytes += b.byteLength;
    this.#buffered += bytes;
    // An answer of only markers or aborted records still moves the committable offset on.
    return new PartitionBatch(p.topic, p.partition, batches, from, next, a.highWatermark, bytes, this.options.deserializer);
  }

  /** OFFSET_OUT_OF_RANGE: the position under the reset policy. */
  async #reset(p: Position): Promise<void> {
    p.resetting = true;
    const epoch = p.epoch;
    try {
      const ts = policyTimestamp(this.options.resetPolicy!);
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
}

/** How a Fetch asks: how long the broker may wait, how many bytes in all and per partition, at which isolation level. */
export interface FetchSettings { maxWaitMs: number; maxBytes: number; partitionMaxBytes: number; isolationLevel: number }

/** One partition's part of a Fetch answer, records still as bytes. */
export interface FetchAnswer {
  topic: string;
  partition: number;
  errorCode: number;
  highWatermark: bigint;
  lastStableOffset: bigint;
  records: Uint8Array | null;
  abortedTransactions: AbortedTransaction[] | null;
}

/**
 * One Fetch to `conn` for `wanted` ([topic, partition, offset]), by topic id from v13 (the ids
 * from the client's metadata). A broker without Fetch v4 (record batches v2) is a ConsumerError;
 * an error for the whole request a plain Error (the caller may retry it).
 */
export async function fetchOnce(client: KafkaClient, conn: Connection, wanted: readonly (readonly [string, number, bigint])[], settings: FetchSettings): Promise<FetchAnswer[]> {
  const version = conn.versionFor(ApiKey.Fetch);
  if (version === undefined || version < 4) throw new ConsumerError('FETCH', `broker ${conn.host}:${conn.port} lacks Fetch v4+ (record batches v2)`);
  const byTopic = new Map<string, { partition: number; fetchOffset: bigint; partitionMaxBytes: number }[]>();
  for (const [topic, partition, fetchOffset] of wanted) {
    let list = byTopic.get(topic);
    if (list === undefined) byTopic.set(topic, list = []);
    list.push({ partition, fetchOffset, partitionMaxBytes: settings.partitionMaxBytes });
  }
  const byId = new Map<string, string>();
  const topics = [...byTopic].map(([name, partitions]) => {
    if (version < 13) return { topic: name, partitions };
    const topicId = client.topics.get(name)?.topicId;
    if (!topicId) throw new Error(`no topic id known for ${name}`);
    byId.set(topicId, name);
    return { topicId, partitions };
  });
  const { maxWaitMs } = settings;
  const res = await conn.request(ApiKey.Fetch, version, {
    replicaId: -1, maxWaitMs, minBytes: 1, maxBytes: settings.maxBytes, isolationLevel: settings.isolationLevel, topics,
  }, { timeoutMs: Math.max(conn.requestTimeoutMs, maxWaitMs + 10_000) });
  if (res.errorCode) throw new Error(`Fetch: ${kafkaErrorName(res.errorCode)}`);
  const out: FetchAnswer[] = [];
  for (const t of res.responses) {
    const topic = version >= 13 ? byId.get(t.topicId) : t.topic;
    if (topic === undefined) continue;
    for (const p of t.partitions) {
      out.push({
        topic, partition: p.partitionIndex, errorCode: p.errorCode, highWatermark: p.highWatermark, lastStableOffset: p.lastStableOffset,
        records: p.records, abortedTransactions: p.abortedTransactions,
      });
    }
  }
  return out;
}
