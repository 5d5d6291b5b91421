// The share session's bookkeeping (src/consumer/share-session.ts) without a broker: the epochs a
// session's requests carry, which partitions each lists or forgets, and acknowledgements as the
// protocol's batches (runs of one type).

import { describe, expect, it } from 'vitest';
import { ackBatches, AcknowledgeType, CLOSE_EPOCH, OPEN_EPOCH, ShareSession } from '../../src/consumer/share-session.js';
import { ShareConsumer, type ShareRecord } from '../../src/consumer/share.js';
import { ConsumerError } from '../../src/consumer/errors.js';

const A = { topic: 'a', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partition: 0 };
const B = { topic: 'a', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partition: 1 };
const C = { topic: 'c', topicId: 'CCCCCCCCCCCCCCCCCCCCCA', partition: 0 };
const { ACCEPT, RELEASE, REJECT, GAP } = AcknowledgeType;
/** One offset's acknowledgement as a run. */
const one = (offset: bigint, type: number) => ({ firstOffset: offset, lastOffset: offset, type });

describe('ackBatches', () => {
  it('makes one batch per run of consecutive offsets with one type', () => {
    expect(ackBatches([5n, 1n, 2n, 3n, 7n].map((offset) => one(offset, ACCEPT)))).toEqual([
      { firstOffset: 1n, lastOffset: 3n, acknowledgeTypes: [ACCEPT] },
      { firstOffset: 5n, lastOffset: 5n, acknowledgeTypes: [ACCEPT] },
      { firstOffset: 7n, lastOffset: 7n, acknowledgeTypes: [ACCEPT] },
    ]);
    expect(ackBatches([one(0n, ACCEPT), one(1n, RELEASE), one(2n, RELEASE), one(3n, GAP)])).toEqual([
      { firstOffset: 0n, lastOffset: 0n, acknowledgeTypes: [ACCEPT] },
      { firstOffset: 1n, lastOffset: 2n, acknowledgeTypes: [RELEASE] },
      { firstOffset: 3n, lastOffset: 3n, acknowledgeTypes: [GAP] },
    ]);
  });

  it('lets the last word on an offset count', () => {
    expect(ackBatches([one(4n, ACCEPT), one(4n, REJECT)])).toEqual([{ firstOffset: 4n, lastOffset: 4n, acknowledgeTypes: [REJECT] }]);
    // A run overlapped by a later word: that offset takes the later type.
    expect(ackBatches([{ firstOffset: 0n, lastOffset: 4n, type: ACCEPT }, one(2n, RELEASE)])).toEqual([
      { firstOffset: 0n, lastOffset: 1n, acknowledgeTypes: [ACCEPT] },
      { firstOffset: 2n, lastOffset: 2n, acknowledgeTypes: [RELEASE] },
      { firstOffset: 3n, lastOffset: 4n, acknowledgeTypes: [ACCEPT] },
    ]);
  });
});

