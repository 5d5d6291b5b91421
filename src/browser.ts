// The one-file browser build (kafka-wire/browser): the protocol codec and the records layer
// together. zstd's WebAssembly stays in its own chunk and asset, fetched only by initZstd().
export * from './index.js';
export * from './records/index.js';
// Both layers name their options types alike: the codec's keep the names, the records' take a prefix.
export type { DecodeOptions, EncodeOptions } from './index.js';
export type { DecodeOptions as RecordsDecodeOptions, EncodeOptions as RecordsEncodeOptions } from './records/index.js';
