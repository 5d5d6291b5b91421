// Decoding is strict where Kafka's reader is strict and about input Kafka could never have
// meant, liberal where Kafka's reader is liberal. Each rule has an input that breaks it.
import { describe, expect, it } from 'vitest';
import {
  decodeRequest, decodeResponse, encodeRequest, encodeResponse, KafkaWireError, newMessage,
} from '../../src/index.js';
import { fromHex, toHex } from '../../src/text.js';
import { planFor } from '../../src/codec/by-key.js';
import { scanMessage } from '../../src/codec/scan.js';
import { setCodegen } from '../../src/codec/generate.js';
import { kafkaWireError as decodeError } from '../helpers/errors.js';

const reqHeader = (apiKey: number, version: number, clientId: string | null = 'c') =>
  ({ requestApiKey: apiKey, requestApiVersion: version, correlationId: 7, clientId });

/** Rewrites the size prefix after a change in length. */
function resized(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setInt32(0, out.length - 4);
  return out;
}

function splice(bytes: Uint8Array, at: number, remove: number, insert: number[] = []): Uint8Array {
  return resized(Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at + remove)]));
}

// MetadataRequest v1 (not flexible): header v1, then topics: int32 count, int16-length names.
const metadataV1 = encodeRequest(reqHeader(3, 1), { topics: [{ name: 'abc' }] });
const NAME_AT = 4 + 8 + 3 + 4; // size, key/version/correlation, client id "c", topic count

// MetadataRequest v12 (flexible): compact arrays and strings, tagged sections.
const metadataV12 = encodeRequest(reqHeader(3, 12), { topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'abc' }] });

