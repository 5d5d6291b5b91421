// Metric snapshots with the Java client's names and meanings (`record-send-rate`,
// `request-latency-avg`, `records-lag-max`, ...): a producer, consumer or admin keeps a Metrics,
// counts into its sensors as it works, and metrics() reads them. A sensor is Kafka's idea: one
// thing measured, read as several metrics: a meter as NAME-rate (per second over the last
// window) and NAME-total; a stat as NAME-avg and NAME-max over the window; a gauge as its value
// now. Windows are Kafka's defaults (two samples of 30 s). No runtime imports: every runtime.

export interface MetricValue {
  /** Kafka's metric name, e.g. "record-send-rate". */
  name: string;
  /** Kafka's metric group, e.g. "producer-metrics". */
  group: string;
  /** Kafka's tags: client-id always; topic, partition, node-id where the metric is per one. */
  tags: Readonly<Record<string, string>>;
  value: number;
}

/** Two samples of 30 s, as Kafka's metrics.num.samples and metrics.sample.window.ms default. */
export const SAMPLE_WINDOW_MS = 30_000;
const SAMPLES = 2;

/** A clock in milliseconds (tests pass their own). */
export type Clock = () => number;

interface Sample { start: number; count: number; sum: number; max: number }

/** Kafka's sampled stat: the last SAMPLES windows, the oldest dropped as time moves on. */
class Samples {
  readonly #clock: Clock;
  readonly #samples: Sample[] = [];
  constructor(clock: Clock) { this.#clock = clock; }

  record(value: number): void {
    const now = this.#clock();
    let current = this.#samples[this.#samples.length - 1];
    if (current === undefined || now - current.start >= SAMPLE_WINDOW_MS) {
      current = { start: now, count: 0, sum: 0, max: -Infinity };
      this.#samples.push(current);
      if (this.#samples.length > SAMPLES) this.#samples.shift();
    }
    current.count++;
    current.sum += value;
    if (value > current.max) current.max = value;
  }

  /** The samples still inside the window at `now`. */
  #live(now: number): Sample[] {
    return this.#samples.filter((s) => now - s.start < SAMPLES * SAMPLE_WINDOW_MS);
  }

  /** Sum of values per second over the time the live samples cover (Kafka's Rate). */
  rate(): number {
    const now = this.#clock();
    const live = this.#live(now);
    if (live.length === 0) return 0;
    const sum = live.reduce((n, s) => n + s.sum, 0);
    // As Kafka's Rate: at least (samples - 1) windows elapsed, so a young sensor does not report a burst as a rate.
    const elapsed = Math.max(now - live[0]!.start, (SAMPLES - 1) * SAMPLE_WINDOW_MS);
    return sum / (elapsed / 1000);
  }

  avg(): number {
    const live = this.#live(this.#clock());
    const count = live.reduce((n, s) => n + s.count, 0);
    return count === 0 ? NaN : live.reduce((n, s) => n + s.sum, 0) / count;
  }

  max(): number {
    const live = this.#live(this.#clock());
    return live.length === 0 ? NaN : Math.max(...live.map((s) => s.max));
  }
}

/** Counts events or amounts: NAME-rate and NAME-total. */
export class Meter {
  #total = 0;
  readonly #samples: Samples;
  constructor(clock: Clock) { this.#samples = new Samples(clock); }
  record(amount = 1): void {
    this.#total += amount;
    this.#samples.record(amount);
  }
  get total(): number { return this.#total; }
  rate(): number { return this.#samples.rate(); }
}

/** Measures values: NAME-avg and NAME-max over the window (NaN when nothing was measured, as Kafka's). */
export class Stat {
  readonly #samples: Samples;
  constructor(clock: Clock) { this.#samples = new Samples(clock); }
  record(value: number): void { this.#samples.record(value); }
  avg(): number { return this.#samples.avg(); }
  max(): number { return this.#samples.max(); }
}

type Tags = Readonly<Record<string, string>>;
interface Entry { group: string; names: readonly string[]; tags: Tags; read(out: MetricValue[], group: string, tags: Tags): void }

/** Every tag a kafka-wire metric may carry (Kafka's names). */
export const METRIC_TAGS = ['client-id', 'node-id', 'topic', 'partition'] as const;

/** Anything that gives metric snapshots: a producer, consumer or admin. */
export interface MetricsSource {
  metrics(): MetricValue[];
  /** Every (group, name) the snapshots can hold, per-partition ones included while no partition is there. */
  metricNames(): { group: string; name: string }[];
}

/** One client's sensors, read together as a snapshot. */
export class Metrics {
  readonly clientId: string;
  readonly #clock: Clock;
  readonly #entries: Entry[] = [];

  constructor(clientId: string, clock: Clock = () => Date.now()) {
    this.clientId = clientId;
    this.#clock = clock;
  }

  #tags(extra?: Tags): Tags {
    return { 'client-id': this.clientId, ...extra };
  }

  /** NAME-rate and NAME-total in `group`. */
  meter(group: string, name: string, extra?: Tags): Meter {
    const meter = new Meter(this.#clock);
    this.#entries.push({ group, names: [`${name}-rate`, `${name}-total`], tags: this.#tags(extra), read: (out, g, tags) => {
      out.push({ name: `${name}-rate`, group: g, tags, value: meter.rate() }, { name: `${name}-total`, group: g, tags, value: meter.total });
    } });
    return meter;
  }

  /** NAME-avg and NAME-max in `group`. */
  stat(group: string, name: string, extra?: Tags): Stat {
    const stat = new Stat(this.#clock);
    this.#entries.push({ group, names: [`${name}-avg`, `${name}-max`], tags: this.#tags(extra), read: (out, g, tags) => {
      out.push({ name: `${name}-avg`, group: g, tags, value: stat.avg() }, { name: `${name}-max`, group: g, tags, value: stat.max() });
    } });
    return stat;
  }

  /** A value read when the snapshot is taken. */
  gauge(group: string, name: string, read: () => number, extra?: Tags): void {
    this.#entries.push({ group, names: [name], tags: this.#tags(extra), read: (out, g, tags) => out.push({ name, group: g, tags, value: read() }) });
  }

  /** Gauges per item of a changing set (per partition lag): `list()` gives each item's tags and value. */
  gauges(group: string, name: string, list: () => Iterable<{ tags: Tags; value: number }>): void {
    this.#entries.push({ group, names: [name], tags: this.#tags(), read: (out, g, tags) => {
      for (const item of list()) out.push({ name, group: g, tags: { ...tags, ...item.tags }, value: item.value });
    } });
  }

  /** Every (group, name) a snapshot can hold, once each. */
  names(): { group: string; name: string }[] {
    const seen = new Set<string>();
    const out: { group: string; name: string }[] = [];
    for (const entry of this.#entries) {
      for (const name of entry.names) {
        const key = `${entry.group}/${name}`;
        if (!seen.has(key)) { seen.add(key); out.push({ group: entry.group, name }); }
      }
    }
    return out;
  }

  /** Every metric now. */
  snapshot(): MetricValue[] {
    const out: MetricValue[] = [];
    for (const entry of this.#entries) entry.read(out, entry.group, entry.tags);
    return out;
  }
}

/** A snapshot as an object by name (the first of each name; tags dropped), for a quick look or a log line. */
export function metricsByName(values: readonly MetricValue[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) if (!(v.name in out)) out[v.name] = v.value;
  return out;
}
