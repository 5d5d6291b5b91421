// The records layer in a real browser (Debian chromium through playwright-core): the module is
// bundled with esbuild for the browser (no Node built-ins), then every codec round-trips and a
// kafkajs-encoded gzip batch decodes inside the page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { kafkajsBatch } from './helpers.js';

const chromiumPath = process.env.KAFKA_WIRE_CHROMIUM ?? '/usr/bin/chromium';
const entry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/records/index.ts');

describe('records in chromium', () => {
  if (!fs.existsSync(chromiumPath)) {
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
    const result = await page.evaluate((refHex: string) => {
      const R = (globalThis as any).KafkaRecords;
      const fromHex = (h: string) => new Uint8Array(h.match(/../g)!.map((x) => parseInt(x, 16)));
      const out: Record<string, unknown> = {};
      for (const compression of ['none', 'gzip', 'snappy', 'lz4', 'zstd']) {
        const bytes = R.encodeRecordBatch({ baseOffset: 42n, baseTimestamp: 1000, compression, records: [
          { key: 'a', value: 'x'.repeat(500), headers: [{ key: 'h', value: 'v' }] }, { value: null },
        ] });
        const b = R.decodeRecordBatches(bytes).batches[0];
        out[compression] = [b.compression, b.records.length, String(b.records[1].offset), b.records[0].value.length, b.records[0].headers[0].key];
      }
      out.crc = R.crc32c(new TextEncoder().encode('123456789'));
      out.kafkajs = R.recordBatchToJson(R.decodeRecordBatches(fromHex(refHex)).batches[0]).records.map((r: any) => [r.offset, r.value]);
      try { R.decodeRecordBatches(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 2])); } catch (e: any) { out.error = [e.name, e.code]; }
      return out;
    }, Buffer.from(ref).toString('hex'));
    expect(errors).toEqual([]);
    for (const c of ['none', 'gzip', 'snappy', 'lz4', 'zstd']) expect(result[c]).toEqual([c, 2, '43', 500, 'h']);
    expect(result.crc).toBe(0xe3069283);
    expect(result.kafkajs).toEqual([['0', Buffer.from('hello').toString('hex')], ['1', Buffer.from('world').toString('hex')]]);
    expect(result.error).toEqual(['RecordsError', 'INVALID_LENGTH']);
    await page.close();
  }, 60_000);
});
