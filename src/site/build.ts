// The static explorer site: writes OUTDIR/index.html (every API key), OUTDIR/api/<Name>-v<N>.html
// (every version, like the reference pages), OUTDIR/explore.html (paste or drop a frame),
// OUTDIR/capture.html (open a pcap/pcapng) and
// OUTDIR/assets/ (stylesheet, the browser bundle with the WebAssembly codec embedded, the hover
// script, and — only with a schema directory — the descriptions; with a run-time catalogue, its
// schemas as facts, so the explorer decodes what it adds). Pages work from file://.
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
import { apiPageName, apiVersionPage, capturePage, explorePage, indexPage, versionsOf, type MessageSample } from './pages.js';
import { SITE_CSS } from './style.js';

export interface SiteOptions {
  /** Kafka's JSON message schemas: descriptions and schema text come from here when given. */
  schemasDir?: string;
  /** The APIs to document and explore (default the built-in catalogue). */
  catalogue?: Catalogue;
  /** Minify the browser bundle (default true). */
  minify?: boolean;
}

export interface SiteResult {
  outDir: string;
  files: number;
  apiPages: number;
  schemasDir: string | undefined;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The browser entry next to this module: browser.ts from source, browser.js once compiled. */
function entry(name: string): string {
  for (const ext of ['.ts', '.js']) {
    const file = path.join(here, name + ext);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`kafka-wire site: cannot find src/site/${name}.ts or .js to bundle`);
}

/**
 * Writes the browser bundle of `name`: copied from dist/site-assets (made by npm run build, so an
 * installed package needs no bundler), or bundled from source with esbuild.
 */
async function bundle(name: string, outFile: string, minify: boolean): Promise<void> {
  const prebuilt = path.join(here, '..', '..', 'site-assets', `${name}.js`);
  if (fs.existsSync(prebuilt)) {
    fs.copyFileSync(prebuilt, outFile);
    return;
  }
  const entryFile = entry(name);
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error('kafka-wire site: bundling the browser code needs the esbuild package');
  }
  await esbuild.build({
    entryPoints: [entryFile],
    outfile: outFile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify,
    legalComments: 'none',
    logLevel: 'silent',
  });
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

  await bundle('browser', path.join(out, 'assets', 'kafka-wire.js'), minify);
  await bundle('hover-entry', path.join(out, 'assets', 'hover.js'), minify);
  await bundle('capture-page', path.join(out, 'assets', 'capture.js'), minify);
  files += 3;
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
