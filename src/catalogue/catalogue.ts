// Catalogues: the APIs a codec call may look up by key, with the headers they travel with. The
// built-in one is src/generated/; others are built at run time from Kafka-format JSON (texts or
// objects, so browsers too) and every by-key function takes one as `{ catalogue }`. A run-time
// catalogue extends a base (the built-in one unless told otherwise): the schemas it is given add
// API keys or replace the base's definition of a key, versions and all.
import { apis as builtInApis } from '../generated/catalogue.js';
import type { ApiDef, MessageDef } from '../codec/schema.js';
import { KafkaWireError } from '../errors.js';
import { builtInRequestHeader, builtInResponseHeader, withHeader } from './headers.js';
import { checkHeaderVersions, parseSchemas, type SchemaJson } from './parse.js';

export interface Catalogue {
  /** Every API, sorted by key. */
  readonly apis: readonly ApiDef[];
  readonly requestHeader: MessageDef;
  readonly responseHeader: MessageDef;
  /** The API with this key, or undefined. */
  api(apiKey: number): ApiDef | undefined;
}

/** The option every by-key function takes; without it, the built-in catalogue. */
export interface CatalogueOption {
  catalogue?: Catalogue;
}

export interface CatalogueParts {
  apis: Iterable<ApiDef>;
  /** Absent: the base's (the built-in ones without a base). */
  requestHeader?: MessageDef;
  responseHeader?: MessageDef;
}

export interface CatalogueOptions {
  /** The catalogue extended: the built-in one by default, null for only the given schemas. */
  base?: Catalogue | null;
}

/** A catalogue of `parts` over `base`: its APIs replace the base's of the same key. */
export function createCatalogue(parts: CatalogueParts, options: CatalogueOptions = {}): Catalogue {
  const base = options.base === undefined ? builtInCatalogue : options.base;
  const requestHeader = sameHeader(parts.requestHeader, base?.requestHeader ?? builtInRequestHeader);
  const responseHeader = sameHeader(parts.responseHeader, base?.responseHeader ?? builtInResponseHeader);
  const byKey: (ApiDef | undefined)[] = []; // indexed by key: the lookup every by-key call makes
  const bind = (api: ApiDef): ApiDef => {
    const request = withHeader(api.request, requestHeader);
    const response = withHeader(api.response, responseHeader);
    return request === api.request && response === api.response ? api : { ...api, request, response };
  };
  for (const api of base?.apis ?? []) byKey[api.apiKey] = bind(api);
  for (const api of parts.apis) {
    checkHeaderVersions(api.request, requestHeader);
    checkHeaderVersions(api.response, responseHeader);
    byKey[api.apiKey] = bind(api);
  }
  const apis = byKey.filter((api) => api !== undefined); // a sparse array's filter skips the holes, in key order
  return { apis, requestHeader, responseHeader, api: (apiKey) => (Number.isInteger(apiKey) ? byKey[apiKey] : undefined) };
}

/** A catalogue from Kafka-format schemas (each a file's text, comments allowed, or its object). */
export function catalogueFromSchemas(schemas: Iterable<string | SchemaJson>, options: CatalogueOptions = {}): Catalogue {
  return createCatalogue(parseSchemas(schemas), options);
}

/** The schema's header, or `fallback` when it has none or one with the same facts (so plans are shared). */
function sameHeader(header: MessageDef | undefined, fallback: MessageDef): MessageDef {
  return header === undefined || sameFacts(header, fallback) ? fallback : header;
}

/** Deep equality of plain catalogue data (objects, arrays, primitives, bigint), key order aside. */
function sameFacts(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as any)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as any)[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => sameFacts((a as any)[k], (b as any)[k]));
}

export const builtInCatalogue: Catalogue = createCatalogue(
  { apis: builtInApis, requestHeader: builtInRequestHeader, responseHeader: builtInResponseHeader }, { base: null });

/** The API with this key in `catalogue` (default the built-in one), or a typed UNSUPPORTED_API error. */
export function catalogueApi(apiKey: number, options?: CatalogueOption): ApiDef {
  const catalogue = options?.catalogue ?? builtInCatalogue;
  const api = catalogue.api(apiKey);
  if (api === undefined) {
    throw new KafkaWireError('UNSUPPORTED_API', -1, '', `no API with key ${apiKey} in the catalogue (it has keys ${keyRanges(catalogue)})`);
  }
  return api;
}

/** The catalogue's keys as runs: "0-48, 50-89, 1000". */
function keyRanges(catalogue: Catalogue): string {
  const runs: string[] = [];
  const keys = catalogue.apis.map((a) => a.apiKey);
  for (let i = 0; i < keys.length; i++) {
    let j = i;
    while (j + 1 < keys.length && keys[j + 1] === keys[j] + 1) j++;
    runs.push(i === j ? `${keys[i]}` : `${keys[i]}-${keys[j]}`);
    i = j;
  }
  return runs.length === 0 ? 'none' : runs.join(', ');
}
