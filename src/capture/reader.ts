// Kafka frames out of captured traffic: packets are grouped into TCP connections, each
// direction reassembled (tcp.ts) and split by the size prefix; a response takes its API key and
// version from the request with its correlation id on the same connection. What cannot be read
// as Kafka (TLS, raw SASL tokens, bytes lost by the capture, a start mid-stream) is skipped
// with a note. No Node imports: browsers use it too.
import { CaptureFileReader, type CapturedPacket } from './file.js';
import { TCP_ACK, TCP_FIN, TCP_RST, TCP_SYN, tcpSegment, type TcpSegment } from './packet.js';
import { TcpDirection } from './tcp.js';
import { concatBytes } from '../bytes.js';
import { findApi, decodeRequest, decodeResponse, type Direction } from '../codec/by-key.js';
import type { CatalogueOption } from '../catalogue/catalogue.js';
import { inVersions } from '../catalogue/schema.js';
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';

/** The port Kafka brokers listen on unless told otherwise. */
export const DEFAULT_KAFKA_PORT = 9092;

const API_VERSIONS = 18;
const SASL_HANDSHAKE = 17;
const UNSUPPORTED_VERSION = 35;

/** `catalogue`: the APIs frames are told apart and decoded with (default the built-in ones). */
export interface CaptureOptions extends CatalogueOption {
  /** A server port: connections to it are Kafka even when their SYN was not captured. Default 9092. */
  port?: number;
  /** The largest frame size field believed (payload bytes). Default 100 MiB. */
  maxFrameSize?: number;
}

interface EventBase {
  /** The packet (1-based) whose bytes completed the frame or caused the note. */
  packet: number;
  /** Nanoseconds since the Unix epoch. */
  timeNs: bigint;
  /** Fraction digits the capture's timestamps carry. */
  timeDigits: number;
  /** "CLIENTIP:PORT->SERVERIP:PORT". */
  conn: string;
}

/** One Kafka frame seen on the wire. */
export interface CaptureFrame extends EventBase {
  type: 'frame';
  direction: Direction;
  /** From the frame (requests) or from its request (responses); null for an unpaired response. */
  apiKey: number | null;
  apiVersion: number | null;
  correlationId: number;
  /** The whole frame, size prefix included: what decodeRequest / decodeResponse take. */
  bytes: Uint8Array;
  /** Responses: nanoseconds since their request. */
  latencyNs?: bigint;
  /** A response whose request is not in the capture. */
  unpaired?: boolean;
}

export type NoteKind = 'mid-stream' | 'gap' | 'resync' | 'tls' | 'sasl' | 'truncated' | 'not-kafka';

/** Something about the traffic that is not a frame: skipped, lost or unreadable bytes. */
export interface CaptureNote extends EventBase {
  type: 'note';
  kind: NoteKind;
  direction: Direction | null;
  message: string;
}

export type CaptureEvent = CaptureFrame | CaptureNote;

/** Counts over the whole capture. */
export interface CaptureStats {
  packets: number;
  /** TCP connections that carried Kafka. */
  connections: number;
  /** Connections left out: TLS, or not Kafka. */
  skippedConnections: number;
  frames: number;
  /** Frames by API key. */
  framesByApi: Map<number, number>;
  gaps: number;
  lostBytes: number;
  retransmissions: number;
  unpairedResponses: number;
  /** Requests whose response is not in the capture (including Produce with acks=0). */
  unansweredRequests: number;
  notes: number;
}

interface InFlight { apiKey: number; apiVersion: number; timeNs: bigint }

