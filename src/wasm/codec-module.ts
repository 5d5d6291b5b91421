// The codec's WebAssembly instance and its memory, created on first use (or by init()): compiled
// programs are bump-allocated from the bottom and stay; everything above them is scratch, reused
// by each call.
import { embeddedInstance } from './load.js';
import { wasmBase64 } from './codec.generated.js';
import { KafkaWireError } from '../errors.js';

export interface CodecExports {
  memory: WebAssembly.Memory;
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

const PAGE = 65536;

let programTop = 0;
/** Views of WebAssembly memory; live bindings, replaced whenever memory grows. */
export let u8 = new Uint8Array(0);
export let i32 = new Int32Array(0);

const codec = embeddedInstance<CodecExports>(wasmBase64, (exports) => {
  programTop = align8(exports.heapBase());
  u8 = new Uint8Array(exports.memory.buffer);
  i32 = new Int32Array(exports.memory.buffer);
});

/** The instance, compiled synchronously on first use unless initCodecWasm() got there first. */
export const codecWasm: () => CodecExports = codec.get;
export const initCodecWasm: (module?: WebAssembly.Module) => Promise<void> = codec.init;

function align8(n: number): number {
  return (n + 7) & ~7;
}

/** Grows memory so that [0, bytes) is addressable, and refreshes the views. */
export function ensureMemory(bytes: number): void {
  const memory = codecWasm().memory;
  if (bytes > memory.buffer.byteLength) {
    try {
      memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
    } catch {
      throw new KafkaWireError('MEMORY_LIMIT', -1, '', `the codec needs ${bytes} bytes of WebAssembly memory, more than it may have`);
    }
  }
  if (u8.buffer !== memory.buffer) {
    u8 = new Uint8Array(memory.buffer);
    i32 = new Int32Array(memory.buffer);
  }
}

/** Stores a compiled program's words for good; returns its byte address. */
export function storeProgram(words: readonly number[]): number {
  codecWasm();
  const ptr = programTop;
  programTop = align8(ptr + words.length * 4);
  ensureMemory(programTop);
  for (let i = 0; i < words.length; i++) i32[(ptr >> 2) + i] = words[i];
  return ptr;
}

/** The first scratch byte: above every program compiled so far. */
export function scratchBase(): number {
  codecWasm();
  return programTop;
}
