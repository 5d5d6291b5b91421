// Real captures (tcpdump on lo of kcat against the memory broker and librdkafka's mock cluster,
// and of kafkajs against the memory broker; remade by make-fixtures.mjs) read by `kafka-wire
// pcap`, checked against tshark's Kafka dissector (which frames, keys, versions, correlation
// ids, request/response pairs, sizes, client ids) and against `kafka-wire decode` of the same bytes.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  readCapture, LINKTYPE_ETHERNET, LINKTYPE_IPV4, LINKTYPE_IPV6, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_LOOP, LINKTYPE_NULL, LINKTYPE_RAW,
  type CaptureFrame,
} from '../../src/capture/index.js';
import type { CaptureFileOptions } from '../../src/capture/writer.js';
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

// Every file format, byte order, timestamp resolution and link type the reader takes, each read by
// tshark as well: the same Kafka PDUs (packets, keys, versions, correlation ids, sizes) and the same
// packet times to the file's resolution. The files come from the project's writer; tshark is the
// independent reader of each. The layouts go with Ethernet, the link types with one layout each
// (they are independent of one another in both readers).
describe('every capture layout the reader takes, against tshark', () => {
  const layouts: CaptureFileOptions[] = [];
  for (const format of ['pcap', 'pcapng'] as const) {
    for (const bigEndian of [false, true]) for (const nanoseconds of [false, true]) layouts.push({ format, bigEndian, nanoseconds, linkType: LINKTYPE_ETHERNET });
  }
  const LINK_TYPES: [string, number][] = [
    ['BSD loopback (NULL)', LINKTYPE_NULL], ['OpenBSD loopback (LOOP)', LINKTYPE_LOOP], ['raw IP', LINKTYPE_RAW], ['raw IPv4', LINKTYPE_IPV4],
    ['raw IPv6', LINKTYPE_IPV6], ['Linux cooked (SLL)', LINKTYPE_LINUX_SLL], ['Linux cooked v2 (SLL2)', LINKTYPE_LINUX_SLL2],
  ];
  const cases: [string, CaptureFileOptions, boolean][] = [
    ...layouts.map((l): [string, CaptureFileOptions, boolean] => [`Ethernet, ${l.format}, ${l.bigEndian ? 'big' : 'little'}-endian, ${l.nanoseconds ? 'ns' : 'µs'}`, l, false]),
    ['Ethernet over IPv6, pcapng', { format: 'pcapng', linkType: LINKTYPE_ETHERNET }, true],
    ...LINK_TYPES.map(([name, linkType], i): [string, CaptureFileOptions, boolean] =>
      [`${name}, ${i % 2 ? 'pcapng' : 'pcap'}`, { format: i % 2 ? 'pcapng' : 'pcap', linkType, bigEndian: i % 3 === 0, nanoseconds: i % 2 === 0 }, linkType === LINKTYPE_IPV6]),
  ];
  const v6 = { client: { ip: '::1', port: 50123 }, server: { ip: '::1', port: 9092 } };

  for (const [what, layout, ipv6] of cases) {
    it.skipIf(!tsharkInfo().ok)(what, () => {
      const { segments } = conversationSegments(sampleExchanges(), { maxSegment: 301, ...(ipv6 ? v6 : {}) });
      const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-layouts-'));
      try {
        const bytes = captureOf(segments, layout);
        const file = join(dir, `c.${layout.format}`);
        writeFileSync(file, bytes);
        const frames = framesOf(bytes);
        expect(frames.length).toBeGreaterThanOrEqual(6);
        // One tshark run: each Kafka PDU's packet, time, key, correlation id and size.
        const rows = execFileSync('tshark', ['-n', '-r', file, '-d', 'tcp.port==9092,kafka', '-Y', 'kafka', '-T', 'fields',
          '-E', 'separator=|', '-E', 'occurrence=f', '-e', 'frame.number', '-e', 'frame.time_epoch', '-e', 'kafka.api_key',
          '-e', 'kafka.correlation_id', '-e', 'kafka.len'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
          .trim().split('\n').map((l) => l.split('|'));
        const digits = layout.nanoseconds ? 9 : 6;
        const time = (ns: bigint) => `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, '0').slice(0, digits)}`;
        const tsharkTime = (t: string) => t.slice(0, t.indexOf('.') + 1 + digits);
        // tshark 4.0 pairs the Produce v9 response without naming its API: compare keys where it names one.
        expect(frames.map((f, i) => [String(f.packet), time(f.timeNs), rows[i]?.[2] === '' ? '' : String(f.apiKey), String(f.correlationId), String(f.bytes.length - 4)]))
          .toEqual(rows.map((r) => [r[0], tsharkTime(r[1]!), r[2], r[3], r[4]]));
        expect(rows.filter((r) => r[2] !== '').length).toBeGreaterThanOrEqual(rows.length - 1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
