// The capture reader runs in browsers: its entry bundles for the browser with no Node modules,
// and the bundle reads a capture in headless Chromium (from a web ReadableStream, as a dropped
// file gives it) to the same frames as in Node.
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { join } from 'node:path';
import { readCapture } from '../../src/capture/index.js';
import { haveChromium, launchChromium } from '../helpers/browser.js';
import { repoRoot } from '../helpers/shared.js';
import { captureOf, conversationSegments, sampleExchanges } from './helpers.js';

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [join(repoRoot, 'src', 'capture', 'index.ts')], bundle: true, write: false, format: 'iife', globalName: 'kwCapture',
    platform: 'browser', target: 'es2022', logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

describe('the capture entry in a browser', () => {
  it('bundles for the browser without Node modules', async () => {
    const code = await bundle();
    expect(code).not.toMatch(/require\(["']node:/);
  });

  it.skipIf(!haveChromium)('reads a capture in Chromium from a ReadableStream', async () => {
    const bytes = captureOf(conversationSegments(sampleExchanges(), { maxSegment: 300 }).segments, { format: 'pcapng' });
    const expected = [...readCapture(bytes)].filter((e) => e.type === 'frame').map((f: any) => `${f.direction} ${f.apiKey} ${f.correlationId} ${f.bytes.length}`);
    const browser = await launchChromium();
    try {
      const page = browser.page;
      await page.setContent('<html><body></body></html>');
      await page.addScriptTag({ content: await bundle() });
      const got = await page.evaluate(async (hex: string) => {
        const data = new Uint8Array(hex.length / 2).map((_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
        const stream = new Blob([data]).stream();
        const out: string[] = [];
        for await (const e of (globalThis as any).kwCapture.readCaptureStream(stream)) {
          if (e.type === 'frame') out.push(`${e.direction} ${e.apiKey} ${e.correlationId} ${e.bytes.length}`);
        }
        return out;
      }, Buffer.from(bytes).toString('hex'));
      expect(got).toEqual(expected);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
