// What `npm pack` ships: what a user needs, once. No tests, benchmarks or sources of the build; the
// browser bundle one time with its zstd.wasm beside it; README links that resolve on the npm page;
// and the size and file count the docs state (docs/figures.json), exactly.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import { built } from './packed.js';

/** How far the packed size may differ from the docs' figure: gzip's output varies a little between zlib builds. */
const PACKED_SLACK_KB = 2;
/** Guides linked from the README that other branches of this round write; each leaves this list once it exists. */
const ARRIVING: string[] = [];

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

  it('holds the library once per format: the ESM build, the CommonJS build and the browser bundle', () => {
    // The codec's WebAssembly, embedded as base64, marks every copy of the library.
    const marker = /wasmBase64 = '([^']{80})/.exec(readFileSync(join(repoRoot, 'dist', 'src', 'wasm', 'codec.generated.js'), 'utf8'))![1];
    const copies = paths.filter((p) => /\.c?js$/.test(p) && readFileSync(join(repoRoot, p), 'utf8').includes(marker));
    expect(copies.filter((p) => p.startsWith('dist/src/'))).toEqual(['dist/src/wasm/codec.generated.js']);
    expect(copies.filter((p) => p.startsWith('dist/cjs/'))).toHaveLength(1);
    expect(copies.filter((p) => !p.startsWith('dist/src/') && !p.startsWith('dist/cjs/'))).toEqual(['dist/browser/kafka-wire.js']);
  });

  it('holds no declarations that no entry\'s types reach', () => {
    // The command line's and the site's modules ship as JavaScript only: no entry exports them.
    expect(paths.filter((p) => /^dist\/src\/(cli|site|perf)\/.*\.d\.ts$/.test(p))).toEqual([]);
  });

  it('is the size and file count docs/figures.json states (the docs\' figures; node scripts/doc-figures.mjs rewrites them)', () => {
    const figures = JSON.parse(readFileSync(join(repoRoot, 'docs', 'figures.json'), 'utf8'));
    const actual = { files: pack.entryCount, unpackedMb: Number((pack.unpackedSize / 1e6).toFixed(1)), packedKb: Math.round(pack.size / 1000) };
    console.log(`npm pack: ${actual.packedKb} kB packed, ${actual.unpackedMb} MB unpacked, ${actual.files} files (docs/figures.json: ${figures.packedKb} kB, ${figures.files} files)`);
    const hint = 'the package changed: run `npm run build && node scripts/doc-figures.mjs` and commit the docs';
    expect(actual.files, hint).toBe(figures.files);
    expect(actual.unpackedMb, hint).toBe(figures.unpackedMb);
    // The packed size is gzip's output, which may differ by a few bytes between zlib builds.
    expect(Math.abs(actual.packedKb - figures.packedKb), hint).toBeLessThanOrEqual(PACKED_SLACK_KB);
  });

  it('has README links that work on the npm page: absolute, or to a file in the tarball', () => {
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !l.startsWith('#') && !/^https?:\/\//.test(l));
    expect(links.filter((l) => !paths.includes(l))).toEqual([]);
  });

  it('has a package.json npm publishes as it is: `npm pkg fix` changes nothing', () => {
    // npm 11 drops a bin path written "./dist/..." at publish, leaving the package without its command.
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-pkg-fix-'));
    try {
      const text = readFileSync(join(repoRoot, 'package.json'), 'utf8');
      writeFileSync(join(dir, 'package.json'), text);
      execFileSync('npm', ['pkg', 'fix'], { cwd: dir, stdio: 'pipe' });
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toEqual(JSON.parse(text));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('links into the project\'s repository only to files and folders that exist', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    const home = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const docs = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    for (const file of ['README.md', 'CHANGELOG.md', ...docs]) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      const targets = [...text.matchAll(/\]\((https:\/\/github\.com\/[^)\s#]+)/g)].map((m) => m[1])
        .filter((l) => l.startsWith(`${home}/blob/main/`) || l.startsWith(`${home}/tree/main/`))
        .map((l) => l.slice(`${home}/blob/main/`.length));
      expect(targets.filter((t) => !existsSync(join(repoRoot, t)) && !ARRIVING.includes(t)), file).toEqual([]);
    }
    // A guide that has arrived is checked like the rest: take it off the list.
    expect(ARRIVING.filter((t) => existsSync(join(repoRoot, t))), 'arrived: remove from ARRIVING').toEqual([]);
  });
});
