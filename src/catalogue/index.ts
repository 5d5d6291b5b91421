// Run-time catalogues, browser-safe: build one from Kafka-format JSON texts or objects and hand
// it to any by-key function as `{ catalogue }`. ./node.ts adds loading a schema directory.
export {
  builtInCatalogue, catalogueFromSchemas, createCatalogue,
  type Catalogue, type CatalogueOption, type CatalogueOptions, type CatalogueParts,
} from './catalogue.js';
export { parseMessage, parseSchemas, parseSchemaText, schemaJsonOf, SchemaError, type ParsedSchemas, type SchemaJson } from './parse.js';
