// The help texts and the README's command reference, all rendered from the command table, so the
// options a help lists are the options the parser accepts.
import type { Command } from './command.js';
import { optionSynopsis, type OptionSpec } from './options.js';

export const HELP_OPTION: OptionSpec = { name: 'help', short: 'h', help: 'this help' };
export const VERSION_OPTION: OptionSpec = { name: 'version', short: 'V', help: 'the version' };

export const EXIT_STATUS = 'exit status: 0 done, 1 the input did not decode or a broker said no, 2 usage';

/** Two columns, the second starting where the widest first one ends. */
function columns(rows: [string, string][], indent = '  '): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd() + '\n').join('');
}

export function commandHelp(command: Command): string {
  const lead = `kafka-wire ${command.name}`;
  let out = command.synopsis.map((s, i) => `${i === 0 ? 'usage: ' : '       '}${lead} ${s}\n`).join('');
  out += `\n${command.summary}\n\noptions:\n`;
  out += columns([...command.options, HELP_OPTION].map((o) => [optionSynopsis(o), o.help]));
  if (command.notes !== undefined) out += '\n' + command.notes.map((n) => n + '\n').join('');
  return out;
}

export function globalHelp(commands: readonly Command[]): string {
  return 'usage: kafka-wire <command> [options]    (kafka-wire help <command>, or <command> --help, for its options)\n'
    + '\ncommands:\n' + columns(commands.map((c) => [c.name, c.summary]))
    + '\noptions:\n' + columns([HELP_OPTION, VERSION_OPTION].map((o) => [optionSynopsis(o), o.help]))
    + `\n${EXIT_STATUS}\n`;
}

/** The markers around the README's command reference (scripts/cli-reference.mjs writes between them). */
export const REFERENCE_BEGIN = '<!-- cli-reference:begin (generated from the command table: node scripts/cli-reference.mjs) -->';
export const REFERENCE_END = '<!-- cli-reference:end -->';

/** Text for Markdown: `<TAB>` must not read as a tag, nor `|` end a table cell. */
function markdown(text: string): string {
  return text.replace(/</g, '&lt;').replace(/\|/g, '\\|');
}

/** The README's command reference (Markdown): every command's synopsis, options and notes. */
export function commandReference(commands: readonly Command[]): string {
  let out = '';
  for (const command of commands) {
    out += `### kafka-wire ${command.name}\n\n${markdown(command.summary)}\n\n\`\`\`sh\n`;
    out += command.synopsis.map((s) => `kafka-wire ${command.name} ${s}\n`).join('') + '```\n\n';
    out += '| option | meaning |\n| --- | --- |\n';
    out += command.options.map((o) => `| \`${optionSynopsis(o)}\` | ${markdown(o.help)} |\n`).join('');
    for (const note of command.notes ?? []) out += `\n${markdown(note)}\n`;
    out += '\n';
  }
  return out + `Every command takes \`-h\`/\`--help\`; \`kafka-wire --version\` prints the version. ${EXIT_STATUS[0].toUpperCase()}${EXIT_STATUS.slice(1)}.\n`;
}
