// Every ```ts block in the README runs, against the sources, as a user would write it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/shared.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const dir = join(repoRoot, 'test', '.readme-blocks');

const SUBPATHS: Record<string, string> = {
  'kafka-wire': 'src/index.ts',
  'kafka-wire/core': 'src/codec/by-definition.ts',
  'kafka-wire/records': 'src/records/index.ts',
  'kafka-wire/wire': 'src/wire/index.ts',
  'kafka-wire/explain': 'src/explain/index.ts',
};

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
  blocks.forEach((block, i) => {
    const title = block.split('\n').find((l) => l.startsWith('//'))?.slice(2).trim() ?? `block ${i + 1}`;
    it(`runs: ${title}`, async () => {
      mkdirSync(dir, { recursive: true });
      const source = block
        .replace(/from '(kafka-wire(?:\/[a-z]+|\/apis\/\w+)?)'/g, (_m, spec: string) => {
          const target = spec.startsWith('kafka-wire/apis/') ? `src/generated/apis/${spec.slice(16)}.ts` : SUBPATHS[spec];
          if (target === undefined) throw new Error(`README imports unknown ${spec}`);
          return `from '${join(repoRoot, target)}'`;
        });
      const file = join(dir, `block-${i}.ts`);
      writeFileSync(file, source);
      await import(file);
    });
  });
});
