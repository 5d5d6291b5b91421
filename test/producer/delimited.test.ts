// Producer.writeDelimited, the bulk path over delimited bytes (split and encoded in WebAssembly
// straight into each partition's open batch): against the memory broker, the records it stores
// must be exactly those a plain split of the input gives, keyed ones where the Java client puts
// them, in input order per partition, mixed with write() in order, with timestamps, compression,
// backpressure and the record limit as write() has them. And DelimitedWriter, the loop over
// chunks that `kafka-wire produce` runs: whatever the chunking, the delimiters, a fixed key or
// headers, the records stored are those of the reference split, and a chunk may be reused after.
import { afterEach, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { partitionForKey } from '../../src/wire/partitioner.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { createProducer, DelimitedWriter, type Producer } from '../../src/producer/index.js';
import fc from 'fast-check';

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

/** The reference split of the whole input: records at `delim` (a last one without it too), the key before the first `kd`. */
function reference(input: Uint8Array, delim: string, kd: string): { key: string | null; value: string }[] {
  const all = Buffer.from(input).toString('latin1');
  const parts = all.split(delim);
  if (parts.at(-1) === '') parts.pop();
  return parts.map((rec) => {
    const k = kd === '' ? -1 : rec.indexOf(kd);
    return k < 0 ? { key: null, value: rec } : { key: rec.slice(0, k), value: rec.slice(k + kd.length) };
  });
}

describe('DelimitedWriter', () => {
  it('stores the reference split whatever the chunking and delimiters, from plain Uint8Array chunks reused after each push (property)', async () => {
    const { b, p } = await setup(1);
    let before = 0;
    await fc.assert(fc.asyncProperty(
      fc.uint8Array({ maxLength: 300 }).map((x) => x.map((y) => [0x0a, 0x09, 0x7c, 0x7e, 0x61][y % 5]!)),
      fc.constantFrom('\n', '|~', '~~~'),
      fc.constantFrom('\t', '', '~', '|\n'),
      fc.array(fc.nat(300), { maxLength: 6 }),
      fc.constantFrom<'none' | 'key' | 'headers'>('none', 'key', 'headers'),
      async (bytes, d, k, cuts, extra) => {
        const latin1 = (t: string) => Uint8Array.from(t, (c) => c.charCodeAt(0));
        const input = Uint8Array.from(bytes);
        const at = [...new Set(cuts.map((c) => Math.min(c, input.length)))].sort((x, y) => x - y);
        const writer = new DelimitedWriter(p, 't', {
          recordDelimiter: latin1(d), keyDelimiter: latin1(k), partition: 0,
          key: extra === 'key' ? latin1('K') : undefined, headers: extra === 'headers' ? [{ key: 'h', value: latin1('x') }] : undefined,
        });
        let prev = 0;
        for (const c of [...at, input.length]) {
          if (c <= prev) continue;
          const chunk = input.slice(prev, c); // a plain Uint8Array, not a Buffer
          await writer.push(chunk);
          chunk.fill(0x21); // the caller reuses its buffer: nothing kept may change
          prev = c;
        }
        await writer.end();
        await p.flush();
        const got = stored(b, 0).slice(before);
        before += got.length;
        const want = reference(input, d, extra === 'key' ? '' : k).map((r) => ({ key: extra === 'key' ? 'K' : r.key, value: r.value }));
        expect(got.map((r) => ({ key: r.key, value: r.value }))).toEqual(want);
      }), { numRuns: 80 });
  });

  it('an input record over maxRecordBytes throws RECORD_TOO_LARGE naming its line, on the in-place path and off it', async () => {
    for (const headers of [undefined, [{ key: 'h', value: new Uint8Array([1]) }]]) {
      const { p } = await setup(1, { maxRecordBytes: 200 });
      const writer = new DelimitedWriter(p, 't', { recordDelimiter: new Uint8Array([10]), keyDelimiter: new Uint8Array(0), headers });
      const input = new TextEncoder().encode(`a\nb\n${'x'.repeat(500)}\nd\n`);
      const error = await writer.push(input).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ProducerError', code: 'RECORD_TOO_LARGE', record: 3 });
      expect((error as Error).message).toMatch(/^line 3: 50\d bytes.*above the record limit of 200 bytes \(maxRecordBytes\)/);
    }
  });
});
