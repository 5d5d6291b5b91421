// What a perf run counts and how it prints it: windows of acknowledged (or consumed) records
// for the progress lines, the run's totals and latency histogram for the final line, and a
// timeline of one point per interval for the report, all in the exact line formats of Kafka's
// ProducerPerformance and ConsumerPerformance (so runs compare line by line). Memory is fixed:
// the histogram is fixed-size and the timeline halves its resolution when it fills.
import { Histogram } from './histogram.js';

/** Kafka's perf tools count MB as 2^20 bytes. */
export const MB = 1024 * 1024;
/** The progress line interval of both Kafka tools. */
export const REPORT_INTERVAL_MS = 5_000;
/** Percentiles of the final line, as Kafka's ProducerPerformance prints them. */
export const PERCENTILES = [0.5, 0.95, 0.99, 0.999] as const;
/** Timeline points kept before two neighbours merge into one. */
const TIMELINE_POINTS = 2_048;

/** One interval of a run: records and bytes in it, ack latency (ms) average and maximum. */
export interface TimelinePoint { atMs: number; spanMs: number; records: number; bytes: number; latencySumMs: number; latencyMaxMs: number }

/** Points of fixed width (1 s, doubling whenever TIMELINE_POINTS are full): memory bounded for any run length. */
export class Timeline {
  readonly points: TimelinePoint[] = [];
  #widthMs: number;

