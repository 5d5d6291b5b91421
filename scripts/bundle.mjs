// After tsc: the CommonJS build of every package.json entry and of its bin (dist/cjs, with CommonJS-format types),
// the browser build (one file, plus zstd's loader chunk and its zstd.wasm, fetched only by
// initZstd(), and the codec's and records' own modules for hosts that compile no WebAssembly from
// bytes), and the explorer site's scripts (which use that one browser build, not a copy). The ESM
// in dist/src is what Node and bundlers import.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, transform } from 'esbuild';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/**
 * The ESM files package.json's exports name (one source: an entry added there gets its CommonJS
 * build and types here), as their sources: "./dist/src/wire/index.js" -> "src/wire/index.ts";
 * a wildcard entry stands for every file it matches.
 */
export function exportedSources(exports) {
  const targets = new Set();
  const visit = (value) => {
    if (typeof value === 'string') {
      const [, dir, file] = /^\.\/dist\/(src|cjs)\/(.*)\.c?js$/.exec(value) ?? [];
      if (dir !== undefined) targets.add(`src/${file}`);
    } else if (value !== null && typeof value === 'object') {
      for (const [condition, inner] of Object.entries(value)) if (condition !== 'types' && condition !== 'browser' && condition !== 'workerd') visit(inner);
    }
  };
  for (const value of Object.values(exports)) visit(value);
  const sources = [];
  for (const target of targets) {
    if (!target.includes('*')) { sources.push(`${target}.ts`); continue; }
    const [before, after] = target.split('*');
    for (const file of readdirSync(dirname(before + 'x'))) {
      const name = join(dirname(before + 'x'), file);
      if (name.startsWith(before) && name.endsWith(after + '.ts') && !name.endsWith('.d.ts')) sources.push(name);
    }
  }
  return sources.sort();
}

