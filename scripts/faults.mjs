// The fault suite at any size: `npm run faults -- --seeds N` runs every fault kind against every
// component on the memory broker (test/faults/suite.test.ts, the CI size being one seed) with N
// seeds each, groups on librdkafka's mock cluster included, and prints the table (broker × kind ×
// component: runs, crashes, hangs, exits, untyped, lost, duplicated, reordered, misplaced);
// `--kafka` adds every kind × component against real Kafka 4.4 (test/faults/kafka.test.ts, share
// groups included), `--kafka-only` runs those alone. `--jobs J` runs J runs at a time (default
// 4: they mostly wait on deadlines). Needs a build (npm run build): the clients run as their own
// processes from dist/. FAULT_ONLY=kind:component,... runs only those cells; FAULT_PROGRESS=FILE gets a
// line per run as it ends.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: {
  seeds: { type: 'string', default: '8' }, jobs: { type: 'string', default: '4' },
  kafka: { type: 'boolean' }, 'kafka-only': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} });
if (values.help) {
  console.log('usage: npm run faults -- [--seeds N] [--jobs J] [--kafka | --kafka-only]\n  (default 8 seeds per fault kind and component, 4 runs at a time, the memory broker only)');
  process.exit(0);
}
const seeds = Number(values.seeds);
const jobs = Number(values.jobs);
if (!Number.isInteger(seeds) || seeds < 1) { console.error(`--seeds must be a positive integer, not ${values.seeds}`); process.exit(2); }
if (!Number.isInteger(jobs) || jobs < 1) { console.error(`--jobs must be a positive integer, not ${values.jobs}`); process.exit(2); }
const files = [...(values['kafka-only'] ? [] : ['test/faults/suite.test.ts']), ...(values.kafka || values['kafka-only'] ? ['test/faults/kafka.test.ts'] : [])];
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-faults-'));
const started = Date.now();
const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...files], {
  cwd: root, stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, FAULT_SEEDS: String(seeds), FAULT_JOBS: String(jobs), FAULT_TABLE_DIR: dir, ...(files.includes('test/faults/kafka.test.ts') ? { FAULT_KAFKA: '1' } : {}) },
});
try {
  let dirtyCount = 0;
  let tables = 0;
  for (const target of ['memory', 'kafka']) {
    const file = join(dir, `${target}.json`);
    if (!existsSync(file)) continue;
    tables++;
    const { table, cells } = JSON.parse(readFileSync(file, 'utf8'));
    console.log(`\nfault suite on the ${target === 'memory' ? 'memory broker (groups: the mock cluster)' : 'real Kafka broker'}, ${seeds} seed(s) per kind and component:\n${table}`);
    const dirty = cells.filter((c) => c.crashes + c.hangs + c.exits + c.untyped + c.lost + c.duplicated + c.reordered + c.misplaced > 0);
    for (const c of dirty) console.log(`\n${target}: ${c.kind} × ${c.component}:\n  ${c.notes.slice(0, 10).join('\n  ')}`);
    dirtyCount += dirty.length;
  }
  if (tables < files.length) console.error(`${files.length - tables} of the suite's files wrote no table (skipped or failed); vitest exited ${run.status}`);
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s wall`);
  process.exitCode = dirtyCount === 0 && tables === files.length && run.status === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
