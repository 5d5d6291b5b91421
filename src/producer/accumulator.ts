// Records waiting to be sent, per partition: an open batch being built (RecordColumns: bytes
// copied once, no object per record), sealed when it reaches batchBytes or has lingered
// lingerMs, encoded and numbered at sealing, and queued until the broker acknowledges it. Counts
// the bytes held, for backpressure.
import { RecordColumns } from '../records/columns.js';
import type { EncodeOptions, RecordBatchInput, RecordInput } from '../records/types.js';
import { ProducerError } from './errors.js';

/** Where a record was written: its partition and offset (-1n when acks=0). */
export interface RecordMetadata { topic: string; partition: number; offset: bigint }

/** One send() call: its records' metadata, filled as their batches are acknowledged. */
export interface SendOp {
  results: RecordMetadata[];
  /** Batches of this call not yet settled. */
  pending: number;
  resolve(results: RecordMetadata[]): void;
  reject(error: unknown): void;
  failed: boolean;
}

/** The records of one send() call in one batch: result indices (in the call) and their first offset delta. */
export interface Waiter { op: SendOp; indices: number[]; firstDelta: number }

export class ProducerBatch {
  readonly partitionState: PartitionState;
  readonly count: number;
  /** The encoded RecordBatch (its producer fields are rewritten when the epoch is bumped). */
  readonly bytes: Uint8Array;
  baseSequence: number;
  readonly sealedAt: number;
  /** Each record's number (from 0) among all the producer appended: messages name a refused record by it. */
  readonly recordNumbers: Int32Array;
  readonly waiters: Waiter[] | null;
  /** What this batch counts in the accumulator's buffered bytes. */
  readonly accounted: number;
  attempts = 0;
  sentAt = 0;
  inFlight = false;

  constructor(state: PartitionState, count: number, bytes: Uint8Array, baseSequence: number, sealedAt: number,
    recordNumbers: Int32Array, waiters: Waiter[] | null, accounted: number) {
    this.partitionState = state;
    this.count = count;
    this.bytes = bytes;
    this.baseSequence = baseSequence;
    this.sealedAt = sealedAt;
    this.recordNumbers = recordNumbers;
    this.waiters = waiters;
    this.accounted = accounted;
  }

  get firstRecordNumber(): number { return this.recordNumbers[0] ?? 0; }
  get topic(): string { return this.partitionState.topic; }
  get partition(): number { return this.partitionState.partition; }
}

/**
 * An open batch: RecordColumns (records appended from JavaScript), or a batch the records module
 * fills in WebAssembly memory (src/records/split.ts, the bulk path of delimited input).
 */
export interface OpenBatch {
  readonly count: number;
  /** An upper bound of the encoded batch's size (header included), uncompressed. */
  readonly sizeInBytes: number;
  encode(header: Omit<RecordBatchInput, 'records' | 'baseTimestamp' | 'maxTimestamp'>, options?: EncodeOptions): Uint8Array;
  reset(): void;
}

export class PartitionState {
  readonly topic: string;
  readonly partition: number;
  open: OpenBatch | null = null;
  openedAt = 0;
  openWaiters: Waiter[] | null = null;
  /** The open batch's record numbers (see ProducerBatch.recordNumbers), reused. */
  openNumbers = new Int32Array(1024);
  /** Sealed batches not yet acknowledged, in sequence order; those in flight come first. */
  readonly queue: ProducerBatch[] = [];
  /** Index in queue of the first batch not in flight. */
  firstWaiting = 0;
  inFlight = 0;
  nextSequence = 0;
  /** The offset after the last acknowledged batch (-1n before one): a later batch's answer cannot be below it. */
  ackedEnd = -1n;
  /** A batch failed and will be sent again: nothing new goes out until the in-flight ones settle. */
  retrying = false;
  /** Not before this time (ms), after a retriable error. */
  retryAt = 0;
  spare: RecordColumns | null = null;

  constructor(topic: string, partition: number) {
    this.topic = topic;
    this.partition = partition;
  }

  /** The next batch to send, or undefined. */
  get nextBatch(): ProducerBatch | undefined {
    return this.queue[this.firstWaiting];
  }
}

export interface AccumulatorOptions {
  batchBytes: number;
  lingerMs: number;
  bufferBytes: number;
  maxRecordBytes: number;
}

