// One Kafka connection once its client and server are known: its two directions' frames, each
// response paired with its request by correlation id; TLS and raw SASL tokens noted and skipped.
import type { Direction } from '../codec/by-key.js';
import type { CaptureContext, NoteKind } from './events.js';
import { FrameStream, looksLikeTls, plausibleRequest, type FrameOwner, type InFlight } from './frame-stream.js';

const API_VERSIONS = 18;
const SASL_HANDSHAKE = 17;
const UNSUPPORTED_VERSION = 35;

/** One TCP connection, once its client and server are known. */
export class Conn implements FrameOwner {
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

  constructor(readonly reader: CaptureContext, readonly client: string, readonly server: string, fromStart: boolean) {
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
