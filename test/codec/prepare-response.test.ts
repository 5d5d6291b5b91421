// prepareResponse: the readers of a response are made ahead of its answer (what the connection
// does once a request is written), so the first decode of that kind generates none, and decodes
// the same. Counted on the code generator (generate.ts), wrapped for this file.
import { describe, expect, it, vi } from 'vitest';
import * as generate from '../../src/codec/generate.js';
import { decodeResponse, encodeResponse, newMessage } from '../../src/index.js';
import { prepareResponse } from '../../src/codec/by-key.js';

vi.mock('../../src/codec/generate.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/codec/generate.js')>();
  return { ...real, generateReader: vi.fn(real.generateReader) };
});

describe('prepareResponse', () => {
  it('makes a Fetch response\'s readers before the answer: its first decode makes none, and reads the same', () => {
    const frame = encodeResponse(1, 12, { correlationId: 3 }, newMessage(1, 'response', 12, {
      responses: [{ topic: 'orders', partitions: [{ partitionIndex: 2, errorCode: 0, highWatermark: 7n, lastStableOffset: 7n, records: Uint8Array.of(1, 2, 3) }] }],
    }));
    const made = vi.mocked(generate.generateReader);
    prepareResponse(1, 12);
    const prepared = made.mock.calls.length;
    expect(prepared).toBeGreaterThan(0);
    prepareResponse(1, 12);
    expect(made.mock.calls.length).toBe(prepared);
    const body = decodeResponse(frame, 1, 12).body;
    expect(made.mock.calls.length).toBe(prepared);
    expect(body.responses[0]!.topic).toBe('orders');
    expect(body.responses[0]!.partitions[0]!.highWatermark).toBe(7n);
    expect([...body.responses[0]!.partitions[0]!.records!]).toEqual([1, 2, 3]);
  });
});
