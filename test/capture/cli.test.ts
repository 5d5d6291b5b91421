// `kafka-wire pcap`: the line format, the filters, --records and --explain, the notes and
// summary on stderr, stdin, and exit codes for bad usage and damaged files.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOf, conversationSegments, runCommand, sampleExchanges } from './helpers.js';

const fixture = join(import.meta.dirname, 'fixtures', 'kcat-memory-broker.pcap');

function pcap(args: string[], stdin: Uint8Array = new Uint8Array(0)) {
  return runCommand(((args: string[], io: any) => main(['pcap', ...args], io)), args, stdin);
}

describe('kafka-wire pcap', () => {
  it('prints one line per frame in the documented shape, and a summary', async () => {
    const { code, lines, stderr } = await pcap([fixture]);
    expect(code).toBe(0);
    const [request, response] = lines;
    expect(Object.keys(request)).toEqual(['time', 'conn', 'direction', 'apiKey', 'apiVersion', 'correlationId', 'packet', 'ok', 'frame']);
    expect(Object.keys(response)).toEqual(['time', 'conn', 'direction', 'apiKey', 'apiVersion', 'correlationId', 'latencyMs', 'packet', 'ok', 'frame']);
    expect(request.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(request.conn).toMatch(/^127\.0\.0\.1:\d+->127\.0\.0\.1:\d+$/);
    expect([request.direction, request.apiKey, request.correlationId]).toEqual(['request', 18, 1]);
    expect(request.frame.header.clientId).toBe('rdkafka');
    expect(response.latencyMs).toBeGreaterThan(0);
    expect(response.latencyMs).toBeCloseTo((Date.parse(response.time) - Date.parse(request.time)), -1);
    expect(stderr).toMatch(/^kafka-wire pcap: 1 file, \d+ packets, 3 Kafka connections \(0 skipped\), \d+ frames \(Produce 2, Fetch \d+, ListOffsets 2, Metadata \d+, ApiVersions 6\), 0 decode errors, 0 gaps/m);
  });

  it('filters by API key (number or name) and by connection', async () => {
    const all = (await pcap([fixture])).lines;
    const produce = await pcap([fixture, '--api-key', 'produce']);
    expect(produce.lines.length).toBe(2);
    expect(produce.lines.every((l) => l.apiKey === 0)).toBe(true);
    expect((await pcap([fixture, '--api-key', '0'])).lines).toEqual(produce.lines);
    const conn = all[all.length - 1].conn.split('->')[0];
    const one = await pcap([fixture, '--conn', conn]);
    expect(one.lines.length).toBeGreaterThan(0);
    expect(one.lines.length).toBeLessThan(all.length);
    expect(one.lines.every((l) => l.conn.startsWith(conn))).toBe(true);
  });

  it('--records decodes the batches; --explain adds each frame\'s annotated tree', async () => {
    const raw = (await pcap([fixture, '--api-key', 'Produce'])).lines[0];
    expect(typeof raw.frame.body.topicData[0].partitionData[0].records).toBe('string');
    const decoded = (await pcap([fixture, '--api-key', 'Produce', '--records'])).lines[0];
    const batch = decoded.frame.body.topicData[0].partitionData[0].records[0];
    expect(batch.compression).toBe('zstd');
    expect(batch.records.map((r: any) => Buffer.from(r.value, 'hex').toString())).toEqual(['one', 'two', 'three'].map((w) => `${w} `.repeat(40)));
    const explained = (await pcap([fixture, '--api-key', 'Metadata', '--explain', '--no-schemas'])).lines[0];
    expect(explained.explain.children.map((c: any) => [c.name, c.offset])).toEqual([['Frame', 0], ['RequestHeader', 4], ['MetadataRequest', 21]]);
    const last = explained.explain.children[2];
    expect(last.offset + last.size).toBe(explained.explain.size);
  });

  it('reads stdin as "-", and notes what it skipped on stderr', async () => {
    const { segments } = conversationSegments(sampleExchanges(), { maxSegment: 300 });
    const bytes = captureOf(segments.slice(6), { format: 'pcapng' });
    const { code, lines, stderr } = await pcap(['-'], bytes);
    expect(code).toBe(0);
    expect(lines.length).toBeGreaterThan(0);
    expect(stderr).toMatch(/note: - packet \d+ 127\.0\.0\.1:50123->127\.0\.0\.1:9092: the capture starts inside this connection/);
  });

  it('exit code 1 for a damaged file (after its frames), 2 for bad usage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-pcap-'));
    try {
      const bytes = captureOf(conversationSegments(sampleExchanges()).segments);
      const file = join(dir, 'cut.pcap');
      writeFileSync(file, bytes.subarray(0, bytes.length - 10));
      const cut = await pcap([file]);
      expect(cut.code).toBe(1);
      expect(cut.lines.length).toBe(6);
      expect(cut.stderr).toMatch(/cut\.pcap: TRUNCATED at offset \d+ in packet \d+/);
      const missing = await pcap([join(dir, 'missing.pcap')]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await pcap([])).code).toBe(2);
    expect((await pcap([fixture, '--bogus'])).code).toBe(2);
    expect((await pcap([fixture, '--port', 'x'])).code).toBe(2);
  });
});
