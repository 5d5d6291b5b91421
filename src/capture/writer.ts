// Writes captures: TCP segments built into packets of any link type file.ts reads (IPv4 or
// IPv6, correct lengths and checksums), and the packets into classic pcap (either byte order,
// micro- or nanosecond timestamps) or pcapng. TcpConversation numbers a connection's segments
// (handshake, data split at a segment size, close) so a recording reads back like tcpdump's.
// No Node imports: browsers use it too.
import {
  LINKTYPE_ETHERNET, LINKTYPE_IPV4, LINKTYPE_IPV6, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_LOOP, LINKTYPE_NULL, LINKTYPE_RAW,
  TCP_ACK, TCP_FIN, TCP_SYN,
} from './packet.js';
import { KafkaWireError } from '../errors.js';

export interface Endpoint { ip: string; port: number }

export interface Segment {
  source: Endpoint;
  destination: Endpoint;
  seq: number;
  ack: number;
  flags: number;
  payload: Uint8Array;
  timeNs: bigint;
}

export interface Packet {
  timeNs: bigint;
  /** The packet's bytes from its link layer down; with `payload`, only those before it. */
  data: Uint8Array;
  /** The packet's last bytes kept apart, so a recorder writes forwarded bytes without copying them. */
  payload?: Uint8Array;
}

export interface CaptureFileOptions {
  format?: 'pcap' | 'pcapng';
  /** Byte order of the file's headers. Default little-endian. */
  bigEndian?: boolean;
  /** Timestamps in nanoseconds (pcap magic a1b23c4d, pcapng if_tsresol 9). Default microseconds. */
  nanoseconds?: boolean;
  /** Default LINKTYPE_ETHERNET. */
  linkType?: number;
}

const TCP_PSH = 0x08;
const NS_PER_SECOND = 1_000_000_000n;
const SNAP_LENGTH = 262144;

/** An IPv4 dotted quad or an IPv6 address as bytes. */
export function ipBytes(ip: string): Uint8Array {
  if (!ip.includes(':')) {
    const parts = ip.split('.').map(Number);
    if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255))) throw new KafkaWireError('INVALID_VALUE', -1, 'ip', `${ip} is not an IPv4 address`);
    return Uint8Array.from(parts);
  }
  const [head, tail] = ip.split('::');
  const groups = (s: string | undefined) => (s === undefined || s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  if (all.length !== 8 || all.some((g) => !(g >= 0 && g <= 0xffff))) throw new KafkaWireError('INVALID_VALUE', -1, 'ip', `${ip} is not an IPv6 address`);
  const out = new Uint8Array(16);
  all.forEach((g, i) => { out[2 * i] = g >> 8; out[2 * i + 1] = g & 0xff; });
  return out;
}

/**
 * `sum` plus the 16-bit big-endian words of bytes[start, end), an odd last byte as a word's high
 * half. Unfolded: a packet's words add up to well under 2^53.
 */
function wordSum(bytes: Uint8Array, start: number, end: number, sum = 0): number {
  let i = start;
  for (; i + 1 < end; i += 2) sum += (bytes[i] << 8) | bytes[i + 1];
  if (i < end) sum += bytes[i] << 8;
  return sum;
}

/** The internet checksum of a word sum: folded to 16 bits, then inverted. */
function checksumOf(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return ~sum & 0xffff;
}

/** Writes `value` as `bytes` big-endian bytes at `at`. */
function putBigEndian(out: Uint8Array, at: number, value: number, bytes: 2 | 4): void {
  for (let i = bytes - 1; i >= 0; i--, value = Math.floor(value / 256)) out[at + i] = value & 0xff;
}

/**
 * The packet's bytes from its link layer down: `linkType` framing, IP, TCP, payload (one
 * allocation). Without `tcpChecksum` the TCP checksum is left 0, as captures of offloading
 * hosts show it (Wireshark does not check it by default); it costs a pass over the payload.
 */
export function encodePacket(linkType: number, s: Segment, tcpChecksum = true): Uint8Array {
  return encodeHeaders(linkType, s, tcpChecksum, s.payload.length);
}

/** The packet's bytes before its payload (link layer, IP, TCP), for a Packet with the payload apart. */
export function encodePacketHeaders(linkType: number, s: Segment, tcpChecksum = true): Uint8Array {
  return encodeHeaders(linkType, s, tcpChecksum, 0);
}

