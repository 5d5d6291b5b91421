// Where the shared material lives (../shared beside the repo), and a visible skip when it is absent.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const schemasDir = process.env.KAFKA_WIRE_SCHEMAS ?? join(repoRoot, '..', 'shared', 'kafka-schemas');
export const seedsDir = join(repoRoot, '..', 'shared', 'seeds');

export function haveDir(dir: string, what: string): boolean {
  if (existsSync(dir)) return true;
  console.warn(`SKIPPED: ${what} needs ${dir}, which is absent on this machine`);
  return false;
}
