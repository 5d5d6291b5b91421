// How the browser code is bundled, one source for the package build (scripts/bundle.mjs, after
// tsc) and for `kafka-wire site` run from the sources: the one browser bundle (kafka-wire/browser:
// ESM, zstd's loader split off into a chunk that fetches zstd.wasm from beside itself), and the
// explorer site's scripts, which take the library from that bundle instead of carrying a copy.
// The site's pages load the bundle as a classic script (classicScript below): module scripts do
// not load from file://, and the pages must work from there.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

/** The global the bundle sets when a page loads it as a classic script. */
export const LIBRARY_GLOBAL = 'kafkaWire';
/** The bundle's file name, in dist/browser and in the site's assets/ alike. */
export const LIBRARY_SCRIPT = 'kafka-wire.js';

/** The site's browser scripts: source name in src/site -> file name in the site's assets/. */
export const SITE_SCRIPTS = { browser: 'explore.js', 'capture-page': 'capture.js', 'hover-entry': 'hover.js', live: 'live.js' } as const;

/** esbuild's options for the browser bundle: `entry` (src/browser.ts) -> OUTDIR/kafka-wire.js and its chunk. */
export function browserBundleOptions(entry: string, outdir: string, minify = true): BuildOptions {
  return {
    entryPoints: { [LIBRARY_SCRIPT.replace(/\.js$/, '')]: entry },
    outdir,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    logLevel: 'warning',
  };
}

/** zstd's WebAssembly, which the bundle's zstd chunk fetches from beside itself (initZstd()). */
export function zstdWasmFile(): string {
  const zstdNode = createRequire(import.meta.url).resolve('@bokuweb/zstd-wasm'); // .../dist/common/index.node.js
  return path.join(path.dirname(zstdNode), '..', 'web', 'zstd.wasm');
}

/**
 * esbuild's options for one site script `entry` (an IIFE): its ./library.js import becomes the
 * bundle's global; any other import of the library, which would bundle a second copy, is refused.
 */
export function siteScriptOptions(entry: string, outfile: string, minify = true): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [libraryFromGlobal(path.dirname(path.resolve(entry)))],
  };
}

function libraryFromGlobal(siteDir: string): Plugin {
  const namespace = 'kafka-wire-global';
  return {
    name: 'kafka-wire-library-global',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = path.resolve(args.resolveDir, args.path);
        if (path.dirname(target) !== siteDir) {
          return { errors: [{ text: `${args.importer} imports ${args.path}: a site script reaches the library through ./library.js only (the page loads it once, as assets/${LIBRARY_SCRIPT})` }] };
        }
        return /^library\.[jt]s$/.test(path.basename(target)) ? { path: 'library', namespace } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace }, () => ({
        loader: 'js',
        contents: `const library = globalThis.${LIBRARY_GLOBAL};\n`
          + `if (library === undefined) throw new Error('kafka-wire: the page must load assets/${LIBRARY_SCRIPT} before this script');\n`
          + 'module.exports = library;\n',
      }));
    },
  };
}

/**
 * The browser bundle's ESM text as a classic script that sets globalThis.kafkaWire to its exports.
 * esbuild writes the bundle as code and one export clause at its end; the zstd chunk stays a
 * module, reached by the dynamic import(), which a classic script may also make (relative to the
 * script's own URL). Anything else module-only (a static import, import.meta) is refused.
 */
export function classicScript(esm: string): string {
  const clause = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(esm);
  if (clause === null) throw new Error('kafka-wire site: the browser bundle does not end in an export clause');
  const body = esm.slice(0, clause.index);
  if (/\bimport\.meta\b/.test(body) || /(?:^|[;}])\s*(?:import\s*[{*"'\w$]|export\b)/.test(body)) {
    throw new Error('kafka-wire site: the browser bundle has module syntax besides its export clause and import()');
  }
  const properties = clause[1].split(',').map((item) => {
    const names = /^\s*([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(item);
    if (names === null) throw new Error(`kafka-wire site: cannot read the browser bundle's export ${item.trim()}`);
    return `${names[2] ?? names[1]}:${names[1]}`;
  });
  return `// kafka-wire/browser as a classic script: sets globalThis.${LIBRARY_GLOBAL}.\n`
    + `(()=>{"use strict";\n${body}\nglobalThis.${LIBRARY_GLOBAL}={${properties.join(',')}};\n})();\n`;
}