/** IP addresses as bytes, kept for the endpoints a conversation reuses for every segment. */
const endpointBytes = new WeakMap<Endpoint, { ip: string; bytes: Uint8Array }>();

function addressOf(endpoint: Endpoint): Uint8Array {
  const known = endpointBytes.get(endpoint);
  if (known !== undefined && known.ip === endpoint.ip) return known.bytes;
  const bytes = ipBytes(endpoint.ip);
  endpointBytes.set(endpoint, { ip: endpoint.ip, bytes });
  return bytes;
}

/**
 * The headers, and as many of the payload's bytes (all or none) after them. Written byte by byte
 * into one small array: views of it (subarray, DataView) would move it off the heap, which a
 * recording proxy would pay for on every packet.
 */
function encodeHeaders(linkType: number, s: Segment, tcpChecksum: boolean, payloadRoom: number): Uint8Array {
  const source = addressOf(s.source);
  const destination = addressOf(s.destination);
  const v6 = source.length === 16;
  const link = linkHeader(linkType, v6);
  const ipLength = v6 ? 40 : 20;
  const tcpLength = 20 + s.payload.length;
  if (!v6 && ipLength + tcpLength > 0xffff) throw new KafkaWireError('INVALID_VALUE', -1, 'payload', `a ${s.payload.length}-byte segment does not fit an IPv4 packet`);
  const out = new Uint8Array(link.length + ipLength + 20 + payloadRoom);
  out.set(link, 0);
  const ip = link.length;
  const tcp = ip + ipLength;
  putBigEndian(out, tcp, s.source.port, 2);
  putBigEndian(out, tcp + 2, s.destination.port, 2);
  putBigEndian(out, tcp + 4, s.seq >>> 0, 4);
  putBigEndian(out, tcp + 8, (s.flags & TCP_ACK) !== 0 ? s.ack >>> 0 : 0, 4);
  out[tcp + 12] = 5 << 4;
  out[tcp + 13] = s.flags;
  putBigEndian(out, tcp + 14, 65535, 2);
  if (payloadRoom > 0) out.set(s.payload, tcp + 20);
  if (tcpChecksum) {
    // The pseudo header (addresses, protocol 6, TCP length), the TCP header, the payload: every
    // part before the last has an even length, so their word sums simply add.
    let sum = wordSum(destination, 0, destination.length, wordSum(source, 0, source.length, 6 + tcpLength));
    sum = wordSum(out, tcp, out.length, sum);
    if (payloadRoom === 0) sum = wordSum(s.payload, 0, s.payload.length, sum);
    putBigEndian(out, tcp + 16, checksumOf(sum), 2);
  }

  if (v6) {
    out[ip] = 0x60;
    putBigEndian(out, ip + 4, tcpLength, 2);
    out[ip + 6] = 6;
    out[ip + 7] = 64;
    out.set(source, ip + 8);
    out.set(destination, ip + 24);
  } else {
    out[ip] = 0x45;
    putBigEndian(out, ip + 2, ipLength + tcpLength, 2);
    putBigEndian(out, ip + 6, 0x4000, 2);
    out[ip + 8] = 64;
    out[ip + 9] = 6;
    out.set(source, ip + 12);
    out.set(destination, ip + 16);
    putBigEndian(out, ip + 10, checksumOf(wordSum(out, ip, ip + ipLength)), 2);
  }
  return out;
}

/** Each link type's header for IPv4 and for IPv6, made once: they never change. */
const linkHeaders = new Map<number, Uint8Array>();

function linkHeader(linkType: number, v6: boolean): Uint8Array {
  const key = linkType * 2 + (v6 ? 1 : 0);
  let header = linkHeaders.get(key);
  if (header === undefined) {
    header = makeLinkHeader(linkType, v6);
    linkHeaders.set(key, header);
  }
  return header;
}

