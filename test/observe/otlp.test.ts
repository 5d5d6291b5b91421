// The KIP-714 pieces that need no broker: the Java client's telemetry names, the subscription's
// selection rules (none, all, by prefix), and OTLP bytes that keep only the selected metrics and
// report a sum as a delta since the last push when asked. (The bytes' meaning is checked by
// Kafka's own OTLP classes in telemetry-kafka.test.ts.)
import { describe, expect, it } from 'vitest';
import { encodeOtlpMetrics, telemetryName } from '../../src/observe/otlp.js';
import { metricSelector } from '../../src/wire/telemetry.js';
import type { MetricValue } from '../../src/observe/metrics.js';

const v = (group: string, name: string, value: number, tags: Record<string, string> = { 'client-id': 'c' }): MetricValue => ({ group, name, value, tags });

describe('KIP-714 encoding', () => {
  it('names metrics as the Java client pushes them', () => {
    expect(telemetryName('producer-metrics', 'record-send-rate')).toBe('org.apache.kafka.producer.record.send.rate');
    expect(telemetryName('consumer-fetch-manager-metrics', 'records-lag')).toBe('org.apache.kafka.consumer.fetch.manager.records.lag');
    expect(telemetryName('consumer-coordinator-metrics', 'commit-latency-avg')).toBe('org.apache.kafka.consumer.coordinator.commit.latency.avg');
  });

  it('selects as Java: no names none, "" or "*" all, else by prefix', () => {
    expect(metricSelector([])).toBeNull();
    expect(metricSelector(['*'])!('anything')).toBe(true);
    expect(metricSelector([''])!('anything')).toBe(true);
    const some = metricSelector(['org.apache.kafka.producer.record'])!;
    expect([some('org.apache.kafka.producer.record.send.rate'), some('org.apache.kafka.producer.request.rate')]).toEqual([true, false]);
  });

  it('keeps the selected, finite metrics, and gives a sum\'s delta since the last push', () => {
    const previous = new Map<string, { value: number; atMs: number }>();
    const select = (n: string) => n.startsWith('org.apache.kafka.producer.record.send');
    const first = encodeOtlpMetrics([v('producer-metrics', 'record-send-total', 5), v('producer-metrics', 'record-send-rate', 0.1), v('producer-metrics', 'request-latency-avg', 3), v('producer-metrics', 'record-queue-time-avg', NaN)],
      { nowMs: 2000, startMs: 1000, select, previous });
    expect(first.names).toEqual(['org.apache.kafka.producer.record.send.total', 'org.apache.kafka.producer.record.send.rate']);
    expect(first.bytes[0]).toBe(0x0a); // MetricsData.resource_metrics, length-delimited
    expect(previous.size).toBe(1);
    expect([...previous.values()]).toEqual([{ value: 5, atMs: 2000 }]);
    const second = encodeOtlpMetrics([v('producer-metrics', 'record-send-total', 8)], { nowMs: 3000, startMs: 1000, select, previous });
    // The delta (3) as a little-endian double follows the fixed64 times.
    const three = new Uint8Array(new Float64Array([3]).buffer);
    const at = Buffer.from(second.bytes).indexOf(Buffer.from([0x21, ...three]));
    expect(at).toBeGreaterThan(0);
    expect([...previous.values()]).toEqual([{ value: 8, atMs: 3000 }]);
  });
});
