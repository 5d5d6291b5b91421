// The explain, sample and site subcommands, as functions of (args, io) → exit code for src/cli.ts:
//
//   explain HEX [--response --api-key K --api-version V] [--json] [--layout] [--schemas DIR | --no-schemas]
//   sample KEY VERSION request|response [--explain [--json]] [--schemas DIR | --no-schemas]
//   sample --all
//   site OUTDIR [--schemas DIR | --no-schemas]
//
// HEX may be split over several arguments, or given on stdin (no argument or "-"). Descriptions
// come from --schemas DIR, else ../shared/kafka-schemas beside the repository when it exists.
import { parseArgs } from '../cli.js';
import { apis } from '../generated/catalogue.js';
import { getApi, type Direction } from '../codec/by-key.js';
import { KafkaWireError, UsageError } from '../errors.js';
import { toHex } from '../text.js';
import { defaultSchemasDir } from './descriptions-node.js';
import { formatExplainJson, formatExplainText } from './format.js';
import { formatHexText, hexLayout, isHexText, parseHexInput } from './hex.js';
import { explainFrame } from './index.js';
import { sampleFrame } from './samples.js';
import { concatBytes } from '../bytes.js';

export interface CliIo {
  stdin: AsyncIterable<string | Uint8Array> | NodeJS.ReadableStream;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
}

/** The shared option parser of src/cli.ts, plus a check that every option is one we know. */
function parse(args: string[], valued: readonly string[], flags: readonly string[]): ReturnType<typeof parseArgs> {
  const parsed = parseArgs(args, [...valued]);
  for (const [name, value] of parsed.options) {
    if (valued.includes(name) ? value === '' || value === true : !flags.includes(name)) {
      throw new UsageError(valued.includes(name) ? `${name} needs a value` : `unknown option ${name}`);
    }
  }
  return parsed;
}

function integer(text: string | true | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  if (text === true || !/^-?\d+$/.test(text)) throw new UsageError(`${what} must be an integer`);
  return Number(text);
}

/** An API key given as a number or a name (AlterClientQuotas, case-insensitive). */
function apiKeyOf(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const api = apis.find((a) => a.name.toLowerCase() === text.toLowerCase());
  if (api === undefined) throw new UsageError(`no API named ${text}`);
  return api.apiKey;
}

function schemasOption(options: Map<string, string | true>): string | undefined {
  if (options.has('--no-schemas')) return undefined;
  const given = options.get('--schemas');
  if (typeof given === 'string') return given;
  return defaultSchemasDir();
}

async function readAll(stdin: CliIo['stdin']): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stdin as AsyncIterable<string | Uint8Array>) {
    chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  }
  return concatBytes(chunks, chunks.reduce((n, c) => n + c.length, 0));
}

async function frameInput(positional: string[], io: CliIo): Promise<Uint8Array> {
  if (positional.length > 0 && !(positional.length === 1 && positional[0] === '-')) {
    const bytes = parseHexInput(positional.join(''));
    if (bytes === null) throw new UsageError('HEX must be an even number of hex digits');
    return bytes;
  }
  const raw = await readAll(io.stdin);
  const text = new TextDecoder().decode(raw);
  // Hex text on stdin, or else the raw frame bytes.
  return isHexText(text) ? parseHexInput(text) ?? raw : raw;
}

