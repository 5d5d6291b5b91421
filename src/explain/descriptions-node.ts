// Reads descriptions and schema text from a schema directory (Node only).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addSchemaText, descriptionsFrom, type DescriptionTable, type Descriptions } from './descriptions.js';
import { messageSchemasDir } from '../catalogue/node.js';
import { kafkaRelease } from '../generated/catalogue.js';

const tables = new Map<string, DescriptionTable>();

/** The file of a message's schema, e.g. AlterClientQuotasRequest.json; null when absent. */
function schemaFile(dir: string, messageName: string): string | null {
  const file = path.join(dir, `${messageName}.json`);
  return fs.existsSync(file) ? file : null;
}

export function readSchemaText(dir: string, messageName: string): string | null {
  const file = schemaFile(dir, messageName);
  return file === null ? null : fs.readFileSync(file, 'utf8');
}

/**
 * The about texts of the schema directory. With `messages`, only those schema files are read
 * (and added to what earlier calls read); without, every *.json file.
 */
export function loadDescriptionTable(dir: string, messages?: readonly string[]): DescriptionTable {
  const key = path.resolve(dir);
  let table = tables.get(key);
  if (table === undefined) tables.set(key, (table = {}));
  const names = messages ?? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  for (const name of names) {
    if (table[name] !== undefined) continue;
    const text = readSchemaText(dir, name);
    if (text === null) { table[name] = {}; continue; }
    try {
      addSchemaText(table, text);
    } catch {
      table[name] = {};
    }
  }
  return table;
}

/** The descriptions of `root`'s schemas (a schema directory, or a Kafka source tree or unpacked kafka-clients jar). */
export function loadDescriptions(root: string, messages?: readonly string[]): Descriptions {
  if (!fs.existsSync(root)) throw new Error(`schema directory ${root} does not exist`);
  return descriptionsFrom(loadDescriptionTable(messageSchemasDir(root), messages));
}

/** The repository (or installed package) root: the nearest directory up with our package.json. */
function packageRoot(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      try {
        if (JSON.parse(fs.readFileSync(file, 'utf8')).name === 'kafka-wire') return dir;
      } catch { /* keep looking */ }
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The schema directory descriptions come from by default: $KAFKA_WIRE_SCHEMAS, else the schema
 * pipeline's build/kafka-schemas/<release> of the catalogue's release (npm run schemas), else
 * ../shared/kafka-schemas beside the repository; undefined when none exists.
 */
export function defaultSchemasDir(): string | undefined {
  const env = typeof process !== 'undefined' ? process.env.KAFKA_WIRE_SCHEMAS : undefined;
  if (env && fs.existsSync(env)) return env;
  const root = packageRoot();
  if (root === null) return undefined;
  const candidates = [
    ...(kafkaRelease === null ? [] : [pipelineSchemasDir(root, kafkaRelease)]),
    path.join(root, '..', 'shared', 'kafka-schemas'),
  ];
  return candidates.find((dir) => fs.existsSync(dir));
}

/** Where `npm run schemas` writes a release's schema directory under the repository `root`. */
export function pipelineSchemasDir(root: string, release: string): string {
  return path.join(root, 'build', 'kafka-schemas', release);
}
