// Instantiates an embedded WebAssembly module: the bytes ship inside the JS as base64 (see
// scripts/asbuild.mjs), so no fetch, file read or bundler plugin is involved.
import { runtimeName, UnsupportedRuntimeError } from '../errors.js';
import { sharedMemory } from './memory.js';

/** The bytes of an embedded module's base64 text. */
export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** What both modules import: only the memory they share (scripts/asbuild.mjs checks it). */
const imports = (): WebAssembly.Imports => ({ env: { memory: sharedMemory() } });

/** Hosts that forbid compiling WebAssembly from bytes (workerd) say so in a CompileError. */
function refused(error: unknown): unknown {
  return error instanceof WebAssembly.CompileError && /disallowed|not allowed|blocked/i.test(error.message)
    ? new UnsupportedRuntimeError(runtimeName(), 'WebAssembly compilation from bytes at run time', error.message)
    : error;
}

function instantiateEmbedded(base64: string): WebAssembly.Instance {
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(decodeBase64(base64) as BufferSource);
  } catch (error) {
    throw refused(error);
  }
  return new WebAssembly.Instance(module, imports());
}

/**
 * The typed refusal when this host compiles no WebAssembly from bytes (workerd: modules come
 * precompiled, through init()), else undefined. Compiles an empty module to find out.
 */
export function compileRefusal(): unknown {
  try {
    new WebAssembly.Module(Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0));
    return undefined;
  } catch (error) {
    return refused(error);
  }
}

async function instantiateEmbeddedAsync(base64: string, module?: WebAssembly.Module): Promise<WebAssembly.Instance> {
  try {
    return await WebAssembly.instantiate(module ?? await WebAssembly.compile(decodeBase64(base64) as BufferSource), imports());
  } catch (error) {
    throw refused(error);
  }
}

/** One embedded module: its base64 text, and its instance's exports once made (once per realm). */
export interface Embedded<E> {
  readonly base64: string;
  exports: E | undefined;
}

export function embedded<E>(base64: string): Embedded<E> {
  return { base64, exports: undefined };
}

/**
 * The module's exports, compiled synchronously on first use unless initEmbedded() (asynchronous,
 * for hosts that forbid large synchronous compiles) got there first. Every instance works in the
 * one shared memory (src/wasm/memory.ts).
 */
export function embeddedExports<E>(m: Embedded<E>): E {
  return m.exports ??= instantiateEmbedded(m.base64).exports as unknown as E;
}

/**
 * Makes the module's instance asynchronously, from `module` when given precompiled (hosts that
 * compile none from bytes). Apart from embeddedExports, so that a bundle that never calls it
 * carries none of it. One made by a losing race is dropped, its data having rewritten the same
 * static bytes.
 */
export async function initEmbedded<E>(m: Embedded<E>, module?: WebAssembly.Module): Promise<void> {
  if (m.exports === undefined) {
    const exports = (await instantiateEmbeddedAsync(m.base64, module)).exports as unknown as E;
    m.exports ??= exports;
  }
}
