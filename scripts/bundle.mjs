// After tsc: the CommonJS build (one file, for require()), a one-file browser build, and the
// explorer site's scripts. The ESM in dist/src is what Node and bundlers import.
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

await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/browser/kafka-wire.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
});

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
