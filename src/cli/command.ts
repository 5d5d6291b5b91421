// What a command is: its name, synopsis, options and the function that runs it, plus the io it
// runs against. The table in ./commands.ts lists them; the help and the README's command
// reference are rendered from these fields, so neither can drift from what the parser accepts.
import type { OptionSpec, ParsedArgs } from './options.js';

export interface Io {
  stdin: NodeJS.ReadableStream;
  /** Text, or UTF-8 bytes (consume and pcap write their JSON lines as bytes). */
  stdout: { write(data: string | Uint8Array): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  /** The environment colour and debug output read (NO_COLOR, KAFKA_WIRE_DEBUG); process.env in the bin. */
  env?: Record<string, string | undefined>;
  /** Stops a command that runs until interrupted (the bin wires SIGINT to it). */
  signal?: AbortSignal;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The argument forms after `kafka-wire NAME`, one per line of the synopsis. */
  synopsis: string[];
  options: readonly OptionSpec[];
  /** Further lines of the command's own help (input forms, output shape). */
  notes?: string[];
  /** Exit code: 0 done, 1 the input did not decode or a broker said no, 2 usage. */
  run(args: ParsedArgs, io: Io): Promise<number>;
}
