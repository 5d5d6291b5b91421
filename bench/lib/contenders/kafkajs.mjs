// kafkajs 2.2.4: its protocol layer (kafkajs/src/protocol), the code its Connection runs.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, TOPIC, CHUNK_BYTES, makeRecords, load } from '../data.mjs';
import { RecordsDigest, MetadataDigest } from '../digest.mjs';
import { fetchLoop, readKafkajs } from '../consume.mjs';

const require = createRequire(join(ROOT, 'package.json'));

export async function setup(task, dir) {
  const [workload, kase] = task.id.split('/');
  switch (workload) {
    case 'fetch': {
      // Connection hands decode() the payload after the size and correlation id.
      const { decode } = require(`kafkajs/src/protocol/requests/fetch/v${task.version}/response`);
      const payload = load(dir, `fetch-${kase}-v${task.version}.bin`).subarray(8);
      return {
        isAsync: true,
        fn: fetchLoop(task, () => decode(payload), readKafkajs, true),
        digest(res) {
          const d = new RecordsDigest();
          for (const t of res.responses) {
            for (const p of t.partitions) {
              for (const m of p.messages) {
                const hs = [];
                for (const [k, v] of Object.entries(m.headers)) for (const x of Array.isArray(v) ? v : [v]) hs.push([k, x]);
                d.add(m.offset, m.timestamp, m.key, m.value, hs);
              }
            }
          }
          return d.toJSON();
        },
      };
    }
    case 'produce': {
      const produce = require('kafkajs/src/protocol/requests/produce');
      const frameRequest = require('kafkajs/src/protocol/request');
      const messages = makeRecords(0).map((r) => ({ key: r.key, value: r.value, headers: { [r.headerKey]: r.headerValue }, timestamp: r.timestamp }));
      return {
        isAsync: true,
        async fn() {
          const { request } = produce.protocol({ version: 7 })({ acks: -1, timeout: 30000, compression: 0, topicData: [{ topic: TOPIC, partitions: [{ partition: 0, messages }] }] });
          const encoder = await frameRequest({ correlationId: 1, clientId: 'bench', request });
          return encoder.buffer;
        },
        output: (buf) => buf,
      };
    }
    case 'metadata': {
      if (kase !== 'decode') throw new Error('kafkajs has no Metadata response encoder');
      const { decode } = require(`kafkajs/src/protocol/requests/metadata/v${task.version}/response`);
      const payload = load(dir, `metadata-v${task.version}.bin`).subarray(8);
      return {
        isAsync: true,
        fn: () => decode(payload),
        digest(res) {
          const d = new MetadataDigest();
          for (const b of res.brokers) d.broker(b.nodeId, b.host, b.port, b.rack);
          for (const t of res.topicMetadata) {
            d.topic(t.topic, t.isInternal);
            for (const p of t.partitionMetadata) d.partition(p.partitionId, p.leader, p.replicas, p.isr, p.offlineReplicas);
          }
          return d.toJSON();
        },
      };
    }
    case 'frames': {
      // kafkajs splits frames inside Connection#processData; it is run here on a stand-in
      // connection whose request queue only counts what it is handed.
      const Connection = require('kafkajs/src/network/connection');
      const stream = load(dir, 'stream.bin');
      const chunks = [];
      for (let o = 0; o < stream.length; o += CHUNK_BYTES) chunks.push(stream.subarray(o, o + CHUNK_BYTES));
      const processData = Connection.prototype.processData;
      return {
        fn() {
          const d = { frames: 0, bytes: 0, h: 0 };
          const conn = {
            authHandlers: null, authExpectResponse: false, chunks: [], bytesBuffered: 0, bytesNeeded: 4,
            requestQueue: {
              fulfillRequest({ size, correlationId }) {
                d.frames++;
                d.bytes += size;
                d.h = (Math.imul(d.h, 31) + correlationId + size) | 0;
              },
            },
          };
          for (let i = 0; i < chunks.length; i++) processData.call(conn, chunks[i]);
          return d;
        },
        digest: (d) => d,
      };
    }
    case 'crc': {
      const crc32C = require('kafkajs/src/protocol/recordBatch/crc32C');
      const buf = load(dir, 'crc.bin');
      return { fn: () => crc32C(buf), digest: (c) => c >>> 0 };
    }
  }
  throw new Error(`kafkajs: no task ${task.id}`);
}