/** Turns a full or lingered open batch into an encoded ProducerBatch (the producer numbers and encodes it). */
export type Sealer = (state: PartitionState, open: OpenBatch) => ProducerBatch;

function numberRecord(state: PartitionState, index: number, number: number): void {
  let numbers = state.openNumbers;
  if (index >= numbers.length) {
    numbers = new Int32Array(numbers.length * 2);
    numbers.set(state.openNumbers);
    state.openNumbers = numbers;
  }
  numbers[index] = number;
}


export class Accumulator {
  readonly options: AccumulatorOptions;
  readonly #byTopic = new Map<string, PartitionState[]>();
  /** Partitions with an open batch, for the linger timer. */
  readonly #open = new Set<PartitionState>();
  /** Bytes of records appended and not yet acknowledged or failed. */
  buffered = 0;
  /** Records appended so far (numbers them for messages). */
  appended = 0;
  #seal: Sealer;
  #onSealed: () => void;
  #lingerTimer: ReturnType<typeof setTimeout> | undefined;
  /** Partitions whose open batch goes without lingering once nothing of theirs waits (see soon()). */
  readonly #soon = new Set<PartitionState>();
  /** A microtask will look at #soon. */
  #soonQueued = false;
  /** lingerMs 0: a microtask will seal every open batch. */
  #sealSoon = false;
  #stopped = false;

  constructor(options: AccumulatorOptions, seal: Sealer, onSealed: () => void) {
    this.options = options;
    this.#seal = seal;
    this.#onSealed = onSealed;
  }

  state(topic: string, partition: number): PartitionState {
    let states = this.#byTopic.get(topic);
    if (states === undefined) this.#byTopic.set(topic, states = []);
    return states[partition] ??= new PartitionState(topic, partition);
  }

  /** Every partition that has batches queued or open. */
  *states(): Iterable<PartitionState> {
    for (const states of this.#byTopic.values()) for (const s of states) if (s !== undefined) yield s;
  }

  get full(): boolean {
    return this.buffered >= this.options.bufferBytes;
  }

  /** The open batch of `state` with room for a record of `size` bytes (sealing the full one first). */
  #columnsFor(state: PartitionState, size: number, now: number): RecordColumns {
    if (size > this.options.maxRecordBytes) {
      throw new ProducerError('RECORD_TOO_LARGE', `record ${this.appended + 1} for ${state.topic}/${state.partition} is ${size} bytes, above the limit of ${this.options.maxRecordBytes} (maxRecordBytes)`,
        { topic: state.topic, partition: state.partition });
    }
    let open = state.open;
    // A batch filled in WebAssembly memory is sealed before records come from JavaScript (order kept).
    if (open !== null && open.count > 0 && (open.sizeInBytes + size > this.options.batchBytes || !(open instanceof RecordColumns))) {
      this.seal(state);
      open = null;
    }
    if (!(open instanceof RecordColumns)) {
      open = state.spare ?? new RecordColumns(Math.min(this.options.batchBytes + 1024, 1 << 20));
      state.spare = null;
      state.open = open;
      state.openedAt = now;
      this.#open.add(state);
      this.#armLinger();
    }
    return open as RecordColumns;
  }

  /**
   * A batch in WebAssembly memory got `records` records of `bytes` bytes (splitRecords wrote them):
   * counted as buffered; when it was empty it becomes the partition's open batch (a batch open from
   * JavaScript, of earlier records, sealed first).
   */
  grewInPlace(state: PartitionState, open: OpenBatch, records: number, bytes: number, wasEmpty: boolean, now: number): void {
    if (wasEmpty) {
      if (state.open !== null && state.open !== open) this.seal(state);
      state.open = open;
      state.openedAt = now;
      this.#open.add(state);
      this.#armLinger();
    }
    this.buffered += bytes;
    this.appended += records;
  }

  /** Adds src[ks,ke) / src[vs,ve) as a record (ks < 0: null key). */
  appendRange(state: PartitionState, src: Uint8Array, ks: number, ke: number, vs: number, ve: number, now: number): void {
    const size = RecordColumns.recordSize((ks < 0 ? 0 : ke - ks) + (vs < 0 ? 0 : ve - vs));
    const columns = this.#columnsFor(state, size, now);
    numberRecord(state, columns.count, this.appended);
    columns.addRange(src, ks, ke, vs, ve, now);
    this.buffered += size; // exactly what sizeInBytes grew by
    this.appended++;
    if (columns.sizeInBytes >= this.options.batchBytes) this.seal(state);
  }