describe('strict decoding', () => {
  it('rejects bytes left over after the message', () => {
    const e = decodeError(() => decodeRequest(resized(Uint8Array.from([...metadataV1, 0]))));
    expect(e.code).toBe('TRAILING_BYTES');
    expect(e.offset).toBe(metadataV1.length);
  });

  it('rejects a size prefix that does not match', () => {
    const bad = metadataV1.slice();
    bad[3]++;
    expect(decodeError(() => decodeRequest(bad)).code).toBe('FRAME_SIZE_MISMATCH');
    expect(decodeError(() => decodeRequest(metadataV1.subarray(0, metadataV1.length - 1))).code).toBe('FRAME_SIZE_MISMATCH');
  });

  it('rejects invalid UTF-8, naming the field and offset', () => {
    for (const bytes of [[0xc0, 0xaf, 0x41], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80], [0xe2, 0x82, 0x41], [0xff, 0x41, 0x41]]) {
      const bad = metadataV1.slice();
      bad.set(bytes, NAME_AT + 2);
      const e = decodeError(() => decodeRequest(bad));
      expect(e.code).toBe('INVALID_UTF8');
      expect(e.path).toBe('MetadataRequest.topics[0].name');
      expect(e.offset).toBe(NAME_AT + 2);
    }
  });

  it('rejects a negative length or count where null is not allowed', () => {
    const bad = metadataV1.slice();
    bad.set([0xff, 0xfe], NAME_AT); // int16 length -2 for a non-nullable name
    const e = decodeError(() => decodeRequest(bad));
    expect(e.code).toBe('NEGATIVE_LENGTH');
    expect(e.offset).toBe(NAME_AT);
    // A compact string's 0 is null: not allowed for a v12 topic's... topicId is a uuid, so use
    // the nullable name's sibling in the response: brokers' host.
    const response = encodeResponse(3, 12, { correlationId: 1 }, newMessage(3, 'response', 12, {
      brokers: [{ nodeId: 1, host: 'h', port: 9092, rack: null }],
    }));
    const hostAt = response.indexOf(0x68) - 1; // compact length 2 before "h"
    const nullHost = response.slice();
    nullHost[hostAt] = 0;
    expect(decodeError(() => decodeResponse(resized(nullHost), 3, 12)).code).toBe('NEGATIVE_LENGTH');
    // An int32 count of -1 for a non-nullable array.
    const v1Response = encodeResponse(3, 1, { correlationId: 1 }, newMessage(3, 'response', 1));
    const nullBrokers = v1Response.slice();
    nullBrokers.set([0xff, 0xff, 0xff, 0xff], 8);
    expect(decodeError(() => decodeResponse(nullBrokers, 3, 1)).path).toBe('MetadataResponse.brokers');
  });

  it('rejects varints longer than 5 bytes or overflowing 32 bits', () => {
    const at = 4 + 8 + 3 + 1; // after the header's tagged section: the compact topics count
    expect(metadataV12[at]).toBe(2);
    const long = splice(metadataV12, at, 1, [0x82, 0x80, 0x80, 0x80, 0x80, 0x00]);
    expect(decodeError(() => decodeRequest(long)).code).toBe('VARINT_TOO_LONG');
    const overflow = splice(metadataV12, at, 1, [0x82, 0x80, 0x80, 0x80, 0x10]);
    expect(decodeError(() => decodeRequest(overflow)).code).toBe('VARINT_OVERFLOW');
    // Five bytes that fit are fine (a non-minimal encoding Kafka's reader also accepts).
    const padded = splice(metadataV12, at, 1, [0x82, 0x80, 0x80, 0x80, 0x00]);
    expect(decodeRequest(padded).body.topics).toHaveLength(1);
  });

  it('checks lengths and counts against the bytes left before using them', () => {
    const longName = metadataV1.slice();
    longName.set([0x7f, 0xff], NAME_AT);
    expect(decodeError(() => decodeRequest(longName)).code).toBe('TRUNCATED');
    const hugeCount = metadataV1.slice();
    hugeCount.set([0x7f, 0xff, 0xff, 0xff], NAME_AT - 4);
    // Refused at the count, before any element is read or any room allocated.
    const e = decodeError(() => decodeRequest(hugeCount));
    expect(e.code).toBe('TRUNCATED');
    expect(e.offset).toBe(NAME_AT - 4);
  });

  it('applies the array and length limits', () => {
    const two = encodeRequest(reqHeader(3, 1), { topics: [{ name: 'abc' }, { name: 'defgh' }] });
    expect(decodeError(() => decodeRequest(two, { maxArrayLength: 1 })).code).toBe('ARRAY_LIMIT');
    expect(decodeError(() => decodeRequest(two, { maxLength: 4 })).code).toBe('LENGTH_LIMIT');
    expect(decodeError(() => decodeRequest(two, { maxFrameSize: 10 })).code).toBe('FRAME_LIMIT');
    // The same meaning as the frame splitter's limit: the size field, prefix excluded.
    expect(decodeRequest(two, { maxFrameSize: two.length - 4 }).body.topics).toHaveLength(2);
    expect(decodeError(() => decodeRequest(two, { maxFrameSize: two.length - 5 })).code).toBe('FRAME_LIMIT');
    expect(decodeRequest(two, { maxArrayLength: 2, maxLength: 5 }).body.topics).toHaveLength(2);
  });

  it('rejects a tag that appears twice, in or out of order', () => {
    const body = newMessage(3, 'request', 12, { topics: [] });
    body._unknownTaggedFields = { 5: Uint8Array.of(0xaa), 6: Uint8Array.of(0xbb) };
    const frame = encodeRequest(reqHeader(3, 12), body);
    const hex = toHex(frame);
    expect(hex.endsWith('020501aa0601bb')).toBe(true);
    const twice = fromHex(hex.slice(0, -14) + '020501aa0501bb')!;
    expect(decodeError(() => decodeRequest(twice)).code).toBe('DUPLICATE_TAG');
    const twiceDown = fromHex(hex.slice(0, -14) + '030601aa0501bb0601cc')!;
    expect(decodeError(() => decodeRequest(resized(twiceDown))).code).toBe('DUPLICATE_TAG');
  });

  it('rejects a tagged field whose declared size does not match its content', () => {
    // ApiVersionsResponse v3: FinalizedFeaturesEpoch is tag 1, an int64 (8 bytes).
    const frame = encodeResponse(18, 3, { correlationId: 1 }, newMessage(18, 'response', 3, { finalizedFeaturesEpoch: 5n }));
    const hex = toHex(frame);
    const entry = '01080000000000000005';
    expect(hex).toContain(entry);
    for (const size of ['09', '07']) {
      const bad = fromHex(hex.replace(entry, `01${size}0000000000000005`) + (size === '09' ? '00' : ''))!;
      const e = decodeError(() => decodeResponse(resized(bad), 18, 3));
      expect(e.code).toBe('TAGGED_SIZE_MISMATCH');
      expect(e.path).toBe('ApiVersionsResponse.finalizedFeaturesEpoch');
    }
  });
});

