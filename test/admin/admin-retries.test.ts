// The admin client's routing and retries against a scripted two-node cluster (startServer), where
// each answer Kafka gives only in a failure can be given on purpose: NOT_CONTROLLER (the call goes
// to the new controller), COORDINATOR_LOAD_IN_PROGRESS then NOT_COORDINATOR (asked again, then the
// coordinator looked up afresh), LEADER_NOT_AVAILABLE and NOT_LEADER_OR_FOLLOWER (metadata again,
// the new leader asked), a connection lost mid-call (asked again), and a retriable error that
// never ends (RETRIES_EXHAUSTED, with Kafka's error name). Each test reads the log of who was asked what.
import { afterEach, describe, expect, it } from 'vitest';
import { Admin, AdminError } from '../../src/admin/index.js';
import { ApiKey } from '../../src/generated/types.js';
import { apiVersionsResponse, startServer, type IncomingRequest, type KafkaServer } from '../../src/wire/server.js';
import { apiName } from '../../src/wire/versions.js';

const E = { NONE: 0, LEADER_NOT_AVAILABLE: 5, NOT_LEADER_OR_FOLLOWER: 6, COORDINATOR_LOAD_IN_PROGRESS: 14, NOT_COORDINATOR: 16, NOT_CONTROLLER: 41 };

// The scripted nodes offer every API, KIP-714's too: the admins here are made with
// enableMetricsPush: false, so each log holds only the one call's routing.

/** What a node does with a request other than ApiVersions and Metadata (undefined: the default answer). */
type Script = (node: number, req: IncomingRequest) => object | undefined;

interface Cluster {
  bootstrap: string;
  log: string[];
  /** What metadata says now: the controller and partition 0's leader of topic t. */
  state: { controller: number; leader: number; coordinator: number };
  close(): Promise<void>;
}

const servers: KafkaServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => s.close())); });

