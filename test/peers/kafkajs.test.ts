// Independent check of our bytes: kafkajs 2.2.4's own protocol layer (its per-API, per-version
// request encoders and response decoders under kafkajs/src/protocol/requests), for every API
// version kafkajs implements.
//
// Requests: kafkajs encodes a request from kafkajs-shaped arguments (through its request framing:
// size, apiKey, apiVersion, correlationId, clientId, body); kafka-wire encodes the same request
// from the same data; the frames must be byte-for-byte equal. Our decoder must also read kafkajs's
// frame and re-encode it to the same bytes. Record data (Produce) is built a third time by our own
// test helper (test/peers/records.ts) and must equal what kafkajs wrote, CRCs included.
// Responses: kafka-wire encodes a response; kafkajs's `decode` reads it (the bytes after size and
// correlation id, as kafkajs's connection hands them over) and must return exactly the values we
// encoded, in kafkajs's shape; kafkajs's `parse` must accept it, and for an error response throw
// the protocol error we put in.
// Where kafkajs deliberately or mistakenly differs from the Kafka protocol, the difference is in
// KAFKAJS_QUIRKS below, with the reason, and the comparison is made against what kafkajs does.

import { describe, expect, it } from 'vitest';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, getApi } from '../../src/index.js';
import { KJS_API_DIRS, kjsFrame, kjsProtocol, kjsVersions } from './kafkajs.js';
import { messageSet, recordBatch, type TestRecord } from './records.js';
import { fitToVersion, withDefaults } from './values.js';

const apiName = (apiKey: number) => getApi(apiKey).name;

// ---- kafkajs quirks: where kafkajs's bytes or decoded values differ from the Kafka protocol ----

interface KjsQuirk {
  apiKey: number;
  versions: [number, number];
  why: string;
  /** Turns our request body into what kafkajs actually sends for the same arguments. */
  request?: (ours: any) => void;
  /** Turns the expected decoded response into what kafkajs actually returns. */
  decoded?: (expected: any, ours: any) => void;
}

const KAFKAJS_QUIRKS: KjsQuirk[] = [
  // Not a difference on the wire, but in every decoded response from the version where the
  // broker stopped throttling for the client (KIP-219): kafkajs reports throttleTime 0 and the
  // broker's value as clientSideThrottleTime. Expectations below are written that way (thr()).
  {
    apiKey: 42, versions: [1, 1],
    why: 'DeleteGroups v1: kafkajs\'s decoder spreads v0\'s result, which names the field throttleTimeMs, then ' +
      'reads `decoded.throttleTime` (undefined) for clientSideThrottleTime; the broker\'s throttle time stays ' +
      'under throttleTimeMs next to throttleTime: 0. A kafkajs bug; the bytes are read correctly.',
    decoded: (e, r) => { e.throttleTimeMs = r.throttleTimeMs; e.throttleTime = 0; e.clientSideThrottleTime = undefined; },
  },
  {
    apiKey: 42, versions: [0, 1],
    why: 'DeleteGroups: kafkajs\'s parse never throws; its decode attaches an `error` to each failed group ' +
      'result instead. The error-response check looks there.',
  },
  {
    apiKey: 36, versions: [0, 1],
    why: 'SaslAuthenticate: kafkajs writes authBytes raw (writeBuffer), relying on its SASL mechanisms to pass ' +
      'them already int32-length-prefixed; in the response it re-prefixes the bytes it read with their length. ' +
      'The arguments and expectations do the same, so the wire bytes are compared exactly.',
  },
  // writeNullableArray: kafkajs writes an empty list as null (-1). Deliberate: in these fields
  // Kafka reads null as "all" (all topics / all configs), which is what kafkajs means by [].
  // Only empty lists are affected; see the "empty lists" test.
  { apiKey: 3, versions: [1, 6], why: 'Metadata v1+: topics [] is sent as null (all topics).' },
  { apiKey: 9, versions: [3, 4], why: 'OffsetFetch v3+: topics [] is sent as null (all committed offsets of the group).' },
  { apiKey: 32, versions: [0, 2], why: 'DescribeConfigs: configNames [] is sent as null (all configs).' },
  { apiKey: 37, versions: [0, 1], why: 'CreatePartitions: assignments [] is sent as null (broker-chosen replicas); ' +
    'each BrokerIds list also goes through writeNullableArray, so an empty one would be null.' },
  // Decoded shapes that are not field-for-field copies of the wire:
  { apiKey: 19, versions: [0, 3], why: 'CreateTopics: kafkajs sorts the results by topic name (the test data is sorted).' },
  { apiKey: 20, versions: [0, 1], why: 'DeleteTopics: kafkajs sorts the results by topic name (the test data is sorted).' },
  { apiKey: 21, versions: [0, 1], why: 'DeleteRecords: kafkajs sorts the results by topic name, and returns lowWatermark as a raw int64.' },
  { apiKey: 37, versions: [0, 1], why: 'CreatePartitions: kafkajs sorts the results by topic name (the test data is sorted).' },
  { apiKey: 32, versions: [0, 2], why: 'DescribeConfigs: v0 has IsDefault and no ConfigSource; kafkajs makes up configSource from ' +
    'IsDefault and the resource type. v1+ have ConfigSource; kafkajs makes up isDefault (source === 5).' },
  { apiKey: 45, versions: [0, 0], why: 'AlterPartitionReassignments: kafkajs reads the top-level and per-partition error messages and drops them.' },
  { apiKey: 46, versions: [0, 0], why: 'ListPartitionReassignments: kafkajs reads the error message and drops it.' },
  { apiKey: 1, versions: [5, 11], why: 'Fetch v5+: kafkajs calls log_start_offset "lastStartOffset" (a name only).' },
  { apiKey: 0, versions: [0, 1], why: 'Produce v0-1: the message-set encoder gets no compression argument, takes ' +
    '`undefined !== None` for "compressed" and numbers the messages 0, 1, … instead of -1 (inside the opaque ' +
    'records; brokers ignore producer offsets in uncompressed sets). The expected records are built that way.' },
];

function quirks(apiKey: number, version: number): KjsQuirk[] {
  return KAFKAJS_QUIRKS.filter((q) => q.apiKey === apiKey && version >= q.versions[0] && version <= q.versions[1]);
}

// ---- data ----

const T0 = 1_700_000_000_000;
const B = (s: string) => Buffer.from(s);
const enc = new TextEncoder();
const u8 = (s: string) => enc.encode(s);

/** kafkajs reports throttleTime 0 and clientSideThrottleTime from `from` on (KIP-219). */
function thr(v: number, from: number, t: number): Record<string, number> {
  return v >= from ? { throttleTime: 0, clientSideThrottleTime: t } : { throttleTime: t };
}

const KJS_MESSAGES = [
  { key: 'key-1', value: 'value-1', timestamp: T0 + 5, headers: { trace: 'abc', 'x-bin': Buffer.from([1, 2, 0xff]) } },
  { key: null, value: 'value-2', timestamp: T0 + 9 },
];
const TEST_RECORDS: TestRecord[] = [
  { key: u8('key-1'), value: u8('value-1'), timestampDelta: 0, headers: [{ key: 'trace', value: u8('abc') }, { key: 'x-bin', value: Uint8Array.of(1, 2, 0xff) }] },
  { key: null, value: u8('value-2'), timestampDelta: 4 },
];

/** The record data kafkajs writes for KJS_MESSAGES, built by our own helper. */
function expectedRecords(produceVersion: number, batch: { transactional: boolean; producerId: bigint; producerEpoch: number; firstSequence: number }): Uint8Array {
  // Message offsets are the producer's choice. kafkajs writes -1 for uncompressed sets, except in
  // Produce v0-1, whose encoder passes no compression: `undefined !== None` makes it number them 0, 1.
  if (produceVersion <= 1) return messageSet(TEST_RECORDS.map(({ key, value }) => ({ key, value })), 0, BigInt(T0 + 5));
  if (produceVersion === 2) return messageSet(TEST_RECORDS, 1, BigInt(T0 + 5), () => -1n);
  return recordBatch(TEST_RECORDS, {
    baseOffset: 0n, partitionLeaderEpoch: 0, attributes: batch.transactional ? 0x10 : 0, baseTimestamp: BigInt(T0 + 5),
    producerId: batch.producerId, producerEpoch: batch.producerEpoch, baseSequence: batch.firstSequence,
  });
}