function makeLinkHeader(linkType: number, v6: boolean): Uint8Array {
  const ethertype = v6 ? 0x86dd : 0x0800;
  switch (linkType) {
    case LINKTYPE_ETHERNET: {
      const h = new Uint8Array(14);
      h.set([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1]);
      new DataView(h.buffer).setUint16(12, ethertype);
      return h;
    }
    case LINKTYPE_LINUX_SLL: {
      const h = new Uint8Array(16);
      const v = new DataView(h.buffer);
      v.setUint16(2, 772); // ARPHRD_LOOPBACK
      v.setUint16(4, 6);
      v.setUint16(14, ethertype);
      return h;
    }
    case LINKTYPE_LINUX_SLL2: {
      const h = new Uint8Array(20);
      const v = new DataView(h.buffer);
      v.setUint16(0, ethertype);
      v.setUint32(4, 1); // interface index
      v.setUint16(8, 772);
      h[11] = 6;
      return h;
    }
    case LINKTYPE_NULL: {
      // The capturing host's byte order: little-endian here, as on most machines.
      const h = new Uint8Array(4);
      new DataView(h.buffer).setUint32(0, v6 ? 30 : 2, true);
      return h;
    }
    case LINKTYPE_LOOP: {
      const h = new Uint8Array(4);
      new DataView(h.buffer).setUint32(0, v6 ? 30 : 2, false);
      return h;
    }
    case LINKTYPE_RAW:
    case LINKTYPE_IPV4:
    case LINKTYPE_IPV6:
      return new Uint8Array(0);
    default:
      throw new KafkaWireError('INVALID_VALUE', -1, 'linkType', `cannot write link type ${linkType}`);
  }
}

/** Writes a capture file record by record (a recording proxy streams them to disk). */
export class CaptureFileWriter {
  readonly format: 'pcap' | 'pcapng';
  readonly linkType: number;
  private readonly little: boolean;
  private readonly nanoseconds: boolean;

  constructor(options: CaptureFileOptions = {}) {
    this.format = options.format ?? 'pcap';
    this.linkType = options.linkType ?? LINKTYPE_ETHERNET;
    this.little = options.bigEndian !== true;
    this.nanoseconds = options.nanoseconds === true;
  }

  /** The file header (pcap) or section header and interface description (pcapng). */
  header(): Uint8Array {
    if (this.format === 'pcap') {
      const h = new Uint8Array(24);
      const v = new DataView(h.buffer);
      v.setUint32(0, this.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, this.little);
      v.setUint16(4, 2, this.little);
      v.setUint16(6, 4, this.little);
      v.setUint32(16, SNAP_LENGTH, this.little);
      v.setUint32(20, this.linkType, this.little);
      return h;
    }
    const section = this.block(0x0a0d0d0a, 16, (v) => {
      v.setUint32(8, 0x1a2b3c4d, this.little);
      v.setUint16(12, 1, this.little);
      v.setBigInt64(16, -1n, this.little); // section length unknown
    });
    const options = this.nanoseconds ? 8 + 4 : 4; // if_tsresol, then opt_endofopt
    const iface = this.block(1, 8 + options, (v, b) => {
      v.setUint16(8, this.linkType, this.little);
      v.setUint32(12, SNAP_LENGTH, this.little);
      if (this.nanoseconds) {
        v.setUint16(16, 9, this.little);
        v.setUint16(18, 1, this.little);
        b[20] = 9;
      }
    });
    const out = new Uint8Array(section.length + iface.length);
    out.set(section, 0);
    out.set(iface, section.length);
    return out;
  }

  /** One packet's record. */
  record(packet: Packet): Uint8Array {
    const out = new Uint8Array(this.recordLength(packet));
    this.writeRecord(packet, out, 0);
    return out;
  }

  /** The bytes of one packet's record. */
  recordLength(packet: Packet): number {
    const length = packet.data.length + (packet.payload?.length ?? 0);
    return this.format === 'pcap' ? 16 + length : 32 + ((length + 3) & ~3);
  }

