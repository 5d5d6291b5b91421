// The explorer site as a new user meets it, in Chromium at 1280 and 390 px: no page scrolls
// sideways; the index searches by name, key and field name, groups the APIs and marks removed
// versions; each API page links its request and response both ways and carries a realistic
// instance with its tree; byte grids have an ASCII column; the capture page's tree wraps rather
// than clips, and its records table shows timestamps, headers and "1 record". Screenshots go to
// test-artifacts/surface-*.png (gitignored).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/site/build.js';
import { encodeRequest, encodeResponse, newMessage, realisticFrame, sampleFrame } from '../../src/index.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { toHex } from '../../src/text.js';
import { chromiumPath, launchChromium, type LaunchedBrowser } from '../helpers/browser.js';
import { peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';
import { captureOf, conversationSegments } from '../capture/helpers.js';

const artifacts = path.join(repoRoot, 'test-artifacts');
const haveChromium = peer('chromium', chromiumPath !== undefined, 'apt-get install chromium');

describe('the realistic sampler', () => {
  it('gives the same bytes for a seed, other bytes for another, and decodes', () => {
    expect(realisticFrame(0, 9, 'request', { seed: 3 })).toEqual(realisticFrame(0, 9, 'request', { seed: 3 }));
    expect(realisticFrame(0, 9, 'request', { seed: 3 })).not.toEqual(realisticFrame(0, 9, 'request', { seed: 4 }));
    expect(realisticFrame(0, 9, 'request', { seed: 3 }).length).toBeGreaterThan(sampleFrame(0, 9, 'request').length);
  });
});

describe.skipIf(!haveChromium)('the site at 1280 and 390 px', () => {
  let out = '';
  let capture = '';
  let browser: LaunchedBrowser;
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-surface-site-'));
    fs.mkdirSync(artifacts, { recursive: true });
    await buildSite(out, { minify: false });
    // A capture whose Produce carries one record with headers and a long topic name (a long tree line).
    const batch = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 1_733_000_000_000n,
      records: [{ key: 'user-1', value: '{"event":"purchase"}', headers: [{ key: 'trace-id', value: 'abc123' }] }] });
    const topic = 'a-topic-with-a-rather-long-name-that-makes-a-long-tree-line-'.repeat(2);
    const request = encodeRequest({ requestApiKey: 0, requestApiVersion: 9, correlationId: 1, clientId: 'surface' },
      { acks: -1, timeoutMs: 1000, topicData: [{ name: topic, partitionData: [{ index: 0, records: batch }] }] });
    const response = encodeResponse(0, 9, { correlationId: 1 }, newMessage(0, 9, 'response', { responses: [] }));
    capture = path.join(out, 'one-record.pcap');
    fs.writeFileSync(capture, captureOf(conversationSegments([{ request, response }]).segments));
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(out, { recursive: true, force: true });
  });

  const open = async (rel: string, width: number, hash = '') => {
    const page = browser.page;
    await page.setViewportSize({ width, height: 900 });
    await page.goto(pathToFileURL(path.join(out, rel)).href + hash);
    return page;
  };
  const noSideways = async (what: string, width: number) => {
    const page = browser.page;
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll, `${what} at ${width} px scrolls sideways`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: path.join(artifacts, `surface-${what}-${width}.png`) });
  };

  for (const width of [1280, 390]) {
    it(`the index: grouped, searchable, removed versions marked, no sideways scrolling (${width} px)`, async () => {
      const page = await open('index.html', width);
      await noSideways('index', width);
      const groups = await page.locator('section.group h2').allInnerTexts();
      expect(groups).toEqual(['produce and consume', 'consumer groups', 'transactions', 'share groups', 'streams groups', 'admin', 'KRaft and controller']);
      expect(await page.locator('section.group').nth(0).locator('#api-0').count()).toBe(1);
      expect(await page.locator('section.group').nth(3).locator('tr[data-search^="sharefetch "]').count()).toBe(1);
      // Produce v0-v2 are removed (KIP-896): marked and struck through.
      const removed = page.locator('#api-0 a.removed');
      expect(await removed.allInnerTexts()).toEqual(['v0', 'v1', 'v2']);
      expect(await removed.first().evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe('line-through');
      // Search by field name, by key, by name.
      const visible = () => page.locator('tr[data-search]:visible td:nth-child(2)').allInnerTexts();
      await page.fill('#search', 'memberepoch');
      const byField = await visible();
      expect(byField).toContain('ConsumerGroupHeartbeat');
      expect(byField).not.toContain('Produce');
      expect(await page.locator('#shown').innerText()).toMatch(/^\d+ of \d+ APIs$/);
      // Exact keys and names first; a number matches keys from their start (3, 30-39), not inside them (13, 23).
      await page.fill('#search', '3');
      const byKey = await visible();
      expect(byKey[0]).toBe('Metadata');
      expect(byKey.length).toBeLessThanOrEqual(11);
      expect(await page.locator('tr[data-search]:visible td:nth-child(1)').allInnerTexts()).not.toContain('13');
      await page.fill('#search', 'fetch');
      const byName = await visible();
      expect(byName[0]).toBe('Fetch');
      expect(byName).toEqual(expect.arrayContaining(['Fetch', 'OffsetFetch', 'ShareFetch']));
      expect(await page.locator('section.group:visible h2').allInnerTexts()).not.toContain('transactions');
      await page.fill('#search', 'offsetcommit');
      expect((await visible())[0]).toBe('OffsetCommit');
      // Clearing the box puts every group and row back in its place.
      await page.fill('#search', '');
      expect(await page.locator('section.group h2').allInnerTexts()).toEqual(groups);
      expect(await page.locator('tr[data-search]').first().locator('td').first().innerText()).toBe('0');
      await page.screenshot({ path: path.join(artifacts, `surface-index-search-${width}.png`) });
    });

    it(`an API page: request and response linked, a realistic instance with its tree, ASCII column (${width} px)`, async () => {
      const page = await open('api/Produce-v9.html', width);
      await noSideways('produce-v9', width);
      expect(await page.locator('section.request a.pair').getAttribute('href')).toBe('#response');
      expect(await page.locator('section.response a.pair').getAttribute('href')).toBe('#request');
      for (const direction of ['request', 'response']) {
        const real = page.locator(`section.${direction} details.realistic`);
        await real.locator('summary').click();
        expect(await real.locator('pre.tree .line').count()).toBeGreaterThan(10);
        expect(await real.locator('.hexgrid .b').count()).toBeGreaterThan(0);
      }
      expect(await page.locator('section.request details.realistic pre.tree').innerText()).toMatch(/orders|payments|inventory-updates|clickstream|audit-log/);
      await page.locator('section.request details.realistic').scrollIntoViewIfNeeded();
      await noSideways('produce-v9-realistic', width);
      // The ASCII column: one cell per byte, lit with its field.
      const grid = page.locator('section.request .explain').first();
      expect(await grid.locator('.hexgrid .a').count()).toBe(await grid.locator('.hexgrid .b').count());
      await grid.locator('.hexgrid .a[data-o="5"]').hover();
      expect(await grid.locator('.tree .line.hl').innerText()).toContain('request_api_key');
      const removedPage = await open('api/Produce-v1.html', width);
      expect(await removedPage.locator('p.removed-note').innerText()).toContain('KIP-896');
    });

    // Every page at the narrow width (each page's widest parts are narrow-width problems; 1280 px takes the pages above).
    if (width === 390) it(`every API version page fits ${width} px`, async () => {
      const wide: string[] = [];
      for (const file of fs.readdirSync(path.join(out, 'api'))) {
        const page = await open(`api/${file}`, width);
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scroll > width) wide.push(`${file}: ${scroll}`);
      }
      expect(wide).toEqual([]);
    }, 300_000);

    it(`the explorer and the capture page (${width} px)`, async () => {
      const frame = sampleFrame(1, 12, 'response');
      let page = await open('explore.html', width, `#dir=response&key=1&v=12&hex=${toHex(frame)}`);
      await page.locator('#output .hexgrid').waitFor();
      expect(await page.locator('#output .hexgrid .a').count()).toBe(frame.length);
      await noSideways('explorer', width);

      page = await open('capture.html', width);
      await page.locator('#capture[data-ready="true"]').waitFor();
      await page.setInputFiles('#file', capture);
      await page.locator('#detail .ctree').waitFor();
      // The tree wraps its long lines rather than clipping them.
      const clipped = await page.locator('#detail .ctree .line').evaluateAll((lines) =>
        lines.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent));
      expect(clipped).toEqual([]);
      const treeBox = await page.locator('#detail .ctree').evaluate((t) => [t.scrollWidth, t.clientWidth]);
      expect(treeBox[0]).toBeLessThanOrEqual(treeBox[1]);
      // Records: timestamp and headers, and "1 record".
      expect(await page.locator('#detail p.batch').innerText()).toMatch(/, 1 record$/);
      const heads = await page.locator('#detail table.recs th').allInnerTexts();
      expect(heads).toEqual(['offset', 'timestamp', 'key', 'value', 'headers', 'value bytes']);
      const cells = await page.locator('#detail table.recs tr').nth(1).locator('td').allInnerTexts();
      expect(cells[1]).toContain('1733000000000');
      expect(cells[1]).toContain('2024-11-30T');
      expect(cells[4]).toBe('trace-id=abc123');
      await page.locator('#detail .records').scrollIntoViewIfNeeded();
      await noSideways('capture', width);
    });
  }
});
