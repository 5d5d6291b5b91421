// The fetch loop has the records engine made before its first answer: a Fetcher starts compiling
// the WebAssembly module asynchronously (off the main thread) when it is made, while the
// consumer still joins its group and looks up offsets, once however many Fetchers there are;
// the first answer then decodes with that instance instead of compiling one synchronously.
// A file of its own: the module's instance is per module graph, and vitest gives each file one.
import { describe, expect, it, vi } from 'vitest';
import { Fetcher, type FetcherOptions } from '../../src/consumer/fetcher.js';
import type { KafkaClient } from '../../src/wire/client.js';
import { decodeRecordBatches, encodeRecordBatch } from '../../src/records/index.js';

const options: FetcherOptions = {
  isolationLevel: 0, lazy: true, maxWaitMs: 100, maxBytes: 1 << 20, partitionMaxBytes: 1 << 20, maxBufferedBytes: 1 << 20,
  deliver: () => undefined, failed: () => undefined,
};

describe('the records engine, made early for the fetch loop', () => {
  it('a new Fetcher compiles it asynchronously, once, and the first decode compiles nothing more', async () => {
    const compile = vi.spyOn(WebAssembly, 'compile');
    const instantiate = vi.spyOn(WebAssembly, 'instantiate');
    const client = {} as KafkaClient;
    new Fetcher(client, options);
    new Fetcher(client, options);
    expect(compile).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(instantiate).toHaveBeenCalledTimes(1));
    await instantiate.mock.results[0]!.value;
    const syncModule = vi.spyOn(WebAssembly, 'Module');
    const bytes = encodeRecordBatch({ records: [{ key: 'k', value: 'v' }] });
    expect(decodeRecordBatches(bytes, { lazy: true }).batches[0]!.recordCount).toBe(1);
    expect(syncModule).not.toHaveBeenCalled();
  });
});
