// src/catalogue/parse.ts for the scripts, bundled in memory with esbuild, so that generate.mjs and
// schemas.mjs read schemas with the same parser as run-time catalogues, without a build.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function importParser() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(repoRoot, 'src', 'catalogue', 'parse.ts')],
    bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