/** Record data for Fetch responses, and what kafkajs decodes from it. */
function fetchRecords(version: number): { bytes: Uint8Array; messages: any[] } {
  if (version <= 3) {
    const magic = version <= 1 ? 0 : 1;
    const bytes = messageSet([{ key: u8('k0'), value: u8('legacy-0') }, { key: null, value: u8('legacy-1') }], magic, BigInt(T0), (i) => BigInt(500 + i));
    return { bytes, messages: [{ offset: '500', key: 'k0', value: 'legacy-0' }, { offset: '501', key: null, value: 'legacy-1' }] };
  }
  const bytes = recordBatch(TEST_RECORDS, { baseOffset: 1500n, baseTimestamp: BigInt(T0 + 5), producerId: 77n, producerEpoch: 1, baseSequence: 3 });
  return {
    bytes,
    messages: [
      { offset: '1500', key: 'key-1', value: 'value-1', headers: { trace: 'abc', 'x-bin': '0102ff' } },
      { offset: '1501', key: null, value: 'value-2', headers: {} },
    ],
  };
}

/** kafkajs's decoded messages, reduced to what we compare. */
function projectMessages(messages: any[]): any[] {
  return messages.map((m) => {
    const out: any = { offset: m.offset, key: m.key === null ? null : m.key.toString(), value: m.value.toString() };
    if (m.headers !== undefined) {
      out.headers = Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, k === 'x-bin' ? (v as Buffer).toString('hex') : String(v)]));
    }
    return out;
  });
}

/** kafkajs values made comparable: int64 (Long or bigint) → decimal string, messages projected. */
function normalize(v: any, key = ''): any {
  if (v === null || v === undefined) return v;
  if (Buffer.isBuffer(v)) return v;
  if (typeof v === 'bigint') return v.toString(); // DeleteRecords' lowWatermark comes as a raw readInt64() value
  if (Array.isArray(v)) return key === 'messages' ? projectMessages(v) : v.map((x) => normalize(x));
  if (typeof v === 'object') {
    if (typeof v.value === 'bigint' && Object.keys(v).length === 1) return v.value.toString(); // kafkajs's Long
    const out: any = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'error') continue; // DeleteGroups attaches an Error object next to the code
      out[k] = normalize(x, k);
    }
    return out;
  }
  return v;
}

// ---- one spec per API ----

interface Spec {
  apiKey: number;
  /** kafkajs arguments and the same request as a kafka-wire body (fitted to the version later). */
  request(v: number): { kjs: any; ours: any };
  /** A response body (kafka-wire), all error codes 0. */
  response(v: number): any;
  /** What kafkajs's decode returns for `r` (the response with every default filled in). */
  decoded(v: number, r: any): any;
  /** An error response and the error code kafkajs's parse must throw (absent: parse has no errors). */
  error?(v: number): { body: any; code: number };
}

const produceBatch = { transactional: true, producerId: 4000n, producerEpoch: 2, firstSequence: 10 };

