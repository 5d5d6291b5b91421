// The library as the explorer site's browser scripts reach it: through this module only. In Node
// (tests, type checks) it is the modules themselves; in the site's pages it is the one browser
// bundle (kafka-wire/browser), loaded first as assets/kafka-wire.js, whose global this module
// becomes when the scripts are bundled (src/site/bundling.ts), so no page carries a second copy.
// Every name here must be one the browser bundle exports (test/site/bundling.test.ts checks).
export { builtInCatalogue, catalogueFromSchemas } from '../catalogue/index.js';
export type { SchemaJson } from '../catalogue/index.js';
export { decodeRequest, decodeResponse, encodeRequest, findApi, newMessage, peekRequest, type Direction } from '../codec/by-key.js';
export { decodeRecordBatches, encodeRecordBatch } from '../records/index.js';
export {
  buildExplainTree, descriptionsFrom, escapeHtml, formatExplainText, formatHexHtml, formatNodeLine, formatTreeHtml, hexLayout,
  isHexText, parseHexInput, sampleFrame, spacedHex,
  type DescriptionTable, type Descriptions, type ExplainNode, type ExplainTree,
} from '../explain/api.js';
export {
  formatCaptureTime, readCaptureStream, tcpSegment, LINKTYPE_ETHERNET, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_RAW,
  type CaptureEvent, type CaptureFrame,
} from '../capture/index.js';
