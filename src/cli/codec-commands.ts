// `decode` and `encode`: one frame to JSON and back, or a stream of them as JSON lines.
import { createInterface } from 'node:readline';
import { peekRequest, type Direction } from '../codec/by-key.js';
import { KafkaWireError, UsageError } from '../errors.js';
import { frameFromJson, frameToJson, stringify, type FrameJson } from '../codec/json.js';
import { toHex } from '../text.js';
import type { Command, Io } from './command.js';
import { errorJson, InputError, withFrame, type FrameContext } from './errors.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import {
  catalogueOption, FRAME_OPTIONS, frameTarget, hexArgument, readAll, readFileArg, readFrameBytes, CATALOGUE_OPTIONS, type FrameTarget,
} from './input.js';
import type { OptionSpec } from './options.js';
import { framesIn, inFrame } from './input.js';

const JSONL_OPTION: OptionSpec = { name: 'jsonl', help: 'read stdin as JSON lines, answer each with one JSON line' };

/**
 * Answers each stdin line with exactly one output line, blank lines included, so answers stay
 * aligned with inputs; one bad line never stops the stream.
 */
async function eachLine(io: Io, handle: (line: string, context: { frame?: FrameContext }) => unknown): Promise<void> {
  const lines = createInterface({ input: io.stdin as NodeJS.ReadableStream, crlfDelay: Infinity });
  for await (const line of lines) {
    const context: { frame?: FrameContext } = {};
    let result: unknown;
    try {
      if (line.trim() === '') throw new InputError('a blank line (expected a JSON object)', 'EMPTY_LINE');
      result = handle(line, context);
    } catch (error) {
      result = { ok: false, error: errorJson(error, context.frame) };
    }
    io.stdout.write(stringify(result) + '\n');
  }
}

function jsonObject(line: string): Record<string, any> {
  const value: unknown = JSON.parse(line);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError('expected a JSON object');
  return value as Record<string, any>;
}

/** The one JSON object of a whole input, saying so when it is empty or not JSON at all. */
function wholeJsonObject(text: string): Record<string, any> {
  if (text.trim() === '') throw new InputError('no JSON given (the input is empty)', 'EMPTY_INPUT');
  try {
    return jsonObject(text);
  } catch (error) {
    if (error instanceof SyntaxError) throw new InputError(`the input is not JSON: ${error.message}`, 'INVALID_JSON');
    throw error;
  }
}

/** A request's own header must agree with a key or version the caller states. */
function checkStated(frame: Uint8Array, target: FrameTarget): void {
  if (target.direction !== 'request') return;
  const { apiKey, apiVersion } = peekRequest(frame);
  if (target.apiKey !== undefined && target.apiKey !== apiKey) {
    throw new KafkaWireError('INVALID_VALUE', 4, 'header.requestApiKey', `the frame's header has API key ${apiKey}, not the stated ${target.apiKey}`);
  }
  if (target.apiVersion !== undefined && target.apiVersion !== apiVersion) {
    throw new KafkaWireError('INVALID_VALUE', 6, 'header.requestApiVersion', `the frame's header has API version ${apiVersion}, not the stated ${target.apiVersion}`);
  }
}

function decodeFrame(frame: Uint8Array, target: FrameTarget, records: boolean): ReturnType<typeof frameToJson> {
  checkStated(frame, target);
  return frameToJson(frame, target.apiKey, target.apiVersion, target.direction, { records, catalogue: target.catalogue });
}

function decodeLine(line: string, records: boolean, catalogue: Catalogue | undefined, context: { frame?: FrameContext }): unknown {
  const input = jsonObject(line);
  const direction: Direction = input.direction;
  if (direction !== 'request' && direction !== 'response') throw new InputError('"direction" must be "request" or "response"');
  if (typeof input.hex !== 'string') throw new InputError('"hex" must be a string of hex digits');
  for (const name of ['apiKey', 'apiVersion']) {
    if (input[name] !== undefined && !Number.isInteger(input[name])) throw new InputError(`"${name}" must be an integer`);
  }
  const frame = hexArgument(input.hex, '"hex"');
  context.frame = { frame, direction, apiKey: input.apiKey, apiVersion: input.apiVersion };
  if (direction === 'response' && (input.apiKey === undefined || input.apiVersion === undefined)) {
    throw new InputError('a response line needs "apiKey" and "apiVersion" (they are not on the wire)');
  }
  return { ok: true, frame: decodeFrame(frame, { direction, apiKey: input.apiKey, apiVersion: input.apiVersion, catalogue }, records) };
}

