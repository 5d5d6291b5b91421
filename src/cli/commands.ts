// Every command of the CLI, loaded, in the order the help lists them: for the reference and the
// tests (the bin itself calls loadAllCommands(): its CommonJS build has no top-level await). The
// one list is COMMAND_LOADERS (command-loaders.ts); running one command loads only its modules.
import type { Command } from './command.js';
import { loadAllCommands } from './command-loaders.js';

export const COMMANDS: readonly Command[] = await loadAllCommands();
