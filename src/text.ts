// Strings and uuids at the JS edge. Kafka's strings are mostly short ASCII names, for which a
// plain loop beats TextDecoder/TextEncoder's call overhead; anything else goes to them.

const decoder = new TextDecoder();
// Tables built at load time are marked pure, so bundles leave out those their code never reads.
const encoder = /* @__PURE__ */ new TextEncoder();

/** Decodes UTF-8 already validated by the scan. */
export function decodeUtf8(bytes: Uint8Array, offset: number, length: number): string {
  if (length > 64) return decoder.decode(bytes.subarray(offset, offset + length));
  // ASCII eight characters per fromCharCode call: ~3x faster than one per character for a
  // 25-byte topic name, and than TextDecoder's call overhead.
  const end = offset + length;
  let out = '';
  let i = offset;
  for (; i + 8 <= end; i += 8) {
    const b0 = bytes[i], b1 = bytes[i + 1], b2 = bytes[i + 2], b3 = bytes[i + 3];
    const b4 = bytes[i + 4], b5 = bytes[i + 5], b6 = bytes[i + 6], b7 = bytes[i + 7];
    if ((b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7) & 0x80) return decoder.decode(bytes.subarray(offset, end));
    out += String.fromCharCode(b0, b1, b2, b3, b4, b5, b6, b7);
  }
  for (; i < end; i++) {
    const b = bytes[i];
    if (b & 0x80) return decoder.decode(bytes.subarray(offset, end));
    out += String.fromCharCode(b);
  }
  return out;
}

/** Writes `text` as UTF-8 at `offset` (room for 3 bytes per UTF-16 unit is the caller's); returns its length. */
export function encodeUtf8Into(text: string, out: Uint8Array, offset: number): number {
  const n = text.length;
  if (n <= 64) {
    let i = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      out[offset + i] = c;
    }
    if (i === n) return n;
  }
  return encoder.encodeInto(text, out.subarray(offset)).written;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const CODES = Uint8Array.from(ALPHABET, (ch) => ch.charCodeAt(0));
/** Each base64url character's value, -1 for the rest of ASCII. */
const VALUES = /* @__PURE__ */ (() => {
  const values = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) values[ALPHABET.charCodeAt(i)] = i;
  return values;
})();

/** Kafka's Uuid.toString: 16 bytes as unpadded base64url, 22 characters. */
export function bytesToBase64Url(bytes: Uint8Array, offset: number): string {
  // One fromCharCode call: a single flat string, no intermediate ones (in a large decode, fewer
  // allocations mean fewer scavenges copying the half-built result).
  const c = CODES;
  const b = bytes;
  const o = offset;
  const n0 = (b[o] << 16) | (b[o + 1] << 8) | b[o + 2];
  const n1 = (b[o + 3] << 16) | (b[o + 4] << 8) | b[o + 5];
  const n2 = (b[o + 6] << 16) | (b[o + 7] << 8) | b[o + 8];
  const n3 = (b[o + 9] << 16) | (b[o + 10] << 8) | b[o + 11];
  const n4 = (b[o + 12] << 16) | (b[o + 13] << 8) | b[o + 14];
  const last = b[o + 15];
  return String.fromCharCode(
    c[n0 >> 18], c[(n0 >> 12) & 63], c[(n0 >> 6) & 63], c[n0 & 63],
    c[n1 >> 18], c[(n1 >> 12) & 63], c[(n1 >> 6) & 63], c[n1 & 63],
    c[n2 >> 18], c[(n2 >> 12) & 63], c[(n2 >> 6) & 63], c[n2 & 63],
    c[n3 >> 18], c[(n3 >> 12) & 63], c[(n3 >> 6) & 63], c[n3 & 63],
    c[n4 >> 18], c[(n4 >> 12) & 63], c[(n4 >> 6) & 63], c[n4 & 63],
    c[last >> 2], c[(last & 3) << 4],
  );
}

/** The inverse of bytesToBase64Url; false when `text` is not a 22-character base64url uuid. */
export function base64UrlToBytes(text: string, out: Uint8Array, offset: number): boolean {
  if (text.length !== 22) return false;
  let bits = 0;
  let acc = 0;
  let o = offset;
  for (let i = 0; i < 22; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUES[c] : -1;
    if (v < 0) return false;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // The last character carries 2 bits of data and 4 that must be zero.
  return (acc & ((1 << bits) - 1)) === 0;
}

const HEX: readonly string[] = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** One byte as two lowercase hex digits. */
export function hexByte(b: number): string {
  return HEX[b];
}

// Node's Buffer writes hex natively (about 10x a string built digit by digit); elsewhere each
// byte's two digits are written as one 16-bit unit and decoded as Latin-1 in one call.
const NodeBuffer = (globalThis as { Buffer?: { from(buffer: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'hex'): string } } }).Buffer;
/** Each byte's two hex digits as one little-endian 16-bit unit: the first digit in the low byte. */
export const HEX_PAIRS = /* @__PURE__ */ Uint16Array.from(HEX, (pair) => pair.charCodeAt(0) | (pair.charCodeAt(1) << 8));
const latin1 = typeof TextDecoder === 'undefined' ? undefined : /* @__PURE__ */ new TextDecoder('latin1');
/** Below this many bytes a plain loop is quicker than either call. */
const SHORT_HEX = 32;

export function toHex(bytes: Uint8Array): string {
  if (bytes.length >= SHORT_HEX) {
    if (NodeBuffer !== undefined) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
    if (latin1 !== undefined) {
      const pairs = new Uint16Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) pairs[i] = HEX_PAIRS[bytes[i]];
      return latin1.decode(pairs);
    }
  }
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

export function fromHex(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(i * 2, 2), 16);
  return out;
}