const SPECS: Spec[] = [
  {
    apiKey: 0,
    request: (v) => ({
      kjs: {
        acks: -1, timeout: 30000, transactionalId: 'txn-1', producerId: '4000', producerEpoch: 2, compression: 0,
        topicData: [
          { topic: 'orders', partitions: [{ partition: 0, firstSequence: 10, messages: KJS_MESSAGES }, { partition: 3, firstSequence: 10, messages: KJS_MESSAGES }] },
          { topic: 'payments', partitions: [{ partition: 1, firstSequence: 10, messages: KJS_MESSAGES }] },
        ],
      },
      ours: {
        transactionalId: 'txn-1', acks: -1, timeoutMs: 30000,
        topicData: [
          { name: 'orders', partitionData: [{ index: 0, records: expectedRecords(v, produceBatch) }, { index: 3, records: expectedRecords(v, produceBatch) }] },
          { name: 'payments', partitionData: [{ index: 1, records: expectedRecords(v, produceBatch) }] },
        ],
      },
    }),
    response: () => ({
      responses: [
        { name: 'orders', partitionResponses: [
          { index: 0, errorCode: 0, baseOffset: 1000n, logAppendTimeMs: 1_700_000_000_123n, logStartOffset: 17n },
          { index: 3, errorCode: 0, baseOffset: 2000n, logAppendTimeMs: -1n, logStartOffset: 18n }] },
        { name: 'payments', partitionResponses: [{ index: 1, errorCode: 0, baseOffset: 3000n, logAppendTimeMs: -1n, logStartOffset: 0n }] },
      ],
      throttleTimeMs: 250,
    }),
    decoded: (v, r) => ({
      topics: r.responses.map((t: any) => ({
        topicName: t.name,
        partitions: t.partitionResponses.map((p: any) => ({
          partition: p.index, errorCode: p.errorCode,
          ...(v <= 2 ? { offset: String(p.baseOffset) } : { baseOffset: String(p.baseOffset) }),
          ...(v === 2 ? { timestamp: String(p.logAppendTimeMs) } : {}),
          ...(v >= 3 ? { logAppendTime: String(p.logAppendTimeMs) } : {}),
          ...(v >= 5 ? { logStartOffset: String(p.logStartOffset) } : {}),
        })),
      })),
      ...(v >= 1 ? thr(v, 6, r.throttleTimeMs) : {}),
    }),
    error: () => ({ body: { responses: [{ name: 'orders', partitionResponses: [{ index: 0, errorCode: 3, baseOffset: -1n }] }] }, code: 3 }),
  },
  {
    apiKey: 1,
    request: (v) => ({
      kjs: {
        replicaId: -1, maxWaitTime: 500, minBytes: 1, maxBytes: 10485760, isolationLevel: 0,
        sessionId: 91, sessionEpoch: 4, rackId: 'rack-7',
        topics: [{ topic: 'orders', partitions: [
          { partition: 0, currentLeaderEpoch: 12, fetchOffset: '1500', logStartOffset: '10', maxBytes: 1048576 },
          { partition: 3, currentLeaderEpoch: 13, fetchOffset: '0', logStartOffset: '-1', maxBytes: 65536 }] },
        { topic: 'payments', partitions: [{ partition: 1, currentLeaderEpoch: -1, fetchOffset: '42', logStartOffset: '2', maxBytes: 1024 }] }],
        forgottenTopics: [{ topic: 'gone', partitions: [7, 8] }],
      },
      ours: {
        replicaId: -1, maxWaitMs: 500, minBytes: 1, maxBytes: 10485760, isolationLevel: 0, sessionId: 91, sessionEpoch: 4,
        topics: [{ topic: 'orders', partitions: [
          { partition: 0, currentLeaderEpoch: 12, fetchOffset: 1500n, logStartOffset: 10n, partitionMaxBytes: 1048576 },
          { partition: 3, currentLeaderEpoch: 13, fetchOffset: 0n, logStartOffset: -1n, partitionMaxBytes: 65536 }] },
        { topic: 'payments', partitions: [{ partition: 1, currentLeaderEpoch: -1, fetchOffset: 42n, logStartOffset: 2n, partitionMaxBytes: 1024 }] }],
        forgottenTopicsData: [{ topic: 'gone', partitions: [7, 8] }], rackId: 'rack-7',
      },
    }),
    response: (v) => ({
      throttleTimeMs: 33, errorCode: 0, sessionId: 91,
      responses: [{ topic: 'orders', partitions: [
        { partitionIndex: 0, errorCode: 0, highWatermark: 1600n, lastStableOffset: 1590n, logStartOffset: 10n,
          abortedTransactions: [{ producerId: 77n, firstOffset: 1510n }, { producerId: 78n, firstOffset: 1520n }], preferredReadReplica: 2, records: fetchRecords(v).bytes },
        { partitionIndex: 3, errorCode: 0, highWatermark: 5n, lastStableOffset: 4n, logStartOffset: 0n, abortedTransactions: null, preferredReadReplica: -1, records: new Uint8Array(0) }] },
      { topic: 'payments', partitions: [
        { partitionIndex: 1, errorCode: 0, highWatermark: 9n, lastStableOffset: 9n, logStartOffset: 1n, abortedTransactions: [], preferredReadReplica: -1, records: null }] }],
    }),
    decoded: (v, r) => ({
      ...(v >= 1 ? thr(v, 8, r.throttleTimeMs) : {}),
      ...(v >= 7 ? { errorCode: r.errorCode, sessionId: r.sessionId } : {}),
      responses: r.responses.map((t: any) => ({
        topicName: t.topic,
        partitions: t.partitions.map((p: any) => ({
          partition: p.partitionIndex, errorCode: p.errorCode, highWatermark: String(p.highWatermark),
          ...(v >= 4 ? { lastStableOffset: String(p.lastStableOffset) } : {}),
          // kafkajs names log_start_offset "lastStartOffset".
          ...(v >= 5 ? { lastStartOffset: String(p.logStartOffset) } : {}),
          ...(v >= 4 ? { abortedTransactions: (p.abortedTransactions ?? []).map((a: any) => ({ producerId: String(a.producerId), firstOffset: String(a.firstOffset) })) } : {}),
          ...(v >= 11 ? { preferredReadReplica: p.preferredReadReplica } : {}),
          messages: p.records !== null && p.records.length > 0 ? fetchRecords(v).messages : [],
        })),
      })),
    }),
    error: () => ({ body: { responses: [{ topic: 'orders', partitions: [{ partitionIndex: 0, errorCode: 6, highWatermark: -1n, records: null }] }] }, code: 6 }),
  },
  {
    apiKey: 2,
    request: () => ({
      kjs: { replicaId: -1, isolationLevel: 1, topics: [
        { topic: 'orders', partitions: [{ partition: 0, timestamp: '-1', maxNumOffsets: 3 }, { partition: 4, timestamp: '1700000000000', maxNumOffsets: 1 }] },
        { topic: 'payments', partitions: [{ partition: 2, timestamp: '-2', maxNumOffsets: 1 }] }] },
      ours: { replicaId: -1, isolationLevel: 1, topics: [
        { name: 'orders', partitions: [{ partitionIndex: 0, timestamp: -1n, maxNumOffsets: 3 }, { partitionIndex: 4, timestamp: 1_700_000_000_000n, maxNumOffsets: 1 }] },
        { name: 'payments', partitions: [{ partitionIndex: 2, timestamp: -2n, maxNumOffsets: 1 }] }] },
    }),
    response: () => ({
      throttleTimeMs: 12,
      topics: [{ name: 'orders', partitions: [
        { partitionIndex: 0, errorCode: 0, oldStyleOffsets: [120n, 60n, 0n], timestamp: 1_700_000_000_100n, offset: 120n },
        { partitionIndex: 4, errorCode: 0, oldStyleOffsets: [], timestamp: -1n, offset: 7n }] },
      { name: 'payments', partitions: [{ partitionIndex: 2, errorCode: 0, oldStyleOffsets: [5n], timestamp: 1_700_000_000_200n, offset: 5n }] }],
    }),
    decoded: (v, r) => ({
      ...(v >= 2 ? thr(v, 3, r.throttleTimeMs) : {}),
      responses: r.topics.map((t: any) => ({
        topic: t.name,
        partitions: t.partitions.map((p: any) => ({
          partition: p.partitionIndex, errorCode: p.errorCode,
          ...(v === 0 ? { offsets: p.oldStyleOffsets.map(String) } : { timestamp: String(p.timestamp), offset: String(p.offset) }),
        })),
      })),
    }),
    error: () => ({ body: { topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 3, oldStyleOffsets: [] }] }] }, code: 3 }),
  },
  {
    apiKey: 3,
    request: () => ({
      kjs: { topics: ['orders', 'payments', 'audit.log'], allowAutoTopicCreation: false },
      ours: { topics: [{ name: 'orders' }, { name: 'payments' }, { name: 'audit.log' }], allowAutoTopicCreation: false },
    }),
    response: () => ({
      throttleTimeMs: 7,
      brokers: [{ nodeId: 1, host: 'broker-1.local', port: 9092, rack: 'rack-a' }, { nodeId: 2, host: 'broker-2.local', port: 9093, rack: null }],
      clusterId: 'cluster-xyz', controllerId: 2,
      topics: [
        { errorCode: 0, name: 'orders', isInternal: false, partitions: [
          { errorCode: 0, partitionIndex: 0, leaderId: 1, leaderEpoch: 4, replicaNodes: [1, 2], isrNodes: [1, 2], offlineReplicas: [] },
          { errorCode: 0, partitionIndex: 1, leaderId: 2, leaderEpoch: 5, replicaNodes: [2, 1, 3], isrNodes: [2], offlineReplicas: [3] }] },
        { errorCode: 0, name: '__consumer_offsets', isInternal: true, partitions: [] }],
    }),
    decoded: (v, r) => ({
      ...(v >= 3 ? thr(v, 6, r.throttleTimeMs) : {}),
      brokers: r.brokers.map((b: any) => ({ nodeId: b.nodeId, host: b.host, port: b.port, ...(v >= 1 ? { rack: b.rack } : {}) })),
      ...(v >= 2 ? { clusterId: r.clusterId } : {}),
      ...(v >= 1 ? { controllerId: r.controllerId } : {}),
      topicMetadata: r.topics.map((t: any) => ({
        topicErrorCode: t.errorCode, topic: t.name, ...(v >= 1 ? { isInternal: t.isInternal } : {}),
        partitionMetadata: t.partitions.map((p: any) => ({
          partitionErrorCode: p.errorCode, partitionId: p.partitionIndex, leader: p.leaderId,
          replicas: p.replicaNodes, isr: p.isrNodes, ...(v >= 5 ? { offlineReplicas: p.offlineReplicas } : {}),
        })),
      })),
    }),
    error: () => ({ body: { topics: [{ errorCode: 3, name: 'missing', partitions: [] }] }, code: 3 }),
  },
  {
    apiKey: 8,
    request: (v) => ({
      kjs: { groupId: 'group-a', groupGenerationId: 12, memberId: 'member-1', retentionTime: '86400000', topics: [
        { topic: 'orders', partitions: [{ partition: 0, offset: '120', timestamp: '1700000000999', metadata: 'meta' }, { partition: 3, offset: '8', timestamp: '1700000000999', metadata: null }] },
        { topic: 'payments', partitions: [{ partition: 1, offset: '77', timestamp: '1700000000999', metadata: '' }] }] },
      ours: { groupId: 'group-a', generationIdOrMemberEpoch: 12, memberId: 'member-1', retentionTimeMs: 86_400_000n, topics: [
        { name: 'orders', partitions: [
          { partitionIndex: 0, committedOffset: 120n, commitTimestamp: v === 1 ? 1_700_000_000_999n : -1n, committedMetadata: 'meta' },
          { partitionIndex: 3, committedOffset: 8n, commitTimestamp: v === 1 ? 1_700_000_000_999n : -1n, committedMetadata: null }] },
        { name: 'payments', partitions: [{ partitionIndex: 1, committedOffset: 77n, commitTimestamp: v === 1 ? 1_700_000_000_999n : -1n, committedMetadata: '' }] }] },
    }),
    response: () => ({ throttleTimeMs: 44, topics: [
      { name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 0 }, { partitionIndex: 3, errorCode: 0 }] },
      { name: 'payments', partitions: [{ partitionIndex: 1, errorCode: 0 }] }] }),
    decoded: (v, r) => ({
      ...(v >= 3 ? thr(v, 4, r.throttleTimeMs) : {}),
      responses: r.topics.map((t: any) => ({ topic: t.name, partitions: t.partitions.map((p: any) => ({ partition: p.partitionIndex, errorCode: p.errorCode })) })),
    }),
    error: () => ({ body: { topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 25 }] }] }, code: 25 }),
  },
  {
    apiKey: 9,
    request: () => ({
      kjs: { groupId: 'group-a', topics: [{ topic: 'orders', partitions: [{ partition: 0 }, { partition: 3 }] }, { topic: 'payments', partitions: [{ partition: 1 }] }] },
      ours: { groupId: 'group-a', topics: [{ name: 'orders', partitionIndexes: [0, 3] }, { name: 'payments', partitionIndexes: [1] }] },
    }),
    response: () => ({ throttleTimeMs: 3, errorCode: 0, topics: [
      { name: 'orders', partitions: [
        { partitionIndex: 0, committedOffset: 120n, metadata: 'meta', errorCode: 0 },
        { partitionIndex: 3, committedOffset: -1n, metadata: null, errorCode: 0 }] },
      { name: 'payments', partitions: [{ partitionIndex: 1, committedOffset: 77n, metadata: '', errorCode: 0 }] }] }),
    decoded: (v, r) => ({
      ...(v >= 3 ? thr(v, 4, r.throttleTimeMs) : {}),
      responses: r.topics.map((t: any) => ({ topic: t.name, partitions: t.partitions.map((p: any) => ({
        partition: p.partitionIndex, offset: String(p.committedOffset), metadata: p.metadata, errorCode: p.errorCode })) })),
      ...(v >= 2 ? { errorCode: r.errorCode } : {}),
    }),
    error: (v) => ({ body: v >= 2 ? { errorCode: 16, topics: [] } : { topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: -1n, metadata: '', errorCode: 16 }] }] }, code: 16 }),
  },
  {
    apiKey: 10,
    request: (v) => ({
      // kafkajs's index passes groupId on as the coordinator key.
      kjs: v === 0 ? { groupId: 'group-a' } : { groupId: 'txn-7', coordinatorType: 1 },
      ours: v === 0 ? { key: 'group-a' } : { key: 'txn-7', keyType: 1 },
    }),
    response: () => ({ throttleTimeMs: 5, errorCode: 0, errorMessage: null, nodeId: 3, host: 'broker-3.local', port: 9094 }),
    decoded: (v, r) => ({
      ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}),
      errorCode: r.errorCode, ...(v >= 1 ? { errorMessage: r.errorMessage } : {}),
      coordinator: { nodeId: r.nodeId, host: r.host, port: r.port },
    }),
    error: () => ({ body: { errorCode: 15, errorMessage: 'not available', nodeId: -1, host: '', port: -1 }, code: 15 }),
  },
  {
    apiKey: 11,
    request: () => ({
      kjs: { groupId: 'group-a', sessionTimeout: 30000, rebalanceTimeout: 60000, memberId: 'member-1', groupInstanceId: 'instance-1', protocolType: 'consumer',
        groupProtocols: [{ name: 'RoundRobinAssigner', metadata: B('subscription-1') }, { name: 'range', metadata: Buffer.alloc(0) }] },
      ours: { groupId: 'group-a', sessionTimeoutMs: 30000, rebalanceTimeoutMs: 60000, memberId: 'member-1', groupInstanceId: 'instance-1', protocolType: 'consumer',
        protocols: [{ name: 'RoundRobinAssigner', metadata: u8('subscription-1') }, { name: 'range', metadata: new Uint8Array(0) }] },
    }),
    response: () => ({ throttleTimeMs: 9, errorCode: 0, generationId: 4, protocolName: 'RoundRobinAssigner', leader: 'member-1', memberId: 'member-2',
      members: [{ memberId: 'member-1', groupInstanceId: 'instance-1', metadata: u8('meta-1') }, { memberId: 'member-2', groupInstanceId: null, metadata: new Uint8Array(0) }] }),
    decoded: (v, r) => ({
      ...(v >= 2 ? thr(v, 3, r.throttleTimeMs) : {}),
      errorCode: r.errorCode, generationId: r.generationId, groupProtocol: r.protocolName, leaderId: r.leader, memberId: r.memberId,
      members: r.members.map((m: any) => ({ memberId: m.memberId, ...(v >= 5 ? { groupInstanceId: m.groupInstanceId } : {}), memberMetadata: Buffer.from(m.metadata) })),
    }),
    error: () => ({ body: { errorCode: 25, generationId: -1, protocolName: '', leader: '', memberId: '', members: [] }, code: 25 }),
  },
  {
    apiKey: 12,
    request: () => ({
      kjs: { groupId: 'group-a', groupGenerationId: 4, memberId: 'member-1', groupInstanceId: 'instance-1' },
      ours: { groupId: 'group-a', generationId: 4, memberId: 'member-1', groupInstanceId: 'instance-1' },
    }),
    response: () => ({ throttleTimeMs: 11, errorCode: 0 }),
    decoded: (v, r) => ({ ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}), errorCode: r.errorCode }),
    error: () => ({ body: { errorCode: 27 }, code: 27 }),
  },
  {
    apiKey: 13,
    request: (v) => ({
      // kafkajs's index makes v3's members list from the one member it leaves as.
      kjs: { groupId: 'group-a', memberId: 'member-1', groupInstanceId: 'instance-1' },
      ours: v <= 2 ? { groupId: 'group-a', memberId: 'member-1' }
        : { groupId: 'group-a', members: [{ memberId: 'member-1', groupInstanceId: 'instance-1' }] },
    }),
    response: () => ({ throttleTimeMs: 13, errorCode: 0, members: [
      { memberId: 'member-1', groupInstanceId: 'instance-1', errorCode: 0 }, { memberId: 'member-2', groupInstanceId: null, errorCode: 0 }] }),
    decoded: (v, r) => ({
      ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}), errorCode: r.errorCode,
      ...(v >= 3 ? { members: r.members } : {}),
    }),
    error: () => ({ body: { errorCode: 25, members: [] }, code: 25 }),
  },
  {
    apiKey: 14,
    request: () => ({
      kjs: { groupId: 'group-a', generationId: 4, memberId: 'member-1', groupInstanceId: 'instance-1',
        groupAssignment: [{ memberId: 'member-1', memberAssignment: B('assignment-1') }, { memberId: 'member-2', memberAssignment: Buffer.alloc(0) }] },
      ours: { groupId: 'group-a', generationId: 4, memberId: 'member-1', groupInstanceId: 'instance-1',
        assignments: [{ memberId: 'member-1', assignment: u8('assignment-1') }, { memberId: 'member-2', assignment: new Uint8Array(0) }] },
    }),
    response: () => ({ throttleTimeMs: 14, errorCode: 0, assignment: u8('my-assignment') }),
    decoded: (v, r) => ({ ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}), errorCode: r.errorCode, memberAssignment: Buffer.from(r.assignment) }),
    error: () => ({ body: { errorCode: 27, assignment: new Uint8Array(0) }, code: 27 }),
  },
  {
    apiKey: 15,
    request: () => ({ kjs: { groupIds: ['group-a', 'group-b'] }, ours: { groups: ['group-a', 'group-b'] } }),
    response: () => ({ throttleTimeMs: 15, groups: [
      { errorCode: 0, groupId: 'group-a', groupState: 'Stable', protocolType: 'consumer', protocolData: 'range', members: [
        { memberId: 'member-1', clientId: 'client-1', clientHost: '/10.0.0.1', memberMetadata: u8('md-1'), memberAssignment: u8('as-1') },
        { memberId: 'member-2', clientId: 'client-2', clientHost: '/10.0.0.2', memberMetadata: new Uint8Array(0), memberAssignment: u8('as-2') }] },
      { errorCode: 0, groupId: 'group-b', groupState: 'Empty', protocolType: '', protocolData: '', members: [] }] }),
    decoded: (v, r) => ({
      ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}),
      groups: r.groups.map((g: any) => ({
        errorCode: g.errorCode, groupId: g.groupId, state: g.groupState, protocolType: g.protocolType, protocol: g.protocolData,
        members: g.members.map((m: any) => ({ memberId: m.memberId, clientId: m.clientId, clientHost: m.clientHost,
          memberMetadata: Buffer.from(m.memberMetadata), memberAssignment: Buffer.from(m.memberAssignment) })),
      })),
    }),
    error: () => ({ body: { groups: [{ errorCode: 16, groupId: 'group-a', groupState: '', protocolType: '', protocolData: '', members: [] }] }, code: 16 }),
  },
  {
    apiKey: 16,
    request: () => ({ kjs: {}, ours: {} }),
    response: () => ({ throttleTimeMs: 16, errorCode: 0, groups: [{ groupId: 'group-a', protocolType: 'consumer' }, { groupId: 'connect-x', protocolType: 'connect' }] }),
    decoded: (v, r) => ({ ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}), errorCode: r.errorCode, groups: r.groups }),
    error: () => ({ body: { errorCode: 15, groups: [] }, code: 15 }),
  },
  {
    apiKey: 17,
    request: () => ({ kjs: { mechanism: 'SCRAM-SHA-512' }, ours: { mechanism: 'SCRAM-SHA-512' } }),
    response: () => ({ errorCode: 0, mechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] }),
    decoded: (_v, r) => ({ errorCode: r.errorCode, enabledMechanisms: r.mechanisms }),
    error: () => ({ body: { errorCode: 33, mechanisms: ['PLAIN'] }, code: 33 }),
  },
  {
    apiKey: 18,
    request: () => ({ kjs: {}, ours: {} }),
    response: () => ({ errorCode: 0, throttleTimeMs: 18, apiKeys: [
      { apiKey: 0, minVersion: 0, maxVersion: 9 }, { apiKey: 1, minVersion: 4, maxVersion: 13 }, { apiKey: 18, minVersion: 0, maxVersion: 3 }] }),
    decoded: (v, r) => ({ errorCode: r.errorCode, apiVersions: r.apiKeys, ...(v >= 1 ? thr(v, 2, r.throttleTimeMs) : {}) }),
    error: () => ({ body: { errorCode: 31, apiKeys: [] }, code: 31 }),
  },
  {
    apiKey: 19,
    request: () => ({
      kjs: { timeout: 15000, validateOnly: true, topics: [
        { topic: 'orders', numPartitions: -1, replicationFactor: -1, replicaAssignment: [{ partition: 0, replicas: [1, 2] }, { partition: 1, replicas: [2, 3] }],
          configEntries: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'retention.ms', value: null }] },
        { topic: 'payments', numPartitions: 6, replicationFactor: 3 }] },
      ours: { timeoutMs: 15000, validateOnly: true, topics: [
        { name: 'orders', numPartitions: -1, replicationFactor: -1, assignments: [{ partitionIndex: 0, brokerIds: [1, 2] }, { partitionIndex: 1, brokerIds: [2, 3] }],
          configs: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'retention.ms', value: null }] },
        { name: 'payments', numPartitions: 6, replicationFactor: 3, assignments: [], configs: [] }] },
    }),
    // Names in kafkajs's sort order: its decoder sorts the results by topic name.
    response: () => ({ throttleTimeMs: 19, topics: [{ name: 'orders', errorCode: 0, errorMessage: null }, { name: 'payments', errorCode: 0, errorMessage: 'fine' }] }),
    decoded: (v, r) => ({
      ...(v >= 2 ? thr(v, 3, r.throttleTimeMs) : {}),
      topicErrors: r.topics.map((t: any) => ({ topic: t.name, errorCode: t.errorCode, ...(v >= 1 ? { errorMessage: t.errorMessage } : {}) })),
    }),
    error: () => ({ body: { topics: [{ name: 'orders', errorCode: 36, errorMessage: 'exists' }] }, code: 36 }),
  },
  {
    apiKey: 20,
    request: () => ({ kjs: { topics: ['orders', 'payments'], timeout: 20000 }, ours: { topicNames: ['orders', 'payments'], timeoutMs: 20000 } }),
    response: () => ({ throttleTimeMs: 20, responses: [{ name: 'orders', errorCode: 0 }, { name: 'payments', errorCode: 0 }] }),
    decoded: (v, r) => ({ ...(v >= 1 ? thr(v, 1, r.throttleTimeMs) : {}), topicErrors: r.responses.map((t: any) => ({ topic: t.name, errorCode: t.errorCode })) }),
    error: () => ({ body: { responses: [{ name: 'orders', errorCode: 3 }] }, code: 3 }),
  },
  {
    apiKey: 21,
    request: () => ({
      kjs: { timeout: 21000, topics: [{ topic: 'orders', partitions: [{ partition: 0, offset: '100' }, { partition: 2, offset: '-1' }] }] },
      ours: { timeoutMs: 21000, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, offset: 100n }, { partitionIndex: 2, offset: -1n }] }] },
    }),
    response: () => ({ throttleTimeMs: 21, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, lowWatermark: 100n, errorCode: 0 }, { partitionIndex: 2, lowWatermark: 55n, errorCode: 0 }] }] }),
    decoded: (v, r) => ({
      ...thr(v, 1, r.throttleTimeMs),
      topics: r.topics.map((t: any) => ({ topic: t.name, partitions: t.partitions.map((p: any) => ({ partition: p.partitionIndex, lowWatermark: String(p.lowWatermark), errorCode: p.errorCode })) })),
    }),
    error: () => ({ body: { topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, lowWatermark: -1n, errorCode: 3 }] }] }, code: 3 }),
  },
  {
    apiKey: 22,
    request: () => ({ kjs: { transactionalId: 'txn-1', transactionTimeout: 60000 }, ours: { transactionalId: 'txn-1', transactionTimeoutMs: 60000 } }),
    response: () => ({ throttleTimeMs: 22, errorCode: 0, producerId: 9_007_199_254_740_993n, producerEpoch: 5 }),
    decoded: (v, r) => ({ ...thr(v, 1, r.throttleTimeMs), errorCode: r.errorCode, producerId: String(r.producerId), producerEpoch: r.producerEpoch }),
    error: () => ({ body: { errorCode: 53, producerId: -1n, producerEpoch: -1 }, code: 53 }),
  },
  {
    apiKey: 24,
    request: () => ({
      kjs: { transactionalId: 'txn-1', producerId: '4000', producerEpoch: 2, topics: [{ topic: 'orders', partitions: [0, 3] }, { topic: 'payments', partitions: [1] }] },
      ours: { v3AndBelowTransactionalId: 'txn-1', v3AndBelowProducerId: 4000n, v3AndBelowProducerEpoch: 2,
        v3AndBelowTopics: [{ name: 'orders', partitions: [0, 3] }, { name: 'payments', partitions: [1] }] },
    }),
    response: () => ({ throttleTimeMs: 24, resultsByTopicV3AndBelow: [
      { name: 'orders', resultsByPartition: [{ partitionIndex: 0, partitionErrorCode: 0 }, { partitionIndex: 3, partitionErrorCode: 0 }] },
      { name: 'payments', resultsByPartition: [{ partitionIndex: 1, partitionErrorCode: 0 }] }] }),
    decoded: (v, r) => ({
      ...thr(v, 1, r.throttleTimeMs),
      errors: r.resultsByTopicV3AndBelow.map((t: any) => ({ topic: t.name, partitionErrors: t.resultsByPartition.map((p: any) => ({ partition: p.partitionIndex, errorCode: p.partitionErrorCode })) })),
    }),
    error: () => ({ body: { resultsByTopicV3AndBelow: [{ name: 'orders', resultsByPartition: [{ partitionIndex: 0, partitionErrorCode: 48 }] }] }, code: 48 }),
  },
  {
    apiKey: 25,
    request: () => ({
      kjs: { transactionalId: 'txn-1', producerId: '4000', producerEpoch: 2, groupId: 'group-a' },
      ours: { transactionalId: 'txn-1', producerId: 4000n, producerEpoch: 2, groupId: 'group-a' },
    }),
    response: () => ({ throttleTimeMs: 25, errorCode: 0 }),
    decoded: (v, r) => ({ ...thr(v, 1, r.throttleTimeMs), errorCode: r.errorCode }),
    error: () => ({ body: { errorCode: 47 }, code: 47 }),
  },
  {
    apiKey: 26,
    request: () => ({
      kjs: { transactionalId: 'txn-1', producerId: '4000', producerEpoch: 2, transactionResult: true },
      ours: { transactionalId: 'txn-1', producerId: 4000n, producerEpoch: 2, committed: true },
    }),
    response: () => ({ throttleTimeMs: 26, errorCode: 0 }),
    decoded: (v, r) => ({ ...thr(v, 1, r.throttleTimeMs), errorCode: r.errorCode }),
    error: () => ({ body: { errorCode: 48 }, code: 48 }),
  },
  {
    apiKey: 28,
    request: () => ({
      kjs: { transactionalId: 'txn-1', groupId: 'group-a', producerId: '4000', producerEpoch: 2, topics: [
        { topic: 'orders', partitions: [{ partition: 0, offset: '120', metadata: 'm' }, { partition: 3, offset: '8', metadata: null }] }] },
      ours: { transactionalId: 'txn-1', groupId: 'group-a', producerId: 4000n, producerEpoch: 2, topics: [
        { name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 120n, committedMetadata: 'm' }, { partitionIndex: 3, committedOffset: 8n, committedMetadata: null }] }] },
    }),
    response: () => ({ throttleTimeMs: 28, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 0 }, { partitionIndex: 3, errorCode: 0 }] }] }),
    decoded: (v, r) => ({
      ...thr(v, 1, r.throttleTimeMs),
      topics: r.topics.map((t: any) => ({ topic: t.name, partitions: t.partitions.map((p: any) => ({ partition: p.partitionIndex, errorCode: p.errorCode })) })),
    }),
    error: () => ({ body: { topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 49 }] }] }, code: 49 }),
  },
  {
    apiKey: 29,
    request: () => ({
      kjs: { resourceType: 2, resourceName: 'orders', resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 3, permissionType: 3 },
      ours: { resourceTypeFilter: 2, resourceNameFilter: 'orders', patternTypeFilter: 3, principalFilter: 'User:alice', hostFilter: '*', operation: 3, permissionType: 3 },
    }),
    response: () => ({ throttleTimeMs: 29, errorCode: 0, errorMessage: null, resources: [
      { resourceType: 2, resourceName: 'orders', patternType: 3, acls: [{ principal: 'User:alice', host: '*', operation: 3, permissionType: 3 }, { principal: 'User:bob', host: '10.0.0.1', operation: 4, permissionType: 2 }] }] }),
    decoded: (v, r) => ({
      ...thr(v, 1, r.throttleTimeMs), errorCode: r.errorCode, errorMessage: r.errorMessage,
      resources: r.resources.map((x: any) => ({ resourceType: x.resourceType, resourceName: x.resourceName, ...(v >= 1 ? { resourcePatternType: x.patternType } : {}), acls: x.acls })),
    }),
    error: () => ({ body: { errorCode: 29, errorMessage: 'denied', resources: [] }, code: 29 }),
  },
  {
    apiKey: 30,
    request: () => ({
      kjs: { creations: [
        { resourceType: 2, resourceName: 'orders', resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 3, permissionType: 3 },
        { resourceType: 3, resourceName: 'group-', resourcePatternType: 4, principal: 'User:bob', host: '10.0.0.1', operation: 2, permissionType: 2 }] },
      ours: { creations: [
        { resourceType: 2, resourceName: 'orders', resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 3, permissionType: 3 },
        { resourceType: 3, resourceName: 'group-', resourcePatternType: 4, principal: 'User:bob', host: '10.0.0.1', operation: 2, permissionType: 2 }] },
    }),
    response: () => ({ throttleTimeMs: 30, results: [{ errorCode: 0, errorMessage: null }, { errorCode: 0, errorMessage: '' }] }),
    decoded: (v, r) => ({ ...thr(v, 1, r.throttleTimeMs), creationResponses: r.results }),
    error: () => ({ body: { results: [{ errorCode: 31, errorMessage: 'denied' }] }, code: 31 }),
  },
  {
    apiKey: 31,
    request: () => ({
      kjs: { filters: [
        { resourceType: 2, resourceName: 'orders', resourcePatternType: 3, principal: 'User:alice', host: null, operation: 3, permissionType: 3 },
        { resourceType: 1, resourceName: null, resourcePatternType: 1, principal: null, host: '*', operation: 1, permissionType: 1 }] },
      ours: { filters: [
        { resourceTypeFilter: 2, resourceNameFilter: 'orders', patternTypeFilter: 3, principalFilter: 'User:alice', hostFilter: null, operation: 3, permissionType: 3 },
        { resourceTypeFilter: 1, resourceNameFilter: null, patternTypeFilter: 1, principalFilter: null, hostFilter: '*', operation: 1, permissionType: 1 }] },
    }),
    response: () => ({ throttleTimeMs: 31, filterResults: [
      { errorCode: 0, errorMessage: null, matchingAcls: [
        { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders', patternType: 3, principal: 'User:alice', host: '*', operation: 3, permissionType: 3 }] },
      { errorCode: 0, errorMessage: '', matchingAcls: [] }] }),
    decoded: (v, r) => ({
      ...thr(v, 1, r.throttleTimeMs),
      filterResponses: r.filterResults.map((f: any) => ({ errorCode: f.errorCode, errorMessage: f.errorMessage, matchingAcls: f.matchingAcls.map((a: any) => ({
        errorCode: a.errorCode, errorMessage: a.errorMessage, resourceType: a.resourceType, resourceName: a.resourceName,
        ...(v >= 1 ? { resourcePatternType: a.patternType } : {}), principal: a.principal, host: a.host, operation: a.operation, permissionType: a.permissionType })) })),
    }),
    error: () => ({ body: { filterResults: [{ errorCode: 31, errorMessage: 'denied', matchingAcls: [] }] }, code: 31 }),
  },
  {
    apiKey: 32,
    request: () => ({
      kjs: { includeSynonyms: true, resources: [{ type: 2, name: 'orders', configNames: ['retention.ms', 'cleanup.policy'] }, { type: 4, name: '1', configNames: ['log.dirs'] }] },
      ours: { includeSynonyms: true, resources: [{ resourceType: 2, resourceName: 'orders', configurationKeys: ['retention.ms', 'cleanup.policy'] }, { resourceType: 4, resourceName: '1', configurationKeys: ['log.dirs'] }] },
    }),
    response: (v) => ({ throttleTimeMs: 32, results: [
      { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders', configs: [
        { name: 'retention.ms', value: '604800000', readOnly: false, isDefault: false, configSource: 1, isSensitive: false,
          synonyms: [{ name: 'retention.ms', value: '604800000', source: 1 }, { name: 'log.retention.ms', value: '86400000', source: 4 }] },
        { name: 'cleanup.policy', value: 'delete', readOnly: false, isDefault: true, configSource: 5, isSensitive: false, synonyms: [] }] },
      { errorCode: 0, errorMessage: null, resourceType: 4, resourceName: '1', configs: [
        { name: 'ssl.key.password', value: null, readOnly: true, isDefault: false, configSource: 4, isSensitive: true, synonyms: [] }] }] }),
    decoded: (v, r) => ({
      ...thr(v, 2, r.throttleTimeMs),
      resources: r.results.map((x: any) => ({
        errorCode: x.errorCode, errorMessage: x.errorMessage, resourceType: x.resourceType, resourceName: x.resourceName,
        configEntries: x.configs.map((c: any) => ({
          configName: c.name, configValue: c.value, readOnly: c.readOnly,
          // v0 carries isDefault; kafkajs derives configSource from it and the resource type
          // (5 DEFAULT_CONFIG, 1 TOPIC_CONFIG, 4 STATIC_BROKER_CONFIG). v1+ carry configSource;
          // kafkajs derives isDefault from it.
          isDefault: v === 0 ? c.isDefault : c.configSource === 5,
          configSource: v === 0 ? (c.isDefault ? 5 : x.resourceType === 2 ? 1 : x.resourceType === 4 ? 4 : 0) : c.configSource,
          isSensitive: c.isSensitive,
          ...(v >= 1 ? { configSynonyms: c.synonyms.map((s: any) => ({ configName: s.name, configValue: s.value, configSource: s.source })) } : {}),
        })),
      })),
    }),
    error: () => ({ body: { results: [{ errorCode: 29, errorMessage: 'denied', resourceType: 2, resourceName: 'orders', configs: [] }] }, code: 29 }),
  },
  {
    apiKey: 33,
    request: () => ({
      kjs: { validateOnly: true, resources: [{ type: 2, name: 'orders', configEntries: [{ name: 'retention.ms', value: '1000' }, { name: 'cleanup.policy', value: null }] }] },
      ours: { validateOnly: true, resources: [{ resourceType: 2, resourceName: 'orders', configs: [{ name: 'retention.ms', value: '1000' }, { name: 'cleanup.policy', value: null }] }] },
    }),
    response: () => ({ throttleTimeMs: 33, responses: [{ errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders' }, { errorCode: 0, errorMessage: '', resourceType: 4, resourceName: '2' }] }),
    decoded: (v, r) => ({ ...thr(v, 1, r.throttleTimeMs), resources: r.responses }),
    error: () => ({ body: { responses: [{ errorCode: 44, errorMessage: 'policy', resourceType: 2, resourceName: 'orders' }] }, code: 44 }),
  },
  {
    apiKey: 36,
    request: () => ({
      // kafkajs's SASL mechanisms hand over authBytes already int32-length-prefixed (see KAFKAJS_QUIRKS).
      kjs: { authBytes: Buffer.concat([Buffer.from([0, 0, 0, 15]), B('\0alice\0secret!!')]) },
      ours: { authBytes: u8('\0alice\0secret!!') },
    }),
    response: () => ({ errorCode: 0, errorMessage: null, authBytes: u8('server-final'), sessionLifetimeMs: 3_600_000n }),
    decoded: (v, r) => ({
      errorCode: r.errorCode, errorMessage: r.errorMessage,
      // kafkajs re-prefixes the bytes it read with their int32 length (see KAFKAJS_QUIRKS).
      authBytes: Buffer.concat([Buffer.from([0, 0, 0, r.authBytes.length]), Buffer.from(r.authBytes)]),
      ...(v >= 1 ? { sessionLifetimeMs: String(r.sessionLifetimeMs) } : {}),
    }),
    error: () => ({ body: { errorCode: 58, errorMessage: 'bad password', authBytes: new Uint8Array(0) }, code: 58 }),
  },
  {
    apiKey: 37,
    request: () => ({
      kjs: { timeout: 37000, validateOnly: true, topicPartitions: [{ topic: 'orders', count: 8, assignments: [[1, 2], [2, 3]] }, { topic: 'payments', count: 4, assignments: [[3]] }] },
      ours: { timeoutMs: 37000, validateOnly: true, topics: [
        { name: 'orders', count: 8, assignments: [{ brokerIds: [1, 2] }, { brokerIds: [2, 3] }] }, { name: 'payments', count: 4, assignments: [{ brokerIds: [3] }] }] },
    }),
    response: () => ({ throttleTimeMs: 37, results: [{ name: 'orders', errorCode: 0, errorMessage: null }, { name: 'payments', errorCode: 0, errorMessage: 'ok' }] }),
    decoded: (v, r) => ({ ...thr(v, 1, r.throttleTimeMs), topicErrors: r.results.map((t: any) => ({ topic: t.name, errorCode: t.errorCode, errorMessage: t.errorMessage })) }),
    error: () => ({ body: { results: [{ name: 'orders', errorCode: 37, errorMessage: 'bad count' }] }, code: 37 }),
  },
  {
    apiKey: 42,
    request: () => ({ kjs: ['group-a', 'group-b'], ours: { groupsNames: ['group-a', 'group-b'] } }),
    response: () => ({ throttleTimeMs: 42, results: [{ groupId: 'group-a', errorCode: 0 }, { groupId: 'group-b', errorCode: 0 }] }),
    decoded: (_v, r) => ({ throttleTimeMs: r.throttleTimeMs, results: r.results }),
    error: () => ({ body: { results: [{ groupId: 'group-a', errorCode: 69 }] }, code: 69 }),
  },
  {
    apiKey: 45,
    request: () => ({
      kjs: { timeout: 45000, topics: [{ topic: 'orders', partitionAssignment: [{ partition: 0, replicas: [1, 2, 3] }, { partition: 1, replicas: [3] }] }] },
      ours: { timeoutMs: 45000, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, replicas: [1, 2, 3] }, { partitionIndex: 1, replicas: [3] }] }] },
    }),
    response: () => ({ throttleTimeMs: 45, errorCode: 0, errorMessage: null, responses: [
      { name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 0, errorMessage: null }, { partitionIndex: 1, errorCode: 0, errorMessage: 'queued' }] }] }),
    // kafkajs reads the error messages and drops them.
    decoded: (_v, r) => ({ throttleTime: r.throttleTimeMs, errorCode: r.errorCode, responses: r.responses.map((t: any) => ({
      topic: t.name, partitions: t.partitions.map((p: any) => ({ partition: p.partitionIndex, errorCode: p.errorCode })) })) }),
    error: () => ({ body: { errorCode: 0, responses: [{ name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 3, errorMessage: 'unknown' }] }] }, code: 3 }),
  },
  {
    apiKey: 46,
    request: () => ({
      kjs: { timeout: 46000, topics: [{ topic: 'orders', partitions: [0, 1] }, { topic: 'payments', partitions: [] }] },
      ours: { timeoutMs: 46000, topics: [{ name: 'orders', partitionIndexes: [0, 1] }, { name: 'payments', partitionIndexes: [] }] },
    }),
    response: () => ({ throttleTimeMs: 46, errorCode: 0, errorMessage: null, topics: [
      { name: 'orders', partitions: [{ partitionIndex: 0, replicas: [1, 2, 4], addingReplicas: [4], removingReplicas: [] }, { partitionIndex: 1, replicas: [2, 3], addingReplicas: [], removingReplicas: [1] }] }] }),
    // kafkajs reads the error message and drops it.
    decoded: (_v, r) => ({ throttleTime: r.throttleTimeMs, errorCode: r.errorCode, topics: r.topics.map((t: any) => ({
      name: t.name, partitions: t.partitions.map((p: any) => ({ partition: p.partitionIndex, replicas: p.replicas, addingReplicas: p.addingReplicas, removingReplicas: p.removingReplicas })) })) }),
    error: () => ({ body: { errorCode: 41, errorMessage: 'not controller', topics: [] }, code: 41 }),
  },
];

