// The decode's first step: copies the input into WebAssembly memory and runs `scan`
// (assembly/codec.ts), which checks the whole frame and writes a tape of words (values, or
// offsets into the frame) for the readers; its failures become KafkaWireErrors with field paths.
import { KafkaWireError, type DescribedCode } from '../errors.js';
import { be16 } from '../bytes.js';
import { codecWasm, ensureMemory, i32, scratchBase, u8 } from './engine.js';
import { opFields, type CompiledStruct } from './plan.js';
import {
  E_ARRAY_LIMIT, E_DEPTH_LIMIT, E_DUPLICATE_TAG, E_FRAME_SIZE_MISMATCH, E_INVALID_UTF8, E_LENGTH_LIMIT, E_NEGATIVE_LENGTH,
  E_TAGGED_SIZE_MISMATCH, E_TAPE_FULL, E_TRAILING_BYTES, E_TRUNCATED, E_VARINT_OVERFLOW, E_VARINT_TOO_LONG,
  STATUS_CODE, STATUS_DEPTH, STATUS_OFFSET,
} from '../wasm/abi.js';
import { defaultLimits, type Limits } from './types.js';
import { failedStatus } from '../wasm/status.js';

/** The scan's error codes (src/wasm/abi.ts) by number. */
const WASM_ERROR_CODES: Readonly<Record<number, DescribedCode>> = {
  [E_TRUNCATED]: 'TRUNCATED', [E_NEGATIVE_LENGTH]: 'NEGATIVE_LENGTH', [E_VARINT_TOO_LONG]: 'VARINT_TOO_LONG',
  [E_VARINT_OVERFLOW]: 'VARINT_OVERFLOW', [E_INVALID_UTF8]: 'INVALID_UTF8', [E_DUPLICATE_TAG]: 'DUPLICATE_TAG',
  [E_TAGGED_SIZE_MISMATCH]: 'TAGGED_SIZE_MISMATCH', [E_TRAILING_BYTES]: 'TRAILING_BYTES',
  [E_FRAME_SIZE_MISMATCH]: 'FRAME_SIZE_MISMATCH', [E_ARRAY_LIMIT]: 'ARRAY_LIMIT', [E_LENGTH_LIMIT]: 'LENGTH_LIMIT',
  [E_DEPTH_LIMIT]: 'DEPTH_LIMIT',
};

/** The API key and version a request frame announces (bytes 4-8). */
export function peekRequest(frame: Uint8Array): { apiKey: number; apiVersion: number } {
  if (frame.length < 8) throw new KafkaWireError('TRUNCATED', frame.length, 'header', 'a request frame needs at least 8 bytes');
  return { apiKey: be16(frame, 4), apiVersion: be16(frame, 6) };
}

/** Where a finished scan left its tape. */
export interface ScanResult {
  /** Word index of the tape's first word in the `i32` view. */
  start: number;
  words: number;
}

/**
 * A frame's spans tape (value words with each value's offset and length), copied out of
 * WebAssembly memory. A frame the scan refuses gives its KafkaWireError with the tape as far as
 * the scan got: every value it had checked before the failure (explain shows a damaged frame
 * that far). Anything else thrown is rethrown.
 */
export function scanSpans(
  plan: { header: CompiledStruct | null; body: CompiledStruct }, frame: Uint8Array, limits: Limits | undefined,
): { tape: Int32Array; error?: KafkaWireError } {
  const progress = { tapePtr: -1 }; // no tape yet: a frame refused before the scan runs has read nothing
  try {
    const { start, words } = scanMessage(plan, frame, true, true, limits, progress);
    return { tape: i32.slice(start, start + words) };
  } catch (error) {
    if (!(error instanceof KafkaWireError)) throw error;
    const { tapePtr } = progress;
    return { tape: tapePtr < 0 ? new Int32Array(0) : i32.slice(tapePtr >> 2, codecWasm().tapePosition() >> 2), error };
  }
}

/**
 * Runs the WebAssembly scan over `input`; on success the tape is at i32[start, start + words).
 * The tape stays valid until the next call into the codec. `progress`, when given, learns where
 * the tape is as soon as the scan starts writing it, so a failure's tape can be read back.
 */
export function scanMessage(
  plan: { header: CompiledStruct | null; body: CompiledStruct }, input: Uint8Array, framed: boolean,
  withSpans: boolean, limits: Limits | undefined, progress?: { tapePtr: number },
): ScanResult {
  const maxFrameSize = limits?.maxFrameSize ?? defaultLimits.maxFrameSize;
  const size = framed ? input.length - 4 : input.length;
  if (size > maxFrameSize) {
    throw new KafkaWireError('FRAME_LIMIT', 0, '', `a frame of ${size} bytes, over the maxFrameSize limit of ${maxFrameSize}`);
  }
  const inputPtr = scratchBase();
  ensureMemory(inputPtr + input.length);
  u8.set(input, inputPtr); // once: growing memory for a larger tape keeps it
  let tapeBytes = (input.length + 64) * (withSpans ? 16 : 4);
  for (;;) {
    const tapePtr = (inputPtr + input.length + 7) & ~7;
    const scratchPtr = tapePtr + tapeBytes;
    ensureMemory(scratchPtr + input.length * 2 + 64);
    if (progress !== undefined) progress.tapePtr = tapePtr;
    try {
      const words = codecWasm().scan(plan.header?.ptr ?? 0, plan.body.ptr, inputPtr, input.length, framed,
        tapePtr, tapeBytes, scratchPtr, withSpans,
        limits?.maxArrayLength ?? defaultLimits.maxArrayLength,
        limits?.maxLength ?? defaultLimits.maxLength,
        limits?.maxDepth ?? defaultLimits.maxDepth);
      return { start: tapePtr >> 2, words };
    } catch (error) {
      const status = failedStatus(error, i32, codecWasm().statusPtr());
      if (i32[status + STATUS_CODE] === E_TAPE_FULL) { tapeBytes *= 2; continue; }
      throw scanError(plan, status);
    }
  }
}

/** The error a failed scan's status block (word index `status`) describes. */
function scanError(plan: { header: CompiledStruct | null; body: CompiledStruct }, status: number): KafkaWireError {
  const depth = i32[status + STATUS_DEPTH];
  const ops = codecWasm().pathOpsPtr() >> 2;
  const indexes = codecWasm().pathIndexesPtr() >> 2;
  let path = '';
  let root = plan.body.name;
  for (let d = 0; d <= depth; d++) {
    const op = i32[ops + d];
    const field = op === 0 ? undefined : opFields.get(op);
    if (d === 0 && field !== undefined && plan.header !== null && plan.header.fields.includes(field)) root = 'header';
    path += field === undefined ? (op === 0 ? '.taggedFields' : '') : `.${field.name}`;
    const index = i32[indexes + d];
    if (index >= 0) path += `[${index}]`;
  }
  const errorCode = WASM_ERROR_CODES[i32[status + STATUS_CODE]] ?? 'TRUNCATED';
  return new KafkaWireError(errorCode, i32[status + STATUS_OFFSET], depth < 0 ? root : root + path);
}
