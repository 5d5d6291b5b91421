// The byte layout of a records field for explain: RecordBatch v2 (and legacy v0/v1 message sets)
// with every header field, the CRC checked, and the records of a batch down to their varints.
// A compressed batch's records are decompressed with src/records and shown under the payload as
// `inflated` nodes, whose offsets count from the start of the decompressed data. The records are
// read by the decoder's own walker in spans mode (src/records/spans.ts), the header fields and
// legacy messages by its readers in src/records/decode.ts.
import { COMPRESSION_NAMES, crc32, crc32c, decompress } from '../records/index.js';
import { legacyLayout, readV2Header } from '../records/decode.js';
import { recordSpans, type DataSpan, type RecordSpans, type RecordsLayout } from '../records/spans.js';
import { toHex } from '../text.js';
import { bytesDisplay, countDescription, elementCount, node, type ExplainNode } from './nodes.js';
import {
  ATTRIBUTES_OFFSET, BASE_SEQUENCE_OFFSET, BASE_TIMESTAMP_OFFSET, BATCH_LENGTH_BASE, BATCH_LENGTH_OFFSET, COMPRESSION_MASK, CRC_OFFSET,
  LAST_OFFSET_DELTA_OFFSET, MAGIC_OFFSET, MAX_TIMESTAMP_OFFSET, PARTITION_LEADER_EPOCH_OFFSET, PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET, RECORD_COUNT_OFFSET, RECORDS_OFFSET,
} from '../wasm/abi.js';

/** Largest decompressed payload explain will show. */
const MAX_INFLATED = 16 * 1024 * 1024;

function markInflated(n: ExplainNode): void {
  n.inflated = true;
  for (const c of n.children) markInflated(c);
}

