// zstd for record batches. Three engines, picked once: Node's own zlib zstd where it exists
// (Node >= 22.15, feature-detected, synchronous from the start); otherwise the WebAssembly build of
// the reference zstd library (@bokuweb/zstd-wasm), loaded only by `initZstd()` through a dynamic
// import, so an app that never calls it never carries it; decoding without either falls back to
// fzstd (pure JS, always available). The WebAssembly decoder is about five times faster than fzstd,
// so it takes over once loaded for single frames (most batches); fzstd keeps the rest.
import { Decompress as FzstdDecompress } from 'fzstd';
import { recordsError, RecordsError, tooLarge } from './errors.js';
import { concatBytes, le32 } from '../bytes.js';
import { compileRefusal } from '../wasm/load.js';

export const DEFAULT_ZSTD_LEVEL = 3;
/** The level range Kafka accepts for compression.zstd.level (zstd's own minimum and maximum). */
export const MIN_ZSTD_LEVEL = -131072;
export const MAX_ZSTD_LEVEL = 22;

interface ZstdEngine {
  compress(data: Uint8Array, level: number): Uint8Array;
  /** Decompresses a single frame into at most `capacity` bytes; throws if it needs more or is corrupt. */
  decompressSingle(data: Uint8Array, capacity: number): Uint8Array;
}

type NodeZlib = typeof import('node:zlib') & {
  zstdCompressSync?(data: Uint8Array, options: object): Uint8Array;
  zstdDecompressSync?(data: Uint8Array, options: object): Uint8Array;
  constants: { ZSTD_c_compressionLevel?: number };
};

/**
 * Node's zlib (native, several times faster than fflate), reached without a static import so that
 * browser bundles never see it.
 */
export const nodeZlib = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } })
  .process?.getBuiltinModule?.('node:zlib') as NodeZlib | undefined;
const nativeZstd = typeof nodeZlib?.zstdCompressSync === 'function' && typeof nodeZlib.zstdDecompressSync === 'function'
  ? nodeZlib : undefined;

let wasmEngine: ZstdEngine | undefined;
let loading: Promise<void> | undefined;

/** Which zstd compressor is in use: 'node:zlib', 'wasm', or undefined before `initZstd()`. */
export function zstdEngine(): 'node:zlib' | 'wasm' | undefined {
  return nativeZstd !== undefined ? 'node:zlib' : wasmEngine !== undefined ? 'wasm' : undefined;
}

export interface InitZstdOptions {
  /**
   * Where the browser build finds zstd.wasm: a URL, or the bytes themselves. Default: beside the
   * module that loads it (bundlers copy it as an asset). Ignored in Node.
   */
  wasm?: string | URL | BufferSource;
}

/**
 * Makes zstd compression available (and zstd decoding faster): loads the WebAssembly zstd once.
 * Resolves at once where Node's zlib has zstd. Safe to call many times; later calls share the first.
 */
