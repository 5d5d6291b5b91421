// The consumer protocol's embedded bytes: what a member puts in JoinGroup's metadata (its
// subscription) and what the leader hands each member through SyncGroup (its assignment).
// Kafka defines both as non-flexible messages (ConsumerProtocolSubscription v0-3,
// ConsumerProtocolAssignment v0-3) that are not Kafka APIs, so they are not in the codec's
// catalogue; this small reader and writer does them by hand. A reader of a newer version reads
// the fields it knows and ignores the rest, as Java and librdkafka do.

import { ConsumerError } from './errors.js';
import { be16, be32 } from '../bytes.js';
import type { KafkaClient, TopicInfo } from '../wire/client.js';

/** Partitions of one topic. */
export interface TopicPartitions { topic: string; partitions: number[] }

export interface Subscription {
  /** The version to write (0-3); decoded: the version read. */
  version: number;
  topics: string[];
  userData: Uint8Array | null;
  /** v1+: what the member owns now (the cooperative protocol relies on it). */
  ownedPartitions: TopicPartitions[];
  /** v2+: the generation the owned partitions are from; -1 unknown. */
  generationId: number;
  /** v3+: the member's rack. */
  rackId: string | null;
}

export interface Assignment {
  version: number;
  assignedPartitions: TopicPartitions[];
  userData: Uint8Array | null;
}

/** The protocol type every consumer group member announces. */
export const CONSUMER_PROTOCOL_TYPE = 'consumer';
/** Highest versions written (v3 adds only the rack, which this consumer does not set). */
export const SUBSCRIPTION_VERSION = 2;
export const ASSIGNMENT_VERSION = 2;

const utf8 = new TextEncoder();
const text = new TextDecoder('utf-8', { fatal: true });

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  pos = 0;
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
    this.view = new DataView(bigger.buffer);
  }
  int16(v: number): void { this.room(2); this.view.setInt16(this.pos, v); this.pos += 2; }
  int32(v: number): void { this.room(4); this.view.setInt32(this.pos, v); this.pos += 4; }
  string(s: string | null): void {
    if (s === null) { this.int16(-1); return; }
    const b = utf8.encode(s);
    if (b.length > 0x7fff) throw new ConsumerError('PROTOCOL', `string of ${b.length} bytes is longer than an int16 length allows`);
    this.int16(b.length);
    this.room(b.length); this.buf.set(b, this.pos); this.pos += b.length;
  }
  bytes(b: Uint8Array | null): void {
    if (b === null) { this.int32(-1); return; }
    this.int32(b.length);
    this.room(b.length); this.buf.set(b, this.pos); this.pos += b.length;
  }
  topicPartitions(list: readonly TopicPartitions[]): void {
    this.int32(list.length);
    for (const tp of list) {
      this.string(tp.topic);
      this.int32(tp.partitions.length);
      for (const p of tp.partitions) this.int32(p);
    }
  }
  done(): Uint8Array { return this.buf.slice(0, this.pos); }
}

/** Reads with a bounds check before every read, so bad lengths fail with where and what. */
class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array, private readonly what: string) {}
  get remaining(): number { return this.bytes.length - this.pos; }
  private need(n: number, path: string): void {
    if (n > this.remaining) {
      throw new ConsumerError('PROTOCOL', `${this.what}: ${path} needs ${n} bytes at offset ${this.pos}, ${this.remaining} left`,
        { offset: this.pos, path });
    }
  }
  int16(path: string): number { this.need(2, path); const v = be16(this.bytes, this.pos); this.pos += 2; return v; }
  int32(path: string): number { this.need(4, path); const v = be32(this.bytes, this.pos); this.pos += 4; return v; }
  string(path: string, nullable = false): string | null {
    const at = this.pos;
    const n = this.int16(path);
    if (n < 0) {
      if (nullable && n === -1) return null;
      throw new ConsumerError('PROTOCOL', `${this.what}: ${path} has length ${n} at offset ${at}`, { offset: at, path });
    }
    this.need(n, path);
    try {
      return text.decode(this.bytes.subarray(this.pos, this.pos += n));
    } catch (cause) {
      throw new ConsumerError('PROTOCOL', `${this.what}: ${path} at offset ${at} is not UTF-8`, { offset: at, path, cause });
    }
  }
  bytesOrNull(path: string): Uint8Array | null {
    const at = this.pos;
    const n = this.int32(path);
    if (n === -1) return null;
    if (n < 0) throw new ConsumerError('PROTOCOL', `${this.what}: ${path} has length ${n} at offset ${at}`, { offset: at, path });
    this.need(n, path);
    return this.bytes.slice(this.pos, this.pos += n);
  }
  /** An array's count, refused when even its smallest elements could not fit in what is left. */
  count(path: string, minElementBytes: number): number {
    const at = this.pos;
    const n = this.int32(path);
    if (n < 0 || n * minElementBytes > this.remaining) {
      throw new ConsumerError('PROTOCOL', `${this.what}: ${path} count ${n} at offset ${at} does not fit in ${this.remaining} bytes`, { offset: at, path });
    }
    return n;
  }
  topicPartitions(path: string): TopicPartitions[] {
    const out: TopicPartitions[] = [];
    const n = this.count(path, 6);
    for (let i = 0; i < n; i++) {
      const topic = this.string(`${path}[${i}].topic`)!;
      const m = this.count(`${path}[${i}].partitions`, 4);
      const partitions: number[] = [];
      for (let j = 0; j < m; j++) partitions.push(this.int32(`${path}[${i}].partitions[${j}]`));
      out.push({ topic, partitions });
    }
    return out;
  }
}