  constructor(widthMs = 1_000) { this.#widthMs = widthMs; }

  get widthMs(): number { return this.#widthMs; }

  add(atMs: number, records: number, bytes: number, latencyMs: number, latencyWeight: number): void {
    const slot = Math.floor(atMs / this.#widthMs) * this.#widthMs;
    let last = this.points[this.points.length - 1];
    if (last === undefined || last.atMs !== slot) {
      if (this.points.length === TIMELINE_POINTS) { this.#halve(); this.add(atMs, records, bytes, latencyMs, latencyWeight); return; }
      last = { atMs: slot, spanMs: this.#widthMs, records: 0, bytes: 0, latencySumMs: 0, latencyMaxMs: 0 };
      this.points.push(last);
    }
    last.records += records;
    last.bytes += bytes;
    last.latencySumMs += latencyMs * latencyWeight;
    if (latencyMs > last.latencyMaxMs) last.latencyMaxMs = latencyMs;
  }

  #halve(): void {
    this.#widthMs *= 2;
    const merged: TimelinePoint[] = [];
    for (const p of this.points) {
      const slot = Math.floor(p.atMs / this.#widthMs) * this.#widthMs;
      const last = merged[merged.length - 1];
      if (last !== undefined && last.atMs === slot) {
        last.records += p.records; last.bytes += p.bytes; last.latencySumMs += p.latencySumMs;
        last.latencyMaxMs = Math.max(last.latencyMaxMs, p.latencyMaxMs);
      } else merged.push({ ...p, atMs: slot, spanMs: this.#widthMs });
    }
    this.points.splice(0, this.points.length, ...merged);
  }
}

/** A window's or a run's counts. */
interface Counts { records: number; bytes: number; latencySumMs: number; latencyMaxMs: number }
const zero = (): Counts => ({ records: 0, bytes: 0, latencySumMs: 0, latencyMaxMs: 0 });

/** The produce side: acknowledged records, their payload bytes and per-batch ack latency. */
export class ProduceStats {
  readonly histogram = new Histogram();
  readonly timeline = new Timeline();
  readonly startedAt: number;
  batches = 0;
  #total = zero();
  #window = zero();
  #windowStart: number;
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.startedAt = now();
    this.#windowStart = this.startedAt;
  }

  get records(): number { return this.#total.records; }
  get bytes(): number { return this.#total.bytes; }

  /**
   * A batch of `records` records (`bytes` of payload) acknowledged `latencyMs` after it closed;
   * every record of it is counted with that latency, so the percentiles are per record as
   * Kafka's tool gives them.
   */
  acked(records: number, bytes: number, latencyMs: number): void {
    this.batches++;
    for (const c of [this.#total, this.#window]) {
      c.records += records;
      c.bytes += bytes;
      c.latencySumMs += latencyMs * records;
      if (latencyMs > c.latencyMaxMs) c.latencyMaxMs = latencyMs;
    }
    this.histogram.record(latencyMs * 1000, records);
    this.timeline.add(this.#now() - this.startedAt, records, bytes, latencyMs, records);
  }

  /** The window since the last call, as a progress object; starts the next window. */
  window(): ProduceProgress {
    const now = this.#now();
    const w = this.#window;
    const progress = rates(w, now - this.#windowStart);
    this.#window = zero();
    this.#windowStart = now;
    return progress;
  }

  /** The whole run so far. */
  summary(): ProduceSummary {
    const t = this.#total;
    const base = rates(t, this.#now() - this.startedAt);
    const h = this.histogram;
    const [p50, p95, p99, p999] = PERCENTILES.map((q) => h.quantile(q) / 1000) as [number, number, number, number];
    return { ...base, batches: this.batches, p50Ms: p50, p95Ms: p95, p99Ms: p99, p999Ms: p999 };
  }
}

export interface ProduceProgress {
  records: number;
  bytes: number;
  elapsedMs: number;
  recordsPerSec: number;
  mbPerSec: number;
  avgLatencyMs: number;
  maxLatencyMs: number;
}
export interface ProduceSummary extends ProduceProgress { batches: number; p50Ms: number; p95Ms: number; p99Ms: number; p999Ms: number }

function rates(c: Counts, elapsedMs: number): ProduceProgress {
  const ms = Math.max(elapsedMs, 1e-3);
  return {
    records: c.records, bytes: c.bytes, elapsedMs,
    recordsPerSec: (1000 * c.records) / ms,
    mbPerSec: (1000 * c.bytes) / ms / MB,
    avgLatencyMs: c.records === 0 ? 0 : c.latencySumMs / c.records,
    maxLatencyMs: c.latencyMaxMs,
  };
}

/** ProducerPerformance's progress line. */
export function produceProgressLine(p: ProduceProgress): string {
  return `${p.records} records sent, ${p.recordsPerSec.toFixed(1)} records/sec (${p.mbPerSec.toFixed(2)} MB/sec), ` +
    `${p.avgLatencyMs.toFixed(1)} ms avg latency, ${p.maxLatencyMs.toFixed(1)} ms max latency.`;
}

/** ProducerPerformance's final line (Kafka 4's: records/sec to six places; percentiles in whole milliseconds). */
export function produceSummaryLine(s: ProduceSummary): string {
  return `${s.records} records sent, ${s.recordsPerSec.toFixed(6)} records/sec (${s.mbPerSec.toFixed(2)} MB/sec), ` +
    `${s.avgLatencyMs.toFixed(2)} ms avg latency, ${s.maxLatencyMs.toFixed(2)} ms max latency, ` +
    `${Math.round(s.p50Ms)} ms 50th, ${Math.round(s.p95Ms)} ms 95th, ${Math.round(s.p99Ms)} ms 99th, ${Math.round(s.p999Ms)} ms 99.9th.`;
}

/** The consume side: records and key+value bytes read, per window and in all. */
export class ConsumeStats {
  readonly timeline = new Timeline();
  readonly startedAt: number;
  records = 0;
  bytes = 0;
  /** Time spent joining the group (ConsumerPerformance's rebalance.time.ms). */
  rebalanceMs = 0;
  #windowRecords = 0;
  #windowBytes = 0;
  #windowStart: number;
  #windowRebalanceMs = 0;
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.startedAt = now();
    this.#windowStart = this.startedAt;
  }

  read(records: number, bytes: number): void {
    this.records += records;
    this.bytes += bytes;
    this.#windowRecords += records;
    this.#windowBytes += bytes;
    this.timeline.add(this.#now() - this.startedAt, records, bytes, 0, 0);
  }

  rebalanced(ms: number): void {
    this.rebalanceMs += ms;
    this.#windowRebalanceMs += ms;
  }

  /** ConsumerPerformance's --show-detailed-stats line for the window since the last call. */
  windowLine(dateText: (ms: number) => string, wallNow: number): { line: string; progress: ConsumeProgress } {
    const now = this.#now();
    const elapsed = now - this.#windowStart;
    const fetchMs = Math.max(0, elapsed - this.#windowRebalanceMs);
    const mb = this.#windowBytes / MB;
    const progress: ConsumeProgress = {
      records: this.records, bytes: this.bytes, windowRecords: this.#windowRecords, elapsedMs: elapsed,
      recordsPerSec: elapsed <= 0 ? 0 : (1000 * this.#windowRecords) / elapsed, mbPerSec: elapsed <= 0 ? 0 : (1000 * mb) / elapsed,
    };
    const line = `${dateText(wallNow)}, 0, ${(this.bytes / MB).toFixed(4)}, ${progress.mbPerSec.toFixed(4)}, ${this.records}, ${progress.recordsPerSec.toFixed(4)}` +
      `, ${Math.round(this.#windowRebalanceMs)}, ${Math.round(fetchMs)}, ${(fetchMs <= 0 ? 0 : (1000 * mb) / fetchMs).toFixed(4)}, ${(fetchMs <= 0 ? 0 : (1000 * this.#windowRecords) / fetchMs).toFixed(4)}`;
    this.#windowRecords = 0;
    this.#windowBytes = 0;
    this.#windowRebalanceMs = 0;
    this.#windowStart = now;
    return { line, progress };
  }

  /** The whole run: ConsumerPerformance's final line's figures. */
  summary(): ConsumeSummary {
    const elapsedMs = Math.max(this.#now() - this.startedAt, 1e-3);
    const fetchMs = Math.max(elapsedMs - this.rebalanceMs, 1e-3);
    const mb = this.bytes / MB;
    return {
      records: this.records, bytes: this.bytes, elapsedMs, rebalanceMs: this.rebalanceMs, fetchMs,
      mbPerSec: (1000 * mb) / elapsedMs, recordsPerSec: (1000 * this.records) / elapsedMs,
      fetchMbPerSec: (1000 * mb) / fetchMs, fetchRecordsPerSec: (1000 * this.records) / fetchMs,
    };
  }
}

export interface ConsumeProgress { records: number; bytes: number; windowRecords: number; elapsedMs: number; recordsPerSec: number; mbPerSec: number }
export interface ConsumeSummary {
  records: number; bytes: number; elapsedMs: number; rebalanceMs: number; fetchMs: number;
  mbPerSec: number; recordsPerSec: number; fetchMbPerSec: number; fetchRecordsPerSec: number;
}

/** ConsumerPerformance's header lines (the plain one, and the one --show-detailed-stats prints). */
export const CONSUME_HEADER = 'start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec';
export const CONSUME_DETAILED_HEADER = 'time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec';

/** ConsumerPerformance's final line. */
export function consumeSummaryLine(s: ConsumeSummary, startText: string, endText: string): string {
  return `${startText}, ${endText}, ${(s.bytes / MB).toFixed(4)}, ${s.mbPerSec.toFixed(4)}, ${s.records}, ${s.recordsPerSec.toFixed(4)}, ` +
    `${Math.round(s.rebalanceMs)}, ${Math.round(s.fetchMs)}, ${s.fetchMbPerSec.toFixed(4)}, ${s.fetchRecordsPerSec.toFixed(4)}`;
}

/** ConsumerPerformance's default date format, yyyy-MM-dd HH:mm:ss:SSS, in local time. */
export function kafkaDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}:${p(d.getMilliseconds(), 3)}`;
}

/** A figure rounded to `digits` decimals, for JSON lines (no 0.30000000000000004). */
export const roundTo = (n: number, digits = 3) => Number(n.toFixed(digits));

/** A produce progress window or summary as --json prints it. */
export function progressJson(p: { records: number; bytes: number; elapsedMs: number; recordsPerSec: number; mbPerSec: number; avgLatencyMs: number; maxLatencyMs: number }) {
  return {
    records: p.records, bytes: Math.round(p.bytes), elapsedMs: roundTo(p.elapsedMs, 1), recordsPerSec: roundTo(p.recordsPerSec, 1),
    mbPerSec: roundTo(p.mbPerSec), avgLatencyMs: roundTo(p.avgLatencyMs), maxLatencyMs: p.maxLatencyMs,
  };
}
