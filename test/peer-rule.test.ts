// The peer rule itself (test/helpers/peer.ts), tried on a real peer test: with the zstd command
// hidden from PATH, test/records/compression.test.ts fails under CI=true and, elsewhere, passes with
// one SKIPPED line naming what is missing and how to install it.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/shared.js';
import { hasCommand } from './helpers/peer.js';

/** A PATH of one directory: links to every command on today's PATH but `hidden`. */
function pathWithout(hidden: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-path-'));
  for (const from of (process.env.PATH ?? '').split(delimiter)) {
    if (!from || !existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (name === hidden || existsSync(join(dir, name))) continue;
      try { symlinkSync(join(from, name), join(dir, name)); } catch { /* a name seen twice */ }
    }
  }
  return dir;
}

function runFile(file: string, env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'CI' && k !== 'KAFKA_WIRE_REQUIRE_ALL'));
  return spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run', file],
    { cwd: repoRoot, env: { ...clean, ...env }, encoding: 'utf8', timeout: 240_000 });
}

describe.skipIf(!hasCommand('zstd'))('the peer rule', () => {
  const dir = pathWithout('zstd');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails a peer test under CI=true when its peer is missing', () => {
    const r = runFile('test/records/compression.test.ts', { PATH: dir, CI: 'true' });
    expect(r.status, r.stdout + r.stderr).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('the zstd command is missing (apt-get install zstd); CI requires it');
  }, 300_000);

  it('skips it with one visible line elsewhere', () => {
    const r = runFile('test/records/compression.test.ts', { PATH: dir, CI: '' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect((r.stdout + r.stderr).match(/SKIPPED: the zstd command is missing \(apt-get install zstd\)/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/skipped/);
  }, 300_000);
});
