// Compression codecs for record batches, all pure JS/WebAssembly (Node and browsers):
// gzip (fflate), snappy (WebAssembly, xerial-framed or raw), lz4 (WebAssembly, LZ4 frame format),
// zstd (fzstd for decoding; encoding writes a valid zstd frame of raw/RLE blocks, i.e. no actual
// entropy compression). Every decoder enforces a maximum decompressed size.
import { Gunzip, gunzipSync, gzipSync } from 'fflate';
import { Decompress as ZstdDecompress } from 'fzstd';
import { recordsError, RecordsError } from './errors.js';
import { COMPRESSION_NAMES, type CompressionName } from './types.js';
import { wasm, mem, alloc, top, setTop, copyIn, statusError, crc32 } from '../wasm/records-module.js';
import { concatBytes } from '../bytes.js';

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
    case 4: return unzstd(src, limit, at, path);
    default: throw recordsError('UNSUPPORTED_COMPRESSION', at, path, `unsupported compression codec ${codec}`);
  }
}

function wasmDecode(src: Uint8Array, limit: number, at: number, path: string, lz4: boolean, legacy: boolean): Uint8Array {
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
  const n = lz4 ? w.lz4Decode(sp, length, dst, cap, legacy ? 1 : 0) : w.snappyDecode(sp, length, dst, cap);
  if (n < 0) {
    const e = statusError('', 0);
    throw recordsError(e.code, at + Math.max(0, e.offset), path,
      e.code === 'DECOMPRESSED_TOO_LARGE' ? `decompressed size exceeds the maximum of ${limit} bytes` :
        `${lz4 ? 'lz4' : 'snappy'}: ${e.code === 'CHECKSUM_MISMATCH' ? 'checksum mismatch' : 'corrupt compressed data'} (at byte ${e.offset} of the compressed data)`);
  }
  setTop(dst + n);
  return [dst, n];
}

function tooLarge(limit: number, at: number, path: string): RecordsError {
  return recordsError('DECOMPRESSED_TOO_LARGE', at, path, `decompressed size exceeds the maximum of ${limit} bytes`);
}

// Node's zlib is native and several times faster than fflate at inflating; browsers (and any
// host without process.getBuiltinModule) take fflate. Reached without a static import, so
// browser bundles never see node:zlib.
const nodeZlib = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } })
  .process?.getBuiltinModule?.('node:zlib') as typeof import('node:zlib') | undefined;

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

/** The unsigned little-endian 32-bit integer at src[p] (gzip trailers, zstd headers). */
function le32(src: Uint8Array, p: number): number {
  return (src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24)) >>> 0;
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

/** Validates every zstd frame header and block boundary before fzstd allocates anything. */
function zstdPrescan(src: Uint8Array, limit: number, at: number, path: string): void {
  const bad = (p: number, why: string) => recordsError('CORRUPT_COMPRESSED_DATA', at + p, path, `zstd: ${why}`);
  const maxWindow = Math.max(limit, 8 * 1024 * 1024);
  let p = 0;
  if (src.length === 0) throw bad(0, 'empty input');
  while (p < src.length) {
    if (src.length - p < 4) throw bad(p, 'truncated frame');
    const magic = le32(src, p);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      if (src.length - p < 8) throw bad(p, 'truncated skippable frame');
      const size = le32(src, p + 4);
      if (size > src.length - p - 8) throw bad(p, 'truncated skippable frame');
      p += 8 + size;
      continue;
    }
    if (magic !== 0xfd2fb528) throw bad(p, 'bad frame magic');
    if (src.length - p < 6) throw bad(p, 'truncated frame header');
    const fhd = src[p + 4];
    const fcsFlag = fhd >> 6;
    const single = (fhd >> 5) & 1;
    if (fhd & 8) throw bad(p + 4, 'reserved bit set');
    const checksum = (fhd >> 2) & 1;
    let q = p + 5;
    let window = 0;
    if (!single) {
      const wd = src[q++];
      const wb = 2 ** (10 + (wd >> 3));
      window = wb + (wb / 8) * (wd & 7);
    }
    q += [0, 1, 2, 4][fhd & 3];
    const fcsBytes = fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag];
    if (q + fcsBytes > src.length) throw bad(p, 'truncated frame header');
    let fcs = -1;
    if (fcsBytes) {
      fcs = 0;
      for (let i = fcsBytes - 1; i >= 0; i--) fcs = fcs * 256 + src[q + i];
      if (fcsBytes === 2) fcs += 256;
    }
    q += fcsBytes;
    if (single) window = fcs;
    if (fcs > limit) throw tooLarge(limit, at, path);
    if (window > maxWindow) throw tooLarge(limit, at, path);
    for (;;) {
      if (q + 3 > src.length) throw bad(q, 'truncated block header');
      const bh = src[q] | (src[q + 1] << 8) | (src[q + 2] << 16);
      const last = bh & 1;
      const type = (bh >> 1) & 3;
      const size = bh >>> 3;
      if (type === 3) throw bad(q, 'reserved block type');
      const body = type === 1 ? 1 : size;
      if (size > 131072 || q + 3 + body > src.length) throw bad(q, 'block exceeds the data');
      q += 3 + body;
      if (last) break;
    }
    if (checksum) q += 4;
    if (q > src.length) throw bad(q, 'truncated checksum');
    p = q;
  }
}

