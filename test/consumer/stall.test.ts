// A group member whose Metadata answer is cut mid-frame (issue 37, item 4: the member went stable,
// heartbeated, and never fetched, with no error), through cut-proxy.ts (half the frame written,
// then the connection closed).
// KIP-848 against a scripted coordinator (the broker sends an assignment once, as Kafka does);
// classic against librdkafka's mock cluster, and a scripted one where the member's first taking of
// its partitions fails (a cooperative member kept them as owned, unread). Either the member reads its records or it says why.

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer, apiVersionsResponse, type KafkaServer, type IncomingRequest } from '../../src/wire/server.js';
import { ApiKey } from '../../src/generated/types.js';
import { Consumer } from '../../src/consumer/index.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { mockClusterAvailable, startMockCluster, type MockCluster } from '../wire/mock-cluster.js';
import { peer } from '../helpers/peer.js';
import { produceNumbered, until } from './group-helpers.js';
import { firstAfter, firstN, startCuttingProxy } from './cut-proxy.js';

const mockOk = peer('librdkafka mock cluster', (await mockClusterAvailable()).ok, 'apt-get install librdkafka-dev and a C compiler');

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ';

/** A KIP-848 coordinator and leader of topic t (one partition, 5 records) that sends the assignment once. */
async function scriptedKip848(advertised: () => number): Promise<KafkaServer> {
  let epoch = 0;
  const handler = (req: IncomingRequest): object => {
    const b = req.body;
    switch (req.apiKey) {
      case ApiKey.ApiVersions:
        return apiVersionsResponse([
          { apiKey: ApiKey.Metadata, minVersion: 1, maxVersion: 12 }, { apiKey: ApiKey.Fetch, minVersion: 4, maxVersion: 12 },
          { apiKey: ApiKey.ListOffsets, minVersion: 1, maxVersion: 3 }, { apiKey: ApiKey.OffsetFetch, minVersion: 1, maxVersion: 7 },
          { apiKey: ApiKey.OffsetCommit, minVersion: 2, maxVersion: 8 }, { apiKey: ApiKey.FindCoordinator, minVersion: 0, maxVersion: 3 },
          { apiKey: ApiKey.ConsumerGroupHeartbeat, minVersion: 0, maxVersion: 0 }, { apiKey: ApiKey.ApiVersions, minVersion: 0, maxVersion: 3 },
        ]);
      case ApiKey.Metadata:
        return { brokers: [{ nodeId: 0, host: '127.0.0.1', port: advertised() }], controllerId: 0, clusterId: 'c',
          topics: [{ errorCode: 0, name: 't', topicId: TOPIC_ID, partitions: [{ errorCode: 0, partitionIndex: 0, leaderId: 0, leaderEpoch: 0, replicaNodes: [0], isrNodes: [0] }] }] };
      case ApiKey.FindCoordinator:
        return { errorCode: 0, nodeId: 0, host: '127.0.0.1', port: advertised() };
      case ApiKey.ConsumerGroupHeartbeat: {
        if (b.memberEpoch < 0) return { errorCode: 0, memberId: b.memberId, memberEpoch: b.memberEpoch, heartbeatIntervalMs: 100, assignment: null };
        const first = epoch === 0;
        epoch = Math.max(epoch, 1);
        // Kafka sends the assignment when it changes, not again while the member reports less.
        return { errorCode: 0, memberId: b.memberId, memberEpoch: epoch, heartbeatIntervalMs: 100,
          assignment: first ? { topicPartitions: [{ topicId: TOPIC_ID, partitions: [0] }] } : null };
      }
      case ApiKey.OffsetFetch:
        return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitionIndexes.map((p: number) => ({ partitionIndex: p, committedOffset: -1n, metadata: '', errorCode: 0 })) })) };
      case ApiKey.OffsetCommit:
        return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: 0 })) })) };
      case ApiKey.ListOffsets:
        return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: 0, timestamp: -1n, offset: 0n })) })) };
      case ApiKey.Fetch:
        return new Promise((resolve) => setTimeout(() => resolve({ responses: b.topics.map((t: any) => ({ topic: t.topic, partitions: t.partitions.map((p: any) => ({
          partitionIndex: p.partition, errorCode: 0, highWatermark: 5n,
          records: p.fetchOffset === 0n ? encodeRecordBatch({ records: [1, 2, 3, 4, 5].map((i) => ({ value: `v${i}` })) }) : null,
        })) })) }), 20));
    }
    throw new Error(`unexpected API ${req.apiKey}`);
  };
  return startServer({ handler });
}

