// kafka-wire/explain where there is no file system (package.json's "browser" and "workerd"
// conditions): everything but reading Kafka's schema files, which throws UnsupportedRuntimeError
// when used (pass `descriptions` instead of `schemasDir`).
import { runtimeName, UnsupportedRuntimeError } from '../errors.js';
import { buildExplainTree, type ExplainTree } from './tree.js';
import type { ExplainFrameOptions } from './index.js';

export * from './api.js';
export type { ExplainFrameOptions } from './index.js';

function refuse(): never {
  throw new UnsupportedRuntimeError(runtimeName(), 'file system (node:fs) to read schema files', 'pass `descriptions` instead of `schemasDir`');
}
export function explainFrame(frame: Uint8Array, options: ExplainFrameOptions): ExplainTree {
  if (options.descriptions === undefined && options.schemasDir !== undefined) refuse();
  return buildExplainTree(frame, options);
}
export function loadDescriptions(..._: unknown[]): never { return refuse(); }
export function loadDescriptionTable(..._: unknown[]): never { return refuse(); }
export function readSchemaText(..._: unknown[]): never { return refuse(); }
export function defaultSchemasDir(): undefined { return undefined; }
