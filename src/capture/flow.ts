// One TCP connection's packets: both directions reassembled (tcp.ts), bytes held until it is
// known which side is the client, then handed to its Kafka connection (or the flow is skipped).
import { be32, concatBytes } from '../bytes.js';
import { decodeRequest } from '../codec/by-key.js';
import { TcpDirection } from './tcp.js';
import type { CaptureContext } from './events.js';
import { Conn } from './connection.js';
import { looksLikeTls, plausibleRequest } from './frame-stream.js';

/** Bytes (or, with `lost` set, a gap) seen before the connection's client is known. */
interface PendingData { source: string; bytes: Uint8Array; lost: number; timeNs: bigint; packet: number }

/** A TCP connection's two directions, and its Kafka reading once its sides are known. */
export class Flow {
  readonly directions = new Map<string, TcpDirection>();
  conn: Conn | undefined;
  client: string | undefined;
  /** Data seen before the client is known. */
  private pending: PendingData[] = [];
  private pendingBytes = 0;
  ignored = false;
  closing = 0;

  constructor(readonly reader: CaptureContext, readonly a: string, readonly b: string) {}

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
      const size = be32(bytes, 0);
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
