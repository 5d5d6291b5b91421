// Writes docs/figures.json, every figure the documentation states that a run can measure (the
// package's size and file count from `npm pack --dry-run --json`, the catalogue's counts), and
// puts each into README.md and docs/*.md wherever they mark it <!--figure:NAME-->VALUE<!--/figure-->.
// Run after `npm run build`: `node scripts/doc-figures.mjs`. test/readme.test.ts fails when a doc's
// figure differs from figures.json, test/package/tarball.test.ts when figures.json differs from
// what npm pack gives now, so no figure goes stale. Speeds are not here: each cites its bench file.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { apis } from '../dist/src/generated/catalogue.js';

const root = new URL('..', import.meta.url);
const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
const versions = apis.reduce((n, api) => n + api.request.validVersions[1] - api.request.validVersions[0] + 1, 0);

/** The figures, by the name the docs' markers use. */
export const figures = {
  packedKb: Math.round(pack.size / 1000),
  unpackedMb: Number((pack.unpackedSize / 1e6).toFixed(1)),
  files: pack.entryCount,
  apiKeys: apis.length,
  otherApiKeys: apis.length - 1,
  versions,
  keyVersionDirections: versions * 2,
};

writeFileSync(new URL('docs/figures.json', root), JSON.stringify(figures, null, 2) + '\n');
const docs = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
for (const doc of docs) {
  const path = new URL(doc, root);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(/<!--figure:(\w+)-->[^<]*<!--\/figure-->/g, (_m, name) => {
    if (!(name in figures)) throw new Error(`${doc}: no figure named ${name} (figures: ${Object.keys(figures).join(', ')})`);
    return `<!--figure:${name}-->${figures[name].toLocaleString('en-US')}<!--/figure-->`;
  });
  if (next !== text) writeFileSync(path, next);
}
console.log(JSON.stringify(figures));
