// Test helper: builds Kafka record data by hand, independently of the library, so peers that
// look inside a Produce/Fetch records field (Wireshark does) see real batches.
//   - RecordBatch v2 (magic 2, KIP-98): header, CRC-32C over attributes..end, varint records.
//   - Legacy message sets (magic 0 and 1): offset, size, CRC-32 (IEEE) over magic..end.

export interface TestRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers?: { key: string; value: Uint8Array | null }[];
  /** Added to the batch's base timestamp. */
  timestampDelta?: number;
}

export interface BatchOptions {
  baseOffset?: bigint;
  partitionLeaderEpoch?: number;
  attributes?: number;
  baseTimestamp?: bigint;
  producerId?: bigint;
  producerEpoch?: number;
  baseSequence?: number;
}

function makeCrcTable(poly: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

const CRC32C_TABLE = makeCrcTable(0x82f63b78); // Castagnoli, reflected
const CRC32_TABLE = makeCrcTable(0xedb88320); // IEEE 802.3, reflected

function crc(table: Uint32Array, bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export const crc32c = (bytes: Uint8Array): number => crc(CRC32C_TABLE, bytes);
export const crc32 = (bytes: Uint8Array): number => crc(CRC32_TABLE, bytes);

/** A growable big-endian byte writer with Kafka's zigzag varints. */
class Out {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }
  int8(v: number): this { this.room(1); this.view.setInt8(this.length, v); this.length += 1; return this; }
  int16(v: number): this { this.room(2); this.view.setInt16(this.length, v); this.length += 2; return this; }
  int32(v: number): this { this.room(4); this.view.setInt32(this.length, v); this.length += 4; return this; }
  uint32(v: number): this { this.room(4); this.view.setUint32(this.length, v); this.length += 4; return this; }
  int64(v: bigint): this { this.room(8); this.view.setBigInt64(this.length, v); this.length += 8; return this; }
  raw(b: Uint8Array): this { this.room(b.length); this.buf.set(b, this.length); this.length += b.length; return this; }
  /** Unsigned LEB128 of a non-negative bigint. */
  uvarlong(v: bigint): this {
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      this.room(1);
      this.buf[this.length++] = byte;
    } while (v !== 0n);
    return this;
  }
  varlong(v: bigint): this { return this.uvarlong(BigInt.asUintN(64, (v << 1n) ^ (v >> 63n))); }
  varint(v: number): this { return this.varlong(BigInt(v)); }
  /** varint length then content; null as length -1. */
  varBytes(b: Uint8Array | null): this { return b === null ? this.varint(-1) : this.varint(b.length).raw(b); }
  bytes(): Uint8Array { return this.buf.slice(0, this.length); }
  patchInt32(at: number, v: number): void { this.view.setInt32(at, v); }
  patchUint32(at: number, v: number): void { this.view.setUint32(at, v); }
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** One RecordBatch (magic 2), uncompressed. */
export function recordBatch(records: TestRecord[], options: BatchOptions = {}): Uint8Array {
  const baseTimestamp = options.baseTimestamp ?? 1_700_000_000_000n;
  let maxTimestamp = baseTimestamp;
  const body = new Out();
  records.forEach((r, i) => {
    const rec = new Out();
    rec.int8(0); // record attributes, unused
    const delta = BigInt(r.timestampDelta ?? i);
    if (baseTimestamp + delta > maxTimestamp) maxTimestamp = baseTimestamp + delta;
    rec.varlong(delta);
    rec.varint(i); // offset delta
    rec.varBytes(r.key);
    rec.varBytes(r.value);
    const headers = r.headers ?? [];
    rec.varint(headers.length);
    for (const h of headers) rec.varBytes(utf8(h.key)).varBytes(h.value);
    body.varint(rec.length).raw(rec.bytes());
  });
  const out = new Out();
  out.int64(options.baseOffset ?? 0n);
  out.int32(0); // batch length, patched below
  out.int32(options.partitionLeaderEpoch ?? -1);
  out.int8(2); // magic
  out.uint32(0); // crc, patched below
  const crcStart = out.length;
  out.int16(options.attributes ?? 0);
  out.int32(records.length - 1); // last offset delta
  out.int64(baseTimestamp);
  out.int64(maxTimestamp);
  out.int64(options.producerId ?? -1n);
  out.int16(options.producerEpoch ?? -1);
  out.int32(options.baseSequence ?? -1);
  out.int32(records.length);
  out.raw(body.bytes());
  out.patchInt32(8, out.length - 12);
  const bytes = out.bytes();
  new DataView(bytes.buffer).setUint32(17, crc32c(bytes.subarray(crcStart)));
  return bytes;
}

/**
 * A legacy message set of uncompressed messages, magic 0 or 1. Offsets are 0, 1, … unless
 * `offsetOf` says otherwise (producers may write anything there; kafkajs writes -1).
 */
export function messageSet(records: TestRecord[], magic: 0 | 1, baseTimestamp = 1_700_000_000_000n,
  offsetOf: (i: number) => bigint = (i) => BigInt(i)): Uint8Array {
  const out = new Out();
  records.forEach((r, i) => {
    const message = new Out();
    message.int8(magic).int8(0); // magic, attributes (no compression, create time)
    if (magic === 1) message.int64(baseTimestamp + BigInt(r.timestampDelta ?? i));
    const key = r.key;
    const value = r.value;
    if (key === null) message.int32(-1); else message.int32(key.length).raw(key);
    if (value === null) message.int32(-1); else message.int32(value.length).raw(value);
    const content = message.bytes();
    out.int64(offsetOf(i)).int32(4 + content.length).uint32(crc32(content)).raw(content);
  });
  return out.bytes();
}

/** Decodes a RecordBatch v2 back into its fields (to check what a peer decoded). */
export function readRecordBatch(bytes: Uint8Array): { crc: number; computedCrc: number; count: number; baseOffset: bigint } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    baseOffset: view.getBigInt64(0),
    crc: view.getUint32(17),
    computedCrc: crc32c(bytes.subarray(21, 12 + view.getInt32(8))),
    count: view.getInt32(57),
  };
}
