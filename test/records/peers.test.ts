// A second independent peer: @platformatic/kafka's RecordBatch writer/reader, whose snappy (raw)
// and LZ4 (frame) codecs come from @platformatic/wasm-utils (a separate WebAssembly build). It is a
// benchmark-only package (bench/package.json; its dependencies declare Node >= 22 and would warn on
// every root install): skipped until `npm --prefix bench install`, required in CI (the peer rule).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch, compress, decompress } from '../../src/records/index.js';
import { hex } from './helpers.js';
import { peer } from '../helpers/peer.js';

const pkgDir = new URL('../../bench/node_modules/platformatic-kafka-1/', import.meta.url).href;
const installed = peer('@platformatic/kafka (a benchmark-only package)', existsSync(fileURLToPath(pkgDir)), 'npm --prefix bench ci');
const records = installed ? await import(`${pkgDir}dist/protocol/records.js`) : null;
const { Reader } = installed ? await import(`${pkgDir}dist/protocol/reader.js`) : { Reader: null };
const wasmUtils = installed ? await import(createRequire(`${pkgDir}package.json`).resolve('@platformatic/wasm-utils')) : null;

const T0 = 1_700_000_000_000n;

describe.skipIf(!installed)('@platformatic/kafka as a peer', () => {
  const codecs = ['none', 'gzip', 'snappy', 'lz4'] as const;
  for (const compression of codecs) {
    it(`decodes its ${compression} batches`, () => {
      const messages = Array.from({ length: 12 }, (_, i) => ({
        topic: 't', partition: 0, timestamp: T0 + BigInt(i * 3),
        key: i % 2 ? Buffer.from(`key-${i}`) : undefined,
        value: Buffer.from(`value ${i} `.repeat(i + 1)),
        headers: i % 3 === 0 ? new Map([[Buffer.from('h'), Buffer.from(`v${i}`)]]) : undefined,
      }));
      const batch = records.createRecordsBatch(messages, { compression, producerId: 7n, producerEpoch: 1, partitionLeaderEpoch: 3 });
      const bytes = new Uint8Array(batch.buffer ?? batch);
      const b = decodeRecordBatches(bytes).batches[0];
      expect([b.compression, b.recordCount, b.producerId, b.partitionLeaderEpoch, b.maxTimestamp]).toEqual([compression, 12, 7n, 3, T0 + 33n]);
      b.records.forEach((r, i) => {
        expect(r.timestamp).toBe(T0 + BigInt(i * 3));
        expect(hex(r.value)).toBe(hex(messages[i].value));
        expect(hex(r.key)).toBe(messages[i].key ? hex(messages[i].key!) : null);
        expect(r.headers.map((h) => [h.key, hex(h.value)])).toEqual(messages[i].headers ? [['h', hex(Buffer.from(`v${i}`))]] : []);
      });
    });

    it(`its reader decodes our ${compression} batches`, () => {
      const ours = encodeRecordBatch({
        baseOffset: 0n, baseTimestamp: T0, compression, producerId: 9n, producerEpoch: 2,
        records: Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: `payload ${i} `.repeat(i % 5 + 1), headers: [{ key: 'x', value: `${i}` }] })),
      }, { snappyFraming: 'raw' });
      const batch = records.readRecordsBatch(Reader.from(Buffer.from(ours)));
      expect(batch.records).toHaveLength(20);
      expect(batch.records.map((r: any) => r.value.toString())).toEqual(Array.from({ length: 20 }, (_, i) => `payload ${i} `.repeat(i % 5 + 1)));
      expect(batch.producerId).toBe(9n);
    });
  }

  it('snappy (raw) and lz4 frames interoperate both ways with wasm-utils', () => {
    const data = new TextEncoder().encode(Array.from({ length: 3000 }, (_, i) => `line ${i % 97} ${i}\n`).join(''));
    expect(hex(decompress('snappy', wasmUtils.snappyCompress(Buffer.from(data))))).toBe(hex(data));
    expect(hex(decompress('lz4', wasmUtils.lz4Compress(Buffer.from(data))))).toBe(hex(data));
    expect(hex(wasmUtils.snappyDecompress(Buffer.from(compress('snappy', data, { snappyFraming: 'raw' }))))).toBe(hex(data));
    expect(hex(wasmUtils.lz4Decompress(Buffer.from(compress('lz4', data))))).toBe(hex(data));
  });
});
