// zstd for record batches. Decoding: Node's own zlib zstd where it exists (Node >= 22.15,
// feature-detected); everywhere else the reference library's decompressor in WebAssembly, embedded
// in this module (src/wasm/zstd.generated.ts, built by scripts/build-zstd.mjs) and compiled
// synchronously on first use like the records engine, so decoding never needs `initZstd()`.
// Compression: Node's zlib zstd, or the reference library's full WebAssembly build
// (@bokuweb/zstd-wasm), loaded only by `initZstd()` through a dynamic import, so an app that never
// compresses zstd never carries it.
import { zstdWasmBase64 } from '../wasm/zstd.generated.js';
import { recordsError, tooLarge } from './errors.js';
import { le32 } from '../bytes.js';
import { compileRefusal, decodeBase64 } from '../wasm/load.js';

export const DEFAULT_ZSTD_LEVEL = 3;
/** The level range Kafka accepts for compression.zstd.level (zstd's own minimum and maximum). */
export const MIN_ZSTD_LEVEL = -131072;
export const MAX_ZSTD_LEVEL = 22;

interface ZstdEngine {
  compress(data: Uint8Array, level: number): Uint8Array;
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
 * Makes zstd compression available: loads the WebAssembly zstd compressor once (decoding needs no
 * call; this also compiles its decoder asynchronously, for hosts that forbid large synchronous
 * compiles). Resolves at once where Node's zlib has zstd. Safe to call many times; later calls share the first.
 */
export function initZstd(options: InitZstdOptions = {}): Promise<void> {
  if (nativeZstd !== undefined || wasmEngine !== undefined) return Promise.resolve();
  // zstd's loader would wait forever on a refused compile; say why instead (decoding still works).
  const refusal = compileRefusal();
  if (refusal !== undefined) return Promise.reject(refusal);
  decoderReady ??= WebAssembly.compile(decodeBase64(zstdWasmBase64) as BufferSource).then((m) => { decoderModule ??= m; },
    () => { decoderReady = undefined; });
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
  };
}

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
 * Returns the most `src` can decode to: the sum over its frames of each one's stated content
 * size, or else of what its blocks can produce (raw and RLE blocks state their size, a compressed
 * block yields at most 128 KiB).
 */
function zstdPrescan(src: Uint8Array, limit: number, at: number, path: string): number {
  const bad = (p: number, why: string) => recordsError('CORRUPT_COMPRESSED_DATA', at + p, path, `zstd: ${why}`);
  const maxWindow = Math.max(limit, 8 * 1024 * 1024);
  let p = 0;
  let total = 0;
  if (src.length === 0) throw bad(0, 'empty input');
  while (p < src.length) {
    if (src.length - p < 4) throw bad(p, 'truncated frame');
    const magic = le32(src, p);
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
    total += fcs >= 0 ? fcs : most;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// The embedded decoder

interface DecoderExports {
  memory: WebAssembly.Memory;
  /** wasi-libc's start-up for a library module (constructors), called once before anything else. */
  _initialize(): void;
  malloc(size: number): number;
  free(p: number): void;
  /** zstd's ZSTD_decompressDCtx with one context kept by the module: every frame of src into dst; the size, or an error code (negative as i32). */
  decompress(dst: number, capacity: number, src: number, length: number): number;
}

let decoderModule: WebAssembly.Module | undefined;
let decoderReady: Promise<void> | undefined;
let decoder: DecoderExports | undefined;

function zstdDecoder(): DecoderExports {
  if (decoder === undefined) {
    if (decoderModule === undefined) {
      // A host that compiles no WebAssembly from bytes gets the typed refusal, not its own error.
      const refusal = compileRefusal();
      if (refusal !== undefined) throw refusal;
      decoderModule = new WebAssembly.Module(decodeBase64(zstdWasmBase64) as BufferSource);
    }
    // No imports; memory grows inside malloc, so views are re-made from memory.buffer on every call.
    const exports = new WebAssembly.Instance(decoderModule, {}).exports as unknown as DecoderExports;
    exports._initialize();
    decoder = exports;
  }
  return decoder;
}

/** zstd's error codes (zstd_errors.h) that a decoder can meet, by number, for messages. */
const ZSTD_ERRORS: Record<number, string> = {
  10: 'unknown frame descriptor', 12: 'unsupported version', 14: 'unsupported frame parameter',
  16: 'window too large', 20: 'corrupted block detected', 22: 'checksum mismatch', 24: 'literals header wrong',
  32: 'dictionary id mismatch', 34: 'dictionary required', 64: 'cannot allocate memory',
  70: 'destination buffer too small', 72: 'source size wrong',
};
const CHECKSUM_WRONG = 22;
const DST_TOO_SMALL = 70;

/** Decompresses zstd frames (and skippable frames) into at most `limit` bytes. */
export function zstdDecompress(src: Uint8Array, limit: number, at: number, path: string): Uint8Array {
  const most = zstdPrescan(src, limit, at, path);
  if (nativeZstd !== undefined) {
    let out: Uint8Array;
    try {
      out = nativeZstd.zstdDecompressSync!(src, { maxOutputLength: Math.max(limit, 1) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit, at, path);
      throw recordsError('CORRUPT_COMPRESSED_DATA', at, path, `zstd: ${(error as Error).message}`);
    }
    if (out.length > limit) throw tooLarge(limit, at, path);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  // Into a buffer of the most the frames can produce (checked above), never more than the limit.
  const capacity = Math.min(most, limit);
  const d = zstdDecoder();
  const sp = d.malloc(Math.max(src.length, 1));
  const dp = d.malloc(Math.max(capacity, 1));
  try {
    if (sp === 0 || dp === 0) throw recordsError('OUT_OF_MEMORY', at, path, 'zstd: cannot allocate WebAssembly memory');
    new Uint8Array(d.memory.buffer).set(src, sp);
    const n = d.decompress(dp, capacity, sp, src.length);
    if (n < 0) {
      const code = -n;
      if (code === DST_TOO_SMALL && capacity < most) throw tooLarge(limit, at, path);
      throw recordsError(code === CHECKSUM_WRONG ? 'CHECKSUM_MISMATCH' : 'CORRUPT_COMPRESSED_DATA', at, path,
        `zstd: ${ZSTD_ERRORS[code] ?? `error ${code}`}`);
    }
    return new Uint8Array(d.memory.buffer).slice(dp, dp + n);
  } finally {
    d.free(dp);
    d.free(sp);
  }
}
