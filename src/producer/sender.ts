// Sends sealed batches: one Produce request per leader at a time up to maxInFlight requests per
// broker (one batch per partition per request, as Kafka wants for idempotence), each partition's
// batches in sequence order. Answers settle batches; retriable errors send the batch again (after
// the partition's other in-flight requests settle, so order holds); a lost sequence bumps the
// epoch and renumbers what waits (the Java client's idempotent producer).
import type { KafkaClient } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { ConnectionError } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import type { ProduceResponse } from '../generated/types.js';
import { ProducerBatch, type Accumulator, type PartitionState } from './accumulator.js';
import { ErrorCode, ProducerError, errorName, needsMetadata } from './errors.js';
import { classify, nextSequence, restamp, type ProducerIdAndEpoch } from './idempotence.js';

/** Above Kafka's highest error code (136 in 4.4) with room for new ones: a higher code is a spoiled answer. */
const MAX_KAFKA_ERROR_CODE = 199;

/** At most this many batches of one partition in flight with idempotence (Kafka keeps 5 per producer and partition). */
export const MAX_IN_FLIGHT_PER_PARTITION_IDEMPOTENT = 5;

type PartitionAnswer = ProduceResponse['responses'][number]['partitionResponses'][number];

/** A request in its node's answer order: its handler, once its answer (or failure) has arrived. */
interface AnswerTurn { batches: ProducerBatch[]; handle: (() => void) | undefined }

/** What the producer tells its hooks about an acknowledged batch (the perf command's latency source). */
export interface BatchAck {
  topic: string;
  partition: number;
  /** The first record's offset (-1n with acks=0 or for a duplicate of an older write). */
  baseOffset: bigint;
  records: number;
  /** Encoded size (compressed when compressing). */
  bytes: number;
  /** From sealing to the acknowledgement, retries included. */
  latencyMs: number;
  /** From the last send to the acknowledgement. */
  requestMs: number;
  attempts: number;
}

export interface SenderOptions {
  acks: -1 | 0 | 1;
  requestTimeoutMs: number;
  deliveryTimeoutMs: number;
  retryBackoffMs: number;
  maxInFlight: number;
  maxRequestBytes: number;
  idempotent: boolean;
  transactionalId: string | null;
  /** Highest Produce version to use (transactions stay on the protocol without implicit partition adds). */
  maxProduceVersion?: number;
}

export interface SenderContext {
  client: KafkaClient;
  accumulator: Accumulator;
  identity(): ProducerIdAndEpoch;
  /** Asks for a new epoch (idempotent producer, after a lost sequence). */
  bumpEpoch(): Promise<ProducerIdAndEpoch>;
  /** False while the partition is not yet part of the running transaction. */
  canSend(state: PartitionState): boolean;
  acked(batch: ProducerBatch, baseOffset: bigint, requestMs: number): void;
  /** A Produce request of `records` records went out; `inFlight` requests (this one included) now wait for answers. */
  sent(inFlight: number, records: number): void;
  failed(batch: ProducerBatch, error: ProducerError): void;
  /**
   * The batch split in two (same producer id, epoch and sequence range, records renumbered in
   * order): the broker refused it as too large and it holds more than one record.
   */
  split(batch: ProducerBatch): ProducerBatch[];
  /** A fatal producer error (fenced) or a transaction that must be aborted. */
  fatal(error: ProducerError): void;
}

export class Sender {
  readonly #ctx: SenderContext;
  readonly #options: SenderOptions;
  readonly #nodeInFlight = new Map<number, number>();
  #inFlight = 0;
  /** Requests waiting for client.broker()'s connection before they are written. */
  #connecting = 0;
  /** Per node, its requests in the order they went out, until their answers are handled. */
  readonly #answerOrder = new Map<number, AnswerTurn[]>();
  #scheduled = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #resetting: Promise<void> | null = null;
  #refreshing = new Map<string, Promise<void>>();
  #idle: (() => void)[] = [];
  #stopped = false;

  constructor(ctx: SenderContext, options: SenderOptions) {
    this.#ctx = ctx;
    this.#options = options;
  }

