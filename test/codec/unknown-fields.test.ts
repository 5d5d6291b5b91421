// A property that no version of a struct has is an error on encode (both writers) and in
// newMessage, named by its path, never dropped in silence; _unknownTaggedFields stays allowed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiKey, decodeRequest, decodeResponse, encodeBody, encodeRequest, encodeResponse, frameFromJson, newMessage,
  requestSize,
} from '../../src/index.js';
import { setCodegen } from '../../src/codec/generate.js';
import { kafkaWireError as thrown } from '../helpers/errors.js';

const produceHeader = { requestApiKey: ApiKey.Produce, requestApiVersion: 9, correlationId: 1, clientId: 'c' };

// Run-time keys: the bodies come from JSON, a proxy, a user; the types do not see them.
const dynamicHeader: { requestApiKey: number; requestApiVersion: number; correlationId: number; clientId: string } = produceHeader;
const untyped = (body: unknown) => body as object;

for (const writer of ['generated', 'interpreter'] as const) {
  describe(`unknown fields, ${writer} writer`, () => {
    beforeEach(() => setCodegen(writer === 'interpreter' ? false : undefined));
    afterEach(() => setCodegen(undefined));

    it('names a misspelled top-level field and suggests the close one', () => {
      const error = thrown(() => encodeRequest(dynamicHeader, untyped({ ackz: -1, timeoutMs: 100 })));
      expect(error.code).toBe('UNKNOWN_FIELD');
      expect(error.path).toBe('ProduceRequest.ackz');
      expect(error.message).toBe('UNKNOWN_FIELD in ProduceRequest.ackz: unknown field (no version of ProduceRequest has it); did you mean "acks"?');
    });

    it('names a nested one by its path through arrays', () => {
      const body = untyped({ acks: -1, topicData: [{ name: 't', partitionData: [] }, { nmae: 'orders' }] });
      const error = thrown(() => encodeRequest(dynamicHeader, body));
      expect(error.message).toMatch(/ in ProduceRequest\.topicData\[1\]\.nmae: unknown field \(no version of TopicProduceData has it\); did you mean "name"\?$/);
      const deeper = untyped({ topicData: [{ name: 't', partitionData: [{ index: 0, recods: null }] }] });
      expect(thrown(() => encodeRequest(dynamicHeader, deeper)).path).toBe('ProduceRequest.topicData[0].partitionData[0].recods');
      // The size path walks the same writers.
      expect(thrown(() => requestSize(dynamicHeader, deeper)).code).toBe('UNKNOWN_FIELD');
    });

    it('suggests nothing when no field is close, or two are equally close', () => {
      const far = thrown(() => encodeRequest(dynamicHeader, untyped({ compression: 'lz4' })));
      expect(far.message).toMatch(/has it\)$/);
      // DescribeConfigs v4 resources have resourceType and resourceName: "resourceNam" is one edit from one only,
      // "resource" is as far from both.
      const header = { requestApiKey: ApiKey.DescribeConfigs, requestApiVersion: 4, correlationId: 1, clientId: 'c' } as { requestApiKey: number } & typeof produceHeader;
      expect(thrown(() => encodeRequest(header, untyped({ resources: [{ resourceNam: 'x' }] }))).message).toMatch(/did you mean "resourceName"\?$/);
      expect(thrown(() => encodeRequest(header, untyped({ resources: [{ resourceT: 'x' }] }))).message).toMatch(/did you mean "resourceType"\?$/);
      expect(thrown(() => encodeRequest(header, untyped({ resources: [{ resourceXxxx: 'x' }] }))).message).toMatch(/has it\)$/);
    });

    it('checks the header too', () => {
      const error = thrown(() => encodeRequest({ ...dynamicHeader, clientID: 'x' } as typeof dynamicHeader, {}));
      expect(error.path).toBe('header.clientID');
      expect(error.message).toMatch(/did you mean "clientId"\?$/);
    });

    it('accepts a field of another version (its own check applies) and _unknownTaggedFields', () => {
      // topicId is a v13+ field: at v9 it is known, and its default value is accepted.
      expect(encodeRequest(produceHeader, { topicData: [{ name: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }] })).toBeInstanceOf(Uint8Array);
      const header = { requestApiKey: ApiKey.Metadata, requestApiVersion: 12, correlationId: 1, clientId: 'c' };
      const frame = encodeRequest(header, { topics: null, _unknownTaggedFields: { 7: Uint8Array.of(1, 2) } });
      expect(decodeRequest(frame).body._unknownTaggedFields).toEqual({ 7: Uint8Array.of(1, 2) });
    });

    it('re-encodes decoded objects unchanged', () => {
      const frame = encodeResponse(ApiKey.Metadata, 12, { correlationId: 3 }, {
        brokers: [{ nodeId: 1, host: 'h', port: 9092 }],
        topics: [{ name: 't', partitions: [{ partitionIndex: 0, replicaNodes: [1], isrNodes: [1] }] }],
      });
      const { header, body } = decodeResponse(frame, ApiKey.Metadata, 12);
      expect(encodeResponse(ApiKey.Metadata, 12, header, body)).toEqual(frame);
    });

    it('skips the check only when asked, for that call', () => {
      const body = untyped({ acks: -1, topicData: [{ name: 't', nmae: 'x' }] });
      const skipped = encodeRequest(dynamicHeader, body, { checkFields: false });
      expect(skipped).toEqual(encodeRequest(produceHeader, { acks: -1, topicData: [{ name: 't' }] }));
      expect(thrown(() => encodeRequest(dynamicHeader, body)).code).toBe('UNKNOWN_FIELD');
      expect(thrown(() => encodeRequest(dynamicHeader, body, { checkFields: true })).code).toBe('UNKNOWN_FIELD');
    });

    it('checks bare bodies', () => {
      expect(thrown(() => encodeBody(ApiKey.Metadata, 'request', 12, untyped({ topicz: [] }))).path).toBe('MetadataRequest.topicz');
    });
  });
}