/**
 * A classic coordinator and leader of topic t (one partition, 5 records) that, between the first
 * and the second SyncGroup, answers ListOffsets NOT_LEADER_OR_FOLLOWER and Metadata with no
 * leader for t: the member's first taking of its partitions fails, and the rebalance is retried.
 */
async function scriptedClassic(advertised: () => number): Promise<KafkaServer> {
  let syncs = 0;
  let lastAssignment = new Uint8Array(0);
  const handler = (req: IncomingRequest): object => {
    const b = req.body;
    switch (req.apiKey) {
      case ApiKey.ApiVersions:
        return apiVersionsResponse([
          { apiKey: ApiKey.Metadata, minVersion: 1, maxVersion: 9 }, { apiKey: ApiKey.Fetch, minVersion: 4, maxVersion: 11 },
          { apiKey: ApiKey.ListOffsets, minVersion: 1, maxVersion: 3 }, { apiKey: ApiKey.OffsetFetch, minVersion: 1, maxVersion: 7 },
          { apiKey: ApiKey.OffsetCommit, minVersion: 2, maxVersion: 8 }, { apiKey: ApiKey.FindCoordinator, minVersion: 0, maxVersion: 3 },
          { apiKey: ApiKey.JoinGroup, minVersion: 0, maxVersion: 7 }, { apiKey: ApiKey.SyncGroup, minVersion: 0, maxVersion: 5 },
          { apiKey: ApiKey.Heartbeat, minVersion: 0, maxVersion: 4 }, { apiKey: ApiKey.LeaveGroup, minVersion: 0, maxVersion: 4 },
          { apiKey: ApiKey.ApiVersions, minVersion: 0, maxVersion: 3 },
        ]);
      case ApiKey.Metadata:
        return { brokers: [{ nodeId: 0, host: '127.0.0.1', port: advertised() }], controllerId: 0,
          topics: [{ errorCode: 0, name: 't', partitions: [{ errorCode: 0, partitionIndex: 0, leaderId: syncs === 1 ? -1 : 0, replicaNodes: [0], isrNodes: [0] }] }] };
      case ApiKey.FindCoordinator:
        return { errorCode: 0, nodeId: 0, host: '127.0.0.1', port: advertised() };
      case ApiKey.JoinGroup: {
        const memberId = b.memberId || 'm-1';
        return { errorCode: 0, generationId: syncs + 1, protocolName: b.protocols[0].name, leader: memberId, memberId, members: [{ memberId, metadata: b.protocols[0].metadata }] };
      }
      case ApiKey.SyncGroup:
        syncs++;
        if (b.assignments.length > 0) lastAssignment = b.assignments[0].assignment;
        return { errorCode: 0, assignment: lastAssignment };
      case ApiKey.Heartbeat: return { errorCode: 0 };
      case ApiKey.LeaveGroup: return { errorCode: 0 };
      case ApiKey.OffsetFetch:
        return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitionIndexes.map((p: number) => ({ partitionIndex: p, committedOffset: -1n, metadata: '', errorCode: 0 })) })) };
      case ApiKey.OffsetCommit:
        return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: 0 })) })) };
      case ApiKey.ListOffsets:
        return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: syncs === 1 ? NOT_LEADER_OR_FOLLOWER : 0, timestamp: -1n, offset: 0n })) })) };
      case ApiKey.Fetch:
        return new Promise((resolve) => setTimeout(() => resolve({ responses: b.topics.map((t: any) => ({ topic: t.topic, partitions: t.partitions.map((p: any) => ({
          partitionIndex: p.partition, errorCode: 0, highWatermark: 5n,
          records: p.fetchOffset === 0n ? encodeRecordBatch({ records: [1, 2, 3, 4, 5].map((i) => ({ value: `v${i}` })) }) : null,
        })) })) }), 20));
    }
    throw new Error(`unexpected API ${req.apiKey}`);
  };
  return startServer({ handler });
}