export const decode: Command = {
  name: 'decode',
  summary: 'decode a frame to JSON (lowerCamel fields, int64 as strings, bytes as hex)',
  synopsis: ['[HEX | -] [--file PATH] [--response --api-key KEY --api-version N] [--records] [--schemas DIR]', '--jsonl [--records] [--schemas DIR]'],
  options: [...FRAME_OPTIONS, { name: 'records', help: 'decode records fields into their batches' }, JSONL_OPTION, ...CATALOGUE_OPTIONS],
  notes: [
    'HEX may carry 0x, spaces or colons; without HEX (or with -) the frame is read from stdin, as hex text or raw bytes.',
    'Several frames back to back (a stream) are decoded each in turn, one JSON object each.',
    '--jsonl lines: {"direction","hex","apiKey"?,"apiVersion"?} -> {"ok":true,"frame"} or {"ok":false,"error":{"code","message","offset","path"}}.',
  ],
  async run({ options, positionals }, io) {
    const records = options.records === true;
    if (options.jsonl) {
      if (positionals.length > 0 || options.file !== undefined) throw new UsageError('--jsonl reads stdin only');
      for (const name of ['response', 'request', 'api-key', 'api-version']) {
        if (options[name] !== undefined) throw new UsageError(`--${name} does not go with --jsonl: each line says its direction, key and version`);
      }
      const catalogue = catalogueOption(options);
      await eachLine(io, (line, context) => decodeLine(line, records, catalogue, context));
      return 0;
    }
    const target = frameTarget(options);
    const frames = framesIn(await readFrameBytes(positionals, options, io));
    // Several frames back to back (a stream, as tshark reads one): each in turn.
    frames.forEach((frame, i) => {
      const json = inFrame(i, frames.length, () => withFrame({ frame, ...target }, () => decodeFrame(frame, target, records)));
      io.stdout.write(JSON.stringify(json, null, 2) + '\n');
    });
    return 0;
  },
};

export const encode: Command = {
  name: 'encode',
  summary: 'encode a frame given as JSON (decode\'s form; missing fields take their defaults), print hex',
  synopsis: ['[JSON | -] [--file PATH] [--schemas DIR]', '--jsonl [--schemas DIR]'],
  options: [{ name: 'file', value: 'PATH', help: 'read the JSON from a file' }, JSONL_OPTION, ...CATALOGUE_OPTIONS],
  notes: ['--jsonl lines: {"apiKey","apiVersion","direction","header","body"} -> {"ok":true,"hex"} or {"ok":false,"error"}.'],
  async run({ options, positionals }, io) {
    const catalogue = catalogueOption(options);
    if (options.jsonl) {
      if (positionals.length > 0 || options.file !== undefined) throw new UsageError('--jsonl reads stdin only');
      await eachLine(io, (line) => ({ ok: true, hex: toHex(frameFromJson(jsonObject(line) as FrameJson, { catalogue })) }));
      return 0;
    }
    if (positionals.length > 1) throw new UsageError('give one JSON argument (quote it)');
    const file = typeof options.file === 'string' ? options.file : undefined;
    const fromStdin = positionals.length === 0 || positionals[0] === '-';
    let text: string;
    if (file !== undefined) {
      if (positionals.length > 0) throw new UsageError('give the frame as JSON or with --file, not both');
      text = new TextDecoder().decode(await readFileArg(file));
    } else if (fromStdin) {
      // Waiting on a terminal for JSON nobody means to type would look like a hang.
      if ((io.stdin as { isTTY?: boolean }).isTTY) throw new UsageError('no frame given: give it as JSON, on stdin, or with --file PATH');
      text = new TextDecoder().decode(await readAll(io.stdin));
    } else {
      text = positionals[0];
    }
    io.stdout.write(toHex(frameFromJson(wholeJsonObject(text) as FrameJson, { catalogue })) + '\n');
    return 0;
  },
};
