// Where every field of a batch's records lies, for explain: the WebAssembly record walker in spans
// mode (spanRecords, assembly/records/batch.ts), so explain reads the record format through the
// same parser as the decoder. Offsets count from the start of the records section given.
import { RECORDS_OUT_OF_MEMORY, ROW_ATTRIBUTES, ROW_FIRST_HEADER, ROW_HEADER_COUNT, ROW_KEY_LENGTH, ROW_KEY_OFFSET,
  ROW_OFFSET_DELTA, ROW_TIMESTAMP_DELTA, ROW_VALUE_LENGTH, ROW_VALUE_OFFSET, ROW_WORDS, HEADER_KEY_LENGTH,
  HEADER_KEY_OFFSET, HEADER_VALUE_LENGTH, HEADER_VALUE_OFFSET, HEADER_WORDS, SPAN_END, SPAN_HEADER_COUNT_END,
  SPAN_LENGTH_END, SPAN_OFFSET_DELTA_END, SPAN_START, SPAN_TIMESTAMP_DELTA_END, SPAN_WORDS, STATUS_CODE,
  STATUS_RECORD, WALK_COUNT, WALK_HEADER_WORDS, WALK_HEADERS, WALK_ROWS, WALK_SPANS, WALK_STOP,
} from '../wasm/abi.js';
import { alloc, copyIn, failedCall, memI32, setTop, statusError, top, wasm } from './engine.js';

/** A key or value: where its length varint starts and ends, and its length (-1 null). */
export interface DataSpan {
  start: number;
  /** The end of its length varint, where the bytes start. */
  dataStart: number;
  length: number;
  /** The end of the bytes (= dataStart for null or empty). */
  end: number;
}

export interface RecordSpans {
  start: number;
  /** The end of the length varint: the attributes byte is there. */
  lengthEnd: number;
  timestampDeltaEnd: number;
  offsetDeltaEnd: number;
  /** Where the header count varint ends (it starts where the value ends). */
  headerCountEnd: number;
  end: number;
  attributes: number;
  timestampDelta: bigint;
  offsetDelta: number;
  key: DataSpan;
  value: DataSpan;
  headers: { key: DataSpan; value: DataSpan }[];
}

export interface RecordsLayout {
  /** The records read, in order: at most the batch's count, as far as the bytes go. */
  records: RecordSpans[];
  /** Where reading stopped: the end of the last record read. */
  stop: number;
  /** Whether the record at `stop` does not parse (else the bytes from `stop` follow the last record). */
  failed: boolean;
}

function dataSpan(start: number, dataStart: number, length: number): DataSpan {
  return { start, dataStart, length, end: dataStart + Math.max(length, 0) };
}

/** Reads at most `count` records from `data` (a batch's records section, decompressed if it was compressed). */
export function recordSpans(data: Uint8Array, count: number): RecordsLayout {
  const w = wasm();
  const mark = top;
  try {
    const p = copyIn(data);
    const out = alloc(WALK_HEADER_WORDS * 4);
    let read: number;
    let failed = false;
    try {
      w.spanRecords(p, data.length, count, out);
      read = memI32()[(out >> 2) + WALK_COUNT];
    } catch (thrown) {
      const status = failedCall(thrown);
      // Running out of memory says nothing about the bytes: that is an error, not a layout.
      if (memI32()[status + STATUS_CODE] === RECORDS_OUT_OF_MEMORY) throw statusError(thrown);
      read = memI32()[status + STATUS_RECORD];
      failed = true;
    }
    const I = memI32();
    const h = out >> 2;
    const rows = I[h + WALK_ROWS] >> 2;
    const spans = I[h + WALK_SPANS] >> 2;
    const headers = I[h + WALK_HEADERS] >> 2;
    const records: RecordSpans[] = [];
    for (let r = 0; r < read; r++) {
      const row = rows + r * ROW_WORDS;
      const span = spans + r * SPAN_WORDS;
      const key = dataSpan(I[span + SPAN_OFFSET_DELTA_END], I[row + ROW_KEY_OFFSET], I[row + ROW_KEY_LENGTH]);
      const value = dataSpan(key.end, I[row + ROW_VALUE_OFFSET], I[row + ROW_VALUE_LENGTH]);
      const recordHeaders: RecordSpans['headers'] = [];
      let at = I[span + SPAN_HEADER_COUNT_END];
      for (let i = 0; i < I[row + ROW_HEADER_COUNT]; i++) {
        const e = headers + (I[row + ROW_FIRST_HEADER] + i) * HEADER_WORDS;
        const headerKey = dataSpan(at, I[e + HEADER_KEY_OFFSET], I[e + HEADER_KEY_LENGTH]);
        const headerValue = dataSpan(headerKey.end, I[e + HEADER_VALUE_OFFSET], I[e + HEADER_VALUE_LENGTH]);
        recordHeaders.push({ key: headerKey, value: headerValue });
        at = headerValue.end;
      }
      records.push({
        start: I[span + SPAN_START],
        lengthEnd: I[span + SPAN_LENGTH_END],
        timestampDeltaEnd: I[span + SPAN_TIMESTAMP_DELTA_END],
        offsetDeltaEnd: I[span + SPAN_OFFSET_DELTA_END],
        headerCountEnd: I[span + SPAN_HEADER_COUNT_END],
        end: I[span + SPAN_END],
        attributes: I[row + ROW_ATTRIBUTES] << 24 >> 24,
        timestampDelta: (BigInt(I[row + ROW_TIMESTAMP_DELTA + 1]) << 32n) | BigInt(I[row + ROW_TIMESTAMP_DELTA] >>> 0),
        offsetDelta: I[row + ROW_OFFSET_DELTA],
        key,
        value,
        headers: recordHeaders,
      });
    }
    const stop = failed ? (read > 0 ? records[read - 1].end : 0) : I[h + WALK_STOP];
    return { records, stop, failed };
  } finally {
    setTop(mark);
  }
}
