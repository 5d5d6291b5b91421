// `kafka-wire pcap`: the line format, the filters, --records and --explain, the notes and
// summary on stderr, stdin, exit codes for bad usage and damaged files, and --schemas DIR's
// catalogue (an API the package does not know, read from a capture).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOf, conversationSegments, runCommand, sampleExchanges } from './helpers.js';
import { encodeRequest, encodeResponse } from '../../src/codec/by-key.js';
import { loadCatalogue } from '../../src/catalogue/node.js';
import { captureFrameToJson, readCapture, type CaptureFrame } from '../../src/capture/index.js';
import { toHex } from '../../src/text.js';
import { GIZMO, gizmoV1Body, gizmoV1Header, gizmoV1Response } from '../catalogue/golden.js';

const fixture = join(import.meta.dirname, 'fixtures', 'kcat-memory-broker.pcap');
const schemasFixture = join(import.meta.dirname, '..', 'fixtures', 'schemas');

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

describe('kafka-wire pcap --schemas DIR', () => {
  // ApiVersions, then a request and response of the made-up Gizmo API (key 1000), which only
  // the fixture directory's catalogue has.
  const catalogue = loadCatalogue(schemasFixture);
  const gizmo = {
    request: encodeRequest(gizmoV1Header, gizmoV1Body, { catalogue }),
    response: encodeResponse(GIZMO, 1, { correlationId: gizmoV1Header.correlationId }, gizmoV1Response, { catalogue }),
  };
  const bytes = captureOf(conversationSegments([sampleExchanges()[0], gizmo], { maxSegment: 40 }).segments);
  const frames = (options?: { catalogue: typeof catalogue }) =>
    [...readCapture(bytes, options)].filter((e): e is CaptureFrame => e.type === 'frame' && e.apiKey === GIZMO);

  it('decodes the frames of an API only DIR has, as decode --schemas prints them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-pcap-'));
    try {
      const file = join(dir, 'gizmo.pcap');
      writeFileSync(file, bytes);
      const withSchemas = await pcap([file, '--schemas', schemasFixture]);
      expect(withSchemas.code).toBe(0);
      const lines = withSchemas.lines.filter((l) => l.apiKey === GIZMO);
      expect(lines.map((l) => [l.direction, l.apiVersion, l.correlationId, l.ok])).toEqual([['request', 1, 7, true], ['response', 1, 7, true]]);
      const input = [gizmo.request, gizmo.response].map((frame, i) => JSON.stringify(
        { direction: i === 0 ? 'request' : 'response', hex: toHex(frame), apiKey: GIZMO, apiVersion: 1 })).join('\n');
      const decoded = await runCommand(main, ['decode', '--jsonl', '--schemas', schemasFixture], input);
      expect(lines.map((l) => l.frame)).toEqual(decoded.lines.map((l) => l.frame));
      expect(lines[0].frame.body.side).toEqual({ level: 5 });
      expect(withSchemas.stderr).toMatch(/frames \(ApiVersions 2, Gizmo 2\), 0 decode errors/);
      expect((await pcap([file, '--schemas', schemasFixture, '--api-key', 'gizmo'])).lines).toEqual(lines);

      // The built-in catalogue alone does not know the API: the frames are there but do not decode.
      const without = await pcap([file]);
      expect(without.lines.filter((l) => l.apiKey === GIZMO).map((l) => [l.direction, l.ok])).toEqual([['request', false], ['response', false]]);
      expect(without.stderr).toMatch(/key 1000 2\), 2 decode errors/);
      expect((await pcap([file, '--api-key', 'gizmo'])).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the library reads and prints them with { catalogue } too', () => {
    const read = frames({ catalogue });
    expect(read.map((f) => captureFrameToJson(f, { catalogue }).ok)).toEqual([true, true]);
    expect(read.map((f) => captureFrameToJson(f).ok)).toEqual([false, false]);
    expect(frames().map((f) => captureFrameToJson(f, { catalogue }).ok)).toEqual([true, true]);
  });

  it('tells a connection without its SYN, on an unknown port, is Kafka by an API only the catalogue has', () => {
    const server = { ip: '10.0.0.2', port: 31000 };
    const noSyn = captureOf(conversationSegments([gizmo, sampleExchanges()[0]], { server }).segments.slice(3));
    const read = (options?: { catalogue: typeof catalogue }) => [...readCapture(noSyn, options)]
      .filter((e): e is CaptureFrame => e.type === 'frame').map((e) => `${e.direction} ${e.apiKey} ${e.conn}`);
    expect(read({ catalogue })).toEqual([
      'request 1000 127.0.0.1:50123->10.0.0.2:31000', 'response 1000 127.0.0.1:50123->10.0.0.2:31000',
      'request 18 127.0.0.1:50123->10.0.0.2:31000', 'response 18 127.0.0.1:50123->10.0.0.2:31000',
    ]);
    // Without it, nothing in the connection reads as Kafka.
    expect(read()).toEqual([]);
  });
});