describe('ShareSession', () => {
  it('opens at epoch 0 listing every partition and no acknowledgements, then lists only what changed', () => {
    const s = new ShareSession();
    s.acknowledge(A, 1n, ACCEPT); // (cannot go in an opening request)
    const open = s.fetchRequest([A, B], 0);
    expect(open.epoch).toBe(OPEN_EPOCH);
    expect(open.topics).toEqual([{ topicId: A.topicId, partitions: [
      { partitionIndex: 0, partitionMaxBytes: 0, acknowledgementBatches: [] },
      { partitionIndex: 1, partitionMaxBytes: 0, acknowledgementBatches: [] },
    ] }]);
    expect(open.acks).toEqual([]);
    s.succeeded();
    expect(s.epoch).toBe(1);
    // The same partitions, with the acknowledgement that waited: only the acknowledged one is listed.
    const next = s.fetchRequest([A, B], 0);
    expect(next.epoch).toBe(1);
    expect(next.topics).toEqual([{ topicId: A.topicId, partitions: [{ partitionIndex: 0, partitionMaxBytes: 0, acknowledgementBatches: [{ firstOffset: 1n, lastOffset: 1n, acknowledgeTypes: [ACCEPT] }] }] }]);
    expect(next.acks).toEqual([{ topic: 'a', partition: 0, firstOffset: 1n, lastOffset: 1n, type: ACCEPT }]);
    s.succeeded();
    // B leaves, C joins.
    const moved = s.fetchRequest([A, C], 0);
    expect(moved.topics).toEqual([{ topicId: C.topicId, partitions: [{ partitionIndex: 0, partitionMaxBytes: 0, acknowledgementBatches: [] }] }]);
    expect(moved.forgotten).toEqual([{ topicId: B.topicId, partitions: [1] }]);
    expect(s.partitions).toEqual([A, C]);
  });

  it('sends acknowledgements by ShareAcknowledge only in an open session, and closes with epoch -1', () => {
    const s = new ShareSession();
    s.acknowledge(A, 3n, REJECT);
    expect(s.acknowledgeRequest()).toBeNull();
    s.fetchRequest([A], 0);
    s.succeeded();
    const ack = s.acknowledgeRequest()!;
    expect(ack.epoch).toBe(1);
    expect(ack.topics).toEqual([{ topicId: A.topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 3n, lastOffset: 3n, acknowledgeTypes: [REJECT] }] }] }]);
    expect(s.pendingCount).toBe(0);
    s.succeeded();
    expect(s.acknowledgeRequest(true)!.epoch).toBe(CLOSE_EPOCH);
  });

  it('starts over at epoch 0 after a reset, listing everything again', () => {
    const s = new ShareSession();
    s.fetchRequest([A], 0);
    s.succeeded();
    s.succeeded();
    s.reset();
    const again = s.fetchRequest([A, B], 0);
    expect(again.epoch).toBe(0);
    expect(again.topics[0]!.partitions.map((p) => p.partitionIndex)).toEqual([0, 1]);
  });

  it('keeps an acknowledgement of a partition that left the session for ShareAcknowledge', () => {
    const s = new ShareSession();
    s.fetchRequest([A, B], 0);
    s.succeeded();
    s.acknowledge(B, 9n, ACCEPT);
    const req = s.fetchRequest([A], 0);
    expect(req.acks).toEqual([]);
    expect(req.forgotten).toEqual([{ topicId: A.topicId, partitions: [1] }]);
    s.succeeded();
    expect(s.acknowledgeRequest()!.acks).toEqual([{ topic: 'a', partition: 1, firstOffset: 9n, lastOffset: 9n, type: ACCEPT }]);
  });

  it('keeps consecutive acknowledgements of one type as one run (one pending entry per run, not per record)', () => {
    const s = new ShareSession();
    s.fetchRequest([A, B], 0);
    s.succeeded();
    for (let o = 10n; o < 1010n; o++) s.acknowledge(A, o, o === 500n ? RELEASE : ACCEPT);
    s.acknowledge(B, 3n, ACCEPT);
    s.acknowledgeRange(A, 1010n, 1019n, GAP);
    expect(s.pendingCount).toBe(5);
    const req = s.acknowledgeRequest()!;
    expect(req.acks).toEqual([
      { topic: 'a', partition: 0, firstOffset: 10n, lastOffset: 499n, type: ACCEPT },
      { topic: 'a', partition: 0, firstOffset: 500n, lastOffset: 500n, type: RELEASE },
      { topic: 'a', partition: 0, firstOffset: 501n, lastOffset: 1009n, type: ACCEPT },
      { topic: 'a', partition: 0, firstOffset: 1010n, lastOffset: 1019n, type: GAP },
      { topic: 'a', partition: 1, firstOffset: 3n, lastOffset: 3n, type: ACCEPT },
    ]);
    expect(req.topics[0]!.partitions[0]!.acknowledgementBatches).toHaveLength(4);
    // Taken: the next acknowledgement of A starts a new entry.
    s.succeeded();
    s.acknowledge(A, 1020n, ACCEPT);
    expect(s.acknowledgeRequest()!.acks).toEqual([{ topic: 'a', partition: 0, firstOffset: 1020n, lastOffset: 1020n, type: ACCEPT }]);
  });
});

describe('ShareConsumer without a broker', () => {
  it('refuses options that cannot work, with a typed error', () => {
    const bad = [
      { bootstrap: 'localhost:1', groupId: '', topics: ['t'] },
      { bootstrap: 'localhost:1', groupId: 'g', topics: [] },
      { bootstrap: 'localhost:1', groupId: 'g', topics: ['t'], acknowledgementMode: 'sometimes' as 'implicit' },
      { bootstrap: 'localhost:1', groupId: 'g', topics: ['t'], maxRecords: 0 },
    ];
    for (const options of bad) {
      expect(() => new ShareConsumer(options)).toThrow(ConsumerError);
      try { new ShareConsumer(options); } catch (err) { expect((err as ConsumerError).code).toBe('USAGE'); }
    }
  });

  it('refuses to acknowledge a record it does not hold, or an unknown type', async () => {
    const c = new ShareConsumer({ bootstrap: 'localhost:1', groupId: 'g', topics: ['t'] });
    const stranger = { topic: 't', partition: 0, offset: 5n } as ShareRecord;
    expect(() => c.acknowledge(stranger)).toThrow(/not a record this consumer holds/);
    expect(() => c.acknowledge(stranger, 'gap' as 'accept')).toThrow(/accept, release, reject or renew/);
    await c.close(); // never started: nothing to leave, nothing left open
  });
});
