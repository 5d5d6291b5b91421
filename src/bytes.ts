// Joining byte pieces (one implementation for the frame splitter, decompression and the memory
// broker) and reading little-endian headers. No Node imports (browsers use it too).

// In Node, memory from Buffer.allocUnsafeSlow is not zero-filled first (most of the cost of a
// large frame) and, unlike Buffer.concat's, never comes from the shared pool, so a result's
// .buffer holds only its own bytes; elsewhere a plain Uint8Array.
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }).Buffer;

/**
 * The pieces as one plain Uint8Array of `total` bytes (their summed length). A single piece is
 * returned as it is, without a copy.
 */
export function concatBytes(pieces: readonly Uint8Array[], total: number): Uint8Array {
  if (pieces.length === 1 && pieces[0].length === total) return pieces[0];
  // A plain Uint8Array either way (a Buffer differs in equality and methods).
  const out = NodeBuffer !== undefined ? new Uint8Array(NodeBuffer.allocUnsafeSlow(total).buffer, 0, total) : new Uint8Array(total);
  let filled = 0;
  for (const piece of pieces) {
    out.set(piece, filled);
    filled += piece.length;
  }
  return out;
}

/** The unsigned little-endian 32-bit integer at src[p] (gzip trailers, zstd headers). */
export function le32(src: Uint8Array, p: number): number {
  return (src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24)) >>> 0;
}
