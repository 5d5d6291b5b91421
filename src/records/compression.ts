// Compression codecs for record batches, for Node and browsers alike: gzip (Node's zlib where
// present, else fflate), snappy (WebAssembly, xerial-framed or raw), lz4 (WebAssembly, LZ4 frame
// format), zstd (./zstd.ts: Node's zlib, the reference library in WebAssembly, or fzstd).
// Every decoder enforces a maximum decompressed size.
import { Gunzip, gunzipSync, gzipSync } from 'fflate';
import { recordsError, RecordsError, tooLarge } from './errors.js';
import { COMPRESSION_NAMES, type CompressionName, type CompressOptions } from './types.js';
import { wasm, mem, alloc, top, setTop, copyIn, statusError, crc32 } from '../wasm/records-module.js';
import { nodeZlib, zstdCompress, zstdDecompress, zstdLevel } from './zstd.js';
import { concatBytes, le32 } from '../bytes.js';

export const DEFAULT_MAX_DECOMPRESSED = 64 * 1024 * 1024;

/**
 * Decompresses `src` with codec 1-4 into a new JS-owned buffer of at most `limit` bytes.
 * `legacyLz4` accepts the broken LZ4 header checksum of Kafka's magic 0 messages.
 * `at` and `path` locate `src` for error reporting.
 */
export function decompressAt(codec: number, src: Uint8Array, limit: number, at: number, path: string, legacyLz4 = false): Uint8Array {
  switch (codec) {
    case 1: return gunzip(src, limit, at, path);
    case 2: return wasmDecode(src, limit, at, path, false, false);
    case 3: return wasmDecode(src, limit, at, path, true, legacyLz4);
    case 4: return zstdDecompress(src, limit, at, path);
    default: throw recordsError('UNSUPPORTED_COMPRESSION', at, path, `unsupported compression codec ${codec}`);
  }
}

function wasmDecode(src: Uint8Array, limit: number, at: number, path: string, lz4: boolean, legacy: boolean): Uint8Array {
  wasm(); // instantiated before the arena top is read: this may be the process's first records call
  const mark = top;
  try {
    const [dst, n] = decompressInWasm(lz4, copyIn(src), src.length, limit, at, path, legacy);
    return mem().slice(dst, dst + n);
  } finally {
    setTop(mark);
  }
}

/**
 * Decompresses snappy or lz4 (`lz4`) data already in WebAssembly memory at [sp, sp + length)
 * into the arena, which it leaves above the output; returns the output's address and length.
 * The caller restores the arena top.
 */
export function decompressInWasm(lz4: boolean, sp: number, length: number, limit: number, at: number, path: string,
  legacy = false): [address: number, length: number] {
  const w = wasm();
  const dst = alloc(0);
  const cap = Math.min(limit, 0x7fff_0000 - dst);
  let n: number;
  try {
    n = lz4 ? w.lz4Decode(sp, length, dst, cap, legacy ? 1 : 0) : w.snappyDecode(sp, length, dst, cap);
  } catch (thrown) {
    const e = statusError(thrown);
    throw recordsError(e.code, at + Math.max(0, e.offset), path,
      e.code === 'DECOMPRESSED_TOO_LARGE' ? `decompressed size exceeds the maximum of ${limit} bytes` :
        `${lz4 ? 'lz4' : 'snappy'}: ${e.code === 'CHECKSUM_MISMATCH' ? 'checksum mismatch' : 'corrupt compressed data'} (at byte ${e.offset} of the compressed data)`);
  }
  setTop(dst + n);
  return [dst, n];
}

function gunzip(src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  if (nodeZlib !== undefined) return gunzipNode(nodeZlib, src, limit, at, path);
  return gunzipFast(src, limit) ?? gunzipStream(src, limit, at, path);
}

