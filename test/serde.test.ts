// src/serde.ts on its own: the built-in serdes round-trip (seeded random strings and JSON values,
// checked against Node's own UTF-8 and JSON), nulls never reach a serialiser, a throwing one
// becomes a SerdeError that names the topic, field and record, and jsonSafe() output is what
// JSON.stringify can write (int64 as decimal strings, bytes as lowercase hex).
import { describe, expect, it } from 'vitest';
import { jsonSafe, RecordDeserializer, SerdeError, serdes, serializeRecords } from '../src/serde.js';
import { prng } from './helpers/random.js';

const random = prng(36);
const pick = (n: number) => Math.floor(random() * n);
const CODE_POINTS = [0x41, 0x7f, 0xe9, 0x65e5, 0x1f389, 0x10ffff, 0x0, 0xa];
const randomString = () => Array.from({ length: pick(12) }, () => String.fromCodePoint(CODE_POINTS[pick(CODE_POINTS.length)]!)).join('');
function randomJson(depth = 0): unknown {
  switch (pick(depth > 2 ? 4 : 6)) {
    case 0: return randomString();
    case 1: return pick(2) === 0 ? pick(1e6) - 5e5 : random();
    case 2: return pick(2) === 0;
    case 3: return null;
    case 4: return Array.from({ length: pick(4) }, () => randomJson(depth + 1));
    default: return Object.fromEntries(Array.from({ length: pick(4) }, () => [randomString(), randomJson(depth + 1)]));
  }
}

describe('serdes', () => {
  it('string and json round-trip 500 seeded values, with the same bytes as Node writes', () => {
    const json = serdes.json<unknown>();
    for (let i = 0; i < 500; i++) {
      const s = randomString();
      const bytes = serdes.string.serialize(s);
      expect(Buffer.from(bytes).equals(Buffer.from(s, 'utf8'))).toBe(true);
      expect(serdes.string.deserialize(bytes)).toBe(s);
      const v = randomJson();
      const encoded = json.serialize(v);
      expect(Buffer.from(encoded).toString('utf8')).toBe(JSON.stringify(v));
      expect(json.deserialize(encoded)).toEqual(v);
    }
  });

  it('json writes bigint as a decimal string; bytes pass through', () => {
    expect(Buffer.from(serdes.json().serialize({ offset: 2n ** 63n - 1n })).toString()).toBe('{"offset":"9223372036854775807"}');
    const b = Uint8Array.of(1, 2);
    expect(serdes.bytes.serialize(b)).toBe(b);
  });

  it('string refuses bytes that are not UTF-8 (as a SerdeError through the consumer)', () => {
    const d = new RecordDeserializer({ valueDeserializer: serdes.string });
    const raw = { offset: 7n, timestamp: 0n, key: null, value: Uint8Array.of(0xff, 0xfe), headers: [] };
    expect(() => d.record('t', 2, raw)).toThrow(SerdeError);
    try { d.record('t', 2, raw); } catch (err) {
      expect(err).toMatchObject({ code: 'DESERIALIZE', topic: 't', partition: 2, offset: 7n, field: 'value' });
      expect((err as Error).message).toMatch(/^t\/2@7: the value deserializer failed: /);
    }
  });
});

describe('serializeRecords', () => {
  it('serialises keys and values; null and absent stay as they are; records without serialisers are untouched', () => {
    const calls: unknown[] = [];
    const records = [{ key: 1, value: { a: 1 } }, { key: null, value: null }, { timestamp: 5 }];
    const out = serializeRecords('t', records, { keySerializer: (k: number) => { calls.push(k); return Uint8Array.of(k); }, valueSerializer: serdes.json() });
    expect(out[0]!.key).toEqual(Uint8Array.of(1));
    expect(Buffer.from(out[0]!.value as Uint8Array).toString()).toBe('{"a":1}');
    expect(out[1]).toEqual({ key: null, value: null });
    expect(out[2]).toEqual({ timestamp: 5, key: undefined, value: undefined });
    expect(calls).toEqual([1]);
    const plain = [{ key: 'k', value: 'v' }];
    expect(serializeRecords('t', plain, {})).toBe(plain);
  });

  it('a serialiser that throws: SerdeError with the topic, the field and the cause', () => {
    const cause = new Error('no');
    const err = (() => { try { serializeRecords('orders', [{ key: 'x' }], { keySerializer: () => { throw cause; } }); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(SerdeError);
    expect(err).toMatchObject({ name: 'SerdeError', code: 'SERIALIZE', topic: 'orders', field: 'key', cause });
  });
});

describe('jsonSafe', () => {
  it('turns bigint into decimal strings and bytes into lowercase hex, deeply; the rest stays', () => {
    const record = { topic: 't', offset: -1n, timestamp: 1_700_000_000_000n, key: Uint8Array.of(0xab, 0x01), value: { n: 1, list: [2n, 'x', null] }, headers: [{ key: 'h', value: null }] };
    const safe = jsonSafe(record);
    expect(safe).toEqual({ topic: 't', offset: '-1', timestamp: '1700000000000', key: 'ab01', value: { n: 1, list: ['2', 'x', null] }, headers: [{ key: 'h', value: null }] });
    expect(JSON.parse(JSON.stringify(safe))).toEqual(safe);
    expect(record.offset).toBe(-1n); // a copy
  });
});
