// The one WebAssembly memory of the codec and records modules (both import it as env.memory), and
// the one arena in it. Below ARENA_BASE lies the modules' static data (src/wasm/abi.ts has the
// layout). From ARENA_BASE up: what is kept for good (compiled codec programs) below `floor`, then
// scratch from `floor` to `top`, taken like a stack: a caller saves `top`, reserves above it and
// restores it. So calls nest: a Fetch decode holds its frame while records hooks decode the
// record bytes where they lie, and a hook may call the codec again.
import { ARENA_BASE } from './abi.js';

let memory: WebAssembly.Memory | undefined;
/** Views of the memory; live bindings, replaced by reach() whenever it has grown. */
export let u8 = new Uint8Array(0);
export let i32 = new Int32Array(0);
let floor = ARENA_BASE;
/** First free byte of the arena. */
export let top = floor;

/** The memory, made on first use (the modules' static data must find it zeroed). */
export function sharedMemory(): WebAssembly.Memory {
  return memory ??= new WebAssembly.Memory({ initial: 2 });
}

/**
 * Grows the memory so that [0, end) is addressable, and refreshes the views (either module may
 * have grown it meanwhile); false when it may not grow so far.
 */
export function reach(end: number): boolean {
  const m = sharedMemory();
  const missing = end - m.buffer.byteLength;
  try {
    if (missing > 0) m.grow(Math.ceil(missing / 65536));
  } catch {
    return false;
  }
  if (u8.buffer !== m.buffer) {
    u8 = new Uint8Array(m.buffer);
    i32 = new Int32Array(m.buffer);
  }
  return true;
}

/** Moves the top back (or on) to `p`; never below what is kept for good. */
export function setTop(p: number): void {
  top = p < floor ? floor : p;
}

/**
 * Reserves `size` bytes for good at the top (8-byte aligned) and returns their address: the bottom
 * of the arena, unless a caller holds scratch then (a hook compiling a new program), whose region
 * stays below it.
 */
export function keep(size: number): number {
  const p = (top + 7) & ~7;
  floor = top = p + size;
  return p;
}

/**
 * A frame a decode holds in memory while its records hooks run: its bytes as given, the address of
 * their copy, and the message being decoded (whose records fields still hold their bytes, so a
 * field's path can be found); live until the hooks end. The decode hands it to each hook with the
 * records (RecordsInFrame), so nothing here remembers which decode is running: decodes nest.
 */
export interface HeldFrame {
  readonly frame: Uint8Array;
  readonly ptr: number;
  readonly name: string;
  readonly body: unknown;
  live: boolean;
}

/**
 * The bytes of a records field as a decode hands them to its records hook: a view of the frame
 * that also says where the frame lies in memory, so the records engine reads them there (no
 * copy) and locates its errors in the frame. Views made from it (subarray, a record's key and
 * value) are plain Uint8Arrays.
 */
export class RecordsInFrame extends Uint8Array {
  static get [Symbol.species]() {
    return Uint8Array;
  }
  declare held: HeldFrame;
  /** The plain view of the same bytes that the message holds (and decoded batches keep). */
  declare plain: Uint8Array;
}
