// Where the shared material lives (../shared beside the repo), and a visible skip when it is absent.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peer } from './peer.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const schemasDir = process.env.KAFKA_WIRE_SCHEMAS ?? join(repoRoot, '..', 'shared', 'kafka-schemas');
export const seedsDir = join(repoRoot, '..', 'shared', 'seeds');

/** Whether `dir` is here for `what` (the peer rule: in CI a missing one fails the test). */
export function haveDir(dir: string, what: string): boolean {
  return peer(`${dir} (for ${what})`, existsSync(dir), 'check out the steering repo\'s shared/ beside this one, or set KAFKA_WIRE_SCHEMAS');
}

/**
 * Key/version/direction triples in the built-in catalogue: what a test that walks every message
 * must have visited. The catalogue's own size, checked against the schema directory by
 * test/generate.test.ts, so no count is written down twice.
 */
export async function catalogueTriples(): Promise<number> {
  const { apis } = await import('../../src/generated/catalogue.js');
  return 2 * apis.reduce((n, a) => n + a.request.validVersions[1] - a.request.validVersions[0] + 1, 0);
}
