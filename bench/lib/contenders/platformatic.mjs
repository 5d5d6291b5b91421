// @platformatic/kafka 2.x (contender "platformatic") and 1.x ("platformatic1", through
// platformatic1.mjs): its protocol functions (per-API createRequest/parseResponse, record batch
// helpers, crc32c), loaded from its dist/ by path (its package exports only dist/index.js), from
// bench/node_modules (bench/package.json).
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { BENCH_MODULES, TOPIC, makeRecords, load } from '../data.mjs';
import { RecordsDigest, metadataDigest } from '../digest.mjs';
import { fetchLoop, readPlatformatic } from '../consume.mjs';
import { PEER_PACKAGES } from '../tasks.mjs';

export async function setup(task, dir) {
  const [workload, kase] = task.id.split('/');
  const PLT = join(BENCH_MODULES, PEER_PACKAGES[task.contender], 'dist');
  const { Reader } = await import(join(PLT, 'protocol/reader.js'));
  const { Writer } = await import(join(PLT, 'protocol/writer.js'));
  switch (workload) {
    case 'fetch': {
      const { parseResponse } = await import(join(PLT, `apis/consumer/fetch-v${task.version}.js`));
      // Connection#onData hands parseResponse a Reader past the size, correlation id and the
      // response header's tagged fields.
      const body = load(dir, `fetch-${kase}-v${task.version}.bin`).subarray(9);
      return {
        fn: fetchLoop(task, () => parseResponse(7, 1, task.version, Reader.from(body)), readPlatformatic),
        digest(res) {
          const d = new RecordsDigest();
          for (const t of res.responses) {
            for (const p of t.partitions) {
              for (const b of p.records ?? []) {
                for (const r of b.records) d.add(b.firstOffset + BigInt(r.offsetDelta), b.firstTimestamp + r.timestampDelta, r.key, r.value, r.headers);
              }
            }
          }
          return d.toJSON();
        },
      };
    }
    case 'produce': {
      const { createRequest } = await import(join(PLT, 'apis/producer/produce-v7.js'));
      const messages = makeRecords(0).map((r) => ({
        topic: TOPIC, partition: 0, key: r.key, value: r.value,
        headers: new Map([[Buffer.from(r.headerKey), r.headerValue]]), timestamp: BigInt(r.timestamp),
      }));
      return {
        fn() {
          const payload = createRequest(-1, 30000, messages, {});
          // The request header and size prefix, written as Connection#send writes them.
          const writer = Writer.create().appendInt16(0).appendInt16(7).appendInt32(1).appendString('bench', false);
          return writer.appendFrom(payload).prependLength().buffer;
        },
        output: (buf) => buf,
      };
    }
    case 'metadata': {
      if (kase !== 'decode') throw new Error('@platformatic/kafka has no Metadata response encoder');
      const { parseResponse } = await import(join(PLT, `apis/metadata/metadata-v${task.version}.js`));
      const body = load(dir, `metadata-v${task.version}.bin`).subarray(9);
      return {
        fn: () => parseResponse(9, 3, task.version, Reader.from(body)),
        digest: metadataDigest,
      };
    }
    case 'crc': {
      const buf = load(dir, 'crc.bin');
      let fn;
      if (task.variant === 'default') fn = (await import(join(PLT, 'protocol/crc32c.js'))).crc32c;
      else if (task.variant === 'js') fn = (await import(join(PLT, 'protocol/crc32c.js'))).jsCRC32C;
      else if (task.variant === 'wasm') fn = (await import(createRequire(join(PLT, '..', 'package.json')).resolve('@platformatic/wasm-utils'))).crc32c;
      return { fn: () => fn(buf), digest: (c) => c >>> 0 };
    }
  }
  throw new Error(`@platformatic/kafka: no task ${task.id}`);
}
