// The command table (command-loaders.ts): each entry loads the command of its own name, and
// COMMANDS (commands.ts) is that table loaded, in its order.
import { describe, expect, it } from 'vitest';
import { COMMAND_LOADERS } from '../../src/cli/command-loaders.js';
import { COMMANDS } from '../../src/cli/commands.js';

describe('command loaders', () => {
  it('each loads the command of its name; COMMANDS is the table loaded, in order', async () => {
    for (const [name, load] of Object.entries(COMMAND_LOADERS)) expect((await load()).name).toBe(name);
    expect(COMMANDS.map((c) => c.name)).toEqual(Object.keys(COMMAND_LOADERS));
  });
});