/** Whether a request frame could start at `at`: a believable size, a known API and version. */
export function plausibleRequest(bytes: Uint8Array, at: number, maxFrameSize: number, options?: CatalogueOption): boolean | undefined {
  if (at + 14 > bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getInt32(at);
  if (size < 10 || size > maxFrameSize) return false;
  const api = findApi(view.getInt16(at + 4), options);
  if (api === undefined || !inVersions(api.request.validVersions, view.getInt16(at + 6))) return false;
  const clientIdLength = view.getInt16(at + 12);
  return clientIdLength >= -1 && clientIdLength <= size - 10;
}

function looksLikeTls(bytes: Uint8Array, at: number): boolean {
  // A TLS record: handshake, alert or application data, version 3.0-3.4.
  return bytes.length >= at + 3 && (bytes[at] === 0x16 || bytes[at] === 0x15 || bytes[at] === 0x17) && bytes[at + 1] === 3 && bytes[at + 2] <= 4;
}

/** One direction's byte stream, split into frames. */
class FrameStream {
  private pieces: Uint8Array[] = [];
  private buffered = 0;
  /** Bytes needed before parsing is worth trying again. */
  private need = 4;
  /** Stream offset of the first buffered byte (lost bytes counted). */
  private offset = 0;
  synced: boolean;
  private skipped = 0;
  /** A request's header needs its key, version and correlation id; a response's its correlation id. */
  private readonly minSize: number;

  constructor(readonly conn: Conn, readonly direction: Direction, synced: boolean) {
    this.synced = synced;
    this.minSize = direction === 'request' ? 8 : 4;
  }

  data(chunk: Uint8Array, timeNs: bigint, packet: number): void {
    if (this.conn.skipping) return;
    this.pieces.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.need) return;
    const bytes = concatBytes(this.pieces, this.buffered);
    const used = this.parse(bytes, timeNs, packet);
    this.offset += used;
    this.buffered -= used;
    this.pieces = this.buffered === 0 ? [] : [bytes.subarray(used)];
  }

  gap(lost: number, timeNs: bigint, packet: number): void {
    const partial = this.buffered;
    this.conn.reader.stats.gaps++;
    this.conn.reader.stats.lostBytes += lost;
    this.conn.note('gap', this.direction, timeNs, packet,
      `${lost} bytes missing from the capture at stream offset ${this.offset + this.buffered}${partial > 0 && this.synced ? ` (a frame's first ${partial} bytes are lost with them)` : ''}; resynchronising on the next plausible frame`);
    this.offset += this.buffered + lost;
    this.pieces = [];
    this.buffered = 0;
    this.need = 4;
    this.synced = false;
  }

  finish(timeNs: bigint, packet: number): void {
    if (this.buffered > 0 && this.synced) {
      this.conn.note('truncated', this.direction, timeNs, packet, `the capture ends ${this.buffered} bytes into a frame at stream offset ${this.offset}`);
    } else if (!this.synced && this.skipped + this.buffered > 0) {
      this.conn.note('resync', this.direction, timeNs, packet, `skipped the last ${this.skipped + this.buffered} bytes: no frame starts in them`);
    }
  }

  /** Emits the whole frames in `bytes`; returns the bytes used (the rest waits for more). */
  private parse(bytes: Uint8Array, timeNs: bigint, packet: number): number {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const max = this.conn.reader.maxFrameSize;
    let at = 0;
    for (;;) {
      if (!this.synced) {
        const found = this.resync(bytes, at);
        if (found < 0) {
          // Keep only the tail a frame could still start in.
          const keep = Math.max(at, bytes.length - 13);
          this.skipped += keep - at;
          this.need = bytes.length - keep + 1;
          return keep;
        }
        this.skipped += found - at;
        at = found;
        const candidateEnd = at + 4 + view.getInt32(at);
        if (candidateEnd > bytes.length) {
          this.need = candidateEnd - at;
          return at;
        }
        this.synced = true;
        this.conn.note('resync', this.direction, timeNs, packet, `skipped ${this.skipped} bytes; frames resume at stream offset ${this.offset + at}`);
        this.skipped = 0;
      }
      if (at + 4 > bytes.length) break;
      const size = view.getInt32(at);
      // Raw SASL tokens may be empty; frames have at least their header.
      if (size < (this.conn.rawSasl ? 0 : this.minSize) || size > max) {
        this.conn.note('resync', this.direction, timeNs, packet, `a frame size of ${size} at stream offset ${this.offset + at} is not believable; resynchronising`);
        this.synced = false;
        continue;
      }
      const end = at + 4 + size;
      if (end > bytes.length) {
        this.need = end - at;
        return at;
      }
      this.conn.frame(this.direction, bytes.subarray(at, end), timeNs, packet);
      at = end;
      if (this.conn.skipping) return bytes.length;
    }
    this.need = 4;
    return at;
  }

  /** The next offset from `at` where a frame that decodes starts, or -1 when none can be told yet. */
  private resync(bytes: Uint8Array, at: number): number {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const max = this.conn.reader.maxFrameSize;
    for (let i = at; i + 8 <= bytes.length; i++) {
      if (this.direction === 'request') {
        const plausible = plausibleRequest(bytes, i, max, this.conn.reader.codec);
        if (plausible === undefined) return -1;
        if (!plausible) continue;
        const end = i + 4 + view.getInt32(i);
        // A candidate not yet whole is waited for; one that fails to decode is passed over.
        if (end > bytes.length) return i;
        try {
          decodeRequest(bytes.subarray(i, end), this.conn.reader.codec);
          return i;
        } catch {
          continue;
        }
      }
      const size = view.getInt32(i);
      const request = this.conn.inFlight.get(view.getInt32(i + 4));
      if (size < 4 || size > max || request === undefined) continue;
      const end = i + 4 + size;
      if (end > bytes.length) return i;
      try {
        decodeResponse(bytes.subarray(i, end), request.apiKey, request.apiVersion, this.conn.reader.codec);
        return i;
      } catch {
        continue;
      }
    }
    return -1;
  }
}

/** One TCP connection, once its client and server are known. */
class Conn {
  readonly inFlight = new Map<number, InFlight>();
  readonly requests: FrameStream;
  readonly responses: FrameStream;
  readonly name: string;
  /** TLS or otherwise unreadable: the rest of the connection is ignored. */
  skipping = false;
  /** After a successful SaslHandshake v0, tokens go raw (size-prefixed, no header) until the next request. */
  rawSasl = false;
  private rawSaslCorrelation: number | undefined;
  private checkedTls = false;

  constructor(readonly reader: CaptureReader, readonly client: string, readonly server: string, fromStart: boolean) {
    this.name = `${client}->${server}`;
    this.requests = new FrameStream(this, 'request', fromStart);
    this.responses = new FrameStream(this, 'response', fromStart);
  }

  data(source: string, bytes: Uint8Array, timeNs: bigint, packet: number): void {
    if (this.skipping) return;
    if (!this.checkedTls) {
      this.checkedTls = true;
      if (looksLikeTls(bytes, 0)) {
        this.skipping = true;
        this.reader.stats.skippedConnections++;
        this.note('tls', null, timeNs, packet, 'TLS: the connection is encrypted and skipped');
        return;
      }
    }
    (source === this.client ? this.requests : this.responses).data(bytes, timeNs, packet);
  }

  gap(source: string, lost: number, timeNs: bigint, packet: number): void {
    if (!this.skipping) (source === this.client ? this.requests : this.responses).gap(lost, timeNs, packet);
  }

  note(kind: NoteKind, direction: Direction | null, timeNs: bigint, packet: number, message: string): void {
    this.reader.stats.notes++;
    this.reader.emit({ type: 'note', kind, direction, message, conn: this.name, timeNs, timeDigits: this.reader.timeDigits, packet });
  }

  frame(direction: Direction, bytes: Uint8Array, timeNs: bigint, packet: number): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const base = { type: 'frame' as const, conn: this.name, timeNs, timeDigits: this.reader.timeDigits, packet, direction, bytes };
    if (direction === 'request') {
      if (this.rawSasl) {
        if (plausibleRequest(bytes, 0, this.reader.maxFrameSize, this.reader.codec) !== true) {
          this.note('sasl', direction, timeNs, packet, `a raw SASL token of ${bytes.length - 4} bytes (after SaslHandshake v0) skipped`);
          return;
        }
        this.rawSasl = false;
      }
      const apiKey = view.getInt16(4);
      const apiVersion = view.getInt16(6);
      const correlationId = bytes.length >= 12 ? view.getInt32(8) : -1;
      this.inFlight.set(correlationId, { apiKey, apiVersion, timeNs });
      if (apiKey === SASL_HANDSHAKE && apiVersion === 0) this.rawSaslCorrelation = correlationId;
      this.reader.countFrame(apiKey);
      this.reader.emit({ ...base, apiKey, apiVersion, correlationId });
      return;
    }
    if (this.rawSasl) {
      this.note('sasl', direction, timeNs, packet, `a raw SASL token of ${bytes.length - 4} bytes (after SaslHandshake v0) skipped`);
      return;
    }
    const correlationId = view.getInt32(4);
    const request = this.inFlight.get(correlationId);
    if (request === undefined) {
      this.reader.stats.unpairedResponses++;
      this.reader.countFrame(null);
      this.reader.emit({ ...base, apiKey: null, apiVersion: null, correlationId, unpaired: true });
      return;
    }
    this.inFlight.delete(correlationId);
    // SaslHandshake v0's response: error code 0 switches the connection to raw tokens.
    if (correlationId === this.rawSaslCorrelation && bytes.length >= 10 && view.getInt16(8) === 0) this.rawSasl = true;
    // A broker answers an ApiVersions version it does not support in version 0 (its error code first).
    const apiVersion = request.apiKey === API_VERSIONS && bytes.length >= 10 && view.getInt16(8) === UNSUPPORTED_VERSION ? 0 : request.apiVersion;
    this.reader.countFrame(request.apiKey);
    this.reader.emit({ ...base, apiKey: request.apiKey, apiVersion, correlationId, latencyNs: timeNs - request.timeNs });
  }

  finish(timeNs: bigint, packet: number): void {
    this.requests.finish(timeNs, packet);
    this.responses.finish(timeNs, packet);
    this.reader.stats.unansweredRequests += this.inFlight.size;
  }
}

/** Bytes (or, with `lost` set, a gap) seen before the connection's client is known. */
interface PendingData { source: string; bytes: Uint8Array; lost: number; timeNs: bigint; packet: number }

/** A TCP connection's two directions, and its Kafka reading once its sides are known. */
class Flow {
  readonly directions = new Map<string, TcpDirection>();
  conn: Conn | undefined;
  client: string | undefined;
  /** Data seen before the client is known. */
  private pending: PendingData[] = [];
  private pendingBytes = 0;
  ignored = false;
  closing = 0;

  constructor(readonly reader: CaptureReader, readonly a: string, readonly b: string) {}

  direction(source: string): TcpDirection {
    let d = this.directions.get(source);
    if (d === undefined) {
      d = new TcpDirection({
        data: (bytes, timeNs, packet) => this.data(source, bytes, timeNs, packet),
        gap: (lost, timeNs, packet) => {
          if (this.conn !== undefined) this.conn.gap(source, lost, timeNs, packet);
          else this.pending.push({ source, bytes: new Uint8Array(0), lost, timeNs, packet });
        },
      });
      this.directions.set(source, d);
    }
    return d;
  }

  private data(source: string, bytes: Uint8Array, timeNs: bigint, packet: number): void {
    if (this.ignored) return;
    if (this.conn === undefined) {
      this.pending.push({ source, bytes, lost: 0, timeNs, packet });
      this.pendingBytes += bytes.length;
      const client = this.decideClient();
      if (client === undefined) {
        if (this.pendingBytes > 256 * 1024) this.ignore(timeNs, packet);
        return;
      }
      this.start(client);
      return;
    }
    this.conn.data(source, bytes, timeNs, packet);
  }

  /** The SYN's sender; else the side talking to a Kafka port; else a side whose bytes open with a request. */
  private decideClient(): string | undefined {
    if (this.client !== undefined) return this.client;
    const ports = this.reader.serverPorts;
    if (ports.has(portOf(this.b))) return this.a;
    if (ports.has(portOf(this.a))) return this.b;
    for (const source of [this.a, this.b]) {
      const pieces = this.pending.filter((p) => p.source === source).map((p) => p.bytes);
      const bytes = concatBytes(pieces, pieces.reduce((n, p) => n + p.length, 0));
      if (plausibleRequest(bytes, 0, this.reader.maxFrameSize, this.reader.codec) !== true) continue;
      const size = new DataView(bytes.buffer, bytes.byteOffset).getInt32(0);
      if (bytes.length < 4 + size) return undefined;
      try {
        decodeRequest(bytes.subarray(0, 4 + size), this.reader.codec);
        this.reader.serverPorts.add(portOf(source === this.a ? this.b : this.a));
        return source;
      } catch {
        continue;
      }
    }
    return undefined;
  }

  start(client: string): void {
    const server = client === this.a ? this.b : this.a;
    const fromStart = this.directions.get(client)?.sawSyn === true;
    this.conn = new Conn(this.reader, client, server, fromStart);
    this.reader.stats.connections++;
    if (!fromStart) {
      this.conn.note('mid-stream', null, this.pending[0]?.timeNs ?? 0n, this.pending[0]?.packet ?? 0,
        'the capture starts inside this connection: each direction resumes at its first frame that decodes');
    }
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) {
      if (p.lost > 0) this.conn.gap(p.source, p.lost, p.timeNs, p.packet);
      else this.conn.data(p.source, p.bytes, p.timeNs, p.packet);
    }
  }

  private ignore(timeNs: bigint, packet: number): void {
    const tls = this.pending.some((p) => looksLikeTls(p.bytes, 0));
    this.ignored = true;
    this.pending = [];
    this.reader.stats.skippedConnections++;
    this.reader.emit({
      type: 'note', kind: tls ? 'tls' : 'not-kafka', direction: null, conn: `${this.a}<->${this.b}`, timeNs, timeDigits: this.reader.timeDigits, packet,
      message: 'no Kafka frames found: the connection is skipped',
    });
    this.reader.stats.notes++;
  }

  finish(timeNs: bigint, packet: number): void {
    for (const d of this.directions.values()) d.finish(timeNs, packet);
    if (this.conn === undefined && !this.ignored && this.pendingBytes > 0) {
      const client = this.decideClient();
      if (client !== undefined) this.start(client);
      else this.ignore(timeNs, packet);
    }
    this.conn?.finish(timeNs, packet);
  }
}

