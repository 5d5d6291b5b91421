// The fault suite (test/faults/suite.ts) at CI size: one seed per fault kind and component. `npm
// run faults -- --seeds N` (scripts/faults.mjs) runs it with N seeds and prints the table;
// FAULT_ONLY=stall:producer,... runs only those cells, FAULT_FIRST_SEED=S from seed S.
// Cells waiting for another branch's fix are listed in WAITING with the defect they wait for;
// they run (and report) in the large run, and are kept out of the CI-size verdict.
import { describe, it, expect } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peer } from '../helpers/peer.js';
import { FAULT_KINDS } from '../helpers/fault-proxy.js';
import { mockClusterAvailable } from '../wire/mock-cluster.js';
import { COMPONENTS, clean, formatTable, runCell, type CellResult, type Component } from './suite.js';

const seeds = Number(process.env.FAULT_SEEDS ?? 1);
const large = process.env.FAULT_SEEDS !== undefined;
/** component → why its cells wait (the defect on another branch), or absent. */
const WAITING: Partial<Record<Component, string>> = {};

// The clients run from the build, each in a process of its own.
const built = peer('the build (dist/src/producer/index.js)', existsSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'producer', 'index.js')), 'npm run build');

describe.skipIf(!built)('fault suite', () => {
  it(`every fault kind against every component, ${seeds} seed(s) each: no crash, hang, untyped error, lingering process, loss, duplicate or reorder`, async () => {
    const components = COMPONENTS.filter((c) => c !== 'group' || large);
    if (large && !(await mockClusterAvailable()).ok) components.splice(components.indexOf('group'), 1);
    const cells: CellResult[] = [];
    // FAULT_ONLY=kind:component,... runs those cells alone.
    const only = process.env.FAULT_ONLY?.split(',').map((c) => c.trim());
    for (const kind of FAULT_KINDS) for (const component of components) {
      if (only === undefined || only.includes(`${kind}:${component}`)) cells.push(await runCell(component, kind, seeds, Number(process.env.FAULT_FIRST_SEED ?? 1)));
    }
    const table = formatTable(cells);
    if (process.env.FAULT_TABLE) writeFileSync(process.env.FAULT_TABLE, JSON.stringify({ table, cells }, null, 1));
    const dirty = cells.filter((c) => !clean(c));
    for (const c of dirty) console.log(`${c.kind} × ${c.component}:\n  ${c.notes.slice(0, 8).join('\n  ')}`);
    console.log(table);
    const blocking = dirty.filter((c) => WAITING[c.component] === undefined);
    if (!large) expect(blocking.map((c) => `${c.kind} × ${c.component}`)).toEqual([]);
    else expect(cells.length).toBeGreaterThan(0);
  }, 30 * 60_000);
});
