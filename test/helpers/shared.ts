// Where the shared material lives, and a visible skip when it is absent. Schema directories: the
// one the built-in catalogue was generated from (the schema pipeline's build/kafka-schemas/<release>,
// made by npm run schemas) for tests that compare the two, and the one field descriptions come
// from by default (that one, else ../shared/kafka-schemas) for tests that need only the texts.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaRelease } from '../../src/generated/catalogue.js';
import { defaultSchemasDir, pipelineSchemasDir } from '../../src/explain/descriptions-node.js';
import { peer } from './peer.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built command line as users run it: package.json's bin (npm run build makes it). */
export const builtBin = join(repoRoot, JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).bin['kafka-wire']);
/** The schema directory of field descriptions ($KAFKA_WIRE_SCHEMAS, the pipeline's, ../shared's). */
export const schemasDir = defaultSchemasDir() ?? join(repoRoot, '..', 'shared', 'kafka-schemas');
/** The schema directory the built-in catalogue was generated from ($KAFKA_WIRE_SCHEMAS, else the pipeline's). */
export const catalogueSchemasDir = process.env.KAFKA_WIRE_SCHEMAS ?? pipelineSchemasDir(repoRoot, kafkaRelease ?? 'unknown');
export const seedsDir = join(repoRoot, '..', 'shared', 'seeds');

/** Whether `dir` is here for `what` (the peer rule: in CI a missing one fails the test). */
export function haveDir(dir: string, what: string): boolean {
  return peer(`${dir} (for ${what})`, existsSync(dir), 'check out the steering repo\'s shared/ beside this one, or set KAFKA_WIRE_SCHEMAS');
}

/**
 * Whether the catalogue's schema directory is here, by the peer rule: CI runs the pipeline before
 * the tests, so there a missing one fails; elsewhere the test skips with one line.
 */
export function haveCatalogueSchemas(): boolean {
  return peer(`the catalogue's schema directory ${catalogueSchemasDir}`, existsSync(catalogueSchemasDir),
    'npm run schemas: Java 17 and Maven resolve Kafka\'s jars from Maven Central');
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
