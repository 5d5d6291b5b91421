// kafka-wire/catalogue where there is no file system (package.json's "browser" and "workerd"
// conditions): catalogues from schema objects work; loading them from a directory throws
// UnsupportedRuntimeError when used.
import { runtimeName, UnsupportedRuntimeError } from '../errors.js';

export * from './index.js';
export { KAFKA_JAR_SCHEMAS, KAFKA_SOURCE_SCHEMAS } from './schema-places.js';

export function loadCatalogue(..._: unknown[]): never {
  throw new UnsupportedRuntimeError(runtimeName(), 'file system (node:fs) to load schema files from a directory', 'build the catalogue from schema objects instead');
}

export function messageSchemasDir(..._: unknown[]): never {
  throw new UnsupportedRuntimeError(runtimeName(), 'file system (node:fs) to look for schema files in a directory', 'build the catalogue from schema objects instead');
}
