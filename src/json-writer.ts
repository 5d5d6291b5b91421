// JSON text written straight into UTF-8 bytes, for output too large to build as strings first
// (`kafka-wire pcap`, the recording proxy): the same text JSON.stringify gives for the same
// value, except that a Uint8Array is written as a string of lowercase hex (the JSON form of bytes)
// and a bigint as a decimal string. Hex never exists as a JS string and the line is never
// re-encoded from UTF-16. No Node imports: browsers use it too.
import { ByteSink } from './bytes.js';
import { HEX_PAIRS } from './text.js';

/** The four hex digits of two bytes (big-endian index) as one little-endian 32-bit unit (256 KiB). */
const HEX_QUADS = new Uint32Array(65536);
for (let i = 0; i < 65536; i++) HEX_QUADS[i] = HEX_PAIRS[i >> 8] | (HEX_PAIRS[i & 255] << 16);
/** From this many bytes on, hex is written four bytes per step (about 3x faster than one). */
const WIDE_HEX = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const NEWLINE = 0x0a;

const encoder = new TextEncoder();
/** A ByteSink that writes JSON values into its buffers. */
export class JsonWriter extends ByteSink {
  newline(): void {
    this.room(1);
    this.bytes[this.length++] = NEWLINE;
  }

  /** `value` as JSON.stringify writes it (Uint8Array as hex, bigint as decimal string); undefined writes nothing. */
  value(value: unknown): void {
    switch (typeof value) {
      case 'string': this.string(value); return;
      case 'number': this.ascii(Number.isFinite(value) ? String(value) : 'null'); return;
      case 'boolean': this.ascii(value ? 'true' : 'false'); return;
      case 'bigint': this.room(1); this.bytes[this.length++] = QUOTE; this.ascii(value.toString()); this.room(1); this.bytes[this.length++] = QUOTE; return;
      case 'object': break;
      default: return;
    }
    if (value === null) this.ascii('null');
    else if (value instanceof Uint8Array) this.hex(value);
    else if (Array.isArray(value)) this.array(value);
    else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') this.value((value as { toJSON(): unknown }).toJSON());
    else this.object(value as Record<string, unknown>);
  }

  private object(o: Record<string, unknown>): void {
    this.room(1);
    this.bytes[this.length++] = 0x7b;
    let first = true;
    for (const key in o) {
      if (!Object.prototype.hasOwnProperty.call(o, key)) continue;
      const v = o[key];
      // JSON.stringify leaves out what it cannot write as a member's value.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      if (!first) { this.room(1); this.bytes[this.length++] = COMMA; }
      first = false;
      this.string(key);
      this.room(1);
      this.bytes[this.length++] = COLON;
      this.value(v);
    }
    this.room(1);
    this.bytes[this.length++] = 0x7d;
  }

  private array(a: readonly unknown[]): void {
    this.room(1);
    this.bytes[this.length++] = 0x5b;
    for (let i = 0; i < a.length; i++) {
      if (i > 0) { this.room(1); this.bytes[this.length++] = COMMA; }
      const v = a[i];
      // ... and writes it as null in an array.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') this.ascii('null');
      else this.value(v);
    }
    this.room(1);
    this.bytes[this.length++] = 0x5d;
  }

  /** A quoted string: printable ASCII copied as it is, anything else through JSON.stringify and UTF-8. */
  private string(s: string): void {
    const n = s.length;
    this.room(n + 2);
    const bytes = this.bytes;
    const start = this.length;
    let at = start;
    bytes[at++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c >= 0x7f || c === QUOTE || c === BACKSLASH) {
        // Escapes, non-ASCII, lone surrogates: JSON.stringify's own rules, then its UTF-8.
        const quoted = JSON.stringify(s);
        this.room(3 * quoted.length);
        this.length = start + encoder.encodeInto(quoted, this.bytes.subarray(start)).written;
        return;
      }
      bytes[at++] = c;
    }
    bytes[at++] = QUOTE;
    this.length = at;
  }

  /** Bytes as a quoted string of hex: eight digits per step, then two. */
  private hex(b: Uint8Array): void {
    const n = b.length;
    this.room(2 * n + 2);
    const view = this.view;
    let at = this.length;
    this.bytes[at++] = QUOTE;
    let i = 0;
    if (n >= WIDE_HEX) {
      const source = new DataView(b.buffer, b.byteOffset, n);
      for (; i + 4 <= n; i += 4, at += 8) {
        const word = source.getUint32(i);
        view.setUint32(at, HEX_QUADS[word >>> 16], true);
        view.setUint32(at + 4, HEX_QUADS[word & 0xffff], true);
      }
    }
    for (; i < n; i++, at += 2) view.setUint16(at, HEX_PAIRS[b[i]], true);
    this.bytes[at++] = QUOTE;
    this.length = at;
  }

  /** Text known to be ASCII without escapes (numbers, literals). */
  private ascii(s: string): void {
    const n = s.length;
    this.room(n);
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) bytes[this.length + i] = s.charCodeAt(i);
    this.length += n;
  }
}
