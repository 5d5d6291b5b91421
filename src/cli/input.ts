// What several commands share: the options that say how to read a frame (hex argument, `-`,
// stdin, --file; --response with its API key and version), the API named by number or name, the
// schema directory option, and the colour decision; and a descriptor read in large chunks with
// one read ahead (produce's stdin and -l files).
import { closeSync, read } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { builtInCatalogue, type Catalogue } from '../catalogue/catalogue.js';
import { loadCatalogue, messageSchemasDir } from '../catalogue/node.js';
import { concatBytes } from '../bytes.js';
import { UsageError } from '../errors.js';
import { InputError } from './errors.js';
import { defaultSchemasDir } from '../explain/descriptions-node.js';
import { isHexText, parseHexInput } from '../explain/hex.js';
import { closestName } from '../codec/by-key.js';
import { splitFrames } from '../site/frame-input.js';
import type { Io } from './command.js';
import { integerArg, stringOption, type OptionSpec, type OptionValues } from './options.js';

export const FRAME_OPTIONS: readonly OptionSpec[] = [
  { name: 'file', value: 'PATH', help: 'read the frame from a file (hex text or raw bytes)' },
  { name: 'response', help: 'the bytes are a response (needs --api-key and --api-version)' },
  { name: 'request', help: 'the bytes are a request (the default)' },
  { name: 'api-key', value: 'KEY', help: 'API by number or name (3, Metadata); a request\'s header must agree' },
  { name: 'api-version', value: 'N', help: 'API version; a request\'s header must agree' },
];

/** --schemas for the commands that decode or encode: it only extends the catalogue. */
export const CATALOGUE_OPTIONS: readonly OptionSpec[] = [
  { name: 'schemas', value: 'DIR', help: 'Kafka-format JSON schemas whose API keys and versions join the built-in catalogue' },
];

/** --schemas for the commands that show trees: the catalogue and the field descriptions. */
export const SCHEMA_OPTIONS: readonly OptionSpec[] = [
  { name: 'schemas', value: 'DIR', help: 'Kafka-format JSON schemas (a directory of them, Kafka\'s source tree or an unpacked kafka-clients jar): their API keys and versions join the catalogue, their texts describe fields (default for descriptions: $KAFKA_WIRE_SCHEMAS; see below)' },
  { name: 'no-schemas', help: 'the built-in catalogue and no field descriptions' },
];

/** --schemas where only the descriptions come from it (the messages shown are the built-in catalogue's). */
export const DESCRIPTION_OPTIONS: readonly OptionSpec[] = [
  { name: 'schemas', value: 'DIR', help: 'Kafka\'s JSON schemas (a directory of them, Kafka\'s source tree or an unpacked kafka-clients jar), for field descriptions (default: $KAFKA_WIRE_SCHEMAS; see below)' },
  { name: 'no-schemas', help: 'no field descriptions' },
];
/**
 * The help's note on where field descriptions come from: the package carries none of Kafka's
 * prose, so a user points at Kafka's JSON schemas, which live in Kafka's source tree and jar.
 */
export const SCHEMAS_NOTE = 'Field descriptions are Kafka\'s own texts, which the package does not carry: give --schemas DIR or set '
  + 'KAFKA_WIRE_SCHEMAS=DIR (in a checkout of kafka-wire, the schema pipeline\'s build/kafka-schemas/<release> is used when present). '
  + 'Kafka\'s JSON schemas are in its source tree (clients/src/main/resources/common/message; DIR may be the tree\'s root) '
  + 'and in the kafka-clients jar (common/message/: unzip kafka-clients-<version>.jar \'common/message/*\' -d DIR).';

export const COLOR_OPTION: OptionSpec = { name: 'color', value: 'WHEN', help: 'auto (a terminal without NO_COLOR), always or never' };

/** An API key given as a number or a name, case-insensitive (3, Metadata, metadata). */
export function apiKeyOf(text: string, what = '--api-key', catalogue: Catalogue = builtInCatalogue): number {
  const api = /^\d+$/.test(text)
    ? catalogue.api(Number(text))
    : catalogue.apis.find((a) => a.name.toLowerCase() === text.toLowerCase());
  if (api === undefined) {
    const close = /^\d+$/.test(text) ? undefined : closestName(text, catalogue.apis.map((a) => a.name));
    throw new UsageError(`${what}: no API ${/^\d+$/.test(text) ? 'with key' : 'named'} ${text}`
      + (close === undefined ? ' (a number from the catalogue or a name such as Metadata)' : `; did you mean ${close}?`));
  }
  return api.apiKey;
}

export interface FrameTarget {
  direction: 'request' | 'response';
  apiKey?: number;
  apiVersion?: number;
  /** From --schemas DIR; undefined for the built-in one. */
  catalogue?: Catalogue;
}

/** The direction, key and version the frame options give; a response needs the last two. */
export function frameTarget(options: OptionValues): FrameTarget {
  if (options.response && options.request) throw new UsageError('give --request or --response, not both');
  const direction = options.response ? 'response' : 'request';
  const keyText = stringOption(options, 'api-key');
  const catalogue = catalogueOption(options);
  const apiKey = keyText === undefined ? undefined : apiKeyOf(keyText, '--api-key', catalogue);
  const apiVersion = integerArg(stringOption(options, 'api-version'), '--api-version', 0, 32767);
  if (direction === 'response' && (apiKey === undefined || apiVersion === undefined)) {
    throw new UsageError('a response needs --api-key and --api-version (they are not on the wire)');
  }
  return { direction, apiKey, apiVersion, catalogue };
}

