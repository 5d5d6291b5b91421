// Open record batches that live in WebAssembly memory, one per partition of a topic, filled by the
// records module's splitRecords straight from delimited input bytes (`key<K>value<D>`, kcat -P's
// format): each input chunk is copied into WebAssembly memory once, split and encoded there in
// one pass (murmur2 partitioning included), and a batch is copied out once, when it is sealed.
// The producer's bulk path (Producer.writeDelimited) and through it `kafka-wire produce`.
import { wasm, mem, memI32, alloc, top, setTop } from './engine.js';
import { finishRecordBatchAt } from './encode.js';
import type { EncodeOptions, RecordBatchInput } from './types.js';
import * as abi from '../wasm/abi.js';

const { RECORDS_OFFSET, SPLIT_STATUS_WORDS, SPLIT_PART_WORDS, SPLIT_POS, SPLIT_END, SPLIT_HARD_END, SPLIT_COUNT,
  SPLIT_TIMESTAMP_DELTA, SPLIT_NUMBERS, SPLIT_REASON, SPLIT_PARTITION, SPLIT_RECORD } = abi;
export const { SPLIT_NEED_MORE, SPLIT_FULL, SPLIT_NO_KEY, SPLIT_TOO_LARGE } = abi;

/** The smallest encoded record (all one-byte fields): bounds the record numbers a batch can hold. */
const MIN_RECORD_BYTES = 7;
/** Spent batch buffers kept for reuse, at most (the rest are left to the collector). */
const POOL_LIMIT = 16;
/** Timestamp deltas stay one int32 varint in the module (a batch older than this is sealed first). */
const MAX_TIMESTAMP_DELTA = 1 << 30;

export interface SplitLayout {
  partitions: number;
  /** A batch is full past this many record bytes (the producer's batchBytes). */
  batchBytes: number;
  /** One record's key and value bytes at most (larger ones stop the split as too large). */
  maxFieldBytes: number;
}

/** Where one call of split() stopped. */
export interface SplitResult {
  /** Input bytes consumed (whole records). */
  consumed: number;
  /** SPLIT_NEED_MORE, SPLIT_FULL, SPLIT_NO_KEY or SPLIT_TOO_LARGE. */
  reason: number;
  /** With SPLIT_FULL: the partition whose batch is full. */
  partition: number;
}

/** One partition's open batch, as the producer's accumulator holds open batches. */
export class SplitBatch {
  readonly #owner: SplitBatches;
  readonly partition: number;
  /** The first record's timestamp (ms). */
  baseTimestamp = 0;
  maxDelta = 0;

  constructor(owner: SplitBatches, partition: number) {
    this.#owner = owner;
    this.partition = partition;
  }

