// Kafka frames out of captured traffic: packets are grouped into TCP connections, each
// direction reassembled (tcp.ts) and split by the size prefix; a response takes its API key and
// version from the request with its correlation id on the same connection. What cannot be read
// as Kafka (TLS, raw SASL tokens, bytes lost by the capture, a start mid-stream) is skipped
// with a note. No Node imports: browsers use it too.
import { CaptureFileReader, type CapturedPacket } from './file.js';
import { TCP_ACK, TCP_FIN, TCP_RST, TCP_SYN, tcpSegment, type TcpSegment } from './packet.js';
import type { CatalogueOption } from '../catalogue/catalogue.js';
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';
import { DEFAULT_KAFKA_PORT, type CaptureContext, type CaptureEvent, type CaptureOptions, type CaptureStats } from './events.js';
import { Flow } from './flow.js';

export {
  DEFAULT_KAFKA_PORT, type CaptureOptions, type CaptureFrame, type NoteKind, type CaptureNote, type CaptureEvent, type CaptureStats,
} from './events.js';
export { plausibleRequest } from './frame-stream.js';

/**
 * Reads a capture file pushed in chunks and returns Kafka frames and notes as they complete.
 * `end()` flushes what the capture left unfinished. `stats` counts as it goes.
 */
export class CaptureReader implements CaptureContext {
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