  get inFlight(): number { return this.#inFlight; }

  /** Runs pump() once after the current synchronous work (many seals, one pass), unless pump() runs before. */
  schedule(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    queueMicrotask(() => { if (this.#scheduled) this.pump(); });
  }

  /** Resolves when nothing is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
  }

  /** Sends what can be sent now. */
  pump(): void {
    this.#scheduled = false; // this pass sends what a scheduled one would
    if (this.#resetting !== null || this.#stopped) return;
    const now = Date.now();
    const byNode = new Map<number, PartitionState[]>();
    let earliestRetry = Infinity;
    const limit = this.#options.idempotent ? MAX_IN_FLIGHT_PER_PARTITION_IDEMPOTENT : Infinity;
    for (const state of this.#ctx.accumulator.states()) {
      if (state.retrying) {
        if (state.inFlight > 0) continue;
        state.retrying = false;
        state.firstWaiting = 0; // everything not in flight, oldest first
      }
      if (state.nextBatch === undefined) continue;
      if (state.retryAt > now) { earliestRetry = Math.min(earliestRetry, state.retryAt); continue; }
      const head = state.nextBatch!;
      if (now - head.sealedAt > this.#options.deliveryTimeoutMs) { // never sent in time (no leader, say)
        this.#fail(head, new ProducerError('DELIVERY_TIMEOUT', `${head.topic}/${head.partition}: batch of ${head.count} records not sent within ${this.#options.deliveryTimeoutMs} ms (${head.attempts} attempts)`,
          { topic: head.topic, partition: head.partition, records: head.count }));
        continue;
      }
      if (state.inFlight >= limit || !this.#ctx.canSend(state)) continue;
      const leader = this.#leader(state);
      if (leader < 0) continue;
      let list = byNode.get(leader);
      if (list === undefined) byNode.set(leader, list = []);
      list.push(state);
    }
    if (this.#resetting !== null) return; // a failure above started renumbering
    for (const [node, states] of byNode) this.#sendTo(node, states, limit);
    if (earliestRetry < Infinity && this.#retryTimer === undefined) {
      this.#retryTimer = setTimeout(() => { this.#retryTimer = undefined; this.pump(); }, earliestRetry - now);
    }
  }

  #leader(state: PartitionState): number {
    const info = this.#ctx.client.topics.get(state.topic);
    const p = info?.partitions[state.partition];
    if (p === undefined || p.leader < 0) { this.#refresh(state.topic); return -1; }
    return p.leader;
  }

  /** Fills requests to `node` while its in-flight limit allows. */
  #sendTo(node: number, states: PartitionState[], perPartition: number): void {
    for (;;) {
      if ((this.#nodeInFlight.get(node) ?? 0) >= this.#options.maxInFlight) return;
      const batches: ProducerBatch[] = [];
      let bytes = 0;
      for (const state of states) {
        if (state.inFlight >= perPartition) continue;
        const b = state.nextBatch;
        if (b === undefined) continue;
        if (batches.length > 0 && bytes + b.bytes.length > this.#options.maxRequestBytes) continue;
        batches.push(b);
        bytes += b.bytes.length;
        b.inFlight = true;
        state.firstWaiting++;
        state.inFlight++;
      }
      if (batches.length === 0) return;
      this.#request(node, batches);
    }
  }

  #request(node: number, batches: ProducerBatch[]): void {
    this.#nodeInFlight.set(node, (this.#nodeInFlight.get(node) ?? 0) + 1);
    this.#inFlight++;
    let records = 0;
    for (const b of batches) records += b.count;
    this.#ctx.sent(this.#inFlight, records);
    const sentAt = Date.now();
    for (const b of batches) { b.attempts++; b.sentAt = sentAt; }
    const settle = () => {
      this.#nodeInFlight.set(node, this.#nodeInFlight.get(node)! - 1);
      this.#inFlight--;
      for (const b of batches) { b.inFlight = false; b.partitionState.inFlight--; }
    };
    // How each batch's topic is named in the request and its answer: by name, or by id from v13.
    const topicKeys: string[] = [];
    const produce = (conn: Connection): Promise<ProduceResponse | null> => {
      let version = conn.versionFor(ApiKey.Produce);
      if (version !== undefined && this.#options.maxProduceVersion !== undefined) version = Math.min(version, this.#options.maxProduceVersion);
      if (version === undefined || version < 3) {
        throw new ProducerError('BROKER', `broker ${conn.host}:${conn.port} lacks Produce v3+ (record batches v2)`);
      }
      const byTopic = new Map<string, { index: number; records: Uint8Array }[]>();
      for (const b of batches) {
        let list = byTopic.get(b.topic);
        if (list === undefined) byTopic.set(b.topic, list = []);
        list.push({ index: b.partition, records: b.bytes });
      }
      const topicData = [...byTopic].map(([name, partitionData]) => (version! >= 13
        ? { topicId: this.#ctx.client.topics.get(name)!.topicId, partitionData }
        : { name, partitionData }));
      for (const b of batches) topicKeys.push(version >= 13 ? this.#ctx.client.topics.get(b.topic)!.topicId : b.topic);
      return conn.request(ApiKey.Produce, version, {
        transactionalId: this.#options.transactionalId, acks: this.#options.acks, timeoutMs: this.#options.requestTimeoutMs, topicData,
      });
    };
    // On an open connection the request goes out now, unless requests of this sender still wait
    // for the connection to be made (they go first: a partition's batches go in sequence order).
    const open = this.#connecting === 0 ? this.#ctx.client.openBroker(node) : undefined;
    let answer: Promise<ProduceResponse | null>;
    if (open !== undefined) {
      try { answer = produce(open); } catch (error) { answer = Promise.reject(error); }
    } else {
      this.#connecting++;
      answer = this.#ctx.client.broker(node).then((conn) => { this.#connecting--; return produce(conn); }, (error: unknown) => { this.#connecting--; throw error; });
    }
    // Answers are handled in the order their requests went out to the node, whatever the length
    // of the promise chain each came through (the connected and the connecting path above, a
    // traced request and an untraced one): Kafka answers a connection's requests in order, and a
    // partition's batches must be settled in sequence order.
    let order = this.#answerOrder.get(node);
    if (order === undefined) this.#answerOrder.set(node, order = []);
    const turn: AnswerTurn = { batches, handle: undefined };
    order.push(turn);
    const inTurn = (handle: () => void) => { turn.handle = handle; this.#handleInOrder(order); };
    answer.then((res) => inTurn(() => {
      settle();
      this.#answered(batches, topicKeys, res, sentAt);
    }), (error: unknown) => inTurn(() => {
      settle();
      if (error instanceof ProducerError) { for (const b of batches) this.#fail(b, error); }
      else {
        // A lost connection or a timeout: the broker may or may not have written them.
        for (const b of batches) this.#retry(b, error instanceof ConnectionError ? `${error.code}: ${error.message}` : String(error), true);
      }
    }));
  }

  /** Handles the answers at the head of a node's order that have arrived, stopping at the first still awaited. */
  #handleInOrder(order: AnswerTurn[]): void {
    while (order.length > 0 && order[0]!.handle !== undefined) {
      const { batches, handle } = order.shift()!;
      try {
        handle!();
      } catch (error) {
        queueMicrotask(() => { throw error; }); // a defect here, seen as an uncaught error; the others still handled
      }
      this.#afterSettle(batches);
    }
  }

  #afterSettle(batches: ProducerBatch[]): void {
    for (const b of batches) this.#ctx.accumulator.settled(b.partitionState);
    if (this.#inFlight === 0) {
      const idle = this.#idle;
      this.#idle = [];
      for (const f of idle) f();
    }
    this.pump();
  }

  #answered(batches: ProducerBatch[], topicKeys: readonly string[], res: ProduceResponse | null, sentAt: number): void {
    const requestMs = Date.now() - sentAt;
    if (res === null) { // acks=0
      for (const b of batches) this.#done(b, -1n, requestMs);
      return;
    }
    // Each batch's answer, found by its topic (as the request named it) and partition.
    const answers: (PartitionAnswer | undefined)[] = new Array(batches.length);
    let wrong: string | null = null;
    for (const t of res.responses) {
      const key = t.name || t.topicId;
      const asked = new Map<number, number>(); // partition -> index in batches, of this topic
      for (let i = 0; i < batches.length; i++) if (topicKeys[i] === key) asked.set(batches[i]!.partition, i);
      for (const p of t.partitionResponses) {
        const i = asked.get(p.index);
        if (i !== undefined && answers[i] === undefined) { answers[i] = p; continue; }
        const name = t.name || [...this.#ctx.client.topics.values()].find((x) => x.topicId === t.topicId)?.name || t.topicId;
        wrong ??= `an answer for ${name}/${p.index}, which was not asked (or twice)`;
      }
    }
    // Produce answers carry no checksum: one that cannot be this request's is refused whole, and
    // its batches sent again (idempotence answers a batch already written with its first offset).
    if (wrong !== null) {
      for (const b of batches) this.#retry(b, `UNEXPECTED_RESPONSE: ${wrong}`, false);
      return;
    }
    for (let i = 0; i < batches.length; i++) {
      const b = batches[i]!;
      const p = answers[i];
      if (p === undefined) { this.#retry(b, 'no answer for the partition', false); continue; }
      const implausible = this.#implausible(b, p);
      if (implausible !== null) { this.#retry(b, `UNEXPECTED_RESPONSE: ${implausible}`, false); continue; }
      const state = b.partitionState;
      // An earlier batch of the partition is being sent again: out-of-order answers follow from it.
      const earlierFailed = state.retrying || state.queue[0] !== b;
      const what = classify(p.errorCode, this.#options.idempotent, this.#options.transactionalId !== null, earlierFailed);
      if (what === 'done') { this.#done(b, p.baseOffset, requestMs); continue; }
      const detail = `${errorName(p.errorCode)}${p.errorMessage ? `: ${p.errorMessage}` : ''}`;
      switch (what) {
        case 'retry': this.#retry(b, detail, needsMetadata(p.errorCode)); break;
        case 'reset':
          this.#fail(b, new ProducerError('SEQUENCE', `${b.topic}/${b.partition}: the broker lost this producer's sequence (${detail}); the batch of ${b.count} records may be missing`,
            { topic: b.topic, partition: b.partition, errorCode: p.errorCode, records: b.count }));
          break;
        case 'fenced': {
          const err = new ProducerError('FENCED', `${b.topic}/${b.partition}: ${detail}: another producer with the same transactional id took over`,
            { topic: b.topic, partition: b.partition, errorCode: p.errorCode, records: b.count });
          this.#fail(b, err);
          this.#ctx.fatal(err);
          break;
        }
        case 'abortable': {
          const err = new ProducerError('TRANSACTION_ABORTABLE', `${b.topic}/${b.partition}: ${detail}; abort the transaction`,
            { topic: b.topic, partition: b.partition, errorCode: p.errorCode, records: b.count });
          this.#fail(b, err);
          this.#ctx.fatal(err);
          break;
        }
        default:
          if (p.errorCode === ErrorCode.MESSAGE_TOO_LARGE || p.errorCode === ErrorCode.RECORD_LIST_TOO_LARGE) {
            if (b.count > 1) { this.#split(b); break; }
            this.#fail(b, new ProducerError('RECORD_TOO_LARGE',
              `${b.topic}/${b.partition}: record ${b.firstRecordNumber + 1} (in the order appended) alone is ${b.bytes.length} bytes as a batch, more than the broker takes: ${detail}`,
              { topic: b.topic, partition: b.partition, errorCode: p.errorCode, records: 1, record: b.firstRecordNumber + 1 }));
            break;
          }
          this.#fail(b, new ProducerError('BROKER',
            `${b.topic}/${b.partition}: batch of ${b.count} records (records ${b.firstRecordNumber + 1}..., in the order appended) rejected: ${detail}`,
            { topic: b.topic, partition: b.partition, errorCode: p.errorCode, records: b.count }));
      }
    }
  }

  /**
   * Why the answer for `b` cannot be true, or null: an error code Kafka does not have; a success
   * without an offset, below the partition's log start, or below the offsets this producer's
   * earlier batches of the partition took (an idempotent producer's batches are written in order).
   */
  #implausible(b: ProducerBatch, p: PartitionAnswer): string | null {
    if (p.errorCode < -1 || p.errorCode > MAX_KAFKA_ERROR_CODE) return `error code ${p.errorCode}, which Kafka does not have`;
    if (p.errorCode !== ErrorCode.NONE) return null;
    if (p.baseOffset < 0n) return `success without an offset (${p.baseOffset})`;
    if (p.logStartOffset >= 0n && p.logStartOffset > p.baseOffset) return `base offset ${p.baseOffset} below the log start offset ${p.logStartOffset}`;
    if (this.#options.idempotent) {
      const state = b.partitionState;
      let floor = state.ackedEnd;
      if (floor >= 0n) {
        for (const earlier of state.queue) { if (earlier === b) break; floor += BigInt(earlier.count); }
        if (p.baseOffset < floor) return `base offset ${p.baseOffset} below ${floor}, where the partition's earlier batches end`;
      }
    }
    return null;
  }

  /**
   * A batch too large for the broker, of several records: its halves take its place in the queue
   * (and its sequence numbers, so the batches after it keep theirs), sent again in order once the
   * partition's in-flight requests settle, as the Java client's split and re-enqueue does.
   */
  #split(b: ProducerBatch): void {
    const state = b.partitionState;
    const i = state.queue.indexOf(b);
    if (i < 0) return;
    const pieces = this.#ctx.split(b);
    state.queue.splice(i, 1, ...pieces);
    if (i < state.firstWaiting) state.firstWaiting += pieces.length - 1;
    state.retrying = true;
    state.retryAt = 0;
  }

  #remove(b: ProducerBatch): void {
    const state = b.partitionState;
    const i = state.queue.indexOf(b);
    if (i < 0) return;
    state.queue.splice(i, 1);
    if (i < state.firstWaiting) state.firstWaiting--;
  }

  #done(b: ProducerBatch, baseOffset: bigint, requestMs: number): void {
    const state = b.partitionState;
    if (baseOffset >= 0n && baseOffset + BigInt(b.count) > state.ackedEnd) state.ackedEnd = baseOffset + BigInt(b.count);
    this.#remove(b);
    this.#ctx.acked(b, baseOffset, requestMs);
  }

  #fail(b: ProducerBatch, error: ProducerError): void {
    this.#remove(b);
    this.#ctx.failed(b, error);
    // A gap in the partition's sequence: later batches would be out of order. Renumber (new epoch);
    // the partition's batches still in flight will come back out of order and are sent again.
    if (this.#options.idempotent && this.#options.transactionalId === null && error.code !== 'FENCED') {
      b.partitionState.retrying = true;
      this.#reset();
    }
  }

  #retry(b: ProducerBatch, why: string, refresh: boolean): void {
    const state = b.partitionState;
    if (Date.now() - b.sealedAt > this.#options.deliveryTimeoutMs) {
      this.#fail(b, new ProducerError('DELIVERY_TIMEOUT', `${b.topic}/${b.partition}: batch of ${b.count} records not acknowledged within ${this.#options.deliveryTimeoutMs} ms (${b.attempts} attempts; last: ${why})`,
        { topic: b.topic, partition: b.partition, records: b.count }));
      return;
    }
    state.retrying = true;
    state.retryAt = Date.now() + Math.min(this.#options.retryBackoffMs * 2 ** Math.min(b.attempts - 1, 5), 1000);
    if (refresh) this.#refresh(b.topic);
  }

  /** Fetches the topic's metadata again (once at a time per topic), then pumps. */
  #refresh(topic: string): void {
    if (this.#refreshing.has(topic)) return;
    const p = this.#ctx.client.metadata([topic], false).then(() => undefined, () => new Promise<void>((r) => setTimeout(r, this.#options.retryBackoffMs)))
      .finally(() => { this.#refreshing.delete(topic); this.schedule(); });
    this.#refreshing.set(topic, p);
  }

  /** New epoch, every waiting batch renumbered from 0 per partition, once nothing is in flight. */
  #reset(): void {
    if (this.#resetting !== null) return;
    this.#resetting = (async () => {
      await this.idle();
      // A closed producer asks for no new epoch (its client refuses: that loop would never end).
      while (!this.#stopped) {
        try {
          const id = await this.#ctx.bumpEpoch();
          for (const state of this.#ctx.accumulator.states()) {
            let seq = 0;
            for (const b of state.queue) { restamp(b.bytes, id, seq); b.baseSequence = seq; seq = nextSequence(seq, b.count); }
            state.nextSequence = seq;
            state.firstWaiting = 0;
            state.retrying = false;
          }
          break;
        } catch (error) {
          if (error instanceof ProducerError) { this.#ctx.fatal(error); break; }
          await new Promise((r) => setTimeout(r, this.#options.retryBackoffMs));
        }
      }
    })().finally(() => { this.#resetting = null; this.schedule(); });
  }
}
