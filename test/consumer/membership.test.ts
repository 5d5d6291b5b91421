// The classic member's state machine against a scripted coordinator (startServer): each error a
// coordinator answers is handled as Kafka's protocol says, in order: MEMBER_ID_REQUIRED (join again
// with the id), NOT_COORDINATOR (find the coordinator again), REBALANCE_IN_PROGRESS at SyncGroup
// (rejoin) and at Heartbeat (revoke with a commit, rejoin), UNKNOWN_MEMBER_ID (partitions lost
// without a commit, rejoin as a new member), and FENCED_INSTANCE_ID (fatal: a typed error).

import { afterEach, describe, expect, it } from 'vitest';
import { startServer, apiVersionsResponse, type KafkaServer, type IncomingRequest } from '../../src/wire/server.js';
import { ApiKey } from '../../src/generated/types.js';
import { Consumer } from '../../src/consumer/index.js';
import { decodeSubscription, encodeAssignment } from '../../src/consumer/protocol.js';
import { ConsumerError } from '../../src/consumer/errors.js';
import { encodeRecordBatch } from '../../src/records/index.js';

const E = { NONE: 0, NOT_COORDINATOR: 16, ILLEGAL_GENERATION: 22, UNKNOWN_MEMBER_ID: 25, REBALANCE_IN_PROGRESS: 27, MEMBER_ID_REQUIRED: 79, FENCED_INSTANCE_ID: 82 };

let server: KafkaServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

