// The fault suite at any size: `npm run faults -- --seeds N` runs every fault kind against every
// component (test/faults/suite.test.ts, the CI size being one seed) with N seeds each, groups on
// librdkafka's mock cluster included, and prints the table (kind × component: runs, crashes, hangs,
// exits, untyped, lost, duplicated, reordered, misplaced). Needs a build (npm run build): the
// clients run as their own processes from dist/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '8' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('usage: npm run faults -- [--seeds N]   (default 8 seeds per fault kind and component)');
  process.exit(0);
}
const seeds = Number(values.seeds);
if (!Number.isInteger(seeds) || seeds < 1) { console.error(`--seeds must be a positive integer, not ${values.seeds}`); process.exit(2); }
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-faults-'));
const tableFile = join(dir, 'table.json');
const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/faults/suite.test.ts'], {
  cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, FAULT_SEEDS: String(seeds), FAULT_TABLE: tableFile },
});
try {
  const { table, cells } = JSON.parse(readFileSync(tableFile, 'utf8'));
  console.log(`\nfault suite, ${seeds} seed(s) per kind and component:\n${table}`);
  const dirty = cells.filter((c) => c.crashes + c.hangs + c.exits + c.untyped + c.lost + c.duplicated + c.reordered + c.misplaced > 0);
  for (const c of dirty) console.log(`\n${c.kind} × ${c.component}:\n  ${c.notes.slice(0, 10).join('\n  ')}`);
  process.exitCode = dirty.length === 0 && run.status === 0 ? 0 : 1;
} catch (error) {
  console.error(`the suite wrote no table (${error.message}); vitest exited ${run.status}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
