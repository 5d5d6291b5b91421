// The awaited single send's path: with lingerMs 0 an open batch is sealed once the current job's
// appends are done (a microtask), not by a zero timeout (which waits for the timer phase, about
// 1 ms in Node); lingering batches still wait, except send()'s when their partition has nothing
// queued (after the job's appends, or once its queued batches settle). And string keys, hashed from a reused buffer, go
// to the partition murmur2 of their UTF-8 bytes picks (non-ASCII, long, lone surrogates).
import { describe, expect, it } from 'vitest';
import { Accumulator, ProducerBatch, type OpenBatch, type PartitionState } from '../../src/producer/accumulator.js';
import { partitionForKey } from '../../src/wire/partitioner.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { testBroker, testProducer } from './scope.js';

function accumulator(lingerMs: number) {
  const sealed: number[] = [];
  const acc = new Accumulator({ batchBytes: 1_000_000, lingerMs, bufferBytes: 1 << 26, maxRecordBytes: 1_000_000 },
    (state: PartitionState, open: OpenBatch) => {
      sealed.push(open.count);
      return new ProducerBatch(state, open.count, new Uint8Array(0), 0, Date.now(), new Int32Array(open.count), null, 0);
    }, () => undefined);
  return { acc, sealed };
}

describe('the accumulator: when open batches are sealed', () => {
  it('lingerMs 0: the records appended in one job go in one batch, sealed before any timer could run', async () => {
    const { acc, sealed } = accumulator(0);
    const state = acc.state('t', 0);
    acc.append(state, { key: 'a', value: 'x' }, 2, Date.now(), null, 0);
    acc.append(state, { key: 'b', value: 'y' }, 2, Date.now(), null, 0);
    expect(sealed).toEqual([]); // not inside the job: its later appends join the batch
    await Promise.resolve();
    expect(sealed).toEqual([2]);
    expect(state.queue).toHaveLength(1);
    expect(acc.empty).toBe(false);
    // A second job's record: a batch of its own, sealed the same way.
    acc.append(state, { key: 'c', value: 'z' }, 2, Date.now(), null, 0);
    await Promise.resolve();
    expect(sealed).toEqual([2, 1]);
    acc.stop();
  });

  it('lingerMs 20: the batch waits (not sealed after the job, sealed by the linger timer)', async () => {
    const { acc, sealed } = accumulator(20);
    const state = acc.state('t', 0);
    acc.append(state, { key: 'a', value: 'x' }, 2, Date.now(), null, 0);
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(sealed).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    expect(sealed).toEqual([1]);
    acc.stop();
  });

  it('send()\'s records (soon()) go once the job\'s appends are done, without waiting a turn of the event loop, when the partition has nothing queued', async () => {
    const { acc, sealed } = accumulator(60_000);
    const state = acc.state('t', 0);
    acc.append(state, { key: 'a', value: 'x' }, 2, Date.now(), null, 0);
    acc.soon(state);
    acc.append(state, { key: 'b', value: 'y' }, 2, Date.now(), null, 0);
    acc.soon(state);
    expect(sealed).toEqual([]); // the job's later appends join the batch
    await Promise.resolve();
    expect(sealed).toEqual([2]);
    acc.stop();
  });

  it('a partition with a batch queued keeps its open batch until that batch settles, then sends it without lingering', async () => {
    const { acc, sealed } = accumulator(60_000);
    const state = acc.state('t', 0);
    acc.append(state, { key: 'a', value: 'x' }, 2, Date.now(), null, 0);
    acc.soon(state);
    await Promise.resolve();
    expect(sealed).toEqual([1]);
    // The first batch is in flight: records of later jobs fill the open batch.
    state.inFlight = 1;
    for (const key of ['b', 'c']) {
      acc.append(state, { key, value: 'y' }, 2, Date.now(), null, 0);
      acc.soon(state);
      await new Promise((r) => setImmediate(r));
    }
    expect(sealed).toEqual([1]);
    acc.settled(state); // still queued: nothing
    expect(sealed).toEqual([1]);
    state.queue.shift();
    state.inFlight = 0;
    acc.settled(state);
    expect(sealed).toEqual([1, 2]);
    // A batch that was not send()'s (write(), streaming) lingers as before.
    state.queue.shift();
    acc.append(state, { key: 'd', value: 'z' }, 2, Date.now(), null, 0);
    acc.settled(state);
    await Promise.resolve();
    expect(sealed).toEqual([1, 2]);
    acc.stop();
  });

  it('a stopped accumulator seals nothing more', async () => {
    const { acc, sealed } = accumulator(0);
    acc.append(acc.state('t', 0), { key: 'a', value: 'x' }, 2, Date.now(), null, 0);
    acc.stop();
    await Promise.resolve();
    expect(sealed).toEqual([]);
  });
});

