// The API reference under docs/api/ is what scripts/api-reference.mjs writes from the built
// declarations now: regenerated into a scratch directory and compared page by page, so a change to
// an exported signature or doc comment that is not regenerated fails here (and in CI).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/shared.js';
import { built } from './package/packed.js';

describe.skipIf(!built)('the API reference (docs/api)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'kafka-wire-api-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const committed = join(repoRoot, 'docs', 'api');
  const pages = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.md')).sort();

  it('is what the declarations give now (else: npm run build && node scripts/api-reference.mjs)', () => {
    execFileSync(process.execPath, [join(repoRoot, 'scripts', 'api-reference.mjs'), scratch], { cwd: repoRoot, stdio: 'pipe' });
    expect(pages(committed)).toEqual(pages(scratch));
    for (const page of pages(scratch)) {
      expect(readFileSync(join(committed, page), 'utf8'), `docs/api/${page} is stale`).toBe(readFileSync(join(scratch, page), 'utf8'));
    }
  }, 60_000);

  it('has a page per entry of package.json, each documenting what it exports', () => {
    const exports = Object.entries(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).exports as Record<string, { import?: { types?: string } }>)
      .filter(([, target]) => typeof target === 'object' && target.import?.types !== undefined);
    expect(pages(committed).filter((p) => p !== 'README.md')).toHaveLength(exports.length);
    const producer = readFileSync(join(committed, 'kafka-wire-producer.md'), 'utf8');
    expect(producer).toContain('### createProducer');
    expect(producer).toMatch(/Creates a producer: connects/); // its doc comment
  });
});
