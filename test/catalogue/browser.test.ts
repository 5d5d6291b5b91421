// The explorer site built with a run-time catalogue, in headless Chromium from file://: the page
// rebuilds the catalogue from assets/catalogue.js and decodes an API the package does not know.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/node.js';
import { sampleFrame } from '../../src/explain/samples.js';
import { buildSite } from '../../src/site/build.js';
import { toHex } from '../../src/text.js';
import { haveChromium, launchChromium } from '../helpers/browser.js';
import { repoRoot } from '../helpers/shared.js';
import { gizmoV1Frame } from './golden.js';

describe.skipIf(!haveChromium)('the explorer with a run-time catalogue', () => {
  it('decodes the catalogue\'s new API and version in the page', async () => {
    const catalogue = loadCatalogue(path.join(repoRoot, 'test', 'fixtures', 'schemas'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-site-catalogue-'));
    const { page, errors, close } = await launchChromium();
    try {
      await buildSite(out, { catalogue, minify: false });
      const url = pathToFileURL(path.join(out, 'explore.html')).href;
      await page.goto(`${url}#dir=request&hex=${toHex(gizmoV1Frame)}`);
      await page.waitForSelector('#explorer[data-ready="true"]');
      expect(await page.locator('#status').innerText()).toBe('GizmoRequest v1, request header v2, 108 bytes on the wire');
      expect(await page.locator('#apiKey option[value="1000"]').count()).toBe(1);
      const metadata14 = toHex(sampleFrame(3, 'response', 14, { catalogue }));
      const tree = await page.evaluate((hex) => (window as any).kafkaWire.explainHex(hex, { direction: 'response', apiKey: 3, apiVersion: 14 }), metadata14);
      expect(tree.messageName).toBe('MetadataResponse');
      expect(tree.apiVersion).toBe(14);
      expect(errors).toEqual([]);
    } finally {
      await close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
