// The fault suite (test/faults/suite.ts) on the memory broker at CI size: one seed per fault kind
// and component (groups, on librdkafka's mock cluster, in the large run only). `npm run faults --
// --seeds N` (scripts/faults.mjs) runs it with N seeds and prints the table; FAULT_ONLY=stall:producer,...
// runs only those cells, FAULT_FIRST_SEED=S from seed S, FAULT_JOBS=J J runs at a time. Real
// Kafka's cells are test/faults/kafka.test.ts.
// Cells waiting for another branch's fix are listed in WAITING with the defect they wait for;
// they run (and report) in the large run, and are kept out of the CI-size verdict.
import { describe, it, expect } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peer } from '../helpers/peer.js';
import { FAULT_KINDS } from '../helpers/fault-proxy.js';
import { mockClusterAvailable } from '../wire/mock-cluster.js';
import { TARGET_COMPONENTS, clean, formatTable, runTasks, type Component, type Task } from './suite.js';

const seeds = Number(process.env.FAULT_SEEDS ?? 1);
const large = process.env.FAULT_SEEDS !== undefined;
const firstSeed = Number(process.env.FAULT_FIRST_SEED ?? 1);
/** component → why its cells wait (the defect on another branch), or absent. */
const WAITING: Partial<Record<Component, string>> = {};
/** On the mock cluster (its start and the joins take seconds): the large run only. */
const GROUPS: readonly Component[] = ['group', 'cli-group'];

// The clients run from the build, each in a process of its own.
const built = peer('the build (dist/src/producer/index.js)', existsSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'producer', 'index.js')), 'npm run build');

describe.skipIf(!built)('fault suite', () => {
  it(`every fault kind against every component, ${seeds} seed(s) each: no crash, hang, untyped error, lingering process, loss, duplicate or reorder`, async () => {
    let components = TARGET_COMPONENTS.memory.filter((c) => large || !GROUPS.includes(c));
    if (large && !(await mockClusterAvailable()).ok) components = components.filter((c) => !GROUPS.includes(c));
    // FAULT_ONLY=kind:component,... runs those cells alone.
    const only = process.env.FAULT_ONLY?.split(',').map((c) => c.trim());
    const tasks: Task[] = [];
    for (const kind of FAULT_KINDS) for (const component of components) {
      if (only !== undefined && !only.includes(`${kind}:${component}`)) continue;
      for (let seed = firstSeed; seed < firstSeed + seeds; seed++) tasks.push({ component, kind, seed });
    }
    const cells = await runTasks(tasks, Number(process.env.FAULT_JOBS ?? 2));
    const table = formatTable(cells);
    if (process.env.FAULT_TABLE_DIR) writeFileSync(join(process.env.FAULT_TABLE_DIR, 'memory.json'), JSON.stringify({ table, cells }, null, 1));
    const dirty = cells.filter((c) => !clean(c));
    for (const c of dirty) console.log(`${c.kind} × ${c.component}:\n  ${c.notes.slice(0, 8).join('\n  ')}`);
    console.log(table);
    const blocking = dirty.filter((c) => WAITING[c.component] === undefined);
    if (!large) expect(blocking.map((c) => `${c.kind} × ${c.component}`)).toEqual([]);
    else expect(cells.length).toBeGreaterThan(0);
  }, 60 * 60_000);
});
