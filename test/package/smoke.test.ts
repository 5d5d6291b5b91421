// The package as a user gets it: `npm pack`, installed into a fresh project, then imported from
// Node ESM, required from CommonJS, run as the `kafka-wire` bin, bundled with esbuild for the
// browser and run in headless Chromium (page and Web Worker), and run in a Node worker thread.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeResponse, newMessage } from '../../src/index.js';
import { toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';
import { chromiumPath, launchChromium } from '../helpers/browser.js';

const built = existsSync(join(repoRoot, 'dist', 'src', 'index.js')) && existsSync(join(repoRoot, 'dist', 'cjs', 'index.cjs'));
if (!built) console.warn('SKIPPED: the package smoke test needs `npm run build` first');

// A Metadata v12 response to decode everywhere: the same bytes, the same expected answer.
const frame = encodeResponse(3, 12, { correlationId: 42 }, newMessage(3, 'response', 12, {
  brokers: [{ nodeId: 1, host: 'broker-1', port: 9092, rack: null }],
  topics: [{ errorCode: 0, name: 'orders', topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', isInternal: false, partitions: [], topicAuthorizedOperations: 0 }],
}));
const hex = toHex(frame);
const EXPECTED = 'orders@broker-1:42';
const decodeSnippet = (importLine: string) => `${importLine}
const hex = '${hex}';
const bytes = new Uint8Array(hex.length / 2).map((_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
const { header, body } = kw.decodeResponse(bytes, 3, 12);
const answer = body.topics[0].name + '@' + body.brokers[0].host + ':' + header.correlationId;`;

describe.skipIf(!built)('the packed package', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kafka-wire-smoke-'));
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: repoRoot, stdio: 'pipe' });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'smoke', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], { cwd: dir, stdio: 'pipe' });
  }, 180_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has no install scripts and no native addon', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', 'kafka-wire', 'package.json'), 'utf8'));
    expect(pkg.scripts?.install ?? pkg.scripts?.postinstall ?? pkg.scripts?.preinstall).toBeUndefined();
    expect(pkg.sideEffects).toBe(false);
    const files = execFileSync('find', [join(dir, 'node_modules', 'kafka-wire'), '-name', '*.node']).toString();
    expect(files).toBe('');
  });

  it('imports from Node ESM', () => {
    writeFileSync(join(dir, 'esm.mjs'), `${decodeSnippet("import * as kw from 'kafka-wire';")}\nconsole.log(answer);`);
    expect(execFileSync(process.execPath, ['esm.mjs'], { cwd: dir }).toString().trim()).toBe(EXPECTED);
  });

  it('requires from CommonJS', () => {
    writeFileSync(join(dir, 'cjs.cjs'), `${decodeSnippet("const kw = require('kafka-wire');")}\nconsole.log(answer);`);
    expect(execFileSync(process.execPath, ['cjs.cjs'], { cwd: dir }).toString().trim()).toBe(EXPECTED);
  });

  it('runs the kafka-wire bin', () => {
    const out = execFileSync(join(dir, 'node_modules', '.bin', 'kafka-wire'), ['decode', '--jsonl'], {
      cwd: dir, input: JSON.stringify({ direction: 'response', hex, apiKey: 3, apiVersion: 12 }) + '\n',
    }).toString();
    expect(JSON.parse(out).frame.body.topics[0].name).toBe('orders');
  });

  it('decodes in a Node worker thread', () => {
    writeFileSync(join(dir, 'worker.mjs'), `import { Worker } from 'node:worker_threads';
const worker = new Worker(new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(`${decodeSnippet("import * as kw from '" + '%KW%' + "';")}\nimport { parentPort } from 'node:worker_threads';\nparentPort.postMessage(answer);`)}.replace('%KW%', ${JSON.stringify('file://' + join('%DIR%', 'node_modules', 'kafka-wire', 'dist', 'src', 'index.js'))}.replace('%DIR%', process.cwd())))));
worker.on('message', (m) => { console.log(m); worker.terminate(); });`);
    expect(execFileSync(process.execPath, ['worker.mjs'], { cwd: dir }).toString().trim()).toBe(EXPECTED);
  });

  it('compresses zstd after initZstd() from ESM, and from CommonJS', () => {
    writeFileSync(join(dir, 'zstd.mjs'), `import { initZstd, compress, decompress } from 'kafka-wire/records';
const data = new TextEncoder().encode('kafka '.repeat(10000));
await initZstd();
const c = compress('zstd', data);
console.log(c.length < 200 && decompress('zstd', c).length === data.length);`);
    expect(execFileSync(process.execPath, ['zstd.mjs'], { cwd: dir }).toString().trim()).toBe('true');
    writeFileSync(join(dir, 'zstd.cjs'), "require('kafka-wire').initZstd().then(() => console.log('ready'));");
    expect(execFileSync(process.execPath, ['zstd.cjs'], { cwd: dir }).toString().trim()).toBe('ready');
  });

  it('bundles zstd apart: an app that never calls initZstd() never loads it', async () => {
    writeFileSync(join(dir, 'records.mjs'), "import { encodeRecordBatch, initZstd } from 'kafka-wire/records'; console.log(encodeRecordBatch, initZstd);");
    const result = await build({ entryPoints: [join(dir, 'records.mjs')], bundle: true, minify: true, format: 'esm', platform: 'browser',
      splitting: true, outdir: join(dir, 'split'), write: false, absWorkingDir: dir, logLevel: 'silent' });
    const [entry, ...chunks] = result.outputFiles;
    expect(entry.path.endsWith('records.js')).toBe(true);
    // the loader of zstd's WebAssembly (its exports' names) is in a chunk of its own
    expect(entry.text).not.toContain('ZSTD_compress');
    expect(chunks.filter((c) => c.text.includes('ZSTD_compress'))).toHaveLength(1);
    console.log('records bundle (esbuild, minified, split):', JSON.stringify(Object.fromEntries(result.outputFiles.map((f) => [f.path.slice(dir.length + 1), f.contents.length]))));
  });

  it('bundles for the browser and tree-shakes: sizes of typical imports', async () => {
    const entries: Record<string, string> = {
      'everything (by-key API)': "import { decodeResponse } from 'kafka-wire'; console.log(decodeResponse);",
      'Metadata only (core + one API)': "import { decodeResponseFor } from 'kafka-wire/core'; import { metadataApi } from 'kafka-wire/apis/Metadata'; console.log(decodeResponseFor, metadataApi);",
    };
    const sizes: Record<string, { raw: number; gzip: number }> = {};
    for (const [name, source] of Object.entries(entries)) {
      const file = join(dir, 'entry.mjs');
      writeFileSync(file, source);
      const result = await build({ entryPoints: [file], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, absWorkingDir: dir });
      const bytes = result.outputFiles[0].contents;
      sizes[name] = { raw: bytes.length, gzip: gzipSync(bytes).length };
    }
    console.log('bundle sizes (esbuild, minified):', JSON.stringify(sizes));
    expect(sizes['Metadata only (core + one API)'].raw).toBeLessThan(sizes['everything (by-key API)'].raw / 2);
  });

  it.skipIf(!chromiumPath)('decodes in headless Chromium, on the page and in a Web Worker', async () => {
    const result = await build({
      stdin: { contents: `${decodeSnippet("import * as kw from 'kafka-wire';")}\nexport default answer;`, resolveDir: dir },
      bundle: true, format: 'iife', globalName: 'smoke', platform: 'browser', write: false,
    });
    const bundle = result.outputFiles[0].text;
    writeFileSync(join(dir, 'bundle.js'), bundle);
    writeFileSync(join(dir, 'worker.js'), `${bundle}\npostMessage(smoke.default);`);
    writeFileSync(join(dir, 'index.html'), `<!doctype html><script src="bundle.js"></script>
<script>window.pageAnswer = smoke.default;</script>`);
    const { browser, page, errors, close } = await launchChromium();
    try {
      await page.goto('file://' + join(dir, 'index.html'));
      expect(await page.evaluate(() => (window as any).pageAnswer)).toBe(EXPECTED);
      // Workers cannot start from file:// pages; a blob URL carries the same bundle.
      const fromWorker = await page.evaluate(async (source: string) => new Promise((resolve, reject) => {
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message));
      }), `${bundle}\npostMessage(smoke.default);`);
      expect(fromWorker).toBe(EXPECTED);
      expect(errors).toEqual([]);
    } finally {
      await close();
      void browser;
    }
  });
});
