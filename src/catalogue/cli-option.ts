// The command line's `--schemas DIR`: the catalogue every command uses, the built-in one extended
// with DIR's schemas (an API key the package does not know, a newer version of one it does).
import { loadCatalogue } from './node.js';
import type { Catalogue } from './catalogue.js';

const loaded = new Map<string, Catalogue>();

/** The catalogue `--schemas DIR` names, or undefined (the built-in one) without it or with --no-schemas. */
export function catalogueFromOptions(options: ReadonlyMap<string, string | true>): Catalogue | undefined {
  if (options.has('--no-schemas')) return undefined;
  const dir = options.get('--schemas');
  if (typeof dir !== 'string') return undefined;
  let catalogue = loaded.get(dir);
  if (catalogue === undefined) loaded.set(dir, (catalogue = loadCatalogue(dir)));
  return catalogue;
}
