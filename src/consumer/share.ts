// The share consumer (`kafka-wire/consumer`'s ShareConsumer, KIP-932): a member of a share group,
// Kafka used as a queue. Members of one share group read the same partitions cooperatively;
// every record handed out is locked to this member for a while (the acquisition lock) and comes
// with its delivery count; the member acknowledges it ACCEPT (done), RELEASE (give it to someone
// again), REJECT (never again) or RENEW (keep the lock longer, KIP-1222).
//
//   const consumer = new ShareConsumer({ bootstrap: 'localhost:9092', groupId: 'jobs', topics: ['jobs'] });
//   for await (const records of consumer) {       // implicit mode: asking for the next records
//     for (const r of records) handle(r);          // accepts every record handed out before
//   }
//   await consumer.close();                         // sends what is acknowledged, leaves the group
//
// Explicit mode (`acknowledgementMode: 'explicit'`): acknowledge(record, type) every record
// before the next poll(). Acknowledgements ride on the next ShareFetch to the record's leader, or
// go at once by ShareAcknowledge with commitSync()/commitAsync(); onAcknowledgement (and the
// 'acknowledged' event) learns each one's result, a late one (the lock expired) as
// INVALID_RECORD_STATE. Guarantee: at least once: a record not accepted in time is delivered again.

import { Emitter as EventEmitter } from '../wire/emitter.js';
import { KafkaClient, type ClientOptions } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { ApiKey, type ShareFetchResponse } from '../generated/types.js';
import { decodeRecordBatches, type KafkaRecord, type RecordBatch, type RecordHeader } from '../records/index.js';
import { FETCH_MAX_BYTES } from '../limits.js';
import { ConsumerError, RETRIABLE_PARTITION_ERRORS } from './errors.js';
import { ShareMembership } from './share-membership.js';
import {
  ACK_TYPE_ID, AcknowledgeType, INVALID_RECORD_STATE, SESSION_ERRORS, ShareSession, shareErrorName as kafkaErrorName,
  type AcknowledgeTypeName, type PendingAck, type SessionPartition, type SessionRequest,
} from './share-session.js';
import type { TopicPartitions } from './protocol.js';

export { AcknowledgeType, type AcknowledgeTypeName };

export interface ShareConsumerOptions extends Omit<ClientOptions, 'bootstrap'> {
  bootstrap: string | string[];
  /** The share group to join. */
  groupId: string;
  /** Topics by name (share groups subscribe by name). */
  topics: readonly string[];
  /**
   * 'implicit' (default, as Kafka's share.acknowledgement.mode): every record handed out is
   * accepted when the next records are asked for (or at commit and close). 'explicit': the caller
   * acknowledges each record before asking for more.
   */
  acknowledgementMode?: 'implicit' | 'explicit';
  /** Records one ShareFetch asks a broker for (Kafka's max.poll.records, default 500). */
  maxRecords?: number;
  /**
   * Fetch the next records from each leader while the caller works on the ones handed out (one
   * ShareFetch ahead per broker): faster, but those records are locked to this member from when
   * they arrive, and the ones still waiting when it closes are released by the broker with their
   * delivery count already up by one (Kafka counts a delivery at acquisition). Default false:
   * records are fetched only while a poll() waits, none locked before the caller asks.
   */
  prefetch?: boolean;
  /** How long a broker holds a ShareFetch for records to arrive (default 500 ms). */
  maxWaitMs?: number;
  fetchMaxBytes?: number;
  /** Learns each acknowledgement's result (also the 'acknowledged' event). */
  onAcknowledgement?: (results: AcknowledgementResult[]) => void;
  debug?: (message: string) => void;
}

/**
 * A record handed out by a share consumer. key, value, headers, timestamp and record are read
 * from the batch when asked for (no decoding for a record nobody looks into).
 */
export interface ShareRecord {
  topic: string;
  partition: number;
  offset: bigint;
  /** How many times Kafka has handed this record out (1 the first time). */
  deliveryCount: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: RecordHeader[];
  timestamp: bigint;
  /** The decoded record and its batch (with the columnar accessors), and its index there. */
  record: KafkaRecord;
  batch: RecordBatch;
  index: number;
  /** When this member's acquisition lock on it is expected to end (Date.now() clock). */
  lockExpiresAt: number;
}

/**
 * Records [from, to) of one batch handed out together by pollRuns(): all of one acquired range
 * (one delivery count and lock), without an object per record; acknowledgeRun() acknowledges
 * them, as offset ranges on the wire.
 */
export interface ShareRecordRun {
  topic: string;
  partition: number;
  batch: RecordBatch;
  from: number;
  to: number;
  /** The first and last records' offsets (a compacted batch may lack some between them). */
  firstOffset: bigint;
  lastOffset: bigint;
  deliveryCount: number;
  lockExpiresAt: number;
}

/** For one poll(). */
export interface PollOptions {
  /**
   * Fetch ahead after this poll (as the prefetch option, which is the default): false when the
   * caller will want no more records, or few (a count it stops at), so none are locked to it
   * only to be released at close with their delivery count up.
   */
  prefetch?: boolean;
}