// ---- the checks ----

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** The frame as kafkajs's connection hands a response to `decode`: after size and correlation id. */
const payloadOf = (frame: Uint8Array) => Buffer.from(frame.subarray(8));

function stringify(v: unknown): string {
  return JSON.stringify(v, (_k, x) => typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? `<${hex(x)}>` : x);
}

/** The error codes carried by an error kafkajs's parse threw (aggregates included). */
function errorCodesOf(error: any): number[] {
  const out: number[] = [];
  const visit = (e: any) => {
    if (!e || typeof e !== 'object') return;
    if (typeof e.code === 'number') out.push(e.code);
    for (const inner of e.errors ?? []) visit(inner);
    for (const g of e.groups ?? []) visit(g.error);
    for (const p of e.partitions ?? []) visit(p.error);
  };
  visit(error);
  return out;
}

/** Error objects kafkajs attached to decoded results (DeleteGroups does so instead of throwing). */
function attachedErrorCodes(decoded: any): number[] {
  const out: number[] = [];
  const visit = (o: any) => {
    if (!o || typeof o !== 'object' || Buffer.isBuffer(o)) return;
    if (Array.isArray(o)) { o.forEach(visit); return; }
    if (o.error && typeof o.error.code === 'number') out.push(o.error.code);
    Object.values(o).forEach(visit);
  };
  visit(decoded);
  return out;
}

