// Every codec against the reference tools on the same bytes: round trips over empty, tiny,
// incompressible, highly repetitive and 16 MiB inputs; our output read by the `zstd`, `lz4`,
// `gzip` commands and Google's libsnappy (Debian python3-snappy), theirs read by us; and the
// sizes on 1 MiB of JSON events against `zstd -3`, `lz4 -1`, `gzip -6` and libsnappy; every lz4
// block size and the edge of the 64 KiB window, read by @platformatic/wasm-utils too.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compress, decompress, type CompressionName, type CompressOptions } from '../../src/records/index.js';
import { prng } from '../../bench/lib/prng.mjs';
// @ts-expect-error: plain JavaScript module shared with the benchmarks
import { jsonEvents } from '../../bench/lib/events.mjs';
import { hasTool } from './helpers.js';
import { peer } from '../helpers/peer.js';

// @platformatic/wasm-utils comes with the benchmark-only peer (bench/package.json).
const peerPackage = new URL('../../bench/node_modules/platformatic-kafka-1/package.json', import.meta.url);
const wasmUtils = existsSync(peerPackage) ? await import(createRequire(peerPackage).resolve('@platformatic/wasm-utils')) : null;
const haveWasmUtils = peer('@platformatic/wasm-utils (a benchmark-only package)', wasmUtils !== null, 'npm --prefix bench ci');

const MiB = 1 << 20;
const events: Uint8Array = jsonEvents();

function random(n: number, seed: number): Uint8Array {
  const rnd = prng(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
}

function repeated(pattern: string, n: number): Uint8Array {
  const p = new TextEncoder().encode(pattern);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += p.length) out.set(p.subarray(0, Math.min(p.length, n - i)), i);
  return out;
}

const inputs: Record<string, Uint8Array> = {
  empty: new Uint8Array(0),
  'one byte': new Uint8Array([42]),
  'tiny (13 bytes)': new TextEncoder().encode('hello, kafka!'),
  'incompressible (1 MiB random)': random(MiB, 7),
  'one byte repeated (4 MiB)': new Uint8Array(4 * MiB).fill(0x61),
  'a 100-byte line repeated (1 MiB)': repeated(`${'{"k":"v","n":1}'.repeat(6)}1234\n`, MiB),
  'JSON events (1 MiB)': events,
};

const variants: [CompressionName, CompressOptions][] = [
  ['gzip', {}], ['gzip', { gzipLevel: 1 }], ['snappy', {}], ['snappy', { snappyFraming: 'raw' }], ['lz4', {}],
  ['zstd', {}], ['zstd', { zstdLevel: 1 }], ['zstd', { zstdLevel: 19 }],
];

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.from(a).equals(Buffer.from(b));

describe('round trips', () => {
  for (const [codec, options] of variants) {
    it(`${codec} ${JSON.stringify(options)}`, () => {
      for (const [name, data] of Object.entries(inputs)) {
        const c = compress(codec, data, options);
        expect(same(decompress(codec, c), data), name).toBe(true);
        if (name.startsWith('incompressible')) expect(c.length, name).toBeLessThan(data.length * 1.01 + 64);
        if (name.includes('repeated')) expect(c.length, name).toBeLessThan(data.length / 20);
      }
    });
  }
  it('16 MiB of JSON events, every codec', () => {
    const data: Uint8Array = jsonEvents(16 * MiB, 99);
    for (const codec of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      const c = compress(codec, data);
      expect(c.length, codec).toBeLessThan(data.length / 3);
      expect(same(decompress(codec, c), data), codec).toBe(true);
    }
  }, 120_000);
});

/** A reference tool as a function of bytes: compress (flags) or decompress. */
type Tool = { name: string; available: boolean; compress(data: Uint8Array): Uint8Array; decompress(data: Uint8Array): Uint8Array };

function cli(command: string, level: string): Tool {
  const run = (args: string[], input: Uint8Array) => new Uint8Array(execFileSync(command, args, { input, maxBuffer: 64 * MiB }));
  return {
    name: `${command} ${level}`,
    available: hasTool(command),
    compress: (data) => run([level, '-c'], data),
    decompress: (data) => run(['-d', '-c'], data),
  };
}

const lz4Command = cli('lz4', '-1');

const PYTHON = '/usr/bin/python3'; // Debian's, which sees python3-snappy
const libsnappy: Tool = {
  name: 'libsnappy (raw)',
  available: peer('libsnappy (Debian python3 with python3-snappy)',
    existsSync(PYTHON) && (() => { try { execFileSync(PYTHON, ['-c', 'import snappy']); return true; } catch { return false; } })(),
    'apt-get install python3-snappy'),
  compress: (data) => python('compress', data),
  decompress: (data) => python('uncompress', data),
};
function python(fn: string, input: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync(PYTHON, ['-c', `import sys, snappy; sys.stdout.buffer.write(snappy.${fn}(sys.stdin.buffer.read()))`],
    { input, maxBuffer: 64 * MiB }));
}