describe('liberal where Kafka is liberal', () => {
  it('reads any non-zero bool byte as true', () => {
    const frame = encodeRequest(reqHeader(3, 4), { topics: [], allowAutoTopicCreation: false });
    const bad = frame.slice();
    bad[bad.length - 1] = 2;
    expect(decodeRequest(bad).body.allowAutoTopicCreation).toBe(true);
  });

  it('reads any negative struct marker as null', () => {
    // DescribeTopicPartitionsRequest v0: Cursor is a nullable struct, last before the tagged section.
    const frame = encodeRequest(reqHeader(75, 0), newMessage(75, 'request', 0, { cursor: null }));
    expect(frame[frame.length - 2]).toBe(0xff);
    const bad = frame.slice();
    bad[bad.length - 2] = 0x80;
    expect(decodeRequest(bad).body.cursor).toBeNull();
  });

  it('reads any negative length as null where null is allowed', () => {
    const frame = encodeRequest(reqHeader(3, 1, null), { topics: [] });
    expect(toHex(frame.subarray(12, 14))).toBe('ffff');
    const bad = frame.slice();
    bad.set([0x80, 0x00], 12);
    expect(decodeRequest(bad).header.clientId).toBeNull();
  });

  it('accepts tags in any order', () => {
    const body = newMessage(3, 'request', 12, { topics: [] });
    body._unknownTaggedFields = { 5: Uint8Array.of(0xaa), 6: Uint8Array.of(0xbb) };
    const hex = toHex(encodeRequest(reqHeader(3, 12), body));
    const swapped = fromHex(hex.slice(0, -14) + '020601bb0501aa')!;
    expect(decodeRequest(swapped).body._unknownTaggedFields).toEqual({ 5: Uint8Array.of(0xaa), 6: Uint8Array.of(0xbb) });
  });
});

describe('tagged fields', () => {
  it('keeps unknown tagged fields in the header, the body and nested structs through a round trip', () => {
    const body = newMessage(3, 'response', 12, {
      topics: [newMessage(3, 'response', 12).topics ?? []].flat(),
    });
    body.brokers = [{ nodeId: 1, host: 'h', port: 1, rack: null, _unknownTaggedFields: { 9: Uint8Array.of(1, 2, 3) } }];
    body._unknownTaggedFields = { 100: Uint8Array.of(), 2: Uint8Array.of(7) };
    const header = { correlationId: 3, _unknownTaggedFields: { 0: Uint8Array.of(0xee) } };
    const frame = encodeResponse(3, 12, header, body);
    const decoded = decodeResponse(frame, 3, 12);
    expect(decoded.header._unknownTaggedFields).toEqual({ 0: Uint8Array.of(0xee) });
    expect(decoded.body._unknownTaggedFields).toEqual({ 2: Uint8Array.of(7), 100: Uint8Array.of() });
    expect(decoded.body.brokers[0]._unknownTaggedFields).toEqual({ 9: Uint8Array.of(1, 2, 3) });
    expect(encodeResponse(3, 12, decoded.header, decoded.body)).toEqual(frame);
  });

  it('writes a tagged field only when it differs from its default', () => {
    const plain = encodeResponse(18, 3, { correlationId: 1 }, newMessage(18, 'response', 3));
    const withDefault = encodeResponse(18, 3, { correlationId: 1 }, newMessage(18, 'response', 3, { finalizedFeaturesEpoch: -1n }));
    expect(withDefault).toEqual(plain);
  });

  it('keeps a known tag as unknown in a version where that field is not tagged', () => {
    // VoteResponse: NodeEndpoints is tag 0 from v1; in v0 tag 0 means nothing.
    const v1 = encodeResponse(52, 1, { correlationId: 1 }, newMessage(52, 'response', 1, {
      nodeEndpoints: [{ nodeId: 1, host: 'h', port: 2 }],
    }));
    const asV0 = decodeResponse(v1, 52, 0);
    expect(Object.keys(asV0.body._unknownTaggedFields)).toEqual(['0']);
    expect(encodeResponse(52, 0, asV0.header, asV0.body)).toEqual(v1);
    expect(decodeResponse(v1, 52, 1).body.nodeEndpoints).toEqual([{ nodeId: 1, host: 'h', port: 2 }]);
  });
});

