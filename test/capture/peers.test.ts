// Real captures (tcpdump on lo of kcat against the memory broker and librdkafka's mock cluster,
// and of kafkajs against the memory broker; remade by make-fixtures.mjs) read by `kafka-wire
// pcap`, checked against tshark's Kafka dissector (which frames, keys, versions, correlation
// ids, request/response pairs, sizes, client ids) and against `kafka-wire decode` of the same bytes.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readCapture, type CaptureFrame } from '../../src/capture/index.js';
import { toHex } from '../../src/text.js';
import { tsharkInfo } from '../peers/tshark.js';
import { asTsharkPdus, captureOf, conversationSegments, runCommand, sampleExchanges, tsharkPdus } from './helpers.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const FIXTURES = ['kcat-memory-broker.pcap', 'kcat-mock-cluster.pcap', 'kafkajs-memory-broker.pcap'];

function framesOf(bytes: Uint8Array): CaptureFrame[] {
  return [...readCapture(bytes)].filter((e): e is CaptureFrame => e.type === 'frame');
}

describe('real captures', () => {
  for (const name of FIXTURES) {
    const file = join(fixtures, name);
    const bytes = new Uint8Array(readFileSync(file));

    it(`${name}: every frame pairs, and pcap prints each as decode does`, async () => {
      const frames = framesOf(bytes);
      expect(frames.length).toBeGreaterThanOrEqual(6);
      expect(frames.filter((f) => f.unpaired)).toEqual([]);
      const pcap = await runCommand(((args: string[], io: any) => main(['pcap', ...args], io)), [file]);
      expect(pcap.code).toBe(0);
      expect(pcap.stderr).toMatch(/0 gaps \(0 bytes lost\)/);
      const input = frames.map((f) => JSON.stringify({ direction: f.direction, hex: toHex(f.bytes), apiKey: f.apiKey, apiVersion: f.apiVersion })).join('\n');
      const decoded = await runCommand(main, ['decode', '--jsonl'], input);
      expect(pcap.lines.length).toBe(frames.length);
      pcap.lines.forEach((line, i) => {
        expect(line.ok).toBe(decoded.lines[i].ok);
        if (line.ok) expect(line.frame).toEqual(decoded.lines[i].frame);
        else expect(line.error).toEqual(decoded.lines[i].error);
      });
      // Only the mock cluster's answer to an ApiVersions version it lacks fails to decode.
      const failing = pcap.lines.filter((l) => !l.ok);
      for (const l of failing) expect([name, l.apiKey]).toEqual(['kcat-mock-cluster.pcap', 18]);
      expect(failing.length).toBeLessThanOrEqual(2);
    });

    it.skipIf(!tsharkInfo().ok)(`${name}: the same frames, keys, versions, pairs and sizes as tshark`, () => {
      const frames = framesOf(bytes);
      const port = Number(frames[0].conn.slice(frames[0].conn.lastIndexOf(':') + 1));
      const ours = asTsharkPdus(frames);
      expect(ours).toEqual(tsharkPdus(file, port));
    });
  }
});

describe('hand-made captures against tshark', () => {
  it.skipIf(!tsharkInfo().ok)('several segments per frame, on the default port', () => {
    const { segments } = conversationSegments(sampleExchanges(), { maxSegment: 201 });
    const bytes = captureOf(segments, { format: 'pcapng', nanoseconds: true });
    const dir = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
    const file = join(dir, 'capture.pcapng');
    try {
      execFileSync('sh', ['-c', `cat > ${file}`], { input: bytes });
      const frames = framesOf(bytes);
      const pdus = tsharkPdus(file, 9092);
      // tshark 4.0 pairs the Produce v9 response without naming its API: compare keys where it names one.
      expect(frames.map((f, i) => [String(f.packet), pdus[i]?.[1] === '' ? '' : String(f.apiKey), String(f.correlationId), String(f.bytes.length - 4)]))
        .toEqual(pdus.map((p) => [p[0], p[1], p[3], p[5]]));
      expect(pdus.filter((p) => p[1] !== '').length).toBeGreaterThanOrEqual(pdus.length - 1);
      // The writer's IP and TCP checksums, as tshark verifies them (1: good).
      const checks = execFileSync('tshark', ['-n', '-r', file, '-o', 'tcp.check_checksum:TRUE', '-o', 'ip.check_checksum:TRUE',
        '-T', 'fields', '-e', 'ip.checksum.status', '-e', 'tcp.checksum.status'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      expect(new Set(checks.trim().split('\n'))).toEqual(new Set(['1\t1']));
    } finally {
      execFileSync('rm', ['-rf', dir]);
    }
  });
});
