// The wire half of the message codec. JavaScript compiles each message version into a small
// program (src/codec/plan.ts) and calls in here once per frame:
//   scan: walk a whole frame, check everything Kafka's reader would reject (and the input it
//         could never have meant), and write a tape of i32 words the facade turns into objects;
//   emit: walk the same program over a tape the facade filled from objects, writing the frame.
// Errors trap (unreachable) after writing code, offset and depth to the status block and the
// field path to its path arrays (src/wasm/abi.ts); a trap leaves the instance usable, and every
// call resets the state it reads.
//
// This file is the module's entry (scripts/asbuild.mjs compiles it): its exports are the module's.
// The parts are in assembly/codec/:
//   status.ts     the status block and field path a failed call leaves for the facade
//   tape.ts       the tape of words between the module and the facade, and its cursor
//   read.ts       the scan's position and bounds, and its reads (bounds check, varint, compact length)
//   utf8.ts       UTF-8 validation of strings
//   scan.ts       the scan's walk over a message version's program
//   scan-flat.ts  the scan's fast path for flat structs and integer arrays
//   write.ts      the emit's output position, and its writes (big-endian, varint, heap copies)
//   emit.ts       the emit's walk
// Kafka's big-endian integers and base-128 varints, which the records module writes too, come from
// assembly/wire/.
// (Imported, then exported, in this order so the compiled module's globals and exports keep the
// order they had when the codec was one file.)
import { STATUS, pathOps, pathIndexes } from './codec/status';
import { scan } from './codec/scan';
import { emit } from './codec/emit';
import { tapePosition } from './codec/tape';
export { tapePosition, scan, emit };

// Addresses the facade reads and fills.
export function heapBase(): usize { return __heap_base; }
export function statusPtr(): usize { return STATUS; }
export function pathOpsPtr(): usize { return pathOps; }
export function pathIndexesPtr(): usize { return pathIndexes; }
