// The Node entry of run-time catalogues (kafka-wire/catalogue): loadCatalogue reads a directory
// of Kafka's JSON message schemas. Kept apart so browser bundles never pull in node:fs.
import fs from 'node:fs';
import path from 'node:path';
import { catalogueFromSchemas, type Catalogue, type CatalogueOptions } from './catalogue.js';
import { parseSchemaText } from './parse.js';

export * from './index.js';

/**
 * A catalogue of every *.json schema in `dir` (requests, responses and headers; other types are
 * skipped) over the built-in one, or over `options.base`.
 */
export function loadCatalogue(dir: string, options?: CatalogueOptions): Catalogue {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`schema directory ${dir} does not exist`);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const schemas = files.map((file) => parseSchemaText(fs.readFileSync(path.join(dir, file), 'utf8'), file));
  return catalogueFromSchemas(schemas, options);
}
