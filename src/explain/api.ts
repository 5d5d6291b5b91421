// The browser-safe part of explain (no file access): what src/index.ts can re-export without
// pulling node:fs into browser bundles. explainFrame with `schemasDir` lives in ./index.ts.
export { buildExplainTree, flattenTree, CATEGORIES } from './tree.js';
export type { ExplainTree, ExplainNode, ExplainOptions, Category, JsonValue } from './tree.js';
export { formatExplainText, formatExplainJson, formatNodeLine } from './format.js';
export {
  hexLayout, formatHexText, formatHexHtml, formatTreeHtml, formatLegendHtml, parseHexInput, spacedHex, isHexText, escapeHtml,
  type HexLayout, type HexByte,
} from './hex.js';
export { sampleMessage, sampleFrame, sampleHeader, sampleStruct, sampleRecordBatch, EMPTY_BATCH_SIZE } from './samples.js';
export { realisticMessage, realisticFrame, type RealisticOptions } from './realistic.js';
export {
  descriptionsFrom, noDescriptions, truncateDescription, addSchemaText, stripJsonComments,
  type Descriptions, type DescriptionTable,
} from './descriptions.js';
