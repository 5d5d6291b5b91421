// perf's --report page in headless Chromium (peer rule): it opens from a file with no other
// request, no console error, and its four plots are drawn with marks in them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { haveChromium, launchChromium } from '../helpers/browser.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { perf } from './run-perf.js';

let broker: MemoryBroker;
let dir: string;
beforeAll(async () => {
  broker = await startMemoryBroker({ topics: { shown: 2 } });
  dir = mkdtempSync(join(tmpdir(), 'kw-perf-report-'));
});
afterAll(async () => {
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('the perf report in Chromium', () => {
  it('shows four plots from one file, asking for nothing else', async () => {
    const file = join(dir, 'report.html');
    const r = await perf(['produce', '-b', broker.bootstrap, '-t', 'shown', '--records', '6000', '--record-size', '100', '--throughput', '4000', '--report', file]);
    expect(r.code).toBe(0);
    const chromium = await launchChromium();
    try {
      const requests: string[] = [];
      chromium.page.on('request', (req) => requests.push(req.url()));
      await chromium.page.goto(`file://${file}`);
      expect(requests).toEqual([`file://${file}`]);
      expect(chromium.errors).toEqual([]);
      const plots = await chromium.page.locator('svg').evaluateAll((svgs) => svgs.map((s) => {
        const box = s.getBoundingClientRect();
        return { width: box.width, height: box.height, marks: s.querySelectorAll('path, rect').length };
      }));
      expect(plots.length).toBe(4);
      for (const p of plots) {
        expect(p.width).toBeGreaterThan(300);
        expect(p.height).toBeGreaterThan(100);
        expect(p.marks).toBeGreaterThan(0);
      }
      await expect(chromium.page.locator('h1').textContent()).resolves.toBe('kafka-wire perf produce: shown');
      await expect(chromium.page.locator('pre').textContent()).resolves.toMatch(/^6000 records sent, /);
    } finally {
      await chromium.close();
    }
  }, 120_000);
});