  /**
   * Writes one packet's record (its `data`, then its `payload`) into `target` at `at`, which
   * has room for recordLength(packet) bytes; returns where the record ends. A recorder copies
   * records into large buffers this way and writes those, rather than a piece per record.
   */
  writeRecord(packet: Packet, target: Uint8Array, at: number): number {
    const units = this.nanoseconds ? packet.timeNs : packet.timeNs / 1000n;
    const data = packet.data;
    const payload = packet.payload;
    const length = data.length + (payload?.length ?? 0);
    const v = new DataView(target.buffer, target.byteOffset + at);
    let fields: number;
    if (this.format === 'pcap') {
      const perSecond = this.nanoseconds ? NS_PER_SECOND : 1_000_000n;
      v.setUint32(0, Number(units / perSecond), this.little);
      v.setUint32(4, Number(units % perSecond), this.little);
      fields = 8;
    } else {
      // An enhanced packet block: its fixed fields, the packet padded to 4 bytes, the length again.
      v.setUint32(0, 6, this.little);
      v.setUint32(4, this.recordLength(packet), this.little);
      v.setUint32(8, 0, this.little);
      v.setUint32(12, Number(units >> 32n), this.little);
      v.setUint32(16, Number(units & 0xffffffffn), this.little);
      fields = 20;
    }
    v.setUint32(fields, length, this.little);
    v.setUint32(fields + 4, length, this.little);
    let end = at + fields + 8;
    target.set(data, end);
    end += data.length;
    if (payload !== undefined) {
      target.set(payload, end);
      end += payload.length;
    }
    if (this.format === 'pcap') return end;
    const total = this.recordLength(packet);
    target.fill(0, end, at + total - 4);
    v.setUint32(total - 4, total, this.little);
    return at + total;
  }

  /** A whole file of these packets. */
  file(packets: readonly Packet[]): Uint8Array {
    const header = this.header();
    const out = new Uint8Array(packets.reduce((n, p) => n + this.recordLength(p), header.length));
    out.set(header, 0);
    let at = header.length;
    for (const p of packets) at = this.writeRecord(p, out, at);
    return out;
  }

  /** A pcapng block: type, length, `body` bytes (filled by `fill`), length again. */
  private block(type: number, body: number, fill: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
    const b = new Uint8Array(12 + body);
    const v = new DataView(b.buffer);
    v.setUint32(0, type, this.little);
    v.setUint32(4, b.length, this.little);
    fill(v, b);
    v.setUint32(b.length - 4, b.length, this.little);
    return b;
  }
}

/**
 * One TCP connection's segments, numbered as a real stack would: a handshake, data split at
 * `maxSegment` bytes and acknowledged by the peer's next segment, a FIN each way.
 */
export class TcpConversation {
  /** Every segment so far, unless the conversation was made not to keep them. */
  readonly segments: Segment[] = [];
  private clientSeq = 0x10000000;
  private serverSeq = 0x20000000;

  constructor(readonly client: Endpoint, readonly server: Endpoint, private readonly maxSegment = 65483, private readonly keep = true) {}

  /** SYN, SYN-ACK, ACK. */
  open(timeNs: bigint): Segment[] {
    const out = [this.segment(true, TCP_SYN, new Uint8Array(0), timeNs)];
    this.clientSeq++;
    out.push(this.segment(false, TCP_SYN | TCP_ACK, new Uint8Array(0), timeNs));
    this.serverSeq++;
    out.push(this.segment(true, TCP_ACK, new Uint8Array(0), timeNs));
    return out;
  }

  /** The bytes one side sent, as segments. */
  send(fromClient: boolean, bytes: Uint8Array, timeNs: bigint): Segment[] {
    const out: Segment[] = [];
    for (let at = 0; at < bytes.length; at += this.maxSegment) {
      const chunk = bytes.subarray(at, Math.min(bytes.length, at + this.maxSegment));
      out.push(this.segment(fromClient, TCP_PSH | TCP_ACK, chunk, timeNs));
      if (fromClient) this.clientSeq = (this.clientSeq + chunk.length) >>> 0;
      else this.serverSeq = (this.serverSeq + chunk.length) >>> 0;
    }
    return out;
  }

  /** FIN-ACK each way, then the last ACK. */
  close(timeNs: bigint): Segment[] {
    const out = [this.segment(true, TCP_FIN | TCP_ACK, new Uint8Array(0), timeNs)];
    this.clientSeq++;
    out.push(this.segment(false, TCP_FIN | TCP_ACK, new Uint8Array(0), timeNs));
    this.serverSeq++;
    out.push(this.segment(true, TCP_ACK, new Uint8Array(0), timeNs));
    return out;
  }

  private segment(fromClient: boolean, flags: number, payload: Uint8Array, timeNs: bigint): Segment {
    const s: Segment = {
      source: fromClient ? this.client : this.server,
      destination: fromClient ? this.server : this.client,
      seq: fromClient ? this.clientSeq : this.serverSeq,
      ack: fromClient ? this.serverSeq : this.clientSeq,
      flags, payload, timeNs,
    };
    if (this.keep) this.segments.push(s);
    return s;
  }
}