// CommonJS: esbuild splits ESM only, so the entries are built as split ESM first (every entry
// sharing one copy of each module: one KafkaWireError and RecordsError class whichever entry threw),
// then each file is turned into CommonJS with its imports of other chunks as require('./x.cjs').
// The command line (package.json's bin, dist/cjs/cli/main.cjs) is one more entry of this build: a
// command loads the few chunks it reaches, not dist/src's modules one by one (Node spent about
// 0.12 s of a 1,000,000-line produce's 0.46 s loading 221 of them before the first line), and the
// library stays one copy per format. The site generator stays dist/src's: it finds the browser
// build and its sources beside its own module.
const CLI_SOURCE = 'src/cli/main.ts';
const SITE_GENERATOR = 'dist/src/site/build.js';
rmSync('dist/cjs', { recursive: true, force: true });
const split = await build({
  entryPoints: [...exportedSources(pkg.exports), CLI_SOURCE],
  outbase: 'src',
  outdir: 'dist/cjs',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  target: 'es2022',
  write: false,
  logLevel: 'warning',
  plugins: [{
    name: 'site-generator-from-dist-src',
    setup(b) { b.onResolve({ filter: /\/site\/build\.js$/ }, () => ({ path: resolve(SITE_GENERATOR), external: true })); },
  }],
});
for (const file of split.outputFiles) {
  const source = file.text
    // Chunk and entry imports: './chunks/chunk-X.js' -> '.cjs'.
    .replace(/(from\s*|import\s*\(\s*|import\s*)(["'])(\.{1,2}\/[^"']+)\.js\2/g, '$1$2$3.cjs$2')
    // The site generator: dist/src's ESM module, by its path from this file.
    .replaceAll(JSON.stringify(resolve(SITE_GENERATOR)), JSON.stringify(relative(dirname(file.path), resolve(SITE_GENERATOR))))
    .replaceAll('import.meta.url', 'require("node:url").pathToFileURL(__filename).href');
  // Whitespace and syntax minified (names kept, for stack traces): the tarball carries this build too.
  const { code } = await transform(source, { format: 'cjs', platform: 'node', target: 'es2022', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' });
  const out = file.path.replace(/\.js$/, '.cjs');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
}
// Their types: dist/src's declarations the entries reach, as .d.cts (CommonJS format whatever the
// package's "type"), so a .cts file or a CommonJS project under moduleResolution node16 sees them.
const relativeImport = /(from\s*|import\s*\(\s*)(["'])(\.{1,2}\/[^"']+)\.js\2/g;
const reached = new Set();
const reach = (file) => {
  if (reached.has(file)) return;
  reached.add(file);
  for (const [, , , spec] of readFileSync(file, 'utf8').matchAll(relativeImport)) reach(join(dirname(file), `${spec}.d.ts`));
};
for (const source of exportedSources(pkg.exports)) reach(join('dist', source.replace(/\.ts$/, '.d.ts')));
for (const file of reached) {
  const out = join('dist/cjs', relative('dist/src', file)).replace(/\.d\.ts$/, '.d.cts');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, readFileSync(file, 'utf8').replace(relativeImport, '$1$2$3.cjs$2'));
}

// The browser build and the site's scripts take their esbuild options from the site's bundling
// module (compiled by tsc above), which `kafka-wire site` also uses when run from the sources.
const { browserBundleOptions, siteScriptOptions, SITE_SCRIPTS, zstdWasmFile } = await import('../dist/src/site/bundling.js');
rmSync('dist/browser', { recursive: true, force: true }); // no stale chunks
const bundled = new Set(); // the sources the browser bundle and the site's scripts took in
const note = ({ metafile }) => { for (const input of Object.keys(metafile.inputs)) bundled.add(input); };
note(await build({ ...browserBundleOptions('src/browser.ts', 'dist/browser'), metafile: true }));
// The zstd loader chunk asks for zstd.wasm beside itself (new URL('./zstd.wasm', import.meta.url)).
copyFileSync(zstdWasmFile(), 'dist/browser/zstd.wasm');
// The codec's and records' modules as files (kafka-wire/wasm/*.wasm), for init({ codec, records })
// where a host compiles no WebAssembly from bytes (workerd imports .wasm files as modules).
for (const name of ['codec', 'records']) {
  const base64 = /wasmBase64 = '([^']+)'/.exec(readFileSync(`dist/src/wasm/${name}.generated.js`, 'utf8'))[1];
  writeFileSync(`dist/browser/${name}.wasm`, Buffer.from(base64, 'base64'));
}

// The explorer site's scripts, so `kafka-wire site` copies them instead of needing a bundler: each
// takes the library from the browser bundle above, which the site's pages load first.
rmSync('dist/site-assets', { recursive: true, force: true });
for (const [name, file] of Object.entries(SITE_SCRIPTS)) note(await build({ ...siteScriptOptions(`src/site/${name}.ts`, `dist/site-assets/${file}`), metafile: true }));

// What tsc wrote that no user reaches leaves the package: declarations no entry's types reach (the
// CLI's, the site's), and modules that live on only inside the bundles above (src/browser.ts, the
// site's page scripts) which no entry, bin or other module imports.
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
for (const file of walk('dist/src')) if (file.endsWith('.d.ts') && !reached.has(file)) rmSync(file);
// The package's own doors (a wildcard entry as a pattern), then whatever the remaining modules import.
const doors = [...Object.values(pkg.bin), JSON.stringify(pkg.exports)].flatMap((text) => [...text.matchAll(/(?:^|\.\/)(dist\/src\/[^"]+\.js)/g)])
  .map(([, door]) => new RegExp(`^${door.replace(/[.]/g, '\\.').replace('*', '[^/]+')}$`));
const moduleImport = /(?:from\s*|import\s*\(\s*|import\s*)(["'])(\.{1,2}\/[^"']+\.js)\1/g;
const unused = [...bundled].filter((source) => source.startsWith('src/')).map((source) => join('dist', source.replace(/\.ts$/, '.js')))
  .filter((file) => !doors.some((door) => door.test(file)));
for (let removed = true; removed;) { // removing a page script may leave a module only it imported
  const imported = new Set(walk('dist/src').filter((file) => file.endsWith('.js'))
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(moduleImport)].map(([, , spec]) => join(dirname(file), spec))));
  removed = false;
  for (const file of unused) if (existsSync(file) && !imported.has(file)) { rmSync(file); removed = true; }
}
