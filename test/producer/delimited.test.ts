// Producer.writeDelimited, the bulk path over delimited bytes (split and encoded in WebAssembly
// straight into each partition's open batch): against the memory broker, the records it stores
// must be exactly those a plain split of the input gives, keyed ones where the Java client puts
// them, in input order per partition, mixed with write() in order, with timestamps, compression,
// backpressure and the record limit as write() has them.
import { afterEach, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { partitionForKey } from '../../src/wire/partitioner.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { createProducer, type Producer } from '../../src/producer/index.js';

const text = new TextDecoder();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

async function setup(partitions: number, options: Partial<Parameters<typeof createProducer>[0]> = {}): Promise<{ b: MemoryBroker; p: Producer }> {
  const b = await startMemoryBroker({ topics: { t: partitions } });
  cleanups.push(() => b.close());
  const p = await createProducer({ bootstrap: b.bootstrap, ...options });
  cleanups.push(() => p.close({ force: true }));
  await p.topic('t');
  return { b, p };
}

function stored(b: MemoryBroker, partition: number) {
  return b.topics.get('t')!.partitions[partition]!.batches.flatMap((sb) => decodeRecordBatches(sb.bytes).batches.flatMap((x) => x.records.map((r) => ({
    key: r.key === null ? null : text.decode(r.key), value: text.decode(r.value!), timestamp: Number(r.timestamp),
    sequence: x.baseSequence + r.offsetDelta, compression: x.compression,
  }))));
}

/** Writes all of `input` in pieces of `piece` bytes, carrying unfinished records as a caller must. */
async function writeAll(p: Producer, input: Buffer, piece: number, options: { keyDelimiter: number; partition?: number }): Promise<void> {
  let carry = Buffer.alloc(0);
  for (let at = 0; at < input.length; at += piece) {
    let buf = Buffer.concat([carry, input.subarray(at, at + piece)]);
    for (;;) {
      const used = p.writeDelimited('t', buf, 0, buf.length, { recordDelimiter: 10, ...options });
      buf = buf.subarray(used);
      if (buf.length === 0 || !p.full) break;
      await p.ready();
    }
    carry = Buffer.from(buf);
  }
  while (carry.length > 0) {
    const used = p.writeDelimited('t', carry, 0, carry.length, { recordDelimiter: 10, ...options, final: true });
    carry = carry.subarray(used);
    if (carry.length > 0) await p.ready();
  }
}

describe('Producer.writeDelimited', () => {
  it('keyed lines land at murmur2 of the key, in order per partition, numbered 0.. per partition, with timestamps (lz4 too)', async () => {
    for (const compression of ['none', 'lz4'] as const) {
      const { b, p } = await setup(5, { batchBytes: 4096, compression });
      const lines = Array.from({ length: 5000 }, (_, i) => i % 97 === 0 ? `no key ${i}` : `key-${i % 300}\t{"n":${i}}`);
      const before = Date.now();
      await writeAll(p, Buffer.from(lines.join('\n')), 7919, { keyDelimiter: 9 });
      await p.flush();
      const after = Date.now();
      const all = [0, 1, 2, 3, 4].map((q) => stored(b, q));
      expect(all.flat().length).toBe(5000);
      for (const [q, records] of all.entries()) {
        records.forEach((r, i) => {
          expect(r.sequence).toBe(i);
          expect(r.timestamp >= before && r.timestamp <= after).toBe(true);
          expect(r.compression).toBe(compression);
        });
        const keyed = lines.filter((l) => l.includes('\t')).map((l) => l.split('\t')).filter(([k]) => partitionForKey(Buffer.from(k!), 5) === q);
        expect(records.filter((r) => r.key !== null).map((r) => [r.key, r.value])).toEqual(keyed);
      }
      const unkeyed = all.flat().filter((r) => r.key === null).map((r) => r.value).sort();
      expect(unkeyed).toEqual(lines.filter((l) => !l.includes('\t')).sort());
      expect(p.stats.recordsAppended).toBe(5000);
    }
  });

  it('keeps order with write() on the same partition, and stops at an unfinished record', async () => {
    const { b, p } = await setup(1);
    p.write('t', null, 'first', 0);
    const input = Buffer.from('a\nb\nc\nunfinished');
    expect(p.writeDelimited('t', input, 0, input.length, { recordDelimiter: 10, keyDelimiter: -1, partition: 0 })).toBe(6);
    p.write('t', null, 'last', 0);
    await p.flush();
    expect(stored(b, 0).map((r) => r.value)).toEqual(['first', 'a', 'b', 'c', 'last']);
    expect(stored(b, 0).map((r) => r.sequence)).toEqual([0, 1, 2, 3, 4]);
  });

  it('backpressure: a small buffer makes it stop early; every record still arrives once, in order', async () => {
    const { b, p } = await setup(2, { batchBytes: 2048, bufferBytes: 16 * 1024 });
    const input = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `${i}`).join('\n') + '\n');
    const first = p.writeDelimited('t', input, 0, input.length, { recordDelimiter: 10, keyDelimiter: -1 });
    expect(first).toBeLessThan(input.length);
    expect(p.full).toBe(true);
    await writeAll(p, input.subarray(first), input.length, { keyDelimiter: -1 });
    await p.flush();
    const values = [...stored(b, 0), ...stored(b, 1)].map((r) => Number(r.value));
    expect(values.length).toBe(20_000);
    expect(new Set(values).size).toBe(20_000);
    for (const q of [0, 1]) {
      const v = stored(b, q).map((r) => Number(r.value));
      expect(v).toEqual([...v].sort((x, y) => x - y));
    }
  });

  it('a record over maxRecordBytes: RECORD_TOO_LARGE naming it, the records before it kept', async () => {
    const { b, p } = await setup(1, { maxRecordBytes: 200 });
    const input = Buffer.from(`a\nb\n${'x'.repeat(500)}\nd\n`);
    const error = (() => { try { p.writeDelimited('t', input, 0, input.length, { recordDelimiter: 10, keyDelimiter: -1, partition: 0 }); } catch (e) { return e; } })();
    expect(error).toMatchObject({ code: 'RECORD_TOO_LARGE', record: 3, size: 500 });
    await p.flush();
    expect(stored(b, 0).map((r) => r.value)).toEqual(['a', 'b']);
  });

  it('lingering batches are sent without flush()', async () => {
    const { b, p } = await setup(1, { lingerMs: 20 });
    const input = Buffer.from('k\tv\n');
    p.writeDelimited('t', input, 0, input.length, { recordDelimiter: 10, keyDelimiter: 9 });
    for (let i = 0; i < 100 && stored(b, 0).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stored(b, 0).map((r) => [r.key, r.value])).toEqual([['k', 'v']]);
  });
});
