// Decodes that call the codec from inside their records hook: the inner decodes and encodes
// (of messages larger than the outer frame, compiling plans the outer has not used) must leave the
// outer decode's result exactly what a plain decode gives, on the generated-code path and on the
// interpreter's.
import { afterAll, describe, expect, it } from 'vitest';
import { decodeResponse, encodeResponse, getApi, newMessage } from '../../src/codec/by-key.js';
import { decodeResponseFor } from '../../src/codec/by-definition.js';
import { setCodegen } from '../../src/codec/generate.js';
import { decodeRecordBatches, encodeRecordBatch } from '../../src/records/index.js';

const batch = encodeRecordBatch({
  baseOffset: 7n, baseTimestamp: 1_700_000_000_000n,
  records: [{ key: 'k', value: 'v', headers: [], timestampDelta: 0 }],
});

/** A Fetch v12 response of several topics and partitions, each partition carrying `batch`. */
function fetchFrame(): Uint8Array {
  return encodeResponse(1, 12, { correlationId: 9 }, newMessage(1, 'response', 12, {
    responses: Array.from({ length: 3 }, (_, topic) => ({
      topic: `topic-${topic}`,
      partitions: Array.from({ length: 4 }, (_, partition) => ({
        partitionIndex: partition, errorCode: 0, highWatermark: BigInt(100 + partition), lastStableOffset: 5n,
        logStartOffset: 0n, abortedTransactions: [{ producerId: BigInt(topic), firstOffset: 3n }],
        preferredReadReplica: -1, records: batch,
      })),
    })),
  }));
}

/** A Metadata response many times the Fetch frame's size, so its tape overruns the outer one. */
function metadataFrame(version: number): Uint8Array {
  return encodeResponse(3, version, { correlationId: 2 }, newMessage(3, 'response', version, {
    brokers: [{ nodeId: 1, host: 'broker-1', port: 9092, rack: null }],
    topics: Array.from({ length: 100 }, (_, i) => ({
      errorCode: 0, name: `t${i}`, isInternal: false,
      partitions: Array.from({ length: 5 }, (_, p) => ({
        errorCode: 0, partitionIndex: p, leaderId: 1, leaderEpoch: i, replicaNodes: [1, 2, 3], isrNodes: [1, 2], offlineReplicas: [],
      })),
    })),
  }));
}

describe.each([['generated code', undefined], ['interpreter', false]] as const)('records hook calling the codec (%s)', (_name, codegen) => {
  afterAll(() => setCodegen(undefined));

  it('leaves the outer decode as a plain decode gives it', () => {
    setCodegen(codegen);
    const frame = fetchFrame();
    const plain = decodeResponse(frame, 1, 12, { records: true });
    // Versions decoded nowhere else in this file, so the hook also compiles new plans mid-decode.
    const versions = [12, 9, 5, 1];
    const inner: unknown[] = [];
    let calls = 0;
    const hooked = decodeResponseFor(getApi(1), frame, 12, { recordsDecoder: (records) => {
      const version = versions[calls++ % versions.length];
      const big = metadataFrame(version);
      const decoded = decodeResponse(big, 3, version);
      inner.push(decoded);
      expect(encodeResponse(3, version, decoded.header, decoded.body)).toEqual(big);
      return decodeRecordBatches(records);
    } });
    expect(calls).toBe(12);
    expect(hooked).toEqual(plain);
    inner.forEach((d, i) => {
      const version = versions[i % versions.length];
      expect(d).toEqual(decodeResponse(metadataFrame(version), 3, version));
    });
  });

  it('nests: a hook that decodes another Fetch, whose own hook decodes records, gives what plain decodes give', () => {
    setCodegen(codegen);
    const frame = fetchFrame();
    const plain = decodeResponse(frame, 1, 12, { records: true });
    const offsets: number[] = [];
    const hooked = decodeResponseFor(getApi(1), frame, 12, { recordsDecoder: (records) => {
      const inner = decodeResponse(frame, 1, 12, { records: true });
      expect(inner).toEqual(plain);
      offsets.push(records.byteOffset);
      return decodeRecordBatches(records);
    } });
    expect(hooked).toEqual(plain);
    // Once per records field, in the order they stand in the frame.
    expect(offsets).toHaveLength(12);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(new Set(offsets).size).toBe(12);
  });
});
