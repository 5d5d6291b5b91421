// Deterministic workload bytes, built once by the parent process (with kafka-wire's encoders) and
// written to a temporary directory that every child process reads: all contenders get the very
// same bytes. Nothing here is timed.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecordsDigest, metadataDigest } from './digest.mjs';
import { prng } from './prng.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = join(ROOT, 'dist');
/** The command line built in checkout `root` as its users run it: its package.json's bin (a baseline's may be elsewhere). */
export function binOf(root) {
  return join(root, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin['kafka-wire']);
}
/** Benchmark-only peers live here (bench/package.json, installed by npm run bench). */
export const BENCH_MODULES = join(ROOT, 'bench/node_modules');
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export const RECORDS_PER_BATCH = 1000;
export const KEY_BYTES = 16;
export const VALUE_BYTES = 100;
export const BASE_TIMESTAMP = 1_700_000_000_000;
export const BASE_OFFSET = 5_000_000;
export const TOPIC = 'bench-topic';
export const META_TOPICS = 500;
export const META_PARTITIONS = 10;
export const META_REPLICAS = 3;
export const STREAM_BYTES = 64 * 1024 * 1024;
export const CHUNK_BYTES = 64 * 1024;
export const CRC_BYTES = 1024 * 1024;


const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The records of batch `b`: 16-byte key, 100-byte JSON-like value (compresses about 3-5x, like
 * real event payloads), one header ("trace-id" -> 16 bytes). Returned as plain byte arrays.
 */
export function makeRecords(b) {
  const rnd = prng(1000 + b);
  const out = [];
  for (let i = 0; i < RECORDS_PER_BATCH; i++) {
    const n = b * RECORDS_PER_BATCH + i;
    const key = Buffer.from(`key-${String(n).padStart(12, '0')}`, 'latin1');
    let v = `{"id":${n},"user":"u${Math.floor(rnd() * 100000)}","event":"${['click', 'view', 'buy', 'scroll'][Math.floor(rnd() * 4)]}","amount":${Math.floor(rnd() * 1e6)},"note":"`;
    while (v.length < VALUE_BYTES - 2) v += LETTERS[Math.floor(rnd() * 8)];
    v += '"}';
    const value = Buffer.from(v, 'latin1');
    let trace = '';
    for (let j = 0; j < 16; j++) trace += '0123456789abcdef'[Math.floor(rnd() * 16)];
    out.push({ key, value, headerKey: 'trace-id', headerValue: Buffer.from(trace, 'latin1'), timestamp: BASE_TIMESTAMP + n * 3 + Math.floor(rnd() * 3) });
  }
  return out;
}

function sha(buf) {
  return createHash('sha256').update(buf).digest('hex').slice(0, 16);
}

