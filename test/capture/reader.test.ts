// The capture reader on hand-made captures: every file format, byte order, timestamp resolution
// and link type; TCP segments out of order, repeated, overlapping, missing, or a capture that
// starts mid-connection; how the client is told; TLS, raw SASL tokens, unpaired responses and
// damaged files.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CaptureFileWriter, LINKTYPE_ETHERNET, LINKTYPE_IPV4, LINKTYPE_IPV6, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_LOOP,
  LINKTYPE_NULL, LINKTYPE_RAW, TcpConversation, encodePacket, encodePacketHeaders, readCapture, readCaptureStream, formatCaptureTime, type Segment,
} from '../../src/capture/index.js';
import { KafkaWireError } from '../../src/errors.js';
import { encodeRequest, encodeResponse } from '../../src/codec/by-key.js';
import { CLIENT, SERVER, captureOf, conversationSegments, dataSegments, readAll, sampleExchanges, sentFrames } from './helpers.js';

const exchanges = sampleExchanges();
const sent = sentFrames(exchanges);

/** The frames read back, as [direction, apiKey, apiVersion, correlationId, bytes]. */
function summary(frames: ReturnType<typeof readAll>['frames']) {
  return frames.map((f) => [f.direction, f.apiKey, f.apiVersion, f.correlationId, f.bytes]);
}

const expected = exchanges.flatMap((e, i) => {
  const key = new DataView(e.request.buffer).getInt16(4);
  const version = new DataView(e.request.buffer).getInt16(6);
  return [['request', key, version, i + 1, e.request], ['response', key, version, i + 1, e.response]];
});

