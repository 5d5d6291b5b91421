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
import { haveChromium, launchChromium } from '../helpers/browser.js';
import { peer } from '../helpers/peer.js';

const built = peer('the built package (dist/)', existsSync(join(repoRoot, 'dist', 'src', 'index.js')) && existsSync(join(repoRoot, 'dist', 'cjs', 'index.cjs')), 'npm run build');

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

  it('loads a run-time catalogue from kafka-wire/catalogue and has a module per API', () => {
    const fixtures = join(repoRoot, 'test', 'fixtures', 'schemas');
    writeFileSync(join(dir, 'catalogue.mjs'), `import { loadCatalogue } from 'kafka-wire/catalogue';
import { streamsGroupHeartbeatApi } from 'kafka-wire/apis/StreamsGroupHeartbeat';
import { newMessage } from 'kafka-wire';
const catalogue = loadCatalogue(${JSON.stringify(fixtures)});
console.log(catalogue.api(1000).name, newMessage(1000, 'request', 1, {}, { catalogue }).port, streamsGroupHeartbeatApi.apiKey);`);
    expect(execFileSync(process.execPath, ['catalogue.mjs'], { cwd: dir }).toString().trim()).toBe('Gizmo 9092 88');
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

  it('carries the Apache-2.0 LICENSE text package.json names', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', 'kafka-wire', 'package.json'), 'utf8'));
    expect(pkg.license).toBe('Apache-2.0');
    const license = readFileSync(join(dir, 'node_modules', 'kafka-wire', 'LICENSE'), 'utf8');
    expect(license).toBe(readFileSync(join(repoRoot, 'LICENSE'), 'utf8'));
    expect(license).toMatch(/Apache License\s+Version 2\.0, January 2004/);
  });

  it('keeps the command line\'s internals out of kafka-wire/wire', () => {
    writeFileSync(join(dir, 'wire.mjs'), "import * as wire from 'kafka-wire/wire'; console.log(Object.keys(wire).sort().join(' '));");
    const names = execFileSync(process.execPath, ['wire.mjs'], { cwd: dir }).toString().trim().split(' ');
    expect(names).toContain('partitionForKey');
    for (const internal of ['WIRE_USAGE', 'produceCommand', 'consumeCommand', 'metadataCommand', 'wireCommands']) expect(names).not.toContain(internal);
  });

  it('type-checks in a strict NodeNext project: typed calls compile, a misspelled field does not', () => {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true,
        types: ['node'], typeRoots: [join(repoRoot, 'node_modules', '@types')],
      },
      files: ['typed.ts', 'misspelled.ts'],
    }));
    writeFileSync(join(dir, 'typed.ts'), `import { ApiKey, decodeRequest, encodeRequest } from 'kafka-wire';
import { encodeRequestFor } from 'kafka-wire/core';
import { produceApi } from 'kafka-wire/apis/Produce';
const header = { requestApiKey: ApiKey.Produce, requestApiVersion: 3, correlationId: 1, clientId: null };
const request = decodeRequest(encodeRequest(header, { acks: -1, topicData: [{ name: 't', partitionData: [{ index: 0 }] }] }));
if (request.apiKey === ApiKey.Produce) console.log(request.body.acks.toFixed(0));
encodeRequestFor(produceApi, header, { topicData: [{ name: 't' }] });
`);
    writeFileSync(join(dir, 'misspelled.ts'), `import { ApiKey, encodeRequest } from 'kafka-wire';
encodeRequest({ requestApiKey: ApiKey.Produce, requestApiVersion: 9, correlationId: 1, clientId: null }, { ackz: -1 });
`);
    let output = '';
    try {
      execFileSync(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', dir, '--pretty', 'false'], { cwd: dir, stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stdout: Buffer }).stdout);
    }
    expect(output.trim().split('\n')).toEqual([
      "misspelled.ts(2,108): error TS2353: Object literal may only specify known properties, and 'ackz' does not exist in type 'ProduceRequestInput'.",
    ]);
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
      'Fetch consumer (core + Fetch + records)': "import { decodeResponseFor } from 'kafka-wire/core'; import { fetchApi } from 'kafka-wire/apis/Fetch'; import { decodeRecordBatches } from 'kafka-wire/records'; console.log(decodeResponseFor, fetchApi, decodeRecordBatches);",
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
    // The budget: 5% over the 32,755 bytes this bundle took before the codec moved into src/codec/.
    expect(sizes['Metadata only (core + one API)'].raw).toBeLessThanOrEqual(Math.floor(32_755 * 1.05));
    // A Fetch consumer's bundle (codec, records engine, every codec's decoder) no larger than the
    // 158,457 bytes it took before the two engines came to share one memory (issue 24).
    expect(sizes['Fetch consumer (core + Fetch + records)'].raw).toBeLessThanOrEqual(158_457);
  });

  it('bundles the producer, consumer and admin for browsers and workerd, reaching no node: module', async () => {
    const source = "import { Producer } from 'kafka-wire/producer'; import { Consumer } from 'kafka-wire/consumer'; import { Admin } from 'kafka-wire/admin'; "
      + "import { webSocketConnector, cloudflareConnector } from 'kafka-wire/wire'; console.log(Producer, Consumer, Admin, webSocketConnector, cloudflareConnector);";
    const sizes: Record<string, number> = {};
    for (const [name, conditions] of [['browser', ['browser']], ['workerd', ['workerd', 'worker', 'browser']]] as const) {
      // esbuild fails the build on an import of node:net, node:tls or node:events for platform browser.
      const result = await build({ stdin: { contents: source, resolveDir: dir }, bundle: true, minify: true, format: 'esm', platform: 'browser',
        conditions: [...conditions], write: false, absWorkingDir: dir, logLevel: 'silent' });
      const text = result.outputFiles[0].text;
      expect(text).not.toMatch(/\bfrom\s*"node:|\bimport\("node:(?:net|tls|events)/);
      // The node:net connector's stand-in, which refuses typed where no connector is given.
      expect(text).toContain('pass ConnectOptions.socket');
      sizes[name] = text.length;
    }
    console.log('client bundles (esbuild, minified):', JSON.stringify(sizes));
  });

  it.skipIf(!haveChromium)('decodes in headless Chromium, on the page and in a Web Worker', async () => {
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