function gunzipNode(zlib: typeof import('node:zlib'), src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  let out: Uint8Array;
  try {
    out = zlib.gunzipSync(src, { maxOutputLength: Math.max(limit, 1) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit, at, path);
    const message = (error as Error).message;
    // zlib's words for a trailer whose CRC-32 or size disagrees with the inflated data.
    const code = /incorrect (data|length) check/.test(message) ? 'CHECKSUM_MISMATCH' : 'CORRUPT_COMPRESSED_DATA';
    throw recordsError(code, at, path, `gzip: ${message}`);
  }
  if (out.length > limit) throw tooLarge(limit, at, path);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/**
 * Fast path for the common case, a single gzip member: inflate into a buffer of the trailer's
 * size + 1 (fflate never grows it), then check size and CRC-32. Taken only when the input is small
 * enough that even a forged trailer bounds the work (deflate expands at most ~1032:1) and no
 * second member can start (no 1f 8b 08 after the first header). Returns undefined to fall back.
 */
function gunzipFast(src: Uint8Array, limit: number): Uint8Array | undefined {
  const n = src.length;
  if (n < 18 || n * 1032 > 4 * limit || src[0] !== 0x1f || src[1] !== 0x8b) return undefined;
  const crc = le32(src, n - 8);
  const size = le32(src, n - 4);
  if (size > limit) return undefined;
  for (let i = src.indexOf(0x1f, 10); i >= 0 && i < n - 10; i = src.indexOf(0x1f, i + 1)) {
    if (src[i + 1] === 0x8b && src[i + 2] === 0x08) return undefined;
  }
  let out: Uint8Array;
  try {
    // One spare byte: a stream that inflates to more than the trailer says shows up as size + 1.
    out = gunzipSync(src, { out: new Uint8Array(size + 1) });
  } catch {
    return undefined;
  }
  if (out.length !== size || crc32(out) !== crc) return undefined;
  return out;
}

function gunzipStream(src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let members = 0;
  let failure: RecordsError | undefined;
  const stream = new Gunzip((chunk) => {
    if (failure) return;
    total += chunk.length;
    if (total > limit) failure = tooLarge(limit, at, path);
    else chunks.push(chunk);
  });
  stream.onmember = () => { members++; };
  // Feed small slices: deflate expands at most ~1032:1, so each push bounds the memory that can
  // be produced before the limit is checked.
  const step = Math.max(1024, Math.min(65536, Math.floor(limit / 1032)));
  try {
    if (src.length === 0) throw new Error('empty gzip stream');
    for (let i = 0; i < src.length && !failure; i += step) {
      const end = Math.min(src.length, i + step);
      stream.push(src.subarray(i, end), end === src.length);
    }
  } catch (e) {
    if (e instanceof RecordsError) throw e;
    if (failure) throw failure;
    throw recordsError('CORRUPT_COMPRESSED_DATA', at, path, `gzip: ${(e as Error).message}`);
  }
  if (failure) throw failure;
  const out = concatBytes(chunks, total);
  if (members === 0) {
    // Single member: check the trailer (CRC-32 and size of the output), as GZIPInputStream does.
    const n = src.length;
    const t = le32(src, n - 8);
    const size = le32(src, n - 4);
    if (n < 18 || size !== out.length % 4294967296 || t !== crc32(out)) {
      throw recordsError('CHECKSUM_MISMATCH', at + Math.max(0, n - 8), path, 'gzip: trailer checksum or size mismatch');
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Compression

export const DEFAULT_GZIP_LEVEL = 6;

/** The gzip level, checked: an integer from 0 (stored) to 9 (smallest). */
function gzipLevel(level: number | undefined): number {
  const l = level ?? DEFAULT_GZIP_LEVEL;
  if (!Number.isInteger(l) || l < 0 || l > 9) {
    throw recordsError('INVALID_ARGUMENT', -1, 'gzipLevel', `gzip level must be an integer from 0 to 9, got ${String(level)}`);
  }
  return l;
}

/** gzip (level checked) and zstd, which run on JS-owned bytes: native zlib, fflate or zstd's own wasm. */
function compressOutsideWasm(codec: number, data: Uint8Array, options: CompressOptions): Uint8Array {
  if (codec === 1) {
    const level = gzipLevel(options.gzipLevel);
    if (nodeZlib !== undefined) {
      const out = nodeZlib.gzipSync(data, { level });
      return new Uint8Array(out.buffer, out.byteOffset, out.length);
    }
    return gzipSync(data, { level: level as 6, mtime: 0 });
  }
  return zstdCompress(data, zstdLevel(options.zstdLevel));
}

/**
 * Compresses [src, src+len) of WebAssembly memory with codec 1-4, writing the result at the arena
 * top. Returns [address, length]; the caller owns the arena above its own mark.
 */
export function compressInWasm(codec: number, src: number, len: number, options: CompressOptions): [number, number] {
  const w = wasm();
  if (codec === 2 || codec === 3) {
    const xerial = options.snappyFraming !== 'raw';
    const dst = alloc(codec === 2 ? w.snappyMaxEncoded(len, xerial ? 1 : 0) : w.lz4MaxFrame(len));
    try {
      return [dst, codec === 2 ? w.snappyEncode(src, len, dst, xerial ? 1 : 0) : w.lz4Encode(src, len, dst)];
    } catch (thrown) {
      throw statusError(thrown);
    }
  }
  if (codec !== 1 && codec !== 4) throw recordsError('UNSUPPORTED_COMPRESSION', -1, 'compression', `unsupported compression codec ${codec}`);
  // A view is enough: these compressors return new buffers and never touch this module's memory.
  const out = compressOutsideWasm(codec, mem().subarray(src, src + len), options);
  const dst = alloc(out.length);
  mem().set(out, dst);
  return [dst, out.length];
}

/** A codec's number (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd) from its name or number; `none` only when allowed. */
export function codecNumber(codec: CompressionName | number, allowNone: boolean, path = ''): number {
  const c = typeof codec === 'number' ? codec : COMPRESSION_NAMES.indexOf(codec);
  if (!((c | 0) === c && c >= (allowNone ? 0 : 1) && c <= 4)) {
    throw recordsError('UNSUPPORTED_COMPRESSION', -1, path, `unsupported compression codec ${String(codec)}`);
  }
  return c;
}

/**
 * Decompresses a buffer compressed with a Kafka codec (gzip, snappy raw or xerial, lz4 frame,
 * zstd) into a new buffer. Throws RecordsError (DECOMPRESSED_TOO_LARGE) beyond the maximum.
 */
export function decompress(codec: CompressionName | number, data: Uint8Array,
  options: { maxDecompressedBytes?: number; legacyLz4HeaderChecksum?: boolean } = {}): Uint8Array {
  return decompressAt(codecNumber(codec, false), data, options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED, 0, '',
    options.legacyLz4HeaderChecksum === true);
}

/**
 * Compresses a buffer with a Kafka codec (what encodeRecordBatch does to the records section).
 * zstd needs `await initZstd()` once first, except where Node's zlib has zstd.
 */
export function compress(codec: CompressionName | number, data: Uint8Array, options: CompressOptions = {}): Uint8Array {
  const c = codecNumber(codec, false);
  // gzip and zstd do not run in the records module: no trip through its memory.
  if (c === 1 || c === 4) return compressOutsideWasm(c, data, options);
  wasm();
  const mark = top;
  try {
    const p = copyIn(data);
    const [dst, n] = compressInWasm(c, p, data.length, options);
    return mem().slice(dst, dst + n);
  } finally {
    setTop(mark);
  }
}
