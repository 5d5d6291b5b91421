// After tsc: the CommonJS build (one file, for require()) and the browser bundle the explorer
// site and the browser tests load. The ESM in dist/src is what Node and bundlers import.
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