export function encodeSubscription(s: Partial<Subscription> & { topics: string[] }): Uint8Array {
  const version = s.version ?? SUBSCRIPTION_VERSION;
  const w = new Writer();
  w.int16(version);
  w.int32(s.topics.length);
  for (const t of s.topics) w.string(t);
  w.bytes(s.userData ?? null);
  if (version >= 1) w.topicPartitions(s.ownedPartitions ?? []);
  if (version >= 2) w.int32(s.generationId ?? -1);
  if (version >= 3) w.string(s.rackId ?? null);
  return w.done();
}

export function decodeSubscription(bytes: Uint8Array): Subscription {
  const r = new Reader(bytes, 'ConsumerProtocolSubscription');
  const version = r.int16('version');
  if (version < 0) throw new ConsumerError('PROTOCOL', `ConsumerProtocolSubscription: version ${version}`, { offset: 0, path: 'version' });
  const topics: string[] = [];
  const n = r.count('topics', 2);
  for (let i = 0; i < n; i++) topics.push(r.string(`topics[${i}]`)!);
  const userData = r.bytesOrNull('userData');
  // Fields a version has are read when present: an older writer may stop early (librdkafka's v0/v1).
  const ownedPartitions = version >= 1 && r.remaining > 0 ? r.topicPartitions('ownedPartitions') : [];
  const generationId = version >= 2 && r.remaining > 0 ? r.int32('generationId') : -1;
  const rackId = version >= 3 && r.remaining > 0 ? r.string('rackId', true) : null;
  return { version, topics, userData, ownedPartitions, generationId, rackId };
}

export function encodeAssignment(a: Partial<Assignment> & { assignedPartitions: TopicPartitions[] }): Uint8Array {
  const w = new Writer();
  w.int16(a.version ?? ASSIGNMENT_VERSION);
  w.topicPartitions(a.assignedPartitions);
  w.bytes(a.userData ?? null);
  return w.done();
}

/** An empty byte string is "no assignment" (what the coordinator sends a member the leader left out). */
export function decodeAssignment(bytes: Uint8Array): Assignment {
  if (bytes.length === 0) return { version: 0, assignedPartitions: [], userData: null };
  const r = new Reader(bytes, 'ConsumerProtocolAssignment');
  const version = r.int16('version');
  if (version < 0) throw new ConsumerError('PROTOCOL', `ConsumerProtocolAssignment: version ${version}`, { offset: 0, path: 'version' });
  const assignedPartitions = r.topicPartitions('assignedPartitions');
  const userData = r.remaining > 0 ? r.bytesOrNull('userData') : null;
  return { version, assignedPartitions, userData };
}

/**
 * A KIP-848 or share-group assignment (topic ids) as topic names, partitions sorted. Ids or
 * partitions the client's metadata lacks are looked up once (metadata of `refresh`: the topics
 * named, or all with null); what is still unknown is left out, said through `debug` (a
 * corrupted answer, or a topic too new for this broker's metadata): the caller asks again.
 */
export async function namedAssignment(client: KafkaClient, list: readonly { topicId: string; partitions: number[] }[],
  refresh: readonly string[] | null, debug?: (message: string) => void): Promise<TopicPartitions[]> {
  const byId = () => new Map([...client.topics.values()].map((t) => [t.topicId, t]));
  const known = (topics: Map<string, TopicInfo>, t: { topicId: string; partitions: number[] }) => {
    const info = topics.get(t.topicId);
    return info !== undefined && t.partitions.every((p) => info.partitions.some((q) => q.partition === p));
  };
  let topics = byId();
  if (!list.every((t) => known(topics, t))) { await client.metadata(refresh === null ? null : [...refresh]); topics = byId(); }
  const out: TopicPartitions[] = [];
  for (const t of list) {
    const info = topics.get(t.topicId);
    if (info === undefined) { debug?.(`assigned topic id ${t.topicId} is not in metadata yet`); continue; }
    const partitions = t.partitions.filter((p) => info.partitions.some((q) => q.partition === p));
    if (partitions.length < t.partitions.length) {
      debug?.(`assigned partitions ${t.partitions.filter((p) => !partitions.includes(p)).join(', ')} of ${info.name} are not in metadata`);
    }
    if (partitions.length > 0) out.push({ topic: info.name, partitions: partitions.sort((a, b) => a - b) });
  }
  return out;
}
