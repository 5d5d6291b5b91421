// The consume loop: JSON lines built as bytes (checked against JSON.stringify of the decoded text
// for arbitrary bytes), every partition read without -p with a Fetch in flight per leader, -e
// stopping at every partition's end, -c stopping mid-response.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directWriter, JsonLinesWriter, jsonRecordWriter, jsonRangeWriter } from '../../src/cli/consume-output.js';
import { startMemoryBroker } from '../../src/wire/memory-broker.js';
import { encodeRecordBatch, decodeRecordBatches, crc32 } from '../../src/records/index.js';
import { runCli, jsonLines, type CliProgress } from '../wire/cli-io.js';
import { waitUntil } from '../helpers/wait.js';
import { startDelayProxy } from '../helpers/delay-proxy.js';
import { ApiKey } from '../../src/index.js';
import { KafkaClient, TopicError } from '../../src/wire/client.js';

function written(fill: (w: JsonLinesWriter) => void): string {
  let text = '';
  const w = new JsonLinesWriter((t) => { text += Buffer.from(t).toString('utf8'); });
  fill(w);
  w.flush();
  return text;
}

describe('jsonRecordWriter', () => {
  // Each line is JSON.stringify of the record as the batch decodes it (bytes as their UTF-8
  // text, offsets and timestamps as numbers): null and empty keys, bytes to escape or decode,
  // headers, log-append and create times, timestamps near the limits of exact Numbers.
  it('writes each record as JSON.stringify writes it', () => {
    const decoder = new TextDecoder();
    const text = (b: Uint8Array | null) => (b === null ? null : decoder.decode(b));
    const field = fc.option(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.string({ maxLength: 40 }).map((t) => new TextEncoder().encode(t))), { nil: null });
    const record = fc.record({
      key: field, value: field, timestampDelta: fc.integer({ min: 0, max: 1_000_000 }),
      headers: fc.array(fc.record({ key: fc.string({ maxLength: 8 }), value: field }), { maxLength: 2 }),
    });
    const batch = fc.record({
      records: fc.array(record, { minLength: 1, maxLength: 5 }),
      baseOffset: fc.oneof(fc.nat(), fc.constant(2 ** 53 - 10)).map(BigInt),
      baseTimestamp: fc.constantFrom(1_764_700_000_000n, -1n, 2n ** 53n - 100n, 2n ** 53n + 1n),
      logAppend: fc.boolean(), partition: fc.nat(5),
    });
    fc.assert(fc.property(batch, (b) => {
      const bytes = encodeRecordBatch({ baseOffset: b.baseOffset, baseTimestamp: b.baseTimestamp, timestampType: b.logAppend ? 'logAppend' : 'create', records: b.records });
      const [decoded] = decodeRecordBatches(bytes, { lazy: true }).batches;
      const lines = written((out) => {
        const w = jsonRecordWriter('tópic "t"', 'utf8', out);
        for (let i = 0; i < decoded!.recordCount; i++) w(b.partition, decoded!, i, Number(decoded!.offsetAt(i)));
      });
      const expected = decoded!.records.map((r, i) => JSON.stringify({
        topic: 'tópic "t"', partition: b.partition, offset: Number(decoded!.offsetAt(i)), timestamp: Number(decoded!.timestampAt(i)),
        key: text(r.key), value: text(r.value), headers: r.headers.map((h) => ({ key: h.key, value: text(h.value) })),
      }) + '\n').join('');
      expect(lines).toBe(expected);
    }), { numRuns: 500 });
  });
});

