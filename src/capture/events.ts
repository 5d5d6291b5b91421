// What reading a capture gives: Kafka frames and notes about what is not a frame, the counts over
// the whole capture, and the reading's options; and the reader as its connections see it.
import type { Direction } from '../codec/by-key.js';
import type { CatalogueOption } from '../catalogue/catalogue.js';

/** The port Kafka brokers listen on unless told otherwise. */
export const DEFAULT_KAFKA_PORT = 9092;

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

/** The reader as the flows and connections see it: settings, counts, and where events go. */
export interface CaptureContext {
  readonly maxFrameSize: number;
  readonly serverPorts: Set<number>;
  /** The catalogue frames are read with, as the codec calls take it. */
  readonly codec: CatalogueOption;
  readonly stats: CaptureStats;
  readonly timeDigits: number;
  emit(event: CaptureEvent): void;
  countFrame(apiKey: number | null): void;
}
