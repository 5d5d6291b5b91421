// The JSON-lines WebAssembly module's binding (assembly/json-lines.ts): records [from, to) of a
// decoded batch written as kafka-wire consume's JSON lines in one call per output region. The
// module is instantiated on first use, in the memory the records engine shares; only the CLI
// imports this file (records/index.ts does not export it), so the library's bundles carry none of it.
import type { RecordBatch } from './batch.js';
import { wasmBase64 } from '../wasm/json-lines.generated.js';
import { embedded, embeddedExports } from '../wasm/load.js';
import { alloc, mem, memI32, setTop, top, wasm } from './engine.js';
import {
  JSON_ALL, JSON_ASIDE, JSON_BASE_OFFSET, JSON_BLOCK_WORDS, JSON_COUNT, JSON_DATA, JSON_DONE, JSON_HEAD, JSON_HEAD_LENGTH,
  JSON_HEADERS, JSON_LOG_APPEND, JSON_TAIL, JSON_TAIL_LENGTH, JSON_OUT, JSON_OUT_END, JSON_REASON, JSON_ROWS, JSON_TIMESTAMP, JSON_WRITTEN_END, HEADER_WORDS,
  ROW_FIRST_HEADER, ROW_HEADER_COUNT, ROW_WORDS,
} from '../wasm/abi.js';

interface JsonLinesExports {
  jsonLines(block: number): void;
}

const module = embedded<JsonLinesExports>(wasmBase64);

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/**
 * The largest output region of one call (sized for the batch's worst case, each byte escaped, up
 * to this): when it is full, what it holds is handed on and the next call goes on from there.
 */
const MAX_OUT_BYTES = 16 << 20;

/**
 * Whether writeJsonLines can take `batch`: a v2 batch with a tape whose timestamps it can write
 * (a log-append batch's time a safe integer). Legacy message sets have no tape.
 */
export function jsonLinesTake(batch: RecordBatch): boolean {
  if (batch._rows === undefined || batch._hdrs === undefined || batch.magic !== 2) return false;
  if (batch.timestampType !== 'logAppend') return true;
  const t = batch.maxTimestamp;
  return t <= MAX_SAFE && t >= -MAX_SAFE;
}

/**
 * Writes records [from, to) of `batch` (jsonLinesTake(batch) true, offsets safe integers) as
 * JSON lines, each starting with `head` ({"topic":T,"partition":P,"offset":): `written` gets the
 * bytes (a view of WebAssembly memory, valid until it returns: copy them), `aside(i)` must write
 * record i itself (invalid UTF-8, an unsafe timestamp, a header key starting with a BOM, a line
 * larger than the largest region), in order between the others. `tail` (JSON text starting with a
 * comma) goes in every line after its headers, before its closing brace.
 */
export function writeJsonLines(batch: RecordBatch, from: number, to: number, head: Uint8Array,
  written: (bytes: Uint8Array) => void, aside: (index: number) => void, tail?: Uint8Array): void {
  if (to <= from) return;
  const rows = batch._rows!, hdrs = batch._hdrs!;
  wasm(); // the records engine's instance zeroes the memory below its arena: first
  const w = embeddedExports(module);
  const mark = top;
  try {
    const data = batch.data;
    // An uncompressed batch's data is the whole records field of the answer: only its own bytes go in.
    const lo = batch.compression === 'none' ? batch.byteOffset : 0;
    const hi = batch.compression === 'none' ? lo + batch.byteLength : data.length;
    const count = to - from;
    // The batch's rows [from, to) in its table, and the headers they point at (indices run on
    // through every batch of the table).
    const r0 = batch._rowBase + from * ROW_WORDS, r1 = batch._rowBase + to * ROW_WORDS;
    const hdrLo = rows[r0 + ROW_FIRST_HEADER]!, hdrHi = rows[r1 - ROW_WORDS + ROW_FIRST_HEADER]! + rows[r1 - ROW_WORDS + ROW_HEADER_COUNT]!;
    const hdrWords = (hdrHi - hdrLo) * HEADER_WORDS;
    const dataPtr = alloc(hi - lo);
    const rowsPtr = alloc(count * ROW_WORDS * 4);
    const hdrsPtr = alloc(hdrWords * 4);
    const headPtr = alloc(head.length);
    const tailLength = tail?.length ?? 0;
    const tailPtr = alloc(tailLength);
    const block = alloc(JSON_BLOCK_WORDS * 4);
    // The most the lines can take (json-lines.ts's per-line bound summed): one call, mostly.
    const outBytes = Math.min(MAX_OUT_BYTES, 6 * (hi - lo) + count * (head.length + tailLength + 128) + 8 * hdrWords);
    const outPtr = alloc(outBytes);
    const u8 = mem(), I = memI32();
    u8.set(data.subarray(lo, hi), dataPtr);
    I.set(rows.subarray(r0, r1), rowsPtr >> 2);
    I.set(hdrs.subarray(hdrLo * HEADER_WORDS, hdrLo * HEADER_WORDS + hdrWords), hdrsPtr >> 2);
    u8.set(head, headPtr);
    if (tail !== undefined) u8.set(tail, tailPtr);
    const b = block >> 2;
    const logAppend = batch.timestampType === 'logAppend';
    const time = logAppend ? batch.maxTimestamp : batch.baseTimestamp;
    I[b + JSON_DATA] = dataPtr - lo;
    I[b + JSON_HEADERS] = hdrsPtr - hdrLo * HEADER_WORDS * 4;
    I[b + JSON_HEAD] = headPtr;
    I[b + JSON_HEAD_LENGTH] = head.length;
    I[b + JSON_BASE_OFFSET] = Number(BigInt.asIntN(32, batch.baseOffset));
    I[b + JSON_BASE_OFFSET + 1] = Number(BigInt.asIntN(32, batch.baseOffset >> 32n));
    I[b + JSON_TIMESTAMP] = Number(BigInt.asIntN(32, time));
    I[b + JSON_TIMESTAMP + 1] = Number(BigInt.asIntN(32, time >> 32n));
    I[b + JSON_LOG_APPEND] = logAppend ? 1 : 0;
    I[b + JSON_TAIL] = tailPtr;
    I[b + JSON_TAIL_LENGTH] = tailLength;
    for (let i = 0; i < count;) {
      I[b + JSON_ROWS] = rowsPtr + i * ROW_WORDS * 4;
      I[b + JSON_COUNT] = count - i;
      I[b + JSON_OUT] = outPtr;
      I[b + JSON_OUT_END] = outPtr + outBytes;
      w.jsonLines(block);
      const done = I[b + JSON_DONE], end = I[b + JSON_WRITTEN_END], reason = I[b + JSON_REASON];
      if (end > outPtr) written(u8.subarray(outPtr, end));
      i += done;
      if (reason === JSON_ALL) break;
      // Left aside, or a line larger than the region: the caller writes that record.
      if (reason === JSON_ASIDE || done === 0) aside(from + i++);
    }
  } finally {
    setTop(mark);
  }
}