  /** Adds a record (`size`: its estimated encoded size, for the limit); `op` (send()'s) learns its offset. */
  append(state: PartitionState, record: RecordInput, size: number, now: number, op: SendOp | null, index: number): void {
    const columns = this.#columnsFor(state, size, now);
    const delta = columns.count;
    const before = columns.sizeInBytes;
    numberRecord(state, delta, this.appended);
    try {
      columns.addRecord(record, now);
    } catch (error) {
      if (columns.count === 0) this.#discardOpen(state); // an empty open batch would never seal (nor let flush() end)
      throw error;
    }
    if (op !== null) {
      const ws = state.openWaiters ??= [];
      const last = ws[ws.length - 1];
      if (last !== undefined && last.op === op) last.indices.push(index);
      else { ws.push({ op, indices: [index], firstDelta: delta }); op.pending++; }
    }
    this.buffered += columns.sizeInBytes - before;
    this.appended++;
    if (columns.sizeInBytes >= this.options.batchBytes) this.seal(state);
  }

  #discardOpen(state: PartitionState): void {
    const open = state.open;
    if (open === null) return;
    open.reset();
    if (open instanceof RecordColumns) state.spare = open;
    state.open = null;
    state.openWaiters = null;
    this.#open.delete(state);
  }

  /** Seals the open batch of `state` (if any records) into its queue. */
  seal(state: PartitionState): void {
    this.#soon.delete(state);
    const open = state.open;
    if (open === null || open.count === 0) return;
    const batch = this.#seal(state, open);
    state.queue.push(batch);
    open.reset();
    if (open instanceof RecordColumns) state.spare = open;
    state.open = null;
    state.openWaiters = null;
    this.#open.delete(state);
    this.#onSealed();
  }

  /**
   * send()'s records need not wait out lingerMs alone: the partition's open batch is sealed as soon
   * as the partition has nothing queued or in flight, looked at once the current job's appends are
   * done (a microtask: every send() of a loop has appended by then; an event-loop turn more was
   * most of an awaited send's own time) and again when one of its batches settles (settled()).
   * Until then it lingers and fills as records keep arriving.
   */
  soon(state: PartitionState): void {
    if (this.options.lingerMs <= 0) return;
    this.#soon.add(state);
    if (this.#soonQueued) return;
    this.#soonQueued = true;
    queueMicrotask(() => {
      this.#soonQueued = false;
      if (this.#stopped) return;
      for (const s of this.#soon) this.settled(s);
    });
  }

  /** A batch of `state` settled (or a microtask of soon()): its open batch goes now if soon() asked and nothing of the partition waits. */
  settled(state: PartitionState): void {
    if (state.queue.length === 0 && state.inFlight === 0 && this.#soon.has(state)) this.seal(state);
  }

  /** Seals every open batch older than lingerMs (all with `all`). */
  sealLingered(all: boolean): void {
    const now = Date.now();
    for (const state of [...this.#open]) {
      if (all || now - state.openedAt >= this.options.lingerMs) this.seal(state);
    }
    this.#armLinger();
  }

  #armLinger(): void {
    if (this.#lingerTimer !== undefined || this.#open.size === 0) return;
    if (this.options.lingerMs <= 0) {
      // No lingering: sealed once the current job's appends are done (a zero timeout would wait
      // for the event loop's timer phase, about 1 ms in Node: most of an awaited send's time).
      if (!this.#sealSoon) {
        this.#sealSoon = true;
        queueMicrotask(() => { this.#sealSoon = false; if (!this.#stopped) this.sealLingered(true); });
      }
      return;
    }
    let oldest = Infinity;
    for (const s of this.#open) if (s.openedAt < oldest) oldest = s.openedAt;
    const wait = Math.max(0, oldest + this.options.lingerMs - Date.now());
    this.#lingerTimer = setTimeout(() => { this.#lingerTimer = undefined; this.sealLingered(false); }, wait);
  }

  /** True when nothing is open or queued. */
  get empty(): boolean {
    for (const s of this.#open) if (s.open !== null && s.open.count > 0) return false;
    for (const s of this.states()) if (s.queue.length > 0) return false;
    return true;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#lingerTimer !== undefined) clearTimeout(this.#lingerTimer);
    this.#lingerTimer = undefined;
    this.#soon.clear();
  }
}
