// The one-file browser build (kafka-wire/browser): the protocol codec, the records layer and the
// capture reader together. zstd's WebAssembly stays in its own chunk and asset, fetched only by
// initZstd(). The explorer site loads this same file (as a classic script, see src/site/bundling.ts).
export * from './index.js';
export * from './records/index.js';
export * from './capture/index.js';
// Both layers name their options types alike: the codec's keep the names, the records' take a prefix.
export type { DecodeOptions, EncodeOptions } from './index.js';
export type { DecodeOptions as RecordsDecodeOptions, EncodeOptions as RecordsEncodeOptions } from './records/index.js';
