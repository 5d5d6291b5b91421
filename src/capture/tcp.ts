// Reassembles one direction of a TCP connection by sequence number: segments out of order are
// held until the hole before them fills, retransmitted and overlapping bytes are delivered once
// (the first copy wins, as in Wireshark), and a hole the capture will never fill (the peer has
// acknowledged past it, too much is held behind it, or the capture ended) becomes a gap.

/** Delivered bytes, in stream order, with the time and packet of the segment that carried them. */
export interface StreamSink {
  data(bytes: Uint8Array, timeNs: bigint, packet: number): void;
  /** `lost` bytes never appeared in the capture; the stream goes on after them. */
  gap(lost: number, timeNs: bigint, packet: number): void;
}

interface HeldSegment { seq: number; payload: Uint8Array; timeNs: bigint; packet: number }

/** The most bytes held behind a hole before it is given up as lost. */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

/** a - b in sequence space (mod 2^32), as a signed 32-bit difference. */
function seqDiff(a: number, b: number): number {
  return (a - b) | 0;
}

export class TcpDirection {
  /** The sequence number of the next byte expected; undefined until the first segment. */
  private next: number | undefined;
  private held: HeldSegment[] = [];
  private heldBytes = 0;
  private peerAck: number | undefined;
  /** Segments whose bytes had all been delivered already. */
  retransmissions = 0;
  /** Whether the stream's start (its SYN) was seen. */
  sawSyn = false;

  constructor(private readonly sink: StreamSink) {}

  segment(seq: number, syn: boolean, payload: Uint8Array, timeNs: bigint, packet: number): void {
    if (syn) {
      this.sawSyn = true;
      seq = (seq + 1) >>> 0;
      if (this.next === undefined) this.next = seq;
    }
    if (payload.length === 0) return;
    if (this.next === undefined) this.next = seq;
    const offset = seqDiff(seq, this.next);
    if (offset + payload.length <= 0) {
      this.retransmissions++;
      return;
    }
    if (offset > 0) {
      this.hold({ seq, payload, timeNs, packet });
      this.checkHole(timeNs, packet);
      return;
    }
    this.deliver(payload.subarray(-offset), timeNs, packet);
    this.drain();
  }

  /** The peer acknowledged up to `ack`: a hole it has acknowledged past was lost by the capture. */
  acknowledged(ack: number, timeNs: bigint, packet: number): void {
    if (this.peerAck === undefined || seqDiff(ack, this.peerAck) > 0) this.peerAck = ack;
    this.checkHole(timeNs, packet);
  }

  /** The capture ended: whatever is held is delivered after the gaps before it. */
  finish(timeNs: bigint, packet: number): void {
    while (this.held.length > 0) this.skipHole(timeNs, packet);
  }

  private hold(segment: HeldSegment): void {
    // Kept in sequence order; captures reorder little, so the insertion point is usually last.
    let i = this.held.length;
    while (i > 0 && seqDiff(this.held[i - 1].seq, segment.seq) > 0) i--;
    this.held.splice(i, 0, segment);
    this.heldBytes += segment.payload.length;
  }

  private checkHole(timeNs: bigint, packet: number): void {
    while (this.held.length > 0) {
      const first = this.held[0];
      const acknowledged = this.peerAck !== undefined && seqDiff(this.peerAck, first.seq) >= 0;
      if (!acknowledged && this.heldBytes <= MAX_HELD_BYTES) return;
      this.skipHole(timeNs, packet);
    }
  }

  private skipHole(timeNs: bigint, packet: number): void {
    const lost = seqDiff(this.held[0].seq, this.next!);
    if (lost > 0) {
      this.sink.gap(lost, timeNs, packet);
      this.next = this.held[0].seq;
    }
    this.drain();
  }

  private deliver(bytes: Uint8Array, timeNs: bigint, packet: number): void {
    this.next = (this.next! + bytes.length) >>> 0;
    this.sink.data(bytes, timeNs, packet);
  }

  private drain(): void {
    while (this.held.length > 0) {
      const first = this.held[0];
      const offset = seqDiff(first.seq, this.next!);
      if (offset > 0) return;
      this.held.shift();
      this.heldBytes -= first.payload.length;
      if (offset + first.payload.length <= 0) this.retransmissions++;
      else this.deliver(first.payload.subarray(-offset), first.timeNs, first.packet);
    }
  }
}
