// kafka-wire produce on the producer: records split as bytes at -D and -K (any chunking of the
// input gives the same records as splitting it whole), -k, -l, the summary, and bad input: a
// record over the limit named by its line with what came before it kept, an unknown topic named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { decodeRecordBatches } from '../../src/records/index.js';
import { delimiterArg } from '../../src/cli/produce.js';
import { partitionForKey } from '../../src/wire/partitioner.js';

async function produce(args: string[], chunks: Uint8Array[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(['produce', ...args], {
    stdin: Readable.from(chunks.map((c) => Buffer.from(c))),
    stdout: { write: () => undefined },
    stderr: { write: (t: string) => { stderr += t; } },
  });
  return { code, stderr };
}

function records(b: MemoryBroker, topic: string): { key: string | null; value: string; headers: string[] }[] {
  const hex = (x: Uint8Array | null) => x === null ? null : Buffer.from(x).toString('latin1');
  return b.topics.get(topic)!.partitions.flatMap((p) => p.batches.flatMap((sb) => decodeRecordBatches(sb.bytes).batches
    .flatMap((x) => x.records.map((r) => ({ key: hex(r.key), value: hex(r.value)!, headers: r.headers.map((h) => `${h.key}=${hex(h.value)}`) })))));
}

/** The reference split: whole input, records at `delim` (a last one without it too), key at the first `kd`. */
function reference(input: Buffer, delim: Buffer, kd: Buffer): { key: string | null; value: string }[] {
  const out: { key: string | null; value: string }[] = [];
  let start = 0;
  for (;;) {
    let end = input.indexOf(delim, start);
    const last = end < 0;
    if (last) { if (start >= input.length) break; end = input.length; }
    const rec = input.subarray(start, end);
    const k = kd.length ? rec.indexOf(kd) : -1;
    out.push(k < 0 ? { key: null, value: rec.toString('latin1') } : { key: rec.subarray(0, k).toString('latin1'), value: rec.subarray(k + kd.length).toString('latin1') });
    if (last) break;
    start = end + delim.length;
  }
  return out;
}

let broker: MemoryBroker;
let dir: string;
let n = 0;
beforeAll(async () => {
  broker = await startMemoryBroker({ autoCreateTopics: true });
  dir = mkdtempSync(join(tmpdir(), 'kw-produce-'));
});
afterAll(async () => {
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('kafka-wire produce', () => {
  it('splits as bytes at any delimiters, whatever the chunking (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.uint8Array({ maxLength: 300 }).map((b) => b.map((x) => [0x0a, 0x09, 0x7c, 0x7e, 0xff, 0x00][x % 6]! )),
      fc.constantFrom('\\n', '|~', '\\x00\\xff', '~~~'),
      fc.constantFrom('\\t', '', '~', '|\\n'),
      fc.array(fc.nat(300), { maxLength: 6 }),
      async (bytes, d, k, cuts) => {
        const input = Buffer.from(bytes);
        const at = [...new Set(cuts.map((c) => Math.min(c, input.length)))].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let prev = 0;
        for (const c of [...at, input.length]) { if (c > prev) chunks.push(input.subarray(prev, c)); prev = c; }
        const topic = `prop-${n++}`;
        broker.createTopic(topic, 1); // an existing topic: produce has nothing to say about it
        const res = await produce(['-b', broker.bootstrap, '-t', topic, '-p', '0', '-D', d, '-K', k, '-q'], chunks);
        expect(res).toEqual({ code: 0, stderr: '' });
        const want = reference(input, Buffer.from(delimiterArg(d, '-D')), Buffer.from(delimiterArg(k, '-K')));
        const got = want.length === 0 ? [] : records(broker, topic).map(({ key, value }) => ({ key, value }));
        expect(got).toEqual(want);
      }), { numRuns: 60 });
  });

  it('keyed records go where the Java client puts them, in input order per partition, whatever the chunking (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.tuple(fc.option(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '\u0000'), maxLength: 9 })), fc.string({ maxLength: 30 })), { maxLength: 60 }),
      fc.array(fc.nat(2000), { maxLength: 6 }),
      fc.boolean(),
      async (rows, cuts, lastEnds) => {
        const lines = rows.map(([k, v]) => (k === null ? v.replace(/[\t\n]/g, '') : `${k}\t${v.replace(/\n/g, '')}`));
        const input = Buffer.from(lines.join('\n') + (lastEnds ? '\n' : ''));
        const at = [...new Set(cuts.map((c) => Math.min(c, input.length)))].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let prev = 0;
        for (const c of [...at, input.length]) { if (c > prev) chunks.push(input.subarray(prev, c)); prev = c; }
        const topic = `hash-${n++}`;
        broker.createTopic(topic, 4);
        const res = await produce(['-b', broker.bootstrap, '-t', topic, '-q'], chunks);
        expect(res).toEqual({ code: 0, stderr: '' });
        const want = reference(input, Buffer.from('\n'), Buffer.from('\t'));
        const parts = broker.topics.get(topic)!.partitions.map((p) => p.batches.flatMap((sb) => decodeRecordBatches(sb.bytes).batches
          .flatMap((x) => x.records.map((r) => ({ key: r.key === null ? null : Buffer.from(r.key).toString('latin1'), value: Buffer.from(r.value!).toString('latin1') })))));
        // Keyed records: at murmur2(key) mod 4, in input order; all records once.
        for (const [p, got] of parts.entries()) {
          const keyed = want.filter((r) => r.key !== null && partitionForKey(Buffer.from(r.key, 'latin1'), 4) === p);
          expect(got.filter((r) => r.key !== null)).toEqual(keyed);
        }
        const all = parts.flat().map((r) => JSON.stringify(r)).sort();
        expect(all).toEqual(want.map((r) => JSON.stringify(r)).sort());
      }), { numRuns: 60 });
  });

  it('-k gives every record one key, -H headers, -l reads a file; the summary goes to stderr', async () => {
    const file = join(dir, 'in.txt');
    writeFileSync(file, 'a\tb\nc\n');
    broker.createTopic('fixed', 1);
    const res = await produce(['-b', broker.bootstrap, '-t', 'fixed', '-l', file, '-k', 'K', '-H', 'h=1'], []);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^% 2 records \(\d+ bytes in 1 batches\) acknowledged by fixed in [\d.]+ s \(\d+ records\/s, [\d.]+ MB\/s\)\n$/);
    expect(records(broker, 'fixed')).toEqual([{ key: 'K', value: 'a\tb', headers: ['h=1'] }, { key: 'K', value: 'c', headers: ['h=1'] }]);
  });

  it('a line over the record limit: exit 1 naming the line; the lines before it stay sent', async () => {
    const lines = ['k\tone', 'k\ttwo', `k\t${'x'.repeat(5000)}`, 'k\tfour'];
    broker.createTopic('big', 1);
    broker.createTopic('big2', 1);
    const res = await produce(['-b', broker.bootstrap, '-t', 'big', '-X', 'message.max.bytes=1000', '-X', 'linger.ms=0'], [Buffer.from(lines.join('\n') + '\n')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/line 3: 50\d\d bytes.*above the record limit of 1000 bytes/);
    expect(res.stderr).toMatch(/^% 2 records/);
    expect(records(broker, 'big').map((r) => r.value)).toEqual(['one', 'two']);
    // A line that never ends is refused as soon as it passes the limit (not buffered whole).
    const endless = await produce(['-b', broker.bootstrap, '-t', 'big2', '-X', 'message.max.bytes=1000'],
      [Buffer.from('ok\n'), ...Array.from({ length: 10 }, () => Buffer.alloc(500, 0x61))]);
    expect(endless.code).toBe(1);
    expect(endless.stderr).toMatch(/line 2: \d+ bytes or more/);
  });

  it('an unknown topic with auto-creation off: exit 1 naming the topic', async () => {
    const strict = await startMemoryBroker({ autoCreateTopics: false });
    try {
      const res = await produce(['-b', strict.bootstrap, '-t', 'absent'], [Buffer.from('v\n')]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/topic absent does not exist, and the broker does not create topics on request/);
    } finally {
      await strict.close();
    }
  });

  it('refuses bad settings with exit 2', async () => {
    for (const args of [['-X', 'nope=1'], ['-X', 'linger.ms=soon'], ['-X', 'acks=2'], ['-K', '\\q'], ['-D', ''], ['-X', 'enable.idempotence=true', '--acks', '1']]) {
      const res = await produce(['-b', broker.bootstrap, '-t', 'x', ...args], []);
      expect(res.code, args.join(' ')).toBe(2);
    }
  });
});