describe('encoding checks values against the version', () => {
  it('throws on a non-default value for a field the version lacks', () => {
    // MetadataRequest: AllowAutoTopicCreation is v4+ and not ignorable.
    const e = decodeError(() => encodeRequest(reqHeader(3, 3), { topics: [], allowAutoTopicCreation: false }));
    expect(e.code).toBe('NOT_IN_VERSION');
    expect(encodeRequest(reqHeader(3, 3), { topics: [], allowAutoTopicCreation: true })).toBeInstanceOf(Uint8Array);
  });

  it('drops an ignorable field silently', () => {
    // FetchRequest: IsolationLevel is v4+ and ignorable.
    const v3 = encodeRequest(reqHeader(1, 3), newMessage(1, 'request', 3, { isolationLevel: 1 }));
    expect(v3).toEqual(encodeRequest(reqHeader(1, 3), newMessage(1, 'request', 3)));
  });

  it('names the field path of a bad value', () => {
    const e = decodeError(() => encodeRequest(reqHeader(3, 1), { topics: [{ name: 'a' }, { name: 5 }] } as any));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.path).toBe('MetadataRequest.topics[1].name');
    const e2 = decodeError(() => encodeRequest(reqHeader(3, 0), { topics: null } as any)); // nullable only from v1
    expect(e2.path).toBe('MetadataRequest.topics');
    const e3 = decodeError(() => encodeResponse(3, 1, { correlationId: 1 }, { controllerId: 2 ** 31 } as any));
    expect(e3.path).toBe('MetadataResponse.controllerId');
    expect(decodeError(() => encodeRequest(reqHeader(3, 1), { topics: [{ name: 'x'.repeat(40000) }] })).code).toBe('INVALID_VALUE');
  });

  it('checks tagged array fields like regular ones, in generated code and the interpreter alike', () => {
    // ApiVersionsResponse v3: SupportedFeatures is a tagged, non-nullable array.
    for (const codegen of [true, false]) {
      setCodegen(codegen);
      try {
        const e = decodeError(() => encodeResponse(18, 3, { correlationId: 1 }, newMessage(18, 'response', 3, { supportedFeatures: null } as any)));
        expect([e.code, e.path]).toEqual(['INVALID_VALUE', 'ApiVersionsResponse.supportedFeatures']);
        const e2 = decodeError(() => encodeResponse(18, 3, { correlationId: 1 }, newMessage(18, 'response', 3, { supportedFeatures: 'ab' } as any)));
        expect(e2.message).toContain('expected an array');
        const e3 = decodeError(() => encodeResponse(18, 3, { correlationId: 1 }, newMessage(18, 'response', 3,
          { supportedFeatures: [{ name: 'a', minVersion: 1, maxVersion: 2 }, { name: 'b', minVersion: 1.5, maxVersion: 2 }] } as any)));
        expect(e3.path).toBe('ApiVersionsResponse.supportedFeatures[1].minVersion');
      } finally {
        setCodegen(undefined);
      }
    }
  });

  it('rejects unknown APIs and versions', () => {
    expect(decodeError(() => encodeRequest(reqHeader(1000, 0), {})).code).toBe('UNSUPPORTED_API');
    expect(decodeError(() => encodeRequest(reqHeader(3, 99), {})).code).toBe('UNSUPPORTED_VERSION');
    expect(decodeError(() => decodeResponse(metadataV1, 3, 99)).code).toBe('UNSUPPORTED_VERSION');
  });
});

