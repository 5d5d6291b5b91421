// The commands that show bytes: explain (the annotated tree of a frame, damaged ones as far as
// they read), sample (the smallest legal instance of an API version), site (the static explorer)
// and demo (the reference pages' messages explained).
import { builtInCatalogue, type Catalogue } from '../catalogue/catalogue.js';
import { getApi } from '../codec/by-key.js';
import { UsageError } from '../errors.js';
import { toHex } from '../text.js';
import { formatExplainJson, formatExplainText } from '../explain/format.js';
import { formatHexText, hexLayout } from '../explain/hex.js';
import { explainFrame } from '../explain/index.js';
import { sampleFrame } from '../explain/samples.js';
import type { ExplainTree } from '../explain/tree.js';
import type { Command, Io } from './command.js';
import { FrameFailure } from './errors.js';
import {
  apiKeyOf, catalogueOption, COLOR_OPTION, FRAME_OPTIONS, frameTarget, framesIn, inFrame, readFrameBytes, DESCRIPTION_OPTIONS, SCHEMA_OPTIONS, SCHEMAS_NOTE, schemasDirOption, useColour,
} from './input.js';
import { integerArg, type OptionValues } from './options.js';

const SHOW_OPTIONS = [
  { name: 'json', help: 'the tree as JSON (each field node with its decode path and schema name)' },
  { name: 'layout', help: 'the byte layout above the tree' },
  COLOR_OPTION,
] as const;

/** The tree (with the layout first when asked) or its JSON, as the options say. */
function show(io: Io, options: OptionValues, frame: Uint8Array, tree: ExplainTree): void {
  if (options.json) {
    io.stdout.write(formatExplainJson(tree));
    return;
  }
  if (options.layout) io.stdout.write(formatHexText(hexLayout(frame, tree), { colour: useColour(options, io) }) + '\n');
  // Descriptions cut to a line on a terminal; whole where the text goes on to a file or a program.
  io.stdout.write(formatExplainText(tree, { truncate: io.stdout.isTTY === true }));
}

export const explain: Command = {
  name: 'explain',
  summary: 'the annotated object tree of a frame; a damaged one as far as it reads, then the malformed rest',
  synopsis: ['[HEX | -] [--file PATH] [--response --api-key KEY --api-version N] [--json] [--layout] [--schemas DIR]'],
  options: [...FRAME_OPTIONS, ...SHOW_OPTIONS, ...SCHEMA_OPTIONS],
  notes: ['HEX may carry 0x, spaces or colons; without HEX (or with -) the frame is read from stdin, as hex text or raw bytes.',
    'Several frames back to back (a stream) are explained each in turn, a blank line between.', SCHEMAS_NOTE],
  async run({ options, positionals }, io) {
    useColour(options, io); // a bad --color is a usage error whether or not the layout is shown
    const target = frameTarget(options);
    const frames = framesIn(await readFrameBytes(positionals, options, io));
    // Several frames back to back (a stream, as tshark reads one): each tree in turn, a blank line between.
    frames.forEach((frame, i) => inFrame(i, frames.length, () => {
      if (i > 0) io.stdout.write('\n');
      const context = { frame, ...target };
      let tree: ExplainTree;
      try {
        tree = explainFrame(frame, { ...target, schemasDir: schemasDirOption(options), partial: true });
      } catch (error) {
        // Not even a partial tree (an unknown API, a frame too short for a header): still the bytes.
        if (options.layout && !options.json) io.stdout.write(formatHexText(hexLayout(frame), { colour: useColour(options, io) }));
        throw new FrameFailure(error, context);
      }
      show(io, options, frame, tree);
      if (tree.error !== undefined) throw new FrameFailure(tree.error, context);
    }));
    return 0;
  },
};

/** Every key, version and direction of the catalogue, as JSON lines of sample hex. */
function sampleAll(io: Io, catalogue: Catalogue | undefined): void {
  for (const api of (catalogue ?? builtInCatalogue).apis) {
    const low = Math.min(api.request.validVersions[0], api.response.validVersions[0]);
    const high = Math.max(api.request.validVersions[1], api.response.validVersions[1]);
    for (let v = low; v <= high; v++) {
      for (const direction of ['request', 'response'] as const) {
        const [first, last] = api[direction].validVersions;
        if (v < first || v > last) continue;
        io.stdout.write(JSON.stringify({ apiKey: api.apiKey, apiVersion: v, direction, hex: toHex(sampleFrame(api.apiKey, v, direction, { catalogue })) }) + '\n');
      }
    }
  }
}

