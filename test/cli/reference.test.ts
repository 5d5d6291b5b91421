// The README's command reference is the command table's: regenerate it with
// `npm run build && node scripts/cli-reference.mjs` when a command or option changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { commandReference, REFERENCE_BEGIN, REFERENCE_END } from '../../src/cli/help.js';
import { repoRoot } from '../helpers/shared.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe('the README command reference', () => {
  it('is what the command table renders', () => {
    const begin = readme.indexOf(REFERENCE_BEGIN);
    const end = readme.indexOf(REFERENCE_END);
    expect(begin).toBeGreaterThan(0);
    expect(readme.slice(begin + REFERENCE_BEGIN.length + 1, end)).toBe(commandReference(COMMANDS));
  });

  it('names no option the parser would refuse', () => {
    const known = new Set(COMMANDS.flatMap((c) => c.options.flatMap((o) => [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])])));
    for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
      for (const option of block[1].matchAll(/(?<=\s|\[)(--?[a-zA-Z][\w-]*)/g)) {
        expect(known.has(option[1]) || option[1] === '--help' || option[1] === '-h', option[1]).toBe(true);
      }
    }
  });
});