  get count(): number { return this.#owner.count(this.partition); }

  /** Header and records, as encoded so far (uncompressed). */
  get sizeInBytes(): number { return RECORDS_OFFSET + this.#owner.recordBytes(this.partition); }

  /** The record numbers SplitBatches.split() gave this batch's records, in order. */
  recordNumbers(): Int32Array { return this.#owner.numbers(this.partition); }

  /** The finished batch (producer fields and compression from `header`), copied out. */
  encode(header: Omit<RecordBatchInput, 'records' | 'baseTimestamp' | 'maxTimestamp'>, options?: EncodeOptions): Uint8Array {
    const base = BigInt(this.baseTimestamp);
    return this.#owner.finish(this.partition, header, base, base + BigInt(this.maxDelta), options);
  }

  reset(): void { this.#owner.reset(this.partition); }
}

/** The open batches of one topic's partitions, in WebAssembly memory for the producer's lifetime. */
export class SplitBatches {
  readonly layout: SplitLayout;
  readonly batches: SplitBatch[];
  /** The table splitRecords reads and updates (an address), and each partition's region and numbers column. */
  readonly #table: number;
  readonly #regions: number[] = [];
  readonly #numbers: number[] = [];
  /** Each partition's position and count before the last call: what a call added. */
  readonly #pos: number[] = [];
  readonly #count: number[] = [];
  /** Spent batches' buffers (recycle()), for the next batches sealed: no allocation per batch. */
  readonly #pool: ArrayBuffer[] = [];
  readonly #pooled = new WeakSet<ArrayBuffer>();
  readonly #poolBytes: number;
  /** The arena's top before and after this object's regions: dispose() gives them back when nothing came after. */
  readonly #start: number;
  readonly #end: number;
  #input = 0;
  #inputLength = 0;
  #mark = -1;

  constructor(layout: SplitLayout) {
    this.layout = layout;
    wasm();
    const P = layout.partitions;
    const regionBytes = RECORDS_OFFSET + Math.max(layout.batchBytes, layout.maxFieldBytes + 64);
    this.#poolBytes = regionBytes;
    this.#start = top;
    this.#table = alloc((SPLIT_STATUS_WORDS + P * SPLIT_PART_WORDS) * 4);
    for (let p = 0; p < P; p++) {
      this.#regions.push(alloc(regionBytes));
      this.#numbers.push(alloc((Math.floor(regionBytes / MIN_RECORD_BYTES) + 1) * 4));
    }
    const I = memI32();
    for (let p = 0; p < P; p++) {
      const e = this.#entry(p);
      I[e + SPLIT_END] = this.#regions[p]! + RECORDS_OFFSET + layout.batchBytes;
      I[e + SPLIT_HARD_END] = this.#regions[p]! + regionBytes;
    }
    I[(this.#table >> 2) + SPLIT_RECORD] = 0;
    this.#end = top;
    this.batches = Array.from({ length: P }, (_, p) => new SplitBatch(this, p));
    for (let p = 0; p < P; p++) this.reset(p);
  }

  #entry(p: number): number {
    return (this.#table >> 2) + SPLIT_STATUS_WORDS + p * SPLIT_PART_WORDS;
  }

  count(p: number): number { return memI32()[this.#entry(p) + SPLIT_COUNT]!; }

  recordBytes(p: number): number { return memI32()[this.#entry(p) + SPLIT_POS]! - this.#regions[p]! - RECORDS_OFFSET; }

  numbers(p: number): Int32Array {
    const at = this.#numbers[p]! >> 2;
    return memI32().slice(at, at + this.count(p));
  }

  /** The number the next record gets (records are numbered in input order from `first`). */
  set nextRecord(first: number) { memI32()[(this.#table >> 2) + SPLIT_RECORD] = first; }
  get nextRecord(): number { return memI32()[(this.#table >> 2) + SPLIT_RECORD]!; }

  reset(p: number): void {
    const I = memI32();
    const e = this.#entry(p);
    I[e + SPLIT_POS] = this.#regions[p]! + RECORDS_OFFSET;
    I[e + SPLIT_COUNT] = 0;
    I[e + SPLIT_NUMBERS] = this.#numbers[p]!;
    this.#pos[p] = I[e + SPLIT_POS]!;
    this.#count[p] = 0;
    this.batches[p]!.maxDelta = 0;
  }

  finish(p: number, header: Omit<RecordBatchInput, 'records' | 'baseTimestamp' | 'maxTimestamp'>, baseTs: bigint, maxTs: bigint,
    options?: EncodeOptions): Uint8Array {
    return finishRecordBatchAt(header, this.count(p), this.#regions[p]!, this.recordBytes(p), baseTs, maxTs, options, this.#take);
  }

  /** A buffer for a sealed batch of `size` bytes: a spent one when it fits. */
  readonly #take = (size: number): Uint8Array => {
    if (size > this.#poolBytes) return new Uint8Array(size);
    const buffer = this.#pool.pop() ?? new ArrayBuffer(this.#poolBytes);
    this.#pooled.add(buffer);
    return new Uint8Array(buffer, 0, size);
  };

  /**
   * A sealed batch's bytes that nothing reads any more (acknowledged: written and answered):
   * its buffer serves a later batch. Bytes not from this pool are left alone.
   */
  recycle(bytes: Uint8Array): void {
    const buffer = bytes.buffer as ArrayBuffer;
    if (this.#pooled.has(buffer) && this.#pool.length < POOL_LIMIT) {
      this.#pooled.delete(buffer);
      this.#pool.push(buffer);
    }
  }

  /**
   * Gives the regions back to the arena when they are its last (the producer closing); else they
   * stay for the process's lifetime (the arena frees from its top only).
   */
  dispose(): void {
    this.release();
    if (top === this.#end) setTop(this.#start);
  }

  /** Copies input bytes into WebAssembly memory (above everything else) for split(); release() frees them. */
  load(bytes: Uint8Array, start: number, end: number): void {
    this.release();
    this.#mark = top;
    this.#inputLength = end - start;
    this.#input = alloc(this.#inputLength);
    mem().set(bytes.subarray(start, end), this.#input);
  }

  release(): void {
    if (this.#mark >= 0) setTop(this.#mark);
    this.#mark = -1;
  }

  /**
   * Splits the loaded input from `from` (to `to`, default its end) into the partitions' batches:
   * every record to `fixed` (>= 0) or by murmur2 of its key; `final`: the input's end ends a last
   * record. `grew(p, records, bytes, wasEmpty)` hears what each partition got.
   */
  split(from: number, fixed: number, recordDelim: number, keyDelim: number, final: boolean, now: number,
    grew: (p: number, records: number, bytes: number, wasEmpty: boolean) => void, to = this.#inputLength): SplitResult {
    const P = this.layout.partitions;
    let I = memI32();
    for (let p = 0; p < P; p++) {
      const b = this.batches[p]!;
      const e = this.#entry(p);
      let delta = 0;
      if (I[e + SPLIT_COUNT] === 0) b.baseTimestamp = now;
      else delta = Math.min(Math.max(now - b.baseTimestamp, 0), MAX_TIMESTAMP_DELTA);
      I[e + SPLIT_TIMESTAMP_DELTA] = delta;
    }
    const consumed = wasm().splitRecords(this.#input + from, to - from, this.#table, P, fixed, recordDelim, keyDelim,
      this.layout.maxFieldBytes, final ? 1 : 0);
    I = memI32();
    for (let p = 0; p < P; p++) {
      const e = this.#entry(p);
      const count = I[e + SPLIT_COUNT]!;
      const before = this.#count[p]!;
      if (count === before) continue;
      const pos = I[e + SPLIT_POS]!;
      const b = this.batches[p]!;
      b.maxDelta = I[e + SPLIT_TIMESTAMP_DELTA]!;
      grew(p, count - before, pos - this.#pos[p]!, before === 0);
      this.#count[p] = count;
      this.#pos[p] = pos;
    }
    const t = this.#table >> 2;
    return { consumed, reason: I[t + SPLIT_REASON]!, partition: I[t + SPLIT_PARTITION]! };
  }
}
