#!/usr/bin/env node
// kafka-wire's command line: finds the command in the table, parses its options with the one
// parser, runs it, and turns what it throws into one line on stderr and an exit status (0 done,
// 1 the input did not decode or a broker said no, 2 usage). main() is what tests run in-process;
// the bin below only wires the process to it (signals, EPIPE, exit code).
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { COMMAND_LOADERS, loadAllCommands } from './command-loaders.js';
import { describeError, FrameFailure } from './errors.js';
import { commandHelp, globalHelp, HELP_OPTION } from './help.js';
import { parseOptions } from './options.js';
import { stdoutErrorsHeld } from './stdout-hold.js';

export type { Io } from './command.js';

/** The package's version, from the package.json above this file (in src/ and in dist/ alike). */
function version(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'kafka-wire') return pkg.version;
    } catch { /* not here: look one level up */ }
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** The command named `name`, loading its own modules only. */
async function findCommand(name: string): Promise<Command | undefined> {
  const load = Object.hasOwn(COMMAND_LOADERS, name) ? COMMAND_LOADERS[name] : undefined;
  return load === undefined ? undefined : load();
}

async function unknownCommand(io: Io, name: string): Promise<number> {
  io.stderr.write(`kafka-wire: unknown command ${JSON.stringify(name)} (commands: ${(await loadAllCommands()).map((c) => c.name).join(', ')}; see kafka-wire --help)\n`);
  return 2;
}

/** The failure as one line on stderr; the exit status it means. */
function report(io: Io, command: Command, error: unknown): number {
  const prefix = `kafka-wire ${command.name}: `;
  if (error instanceof UsageError) {
    io.stderr.write(`${prefix}${error.message}\n(see kafka-wire ${command.name} --help)\n`);
    return 2;
  }
  io.stderr.write(prefix + (error instanceof FrameFailure ? error.message : describeError(error)) + '\n');
  const debug = io.env?.KAFKA_WIRE_DEBUG;
  if (debug !== undefined && debug !== '' && debug !== '0') {
    const cause = error instanceof FrameFailure ? error.error : error;
    if (cause instanceof Error && cause.stack) io.stderr.write(cause.stack + '\n');
  }
  return 1;
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(globalHelp(await loadAllCommands()));
    return 2;
  }
  if (first === '--help' || first === '-h') {
    io.stdout.write(globalHelp(await loadAllCommands()));
    return 0;
  }
  if (first === '--version' || first === '-V') {
    io.stdout.write(`kafka-wire ${version()}\n`);
    return 0;
  }
  if (first === 'help') {
    if (rest.length === 0) {
      io.stdout.write(globalHelp(await loadAllCommands()));
      return 0;
    }
    const command = await findCommand(rest[0]);
    if (command === undefined) return unknownCommand(io, rest[0]);
    io.stdout.write(commandHelp(command));
    return 0;
  }
  const command = await findCommand(first);
  if (command === undefined) {
    if (first.startsWith('-')) {
      io.stderr.write(`kafka-wire: unknown option ${first} before a command (see kafka-wire --help)\n`);
      return 2;
    }
    return unknownCommand(io, first);
  }
  try {
    const parsed = parseOptions(rest, [...command.options, HELP_OPTION]);
    if (parsed.options.help) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run(parsed, io);
  } catch (error) {
    return report(io, command, error);
  }
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
  // A reader that stops early (`| head`) is not an error: end quietly. A command that holds this
  // off (consume --share: it settles the records it could not write) gets the error itself.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (stdoutErrorsHeld()) return;
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  // Ctrl-C or SIGTERM ends a long-running command (consume, proxy) cleanly: its connections
  // closed, its output flushed.
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  // stdin on first use only: making process.stdin opens its stream (and loads its modules), which
  // most commands never read.
  const io = { get stdin() { return process.stdin; }, stdout: process.stdout, stderr: process.stderr, env: process.env, signal: abort.signal };
  main(process.argv.slice(2), io)
    .then((code) => { process.exitCode = code; })
    .catch((error) => {
      process.stderr.write(`kafka-wire: ${describeError(error)}\n`);
      process.exitCode = 1;
    });
}
