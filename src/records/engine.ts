// Access to the records WebAssembly module: a lazily created singleton instance working in the
// memory it shares with the codec (src/wasm/memory.ts), fresh views of that memory, the shared
// stack-like arena for scratch regions, and failed calls' status blocks as RecordsErrors.
import { wasmBase64 } from '../wasm/records.generated.js';
import { embedded, embeddedExports, initEmbedded } from '../wasm/load.js';
import { failedStatus } from '../wasm/status.js';
import { i32, reach, setTop, top, u8 } from '../wasm/memory.js';
import { STATUS_AUX0, STATUS_BATCH, STATUS_CODE, STATUS_FIELD, STATUS_HEADER, STATUS_OFFSET, STATUS_RECORD } from '../wasm/abi.js';
import { STATUS_CODES, RecordsError, buildPath, recordsError, recordsErrorMessage } from './errors.js';

export interface RecordsExports {
  arenaBase(): number;
  statusPtr(): number;
  crc32c(p: number, len: number, prev: number): number;
  crc32(p: number, len: number, prev: number): number;
  scanBatches(inp: number, len: number, out: number, flags: number): number;
  walkRecords(p: number, len: number, count: number, out: number, batchIndex: number): number;
  spanRecords(p: number, len: number, count: number, out: number): number;
  encodeRecords(spec: number, n: number, data: number, out: number, withHeader: number): number;
  finishBatch(p: number, size: number, count: number): void;
  splitRecords(inp: number, len: number, table: number, partitions: number, fixed: number, recordDelim: number, keyDelim: number, maxFieldBytes: number, final: number): number;
  snappyDecode(src: number, len: number, dst: number, cap: number): number;
  snappyEncode(src: number, len: number, dst: number, xerial: number): number;
  snappyMaxEncoded(n: number, xerial: number): number;
  lz4Decode(src: number, len: number, dst: number, cap: number, flags: number): number;
  lz4Encode(src: number, len: number, dst: number): number;
  lz4MaxFrame(n: number): number;
}

const records = embedded<RecordsExports>(wasmBase64);

/** The instance, compiled synchronously on first use unless initRecordsWasm() got there first. */
export const wasm = (): RecordsExports => records.exports ?? embeddedExports(records);
export const initRecordsWasm = (module?: WebAssembly.Module): Promise<void> => initEmbedded(records, module);

let preparing: Promise<void> | undefined;
/**
 * Starts making the instance asynchronously (compiled off the main thread) for a caller that will
 * need it soon, such as a consumer still joining its group: the first Fetch answer then finds it
 * made instead of compiling it synchronously. A failure is left for the first use to report.
 */
export function prepareRecordsWasm(): void {
  if (records.exports === undefined) preparing ??= initRecordsWasm().catch(() => undefined);
}

/** First free byte of the scratch arena (shared with the codec); callers save and restore it around their use. */
export { top, setTop };

/** Current byte view of WebAssembly memory (re-created after growth). */
export function mem(): Uint8Array {
  reach(0);
  return u8;
}

/** Current Int32 view of WebAssembly memory. */
export function memI32(): Int32Array {
  reach(0);
  return i32;
}

/** Reserves `size` bytes at the arena top (16-byte aligned) and returns their address. */
export function alloc(size: number): number {
  const p = (top + 15) & ~15;
  extendTop(p + size);
  return p;
}

/**
 * Moves the arena top to `end`, growing memory as needed: the last region reserved grows in
 * place (callers filling a region of unknown size). Views from mem() are stale after growth.
 */
export function extendTop(end: number): void {
  if (end > 0x7fff_fff0) throw recordsError('OUT_OF_MEMORY', -1, '', 'input too large for the WebAssembly arena');
  if (!reach(end + 16)) throw recordsError('OUT_OF_MEMORY');
  setTop(end);
}

/** Copies bytes into the arena and returns their address. */
export function copyIn(bytes: Uint8Array): number {
  const p = alloc(bytes.length);
  mem().set(bytes, p);
  return p;
}

/** The status block of the failed call that threw `thrown` (anything else is rethrown): its word index in memI32(). */
export function failedCall(thrown: unknown): number {
  return failedStatus(thrown, memI32(), wasm().statusPtr());
}

/**
 * The RecordsError the status block of the failed call that threw `thrown` describes (anything
 * else is rethrown). `offsetBase` is added to the reported offset; `context` may extend the
 * description.
 */
export function statusError(thrown: unknown, pathPrefix = '', offsetBase = 0, context?: (detail: string) => string): RecordsError {
  const s = failedCall(thrown);
  const I = memI32();
  const known = STATUS_CODES[I[s + STATUS_CODE]] ?? 'CORRUPT_COMPRESSED_DATA';
  const path = buildPath(pathPrefix, I[s + STATUS_BATCH], I[s + STATUS_RECORD], I[s + STATUS_HEADER], I[s + STATUS_FIELD]);
  let detail = known === 'CRC_MISMATCH' ? `checksum mismatch: computed 0x${(I[s + STATUS_AUX0] >>> 0).toString(16).padStart(8, '0')}` : undefined;
  if (context !== undefined) detail = context(detail ?? recordsErrorMessage(known));
  return recordsError(known, I[s + STATUS_OFFSET] + offsetBase, path, detail);
}

/** Runs a checksum of the module over a copy of `bytes` in its memory. */
function checksum(run: (ptr: number, length: number, prev: number) => number, bytes: Uint8Array, prev: number): number {
  const mark = top;
  try {
    return run(copyIn(bytes), bytes.length, prev) >>> 0;
  } finally {
    setTop(mark);
  }
}

/** CRC-32C (Castagnoli) of bytes; `prev` continues a previous result. */
export function crc32c(bytes: Uint8Array, prev = 0): number {
  return checksum(wasm().crc32c, bytes, prev);
}

/** CRC-32 (IEEE, as in zlib/gzip) of bytes; `prev` continues a previous result. */
export function crc32(bytes: Uint8Array, prev = 0): number {
  return checksum(wasm().crc32, bytes, prev);
}

export { RecordsError };
