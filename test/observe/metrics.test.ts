// Metric snapshots: Kafka's sampled windows (rates over at least one window, avg and max over the
// live samples, old samples dropped), names and tags; the prom-client adapter read back through
// prom-client's own text exposition, parsed; the OpenTelemetry adapter through a real
// MeterProvider's collection.
import { describe, expect, it } from 'vitest';
import * as prom from 'prom-client';
import { MeterProvider, MetricReader, type CollectionResult } from '@opentelemetry/sdk-metrics';
import { Metrics, SAMPLE_WINDOW_MS, metricsByName, type MetricsSource } from '../../src/observe/metrics.js';
import { registerPrometheus, prometheusName } from '../../src/observe/prometheus.js';
import { observeWithOpenTelemetry } from '../../src/observe/opentelemetry.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => { now += ms; } };
}

function source(metrics: Metrics): MetricsSource {
  return { metrics: () => metrics.snapshot(), metricNames: () => metrics.names() };
}

describe('Metrics', () => {
  it('reads a meter as NAME-rate over at least one window and NAME-total', () => {
    const c = clock();
    const m = new Metrics('app', c.now);
    const sent = m.meter('producer-metrics', 'record-send');
    for (let i = 0; i < 300; i++) sent.record();
    // Young: the rate is over one whole window, not the few milliseconds so far (Kafka's Rate).
    expect(metricsByName(m.snapshot())).toEqual({ 'record-send-rate': 300 / (SAMPLE_WINDOW_MS / 1000), 'record-send-total': 300 });
    c.advance(45_000);
    sent.record(150);
    expect(metricsByName(m.snapshot())['record-send-rate']).toBeCloseTo(450 / 45, 9);
    // Two windows later the first sample is gone; the total is not.
    c.advance(2 * SAMPLE_WINDOW_MS + 1);
    const later = metricsByName(m.snapshot());
    expect(later['record-send-rate']).toBe(0);
    expect(later['record-send-total']).toBe(450);
  });

  it('reads a stat as NAME-avg and NAME-max, NaN before anything is measured, and tags every value', () => {
    const c = clock();
    const m = new Metrics('app', c.now);
    const latency = m.stat('producer-metrics', 'request-latency', { 'node-id': '1' });
    expect(Number.isNaN(metricsByName(m.snapshot())['request-latency-avg'])).toBe(true);
    for (const v of [10, 30, 20]) latency.record(v);
    const values = m.snapshot();
    expect(values).toEqual([
      { name: 'request-latency-avg', group: 'producer-metrics', tags: { 'client-id': 'app', 'node-id': '1' }, value: 20 },
      { name: 'request-latency-max', group: 'producer-metrics', tags: { 'client-id': 'app', 'node-id': '1' }, value: 30 },
    ]);
  });

  it('lists every name a snapshot can hold, per-partition gauges with no partition yet included', () => {
    const m = new Metrics('app');
    m.gauge('producer-metrics', 'buffer-available-bytes', () => 5);
    const lags: { tags: Record<string, string>; value: number }[] = [];
    m.gauges('consumer-fetch-manager-metrics', 'records-lag', () => lags);
    expect(m.names()).toEqual([
      { group: 'producer-metrics', name: 'buffer-available-bytes' },
      { group: 'consumer-fetch-manager-metrics', name: 'records-lag' },
    ]);
    expect(m.snapshot()).toHaveLength(1);
    lags.push({ tags: { topic: 't', partition: '0' }, value: 7 }, { tags: { topic: 't', partition: '1' }, value: 0 });
    expect(m.snapshot().filter((v) => v.name === 'records-lag').map((v) => [v.tags.partition, v.value])).toEqual([['0', 7], ['1', 0]]);
  });
});

/** Prometheus's text exposition as (name, labels, value) rows (comments skipped). */
function parseExposition(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const rows = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    rows.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return rows;
}

