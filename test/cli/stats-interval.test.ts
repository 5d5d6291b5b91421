// --stats-interval MS on produce, consume and perf: the client's metrics snapshot as JSON lines on
// stderr, every MS and once at the end, with the Java clients' names; the last line's counters
// equal what the command sent or read. The timestamp is an int64 as a decimal string.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { runCli } from '../wire/cli-io.js';

interface StatsLine { type: 'stats'; timestampMs: string; clientId: string; metrics: { group: string; name: string; tags: Record<string, string>; value: number | null }[] }

/** The stats lines of a run's stderr (other lines, such as produce's summary, skipped). */
function statsLines(stderr: string): StatsLine[] {
  return stderr.split('\n').filter((l) => l.startsWith('{"type":"stats"')).map((l) => JSON.parse(l) as StatsLine);
}
const metric = (line: StatsLine, name: string) => line.metrics.find((m) => m.name === name)?.value;

function checkShape(lines: StatsLine[]): void {
  expect(lines.length).toBeGreaterThanOrEqual(1);
  for (const l of lines) {
    expect(l.timestampMs).toMatch(/^\d{13}$/);
    expect(Math.abs(Number(l.timestampMs) - Date.now())).toBeLessThan(120_000);
    for (const m of l.metrics) expect(m.value === null || Number.isFinite(m.value)).toBe(true);
  }
}

describe('--stats-interval', () => {
  let broker: MemoryBroker;
  beforeAll(async () => { broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { s: 1 } }); });
  afterAll(async () => { await broker?.close(); });

  it('produce: producer-metrics lines, the last with every record sent', async () => {
    const r = await runCli('produce', ['-b', broker.bootstrap, '-t', 's', '--stats-interval', '20', '--client-id', 'stats-app'], 'a\nb\nc\nd\ne\n');
    expect(r.code).toBe(0);
    const lines = statsLines(r.stderr);
    checkShape(lines);
    const last = lines.at(-1)!;
    expect(last.clientId).toBe('stats-app');
    expect(metric(last, 'record-send-total')).toBe(5);
    expect(metric(last, 'request-latency-avg')).toBeGreaterThan(0);
    expect(last.metrics.every((m) => m.group === 'producer-metrics' && m.tags['client-id'] === 'stats-app')).toBe(true);
  });

  it('consume -t: the records handed on and the connections, under the Java consumer\'s names', async () => {
    const r = await runCli('consume', ['-b', broker.bootstrap, '-t', 's', '-e', '--stats-interval', '20']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(5);
    const lines = statsLines(r.stderr);
    checkShape(lines);
    const last = lines.at(-1)!;
    expect(metric(last, 'records-consumed-total')).toBe(5);
    expect(metric(last, 'bytes-consumed-total')).toBe(5);
    expect(metric(last, 'request-total')).toBeGreaterThanOrEqual(3); // ApiVersions, Metadata, ListOffsets, Fetch
    expect(metric(last, 'connection-creation-total')).toBeGreaterThanOrEqual(1);
  });

  it('perf produce and perf consume: the producer\'s and the consumer\'s snapshots', async () => {
    const p = await runCli('perf', ['produce', '-b', broker.bootstrap, '-t', 's', '--records', '200', '--record-size', '10', '--stats-interval', '20', '--json']);
    expect(p.code).toBe(0);
    expect(metric(statsLines(p.stderr).at(-1)!, 'record-send-total')).toBe(200);
    const c = await runCli('perf', ['consume', '-b', broker.bootstrap, '-t', 's', '--stats-interval', '20', '--json']);
    expect(c.code).toBe(0);
    const last = statsLines(c.stderr).at(-1)!;
    checkShape([last]);
    expect(metric(last, 'records-consumed-total')).toBe(205);
    expect(metric(last, 'fetch-total')).toBeGreaterThanOrEqual(1);
    expect(last.metrics.find((m) => m.name === 'records-lag')).toMatchObject({ tags: { topic: 's', partition: '0' }, value: 0 });
  });

  it('takes -X enable.metrics.push (KIP-714 off), as the Java producer\'s setting', async () => {
    const r = await runCli('produce', ['-b', broker.bootstrap, '-t', 's2', '-X', 'enable.metrics.push=false', '--stats-interval', '1000'], 'x\n');
    expect(r.code).toBe(0);
    expect(metric(statsLines(r.stderr).at(-1)!, 'record-send-total')).toBe(1);
    expect((await runCli('produce', ['-b', broker.bootstrap, '-t', 's2', '-X', 'enable.metrics.push=maybe'], 'x\n')).code).toBe(2);
  });

  it('refuses a bad interval, and the share consumer (no metrics yet)', async () => {
    expect((await runCli('produce', ['-b', broker.bootstrap, '-t', 's', '--stats-interval', '0'], '')).code).toBe(2);
    expect((await runCli('consume', ['-b', broker.bootstrap, '--share', 'g', 's', '--stats-interval', '100'])).code).toBe(2);
  });
});
