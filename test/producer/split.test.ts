// A batch the broker refuses as too large (MESSAGE_TOO_LARGE, the memory broker's maxMessageBytes
// standing for Kafka's message.max.bytes): split and sent again as the Java client does, with the
// sequence numbers of the batches after it still right (the broker checks them as Kafka does); a
// record too large alone is a typed error naming it (from the CLI: its line), the others stay sent.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { MemoryBroker } from '../../src/wire/memory-broker.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { testBroker, testProducer } from './scope.js';
import { main } from '../../src/cli/main.js';

const text = new TextDecoder();
function broker(maxMessageBytes: number, topics: Record<string, number>): Promise<MemoryBroker> {
  return testBroker({ topics, maxMessageBytes });
}

const producer = testProducer;

/** A partition's stored batches: their sizes, epochs, sequences, and every value in offset order. */
function stored(b: MemoryBroker, topic: string, partition: number) {
  const batches = b.topics.get(topic)!.partitions[partition]!.batches.flatMap((sb) => decodeRecordBatches(sb.bytes).batches
    .map((x) => ({ bytes: sb.bytes.length, epoch: x.producerEpoch, sequence: x.baseSequence, values: x.records.map((r) => text.decode(r.value!)) })));
  return { batches, values: batches.flatMap((x) => x.values) };
}

describe('a batch the broker refuses as too large', () => {
  for (const compression of ['none', 'lz4'] as const) {
    it(`is split and sent again, every record once and in order, sequences unbroken, several batches in flight (${compression})`, async () => {
      const b = await broker(2_000, { t: 2 });
      // Batches of about 20 kB against a 2,000-byte limit: each is halved until its pieces fit.
      const p = await producer({ bootstrap: b.bootstrap, batchBytes: 20_000, lingerMs: 1000, maxInFlight: 5, compression });
      await p.topic('t');
      const n = 3_000;
      const value = (i: number) => `${String(i).padStart(6, '0')}-${(i * 7919 % 100_000).toString(36).repeat(8)}`;
      for (let i = 0; i < n; i++) if (!p.write('t', null, value(i), i % 2)) await p.ready();
      await p.flush();
      for (const partition of [0, 1]) {
        const { batches, values } = stored(b, 't', partition);
        expect(values).toEqual(Array.from({ length: n / 2 }, (_, j) => value(2 * j + partition)));
        expect(batches.length).toBeGreaterThan(n / 2 / 100); // far more batches than the producer sealed
        let sequence = 0;
        for (const x of batches) {
          expect(x.bytes).toBeLessThanOrEqual(2_000);
          expect(x.epoch).toBe(p.producerId.epoch); // no epoch bump: no sequence was lost
          expect(x.sequence).toBe(sequence);
          sequence += x.values.length;
        }
      }
      expect(p.stats.recordsAcked).toBe(n);
      expect(p.stats.recordsFailed).toBe(0);
    });
  }

  it('send() resolves with every record\'s offset across the pieces', async () => {
    const b = await broker(1_000, { t: 1 });
    const p = await producer({ bootstrap: b.bootstrap, lingerMs: 50 });
    const first = p.send('t', Array.from({ length: 40 }, (_, i) => ({ value: `a-${i}-${'x'.repeat(60)}` })));
    const second = p.send('t', Array.from({ length: 40 }, (_, i) => ({ value: `b-${i}-${'x'.repeat(60)}` })));
    const [r1, r2] = await Promise.all([first, second]);
    expect([...r1, ...r2].map((m) => m.offset)).toEqual(Array.from({ length: 80 }, (_, i) => BigInt(i)));
    expect(stored(b, 't', 0).values).toEqual([...Array.from({ length: 40 }, (_, i) => `a-${i}-${'x'.repeat(60)}`), ...Array.from({ length: 40 }, (_, i) => `b-${i}-${'x'.repeat(60)}`)]);
  });

  it('one record too large alone: a typed error naming it; the records before and after it are stored', async () => {
    const b = await broker(1_000, { t: 2 });
    const p = await producer({ bootstrap: b.bootstrap, lingerMs: 50 });
    await p.topic('t');
    // Records 1..20 alternate between the partitions; record 12 (partition 1) is too large alone.
    for (let i = 1; i <= 20; i++) p.write('t', null, i === 12 ? 'y'.repeat(3_000) : `v${i}`, i % 2);
    const error = await p.flush().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ProducerError', code: 'RECORD_TOO_LARGE', topic: 't', partition: 0, errorCode: 10, records: 1, record: 12 });
    expect(String((error as Error).message)).toMatch(/record 12 .*MESSAGE_TOO_LARGE/);
    expect(stored(b, 't', 0).values).toEqual([2, 4, 6, 8, 10, 14, 16, 18, 20].map((i) => `v${i}`));
    expect(stored(b, 't', 1).values).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19].map((i) => `v${i}`));
    // The producer goes on: the lost sequence number was renumbered under a new epoch.
    await p.send('t', { value: 'after' }, { partition: 0 });
    expect(stored(b, 't', 0).values.at(-1)).toBe('after');
  });

  it('from the CLI: the refused line is named, exit 1, the other lines stay sent', async () => {
    const b = await broker(1_000, { big: 1 });
    const lines = Array.from({ length: 30 }, (_, i) => i === 16 ? `k\t${'z'.repeat(2_000)}` : `k\tline-${i + 1}`);
    let stderr = '';
    const code = await main(['produce', '-b', b.bootstrap, '-t', 'big', '-X', 'linger.ms=100'], {
      stdin: Readable.from([Buffer.from(lines.join('\n') + '\n')]), stdout: { write: () => undefined }, stderr: { write: (t: string) => { stderr += t; } },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/line 17: refused by the broker as too large/);
    expect(stderr).toMatch(/^% 29 records/);
    expect(stored(b, 'big', 0).values).toEqual(Array.from({ length: 30 }, (_, i) => `line-${i + 1}`).filter((_, i) => i !== 16));
  });
});
