// Every ```ts block in the README runs, against the sources, as a user would write it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/shared.js';
import { readme, readmeBlocks as blocks } from './helpers/readme.js';

const dir = join(repoRoot, 'test', '.readme-blocks');

describe('README examples', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('gives the catalogue\'s counts', async () => {
    const { apis } = await import('../src/generated/catalogue.js');
    expect(readme).toContain(`${apis.length} API keys`);
    expect(readme).toContain(`leaves the other ${apis.length - 1} out`);
  });
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });
  blocks.forEach(({ title, source }, i) => {
    it(`runs: ${title}`, async () => {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `block-${i}.ts`);
      writeFileSync(file, source);
      // The block asserts its own results (node:assert); here it must run to its end.
      await expect(import(file)).resolves.toBeDefined();
    });
  });
});
