// Shared helpers for the records tests: kafkajs's encoder as an independent reference.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { peer } from '../helpers/peer.js';

const require = createRequire(import.meta.url);
const { RecordBatch: KjsRecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js');
const KjsRecord = require('kafkajs/src/protocol/recordBatch/record/v0/index.js');
const KjsDecoder = require('kafkajs/src/protocol/decoder.js');
const kjsDecodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder.js');
const Long = require('kafkajs/src/utils/long.js');

export interface RefRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string>;
  offsetDelta: number;
  timestampDelta: number;
}

export interface RefBatch {
  compression?: number;
  firstOffset?: bigint;
  firstTimestamp: number;
  maxTimestamp: number;
  partitionLeaderEpoch?: number;
  lastOffsetDelta: number;
  transactional?: boolean;
  producerId?: bigint;
  producerEpoch?: number;
  firstSequence?: number;
  records: RefRecord[];
}

/** Encodes a batch with kafkajs (an independent implementation). */
export async function kafkajsBatch(b: RefBatch): Promise<Uint8Array> {
  const encoder = await KjsRecordBatch({
    compression: b.compression ?? 0,
    firstOffset: Long.fromString(String(b.firstOffset ?? 0n)),
    firstTimestamp: b.firstTimestamp,
    maxTimestamp: b.maxTimestamp,
    partitionLeaderEpoch: b.partitionLeaderEpoch ?? 0,
    lastOffsetDelta: b.lastOffsetDelta,
    transactional: b.transactional ?? false,
    producerId: Long.fromString(String(b.producerId ?? -1n)),
    producerEpoch: b.producerEpoch ?? 0,
    firstSequence: b.firstSequence ?? 0,
    records: b.records.map((r) => KjsRecord({
      offsetDelta: r.offsetDelta,
      timestampDelta: r.timestampDelta,
      key: r.key,
      value: r.value,
      headers: r.headers ?? {},
    })),
  });
  return new Uint8Array(encoder.buffer);
}

/** Decodes one batch with kafkajs. */
export async function kafkajsDecode(bytes: Uint8Array): Promise<any> {
  return kjsDecodeBatch(new KjsDecoder(Buffer.from(bytes)));
}

export function hex(b: Uint8Array | null): string | null {
  return b === null ? null : Buffer.from(b).toString('hex');
}

export function bytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

// ---------------------------------------------------------------------------------------------
// An independent, deliberately simple encoder (BigInt arithmetic, bit-by-bit CRCs) for building
// vectors by hand from the protocol spec, including broken ones.

export function zigzagVarint(v: bigint | number, bits = 64): number[] {
  const x = BigInt(v);
  let z = BigInt.asUintN(bits, (x << 1n) ^ (x >> BigInt(bits - 1)));
  const out: number[] = [];
  while (z >= 0x80n) { out.push(Number(z & 0x7fn) | 0x80); z >>= 7n; }
  out.push(Number(z));
  return out;
}