describe('awaited sends on a producer that lingers', () => {
  it('sends from separate turns of the event loop each resolve in about a round trip, not lingerMs', async () => {
    const b = await testBroker({ topics: { t: 1 } });
    const p = await testProducer({ bootstrap: b.bootstrap, lingerMs: 60_000 });
    await p.topic('t');
    const started = Date.now();
    const first = p.send('t', { value: 'a' });
    await new Promise((r) => setImmediate(r));
    const second = p.send('t', { value: 'b' }); // the first is in flight: this one waits for it, not for lingerMs
    await new Promise((r) => setImmediate(r));
    const third = p.send('t', { value: 'c' });
    const offsets = (await Promise.all([first, second, third])).map(([m]) => m!.offset);
    expect(offsets).toEqual([0n, 1n, 2n]);
    for (let i = 0; i < 20; i++) await p.send('t', { value: `d${i}` });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('send() refuses by rejecting, never by throwing (a bad record, a closed producer)', async () => {
    const b = await testBroker({ topics: { t: 1 } });
    const p = await testProducer({ bootstrap: b.bootstrap });
    let bad: Promise<unknown> | undefined;
    expect(() => { bad = p.send('t', { value: 5 as never }); }).not.toThrow();
    await expect(bad).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await p.close();
    let closed: Promise<unknown> | undefined;
    expect(() => { closed = p.send('t', { value: 'v' }); }).not.toThrow();
    await expect(closed).rejects.toMatchObject({ code: 'CLOSED' });
  });
});

describe('string keys', () => {
  it('go where murmur2 of their UTF-8 bytes says, and are stored as those bytes', async () => {
    const b = await testBroker({ topics: { t: 7 } });
    const p = await testProducer({ bootstrap: b.bootstrap, lingerMs: 0 });
    const keys = ['', 'a', 'ключ-1', '鍵-二', '😀 emoji', 'x'.repeat(65), 'é'.repeat(100), 'lone \ud800 surrogate', `k${'9'.repeat(300)}`];
    const enc = new TextEncoder();
    for (const key of keys) {
      const [m] = await p.send('t', [{ key, value: 'v' }]);
      expect(m!.partition, key).toBe(partitionForKey(enc.encode(key), 7));
      const stored = b.topics.get('t')!.partitions[m!.partition]!.batches.flatMap((sb) => decodeRecordBatches(sb.bytes).batches.flatMap((x) => x.records));
      const record = stored.find((r) => r.offset === m!.offset)!;
      expect(record.key).toEqual(enc.encode(key));
    }
    // A custom partitioner still gets the key as bytes.
    const seen: Uint8Array[] = [];
    const q = await testProducer({ bootstrap: b.bootstrap, lingerMs: 0, partitioner: (_t, key) => { seen.push(key!); return 3; } });
    const [m] = await q.send('t', [{ key: 'ключ', value: 'v' }]);
    expect(m!.partition).toBe(3);
    expect(seen[0]).toEqual(enc.encode('ключ'));
  });
});
