// The loop behind `kafka-wire consume`: every requested partition read from its leader, one
// Fetch kept in flight per leader while the previous response is formatted (so the broker and the
// network work while we print), records written as JSON lines, one write per response.

import type { KafkaClient, TopicInfo } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { decodeRecordBatches, type RecordBatch } from '../records/index.js';
import { IsolationLevel, readCommitted, type AbortedTransaction } from '../wire/isolation.js';
import { FETCH_MAX_BYTES, FETCH_PARTITION_MAX_BYTES } from '../limits.js';

export type Encoding = 'utf8' | 'base64' | 'hex';


export interface ConsumeLoopOptions {
  /** Partition → first offset to print and the high watermark known at the start. */
  start: ReadonlyMap<number, { offset: bigint; end: bigint }>;
  /** Stop each partition once it reached the high watermark (-e). */
  exitAtEnd: boolean;
  /** Records to print at most. */
  limit: number;
  encoding: Encoding;
  /** Writes one record (default: the JSON line of jsonRecordWriter). */
  writer?: RecordWriter;
  /** Hand on each record as soon as it is written (-u), not a buffer's worth at a time. */
  unbuffered?: boolean;
  /** Stop each partition at its first record with a timestamp at or after this (ms), not printing it (-o e@TS). */
  stopAtTimestamp?: bigint;
  /**
   * IsolationLevel.READ_COMMITTED: Fetch at read_committed (up to the last stable offset), drop
   * aborted transactions' batches (readCommitted), and let -e end at the last stable offset.
   * Default READ_UNCOMMITTED. Control batches are never printed either way.
   */
  isolationLevel?: number;
  signal?: AbortSignal;
  /** Receives the JSON lines as UTF-8 bytes, a buffer's worth at a time (its own copy). */
  write(bytes: Uint8Array): unknown;
}

interface PartitionState { next: bigint; highWatermark: bigint; done: boolean }

/** Prints records until the limit, the end (with exitAtEnd) or the signal; returns how many. */
export async function consumeLoop(client: KafkaClient, info: TopicInfo, options: ConsumeLoopOptions): Promise<number> {
  const { exitAtEnd, limit, signal } = options;
  const isolationLevel = options.isolationLevel ?? IsolationLevel.READ_UNCOMMITTED;
  const committedOnly = isolationLevel === IsolationLevel.READ_COMMITTED;
  const state = new Map<number, PartitionState>();
  for (const [p, s] of options.start) state.set(p, { next: s.offset, highWatermark: s.end, done: exitAtEnd && s.offset >= s.end });
  const format = options.writer ?? jsonRecordWriter(info.name, options.encoding);
  const { unbuffered, stopAtTimestamp } = options;
  /** Partitions that reached the stop timestamp: nothing more of them is printed. */
  const stoppedAt = new Set<number>();
  const out = new JsonLinesWriter(options.write);
  let printed = 0;
  const stopped = () => printed >= limit || signal?.aborted === true;

  const leaderLoop = async (partitions: number[]) => {
    const conn = await client.leader(info.name, partitions[0]!);
    const request = () => {
      const active = partitions.filter((p) => !state.get(p)!.done);
      if (active.length === 0 || stopped()) return null;
      return fetchOnce(conn, info, active.map((p) => [p, state.get(p)!.next] as const), exitAtEnd ? 100 : 500, isolationLevel);
    };
    let inflight = request();
    try {
      while (inflight !== null) {
        const parts = await inflight;
        // Advance every partition past what this response holds, ask for what follows, then print.
        const from = new Map<number, bigint>();
        for (const part of parts) {
          const s = state.get(part.partition)!;
          if (part.errorCode !== 0) throw new Error(`Fetch ${info.name}/${part.partition} at ${s.next}: ${kafkaErrorName(part.errorCode)}`);
          from.set(part.partition, s.next);
          // read_committed sees records up to the last stable offset only: that is its end.
          s.highWatermark = committedOnly && part.lastStableOffset >= 0n ? part.lastStableOffset : part.highWatermark;
          const last = part.batches[part.batches.length - 1];
          if (last !== undefined) {
            const after = last.baseOffset + BigInt(last.lastOffsetDelta) + 1n;
            if (after > s.next) s.next = after;
          }
          if (exitAtEnd && s.next >= s.highWatermark) s.done = true;
        }
        inflight = request();
        for (const part of parts) {
          if (stopped()) return;
          if (stoppedAt.has(part.partition)) continue;
          const first = from.get(part.partition)!;
          for (const batch of committedOnly ? readCommitted(part.batches, part.abortedTransactions) : part.batches) {
            if (batch.isControl || stoppedAt.has(part.partition)) continue;
            // Offsets as Numbers while they are safe integers (always, in practice), else bigints.
            const safe = batch.baseOffset + BigInt(batch.lastOffsetDelta) <= MAX_SAFE;
            const base = Number(batch.baseOffset);
            const skip = first - batch.baseOffset; // records before the fetch offset: skipped
            for (let i = 0; i < batch.recordCount && printed < limit; i++) {
              const delta = batch.offsetDeltaAt(i);
              if (delta < skip) continue;
              if (stopAtTimestamp !== undefined && batch.timestampAt(i) >= stopAtTimestamp) {
                stoppedAt.add(part.partition);
                state.get(part.partition)!.done = true;
                break;
              }
              format(out, part.partition, batch, i, safe ? base + delta : batch.offsetAt(i));
              printed++;
              if (unbuffered) out.flush();
            }
          }
          out.flush();
        }
      }
    } finally {
      // Stopped early (limit, signal, error): the request still in flight fails when the client closes.
      inflight?.catch(() => {});
    }
  };
  await Promise.all(byLeader(info, [...state.keys()]).map(leaderLoop));
  return printed;
}

