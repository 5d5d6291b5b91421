// The rule behind `kafka-wire reassign plan` (assignReplicas): every proposed partition keeps its
// replication factor, has distinct replicas all on the brokers given, leaders spread evenly over
// them; with racks, each partition spans as many racks as it can; a cluster where only some
// brokers have racks, or a replication factor above the brokers given, is refused.
import { describe, expect, it } from 'vitest';
import { AdminError, assignReplicas, type PlanBroker } from '../../src/admin/index.js';

const brokers = (spec: Record<number, string | null>): PlanBroker[] => Object.entries(spec).map(([id, rack]) => ({ id: Number(id), rack }));

function check(plan: number[][], given: PlanBroker[], rf: number) {
  const ids = new Set(given.map((b) => b.id));
  for (const replicas of plan) {
    expect(replicas.length).toBe(rf);
    expect(new Set(replicas).size).toBe(rf);
    for (const r of replicas) expect(ids.has(r)).toBe(true);
  }
  // Leaders: each broker leads floor(P/n) or ceil(P/n) partitions.
  const leads = new Map([...ids].map((id) => [id, 0]));
  for (const replicas of plan) leads.set(replicas[0]!, leads.get(replicas[0]!)! + 1);
  const counts = [...leads.values()];
  expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  // Replicas overall: no broker holds more than one above another.
  const held = new Map([...ids].map((id) => [id, 0]));
  for (const r of plan.flat()) held.set(r, held.get(r)! + 1);
  const all = [...held.values()];
  if (plan.length % given.length === 0) expect(Math.max(...all) - Math.min(...all)).toBeLessThanOrEqual(1);
}

describe('assignReplicas: the proposal of reassign plan', () => {
  it('keeps the replication factor on the brokers given, leaders and replicas spread, the same each time', () => {
    for (const [n, rf, p] of [[3, 2, 6], [3, 3, 9], [5, 3, 10], [4, 1, 7], [1, 1, 3], [6, 2, 12]] as const) {
      const given = Array.from({ length: n }, (_, i) => ({ id: i + 10, rack: null }));
      const plan = assignReplicas('orders', p, rf, given);
      check(plan, given, rf);
      expect(assignReplicas('orders', p, rf, given)).toEqual(plan);
    }
    // Followers shift after each round: with 4 brokers and rf 2, not every partition led by 1 is followed by the same broker.
    const plan = assignReplicas('t', 8, 2, brokers({ 1: null, 2: null, 3: null, 4: null }));
    const followersOf1 = plan.filter((r) => r[0] === 1).map((r) => r[1]);
    expect(new Set(followersOf1).size).toBe(2);
  });

  it('rack-aware when every broker has a rack: each partition spans min(rf, racks) racks', () => {
    const given = brokers({ 1: 'a', 2: 'a', 3: 'b', 4: 'b', 5: 'c', 6: 'c' });
    const rackOf = new Map(given.map((b) => [b.id, b.rack]));
    for (const rf of [2, 3, 4]) {
      const plan = assignReplicas('orders', 12, rf, given);
      check(plan, given, rf);
      for (const replicas of plan) expect(new Set(replicas.map((r) => rackOf.get(r))).size).toBe(Math.min(rf, 3));
    }
    // Two racks of unequal size: every partition of rf 2 has a replica in each.
    const uneven = brokers({ 1: 'a', 2: 'a', 3: 'b' });
    for (const replicas of assignReplicas('x', 6, 2, uneven)) expect(replicas.includes(3)).toBe(true);
    // Without rack awareness the racks do not matter: some partition of rf 2 sits in rack a alone.
    expect(assignReplicas('x', 6, 2, uneven, { rackAware: false }).some((r) => !r.includes(3))).toBe(true);
  });

  it('refuses what it cannot plan, as Kafka\'s tool does', () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(AdminError);
        return (error as AdminError).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refused(() => assignReplicas('t', 3, 3, brokers({ 1: null, 2: null })))).toContain('replication factor 3 is larger than the 2 broker(s) given');
    expect(refused(() => assignReplicas('t', 3, 2, brokers({ 1: 'a', 2: null })))).toContain('--disable-rack-aware');
    expect(assignReplicas('t', 3, 2, brokers({ 1: 'a', 2: null }), { rackAware: false })).toHaveLength(3);
    expect(refused(() => assignReplicas('t', 3, 1, []))).toContain('at least one broker');
  });
});