function printable(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /^[^\u0000-\u001f\u007f]*$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

function dataDisplay(bytes: Uint8Array): string {
  const text = bytes.length > 0 ? printable(bytes) : null;
  if (text === null) return bytesDisplay(bytes);
  return JSON.stringify(text.length > 64 ? text.slice(0, 61) : text) + (text.length > 64 ? '...' : '');
}

function attributesNote(attributes: number): string {
  const compression = attributes & COMPRESSION_MASK;
  const parts = [`compression ${COMPRESSION_NAMES[compression] ?? `codec ${compression}`}`];
  parts.push(attributes & 8 ? 'LogAppendTime' : 'CreateTime');
  if (attributes & 0x10) parts.push('transactional');
  if (attributes & 0x20) parts.push('control');
  if (attributes & 0x40) parts.push('delete horizon');
  return parts.join(', ');
}

function hex8(n: number): string {
  return '0x' + (n >>> 0).toString(16).padStart(8, '0');
}

/** The batches of a records value at [offset, offset + length) of `frame`. */
export function explainRecords(frame: Uint8Array, offset: number, length: number): ExplainNode[] {
  const end = offset + length;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const out: ExplainNode[] = [];
  let pos = offset;
  for (let i = 0; pos < end; i++) {
    const magic = end - pos > MAGIC_OFFSET ? view.getInt8(pos + MAGIC_OFFSET) : -1;
    const declared = end - pos >= BATCH_LENGTH_BASE ? view.getInt32(pos + BATCH_LENGTH_OFFSET) : -1;
    const size = BATCH_LENGTH_BASE + declared;
    const whole = declared >= 0 && pos + size <= end;
    if (magic === 2 && whole && size >= RECORDS_OFFSET) {
      out.push(batchV2(frame, view, pos, pos + size, i));
      pos += size;
    } else if ((magic === 0 || magic === 1) && whole && declared >= (magic === 0 ? 14 : 22)) {
      out.push(legacyMessage(frame, view, pos, pos + size, i, magic));
      pos += size;
    } else {
      const bytes = frame.subarray(pos, end);
      out.push(node(`RecordBatch[${i}]`, 'bytes', pos, end - pos, 'RecordBatch', {
        value: toHex(bytes), display: bytesDisplay(bytes),
        description: magic >= 0 && magic <= 2 && !whole
          ? 'partial batch (a fetch response may end with one)'
          : 'bytes that are not a record batch',
      }));
      break;
    }
  }
  return out;
}

function batchV2(frame: Uint8Array, view: DataView, start: number, end: number, index: number): ExplainNode {
  const b = (name: string, type: string, at: number, size: number, value: number | string, description?: string,
    note?: string) =>
    node(name, type, start + at, size, 'RecordBatch', { value, display: String(value), note, description });
  const header = readV2Header(view, start, end - start);
  const crc = header.crc;
  const computed = crc32c(frame.subarray(start + ATTRIBUTES_OFFSET, end));
  const attributes = header.attributes;
  const count = header.recordCount;
  const compression = attributes & COMPRESSION_MASK;
  const crcNode = node('crc', 'uint32', start + CRC_OFFSET, 4, 'RecordBatch', {
    value: crc, display: hex8(crc),
    note: crc === computed ? 'CRC-32C ok' : `CRC-32C mismatch, computed ${hex8(computed)}`,
    description: 'CRC-32C of the bytes from attributes to the end of the batch',
  });
  const children = [
    b('baseOffset', 'int64', 0, 8, header.baseOffset.toString(), 'offset of the first record'),
    b('batchLength', 'int32', BATCH_LENGTH_OFFSET, 4, header.batchLength, 'bytes that follow, from partitionLeaderEpoch to the end of the batch'),
    b('partitionLeaderEpoch', 'int32', PARTITION_LEADER_EPOCH_OFFSET, 4, header.partitionLeaderEpoch, 'leader epoch, set by the broker'),
    b('magic', 'int8', MAGIC_OFFSET, 1, header.magic, 'record format version'),
    crcNode,
    b('attributes', 'int16', ATTRIBUTES_OFFSET, 2, attributes, 'compression, timestamp type and batch flags', attributesNote(attributes)),
    b('lastOffsetDelta', 'int32', LAST_OFFSET_DELTA_OFFSET, 4, header.lastOffsetDelta, 'offset of the last record, relative to baseOffset'),
    b('baseTimestamp', 'int64', BASE_TIMESTAMP_OFFSET, 8, header.baseTimestamp.toString(), 'timestamp of the first record'),
    b('maxTimestamp', 'int64', MAX_TIMESTAMP_OFFSET, 8, header.maxTimestamp.toString(), 'largest timestamp in the batch'),
    b('producerId', 'int64', PRODUCER_ID_OFFSET, 8, header.producerId.toString(), 'idempotent or transactional producer, -1 for none'),
    b('producerEpoch', 'int16', PRODUCER_EPOCH_OFFSET, 2, header.producerEpoch, 'epoch of the producer'),
    b('baseSequence', 'int32', BASE_SEQUENCE_OFFSET, 4, header.baseSequence, 'sequence number of the first record'),
  ];
  const recordsStart = start + RECORD_COUNT_OFFSET;
  const lengthNode = node('length', 'int32', recordsStart, 4, 'RecordBatch', {
    value: count, display: String(count), description: countDescription(count),
  });
  const recordNodes: ExplainNode[] = [lengthNode];
  if (compression !== 0) {
    const payload = frame.subarray(start + RECORDS_OFFSET, end);
    const codec = COMPRESSION_NAMES[compression] ?? `codec ${compression}`;
    const compressed = node('compressed', 'bytes', start + RECORDS_OFFSET, end - start - RECORDS_OFFSET, 'Record', {
      value: toHex(payload), display: bytesDisplay(payload), note: codec, description: 'compressed records',
    });
    try {
      const data = decompress(compression, payload, { maxDecompressedBytes: MAX_INFLATED });
      compressed.note = `${codec}, ${data.length} bytes decompressed; offsets below count from their start`;
      for (const record of recordsOf(data, 0, recordSpans(data, count))) {
        markInflated(record);
        compressed.children.push(record);
      }
    } catch (error) {
      compressed.note = `${codec}, does not decompress: ${error instanceof Error ? error.message : String(error)}`;
    }
    recordNodes.push(compressed);
  } else {
    const records = frame.subarray(start + RECORDS_OFFSET, end);
    const layout = recordSpans(records, count);
    recordNodes.push(...recordsOf(records, start + RECORDS_OFFSET, layout));
    if (!layout.failed && layout.stop < records.length) {
      const rest = records.subarray(layout.stop);
      recordNodes.push(node('trailing', 'bytes', start + RECORDS_OFFSET + layout.stop, rest.length, 'Record', {
        value: toHex(rest), display: bytesDisplay(rest), description: 'bytes after the last record',
      }));
    }
  }
  children.push(node('records', '[]Record', recordsStart, end - recordsStart, 'RecordBatch', {
    value: count, display: elementCount(count), children: recordNodes,
  }));
  return node(`RecordBatch[${index}]`, 'v2', start, end - start, 'RecordBatch', {
    description: `${count === 1 ? '1 record' : `${count} records`}, compression ${COMPRESSION_NAMES[compression] ?? compression}`,
    children,
  });
}

/** The nodes of the records `layout` found in `data`, whose first byte is at `at` of the frame shown. */
function recordsOf(data: Uint8Array, at: number, layout: RecordsLayout): ExplainNode[] {
  const nodes = layout.records.map((record, index) => recordNode(data, at, record, index));
  if (layout.failed) {
    const bytes = data.subarray(layout.stop);
    nodes.push(node(`Record[${layout.records.length}]`, 'bytes', at + layout.stop, bytes.length, 'Record', {
      value: toHex(bytes), display: bytesDisplay(bytes), description: 'a record that does not parse',
    }));
  }
  return nodes;
}

function recordNode(data: Uint8Array, at: number, r: RecordSpans, index: number): ExplainNode {
  const varint = (name: string, start: number, end: number, value: number | string, description?: string) =>
    node(name, 'varint', at + start, end - start, 'Record', { value, display: String(value), description });
  const bytes = (name: string, span: DataSpan, description?: string) => {
    const note = `varint len=${span.length}`;
    if (span.length < 0) {
      return node(name, 'bytes', at + span.start, span.dataStart - span.start, 'Record', { value: null, display: 'null', note, description });
    }
    const content = data.subarray(span.dataStart, span.end);
    return node(name, 'bytes', at + span.start, span.end - span.start, 'Record', {
      value: toHex(content), display: dataDisplay(content), note, description,
    });
  };
  const headersStart = r.value.end;
  const headerNodes = [node('length', 'varint', at + headersStart, r.headerCountEnd - headersStart, 'Record', {
    value: r.headers.length, display: String(r.headers.length), description: countDescription(r.headers.length),
  })];
  r.headers.forEach((header, h) => {
    const keyNode = bytes('key', header.key);
    if (typeof keyNode.value === 'string') keyNode.type = 'string';
    headerNodes.push(node(`Header[${h}]`, 'Header', at + header.key.start, header.value.end - header.key.start, 'Record', {
      display: 'struct', children: [keyNode, bytes('value', header.value)],
    }));
  });
  const headersEnd = r.headers.length > 0 ? r.headers[r.headers.length - 1].value.end : r.headerCountEnd;
  const children = [
    varint('length', r.start, r.lengthEnd, r.end - r.lengthEnd, 'bytes of the record that follow'),
    node('attributes', 'int8', at + r.lengthEnd, 1, 'Record', { value: r.attributes, display: String(r.attributes), description: 'unused' }),
    node('timestampDelta', 'varlong', at + r.lengthEnd + 1, r.timestampDeltaEnd - r.lengthEnd - 1, 'Record', {
      value: r.timestampDelta.toString(), display: r.timestampDelta.toString(), description: 'added to the batch baseTimestamp',
    }),
    varint('offsetDelta', r.timestampDeltaEnd, r.offsetDeltaEnd, r.offsetDelta, 'added to the batch baseOffset'),
    bytes('key', r.key),
    bytes('value', r.value),
    node('headers', '[]Header', at + headersStart, headersEnd - headersStart, 'Record', {
      value: r.headers.length, display: elementCount(r.headers.length), children: headerNodes,
    }),
  ];
  return node(`Record[${index}]`, 'Record', at + r.start, r.end - r.start, 'Record', { display: 'struct', children });
}

function legacyMessage(frame: Uint8Array, view: DataView, start: number, end: number, index: number, magic: number): ExplainNode {
  const children: ExplainNode[] = [];
  const add = (name: string, type: string, at: number, size: number, value: number | string, description?: string, note?: string) =>
    children.push(node(name, type, at, size, 'RecordBatch', { value, display: String(value), note, description }));
  const layout = legacyLayout(view, start, end - start);
  add('offset', 'int64', start, 8, layout.offset.toString(), 'offset of the message');
  add('messageSize', 'int32', start + 8, 4, end - start - BATCH_LENGTH_BASE, 'bytes of the message that follow');
  const crc = layout.crc;
  const computed = crc32(frame.subarray(start + 16, end));
  children.push(node('crc', 'uint32', start + 12, 4, 'RecordBatch', {
    value: crc, display: hex8(crc), note: crc === computed ? 'CRC-32 ok' : `CRC-32 mismatch, computed ${hex8(computed)}`,
    description: 'CRC-32 of the bytes from magic to the end of the message',
  }));
  add('magic', 'int8', start + 16, 1, magic, 'message format version');
  const attributes = layout.attributes << 24 >> 24;
  add('attributes', 'int8', start + 17, 1, attributes, 'compression and timestamp type',
    `compression ${COMPRESSION_NAMES[attributes & 7] ?? attributes & 7}${magic === 1 ? (attributes & 8 ? ', LogAppendTime' : ', CreateTime') : ''}`);
  if (layout.timestampAt >= 0) {
    add('timestamp', 'int64', layout.timestampAt, 8, layout.timestamp.toString(), 'timestamp of the message');
  }
  layout.fields.forEach((field, i) => {
    const name = i === 0 ? 'key' : 'value';
    const note = `int32 len=${field.length}`;
    if (field.length < 0) {
      children.push(node(name, 'bytes', field.at, 4, 'Record', { value: null, display: 'null', note }));
      return;
    }
    const bytes = frame.subarray(field.at + 4, field.end);
    children.push(node(name, 'bytes', field.at, field.end - field.at, 'Record', { value: toHex(bytes), display: dataDisplay(bytes), note }));
  });
  return node(`Message[${index}]`, `v${magic}`, start, end - start, 'RecordBatch', {
    description: `legacy message, compression ${COMPRESSION_NAMES[attributes & 7] ?? attributes & 7}`, children,
  });
}