function portOf(endpoint: string): number {
  return Number(endpoint.slice(endpoint.lastIndexOf(':') + 1));
}

/**
 * Reads a capture file pushed in chunks and returns Kafka frames and notes as they complete.
 * `end()` flushes what the capture left unfinished. `stats` counts as it goes.
 */
export class CaptureReader {
  readonly maxFrameSize: number;
  readonly serverPorts: Set<number>;
  /** The catalogue frames are read with, as the codec calls take it. */
  readonly codec: CatalogueOption;
  readonly stats: CaptureStats = {
    packets: 0, connections: 0, skippedConnections: 0, frames: 0, framesByApi: new Map(), gaps: 0, lostBytes: 0,
    retransmissions: 0, unpairedResponses: 0, unansweredRequests: 0, notes: 0,
  };
  timeDigits = 6;
  /** Why the file could not be read to its end (a KafkaWireError naming the offset), if so. */
  error: Error | undefined;
  private readonly file = new CaptureFileReader();
  private readonly flows = new Map<string, Flow>();
  private out: CaptureEvent[] = [];
  private lastTime = 0n;
  private lastPacket = 0;

  constructor(options: CaptureOptions = {}) {
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    this.serverPorts = new Set([options.port ?? DEFAULT_KAFKA_PORT]);
    this.codec = { catalogue: options.catalogue };
  }

