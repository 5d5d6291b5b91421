// The records walker's spans mode (what explain shows) against the decoder's values: for every
// codec and for legacy message sets, each explained key, value, header and delta is the decoded
// one, and the spans tile the bytes with neither gaps nor overlaps.
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeRecordBatches, decompress, encodeRecordBatch, initZstd, type CompressionName } from '../../src/records/index.js';
import { recordSpans } from '../../src/records/spans.js';
import { explainRecords } from '../../src/explain/records-layout.js';
import type { ExplainNode } from '../../src/explain/nodes.js';
import { RECORDS_OFFSET } from '../../src/wasm/abi.js';
import { concat, hex, legacyMessage } from './helpers.js';

beforeAll(() => initZstd());

const records = Array.from({ length: 12 }, (_, i) => ({
  key: i % 4 === 0 ? null : `key-${i}`,
  value: i % 5 === 1 ? null : i % 3 === 2 ? new Uint8Array([0, 255, i]) : 'v'.repeat(i * 11),
  headers: Array.from({ length: i % 3 }, (_, h) => ({ key: `h${h}`, value: h === 1 ? null : `x${i}` })),
  timestamp: 1_700_000_000_000 + (i % 2 ? -90_000_000 * i : 300 * i),
}));

const child = (n: ExplainNode, name: string) => {
  const found = n.children.find((c) => c.name === name);
  if (found === undefined) throw new Error(`${n.name} has no ${name}`);
  return found;
};

/** Each child starts where the one before it ends, and together they fill their parent. */
function expectTiled(n: ExplainNode): void {
  if (n.children.length === 0) return;
  let at = n.offset;
  for (const c of n.children) {
    expect([n.name, c.name, c.offset]).toEqual([n.name, c.name, at]);
    expectTiled(c);
    at += c.size;
  }
  expect([n.name, at]).toEqual([n.name, n.offset + n.size]);
}

describe.each(['none', 'gzip', 'snappy', 'lz4', 'zstd'] as CompressionName[])('spans of a %s batch', (compression) => {
  const batch = encodeRecordBatch({ compression, records, baseOffset: 1000n });
  const decoded = decodeRecordBatches(batch).batches[0];

  it('show the decoded values', () => {
    const [tree] = explainRecords(batch, 0, batch.length);
    const list = child(tree, 'records');
    const shown = compression === 'none' ? list.children.slice(1) : child(list, 'compressed').children;
    expect(shown.map((n) => n.name)).toEqual(records.map((_, i) => `Record[${i}]`));
    decoded.records.forEach((record, i) => {
      const n = shown[i];
      expect(child(n, 'key').value).toBe(hex(record.key));
      expect(child(n, 'value').value).toBe(hex(record.value));
      expect(child(n, 'offsetDelta').value).toBe(Number(record.offset - decoded.baseOffset));
      expect(child(n, 'timestampDelta').value).toBe((record.timestamp - decoded.baseTimestamp).toString());
      const headers = child(n, 'headers').children.slice(1);
      expect(headers.map((h) => [Buffer.from(child(h, 'key').value as string, 'hex').toString(), child(h, 'value').value]))
        .toEqual(record.headers.map((h) => [h.key, hex(h.value)]));
    });
    if (compression === 'none') expectTiled(tree);
    else for (const n of shown) expectTiled(n);
  });

  it('tile the records section, and point at the decoded bytes', () => {
    const section = batch.subarray(RECORDS_OFFSET);
    const data = compression === 'none' ? section : decompress(compression, section);
    const layout = recordSpans(data, decoded.recordCount);
    expect(layout.failed).toBe(false);
    expect(layout.stop).toBe(data.length);
    let at = 0;
    layout.records.forEach((r, i) => {
      const record = decoded.records[i];
      expect(r.start).toBe(at);
      const view = (s: { dataStart: number; end: number; length: number }) => (s.length < 0 ? null : hex(data.subarray(s.dataStart, s.end)));
      expect([view(r.key), view(r.value)]).toEqual([hex(record.key), hex(record.value)]);
      expect(r.headers.map((h) => [Buffer.from(data.subarray(h.key.dataStart, h.key.end)).toString(), view(h.value)]))
        .toEqual(record.headers.map((h) => [h.key, hex(h.value)]));
      expect(r.key.start).toBe(r.offsetDeltaEnd);
      expect(r.value.start).toBe(r.key.end);
      expect(r.headers.length ? r.headers[r.headers.length - 1].value.end : r.headerCountEnd).toBe(r.end);
      at = r.end;
    });
    expect(at).toBe(data.length);
  });
});

describe('spans of damaged records', () => {
  const batch = encodeRecordBatch({ records });
  const section = batch.subarray(RECORDS_OFFSET);

  it('stop at a record that does not parse, keeping the ones before it', () => {
    const whole = recordSpans(section, records.length);
    const cut = whole.records[7].start + 3;
    const layout = recordSpans(section.subarray(0, cut), records.length);
    expect(layout).toMatchObject({ failed: true, stop: whole.records[7].start });
    expect(layout.records).toEqual(whole.records.slice(0, 7));
  });

  it('stop at the declared count, leaving what follows', () => {
    const layout = recordSpans(section, 4);
    expect(layout.failed).toBe(false);
    expect(layout.records).toHaveLength(4);
    expect(layout.stop).toBe(layout.records[3].end);
  });

  it('stop at the end of the bytes when fewer records are there than declared', () => {
    const layout = recordSpans(section, records.length + 50);
    expect(layout).toMatchObject({ failed: false, stop: section.length });
    expect(layout.records).toHaveLength(records.length);
  });
});

describe('legacy message sets', () => {
  it('show the decoded keys, values and timestamps', () => {
    const set = concat(
      legacyMessage({ offset: 5n, magic: 0, key: new Uint8Array([1, 2]), value: new Uint8Array([3]) }),
      legacyMessage({ offset: 6n, magic: 1, timestamp: 1_700_000_000_123n, key: null, value: new Uint8Array([104, 105]) }),
      legacyMessage({ offset: 7n, magic: 1, timestamp: 1_700_000_000_456n, key: new Uint8Array([7]), value: null }),
    );
    const decoded = decodeRecordBatches(set).batches;
    const tree = explainRecords(set, 0, set.length);
    expect(tree.map((n) => n.name)).toEqual(['Message[0]', 'Message[1]', 'Message[2]']);
    tree.forEach((n, i) => {
      const record = decoded[i].records[0];
      expect([child(n, 'key').value, child(n, 'value').value]).toEqual([hex(record.key), hex(record.value)]);
      if (i > 0) expect(child(n, 'timestamp').value).toBe(record.timestamp.toString());
      expectTiled(n);
    });
  });
});