function fail(io: CliIo, command: string, error: unknown): number {
  io.stderr.write(`kafka-wire ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
  return error instanceof UsageError ? 2 : 1;
}

/** `explain HEX [--response --api-key K --api-version V] [--json] [--layout] [--schemas DIR]` */
export async function runExplain(args: string[], io: CliIo): Promise<number> {
  try {
    const { options, positional } = parse(args,
      ['--api-key', '--api-version', '--schemas'],
      ['--response', '--request', '--json', '--layout', '--no-schemas', '--color', '--colour', '--no-color', '--no-colour']);
    const direction: Direction = options.has('--response') ? 'response' : 'request';
    const apiKeyText = options.get('--api-key');
    const apiKey = typeof apiKeyText === 'string' ? apiKeyOf(apiKeyText) : undefined;
    const apiVersion = integer(options.get('--api-version'), '--api-version');
    if (direction === 'response' && (apiKey === undefined || apiVersion === undefined)) {
      throw new UsageError('a response needs --api-key and --api-version (they are not on the wire)');
    }
    const frame = await frameInput(positional, io);
    const tree = explainFrame(frame, { direction, apiKey, apiVersion, schemasDir: schemasOption(options) });
    if (options.has('--json')) {
      io.stdout.write(formatExplainJson(tree));
      return 0;
    }
    if (options.has('--layout')) {
      const colour = options.has('--color') || options.has('--colour')
        || (io.stdout.isTTY === true && !options.has('--no-color') && !options.has('--no-colour'));
      io.stdout.write(formatHexText(hexLayout(frame, tree), { colour }) + '\n');
    }
    io.stdout.write(formatExplainText(tree));
    return 0;
  } catch (error) {
    return fail(io, 'explain', error);
  }
}

/**
 * `sample KEY VERSION request|response [--explain [--json]]`: the smallest legal instance as hex
 * (or its tree); `sample --all`: one JSON line per key, version and direction.
 */
export async function runSample(args: string[], io: CliIo): Promise<number> {
  try {
    const { options, positional } = parse(args, ['--schemas'], ['--all', '--explain', '--json', '--no-schemas', '--layout']);
    if (options.has('--all')) {
      if (positional.length > 0) throw new UsageError('--all takes no KEY VERSION DIRECTION');
      for (const api of apis) {
        for (let v = api.request.validVersions[0]; v <= api.request.validVersions[1]; v++) {
          for (const direction of ['request', 'response'] as const) {
            const message = direction === 'request' ? api.request : api.response;
            if (v < message.validVersions[0] || v > message.validVersions[1]) continue;
            const hex = toHex(sampleFrame(api.apiKey, direction, v));
            io.stdout.write(JSON.stringify({ apiKey: api.apiKey, apiVersion: v, direction, hex }) + '\n');
          }
        }
      }
      return 0;
    }
    if (positional.length !== 3) throw new UsageError('usage: sample KEY VERSION request|response [--explain] | sample --all');
    const apiKey = apiKeyOf(positional[0]);
    const version = integer(positional[1], 'VERSION')!;
    const direction = positional[2];
    if (direction !== 'request' && direction !== 'response') throw new UsageError('direction must be request or response');
    getApi(apiKey);
    const frame = sampleFrame(apiKey, direction, version);
    if (!options.has('--explain')) {
      io.stdout.write(toHex(frame) + '\n');
      return 0;
    }
    const tree = explainFrame(frame, { direction, apiKey, apiVersion: version, schemasDir: schemasOption(options) });
    if (options.has('--json')) io.stdout.write(formatExplainJson(tree));
    else {
      if (options.has('--layout')) io.stdout.write(formatHexText(hexLayout(frame, tree), { colour: io.stdout.isTTY === true }) + '\n');
      io.stdout.write(formatExplainText(tree));
    }
    return 0;
  } catch (error) {
    if (error instanceof KafkaWireError && error.code === 'UNSUPPORTED_VERSION') return fail(io, 'sample', new UsageError(error.message));
    return fail(io, 'sample', error);
  }
}

/** `site OUTDIR [--schemas DIR]`: writes the static explorer site. */
export async function runSite(args: string[], io: CliIo): Promise<number> {
  try {
    const { options, positional } = parse(args, ['--schemas'], ['--no-schemas']);
    if (positional.length !== 1) throw new UsageError('usage: site OUTDIR [--schemas DIR]');
    const { buildSite } = await import('../site/build.js');
    const result = await buildSite(positional[0], { schemasDir: schemasOption(options) });
    io.stdout.write(`wrote ${result.files} files (${result.apiPages} API pages) to ${result.outDir}`
      + `${result.schemasDir === undefined ? ', without schema texts' : `, descriptions from ${result.schemasDir}`}\n`);
    return 0;
  } catch (error) {
    return fail(io, 'site', error);
  }
}