  /**
   * The packets' frames and notes completed by this chunk. A corrupt file stops the reading:
   * `error` is then set, the connections are flushed, and later chunks are ignored.
   */
  push(chunk: Uint8Array): CaptureEvent[] {
    if (this.error !== undefined) return [];
    try {
      for (const packet of this.file.push(chunk)) this.packet(packet);
    } catch (error) {
      this.fail(error);
    }
    return this.take();
  }

  /** What the capture left unfinished; sets `error` when the file stops inside a record. */
  end(): CaptureEvent[] {
    if (this.error !== undefined) return [];
    try {
      this.file.end();
    } catch (error) {
      this.fail(error);
      return this.take();
    }
    this.finishFlows();
    return this.take();
  }

  private fail(error: unknown): void {
    this.error = error instanceof Error ? error : new Error(String(error));
    this.finishFlows();
  }

  private finishFlows(): void {
    for (const flow of this.flows.values()) this.finishFlow(flow);
    this.flows.clear();
  }

  emit(event: CaptureEvent): void {
    this.out.push(event);
  }

  countFrame(apiKey: number | null): void {
    this.stats.frames++;
    const key = apiKey ?? -1;
    this.stats.framesByApi.set(key, (this.stats.framesByApi.get(key) ?? 0) + 1);
  }

