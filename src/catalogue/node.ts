// The Node entry of run-time catalogues (kafka-wire/catalogue): loadCatalogue reads a directory
// of Kafka's JSON message schemas. Kept apart so browser bundles never pull in node:fs.
import fs from 'node:fs';
import path from 'node:path';
import { catalogueFromSchemas, type Catalogue, type CatalogueOptions } from './catalogue.js';
import { parseSchemaText } from './parse.js';

export * from './index.js';

import { KAFKA_JAR_SCHEMAS, KAFKA_SOURCE_SCHEMAS } from './schema-places.js';

export { KAFKA_JAR_SCHEMAS, KAFKA_SOURCE_SCHEMAS };

/**
 * The directory of message schemas that `dir` names: `dir` itself when it holds *.json files,
 * else Kafka's own place for them under it (`dir` a Kafka source tree, or an unpacked
 * kafka-clients jar), so a user can name the root they have.
 */
export function messageSchemasDir(dir: string): string {
  const hasSchemas = (d: string) => {
    try {
      return fs.statSync(d).isDirectory() && fs.readdirSync(d).some((f) => f.endsWith('.json'));
    } catch {
      return false;
    }
  };
  if (hasSchemas(dir)) return dir;
  return [KAFKA_SOURCE_SCHEMAS, KAFKA_JAR_SCHEMAS].map((sub) => path.join(dir, sub)).find(hasSchemas) ?? dir;
}

/**
 * A catalogue of every *.json schema in `dir` (or in Kafka's source tree or unpacked
 * kafka-clients jar at `dir`: messageSchemasDir) (requests, responses and headers; other types are
 * skipped) over the built-in one, or over `options.base`.
 */
export function loadCatalogue(root: string, options?: CatalogueOptions): Catalogue {
  const dir = messageSchemasDir(root);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`schema directory ${dir} does not exist`);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const schemas = files.map((file) => parseSchemaText(fs.readFileSync(path.join(dir, file), 'utf8'), file));
  return catalogueFromSchemas(schemas, options);
}
