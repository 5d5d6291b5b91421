// Where the scripts find Kafka's schemas: the releases kafka/schemas/pom.xml names (the one place
// they are written down), and the schema directory `npm run generate` reads by default: the
// pipeline's build/kafka-schemas/<release>/ when `npm run schemas` has made it, else
// ../shared/kafka-schemas beside the repository.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const schemasPom = path.join(repoRoot, 'kafka', 'schemas', 'pom.xml');

/** A property's value in kafka/schemas/pom.xml, e.g. kafka.version. */
export function pomProperty(name) {
  const m = new RegExp(`<${name.replace(/\./g, '\\.')}>([^<]+)</`).exec(fs.readFileSync(schemasPom, 'utf8'));
  if (!m) throw new Error(`${schemasPom} has no <${name}>`);
  return m[1].trim();
}

/** The pipeline's output directory for a release. */
export function pipelineDir(release = pomProperty('kafka.version')) {
  return path.join(repoRoot, 'build', 'kafka-schemas', release);
}

/** The schema directory to read when none is given. */
export function defaultSchemaDir() {
  const built = pipelineDir();
  if (fs.existsSync(built)) return built;
  return path.join(repoRoot, '..', 'shared', 'kafka-schemas');
}