export function initZstd(options: InitZstdOptions = {}): Promise<void> {
  if (nativeZstd !== undefined || wasmEngine !== undefined) return Promise.resolve();
  // zstd's loader would wait forever on a refused compile; say why instead (decoding still works).
  const refusal = compileRefusal();
  if (refusal !== undefined) return Promise.reject(refusal);
  loading ??= loadWasm(options).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

interface BokuwebZstd {
  init(source?: string | BufferSource): Promise<void>;
  compress(data: Uint8Array, level?: number): Uint8Array;
  decompress(data: Uint8Array, options?: { defaultHeapSize: number }): Uint8Array;
}

async function loadWasm(options: InitZstdOptions): Promise<void> {
  const imported = await import('@bokuweb/zstd-wasm') as unknown as BokuwebZstd & { default?: BokuwebZstd };
  const zstd = typeof imported.init === 'function' ? imported : imported.default!;
  const source = options.wasm instanceof URL ? options.wasm.href : options.wasm;
  await zstd.init(source);
  wasmEngine = {
    compress: (data, level) => zstd.compress(data, level),
    // The library allocates the size the frame header states, or `defaultHeapSize` when it states none.
    decompressSingle: (data, capacity) => zstd.decompress(data, { defaultHeapSize: capacity }),
  };
}

/** What zstdPrescan returns for input that is not exactly one zstd frame. */
const MULTIPLE_FRAMES = -1;
/** zstd's largest block, decoded. */
const MAX_BLOCK = 131072;

/** The level, checked: an integer in Kafka's range. */
export function zstdLevel(level: number | undefined): number {
  const l = level ?? DEFAULT_ZSTD_LEVEL;
  if (!Number.isInteger(l) || l < MIN_ZSTD_LEVEL || l > MAX_ZSTD_LEVEL) {
    throw recordsError('INVALID_ARGUMENT', -1, 'zstdLevel', `zstd level must be an integer from ${MIN_ZSTD_LEVEL} to ${MAX_ZSTD_LEVEL}, got ${String(level)}`);
  }
  return l;
}

/** One zstd frame of `data` at `level` (checked by the caller with zstdLevel). */
export function zstdCompress(data: Uint8Array, level: number): Uint8Array {
  if (nativeZstd !== undefined) {
    const out = nativeZstd.zstdCompressSync!(data, { params: { [nativeZstd.constants.ZSTD_c_compressionLevel!]: level } });
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  if (wasmEngine === undefined) {
    throw recordsError('NOT_INITIALIZED', -1, 'compression',
      "zstd compression needs its WebAssembly module: call `await initZstd()` (exported by 'kafka-wire' and 'kafka-wire/records') once first");
  }
  return wasmEngine.compress(data, level);
}

/**
 * Validates every zstd frame header and block boundary before any decoder allocates anything.
 * Returns, when `src` is exactly one zstd frame, the most it can decode to: its stated content
 * size, or else what its blocks can produce (raw and RLE blocks state their size, a compressed
 * block yields at most 128 KiB); MULTIPLE_FRAMES otherwise.
 */
function zstdPrescan(src: Uint8Array, limit: number, at: number, path: string): number {
  const bad = (p: number, why: string) => recordsError('CORRUPT_COMPRESSED_DATA', at + p, path, `zstd: ${why}`);
  const maxWindow = Math.max(limit, 8 * 1024 * 1024);
  let p = 0;
  let frames = 0;
  let size = -1;
  if (src.length === 0) throw bad(0, 'empty input');
  while (p < src.length) {
    if (src.length - p < 4) throw bad(p, 'truncated frame');
    const magic = le32(src, p);
    frames++;
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      if (src.length - p < 8) throw bad(p, 'truncated skippable frame');
      const skip = le32(src, p + 4);
      if (skip > src.length - p - 8) throw bad(p, 'truncated skippable frame');
      p += 8 + skip;
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
    let most = 0;
    for (;;) {
      if (q + 3 > src.length) throw bad(q, 'truncated block header');
      const bh = src[q] | (src[q + 1] << 8) | (src[q + 2] << 16);
      const last = bh & 1;
      const type = (bh >> 1) & 3;
      const blockSize = bh >>> 3;
      if (type === 3) throw bad(q, 'reserved block type');
      const body = type === 1 ? 1 : blockSize;
      if (blockSize > MAX_BLOCK || q + 3 + body > src.length) throw bad(q, 'block exceeds the data');
      most += type === 2 ? MAX_BLOCK : blockSize;
      q += 3 + body;
      if (last) break;
    }
    if (checksum) q += 4;
    if (q > src.length) throw bad(q, 'truncated checksum');
    if (fcs > most) throw bad(p, `frame states ${fcs} bytes, more than its blocks can hold`);
    p = q;
    size = fcs >= 0 ? fcs : most;
  }
  return frames === 1 ? size : MULTIPLE_FRAMES;
}

/** Decompresses zstd frames (and skippable frames) into at most `limit` bytes. */
export function zstdDecompress(src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  const size = zstdPrescan(src, limit, at, path);
  const corrupt = (e: unknown) => recordsError('CORRUPT_COMPRESSED_DATA', at, path, `zstd: ${(e as Error).message}`);
  if (nativeZstd !== undefined) {
    let out: Uint8Array;
    try {
      out = nativeZstd.zstdDecompressSync!(src, { maxOutputLength: Math.max(limit, 1) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit, at, path);
      throw corrupt(error);
    }
    if (out.length > limit) throw tooLarge(limit, at, path);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  if (wasmEngine !== undefined && size !== MULTIPLE_FRAMES) {
    // One frame: decoded into a buffer of the most it can produce (fzstd explains any failure).
    try {
      return wasmEngine.decompressSingle(src, Math.min(size, limit));
    } catch {
      // fall through
    }
  }
  return fzstdDecompress(src, limit, at, path);
}

function fzstdDecompress(src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new FzstdDecompress((chunk) => {
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