describe('file formats', () => {
  const { segments } = conversationSegments(exchanges);
  const linkTypes = [LINKTYPE_ETHERNET, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_RAW, LINKTYPE_IPV4, LINKTYPE_NULL, LINKTYPE_LOOP];
  for (const format of ['pcap', 'pcapng'] as const) {
    for (const bigEndian of [false, true]) {
      for (const nanoseconds of [false, true]) {
        for (const linkType of linkTypes) {
          it(`${format}, ${bigEndian ? 'big' : 'little'}-endian, ${nanoseconds ? 'ns' : 'µs'}, link type ${linkType}`, () => {
            const { frames, notes } = readAll(captureOf(segments, { format, bigEndian, nanoseconds, linkType }));
            expect(notes).toEqual([]);
            expect(summary(frames)).toEqual(expected);
            expect(frames[0].conn).toBe('127.0.0.1:50123->127.0.0.1:9092');
            const first = segments.find((s) => s.payload.length > 0)!;
            // A frame's time is its last segment's; microsecond files drop the nanoseconds.
            const time = frames[0].timeNs;
            expect(time).toBe(nanoseconds ? first.timeNs : (first.timeNs / 1000n) * 1000n);
            expect(formatCaptureTime(time, frames[0].timeDigits)).toBe(nanoseconds ? '2023-11-14T22:13:20.125956791Z' : '2023-11-14T22:13:20.125956Z');
          });
        }
      }
    }
  }

  it('IPv6, over Ethernet and raw', () => {
    const { segments } = conversationSegments(exchanges, { client: { ip: '::1', port: 40000 }, server: { ip: 'fd00::1:0:0:9', port: 9092 } });
    for (const linkType of [LINKTYPE_ETHERNET, LINKTYPE_IPV6, LINKTYPE_LINUX_SLL2]) {
      const { frames, notes } = readAll(captureOf(segments, { linkType }));
      expect(notes).toEqual([]);
      expect(summary(frames)).toEqual(expected);
      expect(frames[0].conn).toBe('[::1]:40000->[fd00::1:0:0:9]:9092');
    }
  });

  it('a pcapng file of several sections and interfaces, each with its own link type and byte order', () => {
    const { segments } = conversationSegments(exchanges);
    const half = Math.floor(segments.length / 2);
    const parts: Uint8Array[] = [];
    const sections = [
      { options: { format: 'pcapng' as const, linkType: LINKTYPE_ETHERNET }, segments: segments.slice(0, half) },
      { options: { format: 'pcapng' as const, linkType: LINKTYPE_LINUX_SLL, bigEndian: true, nanoseconds: true }, segments: segments.slice(half) },
    ];
    for (const { options, segments: part } of sections) {
      const writer = new CaptureFileWriter(options);
      parts.push(writer.header(), ...part.map((s) => writer.record({ timeNs: s.timeNs, data: encodePacket(writer.linkType, s) })));
    }
    // A second interface block in the first section: packets on interface 0 still read.
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { bytes.set(p, at); at += p.length; }
    const { frames, notes } = readAll(bytes);
    expect(notes).toEqual([]);
    expect(summary(frames)).toEqual(expected);
  });

  it('reads the same from a stream in small chunks as from the whole file', async () => {
    const { segments } = conversationSegments(exchanges);
    for (const format of ['pcap', 'pcapng'] as const) {
      const bytes = captureOf(segments, { format });
      const whole = [...readCapture(bytes)];
      async function* chunks() {
        for (let i = 0; i < bytes.length; i += 7) yield bytes.slice(i, i + 7);
      }
      const streamed = [];
      for await (const e of readCaptureStream(chunks())) streamed.push(e);
      expect(streamed).toEqual(whole);
      const web = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(bytes.slice(0, 100)); c.enqueue(bytes.slice(100)); c.close(); } });
      const fromWeb = [];
      for await (const e of readCaptureStream(web)) fromWeb.push(e);
      expect(fromWeb).toEqual(whole);
    }
  });

  it('writes a packet whose payload is kept apart (the proxy\'s) as the same bytes as the whole packet', () => {
    const { segments } = conversationSegments(exchanges, { maxSegment: 333 });
    for (const options of [{ format: 'pcap' as const }, { format: 'pcapng' as const, bigEndian: true }, { format: 'pcapng' as const, nanoseconds: true }]) {
      const writer = new CaptureFileWriter(options);
      for (const s of segments) {
        for (const linkType of [LINKTYPE_ETHERNET, LINKTYPE_IPV4]) {
          const whole = writer.record({ timeNs: s.timeNs, data: encodePacket(linkType, s) });
          const apart = { timeNs: s.timeNs, data: encodePacketHeaders(linkType, s), payload: s.payload };
          expect(writer.record(apart)).toEqual(whole);
          // Written into a larger buffer at an odd place, over stale bytes, as a recorder does.
          expect(writer.recordLength(apart)).toBe(whole.length);
          const target = new Uint8Array(whole.length + 10).fill(0xee);
          expect(writer.writeRecord(apart, target, 7)).toBe(7 + whole.length);
          expect(target.subarray(7, 7 + whole.length)).toEqual(whole);
          expect([...target.subarray(0, 7), ...target.subarray(7 + whole.length)]).toEqual(new Array(10).fill(0xee));
        }
      }
    }
  });
});

