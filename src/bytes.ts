// Joining and searching byte pieces (one implementation for the frame splitter, decompression and the memory
// broker), and reading the integers of Kafka's frames (big-endian) and of gzip and zstd headers
// (little-endian) straight from bytes. No Node imports (browsers use it too).

// In Node, memory from Buffer.allocUnsafeSlow is not zero-filled first (most of the cost of a
// large frame) and, unlike Buffer.concat's, never comes from the shared pool, so a result's
// .buffer holds only its own bytes; elsewhere a plain Uint8Array.
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }).Buffer;
const NodeBufferIndexOf = (globalThis as { Buffer?: { prototype: { indexOf(this: Uint8Array, value: number | Uint8Array, from: number): number } } }).Buffer?.prototype.indexOf;

/** `size` bytes for the caller to fill: a plain Uint8Array either way (a Buffer differs in equality and methods). */
export function allocateBytes(size: number): Uint8Array {
  return NodeBuffer !== undefined ? new Uint8Array(NodeBuffer.allocUnsafeSlow(size).buffer, 0, size) : new Uint8Array(size);
}

/** A copy of `bytes` in memory of its own (a Buffer's slice() would be a view of the same memory). */
export function copyBytes(bytes: Uint8Array): Uint8Array {
  const out = allocateBytes(bytes.length);
  out.set(bytes);
  return out;
}

/**
 * The pieces as one plain Uint8Array of `total` bytes (their summed length). A single piece is
 * returned as it is, without a copy.
 */
export function concatBytes(pieces: readonly Uint8Array[], total: number): Uint8Array {
  if (pieces.length === 1 && pieces[0].length === total) return pieces[0];
  const out = allocateBytes(total);
  let filled = 0;
  for (const piece of pieces) {
    out.set(piece, filled);
    filled += piece.length;
  }
  return out;
}

/**
 * Where `needle` (not empty) first occurs in `hay` at or after `from`, or -1: in Node by
 * Buffer's indexOf on the same memory (memchr, a SIMD search), elsewhere by searchBytes().
 */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  return NodeBufferIndexOf !== undefined ? NodeBufferIndexOf.call(hay, needle.length === 1 ? needle[0]! : needle, from) : searchBytes(hay, needle, from);
}

/** indexOfBytes() without Node: TypedArray indexOf for the first byte, then a comparison. */
export function searchBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const last = hay.length - needle.length;
  for (let at = hay.indexOf(first, from); at >= 0 && at <= last; at = hay.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.length && hay[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

/** The signed big-endian 16-bit integer at src[p] (the caller has checked p + 2 <= src.length). */
export function be16(src: Uint8Array, p: number): number {
  return ((src[p] << 24) | (src[p + 1] << 16)) >> 16;
}

/** The signed big-endian 32-bit integer at src[p] (the caller has checked p + 4 <= src.length). */
export function be32(src: Uint8Array, p: number): number {
  return (src[p] << 24) | (src[p + 1] << 16) | (src[p + 2] << 8) | src[p + 3];
}

/** The unsigned little-endian 32-bit integer at src[p] (gzip trailers, zstd headers). */
export function le32(src: Uint8Array, p: number): number {
  return (src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24)) >>> 0;
}

/** Buffers a ByteSink keeps for reuse: enough for writes still queued on a stream. */
const MAX_SPARE = 4;

/**
 * Output gathered into large buffers that are handed out whole (take) and, once written, given
 * back (release) to be filled again: fresh buffers cost page faults and, in V8, collections
 * driven by external memory.
 */
export class ByteSink {
  protected bytes: Uint8Array;
  protected view: DataView;
  /** Bytes gathered since the last take(). */
  length = 0;
  private readonly spare: Uint8Array[] = [];

  constructor(private readonly capacity = 1 << 16) {
    this.bytes = allocateBytes(capacity);
    this.view = new DataView(this.bytes.buffer);
  }

  /** What was gathered since the last take(), as its own bytes; gathering goes on in another buffer. */
  take(): Uint8Array {
    const out = this.bytes.subarray(0, this.length);
    this.bytes = this.spare.pop() ?? allocateBytes(this.capacity);
    this.view = new DataView(this.bytes.buffer);
    this.length = 0;
    return out;
  }

  /** Bytes from take() that are no longer needed. */
  release(taken: Uint8Array): void {
    if (taken.buffer.byteLength === this.capacity && this.spare.length < MAX_SPARE) this.spare.push(new Uint8Array(taken.buffer, 0, this.capacity));
  }

  /** At least `n` more bytes of space. */
  protected room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = allocateBytes(Math.max(2 * this.bytes.length, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }
}
