// One direction of a Kafka connection split into frames by the size prefix (the wire's
// FrameSplitter), resynchronising on the next frame that decodes where the capture lost bytes,
// started mid-stream or shows a size no frame has.
import { be32, concatBytes } from '../bytes.js';
import { FrameSplitter } from '../wire/frame-splitter.js';
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

/**
 * One direction's byte stream, split into frames by the wire's FrameSplitter while in step;
 * a size not believable, or bytes the capture lost, set it hunting for the next frame that
 * decodes, and the splitter starts afresh there.
 */
export class FrameStream {
  /** While in step: the splitter, which started at stream offset `base`. */
  private splitter: FrameSplitter;
  private base = 0;
  /** While hunting: the bytes not yet placed, from stream offset `offset` (lost bytes counted). */
  private pieces: Uint8Array[] = [];
  private buffered = 0;
  private offset = 0;
  /** Bytes needed before hunting is worth trying again. */
  private need = 4;
  synced: boolean;
  private skipped = 0;
  /** A request's header needs its key, version and correlation id; a response's its correlation id. */
  private readonly minSize: number;
  /** The packet being read, for the frames it completes. */
  private timeNs = 0n;
  private packet = 0;

  constructor(readonly conn: FrameOwner, readonly direction: Direction, synced: boolean) {
    this.synced = synced;
    this.minSize = direction === 'request' ? 8 : 4;
    this.splitter = this.splitterFrom(0);
  }

  /** A splitter for the frames from stream offset `base`: believable sizes held, others rejected. */
  private splitterFrom(base: number): FrameSplitter {
    this.base = base;
    return new FrameSplitter({
      // Raw SASL tokens may be empty; frames have at least their header.
      decide: (_head, size) => (size < (this.conn.rawSasl ? 0 : this.minSize) || size > this.conn.reader.maxFrameSize ? 'reject' : 'hold'),
      onFrame: (frame) => {
        if (!this.conn.skipping) this.conn.frame(this.direction, frame, this.timeNs, this.packet);
      },
    });
  }

  data(chunk: Uint8Array, timeNs: bigint, packet: number): void {
    if (this.conn.skipping) return;
    this.timeNs = timeNs;
    this.packet = packet;
    if (this.synced) this.split(chunk);
    else this.hunt(chunk);
  }

  gap(lost: number, timeNs: bigint, packet: number): void {
    const partial = this.synced ? this.splitter.bufferedBytes : this.buffered;
    const at = this.synced ? this.base + this.splitter.offset + partial : this.offset + this.buffered;
    this.conn.reader.stats.gaps++;
    this.conn.reader.stats.lostBytes += lost;
    this.conn.note('gap', this.direction, timeNs, packet,
      `${lost} bytes missing from the capture at stream offset ${at}${partial > 0 && this.synced ? ` (a frame's first ${partial} bytes are lost with them)` : ''}; resynchronising on the next plausible frame`);
    this.offset = at + lost;
    this.pieces = [];
    this.buffered = 0;
    this.need = 4;
    this.synced = false;
  }

  finish(timeNs: bigint, packet: number): void {
    const partial = this.splitter.bufferedBytes;
    if (this.synced && partial > 0) {
      this.conn.note('truncated', this.direction, timeNs, packet, `the capture ends ${partial} bytes into a frame at stream offset ${this.base + this.splitter.offset}`);
    } else if (!this.synced && this.skipped + this.buffered > 0) {
      this.conn.note('resync', this.direction, timeNs, packet, `skipped the last ${this.skipped + this.buffered} bytes: no frame starts in them`);
    }
  }

  /** In step: frames by their size prefix; from a size not believable on, the bytes go hunting. */
  private split(bytes: Uint8Array): void {
    const splitter = this.splitter;
    splitter.push(bytes);
    if (!splitter.rejected || this.conn.skipping) return;
    const at = this.base + splitter.offset;
    this.conn.note('resync', this.direction, this.timeNs, this.packet, `a frame size of ${splitter.pendingFrameSize} at stream offset ${at} is not believable; resynchronising`);
    this.synced = false;
    const rest = splitter.release();
    this.offset = at;
    this.pieces = [];
    this.buffered = 0;
    this.need = 4;
    this.hunt(concatBytes(rest, rest.reduce((n, p) => n + p.length, 0)));
  }

  /** Out of step: looks for the next frame that decodes, and splits from there. */
  private hunt(chunk: Uint8Array): void {
    this.pieces.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.need) return;
    const bytes = concatBytes(this.pieces, this.buffered);
    const found = this.resync(bytes, 0);
    if (found < 0) {
      // Keep only the tail a frame could still start in.
      const keep = Math.max(0, bytes.length - 13);
      this.skipped += keep;
      this.need = bytes.length - keep + 1;
      this.keepFrom(bytes, keep);
      return;
    }
    this.skipped += found;
    const candidateEnd = found + 4 + be32(bytes, found);
    if (candidateEnd > bytes.length) {
      this.need = candidateEnd - found;
      this.keepFrom(bytes, found);
      return;
    }
    this.synced = true;
    this.conn.note('resync', this.direction, this.timeNs, this.packet, `skipped ${this.skipped} bytes; frames resume at stream offset ${this.offset + found}`);
    this.skipped = 0;
    this.splitter = this.splitterFrom(this.offset + found);
    this.pieces = [];
    this.buffered = 0;
    this.need = 4;
    this.split(bytes.subarray(found));
  }

  /** While hunting, drops the bytes before `at`. */
  private keepFrom(bytes: Uint8Array, at: number): void {
    this.offset += at;
    this.buffered = bytes.length - at;
    this.pieces = this.buffered === 0 ? [] : [bytes.subarray(at)];
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
