// The admin client (`kafka-wire/admin`): everything besides producing and consuming, created like
// the producer and consumer and sent over the same KafkaClient.
//
//   const admin = await createAdmin({ bootstrap: '127.0.0.1:9092' });
//   await admin.createTopics([{ name: 'orders', partitions: 6, replicationFactor: 3 }]);
//   const [orders] = await admin.describeTopics(['orders']);
//   await admin.close();
//
// Every call routes each resource to the broker that must answer it and retries the retriable
// errors (./router.ts); a batch call where some resources fail rejects with AdminError RESOURCES,
// whose `failures` name each failed resource and whose `succeeded` holds the rest. Bad input is an
// AdminError INVALID_ARGUMENT before anything is sent (./validate.ts).
import { KafkaClient, type ClientOptions } from '../wire/client.js';
import type { Connection } from '../wire/connection.js';
import { ZERO_UUID } from '../wire/versions.js';
import { Metrics, type MetricValue } from '../observe/metrics.js';
import { NetworkMetrics, type ConnectionObserver } from '../observe/network-metrics.js';
import { TelemetryPusher } from '../wire/telemetry.js';
import { ApiKey, type ResponseBodies } from '../generated/types.js';
import { decodeAssignment, CONSUMER_PROTOCOL_TYPE, type TopicPartitions } from '../consumer/protocol.js';
import { AdminError, brokerError, invalid } from './errors.js';
import { KAFKA_ERROR_NAMES } from '../wire/error-names.js';
import { ANY, CONTROLLER, ok, Router, type Call, type Outcome, type Route } from './router.js';
import { checkCount, checkOffset, checkReplicas, checkTopicName, nonEmpty } from './validate.js';
import { assignReplicas } from './reassign-plan.js';
import * as shareGroups from './share-groups.js';
import type { ShareGroupDescription, ShareGroupListing, ShareResetTarget } from './share-groups.js';
import { ConsumerError } from '../consumer/errors.js';
import {
  ACL_OPERATIONS, ACL_PATTERN_TYPES, ACL_PERMISSIONS, ACL_RESOURCE_TYPES, codeOf,
  type AclOperation, type AclPatternType, type AclPermission, type AclResourceType,
  CONFIG_OPERATIONS, CONFIG_SOURCES, CONFIG_TYPES, RESOURCE_TYPE_CODES, authorizedOperations, nameOf,
  type ConfigOperation, type ConfigResourceType, type ConfigSource, type ConfigType,
} from './codes.js';

export interface AdminOptions extends ClientOptions {
  /** How long the broker may take over a call that waits (CreateTopics, DeleteRecords, ...); default 30 000 ms. */
  timeoutMs?: number;
  /** Retries of a resource after a retriable error or a lost connection; default 8. */
  retries?: number;
  /** The first retry's backoff, doubling up to 1 s; default 100 ms. */
  retryBackoffMs?: number;
}

/** Creates an admin client and checks that the cluster answers (fetches its metadata). */
export async function createAdmin(options: AdminOptions): Promise<Admin> {
  const admin = new Admin(options);
  try {
    await admin.client.metadata([]);
  } catch (error) {
    await admin.close();
    throw error;
  }
  return admin;
}

// ---- what the calls take and give ----

export interface NewTopic {
  name: string;
  /** Default: the broker's num.partitions. */
  partitions?: number;
  /** Default: the broker's default.replication.factor. */
  replicationFactor?: number;
  /** Explicit replicas instead of counts: assignments[p] lists partition p's brokers, the preferred leader first. */
  assignments?: number[][];
  configs?: Record<string, string>;
}

export interface CreatedTopic {
  name: string;
  topicId: string;
  partitions: number;
  replicationFactor: number;
  /** The topic's configs as created (brokers answer them from CreateTopics v5). */
  configs: { name: string; value: string | null; readOnly: boolean; source: ConfigSource; isSensitive: boolean }[];
}

/** A topic by name or by id (Kafka's 22-character base64url uuid). */
export type TopicRef = string | { topicId: string };

export interface TopicListing { name: string; topicId: string; internal: boolean }

export interface PartitionDescription {
  partition: number;
  /** -1: no leader. */
  leader: number;
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  offlineReplicas: number[];
  /** KIP-966's eligible leader replicas (empty where the broker keeps none). */
  eligibleLeaderReplicas: number[];
  lastKnownElr: number[];
}

export interface TopicDescription {
  name: string;
  topicId: string;
  internal: boolean;
  partitions: PartitionDescription[];
  /** What this client may do to the topic ("READ", "WRITE", ...), sorted; null when the broker did not say. */
  authorizedOperations: string[] | null;
}

export interface NewPartitions {
  topic: string;
  /** The new total number of partitions. */
  count: number;
  /** The replicas of each new partition, the preferred leader first. */
  assignments?: number[][];
}

export interface ConfigResource {
  type: ConfigResourceType;
  /** A topic's or group's name, a broker's id as text ("" for the cluster-wide broker default). */
  name: string;
}

export interface ConfigSynonym { name: string; value: string | null; source: ConfigSource }

export interface ConfigEntry {
  name: string;
  /** null for a sensitive value (and one with no value). */
  value: string | null;
  source: ConfigSource;
  /** Whether the value is Kafka's default (source DEFAULT_CONFIG). */
  isDefault: boolean;
  readOnly: boolean;
  isSensitive: boolean;
  type: ConfigType;
  synonyms: ConfigSynonym[];
  /** The broker's documentation of the config, when asked for with `documentation: true`. */
  documentation: string | null;
}

/** A resource's configs, in the order the broker gave them. */
export interface ConfigDescription extends ConfigResource { entries: ConfigEntry[] }

export interface ConfigChange {
  name: string;
  /** set (the default), delete (back to the default), append to or subtract from a list. */
  op?: ConfigOperation;
  value?: string | null;
}

export interface ConfigAlteration extends ConfigResource { changes: ConfigChange[] }

/** Where ListOffsets looks: -2 earliest, -1 latest, -3 the record with the largest timestamp, or the first offset at or after a time. */
export type OffsetSpec = 'earliest' | 'latest' | 'max-timestamp' | 'earliest-local' | 'latest-tiered' | { timestamp: bigint | number };

export interface OffsetQuery { topic: string; partition: number; spec: OffsetSpec }
export interface ListedOffset { topic: string; partition: number; offset: bigint; timestamp: bigint; leaderEpoch: number }

export interface RecordsToDelete { topic: string; partition: number; /** Delete every record before this offset (-1: the high watermark). */ before: bigint | number }
export interface DeletedRecords { topic: string; partition: number; lowWatermark: bigint }

export type GroupType = 'classic' | 'consumer' | 'share' | 'streams';

export interface GroupListing {
  groupId: string;
  protocolType: string;
  /** null from brokers older than ListGroups v4. */
  state: string | null;
  /** null from brokers older than ListGroups v5. */
  type: string | null;
}

export interface GroupMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  host: string;
  /** What the member has now. */
  assignment: TopicPartitions[];
  /** KIP-848 groups: what the group coordinator is moving it to; classic groups: null. */
  targetAssignment: TopicPartitions[] | null;
  /** KIP-848 groups: the member's epoch, rack and subscription; classic groups: null. */
  memberEpoch: number | null;
  rackId: string | null;
  subscribedTopicNames: string[] | null;
}

export interface GroupDescriptionResult {
  groupId: string;
  /** classic (JoinGroup/SyncGroup) or consumer (KIP-848, ConsumerGroupDescribe). */
  type: 'classic' | 'consumer';
  state: string;
  protocolType: string;
  /** The assignor (classic: the protocol name the members chose). */
  assignor: string;
  coordinator: number;
  /** KIP-848 groups' epoch; classic: null. */
  groupEpoch: number | null;
  members: GroupMember[];
  authorizedOperations: string[] | null;
}

export interface CommittedOffset { topic: string; partition: number; offset: bigint; leaderEpoch: number; metadata: string | null }
export interface OffsetToCommit { topic: string; partition: number; offset: bigint | number; metadata?: string | null; leaderEpoch?: number }

export interface ClusterDescription {
  clusterId: string;
  controllerId: number;
  brokers: { nodeId: number; host: string; port: number; rack: string | null; fenced: boolean }[];
  authorizedOperations: string[] | null;
}

export interface FeatureDescription {
  finalized: Record<string, { minVersionLevel: number; maxVersionLevel: number }>;
  supported: Record<string, { minVersion: number; maxVersion: number }>;
  /** -1 when the broker has no finalized features. */
  finalizedEpoch: bigint;
}

export interface LogDirDescription {
  broker: number;
  logDir: string;
  /** Kafka's error name for the directory (KAFKA_STORAGE_ERROR: offline), null when it is fine. */
  error: string | null;
  totalBytes: bigint;
  usableBytes: bigint;
  partitions: { topic: string; partition: number; size: bigint; offsetLag: bigint; isFuture: boolean }[];
}

/** A partition's replicas (kafka-reassign-partitions.sh's JSON entries). */
export interface ReplicaAssignment {
  topic: string; partition: number; replicas: number[];
  /** Each replica's log directory, where known (planReassignment's current assignment; kafka-reassign-partitions.sh's "any" elsewhere). */
  logDirs?: string[];
}
export interface PartitionReassignment { topic: string; partition: number; replicas: number[]; addingReplicas: number[]; removingReplicas: number[] }

/** A client quota's entity: user, client-id and/or ip, each a name or null for the default. */
export type QuotaEntity = Partial<Record<'user' | 'client-id' | 'ip', string | null>>;
export interface ClientQuota { entity: QuotaEntity; values: Record<string, number> }
/** Quota changes for one entity: a number sets a quota, null removes it. */
export interface QuotaAlteration { entity: QuotaEntity; values: Record<string, number | null> }

export type ScramMechanismName = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';
export interface ScramCredentials { user: string; credentials: { mechanism: ScramMechanismName; iterations: number }[] }
export type ScramAlteration =
  | { user: string; mechanism: ScramMechanismName; iterations?: number; password: string; salt?: Uint8Array }
  | { user: string; mechanism: ScramMechanismName; delete: true };

export interface AclBinding {
  resourceType: AclResourceType;
  resourceName: string;
  patternType: AclPatternType;
  /** "User:alice". */
  principal: string;
  /** "*" for every host. */
  host: string;
  operation: AclOperation;
  permission: AclPermission;
}
/** What ACLs to match: every field left out matches anything (resource and pattern type ANY, the rest null). */
export type AclFilter = Partial<AclBinding>;

export interface TransactionListing { transactionalId: string; producerId: bigint; state: string }
export interface TransactionDescription {
  transactionalId: string;
  state: string;
  timeoutMs: number;
  startTimeMs: bigint;
  producerId: bigint;
  producerEpoch: number;
  coordinator: number;
  partitions: TopicPartitions[];
}
export interface ProducerState { producerId: bigint; producerEpoch: number; lastSequence: number; lastTimestamp: bigint; coordinatorEpoch: number; currentTxnStartOffset: bigint }

/** An open transaction to abort: the partition, and the producer (id, epoch) and coordinator epoch DescribeProducers shows for it. */
export interface TransactionToAbort { topic: string; partition: number; producerId: bigint; producerEpoch: number; coordinatorEpoch: number }
export interface FeatureUpdate {
  feature: string;
  /** The new maximum level (0 with `downgrade: 'unsafe'` or 'safe' removes the feature). */
  maxVersionLevel: number;
  /** upgrade (the default), or a safe or unsafe downgrade. */
  type?: 'upgrade' | 'safe-downgrade' | 'unsafe-downgrade';
}

export interface DelegationToken {
  tokenId: string;
  /** The token's secret (its password for SASL/SCRAM with tokenauth=true): handle it as a password. */
  hmac: Uint8Array;
  owner: string;
  requester: string;
  renewers: string[];
  issueTimestampMs: bigint;
  expiryTimestampMs: bigint;
  maxTimestampMs: bigint;
}

type Request<K extends keyof ResponseBodies> = Promise<ResponseBodies[K]>;

/** One request; the body may leave out fields, which take their defaults for the version. */
function send<K extends keyof ResponseBodies>(conn: Connection, apiKey: K, version: number, body: object): Request<K> {
  return conn.request(apiKey as number, version, body) as Request<K>;
}

