// The encode tape and heap that both writers (the interpreter in write.ts and the generated code
// from generate.ts) fill before one call to the WebAssembly `emit`: tape words per value, and the
// content of strings, bytes and uuids in the heap. They grow by replacement, so read them here.
// Large bytes values (a Produce request's record batches) stay out of the heap: they are copied
// once, into the finished frame, instead of into the heap, into WebAssembly memory and through emit.

/** Bytes values at least this long are kept out of the heap. */
export const LARGE_BYTES = 1024;

export interface EncodeBuffers {
  tape: Int32Array;
  t: number;
  heap: Uint8Array;
  h: number;
  /** Large bytes values, in the order written; the tape gives each as heap offset ~index. */
  large: Uint8Array[];
  /** Their summed length. */
  largeBytes: number;
  /** Whether this encode checks every struct object for properties no version has (EncodeOptions.checkFields). */
  checkFields: boolean;
}

export const b: EncodeBuffers = { tape: new Int32Array(1024), t: 0, heap: new Uint8Array(4096), h: 0, large: [], largeBytes: 0, checkFields: true };

/** Makes room for `words` more tape words. */
export function tapeRoom(words: number): void {
  if (b.t + words > b.tape.length) {
    const grown = new Int32Array(Math.max(b.tape.length * 2, b.t + words));
    grown.set(b.tape.subarray(0, b.t));
    b.tape = grown;
  }
}

/** Makes room for `bytes` more heap bytes. */
export function heapRoom(bytes: number): void {
  if (b.h + bytes > b.heap.length) {
    const grown = new Uint8Array(Math.max(b.heap.length * 2, b.h + bytes));
    grown.set(b.heap.subarray(0, b.h));
    b.heap = grown;
  }
}
