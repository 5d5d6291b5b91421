// Seeing the bytes: explain trees, hex layouts and sample messages. This entry adds what reads
// files (explainFrame with `schemasDir`, the descriptions loader); ./api.ts is the browser-safe rest.
import { findApi, peekRequest } from '../codec/by-key.js';
import type { Descriptions } from './descriptions.js';
import { loadDescriptions } from './descriptions-node.js';
import { buildExplainTree, type ExplainOptions, type ExplainTree } from './tree.js';

export * from './api.js';
export { loadDescriptions, loadDescriptionTable, defaultSchemasDir, readSchemaText } from './descriptions-node.js';

export interface ExplainFrameOptions extends ExplainOptions {
  /** A directory of Kafka's JSON message schemas: field descriptions come from their "about". */
  schemasDir?: string;
}

/**
 * Explains a whole frame (int32 size prefix, header, body): every byte attributed to a node.
 * Requests carry their API key and version; responses need `apiKey` and `apiVersion`.
 */
export function explainFrame(frame: Uint8Array, options: ExplainFrameOptions): ExplainTree {
  let descriptions: Descriptions | undefined = options.descriptions;
  if (descriptions === undefined && options.schemasDir !== undefined) {
    const apiKey = options.direction === 'request' ? peekRequest(frame).apiKey : options.apiKey;
    const api = apiKey === undefined ? undefined : findApi(apiKey, options);
    // Only the one message's schema (an unknown key fails in buildExplainTree, with nothing read).
    if (api !== undefined) descriptions = loadDescriptions(options.schemasDir, [api[options.direction].name]);
  }
  return buildExplainTree(frame, { ...options, descriptions });
}
