// The decode page's input forms: Wireshark's hex dump, frames back to back, a whole packet.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { framesOf, parseFrameText, parseHexDump, splitFrames } from '../../src/site/frame-input.js';
import { encodeRequest } from '../../src/codec/by-key.js';
import { CaptureFileWriter, TcpConversation, encodePacket, LINKTYPE_ETHERNET } from '../../src/capture/index.js';
import { tsharkInfo } from '../peers/tshark.js';

const a = encodeRequest({ requestApiKey: 18, requestApiVersion: 3, correlationId: 1, clientId: 'c' }, { clientSoftwareName: 'kw', clientSoftwareVersion: '1' });
const b = encodeRequest({ requestApiKey: 3, requestApiVersion: 12, correlationId: 2, clientId: 'c' }, { topics: null });
const both = new Uint8Array([...a, ...b]);

describe('decode page input', () => {
  it('reads Wireshark\'s hex dump, whose ASCII column may look like hex', () => {
    const dump = [
      '0000   00 00 00 1b 00 12 00 03 00 00 00 01 00 01 63 00   ..............c.',
      '0010   03 6b 77 02 31 00 00 00 00 00 00 00 00 00 00      .kw.1..........',
    ].join('\n');
    expect(parseHexDump(dump)).toEqual(Uint8Array.from([
      0, 0, 0, 0x1b, 0, 0x12, 0, 3, 0, 0, 0, 1, 0, 1, 0x63, 0, 3, 0x6b, 0x77, 2, 0x31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]));
    expect(parseHexDump('00 01 02')).toBeNull();
    expect(parseFrameText('00 01 02')).toEqual(Uint8Array.from([0, 1, 2]));
  });

  it.skipIf(!tsharkInfo().ok)('reads tshark\'s own hex dump of a packet, and takes the frames from its TCP payload', () => {
    const c = new TcpConversation({ ip: '127.0.0.1', port: 50000 }, { ip: '127.0.0.1', port: 9092 });
    c.open(1n);
    c.send(true, both, 2n);
    const writer = new CaptureFileWriter();
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-dump-'));
    try {
      const file = join(dir, 'one.pcap');
      writeFileSync(file, writer.file(c.segments.map((s) => ({ timeNs: s.timeNs, data: encodePacket(LINKTYPE_ETHERNET, s) }))));
      const dump = execFileSync('tshark', ['-r', file, '-x', '-Y', 'frame.number==4'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const bytes = parseFrameText(dump)!;
      expect(bytes.length).toBe(14 + 20 + 20 + both.length);
      expect(framesOf(bytes)).toEqual({ frames: [a, b], fromPacket: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('splits frames back to back, and leaves what does not line up as one', () => {
    expect(splitFrames(both)).toEqual([a, b]);
    expect(splitFrames(both.subarray(0, both.length - 1))).toBeNull();
    expect(framesOf(both.subarray(0, 10))).toEqual({ frames: [both.subarray(0, 10)], fromPacket: false });
  });
});