describe('classic membership against a scripted coordinator', () => {
  it('walks MEMBER_ID_REQUIRED, NOT_COORDINATOR, rebalances, UNKNOWN_MEMBER_ID, then stops on FENCED_INSTANCE_ID', async () => {
    const log: string[] = [];
    let port = 0;
    const joins = [
      { errorCode: E.MEMBER_ID_REQUIRED, memberId: 'm-1' },
      { errorCode: E.NOT_COORDINATOR },
      { generationId: 1 },
      { generationId: 2 },
      { generationId: 3 },
      { errorCode: E.MEMBER_ID_REQUIRED, memberId: 'm-2' },
      { generationId: 1 },
    ];
    const syncs = [E.REBALANCE_IN_PROGRESS, E.NONE, E.NONE, E.NONE];
    let handled = 0;
    // Each error answered only once what comes before it in the expected log has happened, so the
    // order does not depend on timing.
    const heartbeats: { code: number; after?: () => boolean }[] = [
      { code: E.REBALANCE_IN_PROGRESS, after: () => handled >= 1 },
      { code: E.UNKNOWN_MEMBER_ID, after: () => log.includes('OffsetCommit generation 3') },
      { code: E.FENCED_INSTANCE_ID, after: () => log.includes('OffsetCommit generation 1') },
    ];
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
          return { brokers: [{ nodeId: 0, host: '127.0.0.1', port }], controllerId: 0, topics: [{ errorCode: 0, name: 't', partitions: [0, 1].map((p) => ({ errorCode: 0, partitionIndex: p, leaderId: 0, replicaNodes: [0], isrNodes: [0] })) }] };
        case ApiKey.FindCoordinator:
          log.push('FindCoordinator');
          return { errorCode: 0, nodeId: 0, host: '127.0.0.1', port };
        case ApiKey.JoinGroup: {
          const next = joins.shift() ?? { errorCode: E.REBALANCE_IN_PROGRESS };
          log.push(`JoinGroup ${b.memberId || '-'}${next.errorCode ? ` -> ${next.errorCode}` : ` -> generation ${next.generationId}`}`);
          if (next.errorCode) return { errorCode: next.errorCode, memberId: next.memberId ?? '', generationId: -1, protocolName: '', leader: '' };
          const topics = decodeSubscription(b.protocols[0].metadata).topics;
          expect(topics).toEqual(['t']);
          return { errorCode: 0, generationId: next.generationId, protocolName: b.protocols[0].name, leader: b.memberId, memberId: b.memberId,
            members: [{ memberId: b.memberId, metadata: b.protocols[0].metadata }] };
        }
        case ApiKey.SyncGroup: {
          const code = syncs.shift() ?? E.NONE;
          log.push(`SyncGroup ${b.memberId} generation ${b.generationId}${code ? ` -> ${code}` : ''}`);
          if (b.assignments.length > 0) lastAssignment = b.assignments[0].assignment;
          return { errorCode: code, assignment: code ? new Uint8Array(0) : lastAssignment };
        }
        case ApiKey.Heartbeat: {
          const next = heartbeats[0];
          if (!next || (next.after && !next.after())) return { errorCode: E.NONE };
          heartbeats.shift();
          log.push(`Heartbeat generation ${b.generationId} -> ${next.code}`);
          return { errorCode: next.code };
        }
        case ApiKey.OffsetFetch:
          return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitionIndexes.map((p: number) => ({ partitionIndex: p, committedOffset: -1n, metadata: '', errorCode: 0 })) })) };
        case ApiKey.OffsetCommit:
          log.push(`OffsetCommit generation ${b.generationIdOrMemberEpoch}`);
          return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: 0 })) })) };
        case ApiKey.ListOffsets:
          return { topics: b.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: 0, timestamp: -1n, offset: 0n })) })) };
        case ApiKey.Fetch:
          // Partition 0 holds one record (offset 0), partition 1 nothing.
          return new Promise((resolve) => setTimeout(() => resolve({ responses: b.topics.map((t: any) => ({ topic: t.topic, partitions: t.partitions.map((p: any) => ({
            partitionIndex: p.partition, errorCode: 0, highWatermark: p.partition === 0 ? 1n : 0n,
            records: p.partition === 0 && p.fetchOffset === 0n ? encodeRecordBatch({ records: [{ value: 'one' }] }) : null,
          })) })) }), 10));
        case ApiKey.LeaveGroup:
          log.push('LeaveGroup');
          return { errorCode: 0 };
      }
      throw new Error(`unexpected API ${req.apiKey}`);
    };
    server = await startServer({ handler });
    port = server.port;
    const events: string[] = [];
    const consumer = new Consumer({
      bootstrap: `127.0.0.1:${port}`, groupId: 'g', topics: ['t'], groupProtocol: 'classic', assignors: ['range'],
      heartbeatIntervalMs: 30, sessionTimeoutMs: 6000, resetPolicy: 'earliest', maxWaitMs: 20,
    });
    consumer.on('assigned', (tps) => events.push(`assigned ${tps.map((tp) => tp.partitions.join(',')).join()}`));
    consumer.on('revoked', (tps) => events.push(`revoked ${tps.map((tp) => tp.partitions.join(',')).join()}`));
    consumer.on('lost', (tps) => events.push(`lost ${tps.map((tp) => tp.partitions.join(',')).join()}`));
    const failure = consumer.run(() => { handled++; }).then(() => null, (err) => err);
    const err = await failure;
    expect(err).toBeInstanceOf(ConsumerError);
    expect(err).toMatchObject({ code: 'GROUP', errorCode: E.FENCED_INSTANCE_ID });
    await consumer.close();
    expect(log).toEqual([
      'FindCoordinator',
      'JoinGroup - -> 79',                       // no id yet: the coordinator hands one out
      'JoinGroup m-1 -> 16',                     // NOT_COORDINATOR: look again
      'FindCoordinator',
      'JoinGroup m-1 -> generation 1',
      'SyncGroup m-1 generation 1 -> 27',        // rebalancing again: rejoin
      'JoinGroup m-1 -> generation 2',
      'SyncGroup m-1 generation 2',
      'Heartbeat generation 2 -> 27',            // the group wants a rebalance: commit what is finished, give up, rejoin
      'OffsetCommit generation 2',
      'JoinGroup m-1 -> generation 3',
      'SyncGroup m-1 generation 3',
      // This coordinator answers OffsetFetch with nothing committed: the member goes on from what
      // it finished itself, and commits it again.
      'OffsetCommit generation 3',
      'Heartbeat generation 3 -> 25',            // unknown member: partitions lost, no commit, join as a new member
      'JoinGroup - -> 79',
      'JoinGroup m-2 -> generation 1',
      'SyncGroup m-2 generation 1',
      'OffsetCommit generation 1',
      'Heartbeat generation 1 -> 82',            // fenced: fatal
    ]);
    expect(events).toEqual(['assigned 0,1', 'revoked 0,1', 'assigned 0,1', 'lost 0,1', 'assigned 0,1']);
  }, 30_000);
});
