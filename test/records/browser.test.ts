// The records layer in a real browser (Debian chromium through playwright-core): the module is
// bundled with esbuild for the browser (no Node built-ins), then every codec round-trips and a
// kafkajs-encoded gzip batch decodes inside the page. Then the published browser build
// (dist/browser, needs npm run build) is served from a routed origin: it loads zstd.wasm itself
// and all four codecs compress 1 MiB of JSON events to the same bytes as Node, and decompress.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { crc32cRef, kafkajsBatch } from './helpers.js';
import { compress } from '../../src/records/index.js';
// @ts-expect-error: plain JavaScript module shared with the benchmarks
import { jsonEvents } from '../../bench/lib/events.mjs';
import { peer } from '../helpers/peer.js';

const chromiumPath = process.env.KAFKA_WIRE_CHROMIUM ?? '/usr/bin/chromium';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'src/records/index.ts');
const browserBuild = path.join(root, 'dist/browser');
const zstdWasm = path.join(root, 'node_modules/@bokuweb/zstd-wasm/dist/web/zstd.wasm');

describe('records in chromium', () => {
  if (!peer(`Chromium (${chromiumPath})`, fs.existsSync(chromiumPath), 'apt-get install chromium')) {
    it.skip(`${chromiumPath} is missing: skipping the browser test`, () => {});
    return;
  }
  let profile: string;
  let context: BrowserContext;
  let bundle: string;

  beforeAll(async () => {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [entry], bundle: true, format: 'iife', globalName: 'KafkaRecords', platform: 'browser',
      write: false, logLevel: 'silent',
      // zstd's loader resolves its default wasm URL even when given the bytes; an IIFE has no import.meta.
      define: { 'import.meta.url': JSON.stringify('http://kafka-wire.test/') },
    });
    bundle = result.outputFiles[0].text;
    expect(bundle).not.toMatch(/require\(["']node:/);
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-records-chromium-'));
    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  it('encodes, compresses and decodes in the page', async () => {
    const T0 = 1_700_000_000_000;
    const ref = await kafkajsBatch({
      compression: 1, firstTimestamp: T0, maxTimestamp: T0 + 1, lastOffsetDelta: 1,
      records: [
        { key: Buffer.from('k'), value: Buffer.from('hello'), offsetDelta: 0, timestampDelta: 0, headers: { h: 'x' } },
        { key: null, value: Buffer.from('world'), offsetDelta: 1, timestampDelta: 1 },
      ],
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addScriptTag({ content: bundle });
    const result = await page.evaluate(async ([refHex, wasmBase64]: string[]) => {
      const R = (globalThis as any).KafkaRecords;
      const fromHex = (h: string) => new Uint8Array(h.match(/../g)!.map((x) => parseInt(x, 16)));
      const out: Record<string, unknown> = {};
      try { R.compress('zstd', new Uint8Array(10)); } catch (e: any) { out.beforeInit = e.code; }
      // No zstd.wasm beside this bundle: the bytes are given.
      await R.initZstd({ wasm: Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)) });
      for (const compression of ['none', 'gzip', 'snappy', 'lz4', 'zstd']) {
        const bytes = R.encodeRecordBatch({ baseOffset: 42n, baseTimestamp: 1000, compression, records: [
          { key: 'a', value: 'x'.repeat(500), headers: [{ key: 'h', value: 'v' }] }, { value: null },
        ] });
        const b = R.decodeRecordBatches(bytes).batches[0];
        out[compression] = [b.compression, b.records.length, String(b.records[1].offset), b.records[0].value.length, b.records[0].headers[0].key];
      }
      out.crc = R.crc32c(new TextEncoder().encode('123456789'));
      // Long inputs take the folding paths (64- and 128-bit words) rather than slicing.
      out.longCrcs = [5000, 100_003].map((n) => R.crc32c(new Uint8Array(n).map((_, i) => (i * 131 + 7) & 255)));
      out.kafkajs = R.recordBatchToJson(R.decodeRecordBatches(fromHex(refHex)).batches[0]).records.map((r: any) => [r.offset, r.value]);
      try { R.decodeRecordBatches(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 2])); } catch (e: any) { out.error = [e.name, e.code]; }
      return out;
    }, [Buffer.from(ref).toString('hex'), fs.readFileSync(zstdWasm).toString('base64')]);
    expect(errors).toEqual([]);
    expect(result.beforeInit).toBe('NOT_INITIALIZED');
    for (const c of ['none', 'gzip', 'snappy', 'lz4', 'zstd']) expect(result[c]).toEqual([c, 2, '43', 500, 'h']);
    expect(result.crc).toBe(0xe3069283);
    expect(result.longCrcs).toEqual([5000, 100_003].map((n) => crc32cRef(new Uint8Array(n).map((_, i) => (i * 131 + 7) & 255))));
    expect(result.kafkajs).toEqual([['0', Buffer.from('hello').toString('hex')], ['1', Buffer.from('world').toString('hex')]]);
    expect(result.error).toEqual(['RecordsError', 'INVALID_LENGTH']);
    await page.close();
  }, 60_000);

  it.runIf(peer('the browser build (dist/browser)', fs.existsSync(path.join(browserBuild, 'kafka-wire.js')), 'npm run build'))('the dist/browser build compresses all four codecs like Node does', async () => {
    const origin = 'http://kafka-wire.test';
    const types: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
    const fetched: string[] = [];
    await context.route(`${origin}/**`, async (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      fetched.push(name);
      if (name === '') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>kafka-wire</title>' });
      const file = path.join(browserBuild, path.basename(name));
      if (!fs.existsSync(file)) return route.fulfill({ status: 404, body: '' });
      await route.fulfill({ contentType: types[path.extname(file)] ?? 'application/octet-stream', body: fs.readFileSync(file) });
    });
    const events: Uint8Array = jsonEvents();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/`);
    // A module script, as an app loads it (an evaluated function's import() would be rewritten by vitest).
    await page.addScriptTag({ type: 'module', content: "import * as kw from '/kafka-wire.js'; globalThis.kw = kw;" });
    await page.waitForFunction(() => (globalThis as any).kw !== undefined);
    const beforeInit = await page.evaluate(() => {
      try { (globalThis as any).kw.compress('zstd', new Uint8Array(10)); } catch (e: any) { return e.code; }
    });
    expect(beforeInit).toBe('NOT_INITIALIZED');
    expect(fetched).not.toContain('zstd.wasm'); // carried only by apps that call initZstd()
    const result = await page.evaluate(async (hex: string) => {
      const kw = (globalThis as any).kw;
      const data = new Uint8Array(hex.match(/../g)!.map((x) => parseInt(x, 16)));
      const out: Record<string, unknown> = {};
      await kw.initZstd();
      for (const codec of ['gzip', 'snappy', 'lz4', 'zstd']) {
        const c: Uint8Array = kw.compress(codec, data);
        const back: Uint8Array = kw.decompress(codec, c);
        let digest = 0;
        for (let i = 0; i < c.length; i++) digest = (Math.imul(digest, 31) + c[i]) | 0;
        out[codec] = { size: c.length, digest, same: back.length === data.length && back.every((b, i) => b === data[i]) };
      }
      return out;
    }, Buffer.from(events).toString('hex'));
    expect(errors).toEqual([]);
    expect(fetched).toContain('zstd.wasm');
    for (const codec of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      const r = result[codec] as { size: number; digest: number; same: boolean };
      expect(r.same, codec).toBe(true);
      expect(r.size, codec).toBeLessThan(events.length / 3);
      if (codec !== 'gzip') {
        // Same engines as in Node (gzip differs: Node uses zlib, the browser fflate).
        const node = compress(codec, events);
        let digest = 0;
        for (let i = 0; i < node.length; i++) digest = (Math.imul(digest, 31) + node[i]) | 0;
        expect([r.size, r.digest], codec).toEqual([node.length, digest]);
      }
    }
    await page.close();
    await context.unroute(`${origin}/**`);
  }, 120_000);
});