describe('jsonRangeWriter (a batch per WebAssembly call)', () => {
  const decoder = new TextDecoder();
  const text = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('utf8'));
  // Bytes that stress the WebAssembly side: plain ASCII runs longer than its 16-byte steps,
  // quotes, backslashes, control characters, DEL, valid multi-byte UTF-8 (with U+2028, a BOM,
  // the longest sequences), and invalid UTF-8 (lone continuations, overlongs, surrogates, cut sequences).
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 0, maxLength: 40 }).map((t) => new TextEncoder().encode(t)) },
    { weight: 2, arbitrary: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ufeff', '\u{10ffff}', 'é', '€', 'a'.repeat(17)).map((t) => new TextEncoder().encode(t)) },
    { weight: 1, arbitrary: fc.constantFrom([0x80], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xff], [0xef, 0xbb, 0xbf]).map((b) => Uint8Array.from(b)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  );
  const bytes = fc.array(piece, { maxLength: 4 }).map((ps) => Uint8Array.from(ps.flatMap((p) => [...p])));
  const field = fc.option(bytes, { nil: null, freq: 5 });
  const headerKey = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('\ufeffbom', 'k"\\\n', 'ключ'));
  const record = fc.record({
    key: field, value: field, timestampDelta: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(2n ** 53n + 2n)),
    headers: fc.array(fc.record({ key: headerKey, value: field }), { maxLength: 3 }),
  });
  const batchSpec = fc.record({
    records: fc.array(record, { minLength: 1, maxLength: 8 }),
    baseOffset: fc.oneof(fc.nat(), fc.constant(2 ** 53 - 10)).map(BigInt),
    baseTimestamp: fc.constantFrom(1_764_700_000_000n, -1n, -(2n ** 53n) + 5n, 2n ** 53n - 100n, 2n ** 53n + 1n),
    logAppend: fc.boolean(),
    compression: fc.constantFrom('none', 'none', 'lz4', 'gzip'),
  });

  /** The lines of records [from, to) of each batch written by the range writer and by the per-record writer. */
  function both(batches: ReturnType<typeof decodeRecordBatches>['batches'], partition: number, cut: (n: number) => [number, number], tail?: Uint8Array) {
    // A tail (share consume's ,"deliveryCount":N) is the per-record writer's `more`.
    const each = (w: JsonLinesWriter) => jsonRecordWriter('tópic "t"', 'utf8', w, tail === undefined ? undefined : (o) => o.raw(tail));
    let aside = 0;
    const ranged = written((out) => {
      const one = each(out);
      const r = jsonRangeWriter('tópic "t"', out, (...args) => { aside++; one(...args); });
      for (const b of batches) r(partition, b, ...cut(b.recordCount), tail);
    });
    const single = written((out) => {
      const w = each(out);
      for (const b of batches) { const [from, to] = cut(b.recordCount); for (let i = from; i < to; i++) w(partition, b, i, Number(b.offsetAt(i))); }
    });
    return { ranged, single, aside };
  }

  it('writes what the per-record writer writes, which is JSON.stringify of the records', () => {
    fc.assert(fc.property(fc.array(batchSpec, { minLength: 1, maxLength: 3 }), fc.nat(5), fc.nat(7), fc.nat(7), fc.option(fc.nat(1000), { nil: undefined }), (specs, partition, a, z, deliveryCount) => {
      // Several batches in one records field: each one's bytes are found inside it.
      const blob = Buffer.concat(specs.map((b) => encodeRecordBatch({ baseOffset: b.baseOffset, baseTimestamp: b.baseTimestamp, timestampType: b.logAppend ? 'logAppend' : 'create', compression: b.compression as 'none', records: b.records })));
      const { batches } = decodeRecordBatches(blob, { lazy: true });
      const cut = (n: number): [number, number] => [Math.min(a, n), Math.max(Math.min(a, n), n - z)];
      const tail = deliveryCount === undefined ? undefined : Buffer.from(`,"deliveryCount":${deliveryCount}`);
      const { ranged, single } = both(batches, partition, cut, tail);
      expect(ranged).toBe(single);
      const expected = batches.flatMap((b) => { const [from, to] = cut(b.recordCount); return b.records.slice(from, to).map((r, k) => JSON.stringify({
        topic: 'tópic "t"', partition, offset: Number(b.offsetAt(from + k)), timestamp: Number(b.timestampAt(from + k)),
        key: text(r.key), value: text(r.value), headers: r.headers.map((h) => ({ key: decoder.decode(Buffer.from(h.key)), value: text(h.value) })),
        ...(deliveryCount === undefined ? {} : { deliveryCount }),
      }) + '\n'); }).join('');
      expect(ranged).toBe(expected);
    }), { numRuns: 1500 });
  });

  it('writes timestamps on both sides of a 10^8 boundary, in any order (the digits above it are reused while they hold)', () => {
    const deltas = [0, 5, 9, 10, 11, 30, 9, 10, 100_000_000, 9, -5, 199_999_999, 200_000_000];
    const base = 1_764_799_999_990n;
    const { batches } = decodeRecordBatches(encodeRecordBatch({ baseTimestamp: base, records: deltas.map((d) => ({ value: 'v', timestamp: base + BigInt(d) })) }), { lazy: true });
    const { ranged, single } = both(batches, 0, (n) => [0, n]);
    expect(ranged).toBe(single);
    expect(ranged.split('\n').slice(0, -1).map((l) => JSON.parse(l).timestamp)).toEqual(deltas.map((d) => Number(base) + d));
  });

  it('goes on past a full output region, and writes a line larger than the region', () => {
    // Four lines of at most 3.6 MB (the bound: each byte escaped as \u00XX) fill most of the 16 MiB
    // region; the next, at most 19 MB, is larger than any region, and the last starts a new call.
    const value = 'v"'.repeat(300_000);
    const huge = new Uint8Array(3 << 20).fill(0x01);
    const records = [...Array.from({ length: 4 }, (_, i) => ({ key: `k${i}`, value })), { key: null, value: huge }, { key: 'after', value: 'x' }];
    const { batches } = decodeRecordBatches(encodeRecordBatch({ baseOffset: 7n, records }), { lazy: true });
    const { ranged, single, aside } = both(batches, 1, (n) => [0, n]);
    expect(ranged).toBe(single);
    expect(aside).toBe(1); // the 3 MiB value: the rest were written in WebAssembly
    expect(ranged.split('\n')).toHaveLength(records.length + 1);
    // Legacy message sets have no tape: the per-record writer does them.
    // offset 0, size 16, crc, magic 0, attributes 0, key null, value "hi"
    const legacy = Buffer.from('0000000000000000000000100000000000' + '00ffffffff000000026869', 'hex');
    const { batches: old } = decodeRecordBatches(fixCrc(legacy), { lazy: true });
    const legacyLines = both(old, 0, (n) => [0, n]);
    expect(legacyLines.ranged).toBe(legacyLines.single);
    expect(legacyLines.ranged).toContain('"value":"hi"');
    expect(legacyLines.aside).toBe(1);
  });
});

