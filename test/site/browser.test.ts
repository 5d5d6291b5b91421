// The site in a real browser (Debian chromium through playwright-core), from file://: the index,
// an API page with hover linking, and the explorer decoding pasted and dropped frames with the
// WebAssembly codec. Screenshots go to test-artifacts/ (gitignored).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apis } from '../../src/generated/catalogue.js';
import { buildSite } from '../../src/site/build.js';
import { explainFrame, formatExplainText, sampleFrame } from '../../src/explain/index.js';
import { repoRoot, schemasDir } from '../explain/seeds.js';
import { peer } from '../helpers/peer.js';
import { haveDir } from '../helpers/shared.js';

const chromiumPath = process.env.KAFKA_WIRE_CHROMIUM ?? '/usr/bin/chromium';
const artifacts = path.join(repoRoot, 'test-artifacts');
const schemas = haveDir(schemasDir, 'descriptions in the site') ? schemasDir : undefined;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('site in chromium', () => {
  if (!peer(`Chromium (${chromiumPath})`, fs.existsSync(chromiumPath), 'apt-get install chromium')) {
    it.skip(`${chromiumPath} is missing: skipping the browser test`, () => {});
    return;
  }

  let out: string;
  let profile: string;
  let context: BrowserContext;
  const problems: string[] = [];

  const open = async (rel: string): Promise<Page> => {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${rel}: console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`${rel}: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`${rel}: request failed ${r.url()}`));
    await page.goto(pathToFileURL(path.join(out, rel)).href);
    return page;
  };

  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-site-'));
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-chromium-'));
    fs.mkdirSync(artifacts, { recursive: true });
    await buildSite(out, { schemasDir: schemas });
    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run'],
      viewport: { width: 1280, height: 900 },
    });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true });
  });

  it('loads the index with every API key', async () => {
    const page = await open('index.html');
    expect(await page.locator('table.index tbody tr').count()).toBe(apis.length);
    await page.screenshot({ path: path.join(artifacts, 'index.png') });
    await page.close();
  }, 60_000);

  it('links bytes and tree lines on an API page', async () => {
    const page = await open('api/AlterClientQuotas-v1.html');
    const request = page.locator('section.request .explain').first(); // the smallest instance, not the realistic one
    expect(await request.locator('.hexgrid .b').count()).toBe(35);
    // Hover the float64 Value's first byte: its tree line and all 8 bytes light up.
    await request.locator('.hexgrid .b[data-o="22"]').hover();
    const lit = request.locator('.tree .line.hl');
    expect(await lit.count()).toBe(1);
    expect(await lit.innerText()).toContain('Value float64 = 0 [0x0016, 8B]');
    expect(await request.locator('.hexgrid .b.hl').count()).toBe(8);
    // And the other way round: a line lights its bytes.
    await request.locator('.tree .line', { hasText: 'Entity []EntityData = 1 element' }).hover();
    expect(await request.locator('.hexgrid .b.hl').count()).toBe(4);
    await page.screenshot({ path: path.join(artifacts, 'api-page.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('explains pasted request and response frames in the explorer', async () => {
    const page = await open('explore.html');
    await page.waitForSelector('#explorer[data-ready="true"]');
    // A request: key and version come from the header.
    const request = sampleFrame(45, 'request', 0);
    await page.fill('#hex', hex(request));
    await page.waitForSelector('#output pre.tree');
    const expected = formatExplainText(explainFrame(request, { direction: 'request', schemasDir: schemas }));
    expect((await page.locator('#output pre.tree').innerText()).trimEnd()).toBe(expected.trimEnd());
    expect(await page.locator('#output .hexgrid .b').count()).toBe(34);
    expect(await page.locator('#apiKey').inputValue()).toBe('45');
    expect(await page.locator('#status').innerText()).toBe('AlterPartitionReassignmentsRequest v0, request header v2, 34 bytes on the wire');

    // A response: pick direction, key and version.
    const response = sampleFrame(49, 'response', 1);
    await page.selectOption('#direction', 'response');
    await page.selectOption('#apiKey', '49');
    await page.selectOption('#apiVersion', '1');
    await page.fill('#hex', hex(response).replace(/(..)/g, '$1 '));
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('AlterClientQuotasResponse'));
    const tree = explainFrame(response, { direction: 'response', apiKey: 49, apiVersion: 1, schemasDir: schemas });
    expect((await page.locator('#output pre.tree').innerText()).trimEnd()).toBe(formatExplainText(tree).trimEnd());
    await page.locator('#output .hexgrid .b[data-o="13"]').hover();
    expect(await page.locator('#output .tree .line.hl').innerText()).toContain('length uvarint = 2 (compact, n+1) [0x000d, 1B]');
    await page.screenshot({ path: path.join(artifacts, 'explorer.png'), fullPage: true });

    // Bad input is reported, not thrown, and its bytes still shown.
    await page.selectOption('#direction', 'request');
    await page.fill('#hex', '00 00 00 09 00');
    await page.waitForSelector('#output .hexgrid[data-size="5"]');
    expect(await page.locator('#status').getAttribute('class')).toBe('error');
    expect(await page.locator('#status').innerText()).toMatch(/TRUNCATED|FRAME_SIZE_MISMATCH/);
    expect(await page.locator('#output .hexgrid .b').count()).toBe(5);
    expect(await page.locator('#output pre.tree').count()).toBe(0);

    // A damaged frame: the bytes, the tree as far as it reads and a malformed node where it stops.
    const damaged = sampleFrame(3, 'request', 12).slice(0, 30);
    new DataView(damaged.buffer).setInt32(0, 26);
    await page.fill('#hex', hex(damaged));
    await page.waitForFunction(() => document.querySelector('#output pre.tree')?.textContent?.includes('[malformed]'));
    const partial = explainFrame(damaged, { direction: 'request', schemasDir: schemas, partial: true });
    expect(await page.locator('#status').innerText()).toBe(partial.error!.message);
    expect((await page.locator('#output pre.tree').innerText()).trimEnd()).toBe(formatExplainText(partial).trimEnd());
    expect(await page.locator('#output .hexgrid .b').count()).toBe(30);
    await page.locator('#output .hexgrid .b[data-o="29"]').hover();
    expect(await page.locator('#output .tree .line.hl').innerText()).toContain('[malformed] (TRUNCATED)');
    await page.screenshot({ path: path.join(artifacts, 'explorer-damaged.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('loads a dropped file and the built-in sample', async () => {
    const page = await open('explore.html');
    await page.waitForSelector('#explorer[data-ready="true"]');
    const produce = sampleFrame(0, 'request', 12);
    await page.setInputFiles('#file', { name: 'frame.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(produce) });
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('ProduceRequest v12'));
    expect(await page.locator('#output .hexgrid .b.cat-recordbatch').count()).toBe(61);
    expect(await page.locator('#output pre.tree').innerText()).toContain('RecordBatch[0] v2');
    await page.locator('#output .hexgrid .b[data-o="46"]').hover();
    expect(await page.locator('#output .tree .line.hl').innerText()).toContain('magic int8 = 2 [0x002e, 1B]');
    await page.screenshot({ path: path.join(artifacts, 'explorer-produce.png'), fullPage: true });
    await page.selectOption('#direction', 'response');
    await page.selectOption('#apiKey', '18');
    await page.selectOption('#apiVersion', '3');
    await page.click('#sample');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('ApiVersionsResponse v3'));
    expect(await page.locator('#hex').inputValue()).toBe(hex(sampleFrame(18, 'response', 3)).replace(/(..)/g, '$1 ').trim()
      .replace(/((?:.. ){15}..) /g, '$1\n'));
    await page.close();
  }, 60_000);

  it('opens a frame from an API page link', async () => {
    const page = await open('api/AlterPartitionReassignments-v0.html');
    await page.locator('section.response a.open').first().click();
    await page.waitForSelector('#explorer[data-ready="true"]');
    await page.waitForSelector('#output pre.tree');
    expect(await page.locator('#status').innerText()).toBe('AlterPartitionReassignmentsResponse v0, response header v1, 29 bytes on the wire');
    await page.close();
  }, 60_000);

  it('logged no console errors, page errors or failed loads', () => {
    expect(problems).toEqual([]);
  });
});
