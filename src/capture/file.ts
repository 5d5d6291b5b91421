// Reads capture files: classic libpcap (either byte order, micro- or nanosecond timestamps) and
// pcapng (any number of sections and interfaces, each with its own link type and timestamp
// resolution). Bytes arrive in chunks (push) or all at once; whole packets come out. No Node
// imports: browsers use it too.
import { KafkaWireError } from '../errors.js';
import { concatBytes } from '../bytes.js';

/** One captured packet: its link-layer bytes and when it was seen. */
export interface CapturedPacket {
  /** 1-based, in file order, as Wireshark numbers packets. */
  number: number;
  /** Nanoseconds since the Unix epoch. */
  timeNs: bigint;
  /** Fraction digits the file's timestamps carry (6 for microseconds, 9 for nanoseconds). */
  timeDigits: number;
  /** LINKTYPE_* of the interface that captured it. */
  linkType: number;
  /** The captured bytes (may be shorter than the packet was: see originalLength). */
  data: Uint8Array;
  originalLength: number;
}

/** The largest block or record the reader accepts; a larger length field is a corrupt file. */
export const MAX_CAPTURE_RECORD = 256 * 1024 * 1024;

const PCAP_MAGIC_MICROS = 0xa1b2c3d4;
const PCAP_MAGIC_NANOS = 0xa1b23c4d;
const PCAPNG_SECTION = 0x0a0d0d0a;
const PCAPNG_BYTE_ORDER = 0x1a2b3c4d;
const PCAPNG_INTERFACE = 1;
const PCAPNG_PACKET_OBSOLETE = 2;
const PCAPNG_SIMPLE_PACKET = 3;
const PCAPNG_ENHANCED_PACKET = 6;
const OPTION_TSRESOL = 9;
const OPTION_TSOFFSET = 14;
const NS_PER_SECOND = 1_000_000_000n;

interface Interface { linkType: number; snapLength: number; unitsPerSecond: bigint; digits: number; offsetNs: bigint }

function fail(code: 'TRUNCATED' | 'INVALID_VALUE' | 'LENGTH_LIMIT', offset: number, path: string, detail: string): never {
  throw new KafkaWireError(code, offset, path, detail);
}

/**
 * A push parser over a capture file. `push` returns the packets completed by that chunk;
 * `end` checks the file did not stop inside a record. Throws KafkaWireError on a corrupt file,
 * naming the file offset and the record.
 */
export class CaptureFileReader {
  private pieces: Uint8Array[] = [];
  private buffered = 0;
  /** File offset of the first buffered byte. */
  private base = 0;
  private format: 'pcap' | 'pcapng' | undefined;
  private little = true;
  private pcapInterface: Interface | undefined;
  private interfaces: Interface[] = [];
  private packets = 0;
  private blocks = 0;
  /** Bytes the next record (or header) needs from the first buffered byte, as far as known. */
  private needed = 0;

  /** The file's format, once its first bytes have been seen. */
  get fileFormat(): 'pcap' | 'pcapng' | undefined {
    return this.format;
  }

  push(chunk: Uint8Array): CapturedPacket[] {
    if (chunk.length === 0) return [];
    this.pieces.push(chunk);
    this.buffered += chunk.length;
    // Pieces are joined only once the next record is whole, so a file fed in small chunks is
    // copied a bounded number of times rather than once per chunk.
    if (this.buffered < this.needed) return [];
    const bytes = concatBytes(this.pieces, this.buffered);
    const out: CapturedPacket[] = [];
    const used = this.parse(bytes, out);
    this.base += used;
    this.buffered -= used;
    this.pieces = this.buffered === 0 ? [] : [bytes.subarray(used)];
    return out;
  }

  end(): void {
    if (this.buffered === 0 && this.format !== undefined) return;
    const what = this.format === undefined ? 'file header' : this.format === 'pcap' ? `packet ${this.packets + 1}` : `block ${this.blocks + 1}`;
    fail('TRUNCATED', this.base, what, `the file ends ${this.buffered} bytes into the ${what}`);
  }