/** The partitions grouped by their leader, one list per leader. */
export function byLeader(info: TopicInfo, partitions: number[]): number[][] {
  const groups = new Map<number, number[]>();
  for (const p of partitions) {
    const leader = info.partitions.find((x) => x.partition === p)!.leader;
    groups.set(leader, [...(groups.get(leader) ?? []), p]);
  }
  return [...groups.values()];
}

const WRITER_BUFFER_BYTES = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = '0123456789abcdef';

/**
 * Builds JSON lines as UTF-8 bytes in a buffer and hands each full buffer on (then starts a new
 * one): no string or view per field, so a million records make little garbage. Keys and
 * values are escaped byte by byte while they are ASCII; any other byte sends that field through
 * TextDecoder-equivalent decoding and JSON.stringify (invalid UTF-8 becomes U+FFFD, as before).
 */
export class JsonLinesWriter {
  private buf = Buffer.allocUnsafe(WRITER_BUFFER_BYTES);
  private pos = 0;

  constructor(private readonly sink: (bytes: Uint8Array) => unknown) {}

  /** Hands on what is buffered (the sink keeps it: the writer continues in a new buffer). */
  flush(): void {
    if (this.pos === 0) return;
    this.sink(this.buf.subarray(0, this.pos));
    // What is left of this buffer is still free to use; a new one once little is.
    this.buf = this.buf.length - this.pos >= WRITER_BUFFER_BYTES / 8 ? this.buf.subarray(this.pos) : Buffer.allocUnsafe(WRITER_BUFFER_BYTES);
    this.pos = 0;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }

  /** Bytes copied as they are (JSON syntax and text already escaped). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    if (n > 32) this.buf.set(bytes, this.pos); // short ones: a loop beats set()'s call cost
    else for (let i = 0, buf = this.buf, p = this.pos; i < n; i++) buf[p + i] = bytes[i]!;
    this.pos += n;
  }

  /** A JavaScript string as a JSON string. */
  string(text: string): void {
    const json = JSON.stringify(text);
    this.room(json.length * 3);
    this.pos += this.buf.write(json, this.pos, 'utf8');
  }