function unzstd(src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  zstdPrescan(src, limit, at, path);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new ZstdDecompress((chunk) => {
    total += chunk.length;
    if (total > limit) throw tooLarge(limit, at, path);
    chunks.push(chunk.slice());
  });
  try {
    stream.push(src, true);
  } catch (e) {
    if (e instanceof RecordsError) throw e;
    throw recordsError('CORRUPT_COMPRESSED_DATA', at, path, `zstd: ${(e as Error).message}`);
  }
  return concatBytes(chunks, total);
}

// ---------------------------------------------------------------------------------------------
// Compression

/**
 * Compresses [src, src+len) of WebAssembly memory with codec 1-4, writing the result at the arena
 * top. Returns [address, length]; the caller owns the arena above its own mark.
 */
export function compressInWasm(codec: number, src: number, len: number, gzipLevel: number, xerial: boolean): [number, number] {
  const w = wasm();
  if (codec === 2 || codec === 3) {
    const dst = alloc(codec === 2 ? w.snappyMaxEncoded(len, xerial ? 1 : 0) : w.lz4MaxFrame(len));
    const n = codec === 2 ? w.snappyEncode(src, len, dst, xerial ? 1 : 0) : w.lz4Encode(src, len, dst);
    if (n < 0) throw recordsError('OUT_OF_MEMORY');
    return [dst, n];
  }
  const input = mem().subarray(src, src + len);
  let out: Uint8Array;
  if (codec === 1) out = gzipSync(input, { level: gzipLevel as 6, mtime: 0 });
  else if (codec === 4) out = zstdRawFrame(input);
  else throw recordsError('UNSUPPORTED_COMPRESSION', -1, 'compression', `unsupported compression codec ${codec}`);
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

/** Compresses a buffer with a Kafka codec (what encodeRecordBatch does to the records section). */
export function compress(codec: CompressionName | number, data: Uint8Array, options: { gzipLevel?: number; snappyFraming?: 'xerial' | 'raw' } = {}): Uint8Array {
  const c = codecNumber(codec, false);
  // gzip and zstd run in JS: no trip through WebAssembly memory.
  if (c === 1) return gzipSync(data, { level: (options.gzipLevel ?? 6) as 6, mtime: 0 });
  if (c === 4) return zstdRawFrame(data);
  wasm();
  const mark = top;
  try {
    const p = copyIn(data);
    const [dst, n] = compressInWasm(c, p, data.length, options.gzipLevel ?? 6, options.snappyFraming !== 'raw');
    return mem().slice(dst, dst + n);
  } finally {
    setTop(mark);
  }
}

/**
 * A zstd frame made of raw and RLE blocks only (a legal zstd encoding without entropy coding):
 * single-segment header with the content size, no checksum.
 */
export function zstdRawFrame(data: Uint8Array): Uint8Array {
  const n = data.length;
  const BLOCK = 131072;
  let fcsFlag: number;
  let fcsBytes: number;
  if (n < 256) { fcsFlag = 0; fcsBytes = 1; }
  else if (n < 65536 + 256) { fcsFlag = 1; fcsBytes = 2; }
  else if (n <= 0xffffffff) { fcsFlag = 2; fcsBytes = 4; }
  else { fcsFlag = 3; fcsBytes = 8; }
  const blocks = Math.max(1, Math.ceil(n / BLOCK));
  const out = new Uint8Array(5 + fcsBytes + blocks * 3 + n);
  out[0] = 0x28; out[1] = 0xb5; out[2] = 0x2f; out[3] = 0xfd;
  out[4] = (fcsFlag << 6) | 0x20;
  let fcs = fcsFlag === 1 ? n - 256 : n;
  for (let i = 0; i < fcsBytes; i++) {
    out[5 + i] = fcs % 256;
    fcs = Math.floor(fcs / 256);
  }
  let o = 5 + fcsBytes;
  let p = 0;
  do {
    const size = Math.min(BLOCK, n - p);
    const last = p + size >= n ? 1 : 0;
    let rle = size > 1;
    const b0 = data[p];
    for (let i = 1; rle && i < size; i++) if (data[p + i] !== b0) rle = false;
    const header = last | ((rle ? 1 : 0) << 1) | (size << 3);
    out[o] = header & 0xff; out[o + 1] = (header >>> 8) & 0xff; out[o + 2] = (header >>> 16) & 0xff;
    o += 3;
    if (rle) {
      out[o++] = b0;
    } else {
      out.set(data.subarray(p, p + size), o);
      o += size;
    }
    p += size;
  } while (p < n);
  return out.subarray(0, o);
}