describe('directWriter (JSON lines from WebAssembly memory straight to a file)', () => {
  it('writes what the copying writer writes, in order with what was buffered and what the stream still held', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kw-direct-'));
    const fd = openSync(join(dir, 'out'), 'w');
    try {
      // A stand-in for process.stdout on a file: writes that are done when they return, except
      // while `pending` says the stream holds bytes (the direct write must then decline).
      let pending = 0, declined = 0;
      const stdout = { fd, get writableLength() { return pending; }, write: (b: string | Uint8Array) => { writeSync(fd, b); } };
      const direct = directWriter(stdout)!;
      expect(direct).toBeTypeOf('function');
      const counted = (b: Uint8Array) => { const took = direct(b); if (!took) declined++; return took; };
      const out = new JsonLinesWriter((b) => stdout.write(b), counted);
      const records = Array.from({ length: 3000 }, (_, i) => ({ key: i % 3 ? `k${i}` : null, value: i % 700 === 5 ? Uint8Array.of(0xff, 0x22) : `v"${i}`.padEnd(i % 50, '.') }));
      const { batches } = decodeRecordBatches(Buffer.concat([0n, 1000n, 2000n].map((base, n) => encodeRecordBatch({ baseOffset: base, records: records.slice(n * 1000, n * 1000 + 1000) }))), { lazy: true });
      const r = jsonRangeWriter('t', out, jsonRecordWriter('t', 'utf8', out));
      r(0, batches[0]!, 0, 1000);
      pending = 1; // the stream holds bytes: this batch is copied
      r(0, batches[1]!, 0, 1000);
      out.flush();
      pending = 0;
      r(0, batches[2]!, 0, 1000);
      out.flush();
      expect(declined).toBeGreaterThan(0);
      const copied = written((w) => { const c = jsonRangeWriter('t', w, jsonRecordWriter('t', 'utf8', w)); for (const b of batches) c(0, b, 0, 1000); });
      expect(readFileSync(join(dir, 'out'), 'utf8')).toBe(copied);
      expect(copied.split('\n')).toHaveLength(3001);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true });
    }
    // Pipes, sockets and test streams without a descriptor are written through the stream.
    expect(directWriter({ write() {} })).toBeUndefined();
  });
});