  /**
   * An integer (a safe Number) in decimal. Done in int32 pieces (a division by 10 of an int32
   * compiles to a multiply; of a double it does not): a timestamp's 13 digits as its part above
   * 10^8 and exactly 8 digits below.
   */
  int(n: number): void {
    this.room(24);
    const buf = this.buf;
    let p = this.pos;
    if (n < 0) { buf[p++] = 0x2d; n = -n; }
    if (n < 1e8) {
      p = smallInt(buf, p, n | 0);
    } else {
      const high = Math.floor(n / 1e8); // below 2^53 / 10^8 < 2^31
      p = smallInt(buf, p, high);
      let low = (n - high * 1e8) | 0;
      for (let k = p + 7; k >= p; k--) { const q = (low / 10) | 0; buf[k] = 0x30 + low - q * 10; low = q; }
      p += 8;
    }
    this.pos = p;
  }

  /** data[offset, offset + size) as a JSON string of its UTF-8 text, or null when size < 0. */
  utf8(data: Uint8Array, offset: number, size: number): void {
    if (size < 0) { this.raw(NULL); return; }
    this.room(2 + 6 * size);
    const buf = this.buf;
    const start = this.pos;
    let p = start;
    buf[p++] = QUOTE;
    // Most fields are plain ASCII with nothing to escape: found so by one scan, copied by set().
    let plain = offset;
    const stop = offset + size;
    while (plain < stop) { const c = data[plain]!; if (c < 0x20 || c >= 0x80 || c === QUOTE || c === BACKSLASH) break; plain++; }
    if (plain - offset > 32) {
      buf.set(data.subarray(offset, plain), p);
      p += plain - offset;
    } else {
      for (let i = offset; i < plain; i++) buf[p++] = data[i]!;
    }
    for (let i = plain, end = stop; i < end; i++) {
      const c = data[i]!;
      if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) {
        if (c >= 0x80) { this.pos = start; this.string(Buffer.from(data.buffer, data.byteOffset + offset, size).toString('utf8')); return; }
        buf[p++] = c;
      } else if (c === QUOTE || c === BACKSLASH) {
        buf[p++] = BACKSLASH;
        buf[p++] = c;
      } else {
        const short = c === 0x0a ? 0x6e : c === 0x0d ? 0x72 : c === 0x09 ? 0x74 : c === 0x08 ? 0x62 : c === 0x0c ? 0x66 : 0;
        buf[p++] = BACKSLASH;
        if (short !== 0) buf[p++] = short;
        else { buf[p++] = 0x75; buf[p++] = 0x30; buf[p++] = 0x30; buf[p++] = HEX.charCodeAt(c >> 4); buf[p++] = HEX.charCodeAt(c & 15); }
      }
    }
    buf[p++] = QUOTE;
    this.pos = p;
  }

  /** Bytes as a JSON string in the given encoding (or null when size < 0). */
  bytes(data: Uint8Array, offset: number, size: number, encoding: Encoding): void {
    if (encoding === 'utf8' || size < 0) { this.utf8(data, offset, size); return; }
    const text = Buffer.from(data.buffer, data.byteOffset + offset, size).toString(encoding);
    this.room(text.length + 2);
    this.buf[this.pos++] = QUOTE;
    this.pos += this.buf.write(text, this.pos, 'latin1');
    this.buf[this.pos++] = QUOTE;
  }
}

