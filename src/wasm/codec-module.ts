// The codec's WebAssembly instance and its memory: compiled programs are bump-allocated from the
// bottom and stay; everything above them is scratch, reused by each call.
import { instantiateEmbedded } from './load.js';
import { wasmBase64 } from './codec.generated.js';

interface CodecExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  lastErrorCode(): number;
  lastErrorOffset(): number;
  lastErrorDepth(): number;
  pathOpsPtr(): number;
  pathIndexesPtr(): number;
  scan(header: number, body: number, input: number, length: number, framed: boolean,
    tape: number, tapeBytes: number, scratch: number, withSpans: boolean,
    arrayLimit: number, lengthLimit: number, depthLimit: number): number;
  emit(header: number, body: number, framed: boolean, tape: number, heap: number, out: number,
    measure: boolean): number;
}

const PAGE = 65536;

export const wasm = instantiateEmbedded(wasmBase64).exports as unknown as CodecExports;
const memory = wasm.memory;

let programTop = align8(wasm.heapBase());
export let u8 = new Uint8Array(memory.buffer);
export let i32 = new Int32Array(memory.buffer);

function align8(n: number): number {
  return (n + 7) & ~7;
}

/** Grows memory so that [0, bytes) is addressable, and refreshes the views. */
export function ensureMemory(bytes: number): void {
  if (bytes > memory.buffer.byteLength) {
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  }
  if (u8.buffer !== memory.buffer) {
    u8 = new Uint8Array(memory.buffer);
    i32 = new Int32Array(memory.buffer);
  }
}

/** Stores a compiled program's words for good; returns its byte address. */
export function storeProgram(words: readonly number[]): number {
  const ptr = programTop;
  programTop = align8(ptr + words.length * 4);
  ensureMemory(programTop);
  for (let i = 0; i < words.length; i++) i32[(ptr >> 2) + i] = words[i];
  return ptr;
}

/** The first scratch byte: above every program compiled so far. */
export function scratchBase(): number {
  return programTop;
}
