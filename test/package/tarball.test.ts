// What `npm pack` ships: what a user needs, once. No tests, benchmarks or sources of the build; the
// browser bundle one time with its zstd.wasm beside it; README links that resolve on the npm page;
// and the size and file count the README states, held to within a budget.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import { built } from './packed.js';

/** How far the tarball may grow past the README's figures before the README must say so. */
const BUDGET = 1.05;
/** How far it may shrink below them before the README is stale. */
const FLOOR = 0.9;

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe.skipIf(!built)('the tarball', () => {
  const [pack] = built ? JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: repoRoot, stdio: 'pipe' }).toString()) : [];
  const paths: string[] = built ? pack.files.map((f: { path: string }) => f.path) : [];

  it('holds no tests, benchmarks or build inputs', () => {
    const stray = paths.filter((p) => /^(test|bench|assembly|scripts|src|docs|kafka)\//.test(p) || /\.test\.|\.map$|\.tsbuildinfo$/.test(p));
    expect(stray).toEqual([]);
  });

  it('holds the browser bundle once, with the WebAssembly files beside it', () => {
    expect(paths.filter((p) => p.endsWith('/kafka-wire.js'))).toEqual(['dist/browser/kafka-wire.js']);
    expect(paths.filter((p) => p.endsWith('.wasm')).sort()).toEqual(['dist/browser/codec.wasm', 'dist/browser/records.wasm', 'dist/browser/zstd.wasm']);
  });

  it('is the size and file count the README states, within the budget', () => {
    const stated = /The package is (\d+) kB packed \(([\d.]+) MB unpacked\), (\d+) files/.exec(readme);
    expect(stated, 'README: "The package is N kB packed (N MB unpacked), N files"').not.toBeNull();
    const [kb, files] = [Number(stated![1]), Number(stated![3])];
    const actual = { kb: Math.round(pack.size / 1000), files: pack.entryCount };
    console.log(`npm pack: ${actual.kb} kB packed, ${(pack.unpackedSize / 1e6).toFixed(1)} MB unpacked, ${actual.files} files (README: ${kb} kB, ${files} files)`);
    expect(actual.kb).toBeLessThanOrEqual(kb * BUDGET);
    expect(actual.files).toBeLessThanOrEqual(files * BUDGET);
    expect(actual.kb).toBeGreaterThanOrEqual(kb * FLOOR);
    expect(actual.files).toBeGreaterThanOrEqual(files * FLOOR);
  });

  it('has README links that work on the npm page: absolute, or to a file in the tarball', () => {
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !l.startsWith('#') && !/^https?:\/\//.test(l));
    expect(links.filter((l) => !paths.includes(l))).toEqual([]);
  });
});