describe('TCP reassembly', () => {
  const { segments } = conversationSegments(exchanges, { maxSegment: 300 });
  const data = dataSegments(segments);

  it('puts out-of-order segments back in order', () => {
    const reordered = [...segments];
    // Swap neighbours inside the Produce request (the largest frame) and elsewhere.
    for (const i of [data[3], data[5], data[7]]) [reordered[i], reordered[i + 1]] = [reordered[i + 1], reordered[i]];
    const { frames, notes } = readAll(captureOf(reordered));
    expect(notes).toEqual([]);
    expect(summary(frames)).toEqual(expected);
  });

  it('delivers retransmitted segments once', () => {
    const repeated = segments.flatMap((s, i) => (data.includes(i) && i % 2 === 0 ? [s, s] : [s]));
    const bytes = captureOf(repeated);
    const events = readCapture(bytes);
    const frames = [];
    let result = events.next();
    while (result.done !== true) { frames.push(result.value); result = events.next(); }
    expect(summary(frames.filter((f) => f.type === 'frame') as any)).toEqual(expected);
    expect(result.value.retransmissions).toBe(repeated.length - segments.length);
  });

  it('takes the new bytes of overlapping segments', () => {
    // Each data segment is resent as one covering its second half and the next segment's first half.
    const overlapping: Segment[] = [];
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i];
      overlapping.push(s);
      const next = segments[i + 1];
      if (s.payload.length > 1 && next !== undefined && next.source === s.source && next.payload.length > 1) {
        const from = s.payload.length >> 1;
        const joined = new Uint8Array(s.payload.length - from + (next.payload.length >> 1));
        joined.set(s.payload.subarray(from));
        joined.set(next.payload.subarray(0, next.payload.length >> 1), s.payload.length - from);
        overlapping.push({ ...s, seq: (s.seq + from) >>> 0, payload: joined });
      }
    }
    expect(overlapping.length).toBeGreaterThan(segments.length);
    const { frames, notes } = readAll(captureOf(overlapping));
    expect(notes).toEqual([]);
    expect(summary(frames)).toEqual(expected);
  });

  it('marks a lost segment as a gap, loses the frame it was in, and resumes at the next frame', () => {
    // Drop the second segment of the Produce request: it is the only frame lost.
    const produceStart = segments.findIndex((s) => s.payload.length > 0 && s.payload[4] === 0 && s.payload[5] === 0 && s.source === CLIENT);
    const lost = segments[produceStart + 1];
    const withGap = segments.filter((s) => s !== lost);
    const { frames, notes } = readAll(captureOf(withGap));
    expect(notes.map((n) => n.kind)).toEqual(['gap', 'resync']);
    expect(notes[0].message).toContain(`${lost.payload.length} bytes missing`);
    expect(notes[0].direction).toBe('request');
    // The Produce request is lost, so its response is unpaired.
    const kept = frames.map((f) => [f.direction, f.apiKey, f.correlationId, f.unpaired === true]);
    expect(kept).toEqual([
      ['request', 18, 1, false], ['response', 18, 1, false], ['request', 3, 2, false], ['response', 3, 2, false],
      ['response', null, 3, true],
    ]);
  });

  it('gives a hole up as lost when the peer has acknowledged past it, without waiting for the end', () => {
    const more = [...exchanges, {
      request: encodeRequest({ requestApiKey: 18, requestApiVersion: 0, correlationId: 4, clientId: null }, {}),
      response: encodeResponse(18, 0, { correlationId: 4 }, { errorCode: 0, apiKeys: [] }),
    }];
    const { segments } = conversationSegments(more, { maxSegment: 300 });
    // Drop the Produce request's second segment; the server's response acknowledges past it.
    const produceStart = segments.findIndex((s) => s.payload.length > 0 && s.payload[4] === 0 && s.payload[5] === 0 && s.source === CLIENT);
    const events = [...readCapture(captureOf(segments.filter((_, j) => j !== produceStart + 1)))];
    const gap = events.findIndex((e) => e.type === 'note' && e.kind === 'gap');
    const produceResponse = events.findIndex((e) => e.type === 'frame' && e.correlationId === 3);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(produceResponse);
    // The ApiVersions exchange after it reads normally.
    expect(events.filter((e) => e.type === 'frame' && e.correlationId === 4).map((e: any) => [e.direction, e.apiKey, e.unpaired])).toEqual([
      ['request', 18, undefined], ['response', 18, undefined],
    ]);
  });

  it('resynchronises a capture that starts mid-stream, inside a frame', () => {
    // No handshake, and the first packet is the middle of the Metadata request.
    const metadataStart = data.find((d) => segments[d].payload[5] === 3 && segments[d].source === CLIENT)!;
    const cut = segments.slice(metadataStart + 1);
    const { frames, notes } = readAll(captureOf(cut));
    expect(notes[0].kind).toBe('mid-stream');
    expect(notes.filter((n) => n.kind === 'resync').length).toBeGreaterThanOrEqual(1);
    // Frames from the Produce on decode and pair; the Metadata response is left out by the resync.
    const produce = frames.filter((f) => f.correlationId === 3);
    expect(produce.map((f) => [f.direction, f.apiKey, f.apiVersion])).toEqual([['request', 0, 9], ['response', 0, 9]]);
    expect(frames.every((f) => f.correlationId === 3 || f.unpaired === true)).toBe(true);
  });

  it('survives any segmentation and any reordering of neighbours', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2000 }), fc.array(fc.nat(), { maxLength: 20 }), (maxSegment, swaps) => {
      const { segments } = conversationSegments(exchanges, { maxSegment });
      const shuffled = [...segments];
      // Neighbours in one direction: a response is never captured before its request.
      for (const s of swaps) {
        const i = 3 + (s % Math.max(1, shuffled.length - 7));
        if (shuffled[i].source === shuffled[i + 1].source) [shuffled[i], shuffled[i + 1]] = [shuffled[i + 1], shuffled[i]];
      }
      const { frames } = readAll(captureOf(shuffled));
      expect(summary(frames)).toEqual(expected);
    }), { numRuns: 60 });
  });
});

