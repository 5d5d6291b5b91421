// The error convention of both WebAssembly modules, on the facade's side: a failing call writes
// code, offset and its module's context into the module's status block (src/wasm/abi.ts) and
// traps; the binding catches the trap and reads the block through here.
import { STATUS_CODE } from './abi.js';

/**
 * The word index (in `words`) of the status block a failed call left, given what the call threw.
 * Anything else is rethrown: an exception from JS, or a trap that recorded no code (a fault of
 * the module itself, not of the input).
 */
export function failedStatus(thrown: unknown, words: Int32Array, statusPtr: number): number {
  if (!(thrown instanceof WebAssembly.RuntimeError)) throw thrown;
  const status = statusPtr >> 2;
  if (words[status + STATUS_CODE] === 0) throw thrown;
  return status;
}
