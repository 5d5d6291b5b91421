// The assignors: range gives Java's documented split; cooperative-sticky is balanced, keeps what
// members own, and never hands a partition to a new owner in the same rebalance its old owner
// still holds it (checked over random groups, including a second rebalance that completes moves).

import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { cooperativeStickyAssignor, rangeAssignor, toTopicPartitions, type AssignorMember, type GroupAssignment } from '../../src/consumer/assignors.js';
import type { TopicPartitions } from '../../src/consumer/protocol.js';

function member(memberId: string, topics: string[], owned: TopicPartitions[] = [], generationId = -1): AssignorMember {
  return { memberId, groupInstanceId: null, subscription: { version: 2, topics, userData: null, ownedPartitions: owned, generationId, rackId: null } };
}
const flat = (a: GroupAssignment, id: string) => toTopicPartitions(a.get(id)).flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`));

describe('range', () => {
  it('two members, two topics of three partitions: the first takes two of each', () => {
    const a = rangeAssignor.assign([member('C1', ['t0', 't1']), member('C0', ['t0', 't1'])], new Map([['t0', 3], ['t1', 3]]));
    expect(flat(a, 'C0')).toEqual(['t0-0', 't0-1', 't1-0', 't1-1']);
    expect(flat(a, 'C1')).toEqual(['t0-2', 't1-2']);
  });

  it('12 partitions over 5 members: 3,3,2,2,2 in member order; only subscribers get a topic', () => {
    const members = ['e', 'a', 'c', 'b', 'd'].map((id) => member(id, ['t']));
    members.push(member('z', ['other']));
    const a = rangeAssignor.assign(members, new Map([['t', 12], ['other', 1]]));
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => flat(a, id).length)).toEqual([3, 3, 2, 2, 2]);
    expect(flat(a, 'a')).toEqual(['t-0', 't-1', 't-2']);
    expect(flat(a, 'e')).toEqual(['t-10', 't-11']);
    expect(flat(a, 'z')).toEqual(['other-0']);
  });

  it('a topic missing from the counts is skipped', () => {
    const a = rangeAssignor.assign([member('a', ['t', 'missing'])], new Map([['t', 2]]));
    expect(flat(a, 'a')).toEqual(['t-0', 't-1']);
  });
});

describe('cooperative-sticky', () => {
  it('first assignment is balanced; a joining member gets only what others give up, in a second round', () => {
    const counts = new Map([['t', 12]]);
    const first = cooperativeStickyAssignor.assign([member('a', ['t']), member('b', ['t'])], counts);
    expect(flat(first, 'a')).toHaveLength(6);
    expect(flat(first, 'b')).toHaveLength(6);
    // c joins: a and b report what they own (generation 1).
    const owned = (id: string) => toTopicPartitions(first.get(id));
    const second = cooperativeStickyAssignor.assign([member('a', ['t'], owned('a'), 1), member('b', ['t'], owned('b'), 1), member('c', ['t'])], counts);
    expect(flat(second, 'a')).toHaveLength(4);
    expect(flat(second, 'b')).toHaveLength(4);
    expect(flat(second, 'c')).toEqual([]); // the four moving partitions are still owned by a and b
    for (const id of ['a', 'b']) for (const p of flat(second, id)) expect(flat(first, id)).toContain(p);
    // Third round: a and b own 4 each now; c gets the four nobody owns.
    const third = cooperativeStickyAssignor.assign([
      member('a', ['t'], toTopicPartitions(second.get('a')), 2), member('b', ['t'], toTopicPartitions(second.get('b')), 2), member('c', ['t'], [], 2),
    ], counts);
    expect(flat(third, 'c')).toHaveLength(4);
    expect(flat(third, 'a')).toEqual(flat(second, 'a'));
  });

  it('claims from an older generation are ignored; two claims of one partition in the newest are both dropped', () => {
    const counts = new Map([['t', 2]]);
    const a = cooperativeStickyAssignor.assign([
      member('a', ['t'], [{ topic: 't', partitions: [0, 1] }], 3),
      member('b', ['t'], [{ topic: 't', partitions: [0] }], 3),
      member('c', ['t'], [{ topic: 't', partitions: [1] }], 1),
    ], counts);
    // 0 is contested (a and b): nobody owns it, so it may go anywhere; 1 is a's (c's claim is stale).
    expect(flat(a, 'a')).toContain('t-1');
    expect(flat(a, 'c')).not.toContain('t-1');
  });

  it('random groups: never two owners, balanced among equal subscribers, and moves take two rounds', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (before, partitions, after, seed) => {
        const counts = new Map([['t', partitions]]);
        const ids = (n: number, from: number) => Array.from({ length: n }, (_, i) => `m${from + i}`);
        const g1 = ids(before, 0);
        const first = cooperativeStickyAssignor.assign(g1.map((id) => member(id, ['t'])), counts);
        // Some members leave and some join (by the seed), the rest report what they own.
        const stay = g1.filter((_, i) => ((seed >> i) & 1) === 0 || i === 0);
        const g2 = [...stay, ...ids(after, 100)];
        const second = cooperativeStickyAssignor.assign(g2.map((id) => member(id, ['t'], stay.includes(id) ? toTopicPartitions(first.get(id)) : [], 1)), counts);
        const seen = new Set<string>();
        for (const id of g2) {
          for (const p of flat(second, id)) {
            expect(seen.has(p)).toBe(false);
            seen.add(p);
            const prevOwner = g1.find((o) => flat(first, o).includes(p));
            // Handed to someone else only when its owner left the group.
            if (prevOwner !== undefined && prevOwner !== id) expect(stay).not.toContain(prevOwner);
          }
        }
        // Round three (everyone reports round two): all assigned, balanced to within one.
        const third = cooperativeStickyAssignor.assign(g2.map((id) => member(id, ['t'], toTopicPartitions(second.get(id)), 2)), counts);
        const sizes = g2.map((id) => flat(third, id).length);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(partitions);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }), { numRuns: 300 });
  });
});