/** The schema directory the descriptions come from: --schemas DIR, none with --no-schemas, else the default. */
export function schemasDirOption(options: OptionValues): string | undefined {
  if (options['no-schemas']) return undefined;
  const given = stringOption(options, 'schemas');
  return given === undefined ? defaultSchemasDir() : messageSchemasDir(given);
}

const loadedCatalogues = new Map<string, Catalogue>();

/**
 * The catalogue every command uses: the built-in one extended with --schemas DIR's schemas (an
 * API key the package does not know, a newer version of one it does), or undefined for the
 * built-in one alone. Each directory is read once per process.
 */
export function catalogueOption(options: OptionValues): Catalogue | undefined {
  const dir = stringOption(options, 'schemas');
  if (dir === undefined || options['no-schemas']) return undefined;
  let catalogue = loadedCatalogues.get(dir);
  if (catalogue === undefined) loadedCatalogues.set(dir, (catalogue = loadCatalogue(dir)));
  return catalogue;
}

export async function readAll(stdin: Io['stdin']): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stdin as AsyncIterable<string | Uint8Array>) {
    chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  }
  return concatBytes(chunks, chunks.reduce((n, c) => n + c.length, 0));
}

/** A file named on the command line; one that cannot be read is an input error, not a crash. */
export async function readFileArg(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Hex text to bytes; what is wrong with it otherwise (an odd count, a stray character). */
export function hexArgument(text: string, where: string): Uint8Array {
  const bytes = parseHexInput(text);
  if (bytes !== null) return bytes;
  const digits = text.replace(/0x/gi, '').replace(/[\s:,\-]+/g, '');
  const stray = digits.search(/[^0-9a-fA-F]/);
  throw new InputError(stray >= 0
    ? `${where} is not hex: ${JSON.stringify(digits[stray])} is not a hex digit`
    : `${where} has an odd number of hex digits (${digits.length})`);
}

/** Stdin or file contents: hex text when it is only hex digits and separators, else the raw bytes. */
function textOrRaw(bytes: Uint8Array, where: string): Uint8Array {
  if (bytes.length === 0) throw new UsageError(`${where} is empty (give the frame as HEX, on stdin, or with --file PATH)`);
  const text = new TextDecoder().decode(bytes);
  return isHexText(text) && /[0-9a-fA-F]/.test(text) ? hexArgument(text, where) : bytes;
}

/**
 * The frame's bytes: a hex argument (split over several arguments if need be; `0x`, spaces and
 * colons allowed), `--file PATH`, or stdin when there is no argument or it is `-`.
 */
export async function readFrameBytes(positionals: string[], options: OptionValues, io: Io): Promise<Uint8Array> {
  const file = stringOption(options, 'file');
  const fromStdin = positionals.length === 0 || (positionals.length === 1 && positionals[0] === '-');
  if (file !== undefined) {
    if (!fromStdin || positionals.length > 0) throw new UsageError('give the frame as HEX or with --file, not both');
    return textOrRaw(await readFileArg(file), file);
  }
  if (fromStdin) {
    // Waiting on a terminal for bytes nobody means to type would look like a hang.
    if ((io.stdin as { isTTY?: boolean }).isTTY) throw new UsageError('no frame given: give it as HEX, on stdin, or with --file PATH');
    return textOrRaw(await readAll(io.stdin), 'stdin');
  }
  return hexArgument(positionals.join(' '), 'HEX');
}

/**
 * The frames in the bytes: several back to back when their size prefixes cover the bytes exactly
 * (a stream saved from a socket, or frames pasted one after another), else the bytes as one frame
 * for the decoder to judge.
 */
export function framesIn(bytes: Uint8Array): Uint8Array[] {
  return splitFrames(bytes) ?? [bytes];
}

/** Runs `work` for frame `index` of `count`; with several, a failure says which frame it was in. */
export function inFrame<T>(index: number, count: number, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (count > 1 && error instanceof Error) error.message = `frame ${index + 1} of ${count}: ${error.message}`;
    throw error;
  }
}

/** Whether to colour stdout: --color always|never, else a terminal without NO_COLOR. */
export function useColour(options: OptionValues, io: Io): boolean {
  const when = stringOption(options, 'color') ?? 'auto';
  if (when === 'always') return true;
  if (when === 'never') return false;
  if (when !== 'auto') throw new UsageError(`--color must be auto, always or never, not ${JSON.stringify(when)}`);
  const noColor = io.env?.NO_COLOR;
  return io.stdout.isTTY === true && (noColor === undefined || noColor === '');
}

const READ_CHUNK = 1 << 20;

/**
 * A descriptor's bytes in chunks of up to READ_CHUNK, one read ahead: two buffers taking turns, so
 * a chunk stays valid until the next one is asked for. A non-blocking descriptor (a pipe Node set
 * so) with nothing to read yet is polled again after a millisecond.
 */
export async function* readAhead(fd: number, close: boolean): AsyncGenerator<Uint8Array> {
  const buffers = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  const readInto = async (buffer: Buffer): Promise<number> => {
    for (;;) {
      try {
        return await new Promise<number>((resolve, reject) => read(fd, buffer, 0, buffer.length, null, (err, n) => (err ? reject(err) : resolve(n))));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((r) => setTimeout(r, 1));
      }
    }
  };
  let turn = 0;
  let next = readInto(buffers[0]!);
  try {
    for (;;) {
      const n = await next;
      if (n === 0) return;
      const chunk = buffers[turn]!.subarray(0, n);
      turn ^= 1;
      next = readInto(buffers[turn]!);
      yield chunk;
    }
  } finally {
    next.catch(() => undefined); // a read still running when the consumer stopped early
    if (close) closeSync(fd);
  }
}