  /** Parses whole records from `bytes` (file offset this.base); returns how many bytes it used. */
  private parse(bytes: Uint8Array, out: CapturedPacket[]): number {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    if (this.format === undefined) {
      this.needed = 4;
      if (bytes.length < 4) return 0;
      const magic = view.getUint32(0, false);
      this.needed = 24;
      if (magic === PCAPNG_SECTION) this.format = 'pcapng';
      else if (this.readPcapHeader(bytes, view) === 0) return 0;
      else at = 24;
    }
    if (this.format === 'pcap') {
      const iface = this.pcapInterface!;
      this.needed = 16;
      while (at + 16 <= bytes.length) {
        const captured = view.getUint32(at + 8, this.little);
        if (captured > MAX_CAPTURE_RECORD) fail('LENGTH_LIMIT', this.base + at + 8, `packet ${this.packets + 1}.capturedLength`, `${captured} bytes is more than a capture record may hold`);
        if (at + 16 + captured > bytes.length) {
          this.needed = 16 + captured;
          break;
        }
        const seconds = BigInt(view.getUint32(at, this.little));
        const fraction = BigInt(view.getUint32(at + 4, this.little));
        out.push({
          number: ++this.packets,
          timeNs: seconds * NS_PER_SECOND + (fraction * NS_PER_SECOND) / iface.unitsPerSecond + iface.offsetNs,
          timeDigits: iface.digits,
          linkType: iface.linkType,
          data: bytes.subarray(at + 16, at + 16 + captured),
          originalLength: view.getUint32(at + 12, this.little),
        });
        at += 16 + captured;
      }
      return at;
    }
    this.needed = 12;
    while (at + 12 <= bytes.length) {
      const type = view.getUint32(at, this.little);
      if (type === PCAPNG_SECTION) {
        // A new section may switch byte order: its byte-order magic says which.
        const magic = view.getUint32(at + 8, true);
        if (magic === PCAPNG_BYTE_ORDER) this.little = true;
        else if (magic === 0x4d3c2b1a) this.little = false;
        else fail('INVALID_VALUE', this.base + at + 8, `block ${this.blocks + 1}.byteOrderMagic`, 'not a pcapng section header');
      }
      const length = view.getUint32(at + 4, this.little);
      const path = `block ${this.blocks + 1}`;
      if (length < 12 || length % 4 !== 0) fail('INVALID_VALUE', this.base + at + 4, `${path}.totalLength`, `${length} is not a pcapng block length`);
      if (length > MAX_CAPTURE_RECORD) fail('LENGTH_LIMIT', this.base + at + 4, `${path}.totalLength`, `${length} bytes is more than a capture block may hold`);
      if (at + length > bytes.length) {
        this.needed = length;
        break;
      }
      if (view.getUint32(at + length - 4, this.little) !== length) {
        fail('INVALID_VALUE', this.base + at + length - 4, `${path}.trailingLength`, 'the block\'s two lengths differ');
      }
      this.blocks++;
      this.readBlock(type, bytes.subarray(at, at + length), this.base + at, path, out);
      at += length;
    }
    return at;
  }

  private readPcapHeader(bytes: Uint8Array, view: DataView): number {
    const le = view.getUint32(0, true);
    const be = view.getUint32(0, false);
    const magic = le === PCAP_MAGIC_MICROS || le === PCAP_MAGIC_NANOS ? le : be;
    if (magic !== PCAP_MAGIC_MICROS && magic !== PCAP_MAGIC_NANOS) {
      fail('INVALID_VALUE', 0, 'file header.magic', 'neither a pcap nor a pcapng file');
    }
    if (bytes.length < 24) return 0;
    this.format = 'pcap';
    this.little = magic === le;
    const nanos = magic === PCAP_MAGIC_NANOS;
    this.pcapInterface = {
      // The upper bits of the link type field carry FCS information, not the type.
      linkType: view.getUint32(20, this.little) & 0x0fffffff,
      snapLength: view.getUint32(16, this.little),
      unitsPerSecond: nanos ? NS_PER_SECOND : 1_000_000n,
      digits: nanos ? 9 : 6,
      offsetNs: BigInt(view.getInt32(8, this.little)) * NS_PER_SECOND,
    };
    return 24;
  }

