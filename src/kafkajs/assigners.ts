// kafkajs's group assignment pieces: AssignerProtocol (the consumer protocol's version-0
// subscription and assignment bytes, as kafkajs encodes them) and PartitionAssigners.roundRobin,
// both as a kafkajs-shaped assigner and as the kafka-wire Assignor the consumer runs, under
// kafkajs's protocol name, so a group may mix kafkajs members and kafka-wire/kafkajs ones.
import type { Assignor, GroupAssignment } from '../consumer/index.js';
import type { Assigner, Assignment, ISerializer, MemberAssignment, MemberMetadata, PartitionAssigner } from './types.js';

export const ROUND_ROBIN = 'RoundRobinAssigner';

class Writer {
  readonly parts: Buffer[] = [];
  int16(n: number): this { const b = Buffer.alloc(2); b.writeInt16BE(n); this.parts.push(b); return this; }
  int32(n: number): this { const b = Buffer.alloc(4); b.writeInt32BE(n); this.parts.push(b); return this; }
  string(s: string): this { const b = Buffer.from(s, 'utf8'); return this.int16(b.length).push(b); }
  bytes(b: Buffer): this { return this.int32(b.length).push(b); }
  push(b: Buffer): this { this.parts.push(b); return this; }
  done(): Buffer { return Buffer.concat(this.parts); }
}

class Reader {
  at = 0;
  constructor(readonly b: Buffer) {}
  #need(n: number): void { if (this.at + n > this.b.length) throw new RangeError(`consumer protocol bytes end at ${this.b.length}, ${n} more needed at ${this.at}`); }
  int16(): number { this.#need(2); const v = this.b.readInt16BE(this.at); this.at += 2; return v; }
  int32(): number { this.#need(4); const v = this.b.readInt32BE(this.at); this.at += 4; return v; }
  count(): number { const n = this.int32(); if (n > this.b.length - this.at) throw new RangeError(`array of ${n} in ${this.b.length} bytes`); return Math.max(n, 0); }
  string(): string { const n = this.int16(); if (n < 0) return ''; this.#need(n); const s = this.b.toString('utf8', this.at, this.at + n); this.at += n; return s; }
  bytes(): Buffer { if (this.at >= this.b.length) return Buffer.alloc(0); const n = this.int32(); if (n < 0) return Buffer.alloc(0); this.#need(n); const s = this.b.subarray(this.at, this.at + n); this.at += n; return Buffer.from(s); }
}

const memberMetadata: ISerializer<MemberMetadata> = {
  encode({ version, topics, userData }) {
    const w = new Writer().int16(version).int32(topics.length);
    for (const t of topics) w.string(t);
    return w.bytes(userData ?? Buffer.alloc(0)).done();
  },
  decode(buffer) {
    if (buffer.length === 0) return null;
    const r = new Reader(buffer);
    const version = r.int16();
    const topics: string[] = [];
    for (let n = r.count(); n > 0; n--) topics.push(r.string());
    return { version, topics, userData: r.bytes() };
  },
};

const memberAssignment: ISerializer<MemberAssignment> = {
  encode({ version, assignment, userData }) {
    const topics = Object.keys(assignment);
    const w = new Writer().int16(version).int32(topics.length);
    for (const t of topics) {
      w.string(t).int32(assignment[t]!.length);
      for (const p of assignment[t]!) w.int32(p);
    }
    return w.bytes(userData ?? Buffer.alloc(0)).done();
  },
  decode(buffer) {
    if (buffer.length === 0) return null;
    const r = new Reader(buffer);
    const version = r.int16();
    const assignment: Assignment = {};
    for (let n = r.count(); n > 0; n--) {
      const topic = r.string();
      const partitions: number[] = [];
      for (let m = r.count(); m > 0; m--) partitions.push(r.int32());
      assignment[topic] = partitions;
    }
    return { version, assignment, userData: r.bytes() };
  },
};

export const AssignerProtocol: { MemberMetadata: ISerializer<MemberMetadata>; MemberAssignment: ISerializer<MemberAssignment> } = {
  MemberMetadata: memberMetadata,
  MemberAssignment: memberAssignment,
};

/** kafkajs's round robin: every subscribed topic's partitions in turn over the members sorted by id. */
function roundRobin(memberIds: readonly string[], partitions: readonly { topic: string; partition: number }[]): Map<string, Map<string, number[]>> {
  const sorted = [...memberIds].sort();
  const out: GroupAssignment = new Map(sorted.map((m) => [m, new Map<string, number[]>()]));
  partitions.forEach(({ topic, partition }, i) => {
    const byTopic = out.get(sorted[i % sorted.length]!)!;
    const list = byTopic.get(topic);
    if (list === undefined) byTopic.set(topic, [partition]); else list.push(partition);
  });
  return out;
}

const roundRobinAssigner: PartitionAssigner = ({ cluster }) => {
  const self: Assigner = {
    name: ROUND_ROBIN,
    version: 0,
    async assign({ members, topics }) {
      const partitions = topics.flatMap((topic) => cluster.findTopicPartitionMetadata(topic).map((m) => ({ topic, partition: m.partitionId })));
      const out = roundRobin(members.map((m) => m.memberId), partitions);
      return [...out].filter(([, a]) => a.size > 0).map(([memberId, a]) => ({
        memberId, memberAssignment: memberAssignment.encode({ version: self.version, assignment: Object.fromEntries(a), userData: Buffer.alloc(0) }),
      }));
    },
    protocol({ topics }) {
      return { name: self.name, metadata: memberMetadata.encode({ version: self.version, topics, userData: Buffer.alloc(0) }) };
    },
  };
  return self;
};

export const PartitionAssigners: { roundRobin: PartitionAssigner } = { roundRobin: roundRobinAssigner };

/** The round robin as the kafka-wire consumer runs it when it leads the group. */
export const roundRobinAssignor: Assignor = {
  name: ROUND_ROBIN,
  rebalance: 'eager',
  assign(members, partitionsPerTopic) {
    const topics = [...new Set(members.flatMap((m) => m.subscription.topics))].sort();
    const partitions = topics.flatMap((topic) => Array.from({ length: partitionsPerTopic.get(topic) ?? 0 }, (_, partition) => ({ topic, partition })));
    return roundRobin(members.map((m) => m.memberId), partitions);
  },
};