/** Writes x (0 <= x < 2^31) in decimal at buf[p]; returns the end. */
function smallInt(buf: Uint8Array, p: number, x: number): number {
  const digits = x < 10 ? 1 : x < 100 ? 2 : x < 1000 ? 3 : x < 10000 ? 4 : x < 100000 ? 5 : x < 1000000 ? 6
    : x < 10000000 ? 7 : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10;
  const end = p + digits;
  for (let k = end - 1; k >= p; k--) { const q = (x / 10) | 0; buf[k] = 0x30 + x - q * 10; x = q; }
  return end;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const NULL = ascii('null');

/** Writes record `i` of `batch` (at `offset` of `partition`) into the output buffer. */
export type RecordWriter = (out: JsonLinesWriter, partition: number, batch: RecordBatch, i: number, offset: number | bigint) => void;

/**
 * Writes one record as a JSON line {topic, partition, offset, timestamp, key, value, headers}
 * (the shape `kafka-wire broker --load` reads), straight from the batch's positions.
 */
export function jsonRecordWriter(topic: string, encoding: Encoding): RecordWriter {
  const head = Buffer.from(`{"topic":${JSON.stringify(topic)},"partition":`, 'utf8');
  const [offsetKey, timestampKey, keyKey, valueKey, headersKey, end] = [',"offset":', ',"timestamp":', ',"key":', ',"value":', ',"headers":', '}\n'].map(ascii);
  const [noHeaders, open, headerKey, headerValue, headerEnd, comma, close] = ['[]', '[', '{"key":', ',"value":', '}', ',', ']'].map(ascii);
  const fieldBytes = (out: JsonLinesWriter, b: Uint8Array | null) => (b === null ? out.raw(NULL) : out.bytes(b, 0, b.length, encoding));
  return (out, partition, batch, i, offset) => {
    out.raw(head);
    out.int(partition);
    out.raw(offsetKey);
    if (typeof offset === 'number') out.int(offset); else out.string(String(offset));
    out.raw(timestampKey);
    out.int(Number(batch.timestampAt(i)));
    const data = batch.data;
    out.raw(keyKey);
    out.bytes(data, batch.keyOffsetAt(i), batch.keySizeAt(i), encoding);
    out.raw(valueKey);
    out.bytes(data, batch.valueOffsetAt(i), batch.valueSizeAt(i), encoding);
    out.raw(headersKey);
    if (batch.headerCountAt(i) === 0) out.raw(noHeaders);
    else {
      batch.headersAt(i).forEach((h, n) => {
        out.raw(n === 0 ? open : comma);
        out.raw(headerKey);
        out.string(h.key);
        out.raw(headerValue);
        fieldBytes(out, h.value);
        out.raw(headerEnd);
      });
      out.raw(close);
    }
    out.raw(end);
  };
}

interface FetchedPartition {
  partition: number; errorCode: number; highWatermark: bigint; lastStableOffset: bigint;
  abortedTransactions: AbortedTransaction[] | null; batches: RecordBatch[];
}

async function fetchOnce(conn: Connection, info: TopicInfo, positions: ReadonlyArray<readonly [number, bigint]>, maxWaitMs: number,
  isolationLevel: number): Promise<FetchedPartition[]> {
  const version = conn.versionFor(1);
  if (version === undefined || version < 4) throw new Error(`broker ${conn.host}:${conn.port} lacks Fetch v4+ (record batches v2)`);
  const res = await conn.request(1, version, {
    replicaId: -1,
    maxWaitMs,
    minBytes: 1,
    maxBytes: FETCH_MAX_BYTES,
    isolationLevel,
    topics: [{
      ...(version >= 13 ? { topicId: info.topicId } : { topic: info.name }),
      partitions: positions.map(([partition, fetchOffset]) => ({ partition, fetchOffset, partitionMaxBytes: FETCH_PARTITION_MAX_BYTES })),
    }],
  }, { timeoutMs: Math.max(conn.requestTimeoutMs, maxWaitMs + 10_000) });
  if (res.errorCode) throw new Error(`Fetch ${info.name}: ${kafkaErrorName(res.errorCode)}`);
  const out: FetchedPartition[] = [];
  for (const t of res.responses) {
    for (const p of t.partitions) {
      const batches = p.records && p.records.length > 0 ? decodeRecordBatches(p.records, { lazy: true }).batches : [];
      out.push({
        partition: p.partitionIndex, errorCode: p.errorCode, highWatermark: p.highWatermark, lastStableOffset: p.lastStableOffset,
        abortedTransactions: p.abortedTransactions, batches,
      });
    }
  }
  return out;
}
