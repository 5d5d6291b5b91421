// Test helper: hand-made Kafka conversations as capture files, with the segments open to
// tampering (reorder, repeat, overlap, drop) before they are written; tshark's reading of a
// capture's Kafka PDUs, and ours in the same fields.
import { Readable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { encodeRequest, encodeResponse, newMessage } from '../../src/codec/by-key.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import {
  CaptureFileWriter, TcpConversation, encodePacket, readCapture,
  type CaptureEvent, type CaptureFileOptions, type CaptureFrame, type CaptureNote, type Endpoint, type Segment,
} from '../../src/capture/index.js';

export const CLIENT: Endpoint = { ip: '127.0.0.1', port: 50123 };
export const SERVER: Endpoint = { ip: '127.0.0.1', port: 9092 };

/** One request and its response, as whole frames. */
export interface Exchange { request: Uint8Array; response: Uint8Array }

function header(apiKey: number, apiVersion: number, correlationId: number) {
  return { requestApiKey: apiKey, requestApiVersion: apiVersion, correlationId, clientId: 'capture-test' };
}

/** A small, varied conversation: ApiVersions, Metadata, a Produce whose batch spans segments. */
export function sampleExchanges(): Exchange[] {
  const batch = encodeRecordBatch({
    baseOffset: 0n,
    baseTimestamp: 1_700_000_000_000n,
    records: Array.from({ length: 40 }, (_, i) => ({ key: null, value: `record number ${i} `.repeat(8) })),
  });
  return [
    {
      request: encodeRequest(header(18, 3, 1), { clientSoftwareName: 'kw', clientSoftwareVersion: '1' }),
      response: encodeResponse(18, 3, { correlationId: 1 }, { apiKeys: [{ apiKey: 3, minVersion: 0, maxVersion: 12 }] }),
    },
    {
      request: encodeRequest(header(3, 12, 2), newMessage(3, 'request', 12, { topics: [{ name: 'orders', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }] })),
      response: encodeResponse(3, 12, { correlationId: 2 }, newMessage(3, 'response', 12, {
        brokers: [{ nodeId: 1, host: 'broker-1', port: 9092, rack: null }], clusterId: 'c',
        topics: [{ errorCode: 0, name: 'orders', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', isInternal: false, partitions: [] }],
      })),
    },
    {
      request: encodeRequest(header(0, 9, 3), newMessage(0, 'request', 9, {
        acks: -1, timeoutMs: 1000, topicData: [{ name: 'orders', partitionData: [{ index: 0, records: batch }] }],
      })),
      response: encodeResponse(0, 9, { correlationId: 3 }, newMessage(0, 'response', 9, {
        responses: [{ name: 'orders', partitionResponses: [{ index: 0, errorCode: 0, baseOffset: 0n }] }],
      })),
    },
  ];
}

export interface Conversation { segments: Segment[]; conversation: TcpConversation }

/** The exchanges as a TCP connection's segments (handshake, data cut at `maxSegment`, close). */
export function conversationSegments(exchanges: Exchange[], options: { maxSegment?: number; client?: Endpoint; server?: Endpoint } = {}): Conversation {
  const conversation = new TcpConversation(options.client ?? CLIENT, options.server ?? SERVER, options.maxSegment ?? 500);
  let time = 1_700_000_000_123_456_789n;
  const tick = () => (time += 1_250_001n);
  conversation.open(tick());
  for (const e of exchanges) {
    conversation.send(true, e.request, tick());
    conversation.send(false, e.response, tick());
  }
  conversation.close(tick());
  return { segments: conversation.segments, conversation };
}

/** Segments written as a capture file. */
export function captureOf(segments: Segment[], options: CaptureFileOptions = {}): Uint8Array {
  const writer = new CaptureFileWriter(options);
  return writer.file(segments.map((s) => ({ timeNs: s.timeNs, data: encodePacket(writer.linkType, s) })));
}

/** Every event of a capture, split into frames and notes. */
export function readAll(bytes: Uint8Array, options?: { port?: number }): { frames: CaptureFrame[]; notes: CaptureNote[]; events: CaptureEvent[] } {
  const events = [...readCapture(bytes, options)];
  return {
    events,
    frames: events.filter((e): e is CaptureFrame => e.type === 'frame'),
    notes: events.filter((e): e is CaptureNote => e.type === 'note'),
  };
}

/** The frames in the order they were sent (requests and responses interleaved). */
export function sentFrames(exchanges: Exchange[]): Uint8Array[] {
  return exchanges.flatMap((e) => [e.request, e.response]);
}

/** Indexes of the data-carrying segments. */
export function dataSegments(segments: Segment[]): number[] {
  return segments.flatMap((s, i) => (s.payload.length > 0 ? [i] : []));
}

/** Runs a CLI command in-process: its exit code, stderr, and stdout's JSON lines. */
export async function runCommand(command: (args: string[], io: any) => Promise<number>, args: string[], stdin: string | Uint8Array = '') {
  let stdout = '';
  let stderr = '';
  const code = await command(args, {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: { write: (t: string) => { stdout += t; return true; } },
    stderr: { write: (t: string) => { stderr += t; return true; } },
  });
  return { code, stderr, lines: stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) };
}

/** tshark's Kafka PDUs in a capture file: packet, key, version, correlation id, request packet (responses), size, client id. */
export function tsharkPdus(file: string, port: number): string[][] {
  const out = execFileSync('tshark', [
    '-n', '-r', file, '-d', `tcp.port==${port},kafka`, '-Y', 'kafka', '-T', 'fields', '-E', 'separator=|', '-E', 'occurrence=a', '-E', 'aggregator=,',
    '-e', 'frame.number', '-e', 'kafka.api_key', '-e', 'kafka.api_version', '-e', 'kafka.correlation_id', '-e', 'kafka.request_frame', '-e', 'kafka.len', '-e', 'kafka.client_id',
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
  return out.trim().split('\n').map((l) => l.split('|'));
}

/** Our frames as the same fields, for comparing with tsharkPdus. */
export function asTsharkPdus(frames: CaptureFrame[]): string[][] {
  const requestPacket = new Map<string, number>();
  return frames.map((f) => {
    const key = `${f.conn} ${f.correlationId}`;
    if (f.direction === 'request') requestPacket.set(key, f.packet);
    const clientId = f.direction === 'request' ? (new TextDecoder().decode(f.bytes.subarray(14, 14 + new DataView(f.bytes.buffer, f.bytes.byteOffset).getInt16(12)))) : '';
    return [String(f.packet), String(f.apiKey), f.direction === 'request' ? String(f.apiVersion) : '', String(f.correlationId),
      f.direction === 'response' ? String(requestPacket.get(key)) : '', String(f.bytes.length - 4), clientId];
  });
}
