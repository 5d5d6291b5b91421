// The per-command loaders (what `kafka-wire <command>` loads at start-up) name exactly the
// commands of the table in commands.ts, each loading that very command.
import { describe, expect, it } from 'vitest';
import { COMMAND_LOADERS } from '../../src/cli/command-loaders.js';
import { COMMANDS } from '../../src/cli/commands.js';

describe('command loaders', () => {
  it('one per command of the table, loading the same command', async () => {
    expect(Object.keys(COMMAND_LOADERS).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const c of COMMANDS) expect(await COMMAND_LOADERS[c.name]!()).toBe(c);
  });
});
