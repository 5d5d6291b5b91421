// kafka-wire's metric snapshots for prom-client: one Gauge per Kafka metric, named as Kafka's JMX
// reporter's group and name are in Prometheus's JMX exporter habit (producer-metrics'
// record-send-rate is kafka_producer_record_send_rate), labelled by Kafka's tags (client_id,
// node_id, topic, partition), its value read from the client's snapshot at each scrape. prom-client
// is the app's: pass its module, so kafka-wire loads nothing unless this is used.
import { METRIC_TAGS, type MetricsSource, type MetricValue } from './metrics.js';

/** The parts of prom-client's Gauge and Registry used here. */
interface GaugeLike { set(labels: Record<string, string>, value: number): void; reset(): void }
interface PromClientLike {
  Gauge: new (config: {
    name: string; help: string; labelNames: readonly string[]; registers?: readonly unknown[];
    collect?: (this: GaugeLike) => void | Promise<void>;
  }) => GaugeLike;
}

export interface PrometheusOptions {
  /** prom-client's Registry to register in (default: prom-client's global one). */
  registry?: unknown;
  /** Before every name (default "kafka_"). */
  prefix?: string;
}

const LABELS = METRIC_TAGS.map((t) => t.replace(/-/g, '_'));

/** Prometheus's name for a Kafka metric: group without its "-metrics", then the name, in snake case. */
export function prometheusName(group: string, name: string, prefix = 'kafka_'): string {
  return `${prefix}${group.replace(/-metrics$/, '')}_${name}`.replace(/[^a-zA-Z0-9_]/g, '_');
}

/**
 * Registers a Gauge for every metric the sources can report; each scrape reads one snapshot per
 * source. Returns the gauges' names.
 */
export function registerPrometheus(sources: MetricsSource | readonly MetricsSource[], prom: PromClientLike, options: PrometheusOptions = {}): string[] {
  const list = Array.isArray(sources) ? sources : [sources as MetricsSource];
  const prefix = options.prefix ?? 'kafka_';
  const byName = new Map<string, { group: string; name: string }>();
  for (const source of list) for (const m of source.metricNames()) byName.set(prometheusName(m.group, m.name, prefix), m);
  // One snapshot per source per scrape, shared by every gauge's collect in that scrape.
  let snapshot: MetricValue[] | null = null;
  const read = () => {
    if (snapshot === null) {
      snapshot = list.flatMap((s) => s.metrics());
      setTimeout(() => { snapshot = null; }, 0);
    }
    return snapshot;
  };
  for (const [promName, { group, name }] of byName) {
    new prom.Gauge({
      name: promName,
      help: `Kafka client metric ${name} (${group})`,
      labelNames: LABELS,
      ...(options.registry !== undefined ? { registers: [options.registry] } : {}),
      collect() {
        this.reset();
        for (const v of read()) {
          if (v.group !== group || v.name !== name || Number.isNaN(v.value)) continue;
          const labels: Record<string, string> = {};
          for (const [k, value] of Object.entries(v.tags)) labels[k.replace(/-/g, '_')] = value;
          this.set(labels, v.value);
        }
      },
    });
  }
  return [...byName.keys()];
}