  private take(): CaptureEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private packet(packet: CapturedPacket): void {
    this.stats.packets++;
    this.timeDigits = packet.timeDigits;
    this.lastTime = packet.timeNs;
    this.lastPacket = packet.number;
    const segment = tcpSegment(packet.linkType, packet.data);
    if (segment === null) return;
    this.segment(segment, packet);
  }

  private segment(s: TcpSegment, packet: CapturedPacket): void {
    const key = s.source < s.destination ? `${s.source} ${s.destination}` : `${s.destination} ${s.source}`;
    let flow = this.flows.get(key);
    const opening = (s.flags & (TCP_SYN | TCP_ACK)) === TCP_SYN;
    if (flow !== undefined && opening && flow.directions.has(s.source) && flow.closing > 0) {
      // The same ports again: a new connection.
      this.finishFlow(flow);
      flow = undefined;
    }
    if (flow === undefined) {
      flow = new Flow(this, s.source, s.destination);
      this.flows.set(key, flow);
    }
    if (opening) flow.client = s.source;
    // The acknowledgement first: it may show the other direction lost bytes before this segment's data.
    if ((s.flags & TCP_ACK) !== 0) flow.directions.get(s.destination)?.acknowledged(s.ack, packet.timeNs, packet.number);
    flow.direction(s.source).segment(s.seq, (s.flags & TCP_SYN) !== 0, s.payload, packet.timeNs, packet.number);
    if ((s.flags & (TCP_FIN | TCP_RST)) !== 0) flow.closing++;
  }

