// After tsc: the CommonJS build (one file, for require()), the browser build (one file, plus
// zstd's loader chunk and its zstd.wasm, fetched only by initZstd()), and the explorer site's
// scripts. The ESM in dist/src is what Node and bundlers import.
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/cjs/index.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  packages: 'external',
  target: 'es2022',
  logLevel: 'warning',
});

rmSync('dist/browser', { recursive: true, force: true }); // no stale chunks
await build({
  entryPoints: { 'kafka-wire': 'src/browser.ts' },
  outdir: 'dist/browser',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
});
// The zstd loader chunk asks for zstd.wasm beside itself (new URL('./zstd.wasm', import.meta.url)).
const zstdNode = createRequire(import.meta.url).resolve('@bokuweb/zstd-wasm'); // .../dist/common/index.node.js
copyFileSync(join(dirname(zstdNode), '../web/zstd.wasm'), 'dist/browser/zstd.wasm');

// The explorer site's scripts, so `kafka-wire site` copies them instead of needing a bundler.
for (const name of ['browser', 'hover-entry', 'capture-page']) {
  await build({
    entryPoints: [`src/site/${name}.ts`],
    outfile: `dist/site-assets/${name}.js`,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}