const byName = <T extends { name: string }>(items: readonly T[]) => new Map(items.map((i) => [i.name, i]));
const nodeOf = (resource: ConfigResource): Route => {
  // A broker's own configs (and its loggers) are the broker's to answer.
  if ((resource.type === 'broker' || resource.type === 'broker-logger') && resource.name !== '') return { kind: 'node', nodeId: Number(resource.name) };
  return ANY;
};

export class Admin {
  readonly client: KafkaClient;
  readonly #router: Router;
  readonly #ownsClient: boolean;
  readonly #timeoutMs: number;
  readonly #metrics: Metrics;
  #telemetry: TelemetryPusher | null = null;

  /** From options (the admin owns its client), or over a KafkaClient the caller keeps (and closes). */
  constructor(options: AdminOptions | KafkaClient) {
    // A KafkaClient by its shape, not instanceof: the ESM and CommonJS builds each have the class.
    const given = typeof (options as KafkaClient).anyConnection === 'function' ? (options as KafkaClient) : null;
    this.#ownsClient = given === null;
    // The Java admin's metrics (admin-client-metrics); a client the caller gave counts only when it has no observer of its own.
    this.#metrics = new Metrics(given?.options.clientId ?? (options as AdminOptions).clientId ?? 'kafka-wire');
    const network = new NetworkMetrics(this.#metrics, 'admin-client-metrics');
    const counted: ConnectionObserver = (options as AdminOptions).observer ?? network;
    // KIP-714 (as the Java admin): metrics pushed from the first answered request on, so an admin
    // that is made and never used asks the cluster nothing.
    const observer: ConnectionObserver = given !== null || (options as AdminOptions).enableMetricsPush === false ? counted : {
      opened: () => counted.opened(),
      closed: () => counted.closed(),
      answered: (apiKey, ms, failed) => { counted.answered(apiKey, ms, failed); this.#telemetry?.start(); },
    };
    this.client = given ?? new KafkaClient({ ...(options as AdminOptions), observer });
    if (observer !== counted) this.#telemetry = new TelemetryPusher(this.client, () => this.metrics());
    const o: AdminOptions | undefined = given ? undefined : (options as AdminOptions);
    this.#router = new Router(this.client, { retries: o?.retries, retryBackoffMs: o?.retryBackoffMs });
    this.#timeoutMs = o?.timeoutMs ?? 30_000;
  }

  /** The Java admin's metrics now (admin-client-metrics: request-rate, request-latency-avg, connection-count, ...), when the admin made its own client. */
  metrics(): MetricValue[] { return this.#metrics.snapshot(); }

  /** Every metric name metrics() gives. */
  metricNames(): { group: string; name: string }[] { return this.#metrics.names(); }

  // ---------------------------------------------------------------------------------------------
  // Topics

  /**
   * Creates topics (on the controller); `validateOnly` checks them without creating anything.
   * Resolves once the brokers' metadata shows each created topic with a leader for every partition
   * (`waitForLeaders: false` returns as soon as the controller has them), so a describe or a
   * produce right after it finds them.
   */
  async createTopics(topics: readonly NewTopic[], options: { validateOnly?: boolean; waitForLeaders?: boolean } = {}): Promise<CreatedTopic[]> {
    let created: CreatedTopic[];
    try {
      created = await this.#createTopics(topics, options);
    } catch (error) {
      if (error instanceof AdminError && error.code === 'RESOURCES' && !options.validateOnly && options.waitForLeaders !== false) {
        await this.#waitForLeaders((error.succeeded as CreatedTopic[]).map((t) => t.name));
      }
      throw error;
    }
    if (!options.validateOnly && options.waitForLeaders !== false) await this.#waitForLeaders(created.map((t) => t.name));
    return created;
  }

  /** Until metadata shows every partition of these topics with a leader (at most timeoutMs). */
  async #waitForLeaders(names: string[]): Promise<void> {
    for (let i = 0, end = Date.now() + this.#timeoutMs; names.length > 0 && Date.now() < end; i++) {
      await this.client.metadata(names);
      const ready = names.every((n) => {
        const t = this.client.topics.get(n);
        return t !== undefined && t.errorCode === 0 && t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0);
      });
      if (ready) return;
      await new Promise((r) => setTimeout(r, Math.min(20 * 2 ** i, 500)));
    }
  }

  async #createTopics(topics: readonly NewTopic[], options: { validateOnly?: boolean }): Promise<CreatedTopic[]> {
    const wanted = nonEmpty(topics, 'createTopics\'s topics').map((t) => {
      const name = checkTopicName(t?.name);
      if (t.assignments !== undefined) {
        if (t.partitions !== undefined || t.replicationFactor !== undefined) throw invalid(`topic ${name}: give partitions and replicationFactor, or assignments, not both`, `topic ${name}`);
        if (!Array.isArray(t.assignments) || t.assignments.length === 0) throw invalid(`topic ${name}: assignments must list at least one partition`, `topic ${name}`);
      }
      const configs = Object.entries(t.configs ?? {}).map(([k, value]) => {
        if (typeof value !== 'string') throw invalid(`topic ${name}: config ${k} must be a string, not ${typeof value}`, `topic ${name}`);
        return { name: k, value };
      });
      return {
        name,
        numPartitions: t.assignments ? -1 : checkCount(t.partitions, `topic ${name}: partitions`, 1, -1),
        replicationFactor: t.assignments ? -1 : checkCount(t.replicationFactor, `topic ${name}: replicationFactor`, 1, -1),
        assignments: (t.assignments ?? []).map((brokerIds, partitionIndex) => ({ partitionIndex, brokerIds: checkReplicas(brokerIds, `topic ${name} partition ${partitionIndex}`) })),
        configs,
      };
    });
    const validateOnly = options.validateOnly ?? false;
    return this.#router.each<(typeof wanted)[number], CreatedTopic>({
      op: 'createTopics', apiKey: ApiKey.CreateTopics, resource: (t) => `topic ${t.name}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.CreateTopics, version, { topics: items, timeoutMs: this.#timeoutMs, ...(version >= 1 ? { validateOnly } : {}) });
        const answers = byName(res.topics);
        return items.map((t): Outcome<CreatedTopic> => {
          const a = answers.get(t.name);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          if (a.errorCode !== 0) return { errorCode: a.errorCode, errorMessage: a.errorMessage };
          return ok({
            name: a.name, topicId: version >= 7 ? a.topicId : ZERO_UUID, partitions: a.numPartitions, replicationFactor: a.replicationFactor,
            configs: (a.configs ?? []).map((c) => ({ name: c.name, value: c.value, readOnly: c.readOnly, source: nameOf(CONFIG_SOURCES, c.configSource) as ConfigSource, isSensitive: c.isSensitive })),
          });
        });
      },
    }, wanted);
  }

  /** Deletes topics by name or by id (ids need DeleteTopics v6, Kafka 2.8+). */
  async deleteTopics(topics: readonly TopicRef[]): Promise<{ name: string | null; topicId: string }[]> {
    const refs = nonEmpty(topics, 'deleteTopics\'s topics').map((t) => (typeof t === 'string' ? { name: checkTopicName(t), topicId: ZERO_UUID } : { name: null, topicId: checkTopicId(t?.topicId) }));
    const byId = refs.some((r) => r.name === null);
    return this.#router.each<(typeof refs)[number], { name: string | null; topicId: string }>({
      op: 'deleteTopics', apiKey: ApiKey.DeleteTopics, minVersion: byId ? 6 : 0,
      resource: (t) => (t.name === null ? `topic id ${t.topicId}` : `topic ${t.name}`), route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.DeleteTopics, version, version >= 6 ? { topics: items, timeoutMs: this.#timeoutMs } : { topicNames: items.map((t) => t.name), timeoutMs: this.#timeoutMs });
        return items.map((t) => {
          const a = res.responses.find((r) => (t.name === null ? r.topicId === t.topicId : r.name === t.name));
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok({ name: a.name, topicId: version >= 6 ? a.topicId : ZERO_UUID }) : { errorCode: a.errorCode, errorMessage: a.errorMessage };
        });
      },
    }, refs);
  }

  /** Every topic's name and id; Kafka's internal topics (__consumer_offsets, ...) only with `internal`. */
  async listTopics(options: { internal?: boolean } = {}): Promise<TopicListing[]> {
    const res = await this.#router.one({
      op: 'listTopics', apiKey: ApiKey.Metadata, resource: () => 'the cluster', route: () => ANY,
      send: async (conn, version) => [ok(await send(conn, ApiKey.Metadata, version, { topics: version === 0 ? [] : null, ...(version >= 4 ? { allowAutoTopicCreation: false } : {}) }))],
    }, null);
    return res.topics
      .filter((t) => t.errorCode === 0 && t.name !== null && (options.internal || !t.isInternal))
      .map((t) => ({ name: t.name!, topicId: t.topicId ?? ZERO_UUID, internal: t.isInternal }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Topics' ids, partitions (leader, replicas, ISR, offline and eligible leader replicas) and the
   * operations this client may perform on them. By name through DescribeTopicPartitions where the
   * broker has it (KIP-966: it alone reports eligible leader replicas), else Metadata; by id through Metadata.
   */
  async describeTopics(topics: readonly TopicRef[]): Promise<TopicDescription[]> {
    const refs = nonEmpty(topics, 'describeTopics\'s topics').map((t) => (typeof t === 'string' ? { name: checkTopicName(t), topicId: ZERO_UUID } : { name: null, topicId: checkTopicId(t?.topicId) }));
    const names = refs.filter((r) => r.name !== null);
    const ids = refs.filter((r) => r.name === null);
    const resource = (t: (typeof refs)[number]) => (t.name === null ? `topic id ${t.topicId}` : `topic ${t.name}`);
    const viaMetadata: Call<(typeof refs)[number], TopicDescription> = {
      op: 'describeTopics', apiKey: ApiKey.Metadata, minVersion: ids.length > 0 ? 12 : 0, resource, route: () => ANY,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.Metadata, version, {
          topics: items.map((t) => ({ name: t.name, topicId: t.topicId })),
          ...(version >= 4 ? { allowAutoTopicCreation: false } : {}), ...(version >= 8 ? { includeTopicAuthorizedOperations: true } : {}),
        });
        return items.map((t) => {
          const a = res.topics.find((x) => (t.name === null ? x.topicId === t.topicId : x.name === t.name));
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          if (a.errorCode !== 0) return { errorCode: a.errorCode };
          return ok({
            name: a.name!, topicId: a.topicId ?? ZERO_UUID, internal: a.isInternal,
            partitions: a.partitions.map((p) => ({
              partition: p.partitionIndex, leader: p.leaderId, leaderEpoch: p.leaderEpoch, replicas: p.replicaNodes, isr: p.isrNodes,
              offlineReplicas: p.offlineReplicas, eligibleLeaderReplicas: [], lastKnownElr: [],
            })).sort((x, y) => x.partition - y.partition),
            authorizedOperations: authorizedOperations(version >= 8 ? a.topicAuthorizedOperations : null),
          });
        });
      },
    };
    const viaPartitions: Call<(typeof refs)[number], TopicDescription> = {
      ...viaMetadata, apiKey: ApiKey.DescribeTopicPartitions,
      send: async (conn, version, items) => {
        const found = new Map<string, TopicDescription>();
        const errors = new Map<string, number>();
        let cursor: { topicName: string; partitionIndex: number } | null = null;
        do {
          const res: ResponseBodies[75] = await send(conn, ApiKey.DescribeTopicPartitions, version, { topics: items.map((t) => ({ name: t.name })), responsePartitionLimit: 2000, cursor });
          for (const a of res.topics) {
            if (a.name === null) continue;
            if (a.errorCode !== 0) { errors.set(a.name, a.errorCode); continue; }
            const d = found.get(a.name) ?? { name: a.name, topicId: a.topicId, internal: a.isInternal, partitions: [], authorizedOperations: authorizedOperations(a.topicAuthorizedOperations) };
            for (const p of a.partitions) {
              d.partitions.push({
                partition: p.partitionIndex, leader: p.leaderId, leaderEpoch: p.leaderEpoch, replicas: p.replicaNodes, isr: p.isrNodes,
                offlineReplicas: p.offlineReplicas, eligibleLeaderReplicas: p.eligibleLeaderReplicas ?? [], lastKnownElr: p.lastKnownElr ?? [],
              });
            }
            found.set(a.name, d);
          }
          cursor = res.nextCursor;
        } while (cursor !== null);
        return items.map((t) => {
          const d = found.get(t.name!);
          if (d) return ok({ ...d, partitions: d.partitions.sort((x, y) => x.partition - y.partition) });
          return { errorCode: errors.get(t.name!) ?? 3 }; // UNKNOWN_TOPIC_OR_PARTITION
        });
      },
    };
    const conn = await this.client.anyConnection();
    const byName = names.length > 0 && conn.versionFor(ApiKey.DescribeTopicPartitions) !== undefined ? viaPartitions : viaMetadata;
    const out = new Map<(typeof refs)[number], TopicDescription>();
    const failures: AdminError[] = [];
    for (const [call, list] of [[byName, names], [viaMetadata, ids]] as const) {
      if (list.length === 0) continue;
      try {
        (await this.#router.each(call, list)).forEach((d, i) => out.set(list[i]!, d));
      } catch (error) {
        if (!(error instanceof AdminError) || error.code !== 'RESOURCES') throw error;
        failures.push(...error.failures);
        const failed = new Set(error.failures.map((f) => f.resource));
        let k = 0;
        for (const item of list) if (!failed.has(resource(item))) out.set(item, error.succeeded[k++] as TopicDescription);
      }
    }
    if (failures.length > 0) {
      throw new AdminError('RESOURCES', `describeTopics: ${failures.length} of ${refs.length} failed: ${failures.map((e) => e.message).join('; ')}`,
        { failures, succeeded: refs.filter((r) => out.has(r)).map((r) => out.get(r)!) });
    }
    return refs.map((r) => out.get(r)!);
  }

  /** Raises topics' partition counts (Kafka never lowers one). */
  async createPartitions(changes: readonly NewPartitions[], options: { validateOnly?: boolean } = {}): Promise<{ topic: string; count: number }[]> {
    const wanted = nonEmpty(changes, 'createPartitions\'s changes').map((c) => {
      const name = checkTopicName(c?.topic);
      return {
        name, count: checkCount(c.count, `topic ${name}: count`, 1, Number.NaN),
        assignments: c.assignments === undefined ? null : c.assignments.map((ids, i) => ({ brokerIds: checkReplicas(ids, `topic ${name} new partition ${i}`) })),
      };
    });
    return this.#router.each<(typeof wanted)[number], { topic: string; count: number }>({
      op: 'createPartitions', apiKey: ApiKey.CreatePartitions, resource: (t) => `topic ${t.name}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.CreatePartitions, version, { topics: items, timeoutMs: this.#timeoutMs, validateOnly: options.validateOnly ?? false });
        const answers = byName(res.results);
        return items.map((t) => {
          const a = answers.get(t.name);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok({ topic: t.name, count: t.count }) : { errorCode: a.errorCode, errorMessage: a.errorMessage };
        });
      },
    }, wanted);
  }

  // ---------------------------------------------------------------------------------------------
  // Configs

  /**
   * Configs of topics, brokers, broker loggers, groups and client-metrics subscriptions: values,
   * sources, synonyms (the lower-precedence values behind each), defaults, sensitivity, and the
   * broker's documentation only when asked. `keys` limits a resource to those names.
   */
  async describeConfigs(resources: readonly (ConfigResource & { keys?: string[] })[], options: { synonyms?: boolean; documentation?: boolean } = {}): Promise<ConfigDescription[]> {
    const wanted = nonEmpty(resources, 'describeConfigs\'s resources').map((r) => checkResource(r));
    return this.#router.each<(typeof wanted)[number], ConfigDescription>({
      op: 'describeConfigs', apiKey: ApiKey.DescribeConfigs, resource: (r) => `${r.type} ${r.name}`, route: nodeOf,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.DescribeConfigs, version, {
          resources: items.map((r) => ({ resourceType: RESOURCE_TYPE_CODES[r.type], resourceName: r.name, configurationKeys: r.keys ?? null })),
          ...(version >= 1 ? { includeSynonyms: options.synonyms ?? true } : {}),
          ...(version >= 3 ? { includeDocumentation: options.documentation ?? false } : {}),
        });
        return items.map((r) => {
          const a = res.results.find((x) => x.resourceType === RESOURCE_TYPE_CODES[r.type] && x.resourceName === r.name);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          if (a.errorCode !== 0) return { errorCode: a.errorCode, errorMessage: a.errorMessage };
          return ok({
            type: r.type, name: r.name,
            entries: a.configs.map((c): ConfigEntry => {
              const source = (version >= 1 ? nameOf(CONFIG_SOURCES, c.configSource) : c.isDefault ? 'DEFAULT_CONFIG' : 'UNKNOWN') as ConfigSource;
              return {
                name: c.name, value: c.value, source, isDefault: source === 'DEFAULT_CONFIG', readOnly: c.readOnly, isSensitive: c.isSensitive,
                type: (version >= 3 ? nameOf(CONFIG_TYPES, c.configType) : 'UNKNOWN') as ConfigType,
                synonyms: c.synonyms.map((s) => ({ name: s.name, value: s.value, source: nameOf(CONFIG_SOURCES, s.source) as ConfigSource })),
                documentation: version >= 3 ? c.documentation : null,
              };
            }),
          });
        });
      },
    }, wanted);
  }

  /**
   * The config resources the cluster has (ListConfigResources, Kafka's Admin.listConfigResources):
   * of these types, or every type the broker lists; from a broker with only v0
   * (ListClientMetricsResources), the client-metrics subscriptions alone.
   */
  async listConfigResources(types?: readonly ConfigResourceType[]): Promise<ConfigResource[]> {
    const codes = (types ?? []).map((t) => {
      if (!(t in RESOURCE_TYPE_CODES)) throw invalid(`a config resource's type is one of ${Object.keys(RESOURCE_TYPE_CODES).join(', ')}, not ${JSON.stringify(t)}`);
      return RESOURCE_TYPE_CODES[t];
    });
    const onlyClientMetrics = codes.length === 1 && codes[0] === RESOURCE_TYPE_CODES['client-metrics'];
    return this.#router.one<null, ConfigResource[]>({
      op: 'listConfigResources', apiKey: ApiKey.ListConfigResources, minVersion: onlyClientMetrics ? 0 : 1, resource: () => 'config resources', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.ListConfigResources, version, version >= 1 ? { resourceTypes: codes } : {});
        if (res.errorCode) return [{ errorCode: res.errorCode }];
        const named = Object.entries(RESOURCE_TYPE_CODES);
        return [ok(res.configResources.flatMap((r) => {
          const type = named.find(([, code]) => code === (version >= 1 ? r.resourceType : 16))?.[0] as ConfigResourceType | undefined;
          return type === undefined ? [] : [{ type, name: r.resourceName }];
        }).sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type < b.type ? -1 : 1)))];
      },
    }, null);
  }

  /** IncrementalAlterConfigs: set, delete, append to or subtract from configs; `validateOnly` changes nothing. */
  async alterConfigs(alterations: readonly ConfigAlteration[], options: { validateOnly?: boolean } = {}): Promise<ConfigResource[]> {
    const wanted = nonEmpty(alterations, 'alterConfigs\'s alterations').map((a) => {
      const r = checkResource(a);
      const changes = nonEmpty(a.changes, `${r.type} ${r.name}: changes`).map((c) => {
        if (typeof c?.name !== 'string' || c.name === '') throw invalid(`${r.type} ${r.name}: a config change needs a name`, `${r.type} ${r.name}`);
        const op = c.op ?? 'set';
        const code = CONFIG_OPERATIONS[op as ConfigOperation];
        if (code === undefined) throw invalid(`${r.type} ${r.name}: config operation ${JSON.stringify(op)} is not one of ${Object.keys(CONFIG_OPERATIONS).join(', ')}`, `${r.type} ${r.name}`);
        if (op !== 'delete' && typeof c.value !== 'string') throw invalid(`${r.type} ${r.name}: ${op} ${c.name} needs a value`, `${r.type} ${r.name}`);
        return { name: c.name, configOperation: code, value: op === 'delete' ? null : c.value! };
      });
      return { ...r, changes };
    });
    return this.#router.each<(typeof wanted)[number], ConfigResource>({
      op: 'alterConfigs', apiKey: ApiKey.IncrementalAlterConfigs, resource: (r) => `${r.type} ${r.name}`, route: nodeOf,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.IncrementalAlterConfigs, version, {
          resources: items.map((r) => ({ resourceType: RESOURCE_TYPE_CODES[r.type], resourceName: r.name, configs: r.changes })),
          validateOnly: options.validateOnly ?? false,
        });
        return items.map((r) => {
          const a = res.responses.find((x) => x.resourceType === RESOURCE_TYPE_CODES[r.type] && x.resourceName === r.name);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok({ type: r.type, name: r.name }) : { errorCode: a.errorCode, errorMessage: a.errorMessage };
        });
      },
    }, wanted);
  }

  // ---------------------------------------------------------------------------------------------
  // Offsets and records

  /** Offsets per partition from its leader: earliest, latest, max timestamp, at a time; read_committed's latest is the last stable offset. */
  async listOffsets(queries: readonly OffsetQuery[], options: { isolation?: 'read_uncommitted' | 'read_committed' } = {}): Promise<ListedOffset[]> {
    const isolationLevel = options.isolation === 'read_committed' ? 1 : options.isolation === undefined || options.isolation === 'read_uncommitted' ? 0 : -1;
    if (isolationLevel < 0) throw invalid(`isolation must be read_uncommitted or read_committed, not ${JSON.stringify(options.isolation)}`);
    const wanted = nonEmpty(queries, 'listOffsets\'s queries').map((q) => {
      const topic = checkTopicName(q?.topic);
      const partition = checkCount(q.partition, `${topic}: partition`, 0, Number.NaN);
      return { topic, partition, timestamp: specTimestamp(q.spec, `${topic}-${partition}`) };
    });
    const needs = Math.max(...wanted.map((w) => (w.timestamp === -3n ? 7 : w.timestamp === -4n ? 8 : w.timestamp === -5n ? 9 : isolationLevel ? 2 : 1)));
    return this.#router.each<(typeof wanted)[number], ListedOffset>({
      op: 'listOffsets', apiKey: ApiKey.ListOffsets, minVersion: needs, resource: (q) => `${q.topic}-${q.partition}`,
      route: (q) => ({ kind: 'leader', topic: q.topic, partition: q.partition }),
      send: async (conn, version, items) => {
        // A request names each partition once: several questions about one partition go in turns.
        const answers = new Map<(typeof items)[number], Outcome<ListedOffset>>();
        for (let round = items; round.length > 0;) {
          const seen = new Set<string>();
          const now = round.filter((q) => !seen.has(`${q.topic}\u0000${q.partition}`) && seen.add(`${q.topic}\u0000${q.partition}`) !== undefined);
          round = round.filter((q) => !now.includes(q));
          const topics = new Map<string, typeof items>();
          for (const q of now) topics.set(q.topic, [...(topics.get(q.topic) ?? []), q]);
          const res = await send(conn, ApiKey.ListOffsets, version, {
            replicaId: -1, isolationLevel,
            topics: [...topics].map(([name, qs]) => ({ name, partitions: qs.map((q) => ({ partitionIndex: q.partition, timestamp: q.timestamp, currentLeaderEpoch: -1 })) })),
            ...(version >= 10 ? { timeoutMs: this.#timeoutMs } : {}),
          });
          for (const q of now) {
            const a = res.topics.find((t) => t.name === q.topic)?.partitions.find((p) => p.partitionIndex === q.partition);
            answers.set(q, !a ? { errorCode: -1, errorMessage: 'not in the response' } : a.errorCode !== 0 ? { errorCode: a.errorCode }
              : ok({ topic: q.topic, partition: q.partition, offset: a.offset, timestamp: a.timestamp, leaderEpoch: a.leaderEpoch }));
          }
        }
        return items.map((q) => answers.get(q)!);
      },
    }, wanted);
  }

  /** Deletes every record before an offset (the partition's log start moves up to it); -1 deletes up to the high watermark. */
  async deleteRecords(deletions: readonly RecordsToDelete[]): Promise<DeletedRecords[]> {
    const wanted = nonEmpty(deletions, 'deleteRecords\'s deletions').map((d) => {
      const topic = checkTopicName(d?.topic);
      const partition = checkCount(d.partition, `${topic}: partition`, 0, Number.NaN);
      return { topic, partition, offset: checkOffset(d.before, `${topic}-${partition}: before`, -1n) };
    });
    return this.#router.each<(typeof wanted)[number], DeletedRecords>({
      op: 'deleteRecords', apiKey: ApiKey.DeleteRecords, resource: (q) => `${q.topic}-${q.partition}`,
      route: (q) => ({ kind: 'leader', topic: q.topic, partition: q.partition }),
      send: async (conn, version, items) => {
        const topics = new Map<string, typeof items>();
        for (const q of items) topics.set(q.topic, [...(topics.get(q.topic) ?? []), q]);
        const res = await send(conn, ApiKey.DeleteRecords, version, {
          topics: [...topics].map(([name, qs]) => ({ name, partitions: qs.map((q) => ({ partitionIndex: q.partition, offset: q.offset })) })), timeoutMs: this.#timeoutMs,
        });
        return items.map((q) => {
          const a = res.topics.find((t) => t.name === q.topic)?.partitions.find((p) => p.partitionIndex === q.partition);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok({ topic: q.topic, partition: q.partition, lowWatermark: a.lowWatermark }) : { errorCode: a.errorCode };
        });
      },
    }, wanted);
  }

  // ---------------------------------------------------------------------------------------------
  // Groups

  /** Every group of every broker, filtered by type (classic, consumer, share, streams) and state where the broker can (ListGroups v4, v5). */
  async listGroups(options: { types?: readonly GroupType[]; states?: readonly string[] } = {}): Promise<GroupListing[]> {
    for (const t of options.types ?? []) if (!['classic', 'consumer', 'share', 'streams'].includes(t)) throw invalid(`group type ${JSON.stringify(t)} is not classic, consumer, share or streams`);
    await this.client.metadata([]);
    const nodes = [...this.client.brokers.keys()].sort((a, b) => a - b);
    const per = await this.#router.each<number, GroupListing[]>({
      op: 'listGroups', apiKey: ApiKey.ListGroups, resource: (n) => `broker ${n}`, route: (nodeId) => ({ kind: 'node', nodeId }),
      minVersion: options.types?.length ? 5 : options.states?.length ? 4 : 0,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.ListGroups, version, {
          ...(version >= 4 ? { statesFilter: options.states ?? [] } : {}), ...(version >= 5 ? { typesFilter: options.types ?? [] } : {}),
        });
        if (res.errorCode !== 0) return [{ errorCode: res.errorCode }];
        return [ok(res.groups.map((g) => ({ groupId: g.groupId, protocolType: g.protocolType, state: version >= 4 ? g.groupState : null, type: version >= 5 ? g.groupType : null })))];
      },
    }, nodes);
    return per.flat().sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
  }

  /**
   * Groups' state, assignor and members with their assignments: KIP-848 consumer groups through
   * ConsumerGroupDescribe, classic groups through DescribeGroups. A group that does not exist is
   * its failure (GROUP_ID_NOT_FOUND).
   */
  async describeGroups(groupIds: readonly string[]): Promise<GroupDescriptionResult[]> {
    const ids = nonEmpty(groupIds, 'describeGroups\'s groups').map((g) => checkGroupId(g));
    return this.#router.each<string, GroupDescriptionResult>({
      op: 'describeGroups', apiKey: ApiKey.DescribeGroups, resource: (g) => `group ${g}`, route: (key) => ({ kind: 'coordinator', keyType: 0, key }),
      send: async (conn, version, items, coordinator) => {
        const out = new Map<string, Outcome<GroupDescriptionResult>>();
        let classic = items;
        const cgVersion = conn.versionFor(ApiKey.ConsumerGroupDescribe);
        if (cgVersion !== undefined) {
          const res = await send(conn, ApiKey.ConsumerGroupDescribe, cgVersion, { groupIds: items, includeAuthorizedOperations: true });
          for (const g of res.groups) {
            if (g.errorCode === 69) continue; // GROUP_ID_NOT_FOUND: not a consumer group; maybe a classic one
            if (g.errorCode !== 0) { out.set(g.groupId, { errorCode: g.errorCode, errorMessage: g.errorMessage }); continue; }
            const tps = (a: { topicPartitions: { topicName: string; partitions: number[] }[] }) =>
              a.topicPartitions.map((tp) => ({ topic: tp.topicName, partitions: [...tp.partitions].sort((x, y) => x - y) })).sort((x, y) => (x.topic < y.topic ? -1 : 1));
            out.set(g.groupId, ok({
              groupId: g.groupId, type: 'consumer', state: g.groupState, protocolType: CONSUMER_PROTOCOL_TYPE, assignor: g.assignorName, coordinator,
              groupEpoch: g.groupEpoch, authorizedOperations: authorizedOperations(g.authorizedOperations),
              members: g.members.map((m) => ({
                memberId: m.memberId, groupInstanceId: m.instanceId, clientId: m.clientId, host: m.clientHost, assignment: tps(m.assignment),
                targetAssignment: tps(m.targetAssignment), memberEpoch: m.memberEpoch, rackId: m.rackId, subscribedTopicNames: m.subscribedTopicNames,
              })),
            }));
          }
          classic = items.filter((g) => !out.has(g));
        }
        if (classic.length > 0) {
          const res = await send(conn, ApiKey.DescribeGroups, version, { groups: classic, ...(version >= 3 ? { includeAuthorizedOperations: true } : {}) });
          for (const g of res.groups) {
            if (g.errorCode !== 0) { out.set(g.groupId, { errorCode: g.errorCode, errorMessage: g.errorMessage }); continue; }
            if (g.groupState === 'Dead') { out.set(g.groupId, { errorCode: 69, errorMessage: `group ${g.groupId} does not exist` }); continue; }
            out.set(g.groupId, ok({
              groupId: g.groupId, type: 'classic', state: g.groupState, protocolType: g.protocolType, assignor: g.protocolData, coordinator, groupEpoch: null,
              authorizedOperations: authorizedOperations(version >= 3 ? g.authorizedOperations : null),
              members: g.members.map((m) => ({
                memberId: m.memberId, groupInstanceId: m.groupInstanceId, clientId: m.clientId, host: m.clientHost,
                // A member's assignment is the consumer protocol's bytes only in a consumer group.
                assignment: g.protocolType === CONSUMER_PROTOCOL_TYPE && m.memberAssignment.length > 0 ? decodeAssignment(m.memberAssignment).assignedPartitions : [],
                targetAssignment: null, memberEpoch: null, rackId: null, subscribedTopicNames: null,
              })),
            }));
          }
        }
        return items.map((g) => out.get(g) ?? { errorCode: -1, errorMessage: 'not in the response' });
      },
    }, ids);
  }

  /** Deletes groups (each must have no members). */
  async deleteGroups(groupIds: readonly string[]): Promise<string[]> {
    const ids = nonEmpty(groupIds, 'deleteGroups\'s groups').map((g) => checkGroupId(g));
    return this.#router.each<string, string>({
      op: 'deleteGroups', apiKey: ApiKey.DeleteGroups, resource: (g) => `group ${g}`, route: (key) => ({ kind: 'coordinator', keyType: 0, key }),
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.DeleteGroups, version, { groupsNames: items });
        return items.map((g) => {
          const a = res.results.find((r) => r.groupId === g);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok(g) : { errorCode: a.errorCode, errorMessage: a.errorMessage };
        });
      },
    }, ids);
  }

  /** Removes members from a classic group (LeaveGroup v3+): by group instance id (static members) or member id. */
  async removeMembers(groupId: string, members: readonly { memberId?: string; groupInstanceId?: string }[], reason = 'removed by kafka-wire admin'): Promise<string[]> {
    checkGroupId(groupId);
    const list = nonEmpty(members, 'removeMembers\'s members').map((m) => {
      if (!m?.memberId && !m?.groupInstanceId) throw invalid(`group ${groupId}: a member to remove needs a memberId or a groupInstanceId`, `group ${groupId}`);
      return { memberId: m.memberId ?? '', groupInstanceId: m.groupInstanceId ?? null, reason };
    });
    const key = (m: (typeof list)[number]) => m.groupInstanceId ?? m.memberId;
    return this.#router.each<(typeof list)[number], string>({
      op: 'removeMembers', apiKey: ApiKey.LeaveGroup, minVersion: 3, resource: (m) => `group ${groupId} member ${key(m)}`, route: () => ({ kind: 'coordinator', keyType: 0, key: groupId }),
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.LeaveGroup, version, { groupId, members: items.map((m) => ({ ...m, ...(version >= 5 ? {} : { reason: null }) })) });
        if (res.errorCode !== 0) return items.map(() => ({ errorCode: res.errorCode }));
        return items.map((m) => {
          const a = res.members.find((x) => (m.groupInstanceId !== null ? x.groupInstanceId === m.groupInstanceId : x.memberId === m.memberId));
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok(key(m)) : { errorCode: a.errorCode };
        });
      },
    }, list);
  }

  /** A group's committed offsets: of `partitions`, or (without) every partition it has committed. */
  async fetchOffsets(groupId: string, partitions?: readonly TopicPartitions[]): Promise<CommittedOffset[]> {
    checkGroupId(groupId);
    for (const tp of partitions ?? []) checkTopicName(tp.topic);
    return this.#router.one<string, CommittedOffset[]>({
      op: 'fetchOffsets', apiKey: ApiKey.OffsetFetch, minVersion: partitions ? 1 : 2, resource: (g) => `group ${g}`, route: (key) => ({ kind: 'coordinator', keyType: 0, key }),
      send: async (conn, negotiated) => {
        // v10 names topics by id only; v8-9 batch groups by topic name, which is what this takes.
        const version = Math.min(negotiated, 9);
        const topics = partitions ? partitions.map((tp) => ({ name: tp.topic, partitionIndexes: [...tp.partitions] })) : null;
        const res = await send(conn, ApiKey.OffsetFetch, version, version >= 8 ? { groups: [{ groupId, topics }], requireStable: true } : { groupId, topics, ...(version >= 7 ? { requireStable: true } : {}) });
        const g = version >= 8 ? res.groups[0] : { errorCode: res.errorCode, topics: res.topics.map((t) => ({ name: t.name, partitions: t.partitions })) };
        if (!g) return [{ errorCode: -1, errorMessage: 'not in the response' }];
        if (g.errorCode !== 0) return [{ errorCode: g.errorCode }];
        const out: CommittedOffset[] = [];
        const failed = g.topics.flatMap((t) => t.partitions.filter((p) => p.errorCode !== 0).map((p) => ({ t: t.name, p })));
        if (failed.length > 0) return [{ errorCode: failed[0]!.p.errorCode, errorMessage: `${failed[0]!.t}-${failed[0]!.p.partitionIndex}` }];
        for (const t of g.topics) {
          for (const p of t.partitions) {
            if (p.committedOffset < 0n) continue;
            out.push({ topic: t.name, partition: p.partitionIndex, offset: p.committedOffset, leaderEpoch: p.committedLeaderEpoch ?? -1, metadata: p.metadata });
          }
        }
        return [ok(out.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition)))];
      },
    }, groupId);
  }

  /** Commits offsets for a group from outside it (the group must have no members, as Kafka requires). */
  async alterOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<{ topic: string; partition: number }[]> {
    checkGroupId(groupId);
    const list = nonEmpty(offsets, 'alterOffsets\'s offsets').map((o) => {
      const topic = checkTopicName(o?.topic);
      const partition = checkCount(o.partition, `${topic}: partition`, 0, Number.NaN);
      return { topic, partition, offset: checkOffset(o.offset, `${topic}-${partition}: offset`), metadata: o.metadata ?? null, leaderEpoch: o.leaderEpoch ?? -1 };
    });
    return this.#router.each<(typeof list)[number], { topic: string; partition: number }>({
      op: 'alterOffsets', apiKey: ApiKey.OffsetCommit, resource: (o) => `group ${groupId} ${o.topic}-${o.partition}`, route: () => ({ kind: 'coordinator', keyType: 0, key: groupId }),
      send: async (conn, negotiated, items) => {
        const version = Math.min(negotiated, 9); // v10 names topics by id only
        const topics = new Map<string, typeof items>();
        for (const o of items) topics.set(o.topic, [...(topics.get(o.topic) ?? []), o]);
        const res = await send(conn, ApiKey.OffsetCommit, version, {
          groupId, generationIdOrMemberEpoch: -1, memberId: '', ...(version >= 7 ? { groupInstanceId: null } : {}),
          topics: [...topics].map(([name, os]) => ({ name, partitions: os.map((o) => ({ partitionIndex: o.partition, committedOffset: o.offset, committedMetadata: o.metadata, ...(version >= 6 ? { committedLeaderEpoch: o.leaderEpoch } : {}) })) })),
        });
        return items.map((o) => {
          const a = res.topics.find((t) => t.name === o.topic)?.partitions.find((p) => p.partitionIndex === o.partition);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok({ topic: o.topic, partition: o.partition }) : { errorCode: a.errorCode };
        });
      },
    }, list);
  }

  /** Deletes a group's committed offsets of these partitions (OffsetDelete; refused for partitions it is consuming). */
  async deleteOffsets(groupId: string, partitions: readonly TopicPartitions[]): Promise<{ topic: string; partition: number }[]> {
    checkGroupId(groupId);
    const list = nonEmpty(partitions, 'deleteOffsets\'s partitions').flatMap((tp) => {
      const topic = checkTopicName(tp?.topic);
      return tp.partitions.map((p) => ({ topic, partition: checkCount(p, `${topic}: partition`, 0, Number.NaN) }));
    });
    return this.#router.each<(typeof list)[number], { topic: string; partition: number }>({
      op: 'deleteOffsets', apiKey: ApiKey.OffsetDelete, resource: (o) => `group ${groupId} ${o.topic}-${o.partition}`, route: () => ({ kind: 'coordinator', keyType: 0, key: groupId }),
      send: async (conn, version, items) => {
        const topics = new Map<string, number[]>();
        for (const o of items) topics.set(o.topic, [...(topics.get(o.topic) ?? []), o.partition]);
        const res = await send(conn, ApiKey.OffsetDelete, version, { groupId, topics: [...topics].map(([name, ps]) => ({ name, partitions: ps.map((partitionIndex) => ({ partitionIndex })) })) });
        if (res.errorCode !== 0) return items.map(() => ({ errorCode: res.errorCode }));
        return items.map((o) => {
          const a = res.topics.find((t) => t.name === o.topic)?.partitions.find((p) => p.partitionIndex === o.partition);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok(o) : { errorCode: a.errorCode };
        });
      },
    }, list);
  }

  // ---------------------------------------------------------------------------------------------
  // Share groups (KIP-932): ./share-groups.ts's functions, with the admin client's errors

  /** Every share group of the cluster and its state (ListGroups of type share, from every broker). */
  listShareGroups(): Promise<ShareGroupListing[]> {
    return this.#share('listShareGroups', 'share groups', () => shareGroups.listShareGroups(this.client));
  }

  /** Share groups' members with their assignments, and each partition's start offset and lag; a group that fails is named, the others described. */
  describeShareGroups(groupIds: readonly string[]): Promise<ShareGroupDescription[]> {
    const ids = nonEmpty(groupIds, 'describeShareGroups\'s group ids').map((g) => checkGroupId(g));
    return this.#shareEach('describeShareGroups', ids, (g) => shareGroups.describeShareGroup(this.client, g));
  }

  /** Sets a share group's start offsets (the group must have no members). */
  async alterShareGroupOffsets(groupId: string, offsets: readonly { topic: string; partition: number; offset: bigint | number }[]): Promise<void> {
    const list = nonEmpty(offsets, 'alterShareGroupOffsets\'s offsets').map((o) => ({
      topic: checkTopicName(o?.topic), partition: checkCount(o.partition, `${o.topic}: partition`, 0, 0), offset: checkOffset(o.offset, `${o.topic}-${o.partition}: offset`),
    }));
    await this.#share('alterShareGroupOffsets', `group ${checkGroupId(groupId)}`, () => shareGroups.alterShareGroupOffsets(this.client, groupId, list));
  }

  /** Moves a share group's start offsets on every partition of the topics to the earliest, the latest or the first at a time; resolves with what was set. */
  resetShareGroupOffsets(groupId: string, topics: readonly string[], target: ShareResetTarget): Promise<{ topic: string; partition: number; offset: bigint }[]> {
    const names = nonEmpty(topics, 'resetShareGroupOffsets\'s topics').map((t) => checkTopicName(t));
    if (target !== 'earliest' && target !== 'latest' && typeof target?.timestamp !== 'bigint') throw invalid(`a share-group reset goes to earliest, latest or { timestamp: bigint }, not ${JSON.stringify(target)}`);
    return this.#share('resetShareGroupOffsets', `group ${checkGroupId(groupId)}`, () => shareGroups.resetShareGroupOffsets(this.client, groupId, names, target));
  }

  /** Forgets a share group's state for these topics (the group must have no members). */
  async deleteShareGroupOffsets(groupId: string, topics: readonly string[]): Promise<void> {
    const names = nonEmpty(topics, 'deleteShareGroupOffsets\'s topics').map((t) => checkTopicName(t));
    await this.#share('deleteShareGroupOffsets', `group ${checkGroupId(groupId)}`, () => shareGroups.deleteShareGroupOffsets(this.client, groupId, names));
  }

  /** Deletes share groups (each must have no members): deleteGroups, which serves every group type. */
  deleteShareGroups(groupIds: readonly string[]): Promise<string[]> {
    return this.deleteGroups(groupIds);
  }

  /** One share-group function, its ConsumerError (Kafka's error code) as the AdminError of `resource`. */
  async #share<T>(op: string, resource: string, run: () => Promise<T>): Promise<T> {
    if (this.#router.closed) throw new AdminError('CLOSED', `${op}: the admin client is closed`);
    try {
      return await run();
    } catch (error) {
      if (error instanceof ConsumerError) {
        if (error.errorCode !== undefined) throw new AdminError('BROKER', `${op}: ${resource}: ${error.message}`, { resource, errorCode: error.errorCode, errorMessage: error.message, cause: error });
        throw new AdminError('UNSUPPORTED', `${op}: ${error.message}`, { resource, cause: error });
      }
      throw error;
    }
  }

  async #shareEach<T>(op: string, ids: string[], run: (id: string) => Promise<T>): Promise<T[]> {
    const settled = await Promise.allSettled(ids.map((id) => this.#share(op, `group ${id}`, () => run(id))));
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason instanceof AdminError ? r.reason : new AdminError('BROKER', String(r.reason), { cause: r.reason })] : []));
    const values = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (failures.length > 0) throw new AdminError('RESOURCES', `${op}: ${failures.length} of ${ids.length} failed: ${failures.map((e) => e.message).join('; ')}`, { failures, succeeded: values });
    return values;
  }

  // ---------------------------------------------------------------------------------------------
  // Cluster

  /** The cluster's id, its controller (as brokers see it) and its brokers with their racks. */
  async describeCluster(options: { includeFenced?: boolean } = {}): Promise<ClusterDescription> {
    return this.#router.one<null, ClusterDescription>({
      op: 'describeCluster', apiKey: ApiKey.DescribeCluster, resource: () => 'the cluster', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.DescribeCluster, version, { includeClusterAuthorizedOperations: true, ...(version >= 2 ? { includeFencedBrokers: options.includeFenced ?? false } : {}) });
        if (res.errorCode !== 0) return [{ errorCode: res.errorCode, errorMessage: res.errorMessage }];
        return [ok({
          clusterId: res.clusterId, controllerId: res.controllerId, authorizedOperations: authorizedOperations(res.clusterAuthorizedOperations),
          brokers: res.brokers.map((b) => ({ nodeId: b.brokerId, host: b.host, port: b.port, rack: b.rack, fenced: version >= 2 ? b.isFenced : false })).sort((a, b) => a.nodeId - b.nodeId),
        })];
      },
    }, null);
  }

  /** The cluster's finalized feature levels (metadata.version, kraft.version, ...) and what the broker asked supports. */
  async describeFeatures(): Promise<FeatureDescription> {
    return this.#router.one<null, FeatureDescription>({
      op: 'describeFeatures', apiKey: ApiKey.ApiVersions, minVersion: 3, resource: () => 'the cluster', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.ApiVersions, version, { clientSoftwareName: 'kafka-wire', clientSoftwareVersion: '0' });
        if (res.errorCode !== 0) return [{ errorCode: res.errorCode }];
        return [ok({
          finalized: Object.fromEntries(res.finalizedFeatures.map((f) => [f.name, { minVersionLevel: f.minVersionLevel, maxVersionLevel: f.maxVersionLevel }])),
          supported: Object.fromEntries(res.supportedFeatures.map((f) => [f.name, { minVersion: f.minVersion, maxVersion: f.maxVersion }])),
          finalizedEpoch: res.finalizedFeaturesEpoch,
        })];
      },
    }, null);
  }

  /** Each broker's log directories: sizes, free space, and the partitions in each (replica size and lag). */
  async describeLogDirs(brokers?: readonly number[]): Promise<LogDirDescription[]> {
    await this.client.metadata([]);
    const nodes = brokers ? brokers.map((b) => checkCount(b, 'a broker id', 0, Number.NaN)) : [...this.client.brokers.keys()].sort((a, b) => a - b);
    const per = await this.#router.each<number, LogDirDescription[]>({
      op: 'describeLogDirs', apiKey: ApiKey.DescribeLogDirs, resource: (n) => `broker ${n}`, route: (nodeId) => ({ kind: 'node', nodeId }),
      send: async (conn, version, _items, broker) => {
        const res = await send(conn, ApiKey.DescribeLogDirs, version, { topics: null });
        if (res.errorCode) return [{ errorCode: res.errorCode }];
        return [ok(res.results.map((d) => ({
          broker, logDir: d.logDir, error: d.errorCode ? (KAFKA_ERROR_NAMES.get(d.errorCode) ?? `error ${d.errorCode}`) : null,
          totalBytes: version >= 4 ? d.totalBytes : -1n, usableBytes: version >= 4 ? d.usableBytes : -1n,
          partitions: d.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, size: p.partitionSize, offsetLag: p.offsetLag, isFuture: p.isFutureKey }))),
        })))];
      },
    }, nodes);
    return per.flat();
  }

  /** Elects leaders: the preferred replica (the first of the assignment), or with `unclean` any live replica, even out of the ISR. */
  async electLeaders(partitions: readonly { topic: string; partition: number }[], options: { unclean?: boolean } = {}): Promise<{ topic: string; partition: number }[]> {
    const list = nonEmpty(partitions, 'electLeaders\'s partitions').map((p) => ({ topic: checkTopicName(p?.topic), partition: checkCount(p.partition, `${p.topic}: partition`, 0, Number.NaN) }));
    const electionType = options.unclean ? 1 : 0;
    return this.#router.each<(typeof list)[number], { topic: string; partition: number }>({
      op: 'electLeaders', apiKey: ApiKey.ElectLeaders, minVersion: electionType ? 1 : 0, resource: (p) => `${p.topic}-${p.partition}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const topics = new Map<string, number[]>();
        for (const p of items) topics.set(p.topic, [...(topics.get(p.topic) ?? []), p.partition]);
        const res = await send(conn, ApiKey.ElectLeaders, version, { ...(version >= 1 ? { electionType } : {}), topicPartitions: [...topics].map(([topic, ps]) => ({ topic, partitions: ps })), timeoutMs: this.#timeoutMs });
        if (res.errorCode) return items.map(() => ({ errorCode: res.errorCode }));
        return items.map((p) => {
          const a = res.replicaElectionResults.find((r) => r.topic === p.topic)?.partitionResult.find((r) => r.partitionId === p.partition);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok(p) : { errorCode: a.errorCode, errorMessage: a.errorMessage };
        });
      },
    }, list);
  }

  /** Moves partitions to new replicas (the controller copies, then drops the old ones); `replicas: null` cancels a reassignment in progress. */
  async alterPartitionReassignments(moves: readonly { topic: string; partition: number; replicas: number[] | null }[]): Promise<{ topic: string; partition: number }[]> {
    const list = nonEmpty(moves, 'alterPartitionReassignments\'s moves').map((m) => ({
      topic: checkTopicName(m?.topic), partition: checkCount(m.partition, `${m.topic}: partition`, 0, Number.NaN),
      replicas: m.replicas === null ? null : checkReplicas(m.replicas, `${m.topic}-${m.partition}`),
    }));
    return this.#router.each<(typeof list)[number], { topic: string; partition: number }>({
      op: 'alterPartitionReassignments', apiKey: ApiKey.AlterPartitionReassignments, resource: (p) => `${p.topic}-${p.partition}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const topics = new Map<string, typeof items>();
        for (const p of items) topics.set(p.topic, [...(topics.get(p.topic) ?? []), p]);
        const res = await send(conn, ApiKey.AlterPartitionReassignments, version, {
          timeoutMs: this.#timeoutMs, topics: [...topics].map(([name, ps]) => ({ name, partitions: ps.map((p) => ({ partitionIndex: p.partition, replicas: p.replicas })) })),
        });
        if (res.errorCode) return items.map(() => ({ errorCode: res.errorCode, errorMessage: res.errorMessage }));
        return items.map((p) => {
          const a = res.responses.find((r) => r.name === p.topic)?.partitions.find((r) => r.partitionIndex === p.partition);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode === 0 ? ok({ topic: p.topic, partition: p.partition }) : { errorCode: a.errorCode, errorMessage: a.errorMessage };
        });
      },
    }, list);
  }

  /** Cancels reassignments in progress (the partitions keep the replicas they had). */
  cancelPartitionReassignments(partitions: readonly { topic: string; partition: number }[]): Promise<{ topic: string; partition: number }[]> {
    return this.alterPartitionReassignments(nonEmpty(partitions, 'cancelPartitionReassignments\'s partitions').map((p) => ({ ...p, replicas: null })));
  }

  /**
   * A proposed reassignment of every partition of `topics` onto `brokers` (kafka-reassign-partitions.sh
   * --generate): each partition keeps its replication factor, leaders and followers spread over
   * the brokers, rack-aware when every broker given has a rack (`rackAware: false` turns it off;
   * a cluster where only some have racks needs it off). Resolves with the current assignment and
   * the proposed one, partitions in order, ready for alterPartitionReassignments.
   */
  async planReassignment(topics: readonly string[], brokers: readonly number[], options: { rackAware?: boolean } = {}): Promise<{ current: ReplicaAssignment[]; proposed: ReplicaAssignment[] }> {
    const names = [...new Set(nonEmpty(topics, 'planReassignment\'s topics').map((t) => checkTopicName(t)))].sort();
    const ids = nonEmpty(brokers, 'planReassignment\'s brokers').map((b) => checkCount(b, 'a broker id', 0, 0));
    const cluster = await this.describeCluster();
    const unknown = ids.filter((id) => !cluster.brokers.some((b) => b.nodeId === id));
    if (unknown.length > 0) throw invalid(`planReassignment: broker(s) ${unknown.join(', ')} not in the cluster (it has ${cluster.brokers.map((b) => b.nodeId).join(', ')})`);
    const planBrokers = ids.map((id) => ({ id, rack: cluster.brokers.find((b) => b.nodeId === id)!.rack }));
    const described = await this.describeTopics(names);
    // Where each current replica lives, as the tool's current assignment shows it.
    const holders = [...new Set(described.flatMap((t) => t.partitions.flatMap((p) => p.replicas)))].filter((id) => cluster.brokers.some((b) => b.nodeId === id)).sort((a, b) => a - b);
    const dirs = new Map<string, string>();
    for (const d of holders.length > 0 ? await this.describeLogDirs(holders) : []) {
      for (const p of d.partitions) if (!p.isFuture) dirs.set(`${d.broker}\u0000${p.topic}\u0000${p.partition}`, d.logDir);
    }
    const current: ReplicaAssignment[] = [];
    const proposed: ReplicaAssignment[] = [];
    for (const t of described) {
      const partitions = [...t.partitions].sort((a, b) => a.partition - b.partition);
      const replicationFactor = partitions[0]?.replicas.length ?? 1;
      const plan = assignReplicas(t.name, partitions.length, replicationFactor, planBrokers, options);
      partitions.forEach((p, i) => {
        current.push({ topic: t.name, partition: p.partition, replicas: [...p.replicas], logDirs: p.replicas.map((r) => dirs.get(`${r}\u0000${t.name}\u0000${p.partition}`) ?? 'any') });
        proposed.push({ topic: t.name, partition: p.partition, replicas: plan[i]! });
      });
    }
    return { current, proposed };
  }

  /** The reassignments in progress (of these partitions, or all). */
  async listPartitionReassignments(partitions?: readonly { topic: string; partition: number }[]): Promise<PartitionReassignment[]> {
    const topics = partitions === undefined ? null : [...partitions.reduce((m, p) => m.set(checkTopicName(p.topic), [...(m.get(p.topic) ?? []), p.partition]), new Map<string, number[]>())]
      .map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
    return this.#router.one<null, PartitionReassignment[]>({
      op: 'listPartitionReassignments', apiKey: ApiKey.ListPartitionReassignments, resource: () => 'the cluster', route: () => CONTROLLER,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.ListPartitionReassignments, version, { timeoutMs: this.#timeoutMs, topics });
        if (res.errorCode) return [{ errorCode: res.errorCode, errorMessage: res.errorMessage }];
        return [ok(res.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, replicas: p.replicas, addingReplicas: p.addingReplicas, removingReplicas: p.removingReplicas })))
          .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition)))];
      },
    }, null);
  }

  // ---------------------------------------------------------------------------------------------
  // Client quotas, SCRAM credentials, ACLs

  /** Client quotas: of the entities matching `filter` (an entity type given a name matches it exactly, null its default), or all. */
  async describeClientQuotas(filter: QuotaEntity = {}, options: { strict?: boolean } = {}): Promise<ClientQuota[]> {
    const components = Object.entries(filter).map(([entityType, match]) => ({ entityType: checkQuotaType(entityType), matchType: match === null ? 1 : 0, match: match ?? null }));
    return this.#router.one<null, ClientQuota[]>({
      op: 'describeClientQuotas', apiKey: ApiKey.DescribeClientQuotas, resource: () => 'client quotas', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.DescribeClientQuotas, version, { components, strict: options.strict ?? false });
        if (res.errorCode) return [{ errorCode: res.errorCode, errorMessage: res.errorMessage }];
        return [ok((res.entries ?? []).map((e) => ({
          entity: Object.fromEntries(e.entity.map((x) => [x.entityType, x.entityName])) as QuotaEntity,
          values: Object.fromEntries(e.values.map((v) => [v.key, v.value])),
        })))];
      },
    }, null);
  }

  /** Sets (a number) or removes (null) client quotas, per entity; `validateOnly` changes nothing. */
  async alterClientQuotas(alterations: readonly QuotaAlteration[], options: { validateOnly?: boolean } = {}): Promise<QuotaEntity[]> {
    const list = nonEmpty(alterations, 'alterClientQuotas\'s alterations').map((a) => {
      const entity = Object.entries(a?.entity ?? {}).map(([entityType, entityName]) => ({ entityType: checkQuotaType(entityType), entityName: entityName ?? null }));
      if (entity.length === 0) throw invalid('a quota alteration needs an entity (user, client-id or ip)');
      const ops = Object.entries(a.values ?? {}).map(([key, value]) => {
        if (value !== null && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) throw invalid(`quota ${key} must be a number of at least 0 or null (remove), not ${String(value)}`);
        return { key, value: value ?? 0, remove: value === null };
      });
      if (ops.length === 0) throw invalid('a quota alteration needs at least one quota value');
      return { entity, ops, original: a.entity };
    });
    const label = (e: { entityType: string; entityName: string | null }[]) => e.map((x) => `${x.entityType} ${x.entityName ?? '<default>'}`).join(', ');
    return this.#router.each<(typeof list)[number], QuotaEntity>({
      op: 'alterClientQuotas', apiKey: ApiKey.AlterClientQuotas, resource: (a) => `quota of ${label(a.entity)}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.AlterClientQuotas, version, { entries: items.map(({ entity, ops }) => ({ entity, ops })), validateOnly: options.validateOnly ?? false });
        // The answers name their entities (in an order of the broker's own).
        const key = (e: readonly { entityType: string; entityName: string | null }[]) => JSON.stringify(e.map((x) => [x.entityType, x.entityName]).sort());
        return items.map((a) => {
          const r = res.entries.find((x) => key(x.entity) === key(a.entity));
          if (!r) return { errorCode: -1, errorMessage: 'not in the response' };
          return r.errorCode === 0 ? ok(a.original) : { errorCode: r.errorCode, errorMessage: r.errorMessage };
        });
      },
    }, list);
  }

  /** Users' SCRAM credentials (mechanism and iterations; never a secret): of these users, or all. */
  async describeScramCredentials(users?: readonly string[]): Promise<ScramCredentials[]> {
    const names = users?.map((u) => checkUser(u)) ?? null;
    const all = await this.#router.one<null, (ScramCredentials | { user: string; errorCode: number; errorMessage: string | null })[]>({
      op: 'describeScramCredentials', apiKey: ApiKey.DescribeUserScramCredentials, resource: () => 'SCRAM credentials', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.DescribeUserScramCredentials, version, { users: names?.map((name) => ({ name })) ?? null });
        if (res.errorCode) return [{ errorCode: res.errorCode, errorMessage: res.errorMessage }];
        return [ok(res.results.map((r) => (r.errorCode ? { user: r.user, errorCode: r.errorCode, errorMessage: r.errorMessage }
          : { user: r.user, credentials: r.credentialInfos.map((c) => ({ mechanism: SCRAM_NAMES[c.mechanism] ?? ('UNKNOWN' as ScramMechanismName), iterations: c.iterations })) })))];
      },
    }, null);
    const failures = all.filter((r): r is { user: string; errorCode: number; errorMessage: string | null } => 'errorCode' in r).map((r) => brokerError(`user ${r.user}`, r.errorCode, r.errorMessage));
    const found = all.filter((r): r is ScramCredentials => !('errorCode' in r)).sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));
    if (failures.length > 0) throw new AdminError('RESOURCES', `describeScramCredentials: ${failures.length} failed: ${failures.map((f) => f.message).join('; ')}`, { failures, succeeded: found });
    return found;
  }

  /**
   * Creates or replaces (a password; salted and hashed here, so it never crosses the wire) or
   * deletes users' SCRAM credentials, on the controller.
   */
  async alterScramCredentials(alterations: readonly ScramAlteration[]): Promise<string[]> {
    const list = await Promise.all(nonEmpty(alterations, 'alterScramCredentials\'s alterations').map(async (a) => {
      const user = checkUser(a?.user);
      const mechanism = SCRAM_NAMES.indexOf(a.mechanism);
      if (mechanism <= 0) throw invalid(`user ${user}: the SCRAM mechanism is SCRAM-SHA-256 or SCRAM-SHA-512, not ${JSON.stringify(a.mechanism)}`, `user ${user}`);
      if ('delete' in a) return { user, deletion: { name: user, mechanism }, upsertion: null };
      if (typeof a.password !== 'string' || a.password === '') throw invalid(`user ${user}: a SCRAM credential needs a password`, `user ${user}`);
      const iterations = checkCount(a.iterations, `user ${user}: iterations`, 4096, 4096);
      const salt = a.salt ?? crypto.getRandomValues(new Uint8Array(32));
      const saltedPassword = await saltPassword(a.mechanism, a.password, salt, iterations);
      return { user, deletion: null, upsertion: { name: user, mechanism, iterations, salt, saltedPassword } };
    }));
    return this.#router.each<(typeof list)[number], string>({
      op: 'alterScramCredentials', apiKey: ApiKey.AlterUserScramCredentials, resource: (a) => `user ${a.user}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.AlterUserScramCredentials, version, {
          deletions: items.flatMap((a) => (a.deletion ? [a.deletion] : [])), upsertions: items.flatMap((a) => (a.upsertion ? [a.upsertion] : [])),
        });
        return items.map((a) => {
          const r = res.results.find((x) => x.user === a.user);
          if (!r) return { errorCode: -1, errorMessage: 'not in the response' };
          return r.errorCode === 0 ? ok(a.user) : { errorCode: r.errorCode, errorMessage: r.errorMessage };
        });
      },
    }, list);
  }

  /** The ACLs matching a filter (everything left out matches anything). */
  async describeAcls(filter: AclFilter = {}): Promise<AclBinding[]> {
    const f = aclFilter(filter);
    return this.#router.one<null, AclBinding[]>({
      op: 'describeAcls', apiKey: ApiKey.DescribeAcls, resource: () => 'ACLs', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.DescribeAcls, version, { ...f, patternTypeFilter: version >= 1 ? f.patternTypeFilter : 3 });
        if (res.errorCode) return [{ errorCode: res.errorCode, errorMessage: res.errorMessage }];
        return [ok(res.resources.flatMap((r) => r.acls.map((a) => aclBinding({ ...r, ...a }))).sort(aclOrder))];
      },
    }, null);
  }

  /** Creates ACLs (a literal or prefixed pattern each). */
  async createAcls(acls: readonly AclBinding[]): Promise<AclBinding[]> {
    const list = nonEmpty(acls, 'createAcls\'s ACLs').map((a) => {
      const f = aclFilter(a);
      for (const [k, v] of Object.entries(f)) if (v === null) throw invalid(`an ACL to create needs its ${k.replace(/Filter$/, '')}`);
      if (f.resourceTypeFilter <= 1 || f.patternTypeFilter < 3 || f.operation <= 1 || f.permissionType <= 1) throw invalid(`an ACL to create names one resource type, a LITERAL or PREFIXED pattern, one operation and ALLOW or DENY: ${aclText(a)}`);
      return { binding: a, creation: { resourceType: f.resourceTypeFilter, resourceName: f.resourceNameFilter, resourcePatternType: f.patternTypeFilter, principal: f.principalFilter, host: f.hostFilter, operation: f.operation, permissionType: f.permissionType } };
    });
    return this.#router.each<(typeof list)[number], AclBinding>({
      op: 'createAcls', apiKey: ApiKey.CreateAcls, resource: (a) => `ACL ${aclText(a.binding)}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.CreateAcls, version, { creations: items.map((a) => a.creation) });
        return items.map((a, i) => {
          const r = res.results[i];
          if (!r) return { errorCode: -1, errorMessage: 'not in the response' };
          return r.errorCode === 0 ? ok(a.binding) : { errorCode: r.errorCode, errorMessage: r.errorMessage };
        });
      },
    }, list);
  }

  /** Deletes the ACLs matching each filter; resolves with what each deleted. */
  async deleteAcls(filters: readonly AclFilter[]): Promise<AclBinding[][]> {
    const list = nonEmpty(filters, 'deleteAcls\'s filters').map((f) => ({ given: f, filter: aclFilter(f) }));
    return this.#router.each<(typeof list)[number], AclBinding[]>({
      op: 'deleteAcls', apiKey: ApiKey.DeleteAcls, resource: (f) => `ACL filter ${aclText(f.given)}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.DeleteAcls, version, { filters: items.map((f) => f.filter) });
        return items.map((_, i) => {
          const r = res.filterResults[i];
          if (!r) return { errorCode: -1, errorMessage: 'not in the response' };
          if (r.errorCode) return { errorCode: r.errorCode, errorMessage: r.errorMessage };
          const bad = r.matchingAcls.find((m) => m.errorCode !== 0);
          if (bad) return { errorCode: bad.errorCode, errorMessage: bad.errorMessage };
          return ok(r.matchingAcls.map((m) => aclBinding(m)).sort(aclOrder));
        });
      },
    }, list);
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions

  /** Every transactional id every broker coordinates, filtered by state (Ongoing, PrepareCommit, ...) and producer id. */
  async listTransactions(options: { states?: readonly string[]; producerIds?: readonly bigint[] } = {}): Promise<TransactionListing[]> {
    await this.client.metadata([]);
    const nodes = [...this.client.brokers.keys()].sort((a, b) => a - b);
    const per = await this.#router.each<number, TransactionListing[]>({
      op: 'listTransactions', apiKey: ApiKey.ListTransactions, resource: (n) => `broker ${n}`, route: (nodeId) => ({ kind: 'node', nodeId }),
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.ListTransactions, version, { stateFilters: options.states ?? [], producerIdFilters: options.producerIds ?? [] });
        if (res.errorCode) return [{ errorCode: res.errorCode }];
        return [ok(res.transactionStates.map((t) => ({ transactionalId: t.transactionalId, producerId: t.producerId, state: t.transactionState })))];
      },
    }, nodes);
    return per.flat().sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0));
  }

  /** Transactions' state, producer, timeout and partitions, from each one's transaction coordinator. */
  async describeTransactions(transactionalIds: readonly string[]): Promise<TransactionDescription[]> {
    const ids = nonEmpty(transactionalIds, 'describeTransactions\'s ids').map((t) => checkGroupId(t));
    return this.#router.each<string, TransactionDescription>({
      op: 'describeTransactions', apiKey: ApiKey.DescribeTransactions, resource: (t) => `transactional id ${t}`, route: (key) => ({ kind: 'coordinator', keyType: 1, key }),
      send: async (conn, version, items, coordinator) => {
        const res = await send(conn, ApiKey.DescribeTransactions, version, { transactionalIds: items });
        return items.map((id) => {
          const t = res.transactionStates.find((x) => x.transactionalId === id);
          if (!t) return { errorCode: -1, errorMessage: 'not in the response' };
          if (t.errorCode) return { errorCode: t.errorCode };
          return ok({
            transactionalId: id, state: t.transactionState, timeoutMs: t.transactionTimeoutMs, startTimeMs: t.transactionStartTimeMs, producerId: t.producerId,
            producerEpoch: t.producerEpoch, coordinator, partitions: t.topics.map((x) => ({ topic: x.topic, partitions: [...x.partitions].sort((a, b) => a - b) })),
          });
        });
      },
    }, ids);
  }

  /** The producers writing to partitions now (idempotent and transactional), from each partition's leader. */
  async describeProducers(partitions: readonly { topic: string; partition: number }[]): Promise<{ topic: string; partition: number; producers: ProducerState[] }[]> {
    const list = nonEmpty(partitions, 'describeProducers\'s partitions').map((p) => ({ topic: checkTopicName(p?.topic), partition: checkCount(p.partition, `${p.topic}: partition`, 0, Number.NaN) }));
    return this.#router.each<(typeof list)[number], { topic: string; partition: number; producers: ProducerState[] }>({
      op: 'describeProducers', apiKey: ApiKey.DescribeProducers, resource: (p) => `${p.topic}-${p.partition}`, route: (p) => ({ kind: 'leader', topic: p.topic, partition: p.partition }),
      send: async (conn, version, items) => {
        const topics = new Map<string, number[]>();
        for (const p of items) topics.set(p.topic, [...(topics.get(p.topic) ?? []), p.partition]);
        const res = await send(conn, ApiKey.DescribeProducers, version, { topics: [...topics].map(([name, partitionIndexes]) => ({ name, partitionIndexes })) });
        return items.map((p) => {
          const a = res.topics.find((t) => t.name === p.topic)?.partitions.find((x) => x.partitionIndex === p.partition);
          if (!a) return { errorCode: -1, errorMessage: 'not in the response' };
          return a.errorCode ? { errorCode: a.errorCode, errorMessage: a.errorMessage } : ok({ ...p, producers: a.activeProducers.map((s) => ({ ...s })) });
        });
      },
    }, list);
  }

  /**
   * Aborts another producer's open transaction on one partition, as Kafka's Admin.abortTransaction
   * and kafka-transactions.sh abort do: an abort marker (WriteTxnMarkers) written by the
   * partition's leader for that producer id and epoch, so read_committed consumers read past a
   * transaction its producer will never end (a hung transaction). Given `startOffset` instead of
   * the producer, the producer is the one whose open transaction on the partition starts there
   * (from DescribeProducers), with its epoch and coordinator epoch. Resolves with what was aborted.
   */
  async abortTransaction(spec: TransactionToAbort | { topic: string; partition: number; startOffset: bigint | number }): Promise<TransactionToAbort> {
    const topic = checkTopicName(spec?.topic);
    const need = (value: unknown, what: string) => {
      if (value === undefined) throw invalid(`abortTransaction: ${what} is required`);
      return value;
    };
    const partition = checkCount(need(spec.partition, 'the partition'), `${topic}: partition`, 0, 0);
    let target: TransactionToAbort;
    if ('startOffset' in spec) {
      const startOffset = checkOffset(need(spec.startOffset, 'startOffset'), `${topic}-${partition}: startOffset`);
      const [described] = await this.describeProducers([{ topic, partition }]);
      const open = described!.producers.filter((p) => p.currentTxnStartOffset === startOffset);
      if (open.length !== 1) {
        throw new AdminError('NOT_FOUND', `abortTransaction: ${topic}-${partition} has ${open.length === 0 ? 'no' : String(open.length)} producer with an open transaction starting at offset ${startOffset}`
          + ` (open ones start at ${described!.producers.filter((p) => p.currentTxnStartOffset >= 0n).map((p) => String(p.currentTxnStartOffset)).join(', ') || 'none'})`, { resource: `${topic}-${partition}` });
      }
      // A producer the coordinator has not written a marker for yet has coordinator epoch -1; Kafka's tool sends 0.
      target = { topic, partition, producerId: open[0]!.producerId, producerEpoch: open[0]!.producerEpoch, coordinatorEpoch: Math.max(0, open[0]!.coordinatorEpoch) };
    } else {
      target = {
        topic, partition, producerId: checkOffset(need(spec.producerId, 'producerId'), `${topic}-${partition}: producerId`, 0n),
        producerEpoch: checkCount(need(spec.producerEpoch, 'producerEpoch'), `${topic}-${partition}: producerEpoch`, 0, 0),
        coordinatorEpoch: checkCount(need(spec.coordinatorEpoch, 'coordinatorEpoch'), `${topic}-${partition}: coordinatorEpoch`, 0, 0),
      };
      if (target.producerEpoch > 32767) throw invalid(`${topic}-${partition}: producerEpoch is an int16, at most 32767, not ${target.producerEpoch}`);
    }
    return this.#router.one<TransactionToAbort, TransactionToAbort>({
      op: 'abortTransaction', apiKey: ApiKey.WriteTxnMarkers, resource: (t) => `${t.topic}-${t.partition}`, route: (t) => ({ kind: 'leader', topic: t.topic, partition: t.partition }),
      send: async (conn, version, items) => {
        const t = items[0]!;
        const res = await send(conn, ApiKey.WriteTxnMarkers, version, {
          markers: [{ producerId: t.producerId, producerEpoch: t.producerEpoch, transactionResult: false, coordinatorEpoch: t.coordinatorEpoch, topics: [{ name: t.topic, partitionIndexes: [t.partition] }] }],
        });
        const r = res.markers.find((m) => m.producerId === t.producerId)?.topics.find((x) => x.name === t.topic)?.partitions.find((x) => x.partitionIndex === t.partition);
        if (!r) return [{ errorCode: -1, errorMessage: 'not in the response' }];
        return [r.errorCode ? { errorCode: r.errorCode } : ok(t)];
      },
    }, target);
  }

  /** Finalizes feature levels (kafka-features.sh upgrade / downgrade), on the controller; `validateOnly` changes nothing. */
  async updateFeatures(updates: readonly FeatureUpdate[], options: { validateOnly?: boolean } = {}): Promise<string[]> {
    const types = { upgrade: 1, 'safe-downgrade': 2, 'unsafe-downgrade': 3 } as const;
    const list = nonEmpty(updates, 'updateFeatures\'s updates').map((u) => {
      if (typeof u?.feature !== 'string' || u.feature === '') throw invalid('a feature update needs the feature\'s name');
      const upgradeType = types[u.type ?? 'upgrade'];
      if (upgradeType === undefined) throw invalid(`feature ${u.feature}: the update type is upgrade, safe-downgrade or unsafe-downgrade, not ${JSON.stringify(u.type)}`);
      return { feature: u.feature, maxVersionLevel: checkCount(u.maxVersionLevel, `feature ${u.feature}: maxVersionLevel`, 0, Number.NaN), upgradeType };
    });
    return this.#router.each<(typeof list)[number], string>({
      op: 'updateFeatures', apiKey: ApiKey.UpdateFeatures, resource: (u) => `feature ${u.feature}`, route: () => CONTROLLER,
      send: async (conn, version, items) => {
        const res = await send(conn, ApiKey.UpdateFeatures, version, {
          timeoutMs: this.#timeoutMs, validateOnly: options.validateOnly ?? false,
          featureUpdates: items.map((u) => (version >= 1 ? u : { feature: u.feature, maxVersionLevel: u.maxVersionLevel, allowDowngrade: u.upgradeType !== 1 })),
        });
        if (res.errorCode) return items.map(() => ({ errorCode: res.errorCode, errorMessage: res.errorMessage }));
        // From v2 the top-level error answers for every feature (the list stays empty).
        if (res.results.length === 0) return items.map((u) => ok(u.feature));
        return items.map((u) => {
          const r = res.results.find((x) => x.feature === u.feature);
          if (!r) return { errorCode: -1, errorMessage: 'not in the response' };
          return r.errorCode === 0 ? ok(u.feature) : { errorCode: r.errorCode, errorMessage: r.errorMessage };
        });
      },
    }, list);
  }

  // ---------------------------------------------------------------------------------------------
  // Delegation tokens (the connection must be SASL-authenticated, not by a token)

  /** Creates a delegation token for this client's principal (or `owner`), renewable by `renewers` ("User:name"). */
  async createDelegationToken(options: { renewers?: readonly string[]; owner?: string; maxLifetimeMs?: bigint | number } = {}): Promise<DelegationToken> {
    const principal = (p: string) => {
      const i = p.indexOf(':');
      if (i <= 0) throw invalid(`a principal is TYPE:NAME (User:alice), not ${JSON.stringify(p)}`);
      return { principalType: p.slice(0, i), principalName: p.slice(i + 1) };
    };
    const renewers = (options.renewers ?? []).map(principal);
    const owner = options.owner === undefined ? null : principal(options.owner);
    const maxLifetimeMs = options.maxLifetimeMs === undefined ? -1n : checkOffset(options.maxLifetimeMs, 'maxLifetimeMs', 1n);
    return this.#router.one<null, DelegationToken>({
      op: 'createDelegationToken', apiKey: ApiKey.CreateDelegationToken, minVersion: owner ? 3 : 0, resource: () => 'a delegation token', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.CreateDelegationToken, version, {
          renewers, maxLifetimeMs, ...(version >= 3 ? { ownerPrincipalType: owner?.principalType ?? null, ownerPrincipalName: owner?.principalName ?? null } : {}),
        });
        if (res.errorCode) return [{ errorCode: res.errorCode }];
        return [ok({
          tokenId: res.tokenId, hmac: res.hmac, owner: `${res.principalType}:${res.principalName}`,
          requester: version >= 3 ? `${res.tokenRequesterPrincipalType}:${res.tokenRequesterPrincipalName}` : `${res.principalType}:${res.principalName}`,
          renewers: renewers.map((r) => `${r.principalType}:${r.principalName}`), issueTimestampMs: res.issueTimestampMs, expiryTimestampMs: res.expiryTimestampMs, maxTimestampMs: res.maxTimestampMs,
        })];
      },
    }, null);
  }

  /** Extends a token's expiry by `periodMs` (-1: the broker's renewal period); resolves with the new expiry time. */
  renewDelegationToken(hmac: Uint8Array, periodMs: bigint | number = -1n): Promise<bigint> {
    return this.#tokenTime('renewDelegationToken', ApiKey.RenewDelegationToken, { hmac: checkHmac(hmac), renewPeriodMs: checkOffset(periodMs, 'periodMs', -1n) });
  }

  /** Expires a token after `periodMs` (-1: now); resolves with its expiry time. */
  expireDelegationToken(hmac: Uint8Array, periodMs: bigint | number = -1n): Promise<bigint> {
    return this.#tokenTime('expireDelegationToken', ApiKey.ExpireDelegationToken, { hmac: checkHmac(hmac), expiryTimePeriodMs: checkOffset(periodMs, 'periodMs', -1n) });
  }

  #tokenTime(op: string, apiKey: 39 | 40, body: object): Promise<bigint> {
    return this.#router.one<null, bigint>({
      op, apiKey, resource: () => 'the delegation token', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, apiKey, version, body);
        return [res.errorCode ? { errorCode: res.errorCode } : ok(res.expiryTimestampMs)];
      },
    }, null);
  }

  /** Delegation tokens this client may see: of these owners ("User:name"), or all. */
  async describeDelegationTokens(owners?: readonly string[]): Promise<DelegationToken[]> {
    const list = owners?.map((p) => {
      const i = p.indexOf(':');
      if (i <= 0) throw invalid(`a principal is TYPE:NAME (User:alice), not ${JSON.stringify(p)}`);
      return { principalType: p.slice(0, i), principalName: p.slice(i + 1) };
    }) ?? null;
    return this.#router.one<null, DelegationToken[]>({
      op: 'describeDelegationTokens', apiKey: ApiKey.DescribeDelegationToken, resource: () => 'delegation tokens', route: () => ANY,
      send: async (conn, version) => {
        const res = await send(conn, ApiKey.DescribeDelegationToken, version, { owners: list });
        if (res.errorCode) return [{ errorCode: res.errorCode }];
        return [ok(res.tokens.map((t) => ({
          tokenId: t.tokenId, hmac: t.hmac, owner: `${t.principalType}:${t.principalName}`,
          requester: version >= 3 ? `${t.tokenRequesterPrincipalType}:${t.tokenRequesterPrincipalName}` : `${t.principalType}:${t.principalName}`,
          renewers: t.renewers.map((r) => `${r.principalType}:${r.principalName}`), issueTimestampMs: t.issueTimestamp, expiryTimestampMs: t.expiryTimestamp, maxTimestampMs: t.maxTimestamp,
        })).sort((a, b) => (a.tokenId < b.tokenId ? -1 : 1)))];
      },
    }, null);
  }

  async close(): Promise<void> {
    this.#router.closed = true;
    await this.#telemetry?.close();
    if (this.#ownsClient) await this.client.close();
  }
}

