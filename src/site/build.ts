// The static explorer site: writes OUTDIR/index.html (every API key), OUTDIR/api/<Name>-v<N>.html
// (every version, like the reference pages), OUTDIR/explore.html (paste or drop a frame),
// OUTDIR/capture.html (open a pcap/pcapng), OUTDIR/live.html (a cluster through kafka-wire bridge) and OUTDIR/assets/ (stylesheet; the browser bundle
// with the WebAssembly codec embedded, and its zstd chunk and zstd.wasm, once for every page; the
// explorer's, the capture page's and the hover scripts; and — only with a schema directory — the
// descriptions; with a run-time catalogue, its schemas as facts, so the explorer decodes what it
// adds). Pages work from file://.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInCatalogue, type Catalogue } from '../catalogue/catalogue.js';
import { schemaJsonOf } from '../catalogue/parse.js';
import type { MessageDef } from '../catalogue/schema.js';
import type { Direction } from '../codec/by-key.js';
import { descriptionsFrom, schemaDisplayText, type DescriptionTable } from '../explain/descriptions.js';
import { loadDescriptionTable, readSchemaText } from '../explain/descriptions-node.js';
import { buildExplainTree } from '../explain/tree.js';
import { sampleFrame } from '../explain/samples.js';
import { realisticFrame } from '../explain/realistic.js';
import { apiPageName, apiVersionPage, capturePage, explorePage, indexPage, livePage, versionsOf, type MessageSample } from './pages.js';
import { SITE_CSS } from './style.js';
import { browserBundleOptions, classicScript, LIBRARY_SCRIPT, siteScriptOptions, SITE_SCRIPTS, zstdWasmFile } from './bundling.js';

export interface SiteOptions {
  /** Kafka's JSON message schemas: descriptions and schema text come from here when given. */
  schemasDir?: string;
  /** The APIs to document and explore (default the built-in catalogue). */
  catalogue?: Catalogue;
  /** Minify the browser code when it is bundled from source (default true; npm run build's is minified). */
  minify?: boolean;
}

export interface SiteResult {
  outDir: string;
  files: number;
  apiPages: number;
  schemasDir: string | undefined;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** A source next to this module: name.ts from source, name.js once compiled. */
function entry(name: string): string {
  for (const ext of ['.ts', '.js']) {
    const file = path.join(here, name + ext);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`kafka-wire site: cannot find ${path.join('src/site', name)}.ts or .js to bundle`);
}

async function loadEsbuild(): Promise<typeof import('esbuild')> {
  try {
    return await import('esbuild');
  } catch {
    throw new Error('kafka-wire site: bundling the browser code needs the esbuild package');
  }
}

/** Where npm run build put the browser bundle and the site's scripts (an installed package needs no bundler). */
const prebuilt = { browser: path.join(here, '..', '..', 'browser'), scripts: path.join(here, '..', '..', 'site-assets') };

/**
 * Writes the library into `assetsDir` once, for every page that needs it: the browser bundle as
 * kafka-wire.js, a classic script setting the kafkaWire global (src/site/bundling.ts), with its
 * zstd chunk and zstd.wasm beside it as in the package. Copied from dist/browser, or bundled from
 * source with esbuild. Returns the number of files written.
 */
async function writeLibrary(assetsDir: string, minify: boolean): Promise<number> {
  const files = new Map<string, Uint8Array>();
  if (fs.existsSync(path.join(prebuilt.browser, LIBRARY_SCRIPT))) {
    for (const name of fs.readdirSync(prebuilt.browser)) {
      if (name === LIBRARY_SCRIPT || /^chunk-.*\.js$/.test(name)) files.set(name, fs.readFileSync(path.join(prebuilt.browser, name)));
    }
  } else {
    const esbuild = await loadEsbuild();
    const result = await esbuild.build({ ...browserBundleOptions(entry('../browser'), assetsDir, minify), write: false, logLevel: 'silent' });
    for (const file of result.outputFiles) files.set(path.basename(file.path), file.contents);
  }
  const wasm = path.join(prebuilt.browser, 'zstd.wasm');
  files.set('zstd.wasm', fs.readFileSync(fs.existsSync(wasm) ? wasm : zstdWasmFile()));
  for (const name of fs.readdirSync(assetsDir)) {
    if (/^chunk-.*\.js$/.test(name) && !files.has(name)) fs.rmSync(path.join(assetsDir, name)); // a rebuild leaves no stale chunk
  }
  for (const [name, contents] of files) {
    fs.writeFileSync(path.join(assetsDir, name), name === LIBRARY_SCRIPT ? classicScript(Buffer.from(contents).toString('utf8')) : contents);
  }
  return files.size;
}

/** Writes the site's scripts into `assetsDir`: copied from dist/site-assets, or bundled from source. */
async function writeScripts(assetsDir: string, minify: boolean): Promise<number> {
  for (const [name, file] of Object.entries(SITE_SCRIPTS)) {
    const copy = path.join(prebuilt.scripts, file);
    if (fs.existsSync(copy)) fs.copyFileSync(copy, path.join(assetsDir, file));
    else await (await loadEsbuild()).build({ ...siteScriptOptions(entry(name), path.join(assetsDir, file), minify), logLevel: 'silent' });
  }
  return Object.keys(SITE_SCRIPTS).length;
}

export async function buildSite(outDir: string, options: SiteOptions = {}): Promise<SiteResult> {
  const out = path.resolve(outDir);
  const srcRoot = path.resolve(here, '..');
  if (out === srcRoot || out.startsWith(srcRoot + path.sep)) throw new Error('kafka-wire site: OUTDIR must not be inside src/');
  const schemasDir = options.schemasDir;
  if (schemasDir !== undefined && !fs.existsSync(schemasDir)) throw new Error(`schema directory ${schemasDir} does not exist`);
  const minify = options.minify ?? true;
  fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(out, 'api'), { recursive: true });
  let files = 0;
  const write = (rel: string, text: string) => {
    fs.writeFileSync(path.join(out, rel), text);
    files++;
  };