  private finishFlow(flow: Flow): void {
    flow.finish(this.lastTime, this.lastPacket);
    for (const d of flow.directions.values()) this.stats.retransmissions += d.retransmissions;
  }
}

/**
 * Every Kafka frame and note in a whole capture file (pcap or pcapng) in memory. A corrupt or
 * cut-short file throws a KafkaWireError after the frames before the damage.
 */
export function* readCapture(bytes: Uint8Array, options?: CaptureOptions): Generator<CaptureEvent, CaptureStats> {
  const reader = new CaptureReader(options);
  yield* reader.push(bytes);
  yield* reader.end();
  if (reader.error !== undefined) throw reader.error;
  return reader.stats;
}

/**
 * The same over a stream of the file's bytes: a Node readable, any async iterable of chunks, or
 * a web ReadableStream (as from `file.stream()` in a browser).
 */
export async function* readCaptureStream(
  stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>, options?: CaptureOptions,
): AsyncGenerator<CaptureEvent, CaptureStats> {
  const reader = new CaptureReader(options);
  for await (const chunk of chunks(stream)) {
    yield* reader.push(chunk);
    if (reader.error !== undefined) throw reader.error;
  }
  yield* reader.end();
  if (reader.error !== undefined) throw reader.error;
  return reader.stats;
}

async function* chunks(stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (stream as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
