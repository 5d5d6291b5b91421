// kafka-wire's metric snapshots for OpenTelemetry metrics: one observable gauge per Kafka metric
// (kafka.producer.record-send-rate, ...), attributes from Kafka's tags, all read from one snapshot
// per collection. The Meter is the app's (@opentelemetry/api's metrics.getMeter), so kafka-wire
// loads nothing of OpenTelemetry unless this is used.
import type { MetricsSource } from './metrics.js';

/** The parts of @opentelemetry/api's Meter used here. */
interface ObservableLike { readonly __observable?: never }
interface BatchResultLike { observe(observable: any, value: number, attributes?: Record<string, string>): void }
interface MeterLike {
  createObservableGauge(name: string, options?: { description?: string; unit?: string }): ObservableLike;
  addBatchObservableCallback(callback: (result: BatchResultLike) => void, observables: ObservableLike[]): void;
}

/** OpenTelemetry's name for a Kafka metric: kafka.GROUP (without "-metrics").NAME. */
export function openTelemetryName(group: string, name: string): string {
  return `kafka.${group.replace(/-metrics$/, '')}.${name}`;
}

/** Observes every metric the sources can report through `meter`; returns the instruments' names. */
export function observeWithOpenTelemetry(sources: MetricsSource | readonly MetricsSource[], meter: MeterLike): string[] {
  const list = Array.isArray(sources) ? sources : [sources as MetricsSource];
  const gauges = new Map<string, ObservableLike>();
  for (const source of list) {
    for (const m of source.metricNames()) {
      const key = openTelemetryName(m.group, m.name);
      if (!gauges.has(key)) gauges.set(key, meter.createObservableGauge(key, { description: `Kafka client metric ${m.name} (${m.group})` }));
    }
  }
  meter.addBatchObservableCallback((result) => {
    for (const source of list) {
      for (const v of source.metrics()) {
        const gauge = gauges.get(openTelemetryName(v.group, v.name));
        if (gauge !== undefined && !Number.isNaN(v.value)) result.observe(gauge, v.value, { ...v.tags });
      }
    }
  }, [...gauges.values()]);
  return [...gauges.keys()];
}
