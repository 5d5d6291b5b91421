// The codec's WebAssembly instance, created on first use (or by init()), working in the memory it
// shares with the records module (src/wasm/memory.ts): compiled programs are kept for good in the
// arena; a call's scratch lies above the arena's top.
import { embedded, embeddedExports, initEmbedded } from '../wasm/load.js';
import { wasmBase64 } from '../wasm/codec.generated.js';
import { keep, reach, top } from '../wasm/memory.js';
import { KafkaWireError } from '../errors.js';

export interface CodecExports {
  /** End of the module's static data. */
  heapBase(): number;
  /** The status block (src/wasm/abi.ts) a failed scan leaves before it traps. */
  statusPtr(): number;
  pathOpsPtr(): number;
  pathIndexesPtr(): number;
  tapePosition(): number;
  scan(header: number, body: number, input: number, length: number, framed: boolean,
    tape: number, tapeBytes: number, scratch: number, withSpans: boolean,
    arrayLimit: number, lengthLimit: number, depthLimit: number): number;
  emit(header: number, body: number, framed: boolean, tape: number, heap: number, gaps: number, out: number,
    measure: boolean): number;
}

/** Views of the shared memory; live bindings, replaced whenever it grows. */
export { u8, i32 } from '../wasm/memory.js';
import { i32 } from '../wasm/memory.js';

const codec = embedded<CodecExports>(wasmBase64);

/** The instance, compiled synchronously on first use unless initCodecWasm() got there first. */
export const codecWasm = (): CodecExports => codec.exports ?? embeddedExports(codec);
export const initCodecWasm = (module?: WebAssembly.Module): Promise<void> => initEmbedded(codec, module);

/** Grows memory so that [0, bytes) is addressable, and refreshes the views. */
export function ensureMemory(bytes: number): void {
  if (!reach(bytes)) throw new KafkaWireError('MEMORY_LIMIT', -1, '');
}

/** Stores a compiled program's words for good; returns its byte address. */
export function storeProgram(words: readonly number[]): number {
  const ptr = keep(words.length * 4);
  ensureMemory(top);
  i32.set(words, ptr >> 2);
  return ptr;
}

/** The first scratch byte: above every program and every region a caller holds. */
export function scratchBase(): number {
  return top;
}