/** A magic-0 message with its CRC-32 set (the bytes after the CRC field). */
function fixCrc(message: Buffer): Buffer {
  message.writeUInt32BE(crc32(message.subarray(16)), 12);
  return message;
}

describe('JsonLinesWriter', () => {
  it('writes any bytes as JSON.stringify writes their UTF-8 decoding', () => {
    const decoder = new TextDecoder();
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(8), (bytes, at) => {
      const data = new Uint8Array(bytes.length + at);
      data.set(bytes, at);
      const text = written((w) => w.utf8(data, at, bytes.length));
      expect(text).toBe(JSON.stringify(decoder.decode(bytes)));
    }), { numRuns: 2000 });
    const control = Uint8Array.from({ length: 128 }, (_, i) => i);
    expect(written((w) => w.utf8(control, 0, 128))).toBe(JSON.stringify(decoder.decode(control)));
    expect(written((w) => w.utf8(control, 0, -1))).toBe('null');
    // Long runs of plain ASCII (copied whole) before, between and after bytes to escape or decode.
    const mostlyPlain = fc.array(fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) }), { maxLength: 300 });
    fc.assert(fc.property(mostlyPlain, (bytes) => {
      const data = Uint8Array.from(bytes);
      expect(written((w) => w.utf8(data, 0, data.length))).toBe(JSON.stringify(decoder.decode(data)));
    }), { numRuns: 2000 });
  });

  it('fills a buffer again only once the sink is done with every piece of it', () => {
    const held: { bytes: Uint8Array; copy: string; done: () => void }[] = [];
    const w = new JsonLinesWriter((bytes, done) => { held.push({ bytes, copy: Buffer.from(bytes).toString('latin1'), done }); });
    const line = (i: number) => `${i}`.padEnd(100_000, String.fromCharCode(0x41 + (i % 26)));
    const fill = (from: number, to: number) => { for (let i = from; i < to; i++) { w.utf8(Buffer.from(line(i)), 0, 100_000); w.flush(); } };
    fill(0, 12);
    // (100 kB values, whose 600 kB bound fits a 1 MiB buffer: a buffer holds several pieces.)
    expect(new Set(held.map((h) => h.bytes.buffer)).size).toBeLessThan(12);
    // Nothing released: every piece is as it was written, in buffers of their own.
    for (const h of held) expect(Buffer.from(h.bytes).toString('latin1')).toBe(h.copy);
    const firstBuffers = new Set(held.map((h) => h.bytes.buffer));
    expect(firstBuffers.size).toBeGreaterThan(2);
    // Released out of order, twice over: the buffers come back and are filled again.
    for (const h of [...held].reverse()) { h.done(); h.done(); }
    const before = held.length;
    fill(12, 24);
    const later = held.slice(before);
    expect(later.some((h) => firstBuffers.has(h.bytes.buffer))).toBe(true);
    for (const h of later) expect(Buffer.from(h.bytes).toString('latin1')).toBe(h.copy);
    expect(later.map((h) => h.copy)).toEqual(Array.from({ length: 12 }, (_, k) => JSON.stringify(line(12 + k))));
    // A piece still held is never written over, though the others of its buffer are released.
    const keep = later.at(-2)!;
    for (const h of later) if (h !== keep) h.done();
    fill(24, 40);
    expect(Buffer.from(keep.bytes).toString('latin1')).toBe(keep.copy);
  });

  it('writes integers, hex and base64, and spills over its buffer', () => {
    for (const n of [0, 7, 10, 99, 100, 99_999_999, 100_000_000, 100_000_001, 2147483647, 2147483648, 4294967295, 4294967296,
      1_700_000_000_123, Number.MAX_SAFE_INTEGER, -1, -100_000_000, -1_700_000_000_123, -Number.MAX_SAFE_INTEGER]) {
      expect(written((w) => w.int(n))).toBe(String(n));
    }
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => { expect(written((w) => w.int(n))).toBe(String(n)); }), { numRuns: 5000 });
    const b = Uint8Array.of(0, 1, 0xfe, 0xff);
    expect(written((w) => w.bytes(b, 1, 3, 'hex'))).toBe('"01feff"');
    expect(written((w) => w.bytes(b, 0, 4, 'base64'))).toBe(JSON.stringify(Buffer.from(b).toString('base64')));
    const big = new Uint8Array(3 << 20).fill(0x41);
    const chunks: string[] = [];
    const w = new JsonLinesWriter((t) => { chunks.push(Buffer.from(t).toString('latin1')); });
    for (let i = 0; i < 3; i++) w.utf8(big, 0, big.length);
    // raw() bytes longer than a buffer: spread over buffers, the pieces in order.
    const longRaw = Uint8Array.from({ length: (5 << 20) + 3 }, (_, i) => 0x61 + (i % 26));
    w.raw(Uint8Array.of(0x2c));
    w.raw(longRaw);
    w.flush();
    expect(chunks.join('')).toBe(`"${'A'.repeat(3 << 20)}"`.repeat(3) + ',' + Buffer.from(longRaw).toString('latin1'));
  });
});