describe('ShareFetchResponse records (Kafka 4.3: nullable in v0 only)', () => {
  const body = (records: Uint8Array | null) => newMessage(78, 'response', 1, {
    responses: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partitionIndex: 0, records }] }],
  });

  it('refuses null in v1 when encoding, takes it in v0', () => {
    const e = decodeError(() => encodeResponse(78, 1, { correlationId: 1 }, body(null)));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.path).toBe('ShareFetchResponse.responses[0].partitions[0].records');
    const v0 = newMessage(78, 'response', 0, { responses: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partitionIndex: 0, records: null }] }] });
    const frame = encodeResponse(78, 0, { correlationId: 1 }, v0);
    expect((decodeResponse(frame, 78, 0).body as any).responses[0].partitions[0].records).toBeNull();
  });

  it('refuses a null length in v1 when decoding', () => {
    const frame = encodeResponse(78, 1, { correlationId: 1 }, body(Uint8Array.of(0xab, 0xcd)));
    const at = toHex(frame).indexOf('03abcd') / 2; // compact length 2+1, then the two bytes
    expect(at).toBeGreaterThan(0);
    const nulled = splice(frame, at, 3, [0]); // compact length 0: null
    for (const mode of ['generated', 'interpreter'] as const) {
      setCodegen(mode === 'generated' ? undefined : false);
      try {
        const e = decodeError(() => decodeResponse(nulled, 78, 1));
        expect(e.path).toBe('ShareFetchResponse.responses[0].partitions[0].records');
      } finally {
        setCodegen(undefined);
      }
    }
  });
});

describe('the scan fast path for flat structs', () => {
  // Partitions (numbers and integer arrays only) take a fast path in the WebAssembly scan; the
  // explain-mode scan never does. Both must agree on every input: same tape words decoded, or
  // the same error code, offset and field path.
  const topics = [0, 1, 2].map((i) => ({
    name: `t${i}`,
    partitions: [0, 1, 2, 3].map((p) => ({ partitionIndex: p, leaderId: p + 1, leaderEpoch: 7, replicaNodes: [1, 2, 3], isrNodes: [p], offlineReplicas: [] })),
  }));
  for (const version of [1, 7, 12]) {
    it(`Metadata response v${version}: every truncation and byte rewrite of the partitions decides the same`, () => {
      const frame = encodeResponse(3, version, { correlationId: 1 }, { brokers: [], topics } as any);
      const plan = planFor(3, 'response', version);
      const outcome = (input: Uint8Array, spans: boolean) => {
        try {
          scanMessage(plan, input, true, spans, undefined);
          return 'ok';
        } catch (error) {
          const e = error as KafkaWireError;
          return `${e.code} @${e.offset} ${e.path}`;
        }
      };
      const first = frame.indexOf(0x74 /* 't' of t0 */);
      let errors = 0;
      for (let at = first; at < frame.length; at++) {
        for (const input of [resized(frame.subarray(0, at)), ...[0x00, 0x01, 0x7f, 0x80, 0xff].map((b) => { const x = frame.slice(); x[at] = b; return x; })]) {
          const fast = outcome(input, false);
          expect(fast).toBe(outcome(input, true));
          if (fast !== 'ok') errors++;
        }
      }
      expect(errors).toBeGreaterThan(100);
    });
  }
});