const matched: string[] = [];

describe('kafkajs 2.2.4 protocol layer agrees with our bytes', () => {
  it('covers every API kafkajs implements', () => {
    expect(SPECS.map((s) => s.apiKey).sort((a, b) => a - b)).toEqual(Object.keys(KJS_API_DIRS).map(Number).sort((a, b) => a - b));
  });

  for (const spec of SPECS) {
    const versions = kjsVersions(spec.apiKey);
    for (const v of versions) {
      const name = `${apiName(spec.apiKey)} v${v}`;
      it(`${name}: request bytes equal, response decoded by kafkajs`, async () => {
        const qs = quirks(spec.apiKey, v);
        const correlationId = 7000 + spec.apiKey * 20 + v;
        const clientId = 'kafka-wire-peer';

        // Request: kafkajs's bytes against ours.
        const { kjs, ours } = spec.request(v);
        const proto = kjsProtocol(spec.apiKey, v, kjs);
        const theirs = await kjsFrame(proto.request, correlationId, clientId);
        const body = fitToVersion(spec.apiKey, 'request', v, ours);
        for (const q of qs) q.request?.(body);
        const mine = encodeRequest({ requestApiKey: spec.apiKey, requestApiVersion: v, correlationId, clientId }, body);
        if (hex(mine) !== hex(theirs)) {
          let detail = '';
          try {
            detail = `\n  kafkajs's frame decodes (by us) to ${stringify(decodeRequest(theirs).body)}\n  we encoded ${stringify(body)}`;
          } catch (error) {
            detail = `\n  we cannot decode kafkajs's frame: ${(error as Error).message}`;
          }
          expect.fail(`${name} request differs\n  kafkajs: ${hex(theirs)}\n  ours:    ${hex(mine)}${detail}`);
        }
        // Our decoder reads kafkajs's frame, and writes it back unchanged.
        const decoded = decodeRequest(theirs);
        expect(decoded.apiKey).toBe(spec.apiKey);
        expect(decoded.apiVersion).toBe(v);
        expect(decoded.header.correlationId).toBe(correlationId);
        expect(decoded.header.clientId).toBe(clientId);
        expect(hex(encodeRequest(decoded.header, decoded.body))).toBe(hex(theirs));

        // Response: ours, decoded by kafkajs.
        const response = fitToVersion(spec.apiKey, 'response', v, spec.response(v));
        const frame = encodeResponse(spec.apiKey, v, { correlationId }, response);
        const complete = fitToVersion(spec.apiKey, 'response', v, withDefaults(response, decodeResponse(frame, spec.apiKey, v).body));
        const got = await proto.response.decode(payloadOf(frame));
        const want = spec.decoded(v, complete);
        for (const q of qs) q.decoded?.(want, complete);
        expect(normalize(got), `${name} response as kafkajs decodes it`).toEqual(want);
        await expect(proto.response.parse(got), `${name}: kafkajs's parse accepts our response`).resolves.toBeDefined();

        // An error response: kafkajs's parse throws the protocol error we put in.
        if (spec.error) {
          const { body: errorBody, code } = spec.error(v);
          const errorFrame = encodeResponse(spec.apiKey, v, { correlationId }, fitToVersion(spec.apiKey, 'response', v, errorBody));
          const errorDecoded = await proto.response.decode(payloadOf(errorFrame));
          const thrown = await proto.response.parse(errorDecoded).then(() => undefined, (e: unknown) => e);
          if (spec.apiKey === 42) {
            // kafkajs's DeleteGroups parse never throws: its decode attaches an error to each failed group.
            expect(thrown).toBeUndefined();
            expect(attachedErrorCodes(errorDecoded)).toContain(code);
          } else {
            expect(thrown, `${name}: kafkajs's parse should throw error ${code}`).toBeDefined();
            expect(errorCodesOf(thrown)).toContain(code);
          }
        }
        matched.push(name);
      });
    }
  }

  // kafkajs's writeNullableArray quirk (see KAFKAJS_QUIRKS): empty lists go out as null.
  const EMPTY_LISTS: { apiKey: number; versions: number[]; kjs: any; ours: any; path: (b: any) => unknown }[] = [
    { apiKey: 3, versions: [1, 2, 3, 4, 5, 6], kjs: { topics: [], allowAutoTopicCreation: true }, ours: { topics: null, allowAutoTopicCreation: true }, path: (b) => b.topics },
    { apiKey: 9, versions: [3, 4], kjs: { groupId: 'g', topics: [] }, ours: { groupId: 'g', topics: null }, path: (b) => b.topics },
    { apiKey: 32, versions: [0, 1, 2], kjs: { resources: [{ type: 2, name: 't', configNames: [] }] }, ours: { resources: [{ resourceType: 2, resourceName: 't', configurationKeys: null }] }, path: (b) => b.resources[0].configurationKeys },
    { apiKey: 37, versions: [0, 1], kjs: { topicPartitions: [{ topic: 't', count: 3, assignments: [] }], timeout: 100, validateOnly: false }, ours: { topics: [{ name: 't', count: 3, assignments: null }], timeoutMs: 100, validateOnly: false }, path: (b) => b.topics[0].assignments },
  ];
  for (const e of EMPTY_LISTS) {
    it(`${apiName(e.apiKey)} v${e.versions.join(',')}: kafkajs sends an empty list as null, and so do we when told null`, async () => {
      for (const v of e.versions) {
        const proto = kjsProtocol(e.apiKey, v, e.kjs);
        const theirs = await kjsFrame(proto.request, 1, 'c');
        expect(e.path(decodeRequest(theirs).body)).toBeNull();
        const ours = encodeRequest({ requestApiKey: e.apiKey, requestApiVersion: v, correlationId: 1, clientId: 'c' }, fitToVersion(e.apiKey, 'request', v, e.ours));
        expect(hex(ours)).toBe(hex(theirs));
      }
    });
  }

  it('summary: every API version kafkajs implements matched', () => {
    const expected = SPECS.flatMap((spec) => kjsVersions(spec.apiKey).map((v) => `${apiName(spec.apiKey)} v${v}`));
    expect(expected.length).toBeGreaterThan(100);
    expect([...matched].sort()).toEqual([...expected].sort());
    const byApi = new Map<string, number[]>();
    for (const m of matched) {
      const [api, v] = m.split(' v');
      byApi.set(api!, [...(byApi.get(api!) ?? []), Number(v)]);
    }
    const ranges = [...byApi].map(([api, vs]) => `${api} v${vs[0]}-${vs[vs.length - 1]}`);
    console.log(`[kafkajs] ${matched.length} API versions matched byte for byte (requests) and field for field (responses):\n  ${ranges.join(', ')}`);
    console.log(`[kafkajs] quirks allowed:\n  ${KAFKAJS_QUIRKS.map((q) => `${apiName(q.apiKey)} v${q.versions[0]}-${q.versions[1]}: ${q.why}`).join('\n  ')}`);
  });
});
