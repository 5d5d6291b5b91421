// Test helper: a classic libpcap file holding one TCP conversation on 127.0.0.1 between a client
// port and the broker port (9092, which Wireshark maps to its Kafka dissector), written with the
// library's capture writer: a three-way handshake, each message in one or more Ethernet/IPv4/TCP
// packets with correct lengths, checksums and sequence/acknowledgement numbers, so Wireshark's
// TCP reassembly and the Kafka dissector's request/response matching work as on a real capture.
import { CaptureFileWriter, TcpConversation, encodePacket, type Segment } from '../../src/capture/index.js';

export interface PcapOptions {
  clientPort?: number;
  serverPort?: number;
  /** Largest TCP payload per packet; larger messages are split across segments. */
  maxSegment?: number;
}

const LOOPBACK = '127.0.0.1';
/** Packets are a millisecond apart from this time on. */
const START_NS = 1_700_000_000_000_000_000n;

export class PcapWriter {
  private readonly conversation: TcpConversation;
  private readonly writer = new CaptureFileWriter();
  /** Packet numbers (1-based, as Wireshark counts them) of the last packet of each message. */
  readonly messagePackets: number[] = [];

  constructor(options: PcapOptions = {}) {
    this.conversation = new TcpConversation(
      { ip: LOOPBACK, port: options.clientPort ?? 50123 }, { ip: LOOPBACK, port: options.serverPort ?? 9092 }, options.maxSegment ?? 16000);
    // Segment times are set when the file is written.
    this.conversation.open(START_NS);
  }

  get packetCount(): number {
    return this.conversation.segments.length;
  }

  /** A request (client → server); returns the packet number of its last segment. */
  request(frame: Uint8Array): number {
    return this.message(true, frame);
  }

  /** A response (server → client); returns the packet number of its last segment. */
  response(frame: Uint8Array): number {
    return this.message(false, frame);
  }

  private message(fromClient: boolean, frame: Uint8Array): number {
    this.conversation.send(fromClient, frame, START_NS);
    this.messagePackets.push(this.packetCount);
    return this.packetCount;
  }

  /** Ends the conversation with FIN/ACK both ways. */
  close(): void {
    this.conversation.close(START_NS);
  }

  /** The whole file: global header (microsecond timestamps, Ethernet link type) and records. */
  bytes(): Uint8Array {
    return this.writer.file(this.conversation.segments.map((s: Segment, i) => ({
      timeNs: START_NS + BigInt(i + 1) * 1_000_000n,
      data: encodePacket(this.writer.linkType, s),
    })));
  }
}
