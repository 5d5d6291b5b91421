// The static site: every API key and version gets a page; the explorer page and the browser
// bundle are written; schema texts appear only when a schema directory is given.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apis } from '../../src/generated/catalogue.js';
import { buildSite } from '../../src/site/build.js';
import { main } from '../../src/cli/main.js';
import { explainFrame, formatExplainText, sampleFrame } from '../../src/explain/index.js';
import { schemasDir, seedsDir } from '../explain/seeds.js';
import { catalogueSchemasDir, haveCatalogueSchemas, haveDir } from '../helpers/shared.js';
import { loadCatalogue } from '../../src/catalogue/node.js';

const pairs = apis.reduce((n, api) => n + api.request.validVersions[1] - api.request.validVersions[0] + 1, 0);

/** The page without its realistic instances (folded details beside each smallest one). */
function smallest(html: string): string {
  return html.replace(/<details class="realistic">[\s\S]*?<\/details>/g, '');
}

/** The `which`-th tree of the smallest instances (0 the request's, 1 the response's). */
function treeText(html: string, which: number): string {
  const pre = [...smallest(html).matchAll(/<pre class="tree">([\s\S]*?)<\/pre>/g)][which][1];
  return pre.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

describe('site without schemas', () => {
  let out: string;
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-site-'));
    const result = await buildSite(out, {});
    expect(result.apiPages).toBe(pairs);
  }, 120_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes the index, the explorer, the assets and a page per key and version', () => {
    for (const f of ['index.html', 'explore.html', 'assets/kafka-wire.js', 'assets/hover.js', 'assets/site.css']) {
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    }
    expect(fs.readdirSync(path.join(out, 'api'))).toHaveLength(pairs);
    expect(fs.existsSync(path.join(out, 'assets', 'descriptions.js'))).toBe(false);
    const index = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    for (const api of apis) expect(index).toContain(`href="api/${api.name}-v${api.request.validVersions[1]}.html">${api.name}</a>`);
    expect(index).toMatch(/<tr id="api-45" data-search="[^"]*"><td data-label="key">45<\/td>/);
    expect(index).toMatch(/<tr id="api-0" data-search="[^"]*"><td data-label="key">0<\/td><td data-label="API"><a [^>]+>Produce<\/a><\/td><td data-label="versions">[0-9]+-[0-9]+<\/td><td data-label="flexible">9\+<\/td><td data-label="request header">v1: [0-9]+-8, v2: 9-[0-9]+<\/td><td data-label="response header">v0: [0-9]+-8, v1: 9-[0-9]+<\/td>/);
  });

  it('lays out a seed page like the reference page', () => {
    const html = fs.readFileSync(path.join(out, 'api', 'AlterPartitionReassignments-v0.html'), 'utf8');
    expect(html).toContain('<dt>API key</dt><dd>45</dd>');
    expect(html).toContain('<dt>Encoded at</dt><dd>v0</dd>');
    expect(html).toContain('<dt>Flexible versions</dt><dd>0+</dd>');
    expect(html).toContain('<dt>Headers</dt><dd>req v2, resp v1</dd>');
    expect(html).toContain('<dt>Request size</dt><dd>34 bytes</dd>');
    expect(html).toContain('<dt>Response size</dt><dd>29 bytes</dd>');
    expect(html).toContain('AlterPartitionReassignmentsRequest v0, request header v2, 34 bytes on the wire');
    expect(html).toContain('byte layout (34 bytes, 16 bytes per row)');
    expect(html).toContain('href="AlterPartitionReassignments-v1.html">v1</a>');
    const legend = html.match(/<div class="legend">(.*?)<\/div>/)![1].replace(/<[^>]+>/g, '');
    expect(legend).toBe('framerpc headerrequest bodyRecordBatchRecordresponse bodytagged_fields');
    expect(smallest(html).match(/class="b /g)).toHaveLength(34 + 29);
    expect(html.match(/<details class="realistic">/g)).toHaveLength(2);
    const request = explainFrame(sampleFrame(45, 'request', 0), { direction: 'request', sample: true });
    expect(treeText(html, 0)).toBe(formatExplainText(request));
    expect(html).not.toContain('kafka message schema (.json)');
    // No description text at all: every tree line ends at its [offset, size] or fixed wording.
    for (const line of treeText(html, 0).trimEnd().split('\n')) {
      expect(line, line).toMatch(/\dB\]( (length-delimited framing|number of .*|common request header|message body, version 0|one sample element follows|numeric id of the API being invoked|version of the API being invoked|echoed back by the broker in the response|always a non-flexible int16-prefixed string))?$/);
    }
    expect(html).toContain('<td class="mono" data-label="field">TimeoutMs</td><td class="mono" data-label="type">int32</td>');
  });

  it.skipIf(!haveDir(seedsDir, 'the page wording comparison'))('words the intro, captions and facts as the seed pages do', () => {
    for (const file of fs.readdirSync(seedsDir).filter((f) => f.endsWith('.txt'))) {
      const seed = fs.readFileSync(path.join(seedsDir, file), 'utf8').split('\n').map((l) => l.trim());
      const version = seed[seed.indexOf('- Encoded at') + 1].replace(/^- v/, '');
      const html = fs.readFileSync(path.join(out, 'api', `${seed[0]}-v${version}.html`), 'utf8');
      const text = html.replace(/<[^>]+>/g, '\n').split('\n').map((l) => l.trim()).filter((l) => l !== '');
      expect(text).toContain(seed[1]); // the intro paragraph
      for (const line of seed.filter((l) => / bytes on the wire$|^byte layout \(/.test(l))) {
        expect(text.some((t) => t === line || t.startsWith(line + ' ')), line).toBe(true);
      }
      for (const fact of ['API key', 'Encoded at', 'Flexible versions', 'Headers', 'Request size', 'Response size']) {
        const value = seed[seed.indexOf(`- ${fact}`) + 1].replace(/^- /, '');
        expect(html).toContain(`<dt>${fact}</dt><dd>${value}</dd>`);
      }
    }
  });

  it('refuses an OUTDIR inside src/', async () => {
    await expect(buildSite(path.join(__dirname, '..', '..', 'src', 'site-out'))).rejects.toThrow(/inside src/);
  });
});