export const sample: Command = {
  name: 'sample',
  summary: 'the smallest legal instance of an API version, as hex or explained',
  synopsis: ['KEY VERSION request|response [--explain [--json] [--layout]] [--schemas DIR]', '--all [--schemas DIR]'],
  options: [
    { name: 'explain', help: 'print its tree instead of its hex' },
    ...SHOW_OPTIONS,
    { name: 'all', help: 'every key, version and direction as JSON lines {"apiKey","apiVersion","direction","hex"}' },
    ...SCHEMA_OPTIONS,
  ],
  notes: ['KEY is a number or a name, case-insensitive (3, Metadata, metadata).', SCHEMAS_NOTE],
  async run({ options, positionals }, io) {
    const catalogue = catalogueOption(options);
    if (options.all) {
      if (positionals.length > 0) throw new UsageError('--all takes no KEY VERSION DIRECTION');
      sampleAll(io, catalogue);
      return 0;
    }
    if (positionals.length !== 3) throw new UsageError('give KEY VERSION request|response, or --all');
    const apiKey = apiKeyOf(positionals[0], 'KEY', catalogue);
    const version = integerArg(positionals[1], 'VERSION', 0, 32767)!;
    const direction = positionals[2];
    if (direction !== 'request' && direction !== 'response') throw new UsageError(`the direction must be request or response, not ${JSON.stringify(direction)}`);
    const api = getApi(apiKey, { catalogue });
    const [low, high] = api[direction].validVersions;
    if (version < low || version > high) throw new UsageError(`${api.name} ${direction}s have versions ${low} to ${high}, not ${version}`);
    const frame = sampleFrame(apiKey, version, direction, { catalogue });
    if (!options.explain) {
      io.stdout.write(toHex(frame) + '\n');
      return 0;
    }
    show(io, options, frame, explainFrame(frame, { direction, apiKey, apiVersion: version, schemasDir: schemasDirOption(options), sample: true, catalogue }));
    return 0;
  },
};

export const site: Command = {
  name: 'site',
  summary: 'write the static explorer site (every API version\'s page, the explorer) to OUTDIR',
  synopsis: ['OUTDIR [--schemas DIR]'],
  options: SCHEMA_OPTIONS,
  notes: [SCHEMAS_NOTE],
  async run({ options, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError('give one OUTDIR');
    const { buildSite } = await import('../site/build.js');
    const result = await buildSite(positionals[0], { schemasDir: schemasDirOption(options), catalogue: catalogueOption(options) });
    io.stdout.write(`wrote ${result.files} files (${result.apiPages} API pages) to ${result.outDir}`
      + `${result.schemasDir === undefined ? ', without schema texts' : `, descriptions from ${result.schemasDir}`}\n`);
    return 0;
  },
};

/** The reference pages' messages: AlterPartitionReassignments v0 and AlterClientQuotas v1. */
const DEMO_MESSAGES = [[45, 0], [49, 1]] as const;

export const demo: Command = {
  name: 'demo',
  summary: 'explain the reference pages\' smallest messages byte by byte',
  synopsis: ['[--color WHEN] [--schemas DIR]'],
  options: [COLOR_OPTION, ...DESCRIPTION_OPTIONS],
  notes: [SCHEMAS_NOTE],
  async run({ options, positionals }, io) {
    if (positionals.length > 0) throw new UsageError('demo takes no arguments');
    for (const [apiKey, version] of DEMO_MESSAGES) {
      for (const direction of ['request', 'response'] as const) {
        const frame = sampleFrame(apiKey, version, direction);
        const tree = explainFrame(frame, { direction, apiKey, apiVersion: version, schemasDir: schemasDirOption(options), sample: true });
        show(io, { ...options, layout: true }, frame, tree);
        io.stdout.write('\n');
      }
    }
    return 0;
  },
};