/** Builds every workload's bytes into `dir`; returns the manifest (also written as manifest.json). */
export async function buildData(dir, { zstdFixture = join(FIXTURES, 'records-1000.zst') } = {}) {
  mkdirSync(dir, { recursive: true });
  const { encodeResponse, decodeResponse } = await import(join(DIST, 'src/index.js'));
  const rec = await import(join(DIST, 'src/records/index.js'));
  const manifest = { files: {}, fetch: {}, metadata: {}, stream: {}, crc: {}, expected: {} };
  const put = (name, bytes) => {
    writeFileSync(join(dir, name), bytes);
    manifest.files[name] = { bytes: bytes.length, sha256: sha(bytes) };
  };

  // ---- records batches ----
  const batchInput = (b, compression) => ({
    baseOffset: BigInt(BASE_OFFSET + b * RECORDS_PER_BATCH),
    partitionLeaderEpoch: 7,
    producerId: 4242n,
    producerEpoch: 1,
    baseSequence: b * RECORDS_PER_BATCH,
    compression,
    records: makeRecords(b).map((r) => ({ key: r.key, value: r.value, headers: [{ key: r.headerKey, value: r.headerValue }], timestamp: r.timestamp })),
  });
  const enc = (b, c) => rec.encodeRecordBatch(batchInput(b, c), { snappyFraming: 'raw' });
  const blobs = {
    none: enc(0, 'none'),
    none10: concat(Array.from({ length: 10 }, (_, b) => enc(b, 'none'))),
    gzip: enc(0, 'gzip'),
    snappy: enc(0, 'snappy'),
    lz4: enc(0, 'lz4'),
    zstd: zstdBatch(rec, enc(0, 'none'), zstdFixture),
  };
  for (const [name, blob] of Object.entries(blobs)) put(`records-${name}.bin`, blob);
  manifest.expected.fetch1 = expectedRecords([0], BASE_OFFSET);
  manifest.expected.fetch10 = expectedRecords([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], BASE_OFFSET);
  manifest.expected.produce = expectedRecords([0], 0);

  // ---- Fetch responses (v11: kafkajs's newest; v12: platformatic's oldest) ----
  for (const [name, records] of Object.entries(blobs)) {
    const batches = name === 'none10' ? 10 : 1;
    manifest.fetch[name] = { records: batches * RECORDS_PER_BATCH, batches, recordsBytes: records.length };
    for (const version of [11, 12]) {
      const frame = encodeResponse(1, version, { correlationId: 7 }, {
        throttleTimeMs: 0, errorCode: 0, sessionId: 0,
        responses: [{ topic: TOPIC, partitions: [{
          partitionIndex: 0, errorCode: 0,
          highWatermark: BigInt(BASE_OFFSET + batches * RECORDS_PER_BATCH), lastStableOffset: BigInt(BASE_OFFSET + batches * RECORDS_PER_BATCH),
          logStartOffset: 0n, abortedTransactions: [], preferredReadReplica: -1, records,
        }] }],
      });
      put(`fetch-${name}-v${version}.bin`, frame);
      manifest.fetch[name][`v${version}`] = frame.length;
    }
  }

  // ---- Metadata responses (v6: kafkajs's newest; v12: platformatic's newest) ----
  const rnd = prng(7);
  const topics = [];
  for (let t = 0; t < META_TOPICS; t++) {
    const id = Buffer.alloc(16);
    for (let i = 0; i < 16; i++) id[i] = Math.floor(rnd() * 256);
    const partitions = [];
    for (let p = 0; p < META_PARTITIONS; p++) {
      const leader = (t + p) % 5;
      const replicas = [leader, (leader + 1) % 5, (leader + 2) % 5];
      partitions.push({ errorCode: 0, partitionIndex: p, leaderId: leader, leaderEpoch: 3 + (p % 4), replicaNodes: replicas, isrNodes: p % 7 === 0 ? replicas.slice(0, 2) : replicas, offlineReplicas: [] });
    }
    topics.push({ errorCode: 0, name: `orders.region-${String(t).padStart(4, '0')}.events`, topicId: id.toString('base64url'), isInternal: false, partitions, topicAuthorizedOperations: -2147483648 });
  }
  const brokers = Array.from({ length: 5 }, (_, i) => ({ nodeId: i, host: `broker-${i}.kafka.internal.example.com`, port: 9092, rack: `rack-${i % 3}` }));
  manifest.expected.metadata = metadataDigest({ brokers, topics });
  for (const version of [6, 12]) {
    const body = { throttleTimeMs: 0, brokers, clusterId: 'bench-cluster-0001', controllerId: 1, topics: version >= 10 ? topics : topics.map(({ topicId, ...t }) => t) };
    const frame = encodeResponse(3, version, { correlationId: 9 }, body);
    decodeResponse(frame, 3, version); // sanity
    put(`metadata-v${version}.bin`, frame);
    manifest.metadata[`v${version}`] = frame.length;
  }
  manifest.metadata.partitions = META_TOPICS * META_PARTITIONS;

  // ---- 64 MiB stream of mixed frames ----
  const stream = Buffer.alloc(STREAM_BYTES);
  const srnd = prng(99);
  let pos = 0;
  let frames = 0;
  const fd = { frames: 0, bytes: 0, h: 0 };
  while (pos < STREAM_BYTES) {
    const x = srnd();
    let size = x < 0.5 ? 16 + Math.floor(srnd() * 496) // small: 16 B - 512 B
      : x < 0.85 ? 1024 + Math.floor(srnd() * 15 * 1024) // medium: 1 - 16 KiB
        : x < 0.98 ? 16384 + Math.floor(srnd() * 240 * 1024) // large: 16 - 256 KiB
          : 262144 + Math.floor(srnd() * 3.75 * 1024 * 1024); // huge: 256 KiB - 4 MiB
    const left = STREAM_BYTES - pos - 4;
    if (size > left || left - size < 8) size = left; // the last frame fills the stream exactly
    stream.writeInt32BE(size, pos);
    stream.writeInt32BE(frames + 1, pos + 4); // correlation id
    for (let i = pos + 8; i < pos + 4 + size; i += 64) stream[i] = frames & 0xff;
    pos += 4 + size;
    frames++;
    fd.frames++;
    fd.bytes += size;
    fd.h = (Math.imul(fd.h, 31) + frames + size) | 0;
  }
  put('stream.bin', stream);
  manifest.stream = { bytes: STREAM_BYTES, frames, chunkBytes: CHUNK_BYTES };
  manifest.expected.frames = fd;

  // ---- 1 MiB for CRC-32C and memcpy ----
  const crcBuf = crcBytes();
  put('crc.bin', crcBuf);
  manifest.crc = { bytes: CRC_BYTES };
  manifest.expected.crc = bitwiseCrc32c(crcBuf);

  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** The 1 MiB of random bytes the CRC-32C rows checksum (the tests check the same bytes). */
export function crcBytes() {
  const buf = Buffer.alloc(CRC_BYTES);
  const rnd = prng(3);
  for (let i = 0; i < CRC_BYTES; i += 4) buf.writeUInt32LE(Math.floor(rnd() * 4294967296), i);
  return buf;
}

/** The digest every contender's decode of batches `bs` must produce. */
function expectedRecords(bs, baseOffset) {
  const d = new RecordsDigest();
  for (const b of bs) {
    makeRecords(b).forEach((r, i) => d.add(baseOffset + b * RECORDS_PER_BATCH + i, r.timestamp, r.key, r.value, [[r.headerKey, r.headerValue]]));
  }
  return d.toJSON();
}

/** CRC-32C bit by bit (reflected polynomial 0x82f63b78): slow, independent, for checking only. */
export function bitwiseCrc32c(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) {
    c ^= bytes[i];
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/**
 * A zstd batch with real entropy-coded data from an independent encoder: the records section is
 * compressed by the zstd CLI once and kept as a fixture
 * (bench/fixtures/make-zstd.mjs). Checked here: it must decompress to this run's records section.
 */
function zstdBatch(rec, plain, fixture) {
  if (!existsSync(fixture)) throw new Error(`missing ${fixture}: run node bench/fixtures/make-zstd.mjs (needs the zstd CLI)`);
  const compressed = new Uint8Array(readFileSync(fixture));
  const raw = plain.subarray(61);
  const back = rec.decompress('zstd', compressed);
  if (Buffer.compare(Buffer.from(back), Buffer.from(raw)) !== 0) {
    throw new Error(`${fixture} does not decompress to the current records: regenerate it with node bench/fixtures/make-zstd.mjs`);
  }
  const out = new Uint8Array(61 + compressed.length);
  out.set(plain.subarray(0, 61));
  out.set(compressed, 61);
  const v = new DataView(out.buffer);
  v.setInt32(8, out.length - 12); // batchLength
  v.setInt16(21, v.getInt16(21) | 4); // attributes: zstd
  v.setUint32(17, rec.crc32c(out.subarray(21)));
  return out;
}

/** The raw (uncompressed) records section of batch 0, for the fixture generator. */
export async function plainRecordsSection() {
  const rec = await import(join(DIST, 'src/records/index.js'));
  const batch = rec.encodeRecordBatch({
    baseOffset: BigInt(BASE_OFFSET), partitionLeaderEpoch: 7, producerId: 4242n, producerEpoch: 1, baseSequence: 0, compression: 'none',
    records: makeRecords(0).map((r) => ({ key: r.key, value: r.value, headers: [{ key: r.headerKey, value: r.headerValue }], timestamp: r.timestamp })),
  });
  return batch.subarray(61);
}

/** Loads a data file written by buildData as a Buffer (a Uint8Array too). */
export function load(dir, name) {
  return readFileSync(join(dir, name));
}