// The catalogue's own schema directory (npm run schemas), so the pages counted are the catalogue's
// release's: an older set (../shared's 4.3) would count fewer.
describe.runIf(haveCatalogueSchemas())('site with schemas', () => {
  const schemasDir = catalogueSchemasDir;
  let out: string;
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-site-'));
    const stdout = { text: '', write(s: string) { this.text += s; return true; } };
    const code = await main(['site', out, '--schemas', schemasDir], { stdin: process.stdin, stdout, stderr: stdout });
    expect(code, stdout.text).toBe(0);
    // --schemas joins the built-in catalogue: a page for each key and version of the two together.
    const joined = loadCatalogue(schemasDir).apis.reduce((n, api) => n + api.request.validVersions[1] - api.request.validVersions[0] + 1, 0);
    expect(joined).toBeGreaterThanOrEqual(pairs);
    expect(stdout.text).toContain(`(${joined} API pages)`);
  }, 120_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('shows descriptions and the schema text', () => {
    const html = fs.readFileSync(path.join(out, 'api', 'AlterClientQuotas-v1.html'), 'utf8');
    expect(html).toContain('kafka message schema (.json)');
    expect(html).toContain('&quot;name&quot;: &quot;AlterClientQuotasRequest&quot;');
    const tree = explainFrame(sampleFrame(49, 'response', 1), { direction: 'response', apiKey: 49, apiVersion: 1, schemasDir, sample: true });
    expect(treeText(html, 1)).toBe(formatExplainText(tree));
    expect(fs.readFileSync(path.join(out, 'assets', 'descriptions.js'), 'utf8')).toMatch(/^window\.KAFKA_WIRE_DESCRIPTIONS = \{/);
    expect(fs.readFileSync(path.join(out, 'explore.html'), 'utf8')).toContain('src="assets/descriptions.js"');
  });
});
