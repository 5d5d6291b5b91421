// JsonWriter writes the bytes of JSON.stringify's text: checked on random values (escapes,
// non-ASCII, lone surrogates, nesting, growth past its buffer), on bytes as hex and bigints as
// strings, and on every frame line of the capture fixtures and a capture with large batches and
// a frame that does not decode, against JSON.stringify of captureFrameToJson.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonWriter } from '../src/json-writer.js';
import { toHex } from '../src/text.js';
import { captureFrameToJson, readCapture, writeCaptureFrameLine, type CaptureFrame } from '../src/capture/index.js';
import { encodeRequest, newMessage } from '../src/codec/by-key.js';
import { encodeRecordBatch } from '../src/records/index.js';
import { captureOf, conversationSegments, sampleExchanges } from './capture/helpers.js';

const utf8 = new TextDecoder();

function written(value: unknown, capacity?: number): string {
  const w = new JsonWriter(capacity);
  w.value(value);
  return utf8.decode(w.take());
}

describe('JsonWriter', () => {
  it('writes what JSON.stringify writes, for any JSON value and any string', () => {
    const strings = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }));
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        strings, fc.double(), fc.integer(), fc.boolean(), fc.constant(null),
        fc.array(tie('any')), fc.dictionary(strings, tie('any')),
      ),
    })).any;
    // A small buffer, so values also cross its growth.
    fc.assert(fc.property(value, (v) => { expect(written(v, 8)).toBe(JSON.stringify(v)); }), { numRuns: 500 });
  });

  it('leaves out and nulls what JSON.stringify does; integer keys first', () => {
    const v = { b: undefined, f: () => 1, a: [undefined, () => 1, 1], 2: 'two', 1: 'one', d: new Date(0), z: -0, n: NaN, i: -Infinity };
    expect(written(v)).toBe(JSON.stringify(v));
  });

  it('writes bytes as lowercase hex (every length around its wide step) and bigints as decimal strings', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 0xff);
    for (let n = 0; n < 80; n++) {
      for (const offset of [0, 1, 3]) {
        const b = bytes.subarray(offset, offset + n);
        expect(written({ b })).toBe(JSON.stringify({ b: toHex(b) }));
      }
    }
    expect(written([-(2n ** 63n), 0n, 2n ** 64n])).toBe('["-9223372036854775808","0","18446744073709551616"]');
  });

  it('hands out separate bytes from take(), and reuses released ones', () => {
    const w = new JsonWriter(64);
    w.value('first');
    const first = w.take();
    w.release(first);
    w.value('second');
    const second = w.take();
    expect(second.buffer).not.toBe(first.buffer);
    w.value('third');
    const third = w.take();
    expect(third.buffer).toBe(first.buffer);
    expect([utf8.decode(second), utf8.decode(third)]).toEqual(['"second"', '"third"']);
  });
});

describe('capture lines through JsonWriter', () => {
  function lines(bytes: Uint8Array): void {
    const frames = [...readCapture(bytes)].filter((e): e is CaptureFrame => e.type === 'frame');
    expect(frames.length).toBeGreaterThan(0);
    const w = new JsonWriter(1024);
    const expected: string[] = [];
    for (const f of frames) {
      writeCaptureFrameLine(w, f);
      expected.push(`${JSON.stringify(captureFrameToJson(f))}\n`);
    }
    expect(utf8.decode(w.take())).toBe(expected.join(''));
  }

  for (const name of ['kcat-memory-broker.pcap', 'kcat-mock-cluster.pcap', 'kafkajs-memory-broker.pcap']) {
    it(`${name}: byte for byte the JSON.stringify lines`, () => lines(new Uint8Array(readFileSync(join(import.meta.dirname, 'capture', 'fixtures', name)))));
  }

  it('large batches, and a frame that does not decode, byte for byte', () => {
    const batch = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 1n, records: Array.from({ length: 64 }, (_, i) => ({ key: null, value: `é ${i} `.repeat(90) })) });
    const produce = encodeRequest({ requestApiKey: 0, requestApiVersion: 9, correlationId: 9, clientId: 'large "batch"' },
      newMessage(0, 'request', 9, { acks: -1, timeoutMs: 1, topicData: [{ name: 'orders', partitionData: [{ index: 0, records: batch }] }] }));
    const broken = produce.slice(0, 60);
    new DataView(broken.buffer).setInt32(0, broken.length - 4);
    const exchanges = [...sampleExchanges(), { request: produce, response: sampleExchanges()[2].response }, { request: broken, response: sampleExchanges()[0].response }];
    lines(captureOf(conversationSegments(exchanges, { maxSegment: 1400 }).segments));
  });
});