async function cluster(script: Script): Promise<Cluster> {
  const state = { controller: 1, leader: 1, coordinator: 1 };
  const log: string[] = [];
  const ports: number[] = [];
  for (const node of [1, 2]) {
    const server = await startServer({
      handler: (req) => {
        if (req.apiKey === ApiKey.ApiVersions) return apiVersionsResponse();
        if (req.apiKey === ApiKey.Metadata) {
          return {
            brokers: [1, 2].map((nodeId) => ({ nodeId, host: '127.0.0.1', port: ports[nodeId - 1], rack: null })), clusterId: 'scripted', controllerId: state.controller,
            topics: (req.body.topics ?? []).map((t: { name: string }) => ({ errorCode: 0, name: t.name, topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', partitions: [{ errorCode: 0, partitionIndex: 0, leaderId: state.leader, leaderEpoch: 1, replicaNodes: [1, 2], isrNodes: [1, 2], offlineReplicas: [] }] })),
          };
        }
        if (req.apiKey === ApiKey.FindCoordinator) {
          log.push(`${node} FindCoordinator -> ${state.coordinator}`);
          return { coordinators: req.body.coordinatorKeys.map((key: string) => ({ key, nodeId: state.coordinator, host: '127.0.0.1', port: ports[state.coordinator - 1], errorCode: 0, errorMessage: null })) };
        }
        let answer: object | undefined;
        try {
          answer = script(node, req);
        } catch (error) {
          log.push(`${node} ${apiName(req.apiKey)} -> connection dropped`);
          throw error;
        }
        const codes = errorCodes(answer);
        log.push(`${node} ${apiName(req.apiKey)}${codes.length > 0 ? ` -> ${codes.join(',')}` : ''}`);
        if (answer === undefined) throw new Error(`no answer scripted for ${apiName(req.apiKey)}`);
        return answer;
      },
    });
    servers.push(server);
    ports.push(server.port);
  }
  return { bootstrap: `127.0.0.1:${ports[0]}`, log, state, close: async () => {} };
}

/** The error codes anywhere in an answer, but 0. */
function errorCodes(value: unknown): number[] {
  if (Array.isArray(value)) return value.flatMap(errorCodes);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'errorCode' ? (v ? [v as number] : []) : errorCodes(v)));
}

const createdTopic = (req: IncomingRequest, errorCode: number) => ({
  topics: req.body.topics.map((t: { name: string }) => ({ name: t.name, topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', errorCode, errorMessage: null, numPartitions: 1, replicationFactor: 1, configs: [] })),
});

describe('the admin client\'s routing and retries, against a scripted cluster', () => {
  it('sends CreateTopics to the controller, and after NOT_CONTROLLER to the new one metadata names', async () => {
    const c = await cluster((node, req) => {
      if (req.apiKey !== ApiKey.CreateTopics) return undefined;
      if (node === 1) { c.state.controller = 2; return createdTopic(req, E.NOT_CONTROLLER); }
      return createdTopic(req, E.NONE);
    });
    const admin = new Admin({ bootstrap: c.bootstrap, enableMetricsPush: false, retryBackoffMs: 1 });
    try {
      expect((await admin.createTopics([{ name: 't' }]))[0]!.name).toBe('t');
      expect(c.log).toEqual(['1 CreateTopics -> 41', '2 CreateTopics']);
    } finally {
      await admin.close();
    }
  });

  it('asks the group coordinator again after COORDINATOR_LOAD_IN_PROGRESS, and finds it afresh after NOT_COORDINATOR', async () => {
    const answers = [E.COORDINATOR_LOAD_IN_PROGRESS, E.NOT_COORDINATOR, E.NONE];
    const c = await cluster((node, req) => {
      if (req.apiKey !== ApiKey.DeleteGroups) return undefined;
      const code = answers.shift()!;
      if (code === E.NOT_COORDINATOR) c.state.coordinator = 2;
      return { results: req.body.groupsNames.map((groupId: string) => ({ groupId, errorCode: code })) };
    });
    const admin = new Admin({ bootstrap: c.bootstrap, enableMetricsPush: false, retryBackoffMs: 1 });
    try {
      expect(await admin.deleteGroups(['g'])).toEqual(['g']);
      expect(c.log).toEqual(['1 FindCoordinator -> 1', '1 DeleteGroups -> 14', '1 DeleteGroups -> 16', '1 FindCoordinator -> 2', '2 DeleteGroups']);
    } finally {
      await admin.close();
    }
  });

  it('waits out LEADER_NOT_AVAILABLE in metadata and follows NOT_LEADER_OR_FOLLOWER to the new leader', async () => {
    const c = await cluster((node, req) => {
      if (req.apiKey !== ApiKey.ListOffsets) return undefined;
      const moved = node === 1;
      if (moved) c.state.leader = 2;
      return { topics: req.body.topics.map((t: any) => ({ name: t.name, partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: moved ? E.NOT_LEADER_OR_FOLLOWER : 0, timestamp: -1n, offset: 42n, leaderEpoch: 2 })) })) };
    });
    c.state.leader = -1;
    const admin = new Admin({ bootstrap: c.bootstrap, enableMetricsPush: false, retryBackoffMs: 1 });
    try {
      setTimeout(() => { c.state.leader = 1; }, 50);
      const [listed] = await admin.listOffsets([{ topic: 't', partition: 0, spec: 'latest' }]);
      expect(listed).toEqual({ topic: 't', partition: 0, offset: 42n, timestamp: -1n, leaderEpoch: 2 });
      expect(c.log).toEqual(['1 ListOffsets -> 6', '2 ListOffsets']);
    } finally {
      await admin.close();
    }
  });

  it('asks again when the connection is lost mid-call', async () => {
    let first = true;
    const c = await cluster((_node, req) => {
      if (req.apiKey !== ApiKey.DeleteTopics) return undefined;
      if (first) { first = false; throw new Error('the scripted broker drops this connection'); }
      return { responses: req.body.topics.map((t: { name: string }) => ({ name: t.name, topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', errorCode: 0, errorMessage: null })) };
    });
    const admin = new Admin({ bootstrap: c.bootstrap, enableMetricsPush: false, retryBackoffMs: 1 });
    try {
      expect(await admin.deleteTopics(['t'])).toEqual([{ name: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAQ' }]);
      expect(c.log.filter((l) => l.includes('DeleteTopics'))).toHaveLength(2);
    } finally {
      await admin.close();
    }
  });

  it('gives up after its retries with RETRIES_EXHAUSTED and Kafka\'s error name, the batch\'s other topics done', async () => {
    const c = await cluster((_node, req) => {
      if (req.apiKey !== ApiKey.CreateTopics) return undefined;
      return { topics: req.body.topics.map((t: { name: string }) => ({ ...createdTopic(req, 0).topics[0], name: t.name, errorCode: t.name === 'stuck' ? E.NOT_CONTROLLER : 0 })) };
    });
    const admin = new Admin({ bootstrap: c.bootstrap, enableMetricsPush: false, retries: 2, retryBackoffMs: 1 });
    try {
      const error = await admin.createTopics([{ name: 'stuck' }, { name: 'fine' }]).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(AdminError);
      const e = error as AdminError;
      expect(e.code).toBe('RESOURCES');
      expect(e.failures.map((f) => [f.code, f.resource, f.errorName])).toEqual([['RETRIES_EXHAUSTED', 'topic stuck', 'NOT_CONTROLLER']]);
      expect((e.succeeded as { name: string }[]).map((t) => t.name)).toEqual(['fine']);
      expect(c.log.filter((l) => l.endsWith('-> 41'))).toHaveLength(3); // the first try and two retries
    } finally {
      await admin.close();
    }
  });
});
