// `kafka-wire/consumer` as code written against earlier releases imports it: the consumer, and the
// group and share-group admin functions that moved to kafka-wire/admin (listGroups, describeGroup,
// resetOffsets, listShareGroups, ...), the same functions as admin's, from ESM and from CommonJS through package.json's exports (the
// entry is src/consumer.ts on the top floor, so no folder re-exports upward; test/floors.test.ts).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import { built } from './packed.js';
import * as entry from '../../src/consumer.js';
import * as face from '../../src/consumer/index.js';
import * as groups from '../../src/admin/groups.js';
import * as shareGroups from '../../src/admin/share-groups.js';

const MOVED_GROUPS = ['listGroups', 'describeGroup', 'resetOffsets'] as const;
const MOVED_SHARE = ['listShareGroups', 'describeShareGroup', 'alterShareGroupOffsets', 'resetShareGroupOffsets', 'deleteShareGroupOffsets', 'deleteShareGroup', 'alterShareGroupConfig'] as const;
const MOVED = [...MOVED_GROUPS, ...MOVED_SHARE];

describe('the kafka-wire/consumer entry', () => {
  it('offers the consumer folder\'s face and the moved group admin functions, which the folder itself no longer re-exports', () => {
    for (const name of Object.keys(face)) expect(entry[name as keyof typeof entry], name).toBe(face[name as keyof typeof face]);
    for (const name of MOVED_GROUPS) expect(entry[name]).toBe(groups[name]);
    for (const name of MOVED_SHARE) expect(entry[name]).toBe(shareGroups[name]);
    for (const name of MOVED) expect(name in face).toBe(false);
    expect(Object.keys(entry).sort()).toEqual([...Object.keys(face), ...MOVED].sort());
  });

  it.skipIf(!built)('resolves by the package\'s name, from ESM and from CommonJS, with the same names', () => {
    // Node's self-reference: a script inside the package resolves 'kafka-wire/...' through its exports.
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e',
      `const m = await import('kafka-wire/consumer'); const a = await import('kafka-wire/admin');
       console.log(JSON.stringify({ names: Object.keys(m).sort(), moved: ${JSON.stringify(MOVED)}.map((n) => typeof m[n]), consumer: typeof m.Consumer }))`],
    { cwd: repoRoot, encoding: 'utf8' });
    const cjs = execFileSync(process.execPath, ['-e',
      `const m = require('kafka-wire/consumer');
       console.log(JSON.stringify({ names: Object.keys(m).filter((k) => k !== '__esModule').sort(), moved: ${JSON.stringify(MOVED)}.map((n) => typeof m[n]), consumer: typeof m.Consumer }))`],
    { cwd: repoRoot, encoding: 'utf8' });
    const want = { names: Object.keys(entry).sort(), moved: MOVED.map(() => 'function'), consumer: 'function' };
    expect(JSON.parse(esm)).toEqual(want);
    expect(JSON.parse(cjs)).toEqual(want);
  });
});
