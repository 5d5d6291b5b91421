// Writes the command reference in docs/cli.md (between its cli-reference markers) from the CLI's command
// table, after `npm run build`: `node scripts/cli-reference.mjs`. test/cli/reference.test.ts fails
// when the guide and the table differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { COMMANDS } from '../dist/src/cli/commands.js';
import { commandReference, REFERENCE_BEGIN, REFERENCE_END } from '../dist/src/cli/help.js';

const path = new URL('../docs/cli.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const begin = readme.indexOf(REFERENCE_BEGIN);
const end = readme.indexOf(REFERENCE_END);
if (begin < 0 || end < begin) throw new Error(`docs/cli.md lacks the ${REFERENCE_BEGIN} ... ${REFERENCE_END} markers`);
writeFileSync(path, readme.slice(0, begin + REFERENCE_BEGIN.length) + '\n' + commandReference(COMMANDS) + readme.slice(end));