describe('which side is the client', () => {
  it('is the SYN sender even on unusual ports', () => {
    const { segments } = conversationSegments(exchanges, { client: { ip: '10.0.0.1', port: 9092 }, server: { ip: '10.0.0.2', port: 31000 } });
    const { frames } = readAll(captureOf(segments));
    expect(frames[0].conn).toBe('10.0.0.1:9092->10.0.0.2:31000');
    expect(summary(frames)).toEqual(expected);
  });

  it('is the side talking to --port when there is no SYN, else the side whose bytes open with a request', () => {
    const server = { ip: '10.0.0.2', port: 31000 };
    const { segments } = conversationSegments(exchanges, { server });
    const noSyn = segments.slice(3);
    const byPort = readAll(captureOf(noSyn), { port: 31000 });
    expect(byPort.frames[0].conn).toBe('127.0.0.1:50123->10.0.0.2:31000');
    expect(summary(byPort.frames)).toEqual(expected);
    // Without the port, the first bytes decide.
    const byContent = readAll(captureOf(noSyn));
    expect(byContent.frames[0].conn).toBe('127.0.0.1:50123->10.0.0.2:31000');
    expect(summary(byContent.frames)).toEqual(expected);
    // The response sender's bytes come first: still the request side is the client.
    const responseFirst = [noSyn[1], noSyn[0], ...noSyn.slice(2)].filter((s) => s.payload.length > 0 || true);
    expect(readAll(captureOf(responseFirst)).frames[0].conn).toBe('127.0.0.1:50123->10.0.0.2:31000');
  });
});

describe('what is not Kafka', () => {
  it('recognises TLS and skips the connection with a note', () => {
    const tls = new TcpConversation(CLIENT, SERVER);
    tls.open(1_000_000_000n);
    // A TLS 1.2 ClientHello record's first bytes.
    tls.send(true, Uint8Array.from([0x16, 0x03, 0x01, 0x00, 0x31, 0x01, 0x00, 0x00, 0x2d, 0x03, 0x03, ...new Array(45).fill(7)]), 2_000_000_000n);
    tls.send(false, Uint8Array.from([0x16, 0x03, 0x03, 0x00, 0x04, 0x02, 0x00, 0x00, 0x00]), 3_000_000_000n);
    const { frames, notes } = readAll(captureOf(tls.segments));
    expect(frames).toEqual([]);
    expect(notes.map((n) => n.kind)).toEqual(['tls']);
  });

  it('skips the raw SASL tokens that follow SaslHandshake v0, then reads frames again', () => {
    const h = (apiKey: number, apiVersion: number, correlationId: number) => ({ requestApiKey: apiKey, requestApiVersion: apiVersion, correlationId, clientId: 'c' });
    const token = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      const frame = new Uint8Array(4 + bytes.length);
      new DataView(frame.buffer).setInt32(0, bytes.length);
      frame.set(bytes, 4);
      return frame;
    };
    const c = new TcpConversation(CLIENT, SERVER);
    c.open(1n);
    c.send(true, encodeRequest(h(17, 0, 1), { mechanism: 'PLAIN' }), 2n);
    c.send(false, encodeResponse(17, 0, { correlationId: 1 }, { errorCode: 0, mechanisms: ['PLAIN'] }), 3n);
    c.send(true, token('\0user\0secret-password'), 4n);
    c.send(false, token(''), 5n);
    c.send(true, encodeRequest(h(3, 1, 2), { topics: null }), 6n);
    c.send(false, encodeResponse(3, 1, { correlationId: 2 }, { brokers: [], controllerId: 1, topics: [] }), 7n);
    const { frames, notes } = readAll(captureOf(c.segments));
    expect(notes.map((n) => [n.kind, n.direction])).toEqual([['sasl', 'request'], ['sasl', 'response']]);
    expect(frames.map((f) => [f.direction, f.apiKey, f.correlationId])).toEqual([
      ['request', 17, 1], ['response', 17, 1], ['request', 3, 2], ['response', 3, 2],
    ]);
  });

  it('marks a response without its request as unpaired, and pairs an ApiVersions error answer as version 0', () => {
    const c = new TcpConversation(CLIENT, SERVER);
    c.open(1n);
    c.send(false, encodeResponse(3, 1, { correlationId: 99 }, { brokers: [], controllerId: 1, topics: [] }), 2n);
    c.send(true, encodeRequest({ requestApiKey: 18, requestApiVersion: 4, correlationId: 5, clientId: 'c' }, {}), 3n);
    c.send(false, encodeResponse(18, 0, { correlationId: 5 }, { errorCode: 35, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 3 }] }), 4n);
    const { frames } = readAll(captureOf(c.segments));
    expect(frames.map((f) => [f.direction, f.apiKey, f.apiVersion, f.correlationId, f.unpaired === true])).toEqual([
      ['response', null, null, 99, true], ['request', 18, 4, 5, false], ['response', 18, 0, 5, false],
    ]);
  });

  it('leaves out packets that are not TCP', () => {
    const writer = new CaptureFileWriter();
    const udp = encodePacket(LINKTYPE_ETHERNET, { source: CLIENT, destination: SERVER, seq: 0, ack: 0, flags: 0, payload: new Uint8Array(8), timeNs: 0n });
    udp[14 + 9] = 17; // IP protocol: UDP
    const arp = new Uint8Array(42);
    arp[12] = 0x08; arp[13] = 0x06;
    const { events } = readAll(writer.file([{ timeNs: 0n, data: udp }, { timeNs: 0n, data: arp }]));
    expect(events).toEqual([]);
  });
});

