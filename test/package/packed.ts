// The package as a user installs it: `npm pack` of this checkout installed into a fresh project,
// shared by the package tests (each test file packs its own, in a directory it removes).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/shared.js';

export const built = existsSync(join(repoRoot, 'dist', 'src', 'index.js')) && existsSync(join(repoRoot, 'dist', 'cjs', 'index.cjs'));
if (!built) console.warn('SKIPPED: the package tests need `npm run build` first');

/** Packs and installs the package into a new directory; returns it and the tarball's path. */
export function packAndInstall(prefix: string, type: 'module' | 'commonjs' = 'module'): { dir: string; tarball: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: repoRoot, stdio: 'pipe' });
  const tarball = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: dir, stdio: 'pipe' });
  return { dir, tarball };
}

/** package.json's export keys, a wildcard key standing for one of its matches. */
export function exportKeys(): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return Object.keys(pkg.exports).filter((k) => k !== './package.json' && !k.endsWith('.wasm'))
    .map((k) => (k === '.' ? 'kafka-wire' : `kafka-wire/${k.slice(2)}`).replace('*', 'Metadata'));
}
