// Every command of the CLI, loaded, in the order the help lists them: for the help, the reference
// and the tests. The one list is COMMAND_LOADERS (command-loaders.ts); running one command loads
// only that command's modules.
import type { Command } from './command.js';
import { COMMAND_LOADERS } from './command-loaders.js';

export const COMMANDS: readonly Command[] = await Promise.all(Object.values(COMMAND_LOADERS).map((load) => load()));
