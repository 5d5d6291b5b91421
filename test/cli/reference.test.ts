// The command reference in docs/cli.md is the command table's: regenerate it with
// `npm run build && node scripts/cli-reference.mjs` when a command or option changes. And no
// kafka-wire command line in the README or the guides names an option the parser would refuse.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { commandReference, REFERENCE_BEGIN, REFERENCE_END } from '../../src/cli/help.js';
import { docFiles } from '../helpers/readme.js';
import { repoRoot } from '../helpers/shared.js';

const guide = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');

describe('the command reference', () => {
  it('is what the command table renders', () => {
    const begin = guide.indexOf(REFERENCE_BEGIN);
    const end = guide.indexOf(REFERENCE_END);
    expect(begin).toBeGreaterThan(0);
    expect(guide.slice(begin + REFERENCE_BEGIN.length + 1, end)).toBe(commandReference(COMMANDS));
  });

  it('names no option the parser would refuse', () => {
    const known = new Set(COMMANDS.flatMap((c) => c.options.flatMap((o) => [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])])));
    const lines = docFiles.flatMap(({ path, text }) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((block) => block[1].split('\n').map((line) => ({ path, line: line.replace(/\s#.*$/, '') }))));
    // Each kafka-wire command on a line (a pipe may hold two), up to the next shell operator.
    const commands = lines.flatMap(({ path, line }) => [...line.matchAll(/kafka-wire ([^|<>;&]*)/g)].map((m) => ({ path, command: m[1] })));
    expect(commands.length).toBeGreaterThan(20);
    for (const { path, command } of commands) {
      for (const option of command.matchAll(/(?<=\s|\[|^)(--?[a-zA-Z][\w-]*)/g)) {
        expect(known.has(option[1]) || option[1] === '--help' || option[1] === '-h', `${path}: ${option[1]} in ${command}`).toBe(true);
      }
    }
  });
});
