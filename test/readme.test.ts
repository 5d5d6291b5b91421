// The README and the guides under docs/: every ```ts block runs, against the sources, as a user
// would write it; every figure they state is docs/figures.json's (which scripts/doc-figures.mjs
// writes from npm pack and the catalogue, and test/package/tarball.test.ts holds to npm pack);
// every relative link between them resolves; the README starts with the two quick-start commands.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/shared.js';
import { docBlocks as blocks, docFiles, readme } from './helpers/readme.js';

const dir = join(repoRoot, 'test', '.readme-blocks');
const figures: Record<string, number> = JSON.parse(readFileSync(join(repoRoot, 'docs', 'figures.json'), 'utf8'));

describe('the README', () => {
  it('starts with the quick start: build and run, build and test', () => {
    const sh = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim());
    expect(sh.slice(0, 2)).toEqual(['npm ci && npm run build && npm start', 'npm ci && npm run build && npm test']);
  });
  it('is an overview: under 150 lines, every guide of docs/ linked', () => {
    expect(readme.split('\n').length).toBeLessThan(150);
    for (const { path } of docFiles.slice(1)) {
      expect(readme, `README links ${path}`).toContain(`/blob/main/${path}`);
    }
  });
});

describe('the docs\' figures', () => {
  it('are figures.json\'s, wherever a doc marks one', () => {
    const stated = docFiles.flatMap(({ path, text }) => [...text.matchAll(/<!--figure:(\w+)-->([^<]*)<!--\/figure-->/g)]
      .map((m) => ({ path, name: m[1], value: m[2] })));
    expect(stated.length).toBeGreaterThanOrEqual(6);
    for (const { path, name, value } of stated) {
      expect(figures[name], `${path}: figure ${name} (node scripts/doc-figures.mjs writes them)`).toBeDefined();
      expect(value, `${path}: figure ${name}; run node scripts/doc-figures.mjs`).toBe(figures[name].toLocaleString('en-US'));
    }
  });
  it('count the catalogue as it is', async () => {
    const { apis } = await import('../src/generated/catalogue.js');
    const versions = apis.reduce((n, api) => n + api.request.validVersions[1] - api.request.validVersions[0] + 1, 0);
    expect({ apiKeys: figures.apiKeys, otherApiKeys: figures.otherApiKeys, versions: figures.versions, keyVersionDirections: figures.keyVersionDirections })
      .toEqual({ apiKeys: apis.length, otherApiKeys: apis.length - 1, versions, keyVersionDirections: 2 * versions });
  });
});

describe('links between the docs', () => {
  it('resolve to files that exist (relative ones; the README\'s are absolute for the npm page)', () => {
    for (const { path, text } of docFiles) {
      const targets = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
      expect(targets.filter((t) => !existsSync(join(repoRoot, dirname(path), t))), path).toEqual([]);
    }
  });
});

describe('docs examples', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('has examples in the README and the guides', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(blocks.length).toBeGreaterThanOrEqual(15);
  });
  blocks.forEach(({ id, title, source }) => {
    it(`runs: ${title}`, async () => {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${id}.ts`);
      writeFileSync(file, source);
      // The block asserts its own results (node:assert); here it must run to its end.
      await expect(import(file)).resolves.toBeDefined();
    });
  });
});
