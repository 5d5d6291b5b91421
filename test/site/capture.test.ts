// The capture page in Chromium, from file://: a real capture opened through the file input
// lists its frames; selecting a Produce shows its tree, its hex and ASCII bytes (hovering a field
// lights it in both) and its decompressed records; at 390 px nothing overflows the page.
// Screenshots go to test-artifacts/ (gitignored): capture.png, capture-390.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/site/build.js';
import { readCapture } from '../../src/capture/index.js';
import { chromiumPath, launchChromium, type LaunchedBrowser } from '../helpers/browser.js';
import { repoRoot } from '../helpers/shared.js';

const artifacts = path.join(repoRoot, 'test-artifacts');
const fixture = path.join(repoRoot, 'test', 'capture', 'fixtures', 'kcat-memory-broker.pcap');

describe.skipIf(chromiumPath === undefined)('the capture page', () => {
  let out = '';
  let browser: LaunchedBrowser;
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-capture-site-'));
    fs.mkdirSync(artifacts, { recursive: true });
    await buildSite(out, { minify: false });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(out, { recursive: true, force: true });
  });

  for (const width of [1280, 390]) {
    it(`lists a capture's frames and shows one in three linked panes at ${width} px`, async () => {
      const page = browser.page;
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(pathToFileURL(path.join(out, 'capture.html')).href);
      await page.locator('#capture[data-ready="true"]').waitFor();
      await page.setInputFiles('#file', fixture);
      const frames = [...readCapture(new Uint8Array(fs.readFileSync(fixture)))].filter((e) => e.type === 'frame');
      await page.locator(`#frames tr[data-i="${frames.length - 1}"]`).waitFor();
      expect(await page.locator('#frames tr').count()).toBe(frames.length);
      expect(await page.locator('#status').innerText()).toContain(`${frames.length} frames`);
      // The first Produce request.
      const produce = frames.findIndex((f: any) => f.apiKey === 0);
      await page.locator(`#frames tr[data-i="${produce}"]`).click();
      const detail = page.locator('#detail');
      await detail.locator('.ctree').waitFor();
      expect(await detail.locator('h3').first().innerText()).toMatch(/^ProduceRequest v\d+, \d+ bytes$/);
      const size = (frames[produce] as any).bytes.length;
      expect(await detail.locator('.cgrid .hex .b').count()).toBe(size);
      expect(await detail.locator('.cgrid .ascii .b').count()).toBe(size);
      // Hover the client id's line: its bytes light in the hex and the ASCII column alike.
      const clientId = detail.locator('.ctree .line', { hasText: /^client_id/ }).first();
      await clientId.hover();
      const lit = await detail.locator('.cgrid .hex .b.hl').count();
      expect(lit).toBeGreaterThan(7);
      expect(await detail.locator('.cgrid .ascii .b.hl').count()).toBe(lit);
      expect(await detail.locator('.cgrid .ascii .b.hl').allInnerTexts()).toContain('r');
      // Collapsing a node hides its children.
      const header = detail.locator('.ctree summary', { has: page.locator('.line', { hasText: /^RequestHeader/ }) });
      await header.click();
      expect(await header.evaluate((s) => (s.parentElement as HTMLDetailsElement).open)).toBe(false);
      expect(await detail.locator('.ctree .line', { hasText: /^client_id/ }).isVisible()).toBe(false);
      await header.click();
      // Decompressed records, with their values.
      expect(await detail.locator('.records .batch').first().innerText()).toMatch(/zstd, 3 records/);
      expect(await detail.locator('.records table.recs tr').count()).toBe(4);
      await page.screenshot({ path: path.join(artifacts, width === 390 ? 'capture-390.png' : 'capture.png'), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(artifacts, width === 390 ? 'capture-390.png' : 'capture.png'), fullPage: true });
      expect(browser.errors).toEqual([]);
    }, 60_000);
  }
});
