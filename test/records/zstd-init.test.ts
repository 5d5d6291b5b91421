// zstd's life cycle: compression needs initZstd() first (a typed error says so), decoding never
// does (the embedded WebAssembly decoder compiles on first use), and levels are checked. With a Node
// that has zlib zstd (>= 22.15) named by KAFKA_WIRE_NODE_ZSTD, the built package uses it unasked.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import * as R from '../../src/records/index.js';
import type { RecordsError } from '../../src/records/index.js';
import { hasTool } from './helpers.js';
// @ts-expect-error: plain JavaScript module shared with the benchmarks
import { jsonEvents } from '../../bench/lib/events.mjs';

/** The zstd command makes the reference frames (the peer rule: CI fails without it). */
const haveZstdCommand = hasTool('zstd');

const events: Uint8Array = jsonEvents();

/** A new instance of the module, where zstd is not loaded yet (test/helpers/init-zstd.ts loaded the first). */
async function freshRecords(): Promise<typeof import('../../src/records/index.js')> {
  vi.resetModules();
  return import('../../src/records/index.js');
}

describe('initZstd', () => {
  it.runIf(haveZstdCommand)('compressing before it throws NOT_INITIALIZED naming initZstd; decoding works before it', async () => {
    const F = await freshRecords();
    expect(F.zstdEngine()).toBeUndefined();
    let error: unknown;
    try { F.compress('zstd', events); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(F.RecordsError);
    expect((error as RecordsError).code).toBe('NOT_INITIALIZED');
    expect((error as RecordsError).message).toMatch(/await initZstd\(\)/);
    expect(() => F.encodeRecordBatch({ compression: 'zstd', records: [{ value: 'x' }] })).toThrow(/initZstd/);
    const cli = new Uint8Array(execFileSync('zstd', ['-3', '-c', '-q'], { input: events }));
    expect(Buffer.from(F.decompress('zstd', cli)).equals(Buffer.from(events))).toBe(true);
    await Promise.all([F.initZstd(), F.initZstd()]);
    expect(F.zstdEngine()).toBe('wasm');
    const mine = F.compress('zstd', events);
    expect(mine.length).toBeLessThan(cli.length * 1.01) // the same library as zstd -3;
    expect(Buffer.from(F.decompress('zstd', mine)).equals(Buffer.from(events))).toBe(true);
    expect(Buffer.from(F.decompress('zstd', cli)).equals(Buffer.from(events))).toBe(true);
  });

  it.runIf(haveZstdCommand)('decoding without initZstd(): several frames, a bad checksum, a cut frame, the limit', async () => {
    const F = await freshRecords();
    const a = new Uint8Array(execFileSync('zstd', ['-3', '-c', '-q', '--check'], { input: events }));
    const b = new Uint8Array(execFileSync('zstd', ['-19', '-c', '-q'], { input: events.subarray(0, 5000) }));
    const both = new Uint8Array([...a, ...b]);
    const out = F.decompress('zstd', both);
    expect(Buffer.from(out).equals(Buffer.concat([events, events.subarray(0, 5000)]))).toBe(true);
    expect(F.zstdEngine()).toBeUndefined(); // nothing loaded the compressor
    const damaged = a.slice();
    damaged[damaged.length - 1] ^= 1; // the content checksum (XXH64's low 32 bits)
    expect(() => F.decompress('zstd', damaged)).toThrow(expect.objectContaining({ code: 'CHECKSUM_MISMATCH' }));
    expect(() => F.decompress('zstd', a.subarray(0, a.length - 9))).toThrow(expect.objectContaining({ code: 'CORRUPT_COMPRESSED_DATA' }));
    expect(() => F.decompress('zstd', both, { maxDecompressedBytes: events.length + 100 }))
      .toThrow(expect.objectContaining({ code: 'DECOMPRESSED_TOO_LARGE' }));
  });

  it('levels: higher is smaller, out of range is INVALID_ARGUMENT', () => {
    const sizes = [-5, 3, 19].map((zstdLevel) => R.compress('zstd', events, { zstdLevel }).length);
    expect(sizes[2]).toBeLessThan(sizes[1]);
    expect(sizes[1]).toBeLessThanOrEqual(sizes[0]);
    for (const zstdLevel of [23, 1.5, Number.NaN]) {
      expect(() => R.compress('zstd', events, { zstdLevel })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
    const gzip = [1, 6, 9].map((gzipLevel) => R.compress('gzip', events, { gzipLevel }).length);
    expect(gzip[0]).toBeGreaterThan(gzip[1]);
    expect(gzip[1]).toBeGreaterThanOrEqual(gzip[2]);
    for (const gzipLevel of [10, -1, 2.5]) {
      expect(() => R.compress('gzip', events, { gzipLevel })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
    const batch = R.encodeRecordBatch({ compression: 'zstd', records: [{ value: events }] }, { zstdLevel: 19 });
    expect(Buffer.from(R.decodeRecordBatches(batch).batches[0].records[0].value!).equals(Buffer.from(events))).toBe(true);
  });

  const nodeWithZstd = process.env.KAFKA_WIRE_NODE_ZSTD;
  const dist = fileURLToPath(new URL('../../dist/src/records/index.js', import.meta.url));
  if (nodeWithZstd === undefined) console.warn('SKIPPED: set KAFKA_WIRE_NODE_ZSTD to a Node >= 22.15 to test node:zlib zstd');
  it.runIf(nodeWithZstd !== undefined && existsSync(dist))('uses node:zlib zstd where it exists, with no initZstd()', () => {
    const script = `
      const R = await import(${JSON.stringify(dist)});
      const data = new TextEncoder().encode('{"a":1,"b":"two"}\\n'.repeat(50000));
      const c = R.compress('zstd', data);
      let big;
      try { R.decompress('zstd', c, { maxDecompressedBytes: 1000 }); } catch (e) { big = e.code; }
      const back = R.decompress('zstd', c);
      process.stdout.write(JSON.stringify([R.zstdEngine(), c.length < data.length / 50, back.length === data.length && back.every((b, i) => b === data[i]), big, Buffer.from(c).toString('hex')]));`;
    const [engine, small, same, big, hex] = JSON.parse(execFileSync(nodeWithZstd!, ['--input-type=module', '-e', script]).toString());
    expect([engine, small, same, big]).toEqual(['node:zlib', true, true, 'DECOMPRESSED_TOO_LARGE']);
    // and the zstd command reads it
    const out = execFileSync('zstd', ['-d', '-c', '-q'], { input: Buffer.from(hex, 'hex') }).toString();
    expect(out).toBe('{"a":1,"b":"two"}\n'.repeat(50000));
  });
});