describe('damaged files', () => {
  const { segments } = conversationSegments(exchanges);

  it('a cut-short file: the frames before the cut, then a KafkaWireError naming the record', () => {
    for (const format of ['pcap', 'pcapng'] as const) {
      const bytes = captureOf(segments, { format });
      const cut = bytes.subarray(0, bytes.length - 30);
      const got: unknown[] = [];
      let error: unknown;
      try {
        for (const e of readCapture(cut)) got.push(e);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KafkaWireError);
      expect((error as KafkaWireError).code).toBe('TRUNCATED');
      expect((error as KafkaWireError).path).toMatch(format === 'pcap' ? /^packet \d+$/ : /^block \d+$/);
      expect(got.filter((e: any) => e.type === 'frame').length).toBe(sent.length);
    }
  });

  it('not a capture at all, and lengths that cannot be', () => {
    expect(() => [...readCapture(new TextEncoder().encode('hello, world! this is not a capture'))]).toThrow(/INVALID_VALUE at offset 0 in file header.magic/);
    const bytes = captureOf(segments, { format: 'pcapng' });
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(4, 0x7ffffff0, true);
    expect(() => [...readCapture(huge)]).toThrow(/LENGTH_LIMIT at offset 4 in block 1.totalLength/);
    const odd = bytes.slice();
    new DataView(odd.buffer).setUint32(4, 30, true);
    expect(() => [...readCapture(odd)]).toThrow(/INVALID_VALUE at offset 4 in block 1.totalLength/);
    const pcap = captureOf(segments);
    const big = pcap.slice();
    new DataView(big.buffer).setUint32(24 + 8, 0xfffffff0, true);
    expect(() => [...readCapture(big)]).toThrow(/LENGTH_LIMIT at offset 32 in packet 1.capturedLength/);
  });

  it('random damage never crashes or hangs: events, or a KafkaWireError', () => {
    const bytes = captureOf(segments);
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (edits) => {
      const damaged = bytes.slice();
      for (const [at, value] of edits) damaged[at % damaged.length] = value;
      try {
        [...readCapture(damaged)];
      } catch (error) {
        expect(error).toBeInstanceOf(KafkaWireError);
      }
    }), { numRuns: 300 });
  });
});