function crcBitwise(poly: number, data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
export const crc32cRef = (d: Uint8Array) => crcBitwise(0x82f63b78, d);
export const crc32Ref = (d: Uint8Array) => crcBitwise(0xedb88320, d);

export interface RawRecord {
  attributes?: number;
  timestampDelta?: bigint | number;
  offsetDelta?: number;
  key?: Uint8Array | null;
  value?: Uint8Array | null;
  headers?: { key: Uint8Array; value: Uint8Array | null }[];
}

export function rawRecordBody(r: RawRecord): number[] {
  const body: number[] = [r.attributes ?? 0, ...zigzagVarint(r.timestampDelta ?? 0), ...zigzagVarint(r.offsetDelta ?? 0, 32)];
  const field = (b: Uint8Array | null | undefined) => {
    if (b == null) { body.push(...zigzagVarint(-1, 32)); return; }
    body.push(...zigzagVarint(b.length, 32));
    for (const x of b) body.push(x);
  };
  field(r.key ?? null);
  field(r.value ?? null);
  const hs = r.headers ?? [];
  body.push(...zigzagVarint(hs.length, 32));
  for (const h of hs) { field(h.key); field(h.value); }
  return body;
}

export function rawRecord(r: RawRecord): number[] {
  const body = rawRecordBody(r);
  const out = zigzagVarint(body.length, 32);
  for (const x of body) out.push(x);
  return out;
}

export interface RawBatch {
  baseOffset?: bigint;
  partitionLeaderEpoch?: number;
  attributes?: number;
  lastOffsetDelta?: number;
  baseTimestamp?: bigint;
  maxTimestamp?: bigint;
  producerId?: bigint;
  producerEpoch?: number;
  baseSequence?: number;
  recordCount?: number;
  magic?: number;
  crc?: number;
}

/** A v2 batch around an already encoded records section; CRC computed unless given. */
export function rawBatch(h: RawBatch, records: Uint8Array | number[], count?: number): Uint8Array {
  const rec = records instanceof Uint8Array ? records : new Uint8Array(records);
  const out = new Uint8Array(61 + rec.length);
  const v = new DataView(out.buffer);
  v.setBigInt64(0, h.baseOffset ?? 0n);
  v.setInt32(8, 49 + rec.length);
  v.setInt32(12, h.partitionLeaderEpoch ?? 0);
  v.setInt8(16, h.magic ?? 2);
  v.setInt16(21, h.attributes ?? 0);
  v.setInt32(23, h.lastOffsetDelta ?? 0);
  v.setBigInt64(27, h.baseTimestamp ?? 0n);
  v.setBigInt64(35, h.maxTimestamp ?? 0n);
  v.setBigInt64(43, h.producerId ?? -1n);
  v.setInt16(51, h.producerEpoch ?? -1);
  v.setInt32(53, h.baseSequence ?? -1);
  v.setInt32(57, h.recordCount ?? count ?? 0);
  out.set(rec, 61);
  v.setUint32(17, h.crc ?? crc32cRef(out.subarray(21)));
  return out;
}

/** Recomputes the CRC-32C of a (modified) v2 batch in place. */
export function fixCrc(batch: Uint8Array, at = 0): Uint8Array {
  const v = new DataView(batch.buffer, batch.byteOffset);
  const len = v.getInt32(at + 8);
  v.setUint32(at + 17, crc32cRef(batch.subarray(at + 21, at + 12 + len)));
  return batch;
}

export interface LegacyMsg {
  offset: bigint;
  magic: 0 | 1;
  attributes?: number;
  timestamp?: bigint;
  key: Uint8Array | null;
  value: Uint8Array | null;
}

/** One legacy message (offset, size, crc, magic, attributes, [timestamp], key, value). */
export function legacyMessage(m: LegacyMsg): Uint8Array {
  const body: number[] = [m.magic, m.attributes ?? 0];
  if (m.magic === 1) {
    const t = new Uint8Array(8);
    new DataView(t.buffer).setBigInt64(0, m.timestamp ?? -1n);
    body.push(...t);
  }
  const field = (b: Uint8Array | null) => {
    const l = new Uint8Array(4);
    new DataView(l.buffer).setInt32(0, b === null ? -1 : b.length);
    body.push(...l);
    if (b) body.push(...b);
  };
  field(m.key);
  field(m.value);
  const bodyBytes = new Uint8Array(body);
  const out = new Uint8Array(16 + bodyBytes.length);
  const v = new DataView(out.buffer);
  v.setBigInt64(0, m.offset);
  v.setInt32(8, 4 + bodyBytes.length);
  v.setUint32(12, crc32Ref(bodyBytes));
  out.set(bodyBytes, 16);
  return out;
}

/** Whether a command-line tool runs here (`tool --version` succeeds). */
/** Whether a reference command (zstd, lz4, gzip) runs; the peer rule: in CI a missing one fails. */
export function hasTool(tool: string): boolean {
  let ok = false;
  try { execFileSync(tool, ['--version'], { stdio: 'ignore' }); ok = true; } catch { ok = false; }
  return peer(`the ${tool} command`, ok, `apt-get install ${tool}`);
}
