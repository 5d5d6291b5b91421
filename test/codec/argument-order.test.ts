// One argument order, (API key, version, direction), across the library; the older
// (key, direction, version) forms give the same results, and a call that names no direction fails.
import { describe, expect, it } from 'vitest';
import {
  decodeBody, encodeBody, frameToJson, KafkaWireError, newMessage, sampleFrame, sampleHeader, sampleMessage,
} from '../../src/index.js';
import { isFlexible } from '../../src/codec/by-key.js';

describe('key, version, direction', () => {
  it('newMessage, encodeBody, decodeBody and isFlexible take either order, with the same result', () => {
    const fields = { topics: [{ name: 'orders', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }] };
    expect(newMessage(3, 12, 'request', fields)).toEqual(newMessage(3, 'request', 12, fields));
    const body = encodeBody(3, 12, 'request', fields);
    expect(body).toEqual(encodeBody(3, 'request', 12, fields));
    expect(decodeBody(3, 12, 'request', body)).toEqual(decodeBody(3, 'request', 12, body));
    expect(decodeBody(3, 12, 'request', body).topics[0].name).toBe('orders');
    expect(isFlexible(3, 9, 'request')).toBe(true);
    expect(isFlexible(3, 8, 'request')).toBe(false);
    expect(isFlexible(3, 'request', 9)).toBe(true);
  });

  it('the samples take either order', () => {
    for (const [key, version] of [[0, 3], [3, 12], [49, 1]] as const) {
      for (const direction of ['request', 'response'] as const) {
        expect(sampleFrame(key, version, direction)).toEqual(sampleFrame(key, direction, version));
        expect(sampleMessage(key, version, direction)).toEqual(sampleMessage(key, direction, version));
        expect(sampleHeader(key, version, direction)).toEqual(sampleHeader(key, direction, version));
      }
    }
    expect(sampleHeader(3, 12, 'request').requestApiVersion).toBe(12);
  });

  it('frameToJson(frame, key?, version?, direction?) and the older (direction, frame, key?, version?)', () => {
    const request = sampleFrame(3, 12, 'request');
    const response = sampleFrame(3, 12, 'response');
    expect(frameToJson(request)).toEqual(frameToJson('request', request));
    expect(frameToJson(request).apiVersion).toBe(12);
    expect(frameToJson(response, 3, 12, 'response')).toEqual(frameToJson('response', response, 3, 12));
    expect(frameToJson(response, 3, 12, 'response').direction).toBe('response');
    // JSON-ready: no bigint left for JSON.stringify to throw on
    expect(() => JSON.stringify(frameToJson(sampleFrame(1, 12, 'response'), 1, 12, 'response'))).not.toThrow();
  });

  it('a call with no direction among its arguments is an INVALID_VALUE error', () => {
    expect(() => newMessage(3, 12, 12 as never)).toThrow(KafkaWireError);
    expect(() => sampleFrame(3, 12, 'requests' as never)).toThrow(/the direction must be "request" or "response"/);
    expect(() => frameToJson(sampleFrame(3, 12, 'request'), 3, 12, 'sideways' as never)).toThrow(KafkaWireError);
  });
});
