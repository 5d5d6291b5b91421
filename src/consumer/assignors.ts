// The client-side assignors of the classic protocol: the group leader runs one over every
// member's subscription and hands out the result through SyncGroup. Names and results match the
// Java client's and librdkafka's, so a group may mix kafka-wire with either:
//   range               per topic, members sorted by id, contiguous ranges (eager)
//   cooperative-sticky  balanced, keeps what members own, and moves a partition in two rebalances
//                       (the owner gives it up first), so nobody stops reading what it keeps

import type { Subscription, TopicPartitions } from './protocol.js';

export interface AssignorMember {
  memberId: string;
  groupInstanceId: string | null;
  subscription: Subscription;
}

/** memberId -> topic -> partitions. */
export type GroupAssignment = Map<string, Map<string, number[]>>;

export interface Assignor {
  /** The protocol name members announce in JoinGroup. */
  readonly name: string;
  /** eager: every member gives up everything before a rebalance; cooperative: only what moves. */
  readonly rebalance: 'eager' | 'cooperative';
  assign(members: readonly AssignorMember[], partitionsPerTopic: ReadonlyMap<string, number>): GroupAssignment;
}

/** Java orders members by group instance id when set, else by member id; so does this. */
function memberOrder(a: AssignorMember, b: AssignorMember): number {
  const ka = a.groupInstanceId ?? a.memberId;
  const kb = b.groupInstanceId ?? b.memberId;
  return ka < kb ? -1 : ka > kb ? 1 : a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;
}

function emptyAssignment(members: readonly AssignorMember[]): GroupAssignment {
  return new Map(members.map((m) => [m.memberId, new Map<string, number[]>()]));
}

function add(out: GroupAssignment, memberId: string, topic: string, partition: number): void {
  const byTopic = out.get(memberId)!;
  const list = byTopic.get(topic);
  if (list) list.push(partition); else byTopic.set(topic, [partition]);
}

export const rangeAssignor: Assignor = {
  name: 'range',
  rebalance: 'eager',
  assign(members, partitionsPerTopic) {
    const out = emptyAssignment(members);
    const topics = [...new Set(members.flatMap((m) => m.subscription.topics))].sort();
    for (const topic of topics) {
      const count = partitionsPerTopic.get(topic);
      if (count === undefined || count <= 0) continue;
      const subscribers = members.filter((m) => m.subscription.topics.includes(topic)).sort(memberOrder);
      const each = Math.floor(count / subscribers.length);
      const extra = count % subscribers.length;
      subscribers.forEach((m, i) => {
        const start = each * i + Math.min(i, extra);
        const length = each + (i < extra ? 1 : 0);
        for (let p = start; p < start + length; p++) add(out, m.memberId, topic, p);
      });
    }
    return out;
  },
};

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export const cooperativeStickyAssignor: Assignor = {
  name: 'cooperative-sticky',
  rebalance: 'cooperative',
  assign(members, partitionsPerTopic) {
    const sorted = [...members].sort(memberOrder);
    const subscribed = new Map(sorted.map((m) => [m.memberId, new Set(m.subscription.topics)]));
    // Every partition someone subscribes to, in a stable order.
    const all: [string, number][] = [];
    for (const topic of [...new Set(sorted.flatMap((m) => m.subscription.topics))].sort()) {
      const n = partitionsPerTopic.get(topic) ?? 0;
      for (let p = 0; p < n; p++) all.push([topic, p]);
    }
    const exists = new Set(all.map(([t, p]) => keyOf(t, p)));
    // Claims from the newest generation win; members reporting an older one lost theirs already.
    const newest = Math.max(-1, ...sorted.map((m) => m.subscription.generationId));
    const owner = new Map<string, string>();
    const contested = new Set<string>();
    for (const m of sorted) {
      if (m.subscription.generationId < newest) continue;
      for (const tp of m.subscription.ownedPartitions) {
        if (!subscribed.get(m.memberId)!.has(tp.topic)) continue;
        for (const p of tp.partitions) {
          const k = keyOf(tp.topic, p);
          if (!exists.has(k)) continue;
          if (owner.has(k) && owner.get(k) !== m.memberId) contested.add(k); else owner.set(k, m.memberId);
        }
      }
    }
    for (const k of contested) owner.delete(k);

    const held = new Map<string, [string, number][]>(sorted.map((m) => [m.memberId, []]));
    const byKey = new Map(all.map(([t, p]) => [keyOf(t, p), [t, p] as [string, number]]));
    for (const [k, m] of owner) held.get(m)!.push(byKey.get(k)!);
    // Nobody keeps more than an even share would give them.
    const eligible = (tp: [string, number]) => sorted.filter((m) => subscribed.get(m.memberId)!.has(tp[0]));
    const cap = sorted.length === 0 ? 0 : Math.ceil(all.length / sorted.length);
    const free: [string, number][] = [];
    for (const m of sorted) {
      const list = held.get(m.memberId)!.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      while (list.length > cap) free.push(list.pop()!);
    }
    for (const tp of all) if (!owner.has(keyOf(tp[0], tp[1]))) free.push(tp);
    // Each free partition to the eligible member holding fewest (ties: member order).
    for (const tp of free) {
      const candidates = eligible(tp);
      if (candidates.length === 0) continue;
      let best = candidates[0]!;
      for (const c of candidates) if (held.get(c.memberId)!.length < held.get(best.memberId)!.length) best = c;
      held.get(best.memberId)!.push(tp);
    }
    // Even out what remains uneven (different subscriptions): move from the fullest while it helps.
    for (let moves = 0; moves < all.length; moves++) {
      let moved = false;
      const byLoad = [...sorted].sort((a, b) => held.get(b.memberId)!.length - held.get(a.memberId)!.length);
      outer: for (const from of byLoad) {
        const list = held.get(from.memberId)!;
        for (let i = list.length - 1; i >= 0; i--) {
          const tp = list[i]!;
          for (const to of [...eligible(tp)].sort((a, b) => held.get(a.memberId)!.length - held.get(b.memberId)!.length)) {
            if (held.get(to.memberId)!.length + 1 < list.length) {
              list.splice(i, 1);
              held.get(to.memberId)!.push(tp);
              moved = true;
              break outer;
            }
          }
        }
      }
      if (!moved) break;
    }
    // Cooperative: a partition changing hands is left out this round; its owner gives it up and
    // rejoins, and the next rebalance hands it on.
    const out = emptyAssignment(sorted);
    for (const m of sorted) {
      for (const [t, p] of held.get(m.memberId)!) {
        const prev = owner.get(keyOf(t, p));
        if (prev !== undefined && prev !== m.memberId) continue;
        add(out, m.memberId, t, p);
      }
    }
    for (const byTopic of out.values()) for (const list of byTopic.values()) list.sort((a, b) => a - b);
    return out;
  },
};

export const ASSIGNORS: Readonly<Record<string, Assignor>> = {
  range: rangeAssignor,
  'cooperative-sticky': cooperativeStickyAssignor,
};

/** A GroupAssignment entry as the protocol's list form, topics sorted. */
export function toTopicPartitions(byTopic: ReadonlyMap<string, number[]> | undefined): TopicPartitions[] {
  if (!byTopic) return [];
  return [...byTopic].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([topic, partitions]) => ({ topic, partitions: [...partitions].sort((a, b) => a - b) }));
}
