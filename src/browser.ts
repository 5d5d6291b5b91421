// The one-file browser build (kafka-wire/browser): the protocol codec and the records layer
// together. zstd's WebAssembly stays in its own chunk and asset, fetched only by initZstd().
export * from './index.js';
export * from './records/index.js';
