// Where a failed call of the codec module leaves its reason for the facade (src/wasm/status.ts):
// the status block (code, offset, depth; src/wasm/abi.ts) and the field path, as the op and the
// array index at each nesting depth.
import { STATUS_BYTES } from '../../src/wasm/abi';

/** The deepest nesting the scan follows; the path arrays hold one word per level. */
export const MAX_DEPTH = 64;
export const pathOps = memory.data(MAX_DEPTH * 4);
export const pathIndexes = memory.data(MAX_DEPTH * 4);
export const STATUS = memory.data(STATUS_BYTES, 16);