  files += await writeLibrary(path.join(out, 'assets'), minify);
  files += await writeScripts(path.join(out, 'assets'), minify);
  write('assets/site.css', SITE_CSS);

  let table: DescriptionTable | undefined;
  const descriptionsFile = path.join(out, 'assets', 'descriptions.js');
  if (schemasDir !== undefined) {
    table = loadDescriptionTable(schemasDir);
    write('assets/descriptions.js', `window.KAFKA_WIRE_DESCRIPTIONS = ${JSON.stringify(table)};\n`);
  } else if (fs.existsSync(descriptionsFile)) {
    fs.rmSync(descriptionsFile); // a rebuild without schemas leaves no texts behind
  }
  const descriptions = table === undefined ? undefined : descriptionsFrom(table);

  const catalogue = options.catalogue;
  const { apis } = catalogue ?? builtInCatalogue;
  const added = catalogue === undefined ? [] : catalogueAdditions(catalogue);
  const catalogueFile = path.join(out, 'assets', 'catalogue.js');
  if (added.length > 0) {
    write('assets/catalogue.js', `window.KAFKA_WIRE_SCHEMAS = ${JSON.stringify(added.map(schemaJsonOf))};\n`);
  } else if (fs.existsSync(catalogueFile)) {
    fs.rmSync(catalogueFile);
  }

  let apiPages = 0;
  for (const api of apis) {
    const schemaTexts: Partial<Record<Direction, string>> = {};
    if (schemasDir !== undefined) {
      for (const direction of ['request', 'response'] as const) {
        const text = readSchemaText(schemasDir, (direction === 'request' ? api.request : api.response).name);
        if (text !== null) schemaTexts[direction] = schemaDisplayText(text);
      }
    }
    for (const version of versionsOf(api)) {
      const sample = (direction: Direction): MessageSample => {
        const frame = sampleFrame(api.apiKey, version, direction, { catalogue });
        const tree = buildExplainTree(frame, { direction, apiKey: api.apiKey, apiVersion: version, descriptions, catalogue, sample: true });
        // Beside it, a realistic instance from the seeded sampler (the seed fixed per page, so builds repeat).
        const seed = api.apiKey * 100 + version;
        const realFrame = realisticFrame(api.apiKey, version, direction, { catalogue, seed });
        const realTree = buildExplainTree(realFrame, { direction, apiKey: api.apiKey, apiVersion: version, descriptions, catalogue });
        return { direction, frame, tree, schemaText: schemaTexts[direction], realistic: { frame: realFrame, tree: realTree, seed } };
      };
      write(`api/${apiPageName(api, version)}`, apiVersionPage(api, version, sample('request'), sample('response')));
      apiPages++;
    }
  }
  write('index.html', indexPage(apis, { schemas: schemasDir !== undefined }));
  write('explore.html', explorePage(apis, { descriptions: schemasDir !== undefined, catalogue: added.length > 0 }));
  write('capture.html', capturePage());
  write('live.html', livePage());
  return { outDir: out, files, apiPages, schemasDir };
}

/** The messages (headers included) `catalogue` defines differently from the built-in one. */
function catalogueAdditions(catalogue: Catalogue): MessageDef[] {
  const out: MessageDef[] = [];
  if (catalogue.requestHeader !== builtInCatalogue.requestHeader) out.push(catalogue.requestHeader);
  if (catalogue.responseHeader !== builtInCatalogue.responseHeader) out.push(catalogue.responseHeader);
  for (const api of catalogue.apis) {
    const builtIn = builtInCatalogue.api(api.apiKey);
    if (builtIn === undefined || builtIn.request !== api.request || builtIn.response !== api.response) out.push(api.request, api.response);
  }
  return out;
}
