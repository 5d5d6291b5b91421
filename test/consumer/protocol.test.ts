// The consumer protocol's embedded bytes: golden bytes written out field by field, round trips
// over random subscriptions and assignments, what older and newer writers send, and bad input
// failing with where and what.

import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from '../../src/consumer/protocol.js';
import { ConsumerError } from '../../src/consumer/errors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('ConsumerProtocolSubscription', () => {
  it('v0: version, topics, null user data', () => {
    expect(hex(encodeSubscription({ version: 0, topics: ['ab', 'c'] }))).toBe(
      '0000' + '00000002' + '0002' + '6162' + '0001' + '63' + 'ffffffff');
  });

  it('v2: owned partitions and generation after the user data', () => {
    const bytes = encodeSubscription({ version: 2, topics: ['t'], userData: new Uint8Array([9]), ownedPartitions: [{ topic: 't', partitions: [1, 3] }], generationId: 7 });
    expect(hex(bytes)).toBe(
      '0002' + '00000001' + '0001' + '74' + '00000001' + '09'
      + '00000001' + '0001' + '74' + '00000002' + '00000001' + '00000003'
      + '00000007');
    expect(decodeSubscription(bytes)).toEqual({
      version: 2, topics: ['t'], userData: new Uint8Array([9]), ownedPartitions: [{ topic: 't', partitions: [1, 3] }], generationId: 7, rackId: null,
    });
  });

  it('a v1 writer that stops after the user data (no owned partitions) reads as none owned', () => {
    const v0Body = encodeSubscription({ version: 0, topics: ['x'] });
    const v1Short = new Uint8Array(v0Body);
    v1Short[1] = 1;
    expect(decodeSubscription(v1Short)).toMatchObject({ version: 1, topics: ['x'], ownedPartitions: [], generationId: -1 });
  });

  it('a newer version with fields after ours reads the fields it knows', () => {
    const v3 = encodeSubscription({ version: 3, topics: ['x'], generationId: 4, rackId: 'r1' });
    const v9 = new Uint8Array([...v3, 1, 2, 3]);
    v9[1] = 9;
    expect(decodeSubscription(v9)).toMatchObject({ version: 9, topics: ['x'], generationId: 4, rackId: 'r1' });
  });

  it('round trips', () => {
    const tp = fc.record({ topic: fc.string({ maxLength: 20 }), partitions: fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { maxLength: 10 }) });
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 3 }), fc.array(fc.string({ maxLength: 30 }), { maxLength: 8 }),
      fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null }), fc.array(tp, { maxLength: 5 }), fc.integer({ min: -1, max: 1000 }),
      fc.option(fc.string({ maxLength: 10 }), { nil: null }),
      (version, topics, userData, owned, generationId, rackId) => {
        const s = { version, topics, userData, ownedPartitions: owned, generationId, rackId };
        const back = decodeSubscription(encodeSubscription(s));
        expect(back).toEqual({
          version, topics, userData,
          ownedPartitions: version >= 1 ? owned : [], generationId: version >= 2 ? generationId : -1, rackId: version >= 3 ? rackId : null,
        });
      }));
  });

  it('refuses bad lengths with the offset and field', () => {
    const good = encodeSubscription({ version: 1, topics: ['topic'], ownedPartitions: [{ topic: 'topic', partitions: [0] }] });
    for (let cut = 0; cut < good.length; cut++) {
      const short = good.subarray(0, cut);
      if (cut >= 2 + 4 + 7 + 4) continue; // a v1 body may end after the user data (read as nothing owned)
      expect(() => decodeSubscription(short)).toThrow(ConsumerError);
    }
    const huge = new Uint8Array([0, 0, 0x7f, 0xff, 0xff, 0xff]);
    try {
      decodeSubscription(huge);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConsumerError);
      expect(err).toMatchObject({ code: 'PROTOCOL', offset: 2, path: 'topics' });
    }
    const badUtf8 = new Uint8Array([0, 0, 0, 0, 0, 1, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(() => decodeSubscription(badUtf8)).toThrow(/topics\[0\] at offset 6 is not UTF-8/);
  });
});

describe('ConsumerProtocolAssignment', () => {
  it('golden bytes', () => {
    const bytes = encodeAssignment({ version: 0, assignedPartitions: [{ topic: 'a', partitions: [0, 2] }, { topic: 'b', partitions: [] }] });
    expect(hex(bytes)).toBe('0000' + '00000002' + '0001' + '61' + '00000002' + '00000000' + '00000002' + '0001' + '62' + '00000000' + 'ffffffff');
    expect(decodeAssignment(bytes)).toEqual({ version: 0, assignedPartitions: [{ topic: 'a', partitions: [0, 2] }, { topic: 'b', partitions: [] }], userData: null });
  });

  it('empty bytes (a member the leader left out) is no assignment', () => {
    expect(decodeAssignment(new Uint8Array(0)).assignedPartitions).toEqual([]);
  });

  it('a partition count larger than the bytes is refused before allocating', () => {
    const bytes = new Uint8Array([0, 0, 0, 0, 0, 1, 0, 1, 0x61, 0x10, 0, 0, 0]);
    expect(() => decodeAssignment(bytes)).toThrow(/assignedPartitions\[0\]\.partitions count 268435456 at offset 9/);
  });
});
