// One direction of a Kafka connection split into frames by the size prefix, resynchronising on
// the next frame that decodes where the capture lost bytes or started mid-stream.
import { concatBytes } from '../bytes.js';
import { decodeRequest, decodeResponse, findApi, type Direction } from '../codec/by-key.js';
import type { CatalogueOption } from '../catalogue/catalogue.js';
import { inVersions } from '../catalogue/schema.js';
import type { CaptureContext, NoteKind } from './events.js';

/** A request on its way: what its response is read as. */
export interface InFlight { apiKey: number; apiVersion: number; timeNs: bigint }

/** What a direction's frames and notes go to: its connection. */
export interface FrameOwner {
  readonly reader: CaptureContext;
  readonly inFlight: ReadonlyMap<number, InFlight>;
  /** TLS or otherwise unreadable: the rest of the connection is ignored. */
  readonly skipping: boolean;
  /** Raw SASL tokens (size-prefixed, no header) may come. */
  readonly rawSasl: boolean;
  note(kind: NoteKind, direction: Direction | null, timeNs: bigint, packet: number, message: string): void;
  frame(direction: Direction, bytes: Uint8Array, timeNs: bigint, packet: number): void;
}

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

export function looksLikeTls(bytes: Uint8Array, at: number): boolean {
  // A TLS record: handshake, alert or application data, version 3.0-3.4.
  return bytes.length >= at + 3 && (bytes[at] === 0x16 || bytes[at] === 0x15 || bytes[at] === 0x17) && bytes[at + 1] === 3 && bytes[at + 2] <= 4;
}

/** One direction's byte stream, split into frames. */
export class FrameStream {
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

  constructor(readonly conn: FrameOwner, readonly direction: Direction, synced: boolean) {
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
