// A proposed replica assignment for partitions moved onto a set of brokers: what
// kafka-reassign-partitions.sh --generate proposes, by kafka-wire's own rule. Each partition keeps
// its replication factor; leaders (first replicas) go round the brokers, starting at a place the
// topic's name picks (so topics moved together do not all lead on one broker); followers go round
// from a place that shifts after each full round (so the same pairs do not repeat). Rack-aware
// when every broker has a rack: the brokers are ordered rack by rack in turn, and each follower is
// the next broker of the rack with the fewest of the partition's replicas so far, so a partition
// spans min(replication factor, racks) racks. Admin.planReassignment uses it; test/admin/
// reassign-plan.test.ts checks its rules, admin-three-nodes.test.ts against Kafka's tool.
import { invalid } from './errors.js';

export interface PlanBroker { id: number; rack: string | null }

/** The brokers in the order replicas are taken from: by id, or rack by rack in turn when rack-aware. */
function brokerOrder(brokers: readonly PlanBroker[], rackAware: boolean): PlanBroker[] {
  const byId = [...brokers].sort((a, b) => a.id - b.id);
  if (!rackAware) return byId;
  const racks = new Map<string, PlanBroker[]>();
  for (const b of byId) racks.set(b.rack!, [...(racks.get(b.rack!) ?? []), b]);
  const lists = [...racks.keys()].sort().map((r) => racks.get(r)!);
  const order: PlanBroker[] = [];
  for (let round = 0; order.length < byId.length; round++) for (const list of lists) if (round < list.length) order.push(list[round]!);
  return order;
}

/** A small stable number from a topic's name: where its leaders start. */
function startOf(topic: string, n: number): number {
  let h = 0;
  for (let i = 0; i < topic.length; i++) h = (h * 31 + topic.charCodeAt(i)) >>> 0;
  return h % n;
}

/**
 * Replicas for `partitions` partitions of `topic` at `replicationFactor` on `brokers`.
 * `rackAware` (default: when every broker has a rack) spreads each partition over racks; a
 * cluster where only some brokers have racks is refused unless `rackAware` is false (as Kafka's
 * tool refuses it without --disable-rack-aware).
 */
export function assignReplicas(topic: string, partitions: number, replicationFactor: number, brokers: readonly PlanBroker[], options: { rackAware?: boolean } = {}): number[][] {
  const n = brokers.length;
  if (n === 0) throw invalid('a reassignment plan needs at least one broker');
  if (new Set(brokers.map((b) => b.id)).size !== n) throw invalid('a reassignment plan\'s broker list names a broker twice');
  if (replicationFactor < 1 || replicationFactor > n) throw invalid(`topic ${topic}: replication factor ${replicationFactor} is larger than the ${n} broker(s) given`, `topic ${topic}`);
  const withRack = brokers.filter((b) => b.rack !== null).length;
  if (options.rackAware === true && withRack < n) throw invalid(`not every broker has a rack (${brokers.filter((b) => b.rack === null).map((b) => b.id).join(', ')} have none): plan without rack awareness`);
  if (options.rackAware === undefined && withRack > 0 && withRack < n) {
    throw invalid('not all brokers have rack information: plan with rack awareness off (--disable-rack-aware)');
  }
  const rackAware = options.rackAware ?? withRack === n;
  const order = brokerOrder(brokers, rackAware);
  const start = startOf(topic, n);
  const out: number[][] = [];
  for (let p = 0; p < partitions; p++) {
    const leader = (start + p) % n;
    const replicas = [order[leader]!];
    if (n > 1) {
      // Followers: round the order from a place after the leader that shifts each full round.
      const from = leader + 1 + (Math.floor(p / n) % (n - 1));
      const candidates: PlanBroker[] = [];
      for (let k = 0; k < n; k++) {
        const b = order[(from + k) % n]!;
        if (b !== order[leader]) candidates.push(b);
      }
      while (replicas.length < replicationFactor) {
        let pick = 0;
        if (rackAware) {
          const count = (rack: string | null) => replicas.filter((r) => r.rack === rack).length;
          for (let i = 1; i < candidates.length; i++) if (count(candidates[i]!.rack) < count(candidates[pick]!.rack)) pick = i;
        }
        replicas.push(candidates.splice(pick, 1)[0]!);
      }
    }
    out.push(replicas.map((b) => b.id));
  }
  return out;
}
