// kafka-wire, through its public entry points in dist/ (ESM), as an application would call them.
import { join } from 'node:path';
import { DIST, TOPIC, CHUNK_BYTES, makeRecords, load } from '../data.mjs';
import { RecordsDigest, metadataDigest } from '../digest.mjs';
import { fetchLoop, readKafkaWire } from '../consume.mjs';

// The build timed: this checkout's, or another's (kafka-wire-baseline.mjs sets it).
const dist = process.env.KAFKA_WIRE_BENCH_DIST ?? DIST;
const { decodeResponse, encodeResponse, encodeRequest } = await import(join(dist, 'src/index.js'));
const { decodeRecordBatches, encodeRecordBatch, crc32c } = await import(join(dist, 'src/records/index.js'));
const { FrameSplitter } = await import(join(dist, 'src/wire/index.js'));

function recordsDigest(batchLists) {
  const d = new RecordsDigest();
  for (const batches of batchLists) {
    for (const b of batches) {
      for (const r of b.records) d.add(r.offset, r.timestamp, r.key, r.value, r.headers.map((h) => [h.key, h.value]));
    }
  }
  return d.toJSON();
}

function lazyDigest(batchLists) {
  const d = new RecordsDigest();
  for (const batches of batchLists) {
    for (const b of batches) {
      // Keys and values through the same position accessors the timed loop reads.
      const at = (offset, size) => (size < 0 ? null : b.data.subarray(offset, offset + size));
      for (let i = 0; i < b.recordCount; i++) {
        d.add(b.offsetAt(i), b.timestampAt(i), at(b.keyOffsetAt(i), b.keySizeAt(i)), at(b.valueOffsetAt(i), b.valueSizeAt(i)), b.headersAt(i).map((h) => [h.key, h.value]));
      }
    }
  }
  return d.toJSON();
}

export async function setup(task, dir) {
  const [workload, kase] = task.id.split('/');
  switch (workload) {
    case 'fetch': {
      const v = task.version;
      const frame = load(dir, `fetch-${kase}-v${v}.bin`);
      const lazy = task.mode === 'positions';
      // Records decoded inline by decodeResponse({ records }) where this build has the option,
      // else decodeRecordBatches on each partition's records.
      const options = { records: lazy ? { lazy: true } : true };
      const inline = decodeResponse(frame, 1, v, options).body.responses[0].partitions[0].records?.batches !== undefined;
      const info = inline ? `records decoded inline: decodeResponse(..., { records: ${lazy ? '{ lazy: true }' : 'true'} })` : 'decodeRecordBatches on each partition\'s records';
      const decode = inline
        ? () => {
          const { body } = decodeResponse(frame, 1, v, options);
          const out = [];
          for (const t of body.responses) for (const p of t.partitions) if (p.records !== null) out.push(p.records.batches);
          return out;
        }
        : () => {
          const { body } = decodeResponse(frame, 1, v);
          const out = [];
          for (const t of body.responses) for (const p of t.partitions) if (p.records !== null) out.push(decodeRecordBatches(p.records, lazy ? { lazy: true } : undefined).batches);
          return out;
        };
      if (!lazy) return { fn: fetchLoop(task, decode, readKafkaWire), digest: recordsDigest, info };
      // Lazy: no object per record; every record's offset/timestamp deltas, key and value
      // positions and sizes (in batch.data) and header count are read through the columnar
      // accessors (headers are not materialized).
      return {
        fn() {
          const out = decode();
          let sink = 0;
          for (const batches of out) {
            for (const b of batches) {
              const n = b.recordCount;
              for (let i = 0; i < n; i++) {
                sink += b.offsetDeltaAt(i) + b.timestampDeltaAt(i) + b.headerCountAt(i) +
                  b.keyOffsetAt(i) + b.keySizeAt(i) + b.valueOffsetAt(i) + b.valueSizeAt(i);
              }
            }
          }
          out.sink = sink;
          return out;
        },
        digest: lazyDigest,
        info,
      };
    }
    case 'produce': {
      const records = makeRecords(0).map((r) => ({ key: r.key, value: r.value, headers: [{ key: r.headerKey, value: r.headerValue }], timestamp: r.timestamp }));
      const header = { requestApiKey: 0, requestApiVersion: 7, correlationId: 1, clientId: 'bench' };
      return {
        fn() {
          const batch = encodeRecordBatch({ records });
          return encodeRequest(header, { transactionalId: null, acks: -1, timeoutMs: 30000, topicData: [{ name: TOPIC, partitionData: [{ index: 0, records: batch }] }] });
        },
        output: (frame) => frame,
      };
    }
    case 'metadata': {
      const v = task.version;
      const frame = load(dir, `metadata-v${v}.bin`);
      if (kase === 'decode') {
        return {
          fn: () => decodeResponse(frame, 3, v),
          digest: ({ body }) => metadataDigest(body),
        };
      }
      const { header, body } = decodeResponse(frame, 3, v);
      return { fn: () => encodeResponse(3, v, header, body), output: (out) => out };
    }
    case 'frames': {
      const stream = load(dir, 'stream.bin');
      const chunks = [];
      for (let o = 0; o < stream.length; o += CHUNK_BYTES) chunks.push(stream.subarray(o, o + CHUNK_BYTES));
      // reuse: frames spanning chunks share one buffer, valid until the next push (read here at once).
      const reuse = task.variant === 'splitter-reuse';
      return {
        fn() {
          const d = { frames: 0, bytes: 0, h: 0 };
          const splitter = new FrameSplitter({
            reuse,
            onFrame(f) {
              const size = f.length - 4;
              d.frames++;
              d.bytes += size;
              d.h = (Math.imul(d.h, 31) + ((f[4] << 24) | (f[5] << 16) | (f[6] << 8) | f[7]) + size) | 0;
            },
          });
          for (let i = 0; i < chunks.length; i++) splitter.push(chunks[i]);
          splitter.end();
          return d;
        },
        digest: (d) => d,
      };
    }
    case 'crc': {
      const buf = load(dir, 'crc.bin');
      return { fn: () => crc32c(buf), digest: (c) => c >>> 0 };
    }
  }
  throw new Error(`kafka-wire: no task ${task.id}`);
}
