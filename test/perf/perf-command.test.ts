// kafka-wire perf against the memory broker: Kafka's perf-test lines, counts that match what the
// broker stored, --throughput held, --json, the progress bar on a terminal only, usage errors,
// and latency percentiles against a proxy that holds every Produce answer for a known time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { perf, PRODUCE_FINAL, PRODUCE_PROGRESS, CONSUME_FINAL } from './run-perf.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { startDelayProxy } from '../helpers/delay-proxy.js';
import { renderReport } from '../../src/perf/report.js';

function stored(b: MemoryBroker, topic: string): { records: number; valueBytes: number; values: Set<string> } {
  let records = 0;
  let valueBytes = 0;
  const values = new Set<string>();
  for (const p of b.topics.get(topic)!.partitions) {
    for (const sb of p.batches) {
      for (const batch of decodeRecordBatches(sb.bytes).batches) {
        for (const r of batch.records) {
          records++;
          valueBytes += r.value?.length ?? 0;
          if (values.size < 1000) values.add(Buffer.from(r.value!).toString('latin1'));
        }
      }
    }
  }
  return { records, valueBytes, values };
}

let broker: MemoryBroker;
let dir: string;
beforeAll(async () => {
  broker = await startMemoryBroker({ topics: { p1: 4, p2: 3, p3: 1, p4: 2, p5: 1, delayed: 1, file: 1 } });
  dir = mkdtempSync(join(tmpdir(), 'kw-perf-'));
});
afterAll(async () => {
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('kafka-wire perf produce', () => {
  it('sends N records of B random letters and prints ProducerPerformance\'s final line and its own figures', async () => {
    const { code, stdout } = await perf(['produce', '-b', broker.bootstrap, '-t', 'p1', '--records', '30000', '--record-size', '100']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const final = PRODUCE_FINAL.exec(lines[lines.length - 2]!);
    expect(final, lines.join('\n')).not.toBeNull();
    expect(Number(final![1])).toBe(30000);
    const [p50, p95, p99, p999] = final!.slice(6, 10).map(Number);
    expect(p50).toBeLessThanOrEqual(p95!);
    expect(p95).toBeLessThanOrEqual(p99!);
    expect(p99).toBeLessThanOrEqual(p999!);
    expect(p999).toBeLessThanOrEqual(Number(final![5]) + 1);
    expect(lines[lines.length - 1]).toMatch(/^producer: \d+ batches \(\d+\.\d records, \d+ bytes on average\), \d+ requests \(at most [1-5] in flight\), compression ratio 0\.\d\d \(payload \/ batch bytes, none\), 0 retries\.$/);
    const s = stored(broker, 'p1');
    expect(s.records).toBe(30000);
    expect(s.valueBytes).toBe(3_000_000);
    for (const v of s.values) expect(v).toMatch(/^[A-Z]{100}$/);
    expect(s.values.size).toBeGreaterThan(100); // not one payload over and over
  });

  it('holds --throughput, printing a progress line each interval', async () => {
    const started = performance.now();
    const { code, stdout } = await perf(['produce', '-b', broker.bootstrap, '-t', 'p2', '--records', '6000', '--record-size', '50',
      '--throughput', '4000', '--reporting-interval', '400', '-X', 'linger.ms=1']);
    const seconds = (performance.now() - started) / 1000;
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const progress = lines.slice(0, -2);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const l of progress) expect(l).toMatch(PRODUCE_PROGRESS);
    const final = PRODUCE_FINAL.exec(lines[lines.length - 2]!)!;
    const rate = Number(final[2]);
    // 6000 records at 4000/s: 1.5 s. Never faster than asked; slower only by the last acks.
    expect(rate).toBeLessThanOrEqual(4000 * 1.01);
    expect(rate).toBeGreaterThan(4000 * 0.85);
    expect(seconds).toBeGreaterThanOrEqual(1.49);
    expect(stored(broker, 'p2').records).toBe(6000);
  });

  it('--json prints progress objects and one summary with the producer\'s figures', async () => {
    const { code, stdout } = await perf(['produce', '-b', broker.bootstrap, '-t', 'p3', '--records', '3000', '--record-size', '10',
      '--throughput', '5000', '--reporting-interval', '200', '--json', '--acks', '1', '-z', 'lz4']);
    expect(code).toBe(0);
    const objects = stdout.trim().split('\n').map((l) => JSON.parse(l));
    const summary = objects.pop();
    expect(objects.length).toBeGreaterThanOrEqual(1);
    for (const o of objects) expect(o).toMatchObject({ type: 'progress', records: expect.any(Number), recordsPerSec: expect.any(Number), maxLatencyMs: expect.any(Number) });
    expect(summary).toMatchObject({ type: 'summary', records: 3000, bytes: 30000, producer: { retries: 0 } });
    expect(summary.p50Ms).toBeLessThanOrEqual(summary.p99Ms);
    expect(summary.producer.batches).toBe(summary.batches);
    expect(summary.producer.maxRequestsInFlight).toBeGreaterThanOrEqual(1);
    expect(stored(broker, 'p3').records).toBe(3000);
  });

  it('takes values from --payload-file at random', async () => {
    const file = join(dir, 'payloads.txt');
    writeFileSync(file, 'alpha\nbeta\n\ngamma-delta\n');
    const { code } = await perf(['produce', '-b', broker.bootstrap, '-t', 'file', '--records', '500', '--payload-file', file]);
    expect(code).toBe(0);
    const s = stored(broker, 'file');
    expect(s.records).toBe(500);
    expect([...s.values].sort()).toEqual(['alpha', 'beta', 'gamma-delta']);
  });

  it('draws a progress bar only on a terminal', async () => {
    const tty = await perf(['produce', '-b', broker.bootstrap, '-t', 'p4', '--records', '2000', '--record-size', '10', '--throughput', '4000', '--progress'], true);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/\r\x1b\[2K\[[#.]{30}\] +\d+\.\d% [\d,]+\/2,000 records, [\d,]+ records\/s/);
    const pipe = await perf(['produce', '-b', broker.bootstrap, '-t', 'p4', '--records', '500', '--record-size', '10', '--throughput', '4000', '--progress']);
    expect(pipe.code).toBe(0);
    expect(pipe.stderr).toBe('');
  });

  it('refuses bad arguments with exit 2 before connecting', async () => {
    const cases: [string[], RegExp][] = [
      [['produce', '-b', '127.0.0.1:1', '-t', 'x', '--record-size', '10'], /--records N is required/],
      [['produce', '-b', '127.0.0.1:1', '-t', 'x', '--records', '10'], /exactly one of --record-size B and --payload-file F/],
      [['produce', '-b', '127.0.0.1:1', '-t', 'x', '--records', '10', '--record-size', '10', '--throughput', '0'], /--throughput must be/],
      [['produce', '-b', '127.0.0.1:1', '-t', 'x', '--records', '0', '--record-size', '10'], /--records must be an integer from 1/],
      [['produce', '-b', '127.0.0.1:1', '-t', 'x', '--records', '1', '--num-records', '2', '--record-size', '10'], /give one of --records, --num-records/],
      [['consume', '-b', '127.0.0.1:1', '-t', 'x', '--from-latest'], /--from-latest needs --records/],
      [['bench', '-b', '127.0.0.1:1'], /perf needs produce or consume, not "bench"/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await perf(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(message);
    }
  });
});

describe('kafka-wire perf consume', () => {
  it('reads what the topic holds and prints ConsumerPerformance\'s header and final line', async () => {
    await perf(['produce', '-b', broker.bootstrap, '-t', 'p5', '--records', '12345', '--record-size', '100']);
    const { code, stdout } = await perf(['consume', '-b', broker.bootstrap, '-t', 'p5']);
    expect(code).toBe(0);
    const [header, line] = stdout.trim().split('\n');
    expect(header).toBe('start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec');
    const m = CONSUME_FINAL.exec(line!);
    expect(m, line).not.toBeNull();
    expect(Number(m![2])).toBe(12345);
    expect(m![1]).toBe((1234500 / 1048576).toFixed(4));
    expect(Number(m![3])).toBe(0); // no group: no rebalance
  });

  it('stops at --records exactly, and --json says so', async () => {
    const { code, stdout } = await perf(['consume', '-b', broker.bootstrap, '-t', 'p5', '--records', '1000', '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(summary).toMatchObject({ type: 'summary', records: 1000, bytes: 100000, expected: 1000, timedOut: false });
  });

  it('--show-detailed-stats prints ConsumerPerformance\'s detailed header and interval lines', async () => {
    // An idle wait at the end (more records asked than there are) leaves time for interval lines.
    const { stdout } = await perf(['consume', '-b', broker.bootstrap, '-t', 'p5', '--records', '20000', '--idle-timeout', '700',
      '--show-detailed-stats', '--reporting-interval', '200']);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec');
    const detail = lines.slice(1).filter((l) => !l.startsWith('WARNING'));
    expect(detail.length).toBeGreaterThanOrEqual(2);
    for (const l of detail) expect(l).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, 0, \d+\.\d{4}, \d+\.\d{4}, \d+, \d+\.\d{4}, \d+, \d+, \d+\.\d{4}, \d+\.\d{4}$/);
    expect(detail.at(-1)).toMatch(/, 0, 1\.1773, [\d.]+, 12345, /); // 12345 records of 100 B
  });

  it('gives up after --idle-timeout with Kafka\'s warning and exit 1', async () => {
    const { code, stdout } = await perf(['consume', '-b', broker.bootstrap, '-t', 'p5', '--records', '20000', '--idle-timeout', '500']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/WARNING: Exiting before consuming the expected number of messages: timeout \(500 ms\) exceeded/);
    expect(Number(CONSUME_FINAL.exec(stdout.trim().split('\n').pop()!)![2])).toBe(12345);
  });
});

describe('latency against a known delay', () => {
  it('puts p50 within a few ms of a proxy\'s 40 ms hold on every Produce answer', async () => {
    const proxy = await startDelayProxy({ host: broker.host, port: broker.port }, 40);
    try {
      const { code, stdout } = await perf(['produce', '-b', proxy.bootstrap, '-t', 'delayed', '--records', '1000', '--record-size', '100',
        // A batch each 20 ms: two in flight during a 40 ms hold, well under the 5 allowed, so no
        // batch waits for a free slot and the hold is all there is to measure.
        '--throughput', '500', '-X', 'linger.ms=20', '--json']);
      expect(code).toBe(0);
      const summary = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(summary.records).toBe(1000);
      expect(summary.p50Ms).toBeGreaterThanOrEqual(40);
      expect(summary.p50Ms).toBeLessThanOrEqual(46);
      expect(summary.maxLatencyMs).toBeGreaterThanOrEqual(40);
    } finally {
      await proxy.close();
    }
  });
});

describe('--report', () => {
  it('writes one self-contained page with four plots and the Kafka lines', async () => {
    const file = join(dir, 'report.html');
    const { code, stdout } = await perf(['produce', '-b', broker.bootstrap, '-t', 'p4', '--records', '4000', '--record-size', '100',
      '--throughput', '8000', '--report', file]);
    expect(code).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html.match(/<svg /g)?.length).toBe(4);
    expect(html).not.toMatch(/<script|<link|src=|url\(|https?:\/\//);
    expect(html).toContain(stdout.split('\n').find((l) => PRODUCE_FINAL.test(l))!);
  });

  /** The first chart's x tick labels and its plotted path's points (SVG coordinates). */
  const firstChart = (html: string) => {
    const svg = /<svg [^]*?<\/svg>/.exec(html)![0];
    const ticks = [...svg.matchAll(/<text x="[\d.]+" y="\d+" text-anchor="middle">([^<]*)<\/text>/g)].map((m) => m[1]!);
    const d = /<path d="(M[^"]+)" fill="none"/.exec(svg)?.[1] ?? '';
    const points = [...d.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    return { ticks, points };
  };

  it('perf consume --report of a sub-second run draws its throughput with distinct x ticks', async () => {
    const file = join(dir, 'consume-report.html');
    await perf(['produce', '-b', broker.bootstrap, '-t', 'p3', '--records', '2000', '--record-size', '50', '--throughput', '-1']);
    const { code } = await perf(['consume', '-b', broker.bootstrap, '-t', 'p3', '--records', '2000', '--report', file]);
    expect(code).toBe(0);
    const { ticks, points } = firstChart(readFileSync(file, 'utf8'));
    expect(points.length).toBeGreaterThanOrEqual(2); // a line, not one point that draws nothing
    expect(new Set(points.map(([x]) => x)).size).toBeGreaterThan(1);
    expect(ticks.length).toBeGreaterThan(1);
    expect(new Set(ticks).size, ticks.join(" ")).toBe(ticks.length); // not "0.5" eight times
  });

  it('plots a partial last second at its rate, not as a fall', () => {
    const point = (atMs: number, records: number) => ({ atMs, spanMs: 1000, records, bytes: records * 100, latencySumMs: records, latencyMaxMs: 1 });
    // 1,000 records/s throughout; the run ended 200 ms into its second second.
    const html = renderReport({ kind: 'consume', title: 't', topic: 't', settings: '', summaryLines: [], histogram: null, figures: [],
      timeline: [point(0, 1000), point(1000, 200)], elapsedMs: 1200 });
    const { points } = firstChart(html);
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(new Set(points.map(([, y]) => y.toFixed(1))).size).toBe(1);
  });
});