describe('kafka-wire consume', () => {
  it('says at once that a topic does not exist, with a typed error (kcat\'s words)', async () => {
    const broker = await startMemoryBroker({ topics: { here: 1 }, autoCreateTopics: false });
    const client = new KafkaClient({ bootstrap: broker.bootstrap });
    try {
      const started = Date.now();
      const r = await runCli('consume', ['-b', broker.bootstrap, '-t', 'not-here', '-e']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/topic not-here: UNKNOWN_TOPIC_OR_PARTITION \(3\) \(Unknown topic or partition\)/);
      expect(Date.now() - started).toBeLessThan(3000);
      const error = await client.topic('not-here').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TopicError);
      expect(error).toMatchObject({ name: 'TopicError', topic: 'not-here', errorCode: 3 });
      expect((await client.missingTopics(['here', 'not-here'])).map((e) => e.topic)).toEqual(['not-here']);
    } finally {
      await client.close();
      await broker.close();
    }
  });

  it('--isolation read_committed reads a log without transactions whole (the memory broker\'s last stable offset is its end); bad values are usage errors', async () => {
    const broker = await startMemoryBroker({ topics: { plain: 2 } });
    try {
      for (let p = 0; p < 2; p++) broker.append('plain', p, encodeRecordBatch({ records: Array.from({ length: 10 }, (_, i) => ({ value: `p${p}-${i}` })) }));
      const committed = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'plain', '-e', '--isolation', 'read_committed'])).stdout);
      const uncommitted = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'plain', '-e'])).stdout);
      expect(committed).toHaveLength(20);
      expect(committed).toEqual(uncommitted);
      for (const args of [['--isolation', 'committed'], ['-X', 'fetch.wait.max.ms=5'], ['-X', 'security.protocol=TLS'], ['--sasl-mechanism', 'GSSAPI', '--sasl-username', 'u', '--sasl-password', 'p'], ['--sasl-username', 'u']]) {
        const r = await runCli('consume', ['-b', broker.bootstrap, '-t', 'plain', '-e', ...args]);
        expect(r.code, args.join(' ')).toBe(2);
      }
    } finally {
      await broker.close();
    }
  });

  it('-e after a ListOffsets answer that cannot be true (the log\'s start past its end) fails, typed, instead of a quiet exit 0', async () => {
    const broker = await startMemoryBroker({ topics: { bent: 1 } });
    // Every earliest offset (0 here) answered as 4950: past the log's end, 100.
    const proxy = await startDelayProxy({ host: broker.host, port: broker.port }, 0, {
      [ApiKey.ListOffsets]: (body) => { for (const t of body.topics) for (const p of t.partitions) if (p.offset === 0n) p.offset = 4950n; },
    });
    try {
      broker.append('bent', 0, encodeRecordBatch({ records: Array.from({ length: 100 }, (_, i) => ({ value: `v${i}` })) }));
      const r = await runCli('consume', ['-b', proxy.bootstrap, '-t', 'bent', '-e']);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/ListOffsets bent\/0: the log starts at 4950 and ends at 100, which cannot be/);
      expect(r.code).toBe(1);
      // Straight to the broker, the same command reads the 100 records.
      expect(jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'bent', '-e'])).stdout)).toHaveLength(100);
    } finally {
      await proxy.close();
      await broker.close();
    }
  });

  it('reads every partition without -p and exits at their ends with -e', async () => {
    const broker = await startMemoryBroker({ topics: { all: 4 } });
    try {
      let n = 0;
      for (let p = 0; p < 4; p++) {
        for (let b = 0; b < 3 + p; b++) { // several responses per partition (FETCH sizes cut them)
          broker.append('all', p, encodeRecordBatch({ compression: p % 2 ? 'lz4' : 'none', records: Array.from({ length: 500 }, () => ({ key: `k${n}`, value: `v${n++}`.padEnd(3000, '.'), headers: [{ key: 'h', value: 'x' }] })) }));
        }
      }
      const got = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'all', '-e'])).stdout);
      expect(got.length).toBe(n);
      expect(new Set(got.map((r) => r.key)).size).toBe(n);
      for (let p = 0; p < 4; p++) {
        const offsets = got.filter((r) => r.partition === p).map((r) => r.offset);
        expect(offsets).toEqual(Array.from({ length: (3 + p) * 500 }, (_, i) => i));
      }
      expect(got[0].headers).toEqual([{ key: 'h', value: 'x' }]);
      const limited = jsonLines((await runCli('consume', ['-b', broker.bootstrap, '-t', 'all', '-e', '-c', '1234'])).stdout);
      expect(limited.length).toBe(1234);
      // Empty partitions and -o end: exits at once with nothing.
      expect((await runCli('consume', ['-b', broker.bootstrap, '-t', 'all', '-e', '-o', 'end'])).stdout).toBe('');
      // Records produced while consuming (no -e) arrive; the signal stops it.
      // It waits in a Fetch (so "end" is resolved) before the record is produced, and stops once
      // the record is printed.
      const ac = new AbortController();
      const live: CliProgress = { code: null, stdout: '', stderr: '' };
      const fetches = broker.requestCounts.get(ApiKey.Fetch) ?? 0;
      const running = runCli('consume', ['-b', broker.bootstrap, '-t', 'all', '-o', 'end'], '', ac.signal, live);
      await waitUntil(() => (broker.requestCounts.get(ApiKey.Fetch) ?? 0) > fetches, 'the consumer\'s first Fetch');
      await runCli('produce', ['-b', broker.bootstrap, '-t', 'all', '-p', '2'], 'late\n');
      await waitUntil(() => live.stdout.includes('late'), 'the late record to be printed');
      ac.abort();
      expect(jsonLines((await running).stdout).map((r) => [r.partition, r.value])).toEqual([[2, 'late']]);
    } finally {
      await broker.close();
    }
  });
});
