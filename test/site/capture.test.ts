// The capture page in Chromium, from file://: a real capture opened through the file input
// lists its frames; selecting a Produce shows its tree, its hex and ASCII bytes (hovering a field
// lights it in both) and its decompressed records; at 390 px nothing overflows the page and each
// frame's API shows in the list without scrolling it.
// The decode page takes several frames back to back and Wireshark's hex dump.
// Screenshots go to test-artifacts/ (gitignored): capture.png, capture-view.png, capture-390.png,
// explorer-frames.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/site/build.js';
import { readCapture } from '../../src/capture/index.js';
import { encodeRequest } from '../../src/codec/by-key.js';
import { haveChromium, launchChromium, type LaunchedBrowser } from '../helpers/browser.js';
import { repoRoot } from '../helpers/shared.js';

const artifacts = path.join(repoRoot, 'test-artifacts');
const fixture = path.join(repoRoot, 'test', 'capture', 'fixtures', 'kcat-memory-broker.pcap');

describe.skipIf(!haveChromium)('the capture page', () => {
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
      // Each frame's API is in view in the list without scrolling it sideways, at 390 px too.
      const apiColumn = (await page.locator('table.frames th').allInnerTexts()).indexOf('API');
      const apiCell = page.locator('#frames tr[data-i="0"] td').nth(apiColumn);
      expect(await apiCell.innerText()).toMatch(/^→ \w+/);
      const [cell, list] = [await apiCell.boundingBox(), await page.locator('.framelist').boundingBox()];
      expect(cell!.x + cell!.width, `the API column ends at ${cell!.x + cell!.width} px, the list at ${list!.x + list!.width}`).toBeLessThanOrEqual(list!.x + list!.width);
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
      // The first screenful, as docs/explain-and-captures.md shows it (docs/capture-page.png is a copy).
      if (width !== 390) await page.screenshot({ path: path.join(artifacts, 'capture-view.png'), clip: { x: 0, y: 0, width, height: 1000 } });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(artifacts, width === 390 ? 'capture-390.png' : 'capture.png'), fullPage: true });
      expect(browser.errors).toEqual([]);
    }, 60_000);
  }

  it('the decode page explains frames back to back, pasted as a Wireshark hex dump', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(pathToFileURL(path.join(out, 'explore.html')).href);
    await page.locator('#explorer[data-ready="true"]').waitFor();
    const a = encodeRequest({ requestApiKey: 18, requestApiVersion: 3, correlationId: 1, clientId: 'c' }, { clientSoftwareName: 'kw', clientSoftwareVersion: '1' });
    const b = encodeRequest({ requestApiKey: 3, requestApiVersion: 12, correlationId: 2, clientId: 'c' }, { topics: null });
    const bytes = Buffer.concat([a, b]);
    let dump = '';
    for (let at = 0; at < bytes.length; at += 16) {
      const row = bytes.subarray(at, at + 16);
      const hex = Array.from(row, (x) => x.toString(16).padStart(2, '0')).join(' ');
      dump += `${at.toString(16).padStart(4, '0')}   ${hex.padEnd(47)}   ${Array.from(row, (x) => (x >= 32 && x < 127 ? String.fromCharCode(x) : '.')).join('')}\n`;
    }
    await page.locator('#hex').fill(dump);
    await page.locator('#output h2').nth(1).waitFor();
    expect(await page.locator('#output h2').allInnerTexts()).toEqual(['frame 1: ApiVersionsRequest', 'frame 2: MetadataRequest']);
    expect(await page.locator('#status').innerText()).toMatch(/^2 frames: ApiVersionsRequest v3, .*; MetadataRequest v12, /);
    // Each frame's hover stays in its own grid.
    await page.locator('#output .explain').nth(1).locator('.hexgrid .b[data-o="4"]').hover();
    expect(await page.locator('#output .explain').nth(0).locator('.b.hl').count()).toBe(0);
    expect(await page.locator('#output .explain').nth(1).locator('.tree .line.hl').innerText()).toContain('request_api_key int16 = 3 (Metadata)');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.screenshot({ path: path.join(artifacts, 'explorer-frames.png'), fullPage: true });
    expect(overflow).toBeLessThanOrEqual(0);
    expect(browser.errors).toEqual([]);
  }, 60_000);
});