describe('the prom-client adapter', () => {
  it('exposes each metric as a gauge read at scrape time, in text prom-client writes and a parser reads', async () => {
    const m = new Metrics('app');
    const sent = m.meter('producer-metrics', 'record-send');
    let inFlight = 3;
    m.gauge('producer-metrics', 'requests-in-flight', () => inFlight);
    const lags = [{ tags: { topic: 'orders', partition: '2' }, value: 41 }];
    m.gauges('consumer-fetch-manager-metrics', 'records-lag', () => lags);
    const registry = new prom.Registry();
    const names = registerPrometheus(source(m), prom, { registry });
    expect(names).toContain('kafka_producer_record_send_total');
    expect(prometheusName('consumer-fetch-manager-metrics', 'records-lag')).toBe('kafka_consumer_fetch_manager_records_lag');

    sent.record(12);
    let rows = parseExposition(await registry.metrics());
    const find = (name: string) => rows.filter((r) => r.name === name);
    expect(find('kafka_producer_record_send_total')).toEqual([{ name: 'kafka_producer_record_send_total', labels: { client_id: 'app' }, value: 12 }]);
    expect(find('kafka_producer_requests_in_flight')[0]!.value).toBe(3);
    expect(find('kafka_consumer_fetch_manager_records_lag')).toEqual([
      { name: 'kafka_consumer_fetch_manager_records_lag', labels: { client_id: 'app', topic: 'orders', partition: '2' }, value: 41 },
    ]);
    // Read again at the next scrape, not kept from the first.
    inFlight = 0;
    sent.record(1);
    await new Promise((r) => setTimeout(r, 5));
    rows = parseExposition(await registry.metrics());
    expect(find('kafka_producer_requests_in_flight')[0]!.value).toBe(0);
    expect(find('kafka_producer_record_send_total')[0]!.value).toBe(13);
  });
});

describe('the OpenTelemetry metrics adapter', () => {
  it('observes every metric with its tags as attributes in a MeterProvider\'s collection', async () => {
    class Reader extends MetricReader {
      protected async onForceFlush(): Promise<void> {}
      protected async onShutdown(): Promise<void> {}
    }
    const reader = new Reader();
    const provider = new MeterProvider({ readers: [reader] });
    const m = new Metrics('app');
    m.meter('producer-metrics', 'record-send').record(5);
    m.gauges('consumer-fetch-manager-metrics', 'records-lag', () => [{ tags: { topic: 't', partition: '0' }, value: 9 }]);
    observeWithOpenTelemetry(source(m), provider.getMeter('kafka-wire-test'));
    const { resourceMetrics }: CollectionResult = await reader.collect();
    const points = new Map<string, { attributes: Record<string, unknown>; value: unknown }[]>();
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) points.set(metric.descriptor.name, metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })));
    }
    expect(points.get('kafka.producer.record-send-total')).toEqual([{ attributes: { 'client-id': 'app' }, value: 5 }]);
    expect(points.get('kafka.consumer-fetch-manager.records-lag')).toEqual([{ attributes: { 'client-id': 'app', topic: 't', partition: '0' }, value: 9 }]);
    await provider.shutdown();
  });
});

describe('the producer\'s metrics', () => {
  it('count what was sent: records, requests, batch sizes and latency, buffer room back to whole after close', async () => {
    const { startMemoryBroker } = await import('../../src/wire/memory-broker.js');
    const { Producer } = await import('../../src/producer/index.js');
    const broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { counted: 3 } });
    const producer = new Producer({ bootstrap: broker.bootstrap, clientId: 'counter', lingerMs: 0, bufferBytes: 1 << 20 });
    let records = 0;
    try {
      for (let i = 0; i < 25; i++) {
        const batch = Array.from({ length: i + 1 }, (_, j) => ({ key: `k${j}`, value: `value ${i}/${j}` }));
        records += batch.length;
        await producer.send('counted', batch);
      }
      await producer.flush();
    } finally {
      await producer.close();
      await broker.close();
    }
    const values = producer.metrics();
    const by = metricsByName(values);
    expect(values.every((v) => v.group === 'producer-metrics' && v.tags['client-id'] === 'counter')).toBe(true);
    expect(by['record-send-total']).toBe(records);
    expect(by['record-send-total']).toBe(producer.stats.recordsAcked);
    expect(by['request-total']).toBe(producer.stats.requests);
    expect(by['outgoing-byte-total']).toBe(producer.stats.bytesAcked);
    expect(by['record-error-total']).toBe(0);
    expect(by['batch-size-max']).toBeGreaterThanOrEqual(by['batch-size-avg']!);
    expect(by['request-latency-avg']).toBeGreaterThanOrEqual(0);
    expect(by['requests-in-flight']).toBe(0);
    expect(by['buffer-total-bytes']).toBe(1 << 20);
    expect(by['buffer-available-bytes']).toBe(1 << 20);
    expect(producer.metricNames().map((n) => n.name)).toEqual(expect.arrayContaining(['record-send-rate', 'request-latency-max', 'buffer-available-bytes']));
  });
});