// ---- input checks and conversions the calls share ----

function checkTopicId(id: unknown): string {
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(id)) throw invalid(`a topic id is Kafka's 22-character base64url uuid, not ${JSON.stringify(id)}`);
  if (id === ZERO_UUID) throw invalid('the zero uuid names no topic');
  return id;
}

function checkGroupId(id: unknown): string {
  if (typeof id !== 'string' || id === '') throw invalid(`a group id must be a non-empty string, not ${JSON.stringify(id)}`);
  return id;
}

function checkResource<R extends ConfigResource>(r: R): R {
  if (!r || !(r.type in RESOURCE_TYPE_CODES)) throw invalid(`a config resource's type is one of ${Object.keys(RESOURCE_TYPE_CODES).join(', ')}, not ${JSON.stringify(r?.type)}`);
  if (typeof r.name !== 'string') throw invalid(`a ${r.type} config resource needs a name`);
  if (r.type === 'topic') checkTopicName(r.name);
  if ((r.type === 'broker' || r.type === 'broker-logger') && r.name !== '' && !/^\d+$/.test(r.name)) throw invalid(`a ${r.type} resource is named by the broker's id, not ${JSON.stringify(r.name)}`);
  return r;
}

const SCRAM_NAMES: readonly ScramMechanismName[] = ['UNKNOWN' as ScramMechanismName, 'SCRAM-SHA-256', 'SCRAM-SHA-512'];

