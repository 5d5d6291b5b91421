// The capture file reader fed in small chunks: the same packets as from the whole file, whatever
// the chunk sizes, and the pieces it joins add up to a bounded multiple of the file's size (the
// join is counted, not timed), so a file that arrives a byte at a time is read in linear time.
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { CaptureFileReader, type CapturedPacket } from '../../src/capture/index.js';
import { captureOf, conversationSegments, sampleExchanges } from './helpers.js';

/** Bytes the reader has copied to join chunks, counted through the one helper it joins with. */
const joined = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('../../src/bytes.js', async (original) => {
  const actual = await original<typeof import('../../src/bytes.js')>();
  return {
    ...actual,
    concatBytes: (pieces: readonly Uint8Array[], total: number) => {
      if (pieces.length > 1) joined.bytes += total;
      return actual.concatBytes(pieces, total);
    },
  };
});

function readInChunks(bytes: Uint8Array, sizes: (i: number) => number): CapturedPacket[] {
  const reader = new CaptureFileReader();
  const out: CapturedPacket[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes(i));
    // A copy, as a stream's chunks are: nothing may rely on the chunks sharing one buffer.
    out.push(...reader.push(bytes.slice(at, at + n)));
    at += n;
  }
  reader.end();
  return out;
}

function readWhole(bytes: Uint8Array): CapturedPacket[] {
  const reader = new CaptureFileReader();
  const out = reader.push(bytes);
  reader.end();
  return out;
}

// Segments of several sizes, the largest a few kilobytes: a reader that joined every buffered
// piece on every push would copy each record about length²/2 bytes a byte at a time.
const { segments } = conversationSegments(sampleExchanges(), { maxSegment: 4000 });
const files = {
  pcap: captureOf(segments, { format: 'pcap' }),
  'pcapng, big-endian, nanoseconds': captureOf(segments, { format: 'pcapng', bigEndian: true, nanoseconds: true }),
};

describe('a capture file read in chunks', () => {
  for (const [name, bytes] of Object.entries(files)) {
    it(`${name}: a byte at a time, the same packets as the whole file, joining at most 3 bytes per file byte`, () => {
      const whole = readWhole(bytes);
      expect(whole.length).toBe(segments.length);
      expect(Math.max(...whole.map((p) => p.data.length))).toBeGreaterThan(2000);
      joined.bytes = 0;
      const byBytes = readInChunks(bytes, () => 1);
      expect(byBytes).toEqual(whole);
      expect(joined.bytes).toBeGreaterThan(0);
      expect(joined.bytes).toBeLessThanOrEqual(3 * bytes.length);
    });

    it(`${name}: random chunk sizes, the same packets, the joins bounded the same way`, () => {
      const whole = readWhole(bytes);
      fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 50 }), (sizes) => {
        joined.bytes = 0;
        expect(readInChunks(bytes, (i) => sizes[i % sizes.length])).toEqual(whole);
        expect(joined.bytes).toBeLessThanOrEqual(3 * bytes.length);
      }), { numRuns: 60 });
    });
  }

  it('a file cut inside a record still says where, after small chunks', () => {
    const bytes = files.pcap.subarray(0, files.pcap.length - 5);
    expect(() => readInChunks(bytes, () => 3)).toThrow(/TRUNCATED|ends \d+ bytes into the packet/);
  });
});