/** What became of acknowledgements of one partition and one type. */
export interface AcknowledgementResult {
  topic: string;
  partition: number;
  type: AcknowledgeTypeName | 'gap';
  offsets: bigint[];
  /** 0 when Kafka took them; INVALID_RECORD_STATE (121) when the lock had expired (a late acknowledgement). */
  errorCode: number;
  error: ConsumerError | null;
}

export interface ShareConsumerEvents {
  acknowledged: [results: AcknowledgementResult[]];
  assigned: [partitions: TopicPartitions[]];
  error: [error: Error];
}

/** Kafka's defaults. */
const DEFAULT_MAX_RECORDS = 500;
const DEFAULT_MAX_WAIT_MS = 500;
const DEFAULT_LOCK_MS = 30_000;
/** A broker's acquired range longer than this is refused rather than walked. */
const MAX_ACQUIRED_RANGE = 10_000_000n;
const TYPE_NAMES = ['gap', 'accept', 'release', 'reject', 'renew'] as const;

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Node {
  id: number;
  session: ShareSession;
  /** Requests to this broker go one at a time (each carries the session's next epoch). */
  chain: Promise<unknown>;
  loop: Promise<void> | null;
  /** Batches from this broker not yet handed out. */
  ready: number;
  wake: () => void;
}

/**
 * The records of one partition from one ShareFetch, handed out together, as runs (records of one
 * batch in one acquired range); `state` says for each record (its slot: its place in the runs)
 * whether it is still the caller's (OPEN), renewed and still the caller's (RENEWED), or
 * acknowledged (DONE). ShareRecords are made only for poll() (`records`, null until then); each
 * record and run carries its delivery and slot (DELIVERY, SLOT), so acknowledging one builds no
 * key and walks no map.
 */
interface Delivery { node: number; part: SessionPartition; runs: Run[]; count: number; records: ShareRecord[] | null; state: Uint8Array; open: number }
const OPEN = 0;
const RENEWED = 1;
const DONE = 2;
const DELIVERY = Symbol('kafka-wire share delivery');
const SLOT = Symbol('kafka-wire share slot');
type Carried = ShareRecord & { [DELIVERY]?: Delivery; [SLOT]?: number };

class Run implements ShareRecordRun {
  readonly [DELIVERY]: Delivery;
  /** The slot of record `from`. */
  readonly [SLOT]: number;
  constructor(
    readonly topic: string, readonly partition: number, readonly batch: RecordBatch, readonly from: number, public to: number,
    readonly firstOffset: bigint, public lastOffset: bigint, readonly deliveryCount: number, public lockExpiresAt: number, delivery: Delivery, slot: number,
  ) {
    this[DELIVERY] = delivery;
    this[SLOT] = slot;
  }
}

/**
 * A ShareRecord as handed out: key, value, headers, timestamp and the KafkaRecord are read from
 * the batch when asked for (its columnar accessors), so a record nobody looks into costs no
 * decoding; it carries its delivery and index for acknowledge().
 */
class HandedOut implements ShareRecord {
  readonly [DELIVERY]: Delivery;
  readonly [SLOT]: number;
  constructor(
    readonly topic: string, readonly partition: number, readonly offset: bigint, readonly deliveryCount: number,
    readonly batch: RecordBatch, readonly index: number, public lockExpiresAt: number, delivery: Delivery, slot: number,
  ) {
    this[DELIVERY] = delivery;
    this[SLOT] = slot;
  }
  get key(): Uint8Array | null { return this.batch.keyAt(this.index); }
  get value(): Uint8Array | null { return this.batch.valueAt(this.index); }
  get headers(): RecordHeader[] { return this.batch.headersAt(this.index); }
  get timestamp(): bigint { return this.batch.timestampAt(this.index); }
  get record(): KafkaRecord { return this.batch.record(this.index); }
}

export class ShareConsumer extends EventEmitter<ShareConsumerEvents> {
  readonly client: KafkaClient;
  readonly options: ShareConsumerOptions;
  readonly #membership: ShareMembership;
  readonly #explicit: boolean;
  readonly #nodes = new Map<number, Node>();
  #assignment: TopicPartitions[] = [];
  readonly #ready: { node: number; deliveries: Delivery[] }[] = [];
  #readyWaiter: (() => void) | null = null;
  /** Deliveries handed out with records not acknowledged yet. */
  readonly #held = new Set<Delivery>();
  readonly #prefetch: boolean;
  /** Whether the loops fetch ahead now: the last poll()'s prefetch (none before the first poll). */
  #ahead = false;
  #lockMs = DEFAULT_LOCK_MS;
  #started: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  #closed = false;
  #failure: Error | null = null;
  #refreshing: Promise<void> | null = null;
  /** A poll() is waiting: only then do the loops fetch (records acquired are locked to this member, so none are taken ahead). */
  #wanting = false;

