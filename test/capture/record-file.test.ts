// The recording proxy's capture file writer: past the page cache or through it, in either format,
// the file it leaves is byte for byte the capture writer's file of the same packets, across
// buffer boundaries, quiet-spell flushes that end mid-block, and a record larger than a buffer.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureFileWriter, TcpConversation, encodePacketHeaders, LINKTYPE_ETHERNET, type Packet } from '../../src/capture/index.js';
import { CaptureRecordFile, RECORD_BUFFER } from '../../src/capture/record-file.js';
import { CLIENT, SERVER } from './helpers.js';
import { waitUntil } from '../helpers/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-record-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Packets as the proxy makes them (headers apart from a payload), of sizes from 1 byte to a segment's most. */
function packets(count: number): Packet[] {
  const tcp = new TcpConversation(CLIENT, SERVER, undefined, false);
  const out: Packet[] = [];
  let time = 1_700_000_000_000_000_000n;
  const add = (segments: ReturnType<TcpConversation['open']>) => {
    for (const s of segments) out.push({ timeNs: s.timeNs, data: encodePacketHeaders(LINKTYPE_ETHERNET, s, false), payload: s.payload });
  };
  add(tcp.open(time));
  for (let i = 0; i < count; i++) {
    const size = [1, 3, 999, 4093, 65483, 70000][i % 6];
    add(tcp.send(i % 2 === 0, new Uint8Array(size).fill(i & 0xff), (time += 1_000_123n)));
  }
  add(tcp.close(time));
  return out;
}

const written = async (file: string) => new Uint8Array(readFileSync(file));

/** Byte for byte (toEqual on megabytes walks them one by one). */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length);
  const first = actual.findIndex((b, i) => b !== expected[i]);
  expect(first, `first differing byte at ${first}`).toBe(-1);
}

describe('a recording proxy\'s capture file', () => {
  for (const direct of [true, false]) for (const format of ['pcap', 'pcapng'] as const) {
    it(`${format}, ${direct ? 'past the page cache where allowed' : 'through the page cache'}: the capture writer's file of the same packets`, async () => {
      const file = join(dir, `${direct}.${format}`);
      const all = packets(150);
      const recording = new CaptureRecordFile(file, { format, direct });
      if (!direct) expect(recording.writesDirect).toBe(false);
      const half = all.length / 2;
      for (const p of all.slice(0, half)) recording.write(p);
      // A quiet spell (RECORD_FLUSH_MS): what is buffered is written, ending inside a block.
      const flushed = new CaptureFileWriter({ format, nanoseconds: true }).file(all.slice(0, half)).length;
      await waitUntil(async () => (await written(file)).length >= flushed, `the first ${flushed} bytes to be written after a quiet spell`);
      const early = await written(file);
      const expected = new CaptureFileWriter({ format, nanoseconds: true }).file(all);
      expect(early.length % 4096).toBe(0);
      expectSameBytes(early.subarray(0, flushed), expected.subarray(0, flushed));
      for (const p of all.slice(half)) recording.write(p);
      await recording.close();
      const bytes = await written(file);
      expect(bytes.length).toBeGreaterThan(3 * RECORD_BUFFER);
      expectSameBytes(bytes, expected);
    });
  }

  it('takes a record larger than its buffers', async () => {
    const file = join(dir, 'large.pcap');
    const small = packets(2);
    const large: Packet = { timeNs: 1_800_000_000_000_000_000n, data: new Uint8Array(54).fill(9), payload: new Uint8Array(RECORD_BUFFER + 12345).fill(7) };
    const all = [...small, large, ...small];
    const recording = new CaptureRecordFile(file, {});
    for (const p of all) recording.write(p);
    await recording.close();
    expectSameBytes(await written(file), new CaptureFileWriter({ nanoseconds: true }).file(all));
  });
});