/** SCRAM's SaltedPassword (RFC 5802: PBKDF2 of the password), which Kafka stores instead of the password. */
async function saltPassword(mechanism: ScramMechanismName, password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const hash = mechanism === 'SCRAM-SHA-512' ? { name: 'SHA-512', bits: 512 } : { name: 'SHA-256', bits: 256 };
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: hash.name, salt: salt as Uint8Array<ArrayBuffer>, iterations }, key, hash.bits));
}

function checkHmac(hmac: unknown): Uint8Array {
  if (!(hmac instanceof Uint8Array) || hmac.length === 0) throw invalid('a delegation token is named by its hmac (the bytes createDelegationToken gave)');
  return hmac;
}

function checkUser(user: unknown): string {
  if (typeof user !== 'string' || user === '') throw invalid(`a user name must be a non-empty string, not ${JSON.stringify(user)}`);
  return user;
}

function checkQuotaType(type: string): string {
  if (type !== 'user' && type !== 'client-id' && type !== 'ip') throw invalid(`a quota entity type is user, client-id or ip, not ${JSON.stringify(type)}`);
  return type;
}

/** An ACL filter as the wire has it; names are checked against Kafka's lists. */
function aclFilter(f: AclFilter) {
  const code = (names: readonly string[], value: string | undefined, what: string, fallback: number) => {
    if (value === undefined) return fallback;
    const c = typeof value === 'string' ? codeOf(names, value) : -1;
    if (c <= 0) throw invalid(`an ACL's ${what} is one of ${names.slice(1).join(', ')}, not ${JSON.stringify(value)}`);
    return c;
  };
  return {
    resourceTypeFilter: code(ACL_RESOURCE_TYPES, f.resourceType, 'resource type', 1),
    resourceNameFilter: f.resourceName ?? null,
    patternTypeFilter: code(ACL_PATTERN_TYPES, f.patternType, 'pattern type', f.resourceName === undefined ? 1 : 3),
    principalFilter: f.principal ?? null,
    hostFilter: f.host ?? null,
    operation: code(ACL_OPERATIONS, f.operation, 'operation', 1),
    permissionType: code(ACL_PERMISSIONS, f.permission, 'permission', 1),
  };
}