  constructor(options: ShareConsumerOptions) {
    super();
    if (typeof options.groupId !== 'string' || options.groupId === '') throw new ConsumerError('USAGE', 'a share consumer needs a groupId');
    if (!Array.isArray(options.topics) || options.topics.length === 0 || options.topics.some((t) => typeof t !== 'string' || t === '')) {
      throw new ConsumerError('USAGE', 'a share consumer needs topics (names)');
    }
    const mode = options.acknowledgementMode ?? 'implicit';
    if (mode !== 'implicit' && mode !== 'explicit') throw new ConsumerError('USAGE', `acknowledgementMode is 'implicit' or 'explicit', not ${JSON.stringify(mode)}`);
    const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
    if (!Number.isInteger(maxRecords) || maxRecords < 1) throw new ConsumerError('USAGE', `maxRecords must be a positive integer, not ${maxRecords}`);
    this.options = options;
    this.#explicit = mode === 'explicit';
    this.#prefetch = options.prefetch ?? false;
    this.client = new KafkaClient({ ...options, bootstrap: options.bootstrap });
    this.#membership = new ShareMembership(this.client, options.groupId, options.topics, {
      assigned: (tps) => this.#assigned(tps),
      failed: (err) => this.#fail(err),
      debug: options.debug,
    });
  }

  /** The member id this consumer made for itself. */
  get memberId(): string { return this.#membership.memberId; }
  get memberEpoch(): number { return this.#membership.memberEpoch; }
  /** The partitions the group assigns this member now (shared with other members). */
  assignment(): TopicPartitions[] { return this.#assignment.map((tp) => ({ topic: tp.topic, partitions: [...tp.partitions] })); }
  /** The acquisition lock duration the brokers last reported (ms). */
  get acquisitionLockTimeoutMs(): number { return this.#lockMs; }

  /** Connects and joins the group; poll() and iterating call it. Resolves once a member. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.client.metadata([...this.options.topics]);
      this.#membership.start();
      await Promise.race([this.#membership.joined, this.#failed()]);
    })();
    return this.#started;
  }

  #failed(): Promise<never> {
    return new Promise((_, reject) => {
      const check = () => { if (this.#failure) reject(this.#failure); };
      this.once('error', check);
      check();
    });
  }

  // ---- assignment and the fetch loops ----

  #assigned(tps: TopicPartitions[]): void {
    this.#assignment = tps;
    this.options.debug?.(`share group ${this.options.groupId}: assigned ${tps.map((tp) => `${tp.topic}[${tp.partitions.join(',')}]`).join(' ') || 'nothing'}`);
    this.emit('assigned', this.assignment());
    void this.#ensureLoops();
  }

  async #ensureLoops(): Promise<void> {
    if (this.#closed) return;
    const missing = this.#assignment.some((tp) => {
      const info = this.client.topics.get(tp.topic);
      return !info || tp.partitions.some((p) => (info.partitions.find((x) => x.partition === p)?.leader ?? -1) < 0);
    });
    if (missing) await this.#refresh();
    for (const p of this.#wanted()) {
      const node = this.#node(p.leader);
      node.loop ??= this.#fetchLoop(node).catch((err) => this.#fail(err instanceof Error ? err : new Error(String(err))));
    }
    for (const n of this.#nodes.values()) n.wake();
  }

  /** Assigned partitions with their topic ids and leaders. */
  #wanted(): (SessionPartition & { leader: number })[] {
    const out: (SessionPartition & { leader: number })[] = [];
    for (const tp of this.#assignment) {
      const info = this.client.topics.get(tp.topic);
      if (!info) continue;
      for (const partition of tp.partitions) {
        const leader = info.partitions.find((x) => x.partition === partition)?.leader ?? -1;
        if (leader >= 0) out.push({ topic: tp.topic, topicId: info.topicId, partition, leader });
      }
    }
    return out;
  }

  #node(id: number): Node {
    let n = this.#nodes.get(id);
    if (!n) {
      n = { id, session: new ShareSession(), chain: Promise.resolve(), loop: null, ready: 0, wake: () => {} };
      this.#nodes.set(id, n);
    }
    return n;
  }

  #refresh(): Promise<void> {
    this.#refreshing ??= this.client.metadata([...this.options.topics]).then(() => {}, (err) => {
      this.options.debug?.(`metadata refresh failed: ${(err as Error).message}`);
    }).finally(() => { this.#refreshing = null; });
    return this.#refreshing;
  }

  /** Runs `fn` after every request to the node before it (the session's epochs go in order). */
  #serial<T>(node: Node, fn: () => Promise<T>): Promise<T> {
    const run = node.chain.catch(() => {}).then(fn);
    node.chain = run;
    return run;
  }

  async #idle(node: Node, ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      node.wake = () => { clearTimeout(t); resolve(); };
    });
    node.wake = () => {};
  }

  async #fetchLoop(node: Node): Promise<void> {
    const maxWaitMs = this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    let failures = 0;
    while (!this.#closed) {
      const wanted = this.#wanted().filter((p) => p.leader === node.id);
      // A renewal goes at once (a ShareFetch carrying one would fetch nothing).
      const renew = node.session.hasPendingType(AcknowledgeType.RENEW);
      // Records acquired are locked to this member: take them for a poll() that waits, or (with
      // prefetch) one ShareFetch ahead while the caller works; never more before the caller has
      // taken those.
      const fetch = (this.#wanting || this.#ahead) && node.ready === 0 && wanted.length > 0;
      if (!renew && !fetch && (wanted.length > 0 || node.session.pendingCount === 0)) { await this.#idle(node, maxWaitMs); continue; }
      try {
        if (!fetch) await this.#acknowledgeNode(node);
        else await this.#serial(node, () => this.#shareFetch(node, wanted, maxWaitMs));
        failures = 0;
      } catch (err) {
        if (err instanceof ConsumerError || this.#closed) throw err;
        failures++;
        this.#resetSession(node, (err as Error).message);
        this.options.debug?.(`ShareFetch from broker ${node.id} failed (${(err as Error).message}); a new share session next`);
        await sleep(Math.min(50 * 2 ** failures, 1000));
        await this.#refresh();
        void this.#ensureLoops();
      }
    }
  }

  async #shareFetch(node: Node, wanted: readonly SessionPartition[], maxWaitMs: number): Promise<void> {
    if (this.#closed) return;
    const conn = await this.client.broker(node.id);
    const version = this.#version(conn, ApiKey.ShareFetch);
    const maxRecords = this.options.maxRecords ?? DEFAULT_MAX_RECORDS;
    const req = node.session.fetchRequest(wanted, 0);
    let res;
    try {
      res = await conn.request(ApiKey.ShareFetch, version, {
        groupId: this.options.groupId, memberId: this.memberId, shareSessionEpoch: req.epoch,
        maxWaitMs, minBytes: 1, maxBytes: this.options.fetchMaxBytes ?? FETCH_MAX_BYTES,
        maxRecords, batchSize: maxRecords, shareAcquireMode: 0, isRenewAck: false,
        topics: req.topics, forgottenTopicsData: req.forgotten,
      }, { timeoutMs: Math.max(conn.requestTimeoutMs, maxWaitMs + 10_000) });
    } catch (err) {
      this.#report(req.acks, () => ({ errorCode: -1, message: `ShareFetch failed: ${(err as Error).message}` }));
      throw err;
    }
    if (!this.#sessionAnswer(node, req, res.errorCode, res.errorMessage, 'ShareFetch')) return;
    if (version >= 1 && res.acquisitionLockTimeoutMs > 0) this.#lockMs = res.acquisitionLockTimeoutMs;
    const receivedAt = Date.now();
    const names = this.#topicNames();
    const ackResults = new Map<string, { errorCode: number; message: string | null }>();
    const deliveries: Delivery[] = [];
    let refresh = false;
    for (const t of res.responses) {
      const topic = names.get(t.topicId);
      if (topic === undefined) continue;
      for (const p of t.partitions) {
        const part: SessionPartition = { topic, topicId: t.topicId, partition: p.partitionIndex };
        ackResults.set(keyOf(topic, p.partitionIndex), { errorCode: p.acknowledgeErrorCode, message: p.acknowledgeErrorMessage });
        if (p.errorCode !== 0) {
          this.options.debug?.(`ShareFetch ${topic}/${p.partitionIndex}: ${kafkaErrorName(p.errorCode)}`);
          if (RETRIABLE_PARTITION_ERRORS.has(p.errorCode)) { refresh = true; continue; }
          throw new ConsumerError('FETCH', `ShareFetch ${topic}/${p.partitionIndex}: ${kafkaErrorName(p.errorCode)}${p.errorMessage ? `: ${p.errorMessage}` : ''}`, { errorCode: p.errorCode });
        }
        if (p.acquiredRecords.length === 0) continue;
        const d: Delivery = { node: node.id, part, runs: [], count: 0, records: null, state: new Uint8Array(0), open: 0 };
        this.#acquired(node, d, p.records, p.acquiredRecords, receivedAt + this.#lockMs);
        if (d.count === 0) continue;
        d.state = new Uint8Array(d.count);
        d.open = d.count;
        deliveries.push(d);
      }
    }
    if (this.#heard()) {
      this.#report(req.acks, (a) => ackResults.get(keyOf(a.topic, a.partition)) ?? { errorCode: 0, message: null });
    }
    if (this.options.debug) {
      const acquired = (res as ShareFetchResponse).responses.flatMap((t) => t.partitions.map((p) => `${names.get(t.topicId)}/${p.partitionIndex}:${p.acquiredRecords.map((r) => `${r.firstOffset}-${r.lastOffset}x${r.deliveryCount}`).join(',')}`)).join(' ');
      this.options.debug(`ShareFetch broker ${node.id} epoch ${req.epoch}: ${req.acks.length} acks, ${req.topics.reduce((n, t) => n + t.partitions.length, 0)} partitions listed; acquired ${acquired || 'nothing'}`);
    }
    if (deliveries.length > 0) {
      node.ready++;
      this.#ready.push({ node: node.id, deliveries });
      const w = this.#readyWaiter; this.#readyWaiter = null; w?.();
    }
    if (refresh) { await this.#refresh(); void this.#ensureLoops(); }
  }

  /** The records of the acquired ranges as runs, with their delivery counts; offsets acquired without a record are acknowledged as gaps. */
  #acquired(node: Node, d: Delivery, bytes: Uint8Array | null, ranges: readonly { firstOffset: bigint; lastOffset: bigint; deliveryCount: number }[], lockExpiresAt: number): void {
    const part = d.part;
    const runs = d.runs;
    for (const r of ranges) {
      if (r.lastOffset < r.firstOffset || r.lastOffset - r.firstOffset >= MAX_ACQUIRED_RANGE) {
        throw new ConsumerError('FETCH', `ShareFetch ${part.topic}/${part.partition}: acquired range ${r.firstOffset}..${r.lastOffset} is not a range this consumer takes`);
      }
    }
    // Ranges in offset order; records come in offset order too, so one walk finds each record's
    // range (its delivery count) and the acquired offsets no record filled (gaps).
    const sorted = [...ranges].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
    let ri = 0;
    /** The next acquired offset not yet accounted for (a record or a gap). */
    let expect = sorted.length > 0 ? sorted[0]!.firstOffset : 0n;
    const gapsUpTo = (end: bigint) => { // acquired offsets from `expect` to before `end`, in ranges, are gaps
      while (ri < sorted.length && expect < end) {
        const r = sorted[ri]!;
        if (expect < r.firstOffset) expect = r.firstOffset;
        const stop = end <= r.lastOffset ? end : r.lastOffset + 1n;
        if (expect < stop) { node.session.acknowledgeRange(part, expect, stop - 1n, AcknowledgeType.GAP); expect = stop; }
        if (expect > r.lastOffset) { ri++; if (ri < sorted.length) expect = sorted[ri]!.firstOffset; }
      }
    };
    const batches = bytes === null || bytes.length === 0 ? [] : decodeRecordBatches(bytes, { lazy: true }).batches;
    for (const batch of batches) {
      if (batch.isControl) continue;
      // Columnar: no record object is made unless the caller asks a ShareRecord for one.
      const count = batch.recordCount;
      for (let index = 0; index < count; index++) {
        const offset = batch.offsetAt(index);
        gapsUpTo(offset);
        while (ri < sorted.length && offset > sorted[ri]!.lastOffset) { ri++; if (ri < sorted.length) expect = sorted[ri]!.firstOffset; }
        const r = sorted[ri];
        if (r === undefined || offset < r.firstOffset || offset < expect) continue; // in the batch but not acquired by this member
        expect = offset + 1n;
        // The run goes on while the records are the same batch's and the same range's.
        const run = runs[runs.length - 1];
        if (run !== undefined && run.batch === batch && run.to === index && run.deliveryCount === r.deliveryCount && run.lastOffset >= r.firstOffset) { run.to++; run.lastOffset = offset; }
        else runs.push(new Run(part.topic, part.partition, batch, index, index + 1, offset, offset, r.deliveryCount, lockExpiresAt, d, d.count));
        d.count++;
      }
    }
    gapsUpTo(sorted.length > 0 ? sorted[sorted.length - 1]!.lastOffset + 1n : 0n);
  }

  #topicNames(): Map<string, string> {
    return new Map([...this.client.topics.values()].map((t) => [t.topicId, t.name]));
  }

  #version(conn: Connection, key: number): number {
    const v = conn.versionFor(key);
    if (v === undefined) throw new ConsumerError('FETCH', `broker ${conn.host}:${conn.port} lacks ${key === ApiKey.ShareFetch ? 'ShareFetch' : 'ShareAcknowledge'} (share groups, KIP-932)`);
    return v;
  }

  /** A top-level answer to a session request: false (and the acks reported failed) when it was refused. */
  #sessionAnswer(node: Node, req: SessionRequest, errorCode: number, errorMessage: string | null, api: string): boolean {
    if (errorCode === 0) {
      if (req.epoch === -1) node.session.reset(); else node.session.succeeded();
      return true;
    }
    const why = `${api}: ${kafkaErrorName(errorCode)}${errorMessage ? `: ${errorMessage}` : ''}`;
    this.options.debug?.(`broker ${node.id}: ${why}`);
    this.#report(req.acks, () => ({ errorCode, message: why }));
    if (SESSION_ERRORS.has(errorCode)) { this.#resetSession(node, why); return false; }
    if (RETRIABLE_PARTITION_ERRORS.has(errorCode) || errorCode === 7 /* REQUEST_TIMED_OUT */) { node.session.succeeded(); return false; }
    throw new ConsumerError('FETCH', `broker ${node.id}: ${why}`, { errorCode });
  }

  /** Whether anyone learns acknowledgements' results (when no one does, they are not gathered). */
  #heard(): boolean { return this.options.onAcknowledgement !== undefined || this.listenerCount('acknowledged') > 0; }

  /** Tells the caller what became of acknowledgements (grouped by partition, type and result). */
  #report(acks: readonly PendingAck[], result: (a: PendingAck) => { errorCode: number; message: string | null }): AcknowledgementResult[] {
    if (acks.length === 0) return [];
    const groups = new Map<string, AcknowledgementResult>();
    for (const a of acks) {
      const r = result(a);
      const k = `${keyOf(a.topic, a.partition)}\u0000${a.type}\u0000${r.errorCode}`;
      let g = groups.get(k);
      if (!g) {
        const late = r.errorCode === INVALID_RECORD_STATE ? ' (the acquisition lock had expired, or the record is not held by this member)' : '';
        const error = r.errorCode === 0 ? null : new ConsumerError('COMMIT', `acknowledging ${a.topic}/${a.partition}: ${r.errorCode > 0 ? kafkaErrorName(r.errorCode) : r.message}${late}`, { errorCode: r.errorCode > 0 ? r.errorCode : undefined });
        g = { topic: a.topic, partition: a.partition, type: TYPE_NAMES[a.type] ?? 'accept', offsets: [], errorCode: r.errorCode, error };
        groups.set(k, g);
      }
      for (let o = a.firstOffset; o <= a.lastOffset; o++) g.offsets.push(o);
    }
    const results = [...groups.values()].filter((g) => g.type !== 'gap' || g.errorCode !== 0);
    if (results.length === 0) return [];
    try {
      this.options.onAcknowledgement?.(results);
      this.emit('acknowledged', results);
    } catch (err) {
      this.#fail(err instanceof Error ? err : new Error(String(err)));
    }
    return results;
  }

  // ---- handing out ----

  /**
   * The next records (from any partition), waiting up to timeoutMs for some; [] when none came or
   * the consumer is closing. Implicit mode first accepts every record handed out before; explicit
   * mode refuses to go on while one of them is not acknowledged.
   */
  async poll(timeoutMs = 5000, options: PollOptions = {}): Promise<ShareRecord[]> {
    const deliveries = await this.#deliveries(timeoutMs, options);
    return deliveries.length === 1 ? this.#records(deliveries[0]!) : deliveries.flatMap((d) => this.#records(d));
  }

  /**
   * As poll(), the records as runs (ShareRecordRun: records of one batch and one acquired range),
   * with no object per record: for callers that go through a batch's records by index (such as
   * kafka-wire consume --share, writing them a batch at a time). Acknowledge them with
   * acknowledgeRun() (a run has no ShareRecords to give acknowledge()).
   */
  async pollRuns(timeoutMs = 5000, options: PollOptions = {}): Promise<ShareRecordRun[]> {
    const deliveries = await this.#deliveries(timeoutMs, options);
    return deliveries.length === 1 ? deliveries[0]!.runs : deliveries.flatMap((d) => d.runs);
  }

  /** What poll() and pollRuns() share: what was handed out before settled, then the next deliveries (waiting up to timeoutMs). */
  async #deliveries(timeoutMs: number, options: PollOptions): Promise<Delivery[]> {
    await this.start();
    this.#settleHandedOut();
    const deadline = Date.now() + timeoutMs;
    this.#wanting = true;
    this.#ahead = options.prefetch ?? this.#prefetch;
    for (const n of this.#nodes.values()) n.wake();
    try {
      return await this.#take(deadline);
    } finally {
      this.#wanting = false;
    }
  }

  /** A delivery's records as ShareRecords (made on first asking). */
  #records(d: Delivery): ShareRecord[] {
    if (d.records !== null) return d.records;
    const out: ShareRecord[] = [];
    for (const run of d.runs) {
      for (let i = run.from; i < run.to; i++) out.push(new HandedOut(run.topic, run.partition, run.batch.offsetAt(i), run.deliveryCount, run.batch, i, run.lockExpiresAt, d, out.length));
    }
    d.records = out;
    return out;
  }

  async #take(deadline: number): Promise<Delivery[]> {
    for (;;) {
      if (this.#failure) throw this.#failure;
      if (this.#closing) return [];
      const taken = this.#ready.splice(0, this.#ready.length);
      if (taken.length > 0) {
        for (const t of taken) {
          for (const d of t.deliveries) this.#held.add(d);
          const n = this.#nodes.get(t.node);
          if (n) { n.ready--; n.wake(); }
        }
        return taken.length === 1 ? taken[0]!.deliveries : taken.flatMap((t) => t.deliveries);
      }
      const left = deadline - Date.now();
      if (left <= 0) return [];
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#readyWaiter = () => { clearTimeout(timer); resolve(); };
      });
      this.#readyWaiter = null;
    }
  }

  /**
   * Turns fetching ahead on or off from now until the next poll() (which sets it again from its
   * prefetch option): off before releasing records the caller is done with, else the next
   * ShareFetch ahead may bring them straight back to this member, locked to it.
   */
  fetchAhead(on: boolean): void {
    this.#ahead = on;
    if (on) for (const n of this.#nodes.values()) n.wake();
  }

  /** Record batches until close; each next() first settles the records handed out before (as poll). */
  async *[Symbol.asyncIterator](): AsyncGenerator<ShareRecord[], void, undefined> {
    for (;;) {
      const records = await this.poll(60_000);
      if (this.#closing) return;
      if (records.length > 0) yield records;
    }
  }

  #settleHandedOut(): void {
    if (this.#held.size === 0) return;
    if (this.#explicit) {
      let open = 0;
      for (const d of this.#held) for (let i = 0; i < d.state.length; i++) if (d.state[i] === OPEN) open++;
      if (open > 0) throw new ConsumerError('USAGE', `explicit acknowledgement: ${open} record(s) handed out are not acknowledged yet (acknowledge each before asking for more)`);
      return;
    }
    for (const d of this.#held) {
      const session = this.#node(d.node).session;
      for (const run of d.runs) {
        for (let i = run.from, slot = run[SLOT]; i < run.to; i++, slot++) {
          if (d.state[slot] !== DONE) { d.state[slot] = DONE; session.acknowledge(d.part, run.batch.offsetAt(i), AcknowledgeType.ACCEPT); }
        }
      }
      d.open = 0;
    }
    this.#held.clear();
  }

  /**
   * Acknowledges one record handed out by this consumer: 'accept' (default), 'release' (deliver
   * again, delivery count up), 'reject' (never again), or 'renew' (keep the lock; goes at once).
   * It goes with the next ShareFetch to the record's leader, or with commitSync/commitAsync.
   */
  acknowledge(record: ShareRecord, type: AcknowledgeTypeName = 'accept'): void {
    const id = ACK_TYPE_ID[type];
    if (id === undefined || type === ('gap' as AcknowledgeTypeName)) throw new ConsumerError('USAGE', `acknowledge type is accept, release, reject or renew, not ${JSON.stringify(type)}`);
    const found = this.#find(record);
    if (!found) throw new ConsumerError('USAGE', `${record.topic}/${record.partition}@${record.offset} is not a record this consumer holds (already acknowledged, or not handed out by it)`);
    const [d, i] = found;
    const node = this.#node(d.node);
    if (type === 'renew') {
      d.state[i] = RENEWED;
      node.session.acknowledge(d.part, record.offset, id);
      node.wake();
      return;
    }
    d.state[i] = DONE;
    if (--d.open === 0) this.#held.delete(d);
    node.session.acknowledge(d.part, record.offset, id);
  }

  /**
   * Acknowledges records [from, to) of a run pollRuns() handed out (default: all of it), as
   * acknowledge() does each: one offset range on the wire when their offsets are consecutive.
   */
  acknowledgeRun(run: ShareRecordRun, type: AcknowledgeTypeName = 'accept', from = run.from, to = run.to): void {
    const id = ACK_TYPE_ID[type];
    if (id === undefined || type === ('gap' as AcknowledgeTypeName)) throw new ConsumerError('USAGE', `acknowledge type is accept, release, reject or renew, not ${JSON.stringify(type)}`);
    const d = (run as Partial<Run>)[DELIVERY];
    const first = (run as Partial<Run>)[SLOT];
    const where = `${run.topic}/${run.partition}@${run.firstOffset}..${run.lastOffset}`;
    if (d === undefined || first === undefined || !this.#held.has(d)) throw new ConsumerError('USAGE', `${where} is not a run this consumer holds (already acknowledged, or not handed out by pollRuns())`);
    if (!(Number.isInteger(from) && Number.isInteger(to) && run.from <= from && from <= to && to <= run.to)) throw new ConsumerError('USAGE', `records ${from}..${to} are not within ${where}'s ${run.from}..${run.to}`);
    const lo = first + from - run.from, hi = first + to - run.from;
    for (let slot = lo; slot < hi; slot++) if (d.state[slot] === DONE) throw new ConsumerError('USAGE', `${run.topic}/${run.partition}@${run.batch.offsetAt(run.from + slot - first)} is already acknowledged`);
    if (from === to) return;
    const node = this.#node(d.node);
    const firstOffset = run.batch.offsetAt(from), lastOffset = run.batch.offsetAt(to - 1);
    const whole = lastOffset - firstOffset === BigInt(to - from - 1);
    if (whole) node.session.acknowledgeRange(d.part, firstOffset, lastOffset, id);
    else for (let i = from; i < to; i++) node.session.acknowledge(d.part, run.batch.offsetAt(i), id);
    if (type === 'renew') {
      d.state.fill(RENEWED, lo, hi);
      node.wake();
      return;
    }
    for (let slot = lo; slot < hi; slot++) if (d.state[slot] !== DONE) { d.state[slot] = DONE; d.open--; }
    if (d.open === 0) this.#held.delete(d);
  }

  /** The held delivery and index of a record handed out (by what it carries, else by topic, partition and offset). */
  #find(record: ShareRecord): [Delivery, number] | null {
    const c = record as Carried;
    const d = c[DELIVERY];
    const i = c[SLOT];
    if (d !== undefined && i !== undefined) return this.#held.has(d) && d.state[i] !== DONE ? [d, i] : null;
    for (const h of this.#held) {
      if (h.part.topic !== record.topic || h.part.partition !== record.partition) continue;
      for (const run of h.runs) {
        if (record.offset < run.firstOffset || record.offset > run.lastOffset) continue;
        for (let i = run.from; i < run.to; i++) {
          const j = run[SLOT] + i - run.from;
          if (run.batch.offsetAt(i) === record.offset && h.state[j] !== DONE) return [h, j];
        }
      }
    }
    return null;
  }

  /**
   * Sends every acknowledgement now (implicit mode: accepting what was handed out) by
   * ShareAcknowledge, and resolves with their results once the brokers answered.
   */
  async commitSync(): Promise<AcknowledgementResult[]> {
    if (!this.#explicit) this.#settleHandedOut();
    const all = await Promise.all([...this.#nodes.values()].map((n) => this.#acknowledgeNode(n)));
    return all.flat();
  }

  /** As commitSync, without waiting: the results go to onAcknowledgement and the 'acknowledged' event. */
  commitAsync(): void {
    this.commitSync().catch((err) => this.#fail(err instanceof Error ? err : new Error(String(err))));
  }

  async #acknowledgeNode(node: Node, close = false): Promise<AcknowledgementResult[]> {
    return this.#serial(node, async () => {
      if (node.session.isNew) {
        // No session to carry them (it was reset): the records' locks expire and they come again.
        return this.#report(node.session.takePending(), () => ({ errorCode: -1, message: `no share session with broker ${node.id}` }));
      }
      const req = node.session.acknowledgeRequest(close)!;
      if (req.acks.length === 0 && !close) return [];
      const renew = req.acks.some((a) => a.type === AcknowledgeType.RENEW);
      let res;
      try {
        const conn = await this.client.broker(node.id);
        const version = this.#version(conn, ApiKey.ShareAcknowledge);
        if (renew && version < 2) throw new ConsumerError('USAGE', `broker ${node.id} lacks ShareAcknowledge v2: no RENEW (KIP-1222)`);
        res = await conn.request(ApiKey.ShareAcknowledge, version, {
          groupId: this.options.groupId, memberId: this.memberId, shareSessionEpoch: req.epoch, isRenewAck: renew, topics: req.topics,
        });
      } catch (err) {
        const lost = this.#report(req.acks, () => ({ errorCode: -1, message: `ShareAcknowledge failed: ${(err as Error).message}` }));
        if (!close) this.#resetSession(node, (err as Error).message);
        return lost;
      }
      if (!this.#sessionAnswer(node, req, res.errorCode, res.errorMessage, 'ShareAcknowledge')) return [];
      if (renew && res.acquisitionLockTimeoutMs > 0) {
        this.#lockMs = res.acquisitionLockTimeoutMs;
        const until = Date.now() + res.acquisitionLockTimeoutMs;
        for (const a of req.acks) if (a.type === AcknowledgeType.RENEW) {
          for (const d of this.#held) {
            if (d.part.topic !== a.topic || d.part.partition !== a.partition) continue;
            for (const r of d.records ?? []) if (r.offset >= a.firstOffset && r.offset <= a.lastOffset) r.lockExpiresAt = until;
            for (const r of d.runs) if (r.firstOffset >= a.firstOffset && r.lastOffset <= a.lastOffset) r.lockExpiresAt = until;
          }
        }
      }
      const names = this.#topicNames();
      const byPartition = new Map<string, { errorCode: number; message: string | null }>();
      for (const t of res.responses) {
        const topic = names.get(t.topicId);
        if (topic !== undefined) for (const p of t.partitions) byPartition.set(keyOf(topic, p.partitionIndex), { errorCode: p.errorCode, message: p.errorMessage });
      }
      return this.#report(req.acks, (a) => byPartition.get(keyOf(a.topic, a.partition)) ?? { errorCode: 0, message: null });
    });
  }

  /** The session with `node` is gone or out of step: the next request opens a new one; what was to go with it is reported lost. */
  #resetSession(node: Node, why: string): void {
    node.session.reset();
    this.#report(node.session.takePending(), () => ({ errorCode: -1, message: `share session with broker ${node.id} reset (${why})` }));
  }

  #fail(err: Error): void {
    if (this.#failure || this.#closing) return;
    this.#failure = err;
    if (this.listenerCount('error') > 0) this.emit('error', err);
    const w = this.#readyWaiter; this.#readyWaiter = null; w?.();
  }

  /**
   * Sends every acknowledgement (implicit mode: accepting what was handed out), closes each share
   * session (the broker releases the records this member still holds), leaves the group (epoch
   * -1) and closes the connections.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const w = this.#readyWaiter; this.#readyWaiter = null; w?.();
      if (this.#started) await this.#started.catch(() => {});
      if (!this.#explicit && !this.#failure) this.#settleHandedOut();
      this.#closed = true;
      for (const n of this.#nodes.values()) n.wake();
      await Promise.all([...this.#nodes.values()].map((n) => n.loop?.catch(() => {})));
      try {
        await Promise.all([...this.#nodes.values()].map((n) => this.#acknowledgeNode(n, true).catch((err) => {
          this.options.debug?.(`closing the share session with broker ${n.id} failed: ${(err as Error).message}`);
        })));
        await this.#membership.close();
      } finally {
        await this.client.close();
      }
    })();
    return this.#closing;
  }
}