const peers: [CompressionName, CompressOptions, Tool][] = [
  ['zstd', {}, cli('zstd', '-3')],
  ['lz4', {}, cli('lz4', '-1')],
  ['gzip', {}, cli('gzip', '-6')],
  ['snappy', { snappyFraming: 'raw' }, libsnappy],
];

describe('interop with the reference tools', () => {
  for (const [codec, options, tool] of peers) {
    it.runIf(tool.available)(`${codec}: ${tool.name} reads ours and we read theirs`, () => {
      for (const [name, data] of Object.entries(inputs)) {
        if (codec === 'snappy' && data.length === 0) continue; // python-snappy refuses empty input
        expect(same(tool.decompress(compress(codec, data, options)), data), `${tool.name} reads ours: ${name}`).toBe(true);
        expect(same(decompress(codec, tool.compress(data)), data), `we read ${tool.name}: ${name}`).toBe(true);
      }
    });
  }
});

describe('sizes on 1 MiB of JSON events, against the reference tools', () => {
  const lz4Cli = cli('lz4', '-1');
  // The bounds: zstd and gzip run the reference libraries themselves; lz4 within 10% of lz4 -1;
  // snappy within 35% of lz4 -1 and within 5% of libsnappy.
  const bounds: [CompressionName, CompressOptions, Tool, number][] = [
    ['zstd', {}, cli('zstd', '-3'), 1.01], ['gzip', {}, cli('gzip', '-6'), 1.01], ['lz4', {}, lz4Cli, 1.10],
    ['snappy', {}, lz4Cli, 1.35], ['snappy', { snappyFraming: 'raw' }, libsnappy, 1.05],
  ];
  for (const [codec, options, tool, bound] of bounds) {
    it.runIf(tool.available)(`${codec} ${JSON.stringify(options)} is within ${Math.round((bound - 1) * 100)}% of ${tool.name}`, () => {
      const ours = compress(codec, events, options).length;
      const theirs = tool.compress(events).length;
      console.log(`${codec} ${JSON.stringify(options)}: ${ours} B; ${tool.name}: ${theirs} B (${(ours / theirs).toFixed(3)}x)`);
      expect(ours).toBeLessThanOrEqual(theirs * bound);
    });
  }
});

describe('block sizes and the window edge', () => {
  // Repeats at distances around 65535, the largest offset either format can write.
  const edge = (distance: number) => {
    const chunk = random(300, distance);
    const out = new Uint8Array(3 * distance);
    out.set(random(out.length, distance + 1));
    for (let at = 0; at + distance + chunk.length <= out.length; at += distance) { out.set(chunk, at); out.set(chunk, at + distance); }
    return out;
  };
  it('repeats at distances 65534-65537 round-trip and are read by wasm-utils', () => {
    for (const distance of [65534, 65535, 65536, 65537]) {
      const data = edge(distance);
      for (const codec of ['snappy', 'lz4'] as const) {
        const c = compress(codec, data, { snappyFraming: 'raw' });
        expect(same(decompress(codec, c), data), `${codec} at ${distance}`).toBe(true);
        if (codec === 'lz4' && wasmUtils) expect(same(new Uint8Array(wasmUtils.lz4Decompress(Buffer.from(c))), data), `wasm-utils at ${distance}`).toBe(true);
        if (codec === 'snappy' && wasmUtils) expect(same(new Uint8Array(wasmUtils.snappyDecompress(Buffer.from(c))), data), `wasm-utils at ${distance}`).toBe(true);
      }
    }
  });
  it('lz4 frames of every block size (64 KiB to 4 MiB, several blocks) are read by the lz4 command and wasm-utils', () => {
    const data: Uint8Array = jsonEvents(9 * MiB, 5);
    for (const [size, blockId] of [[60_000, 4], [200_000, 5], [MiB, 6], [9 * MiB, 7]] as const) {
      const input = data.subarray(0, size);
      const c = compress('lz4', input);
      expect(c[5] >> 4, `block size id for ${size} bytes`).toBe(blockId);
      if (haveWasmUtils) expect(same(new Uint8Array(wasmUtils.lz4Decompress(Buffer.from(c))), input), `wasm-utils, ${size} bytes`).toBe(true);
      if (lz4Command.available) expect(same(lz4Command.decompress(c), input), `lz4 command, ${size} bytes`).toBe(true);
    }
  });
});
