#!/usr/bin/env node
// kafka-wire's command line. Each subcommand is a function of (args, io) → exit code, so tests
// can run them in-process and the bin stays a thin shell.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import { KafkaWireError } from './errors.js';
import { frameFromJson, frameToJson, stringify, type FrameJson } from './json.js';
import { fromHex, toHex } from './text.js';
import type { Direction } from './codec.js';
import { WIRE_USAGE, wireCommands } from './wire/cli-commands.js';
import { runExplain, runSample, runSite } from './explain/cli-commands.js';
import { BROKER_USAGE, brokerCommand } from './wire/broker-command.js';

export interface Io {
  signal?: AbortSignal;
  stdin: NodeJS.ReadableStream;
  /** Text, or UTF-8 bytes (consume writes its JSON lines as bytes). */
  stdout: { write(data: string | Uint8Array): unknown };
  stderr: { write(text: string): unknown };
}

type Command = (args: string[], io: Io) => Promise<number>;

const USAGE = `usage: kafka-wire <command> [options]

  decode HEX [--response --api-key K --api-version V] [--records]
                                                        decode one frame to JSON (--records: batches too)
  decode --jsonl [--records]                            stdin lines {"direction","hex","apiKey"?,"apiVersion"?}
  encode JSON                                           encode one frame given as JSON, print hex
  encode --jsonl                                        stdin lines of frames as JSON → {"ok","hex"}
  explain HEX [--response --api-key K --api-version V] [--json] [--layout] [--schemas DIR]
                                                        the annotated object tree of a frame
  sample KEY VERSION request|response [--explain]       the smallest legal instance, as hex or a tree
  sample --all                                          every key/version/direction as JSON lines
  site OUTDIR [--schemas DIR]                           the static explorer site
  demo                                                  explain the reference pages' messages
${WIRE_USAGE}${BROKER_USAGE}`;

export function errorJson(error: unknown): { name: string; message: string; offset: number; path: string } {
  if (error instanceof KafkaWireError) {
    return { name: error.name, message: error.message, offset: error.offset, path: error.path };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message, offset: -1, path: '' };
}

/** Reads `--name value` options and bare flags; the rest are positional. */
export function parseArgs(args: string[], valued: string[]): { options: Map<string, string | true>; positional: string[] } {
  const options = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      if (valued.includes(arg)) options.set(arg, args[++i] ?? '');
      else options.set(arg, true);
    } else {
      positional.push(arg);
    }
  }
  return { options, positional };
}

/** Runs `handle` on each stdin line; one bad line never stops the stream. */
async function eachLine(io: Io, handle: (line: string) => unknown): Promise<void> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let result: unknown;
    try {
      result = handle(line);
    } catch (error) {
      result = { ok: false, error: errorJson(error) };
    }
    io.stdout.write(stringify(result) + '\n');
  }
}

function parseHex(text: string): Uint8Array {
  const bytes = fromHex(text);
  if (bytes === null) throw new KafkaWireError('INVALID_VALUE', -1, 'hex', 'expected an even number of hex digits');
  return bytes;
}

function decodeLine(line: string, records: boolean): unknown {
  const input = JSON.parse(line);
  if (input === null || typeof input !== 'object') throw new KafkaWireError('INVALID_VALUE', -1, '', 'expected a JSON object');
  const direction: Direction = input.direction;
  if (direction !== 'request' && direction !== 'response') {
    throw new KafkaWireError('INVALID_VALUE', -1, 'direction', 'expected "request" or "response"');
  }
  if (typeof input.hex !== 'string') throw new KafkaWireError('INVALID_VALUE', -1, 'hex', 'expected a hex string');
  return { ok: true, frame: frameToJson(direction, parseHex(input.hex), input.apiKey, input.apiVersion, { records }) };
}

const decode: Command = async (args, io) => {
  const { options, positional } = parseArgs(args, ['--api-key', '--api-version']);
  if (options.has('--jsonl')) {
    await eachLine(io, (line) => decodeLine(line, options.has('--records')));
    return 0;
  }
  if (positional.length !== 1) {
    io.stderr.write(USAGE);
    return 2;
  }
  const direction: Direction = options.has('--response') ? 'response' : 'request';
  const apiKey = options.has('--api-key') ? Number(options.get('--api-key')) : undefined;
  const apiVersion = options.has('--api-version') ? Number(options.get('--api-version')) : undefined;
  try {
    const frame = frameToJson(direction, parseHex(positional[0]), apiKey, apiVersion, { records: options.has('--records') });
    io.stdout.write(JSON.stringify(frame, null, 2) + '\n');
    return 0;
  } catch (error) {
    io.stderr.write(`kafka-wire: ${errorJson(error).message}\n`);
    return 1;
  }
};

const encode: Command = async (args, io) => {
  const { options, positional } = parseArgs(args, []);
  if (options.has('--jsonl')) {
    await eachLine(io, (line) => ({ ok: true, hex: toHex(frameFromJson(JSON.parse(line) as FrameJson)) }));
    return 0;
  }
  if (positional.length !== 1) {
    io.stderr.write(USAGE);
    return 2;
  }
  try {
    io.stdout.write(toHex(frameFromJson(JSON.parse(positional[0]))) + '\n');
    return 0;
  } catch (error) {
    io.stderr.write(`kafka-wire: ${errorJson(error).message}\n`);
    return 1;
  }
};

/** The main job: the reference pages' smallest messages, explained byte by byte. */
const demo: Command = async (_args, io) => {
  for (const [key, version] of [['45', '0'], ['49', '1']]) {
    for (const direction of ['request', 'response']) {
      const code = await runSample([key, version, direction, '--explain', '--layout'], io);
      if (code !== 0) return code;
      io.stdout.write('\n');
    }
  }
  return 0;
};

export const commands: Record<string, Command> = {
  decode, encode, explain: runExplain, sample: runSample, site: runSite, demo, ...wireCommands,
  broker: brokerCommand,
};

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (command === undefined) {
    io.stderr.write(USAGE);
    return name === undefined || name === '--help' || name === 'help' ? 0 : 2;
  }
  return command(rest, io);
}

function invokedDirectly(): boolean {
  if (process.argv[1] === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  // Ctrl-C (or SIGTERM) ends a long-running consume or broker cleanly (connections closed, output flushed).
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: abort.signal })
    .then((code) => { process.exitCode = code; })
    .catch((error) => {
      process.stderr.write(`kafka-wire: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
}