function aclBinding(a: { resourceType: number; resourceName: string; patternType: number; principal: string; host: string; operation: number; permissionType: number }): AclBinding {
  return {
    resourceType: nameOf(ACL_RESOURCE_TYPES, a.resourceType) as AclResourceType, resourceName: a.resourceName, patternType: nameOf(ACL_PATTERN_TYPES, a.patternType) as AclPatternType,
    principal: a.principal, host: a.host, operation: nameOf(ACL_OPERATIONS, a.operation) as AclOperation, permission: nameOf(ACL_PERMISSIONS, a.permissionType) as AclPermission,
  };
}

export function aclText(a: AclFilter): string {
  return `${a.permission ?? 'ANY'} ${a.principal ?? '*'} ${a.operation ?? 'ANY'} ${a.resourceType ?? 'ANY'}:${a.patternType ?? 'LITERAL'}:${a.resourceName ?? '*'} from ${a.host ?? '*'}`;
}

const aclOrder = (a: AclBinding, b: AclBinding) => {
  const x = `${a.resourceType}|${a.resourceName}|${a.patternType}|${a.principal}|${a.host}|${a.operation}|${a.permission}`;
  const y = `${b.resourceType}|${b.resourceName}|${b.patternType}|${b.principal}|${b.host}|${b.operation}|${b.permission}`;
  return x < y ? -1 : x > y ? 1 : 0;
};

function specTimestamp(spec: OffsetSpec, what: string): bigint {
  switch (spec) {
    case 'earliest': return -2n;
    case 'latest': return -1n;
    case 'max-timestamp': return -3n;
    case 'earliest-local': return -4n;
    case 'latest-tiered': return -5n;
    default:
      if (spec && typeof spec === 'object' && 'timestamp' in spec) return checkOffset(spec.timestamp, `${what}: timestamp`);
      throw invalid(`${what}: an offset spec is earliest, latest, max-timestamp, earliest-local, latest-tiered or { timestamp }, not ${JSON.stringify(spec)}`);
  }
}
