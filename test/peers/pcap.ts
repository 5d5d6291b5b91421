// Test helper: writes a classic libpcap file holding one TCP conversation on 127.0.0.1 between a
// client port and the broker port (9092, which Wireshark maps to its Kafka dissector). Each
// message is carried in one or more Ethernet/IPv4/TCP packets with correct lengths, checksums and
// sequence/acknowledgement numbers, after a three-way handshake, so Wireshark's TCP reassembly
// and the Kafka dissector's request/response matching (by correlation id, per conversation) work
// exactly as on a real capture.

export interface PcapOptions {
  clientPort?: number;
  serverPort?: number;
  /** Largest TCP payload per packet; larger messages are split across segments. */
  maxSegment?: number;
}

const LOOPBACK = [127, 0, 0, 1];
const CLIENT_MAC = [0x02, 0x00, 0x00, 0x00, 0x00, 0x01];
const SERVER_MAC = [0x02, 0x00, 0x00, 0x00, 0x00, 0x02];

const TCP_FIN = 0x01, TCP_SYN = 0x02, TCP_PSH = 0x08, TCP_ACK = 0x10;

/** Ones' complement sum of 16-bit big-endian words, folded to 16 bits and inverted. */
function internetChecksum(parts: Uint8Array[]): number {
  let sum = 0;
  let odd = -1; // a pending high byte carried between parts
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      if (odd < 0) odd = p[i]!;
      else { sum += (odd << 8) | p[i]!; odd = -1; }
    }
  }
  if (odd >= 0) sum += odd << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

export class PcapWriter {
  private readonly records: Uint8Array[] = [];
  private readonly clientPort: number;
  private readonly serverPort: number;
  private readonly maxSegment: number;
  private clientSeq = 0x10000000;
  private serverSeq = 0x20000000;
  private ipId = 1;
  private micros = 0;
  /** Packet numbers (1-based, as Wireshark counts them) of the last packet of each message. */
  readonly messagePackets: number[] = [];

  constructor(options: PcapOptions = {}) {
    this.clientPort = options.clientPort ?? 50123;
    this.serverPort = options.serverPort ?? 9092;
    this.maxSegment = options.maxSegment ?? 16000;
    // Three-way handshake.
    this.segment(true, TCP_SYN, new Uint8Array(0), 0);
    this.clientSeq++;
    this.segment(false, TCP_SYN | TCP_ACK, new Uint8Array(0), this.clientSeq);
    this.serverSeq++;
    this.segment(true, TCP_ACK, new Uint8Array(0), this.serverSeq);
  }

  get packetCount(): number {
    return this.records.length;
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
    for (let at = 0; at < frame.length; at += this.maxSegment) {
      const chunk = frame.subarray(at, Math.min(frame.length, at + this.maxSegment));
      const ack = fromClient ? this.serverSeq : this.clientSeq;
      this.segment(fromClient, TCP_PSH | TCP_ACK, chunk, ack);
      if (fromClient) this.clientSeq = (this.clientSeq + chunk.length) >>> 0;
      else this.serverSeq = (this.serverSeq + chunk.length) >>> 0;
    }
    this.messagePackets.push(this.records.length);
    return this.records.length;
  }

  private segment(fromClient: boolean, flags: number, payload: Uint8Array, ack: number): void {
    const tcp = new Uint8Array(20 + payload.length);
    const tv = new DataView(tcp.buffer);
    tv.setUint16(0, fromClient ? this.clientPort : this.serverPort);
    tv.setUint16(2, fromClient ? this.serverPort : this.clientPort);
    tv.setUint32(4, fromClient ? this.clientSeq : this.serverSeq);
    tv.setUint32(8, (flags & TCP_ACK) !== 0 ? ack >>> 0 : 0);
    tcp[12] = 5 << 4; // data offset: 5 words, no options
    tcp[13] = flags;
    tv.setUint16(14, 65535); // window
    tcp.set(payload, 20);
    const pseudo = new Uint8Array(12);
    pseudo.set(LOOPBACK, 0);
    pseudo.set(LOOPBACK, 4);
    pseudo[9] = 6;
    new DataView(pseudo.buffer).setUint16(10, tcp.length);
    tv.setUint16(16, internetChecksum([pseudo, tcp]));

    if (20 + tcp.length > 0xffff) throw new Error(`segment too large for IPv4: ${tcp.length}`);
    const ip = new Uint8Array(20);
    const iv = new DataView(ip.buffer);
    ip[0] = 0x45;
    iv.setUint16(2, 20 + tcp.length);
    iv.setUint16(4, this.ipId++ & 0xffff);
    iv.setUint16(6, 0x4000); // don't fragment
    ip[8] = 64; // TTL
    ip[9] = 6; // TCP
    ip.set(LOOPBACK, 12);
    ip.set(LOOPBACK, 16);
    iv.setUint16(10, internetChecksum([ip]));

    const eth = new Uint8Array(14);
    eth.set(fromClient ? SERVER_MAC : CLIENT_MAC, 0);
    eth.set(fromClient ? CLIENT_MAC : SERVER_MAC, 6);
    eth[12] = 0x08; // IPv4

    const length = eth.length + ip.length + tcp.length;
    const record = new Uint8Array(16 + length);
    const rv = new DataView(record.buffer);
    this.micros += 1000;
    rv.setUint32(0, 1_700_000_000 + Math.floor(this.micros / 1e6), true);
    rv.setUint32(4, this.micros % 1e6, true);
    rv.setUint32(8, length, true);
    rv.setUint32(12, length, true);
    record.set(eth, 16);
    record.set(ip, 30);
    record.set(tcp, 50);
    this.records.push(record);
  }

  /** Ends the conversation with FIN/ACK both ways. */
  close(): void {
    this.segment(true, TCP_FIN | TCP_ACK, new Uint8Array(0), this.serverSeq);
    this.clientSeq++;
    this.segment(false, TCP_FIN | TCP_ACK, new Uint8Array(0), this.clientSeq);
    this.serverSeq++;
    this.segment(true, TCP_ACK, new Uint8Array(0), this.serverSeq);
  }

  /** The whole file: global header (microsecond timestamps, Ethernet link type) and records. */
  bytes(): Uint8Array {
    const header = new Uint8Array(24);
    const hv = new DataView(header.buffer);
    hv.setUint32(0, 0xa1b2c3d4, true);
    hv.setUint16(4, 2, true);
    hv.setUint16(6, 4, true);
    hv.setInt32(8, 0, true); // thiszone
    hv.setUint32(12, 0, true); // sigfigs
    hv.setUint32(16, 262144, true); // snaplen
    hv.setUint32(20, 1, true); // LINKTYPE_ETHERNET
    const total = this.records.reduce((n, r) => n + r.length, header.length);
    const out = new Uint8Array(total);
    out.set(header, 0);
    let at = header.length;
    for (const r of this.records) { out.set(r, at); at += r.length; }
    return out;
  }
}