const NOT_LEADER_OR_FOLLOWER = 6;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

/** Reads until `want` records arrived or `ms` passed; the records' values, the errors, the debug log. */
async function readThrough(bootstrap: string, extra: object, want: number, ms: number) {
  const log: string[] = [];
  const errors: Error[] = [];
  const c = new Consumer({ bootstrap, groupId: 'stall-g', topics: ['t'], resetPolicy: 'earliest', maxWaitMs: 50, debug: (m) => log.push(m), ...extra });
  c.on('error', (e) => errors.push(e));
  const got: string[] = [];
  const running = c.run((batch) => { for (const r of batch.records()) got.push(Buffer.from(r.value!).toString()); }).catch((e: Error) => { errors.push(e); });
  await until(() => got.length >= want || errors.length > 0, ms, 50);
  await c.close();
  await running;
  return { got, errors, log };
}

describe('a member whose Metadata answer is cut mid-frame', () => {
  // The member's first Metadata answers (the ones naming its topic and its assignment's topic ids)
  // are cut; the broker has sent the assignment with the heartbeat before and will not again.
  it('KIP-848: the assignment that came before it is still taken, and read', async () => {
    let proxyPort = 0;
    const server = await scriptedKip848(() => proxyPort);
    cleanups.push(() => server.close());
    const proxy = await startCuttingProxy({ host: '127.0.0.1', port: server.port }, firstN(ApiKey.Metadata, 2));
    proxyPort = proxy.port;
    cleanups.push(() => proxy.close());
    const { got, errors, log } = await readThrough(proxy.bootstrap, { groupProtocol: 'consumer' }, 5, 8000);
    expect(proxy.cuts).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(got, log.join('\n')).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  }, 20_000);

  it('classic, cooperative: partitions whose first taking failed are taken when the rebalance is retried', async () => {
    let port = 0;
    const server = await scriptedClassic(() => port);
    port = server.port;
    cleanups.push(() => server.close());
    const { got, errors, log } = await readThrough(`127.0.0.1:${port}`, { groupProtocol: 'classic', assignors: ['cooperative-sticky'], heartbeatIntervalMs: 100, sessionTimeoutMs: 6000 }, 5, 15_000);
    expect(errors).toEqual([]);
    expect(log.some((l) => l.includes('rebalance failed')), log.join('\n')).toBe(true); // the first taking did fail
    expect(got, log.join('\n')).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  }, 30_000);

  describe.skipIf(!mockOk)('classic, on the mock cluster', () => {
    let mc: MockCluster | undefined;
    afterAll(async () => { await mc?.stop(); });
    const cases = [
      ['the first Metadata of all', () => firstAfter(ApiKey.Metadata)],
      ['the first Metadata after JoinGroup', () => firstAfter(ApiKey.Metadata, ApiKey.JoinGroup)],
      ['the first ListOffsets', () => firstAfter(ApiKey.ListOffsets)],
      ['the first OffsetFetch', () => firstAfter(ApiKey.OffsetFetch)],
      ['the first Fetch', () => firstAfter(ApiKey.Fetch)],
    ] as const;
    for (const [name, cutter] of cases) {
      it(`${name}: the member goes on and reads`, async () => {
        mc ??= await startMockCluster({ brokers: 1, topics: ['t:1'] });
        await produceNumbered(mc.bootstrap, 't', 1, 0, 5, 'v');
        const proxy = await startCuttingProxy(mc.brokers[0]!, cutter());
        cleanups.push(() => proxy.close());
        const { got, errors, log } = await readThrough(proxy.bootstrap, { groupProtocol: 'classic', sessionTimeoutMs: 6000, heartbeatIntervalMs: 200, groupId: `stall-${cases.findIndex(([n]) => n === name)}` }, 5, 15_000);
        expect(proxy.cuts).toBe(1);
        expect(errors).toEqual([]);
        expect(got.slice(0, 5), log.join('\n')).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
      }, 30_000);
    }
  });
});