  private readBlock(type: number, block: Uint8Array, offset: number, path: string, out: CapturedPacket[]): void {
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    const little = this.little;
    const need = (n: number, what: string) => {
      if (block.length < n) fail('TRUNCATED', offset, `${path}.${what}`, `a ${what} block needs at least ${n} bytes, this one has ${block.length}`);
    };
    switch (type) {
      case PCAPNG_SECTION:
        need(28, 'section header');
        this.interfaces = [];
        return;
      case PCAPNG_INTERFACE: {
        need(20, 'interface');
        const iface: Interface = { linkType: view.getUint16(8, little), snapLength: view.getUint32(12, little), unitsPerSecond: 1_000_000n, digits: 6, offsetNs: 0n };
        this.readOptions(block, view, 16, offset, path, (code, value) => {
          if (code === OPTION_TSRESOL && value.length >= 1) {
            const exponent = value[0] & 0x7f;
            if (exponent > 30) fail('INVALID_VALUE', offset, `${path}.if_tsresol`, `resolution 2^-${exponent} or 10^-${exponent} is out of range`);
            const binary = (value[0] & 0x80) !== 0;
            iface.unitsPerSecond = binary ? 1n << BigInt(exponent) : 10n ** BigInt(exponent);
            iface.digits = binary ? 9 : Math.min(9, exponent);
          } else if (code === OPTION_TSOFFSET && value.length >= 8) {
            iface.offsetNs = new DataView(value.buffer, value.byteOffset, 8).getBigInt64(0, little) * NS_PER_SECOND;
          }
        });
        this.interfaces.push(iface);
        return;
      }
      case PCAPNG_ENHANCED_PACKET:
      case PCAPNG_PACKET_OBSOLETE: {
        need(32, 'packet');
        const enhanced = type === PCAPNG_ENHANCED_PACKET;
        const id = enhanced ? view.getUint32(8, little) : view.getUint16(8, little);
        const iface = this.interfaces[id];
        if (iface === undefined) fail('INVALID_VALUE', offset + 8, `${path}.interfaceId`, `no interface ${id} in this section`);
        const captured = view.getUint32(20, little);
        if (28 + captured > block.length - 4) fail('INVALID_VALUE', offset + 20, `${path}.capturedLength`, `${captured} bytes do not fit in the block`);
        const units = (BigInt(view.getUint32(12, little)) << 32n) | BigInt(view.getUint32(16, little));
        out.push({
          number: ++this.packets,
          timeNs: (units * NS_PER_SECOND) / iface.unitsPerSecond + iface.offsetNs,
          timeDigits: iface.digits,
          linkType: iface.linkType,
          data: block.subarray(28, 28 + captured),
          originalLength: view.getUint32(24, little),
        });
        return;
      }
      case PCAPNG_SIMPLE_PACKET: {
        need(16, 'simple packet');
        const iface = this.interfaces[0];
        if (iface === undefined) fail('INVALID_VALUE', offset, path, 'a simple packet block before any interface');
        const original = view.getUint32(8, little);
        let captured = Math.min(original, block.length - 16);
        if (iface.snapLength > 0) captured = Math.min(captured, iface.snapLength);
        // Simple packets carry no timestamp.
        out.push({ number: ++this.packets, timeNs: 0n, timeDigits: iface.digits, linkType: iface.linkType, data: block.subarray(12, 12 + captured), originalLength: original });
        return;
      }
      default:
        // Name resolution, statistics, custom and unknown blocks carry no packets.
        return;
    }
  }

  private readOptions(block: Uint8Array, view: DataView, start: number, offset: number, path: string, each: (code: number, value: Uint8Array) => void): void {
    const end = block.length - 4;
    for (let at = start; at + 4 <= end;) {
      const code = view.getUint16(at, this.little);
      const length = view.getUint16(at + 2, this.little);
      if (code === 0) return;
      if (at + 4 + length > end) fail('TRUNCATED', offset + at, `${path}.option ${code}`, `option length ${length} runs past the block`);
      each(code, block.subarray(at + 4, at + 4 + length));
      at += 4 + ((length + 3) & ~3);
    }
  }
}

/** Every packet of a whole capture file in memory. */
export function* capturedPackets(bytes: Uint8Array): Generator<CapturedPacket> {
  const reader = new CaptureFileReader();
  yield* reader.push(bytes);
  reader.end();
}
