// The perf histogram against exact sorted lists (Kafka's rule: the value at index floor(q * n)),
// its bucket error bound, fixed memory, merging, and the throttle's schedule on a fake clock.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Histogram, HISTOGRAM_MAX_VALUE } from '../../src/perf/histogram.js';
import { Throttle } from '../../src/perf/throttle.js';
import { Timeline } from '../../src/perf/stats.js';

const exact = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

describe('Histogram', () => {
  it('is exact below 256 and within 1/128 above, at every quantile Kafka prints', () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: HISTOGRAM_MAX_VALUE })), { minLength: 1, maxLength: 400 }),
      (values) => {
        const h = new Histogram();
        for (const v of values) h.record(v);
        expect(h.count).toBe(values.length);
        expect(h.max).toBe(Math.max(...values));
        expect(h.min).toBe(Math.min(...values));
        for (const q of [0, 0.5, 0.95, 0.99, 0.999, 1]) {
          const want = exact(values, q);
          const got = h.quantile(q);
          if (want < 256) expect(got).toBe(want);
          else expect(Math.abs(got - want) / want).toBeLessThanOrEqual(1 / 128);
        }
      }), { numRuns: 200 });
  });

  it('weights a value by its count, as perf weights a batch latency by its records', () => {
    const a = new Histogram();
    a.record(5000, 90);
    a.record(20_000, 10);
    expect(a.count).toBe(100);
    expect(a.quantile(0.5)).toBeCloseTo(5000, -2);
    expect(a.quantile(0.95)).toBeCloseTo(20_000, -3);
    expect(a.mean).toBeCloseTo(6500, 5);
  });

  it('holds a billion values in the same memory as one, and merges', () => {
    const h = new Histogram();
    for (let i = 0; i < 1000; i++) h.record(1000 + i * 37, 1_000_000);
    expect(h.count).toBe(1e9);
    expect(h.buckets().length).toBeLessThanOrEqual(4480);
    const other = new Histogram();
    other.record(3, 2);
    h.add(other);
    expect(h.count).toBe(1e9 + 2);
    expect(h.min).toBe(3);
    expect(h.quantile(0)).toBe(3);
    h.reset();
    expect([h.count, h.max, h.min, h.quantile(0.5)]).toEqual([0, 0, 0, 0]);
  });

  it('clamps what is out of range instead of failing', () => {
    const h = new Histogram();
    h.record(-5);
    h.record(Number.MAX_SAFE_INTEGER);
    h.record(NaN);
    expect(h.count).toBe(3);
    expect(h.max).toBe(HISTOGRAM_MAX_VALUE);
    expect(h.quantile(0)).toBe(0);
  });
});

describe('Throttle', () => {
  it('schedules record i at start + i / rate, whatever came before', () => {
    let now = 1000;
    const t = new Throttle(1000, () => now); // one record per ms
    expect(t.limited).toBe(true);
    expect(t.delayFor(0)).toBe(0);
    expect(t.delayFor(2)).toBe(0); // within the slack
    expect(t.delayFor(10)).toBeCloseTo(10, 9);
    now += 50; // a stall: the sender is behind, no waiting until it has caught up
    expect(t.delayFor(40)).toBe(0);
    expect(t.delayFor(60)).toBeCloseTo(10, 9);
    expect(new Throttle(-1).limited).toBe(false);
    expect(new Throttle(-1).delayFor(1e9)).toBe(0);
  });

  it('holds a real sender to its rate over half a second (not early, late by a timer at most)', async () => {
    const t = new Throttle(4000);
    const start = performance.now();
    for (let i = 0; i < 2000; i++) await t.wait(i);
    const elapsed = performance.now() - start;
    // 2000 records at 4000/s: the last is due at 500 ms.
    expect(elapsed).toBeGreaterThanOrEqual(497);
    expect(elapsed).toBeLessThan(500 * 1.03 + 80); // the last timer may fire late on a loaded machine
  });
});

describe('Timeline', () => {
  it('halves its resolution when full, keeping every record', () => {
    const t = new Timeline(1000);
    for (let s = 0; s < 5000; s++) t.add(s * 1000 + 10, 3, 30, s % 7, 3);
    expect(t.points.length).toBeLessThanOrEqual(2048);
    expect(t.widthMs).toBe(4000);
    expect(t.points.reduce((n, p) => n + p.records, 0)).toBe(15_000);
    expect(Math.max(...t.points.map((p) => p.latencyMaxMs))).toBe(6);
  });
});

describe('the Kafka perf-test lines', () => {
  it('are ProducerPerformance\'s and ConsumerPerformance\'s, to the character', async () => {
    const { ProduceStats, ConsumeStats, produceProgressLine, produceSummaryLine, consumeSummaryLine, kafkaDate } = await import('../../src/perf/stats.js');
    let now = 0;
    const p = new ProduceStats(() => now);
    p.acked(1000, 100_000, 4);
    p.acked(1000, 100_000, 10);
    now = 2000;
    expect(produceProgressLine(p.window())).toBe('2000 records sent, 1000.0 records/sec (0.10 MB/sec), 7.0 ms avg latency, 10.0 ms max latency.');
    p.acked(2000, 200_000, 6);
    now = 4000;
    expect(produceSummaryLine(p.summary())).toBe('4000 records sent, 1000.000000 records/sec (0.10 MB/sec), 6.50 ms avg latency, 10.00 ms max latency, 6 ms 50th, 10 ms 95th, 10 ms 99th, 10 ms 99.9th.');
    now = 0;
    const c = new ConsumeStats(() => now);
    c.rebalanced(500);
    c.read(3000, 3 * 1048576);
    now = 1500;
    const start = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();
    expect(kafkaDate(start)).toBe('2026-01-02 03:04:05:006');
    expect(consumeSummaryLine(c.summary(), kafkaDate(start), kafkaDate(start + 1500)))
      .toBe('2026-01-02 03:04:05:006, 2026-01-02 03:04:06:506, 3.0000, 2.0000, 3000, 2000.0000, 500, 1000, 3.0000, 3000.0000');
  });
});
