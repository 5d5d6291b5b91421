// A metrics snapshot as OTLP protobuf bytes (opentelemetry-proto's metrics/v1 MetricsData), what a
// KIP-714 PushTelemetry carries. Names as the Java client sends them: "org.apache.kafka." and the
// group (without its "-metrics") and name with dots for dashes, so producer-metrics'
// record-send-rate is org.apache.kafka.producer.record.send.rate; tags become attributes with
// underscores (client_id, topic, partition). A NAME-total is a monotonic Sum (cumulative, or
// delta since the last push when the broker asks for delta temporality); everything else a Gauge.
// Values that are NaN (an average of nothing) are left out. No runtime imports.
import type { MetricValue } from './metrics.js';

/** The name the Java client pushes a metric under. */
export function telemetryName(group: string, name: string): string {
  return `org.apache.kafka.${group.replace(/-metrics$/, '').replace(/-/g, '.')}.${name.replace(/-/g, '.')}`;
}

/** Protobuf's wire format, appended to a growing byte list. */
class Writer {
  bytes: number[] = [];
  varint(n: number | bigint): void {
    let v = BigInt(n);
    while (v > 0x7fn) { this.bytes.push(Number(v & 0x7fn) | 0x80); v >>= 7n; }
    this.bytes.push(Number(v));
  }
  tag(field: number, wire: number): void { this.varint((field << 3) | wire); }
  fixed64(field: number, v: bigint): void {
    this.tag(field, 1);
    for (let i = 0n; i < 8n; i++) this.bytes.push(Number((v >> (8n * i)) & 0xffn));
  }
  double(field: number, v: number): void {
    this.tag(field, 1);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    this.bytes.push(...b);
  }
  string(field: number, s: string): void { this.message(field, new TextEncoder().encode(s)); }
  bool(field: number, v: boolean): void { this.tag(field, 0); this.varint(v ? 1 : 0); }
  uint(field: number, v: number): void { this.tag(field, 0); this.varint(v); }
  message(field: number, body: ArrayLike<number>): void {
    this.tag(field, 2);
    this.varint(body.length);
    for (let i = 0; i < body.length; i++) this.bytes.push(body[i]!);
  }
}

const build = (fill: (w: Writer) => void): number[] => { const w = new Writer(); fill(w); return w.bytes; };

/** KeyValue { key = 1; AnyValue value = 2 { string_value = 1 } }. */
const keyValue = (key: string, value: string) => build((w) => { w.string(1, key); w.message(2, build((v) => v.string(1, value))); });

export interface OtlpOptions {
  /** Resource attributes (the Java client sends none it must; the broker adds its own labels). */
  resource?: Readonly<Record<string, string>>;
  /** Now, in ms since the epoch. */
  nowMs: number;
  /** When the values started counting (the client's start), in ms. */
  startMs: number;
  /** Delta temporality for sums: the totals of the last push (by series), updated here; absent: cumulative. */
  previous?: Map<string, { value: number; atMs: number }>;
  /** Keep only the metrics (by telemetry name) this says yes to. */
  select?: (name: string) => boolean;
}

/** The snapshot as MetricsData bytes, and the names it holds. */
export function encodeOtlpMetrics(values: readonly MetricValue[], options: OtlpOptions): { bytes: Uint8Array; names: string[] } {
  const nano = (ms: number) => BigInt(Math.round(ms)) * 1_000_000n;
  const byName = new Map<string, { sum: boolean; points: number[][] }>();
  for (const v of values) {
    if (!Number.isFinite(v.value)) continue;
    const name = telemetryName(v.group, v.name);
    if (options.select && !options.select(name)) continue;
    const sum = v.name.endsWith('-total');
    const attributes = Object.entries(v.tags).map(([k, t]) => keyValue(k.replace(/-/g, '_'), t));
    let value = v.value;
    let start = options.startMs;
    if (sum && options.previous) {
      const series = `${name}\u0000${attributes.map((a) => a.join(',')).join(';')}`;
      const last = options.previous.get(series);
      if (last) { value = v.value - last.value; start = last.atMs; }
      options.previous.set(series, { value: v.value, atMs: options.nowMs });
    }
    const point = build((w) => {
      for (const a of attributes) w.message(7, a);
      w.fixed64(2, nano(start));
      w.fixed64(3, nano(options.nowMs));
      w.double(4, value);
    });
    const entry = byName.get(name) ?? { sum, points: [] };
    entry.points.push(point);
    byName.set(name, entry);
  }
  const metrics = [...byName].map(([name, m]) => build((w) => {
    w.string(1, name);
    const points = build((d) => {
      for (const p of m.points) d.message(1, p);
      if (m.sum) { d.uint(2, options.previous ? 1 : 2); d.bool(3, true); } // DELTA 1, CUMULATIVE 2; monotonic
    });
    w.message(m.sum ? 7 : 5, points); // Sum = 7, Gauge = 5
  }));
  const resource = build((w) => { for (const [k, v] of Object.entries(options.resource ?? {})) w.message(1, keyValue(k, v)); });
  const scope = build((w) => { w.string(1, 'kafka-wire'); });
  const scopeMetrics = build((w) => { w.message(1, scope); for (const m of metrics) w.message(2, m); });
  const resourceMetrics = build((w) => { w.message(1, resource); w.message(2, scopeMetrics); });
  const data = build((w) => w.message(1, resourceMetrics));
  return { bytes: Uint8Array.from(data), names: [...byName.keys()] };
}
