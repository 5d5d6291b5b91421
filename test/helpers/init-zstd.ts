// Vitest setup: loads zstd's WebAssembly once per test file, as an application does with
// `await initZstd()` before compressing zstd. test/records/zstd-init.test.ts checks the error
// without it in a fresh process.
import { initZstd } from '../../src/records/index.js';

await initZstd();
