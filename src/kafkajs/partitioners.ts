// kafkajs's two partitioners, giving the same partition for every message as kafkajs does:
//   DefaultPartitioner  keyed: the Java client's murmur2 (so keyed records land where Java puts them)
//   LegacyPartitioner   keyed: kafkajs 1.x's murmur2, computed in floating point (not Java's numbers;
//                       kept so that a topic written by kafkajs 1.x keeps its keys' partitions)
// Both send a message without a key round-robin over the partitions that have a leader, starting
// at a random place per topic; a message's own partition wins.
import { murmur2 } from '../producer/index.js';
// Their types (PartitionerArgs, ICustomPartitioner) are kafkajs's declared ones, in ./types.ts.
import type { DefaultPartitioner, ICustomPartitioner, LegacyPartitioner } from './types.js';

const encoder = new TextEncoder();
const keyBytes = (key: Buffer | string): Uint8Array => (typeof key === 'string' ? encoder.encode(key) : key);

/**
 * kafkajs 1.x's hash: murmur2's steps with `*` on doubles instead of 32-bit multiplies, and a
 * word loop that runs ceil(length / 4) times (a last partial word reads missing bytes as 0).
 */
export function legacyMurmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h: number = 0x9747b28c ^ length;
  const at = (i: number) => (i < length ? data[i]! : 0);
  for (let i = 0; i < length / 4; i++) {
    const j = i * 4;
    let k: number = at(j) + (at(j + 1) << 8) + (at(j + 2) << 16) + (at(j + 3) << 24);
    k = k * m;
    k = k ^ (k >>> 24);
    k = k * m;
    h = h * m;
    h = h ^ k;
  }
  const tail = length & ~3;
  switch (length % 4) {
    case 3: h = h ^ (data[tail + 2]! << 16); // falls through
    case 2: h = h ^ (data[tail + 1]! << 8); // falls through
    case 1: h = h ^ data[tail]!; h = h * m;
  }
  h = h ^ (h >>> 13);
  h = h * m;
  h = h ^ (h >>> 15);
  return h;
}

function roundRobinStart(): number {
  const bytes = new Uint32Array(1);
  globalThis.crypto.getRandomValues(bytes);
  return bytes[0]!;
}

const make = (hash: (key: Uint8Array) => number): ICustomPartitioner => () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }) => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    const count = partitionMetadata.length;
    if (message.key !== null && message.key !== undefined) return (hash(keyBytes(message.key)) & 0x7fffffff) % count;
    const next = (counters.get(topic) ?? roundRobinStart()) + 1;
    counters.set(topic, next);
    const available = partitionMetadata.filter((p) => p.leader >= 0);
    if (available.length > 0) return available[(next & 0x7fffffff) % available.length]!.partitionId;
    return (next & 0x7fffffff) % count;
  };
};

export const Partitioners: { DefaultPartitioner: DefaultPartitioner; LegacyPartitioner: LegacyPartitioner; JavaCompatiblePartitioner: DefaultPartitioner } = {
  DefaultPartitioner: make((key) => murmur2(key)),
  LegacyPartitioner: make(legacyMurmur2),
  JavaCompatiblePartitioner: make((key) => murmur2(key)),
};