describe('newMessage', () => {
  it('completes structs given in part, at every depth', () => {
    const body = newMessage(ApiKey.Produce, 'request', 9, { acks: -1, topicData: [{ partitionData: [{ index: 2 }] }] });
    expect(body.timeoutMs).toBe(0);
    expect(body.topicData[0].name).toBe('');
    expect(body.topicData[0].partitionData[0]).toEqual({ index: 2, records: null });
    expect(Object.keys(body.topicData[0])).toEqual(['name', 'topicId', 'partitionData']);
  });

  it('does not keep the caller\'s objects', () => {
    const partition = { index: 1 };
    const body = newMessage(ApiKey.Produce, 'request', 9, { topicData: [{ partitionData: [partition] }] });
    body.topicData[0].partitionData[0].index = 5;
    expect(partition.index).toBe(1);
  });

  it('throws on an unknown property at its path', () => {
    const error = thrown(() => newMessage(ApiKey.Produce, 'request' as const, 9, untyped({ topicData: [{ partitionData: [{ indx: 1 }] }] })));
    expect(error.code).toBe('UNKNOWN_FIELD');
    expect(error.path).toBe('ProduceRequest.topicData[0].partitionData[0].indx');
    expect(error.message).toMatch(/did you mean "index"\?$/);
  });

  it('leaves values of the wrong type for the encoder to report', () => {
    const body = newMessage(ApiKey.Produce, 'request', 9, untyped({ topicData: 'nope' }));
    expect(body.topicData).toBe('nope');
    expect(thrown(() => encodeRequest(produceHeader, body)).message).toMatch(/in ProduceRequest\.topicData: expected an array/);
  });
});

describe('frames from JSON', () => {
  it('reject a property no version has, at its path, instead of dropping it', () => {
    const frame = { apiKey: ApiKey.Produce, apiVersion: 9, direction: 'request' as const, header: { correlationId: 1 },
      body: { acks: -1, topicData: [{ nmae: 'orders' }] } };
    const error = thrown(() => frameFromJson(frame));
    expect(error.code).toBe('UNKNOWN_FIELD');
    expect(error.path).toBe('ProduceRequest.topicData[0].nmae');
    expect(thrown(() => frameFromJson({ ...frame, header: { correlationID: 1 }, body: {} })).path).toBe('header.correlationID');
    expect(frameFromJson({ ...frame, body: { acks: -1, _unknownTaggedFields: { 3: '0102' } } })).toBeInstanceOf(Uint8Array);
  });
});
