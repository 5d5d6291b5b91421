// Library-neutral digests of decoded results, computed once per process outside the timed code:
// every contender must decode the same bytes to the same digest before it is timed.

const FNV_OFFSET = 0x811c9dc5;

function fnvBytes(h, b) {
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h;
}

function fnvString(h, s) {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ 0xff, 0x01000193);
}

function bytesOf(x) {
  if (x === null || x === undefined) return null;
  if (typeof x === 'string') return Buffer.from(x, 'utf8');
  return x;
}

/** Records digest: count, byte sums, and FNV-1a hashes of offsets, timestamps, keys, values, headers. */
export class RecordsDigest {
  constructor() {
    this.records = 0;
    this.keyBytes = 0;
    this.valueBytes = 0;
    this.headers = 0;
    this.headerBytes = 0;
    this.offsets = FNV_OFFSET;
    this.timestamps = FNV_OFFSET;
    this.content = FNV_OFFSET;
  }

  /** headers: array of [key (string or bytes), value (bytes or null)]. */
  add(offset, timestamp, key, value, headers) {
    this.records++;
    this.offsets = fnvString(this.offsets, BigInt(offset).toString());
    this.timestamps = fnvString(this.timestamps, BigInt(timestamp).toString());
    const k = bytesOf(key);
    const v = bytesOf(value);
    let h = this.content;
    if (k === null) h = fnvString(h, 'null'); else { h = fnvBytes(h, k); this.keyBytes += k.length; }
    h = fnvString(h, '|');
    if (v === null) h = fnvString(h, 'null'); else { h = fnvBytes(h, v); this.valueBytes += v.length; }
    for (const [hk, hv] of headers) {
      this.headers++;
      const kb = bytesOf(hk);
      const vb = bytesOf(hv);
      h = fnvString(h, '#');
      h = fnvBytes(h, kb);
      this.headerBytes += kb.length;
      if (vb === null) h = fnvString(h, 'null'); else { h = fnvBytes(h, vb); this.headerBytes += vb.length; }
    }
    this.content = h;
  }

  toJSON() {
    return {
      records: this.records, keyBytes: this.keyBytes, valueBytes: this.valueBytes, headers: this.headers, headerBytes: this.headerBytes,
      offsets: (this.offsets >>> 0).toString(16), timestamps: (this.timestamps >>> 0).toString(16), content: (this.content >>> 0).toString(16),
    };
  }
}

/** Metadata digest over brokers and every partition's leader, replicas, ISR and offline replicas. */
export class MetadataDigest {
  constructor() {
    this.brokers = 0;
    this.topics = 0;
    this.partitions = 0;
    this.replicas = 0;
    this.isr = 0;
    this.h = FNV_OFFSET;
  }

  broker(nodeId, host, port, rack) {
    this.brokers++;
    this.h = fnvString(this.h, `B${nodeId}/${host}/${port}/${rack}`);
  }

  topic(name, isInternal) {
    this.topics++;
    this.h = fnvString(this.h, `T${name}/${isInternal}`);
  }

  partition(index, leader, replicas, isr, offline) {
    this.partitions++;
    this.replicas += replicas.length;
    this.isr += isr.length;
    this.h = fnvString(this.h, `P${index}/${leader}/${replicas.join(',')}/${isr.join(',')}/${offline.join(',')}`);
  }

  toJSON() {
    return { brokers: this.brokers, topics: this.topics, partitions: this.partitions, replicas: this.replicas, isr: this.isr, hash: (this.h >>> 0).toString(16) };
  }
}

/** The digest of a Metadata response whose objects carry Kafka's schema names (kafka-wire, @platformatic/kafka). */
export function metadataDigest({ brokers, topics }) {
  const d = new MetadataDigest();
  for (const b of brokers) d.broker(b.nodeId, b.host, b.port, b.rack);
  for (const t of topics) {
    d.topic(t.name, t.isInternal);
    for (const p of t.partitions) d.partition(p.partitionIndex, p.leaderId, p.replicaNodes, p.isrNodes, p.offlineReplicas);
  }
  return d.toJSON();
}

export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
