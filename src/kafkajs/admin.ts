// kafkajs's admin client (`kafka.admin()`) over kafka-wire's own (src/admin/): every method
// kafkajs 2.2.4's Admin has, taking kafkajs's arguments and resolving to kafkajs's shapes (offsets
// as strings, config sources and ACL enums as kafkajs's numbers, describeGroups' raw member bytes),
// and rejecting with kafkajs's error classes. The requests are kafka-wire's Admin's; this file only
// translates (and checks arguments the way kafkajs does, before anything is sent).
//
// Where kafkajs's behaviour is kept on purpose although kafka-wire's Admin does it differently:
// alterConfigs replaces a resource's dynamic configs (kafkajs sends the non-incremental
// AlterConfigs, so a config left out goes back to its default): here the ones left out are
// deleted in the same IncrementalAlterConfigs. setOffsets refuses a group with members, as kafkajs does.
import { Admin as WireAdmin, AdminError, type AclBinding, type AclFilter as WireAclFilter } from '../admin/index.js';
import { ACL_OPERATIONS, ACL_PATTERN_TYPES, ACL_PERMISSIONS, ACL_RESOURCE_TYPES, CONFIG_SOURCES } from '../admin/codes.js';
import { findCoordinator } from '../consumer/classic.js';
import { ApiKey } from '../generated/types.js';
import type { KafkaClient } from '../wire/client.js';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ConfigResourceTypes, ResourcePatternTypes } from './constants.js';
import {
  fromWire, KafkaJSAggregateError, KafkaJSAlterPartitionReassignmentsError, KafkaJSCreateTopicError, KafkaJSDeleteGroupsError, KafkaJSDeleteTopicRecordsError, KafkaJSError,
  KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, KafkaJSServerDoesNotSupportApiKey,
} from './errors.js';
import { Instrumentation } from './instrumentation.js';
import type { Logger } from './logger.js';
import type { ClientContext } from './producer.js';
import type {
  Acl, AclEntry, AclFilter, Admin, AdminConfig, AdminEvents, DeleteAclResponse, DeleteGroupsResult, DescribeAclResource, DescribeAclResponse,
  DescribeConfigResponse, FetchOffsetsPartition, GroupDescription, GroupDescriptions, IResourceConfig, ITopicConfig, ITopicMetadata,
  ITopicPartitionConfig, ListPartitionReassignmentsResponse, PartitionMetadata, PartitionReassignment, ResourceConfigQuery, SeekEntry, TopicPartitions,
} from './types.js';

/** What an admin client needs from its Kafka: the client options (brokers resolved) and a logger. */
export type AdminContext = ClientContext;

export const ADMIN_EVENTS: AdminEvents = {
  CONNECT: 'admin.connect',
  DISCONNECT: 'admin.disconnect',
  REQUEST: 'admin.network.request',
  REQUEST_TIMEOUT: 'admin.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'admin.network.request_queue_size',
};

const invalid = (message: string) => new KafkaJSNonRetriableError(message);
const CONFIG_TYPE_NAMES: Record<number, 'topic' | 'broker' | 'broker-logger'> = {
  [ConfigResourceTypes.TOPIC]: 'topic', [ConfigResourceTypes.BROKER]: 'broker', [ConfigResourceTypes.BROKER_LOGGER]: 'broker-logger',
};
const CONFIG_TYPE_CODES = { topic: ConfigResourceTypes.TOPIC, broker: ConfigResourceTypes.BROKER, 'broker-logger': ConfigResourceTypes.BROKER_LOGGER } as Record<string, number>;
const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const byPartition = <T extends { partition: number }>(a: T, b: T) => a.partition - b.partition;

/** An AdminError (or a wire error) as the KafkaJS error kafkajs throws for the same refusal. */
export function kafkaJSAdminError(error: unknown): unknown {
  if (!(error instanceof AdminError)) return fromWire(error);
  switch (error.code) {
    case 'INVALID_ARGUMENT': case 'CLOSED': return new KafkaJSNonRetriableError(error);
    case 'UNSUPPORTED': return new KafkaJSServerDoesNotSupportApiKey(error);
    case 'RETRIES_EXHAUSTED': return new KafkaJSNumberOfRetriesExceeded(error);
    case 'RESOURCES': return kafkaJSAdminError(error.failures[0] ?? new AdminError('BROKER', error.message));
    default:
      if (error.errorCode !== undefined && error.errorCode > 0) return new KafkaJSProtocolError(error, { code: error.errorCode, retriable: new KafkaJSProtocolError(error.errorCode).retriable });
      return new KafkaJSError(error);
  }
}

/** Kafka's ACL names as kafkajs's numbers and back (both are Kafka's codes). */
const aclName = (names: readonly string[], code: number | undefined, what: string): string | undefined => {
  if (code === undefined) return undefined;
  const name = names[code];
  if (name === undefined) throw invalid(`Invalid ${what} ${code}`);
  return name;
};
const aclCode = (names: readonly string[], name: string) => names.indexOf(name);

function wireFilter(f: Partial<AclFilter>): WireAclFilter {
  const out: WireAclFilter = {};
  const rt = aclName(ACL_RESOURCE_TYPES, f.resourceType, 'resource type');
  const pt = aclName(ACL_PATTERN_TYPES, f.resourcePatternType, 'resource pattern type');
  const op = aclName(ACL_OPERATIONS, f.operation, 'operation type');
  const pm = aclName(ACL_PERMISSIONS, f.permissionType, 'permission type');
  if (rt !== undefined) out.resourceType = rt as WireAclFilter['resourceType'];
  if (pt !== undefined) out.patternType = pt as WireAclFilter['patternType'];
  if (op !== undefined) out.operation = op as WireAclFilter['operation'];
  if (pm !== undefined) out.permission = pm as WireAclFilter['permission'];
  if (f.resourceName !== undefined) out.resourceName = f.resourceName;
  if (f.principal !== undefined) out.principal = f.principal;
  if (f.host !== undefined) out.host = f.host;
  return out;
}

function aclEntry(a: AclBinding): AclEntry {
  return {
    resourceType: aclCode(ACL_RESOURCE_TYPES, a.resourceType), resourceName: a.resourceName, resourcePatternType: aclCode(ACL_PATTERN_TYPES, a.patternType),
    principal: a.principal, host: a.host, operation: aclCode(ACL_OPERATIONS, a.operation), permissionType: aclCode(ACL_PERMISSIONS, a.permission),
  };
}

/** kafkajs's argument checks of an ACL or an ACL filter (which enums, which strings). */
function checkAcls(list: Partial<AclFilter>[], what: string, optionalStrings: boolean): void {
  const str = (v: unknown) => typeof v === 'string' || (optionalStrings && v === undefined);
  for (const [field, label] of [['principal', 'principals'], ['host', 'hosts'], ['resourceName', 'resourceNames']] as const) {
    if (list.some((a) => !str(a[field]))) throw invalid(`Invalid ${what} array, the ${label} have to be a valid string`);
  }
  const enums: [keyof AclFilter, object, string][] = [
    ['operation', AclOperationTypes, 'operation type'], ['resourcePatternType', ResourcePatternTypes, 'resource pattern type'],
    ['permissionType', AclPermissionTypes, 'permission type'], ['resourceType', AclResourceTypes, 'resource type'],
  ];
  for (const [field, values, label] of enums) {
    const bad = list.find((a) => !Object.values(values).includes(a[field]));
    if (bad) throw invalid(`Invalid ${label} ${String(bad[field])}: ${JSON.stringify(bad)}`);
  }
}

function checkTopics<T extends { topic: string }>(list: T[] | undefined, what: string): T[] {
  if (!list || !Array.isArray(list)) throw invalid(`Invalid ${what} array ${String(list)}`);
  if (list.some((t) => typeof t?.topic !== 'string')) throw invalid(`Invalid ${what} array, the topic names have to be a valid string`);
  if (new Set(list.map((t) => t.topic)).size < list.length) throw invalid(`Invalid ${what} array, it cannot have multiple entries for the same topic`);
  return list;
}

function checkConfigResources<T extends { type: number; name: string }>(resources: T[] | undefined): T[] {
  if (!resources || !Array.isArray(resources)) throw invalid(`Invalid resources array ${String(resources)}`);
  if (resources.length === 0) throw invalid('Resources array cannot be empty');
  const badType = resources.find((r) => !Object.values(ConfigResourceTypes).includes(r?.type));
  if (badType) throw invalid(`Invalid resource type ${badType.type}: ${JSON.stringify(badType)}`);
  const badName = resources.find((r) => typeof r.name !== 'string' || r.name === '');
  if (badName) throw invalid(`Invalid resource name ${badName.name}: ${JSON.stringify(badName)}`);
  if (resources.some((r) => CONFIG_TYPE_NAMES[r.type] === undefined)) throw invalid('Invalid resource type UNKNOWN');
  return resources;
}

/**
 * Classic groups as DescribeGroups answers them (the members' metadata and assignment as the
 * bytes they are, as kafkajs gives them), one coordinator per group. kafka-wire's Admin decodes
 * assignments and has no metadata bytes, so this asks the coordinator itself, as the kafkajs
 * consumer's describeGroup does.
 */
export async function describeGroupsRaw(client: KafkaClient, groupIds: readonly string[]): Promise<(GroupDescription & { errorCode: number })[]> {
  const coordinators = await Promise.all(groupIds.map((groupId) => findCoordinator(client, groupId)));
  const byCoordinator = new Map<object, string[]>();
  coordinators.forEach((conn, i) => byCoordinator.set(conn, [...(byCoordinator.get(conn) ?? []), groupIds[i]!]));
  const answers = await Promise.all([...byCoordinator].map(async ([conn, groups]) => {
    const res = await (conn as Awaited<ReturnType<typeof findCoordinator>>).request(ApiKey.DescribeGroups, undefined, { groups, includeAuthorizedOperations: false });
    return res.groups;
  }));
  return answers.flat().map((g) => ({
    // Brokers from DescribeGroups v6 answer GROUP_ID_NOT_FOUND for a group that does not exist;
    // older versions (kafkajs's) say Dead with no error: kafkajs's answer is kept.
    errorCode: g.errorCode === 69 ? 0 : g.errorCode, groupId: g.groupId, state: g.groupState as GroupDescription['state'], protocolType: g.protocolType, protocol: g.protocolData,
    members: g.members.map((m) => ({
      memberId: m.memberId, clientId: m.clientId, clientHost: m.clientHost, memberMetadata: asBuffer(m.memberMetadata), memberAssignment: asBuffer(m.memberAssignment),
    })),
  }));
}

export class KafkaJSAdmin implements Admin {
  readonly events = ADMIN_EVENTS;
  readonly #context: AdminContext;
  readonly #config: AdminConfig;
  readonly #instrumentation = new Instrumentation({ request: ADMIN_EVENTS.REQUEST, timeout: ADMIN_EVENTS.REQUEST_TIMEOUT });
  #admin: WireAdmin | null = null;
  #opening: Promise<WireAdmin> | null = null;

  constructor(context: AdminContext, config: AdminConfig = {}) {
    this.#context = context;
    this.#config = config;
  }

  /** The kafka-wire admin, made on connect (or on the first call, which kafkajs also allows once the cluster is reachable). */
  #wire(): Promise<WireAdmin> {
    if (this.#admin !== null) return Promise.resolve(this.#admin);
    this.#opening ??= (async () => {
      const o = await this.#context.options();
      const r = this.#config.retry;
      const admin = new WireAdmin({ ...o, retries: r?.retries ?? 5, retryBackoffMs: r?.initialRetryTime ?? o.retryBackoffMs });
      try {
        await admin.client.metadata([]);
      } catch (error) {
        await admin.close().catch(() => undefined);
        throw error;
      }
      this.#admin = admin;
      return admin;
    })().finally(() => { this.#opening = null; });
    return this.#opening;
  }

  /** Runs one kafka-wire admin call, its errors as kafkajs's. */
  async #call<T>(f: (admin: WireAdmin) => Promise<T>): Promise<T> {
    try {
      return await this.#instrumentation.work(async () => f(await this.#wire()));
    } catch (error) {
      throw kafkaJSAdminError(error);
    }
  }

  async connect(): Promise<void> {
    await this.#call(async () => undefined);
    this.#instrumentation.emit(ADMIN_EVENTS.CONNECT);
  }

  async disconnect(): Promise<void> {
    const admin = this.#admin ?? (await this.#opening?.catch(() => null)) ?? null;
    this.#admin = null;
    await admin?.close().catch(() => undefined);
    this.#instrumentation.emit(ADMIN_EVENTS.DISCONNECT);
  }

  // ---- topics ----

  async listTopics(): Promise<string[]> {
    return this.#call(async (a) => (await a.listTopics({ internal: true })).map((t) => t.name));
  }

  async createTopics(options: { validateOnly?: boolean; waitForLeaders?: boolean; timeout?: number; topics: ITopicConfig[] }): Promise<boolean> {
    const topics = checkTopics(options?.topics, 'topics');
    for (const { topic, configEntries } of topics) {
      if (configEntries === undefined || configEntries === null) continue;
      if (!Array.isArray(configEntries)) throw invalid(`Invalid configEntries for topic "${topic}", must be an array`);
      configEntries.forEach((entry, i) => {
        if (typeof entry !== 'object' || entry === null) throw invalid(`Invalid configEntries for topic "${topic}". Entry ${i} must be an object`);
        for (const field of ['name', 'value'] as const) {
          if (typeof entry[field] !== 'string') throw invalid(`Invalid configEntries for topic "${topic}". Entry ${i} must have a valid "${field}" property`);
        }
      });
    }
    const wanted = topics.map((t) => {
      const assignments = t.replicaAssignment?.length ? [...t.replicaAssignment].sort(byPartition).map((r) => r.replicas) : undefined;
      const count = (n: number | undefined) => (n === undefined || n === -1 || assignments !== undefined ? undefined : n);
      return {
        name: t.topic, partitions: count(t.numPartitions), replicationFactor: count(t.replicationFactor), assignments,
        configs: t.configEntries ? Object.fromEntries(t.configEntries.map((e) => [e.name, e.value])) : undefined,
      };
    });
    try {
      const a = await this.#call((x) => Promise.resolve(x));
      await this.#instrumentation.work(() => a.createTopics(wanted, { validateOnly: options.validateOnly ?? false, waitForLeaders: options.waitForLeaders ?? true }));
      return true;
    } catch (error) {
      if (error instanceof AdminError && (error.code === 'RESOURCES' || error.code === 'BROKER')) {
        const failures = error.code === 'RESOURCES' ? error.failures : [error];
        // kafkajs: false when every refused topic already existed.
        if (failures.every((f) => f.errorCode === 36)) return false;
        const errors = failures.map((f) => new KafkaJSCreateTopicError(kafkaJSAdminError(f) as Error, f.resource?.replace(/^topic /, '')));
        throw new KafkaJSAggregateError('Topic creation errors', errors);
      }
      throw kafkaJSAdminError(error);
    }
  }

  async deleteTopics(options: { topics: string[]; timeout?: number }): Promise<void> {
    const topics = options?.topics;
    if (!topics || !Array.isArray(topics)) throw invalid(`Invalid topics array ${String(topics)}`);
    if (topics.some((t) => typeof t !== 'string')) throw invalid('Invalid topics array, the names must be a valid string');
    if (topics.length === 0) return;
    await this.#call((a) => a.deleteTopics(topics));
  }

  async createPartitions(options: { validateOnly?: boolean; timeout?: number; topicPartitions: ITopicPartitionConfig[] }): Promise<boolean> {
    const list = options?.topicPartitions;
    if (list !== undefined && Array.isArray(list) && list.length === 0) throw invalid('Empty topic partitions array');
    checkTopics(list, 'topic partitions');
    await this.#call((a) => a.createPartitions(list.map((t) => ({ topic: t.topic, count: t.count, assignments: t.assignments })), { validateOnly: options.validateOnly ?? false }));
    // kafkajs resolves to nothing here although its types say boolean.
    return undefined as unknown as boolean;
  }

  async fetchTopicMetadata(options: { topics: string[] } = { topics: [] }): Promise<{ topics: ITopicMetadata[] }> {
    const wanted = options?.topics ?? [];
    for (const t of wanted) if (!t || typeof t !== 'string') throw invalid(`Invalid topic ${String(t)}`);
    return this.#call(async (a) => {
      const names = wanted.length > 0 ? wanted : (await a.listTopics({ internal: true })).map((t) => t.name);
      if (names.length === 0) return { topics: [] };
      const described = await a.describeTopics(names);
      return {
        topics: described.map((t) => ({
          name: t.name,
          partitions: t.partitions.map((p): PartitionMetadata => ({
            partitionErrorCode: p.leader < 0 ? 5 : 0, partitionId: p.partition, leader: p.leader, replicas: p.replicas, isr: p.isr, offlineReplicas: p.offlineReplicas,
          })),
        })),
      };
    });
  }

  async #partitions(a: WireAdmin, topic: string): Promise<number[]> {
    const [t] = await a.describeTopics([topic]);
    return t!.partitions.map((p) => p.partition).sort((x, y) => x - y);
  }

  async #offsets(a: WireAdmin, topic: string, partitions: number[], spec: 'earliest' | 'latest' | { timestamp: number }): Promise<Map<number, bigint>> {
    const listed = await a.listOffsets(partitions.map((partition) => ({ topic, partition, spec })));
    return new Map(listed.map((o) => [o.partition, o.offset]));
  }

  async fetchTopicOffsets(topic: string): Promise<(SeekEntry & { high: string; low: string })[]> {
    if (!topic || typeof topic !== 'string') throw invalid(`Invalid topic ${String(topic)}`);
    return this.#call(async (a) => {
      const partitions = await this.#partitions(a, topic);
      const [high, low] = await Promise.all([this.#offsets(a, topic, partitions, 'latest'), this.#offsets(a, topic, partitions, 'earliest')]);
      return partitions.map((partition) => ({ partition, offset: String(high.get(partition)), high: String(high.get(partition)), low: String(low.get(partition)) }));
    });
  }

  async fetchTopicOffsetsByTimestamp(topic: string, timestamp?: number): Promise<SeekEntry[]> {
    if (!topic || typeof topic !== 'string') throw invalid(`Invalid topic ${String(topic)}`);
    return this.#call(async (a) => {
      const partitions = await this.#partitions(a, topic);
      const [high, at] = await Promise.all([
        this.#offsets(a, topic, partitions, 'latest'),
        timestamp === undefined ? this.#offsets(a, topic, partitions, 'latest') : this.#offsets(a, topic, partitions, { timestamp }),
      ]);
      // No record at or after the time: the high watermark, as kafkajs answers.
      return partitions.map((partition) => ({ partition, offset: String(at.get(partition)! >= 0n ? at.get(partition) : high.get(partition)) }));
    });
  }

  // ---- group offsets ----

  async fetchOffsets(options: { groupId: string; topics?: string[]; resolveOffsets?: boolean }): Promise<{ topic: string; partitions: FetchOffsetsPartition[] }[]> {
    const { groupId, resolveOffsets = false } = options ?? ({} as typeof options);
    if (!groupId) throw invalid(`Invalid groupId ${String(groupId)}`);
    const topics = options.topics ?? [];
    if (!Array.isArray(topics)) throw invalid('Expected topics array to be set');
    const result = await this.#call(async (a) => {
      if (topics.length === 0) {
        const committed = await a.fetchOffsets(groupId);
        const byTopic = new Map<string, FetchOffsetsPartition[]>();
        for (const c of committed) byTopic.set(c.topic, [...(byTopic.get(c.topic) ?? []), { partition: c.partition, offset: String(c.offset), metadata: c.metadata || null }]);
        return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }));
      }
      const asked = await Promise.all(topics.map(async (topic) => ({ topic, partitions: await this.#partitions(a, topic) })));
      const committed = await a.fetchOffsets(groupId, asked);
      const at = new Map(committed.map((c) => [`${c.topic}\u0000${c.partition}`, c]));
      return asked.map(({ topic, partitions }) => ({
        topic,
        partitions: partitions.map((partition) => {
          const c = at.get(`${topic}\u0000${partition}`);
          return { partition, offset: c === undefined ? '-1' : String(c.offset), metadata: c?.metadata || null };
        }),
      }));
    });
    if (!resolveOffsets) return result;
    // kafkajs's resolveOffsets: a partition with no commit (-1, "latest") or -2 ("earliest") gets the
    // partition's actual offset, and that offset is committed for the group.
    return Promise.all(result.map(async ({ topic, partitions }) => {
      const ends = new Map((await this.fetchTopicOffsets(topic)).map((o) => [o.partition, o]));
      const resolved = partitions.map((p) => ({ ...p, offset: p.offset === '-1' ? ends.get(p.partition)!.high : p.offset === '-2' ? ends.get(p.partition)!.low : p.offset }));
      await this.setOffsets({ groupId, topic, partitions: resolved });
      return { topic, partitions: resolved };
    }));
  }

  async setOffsets(options: { groupId: string; topic: string; partitions: SeekEntry[] }): Promise<void> {
    const { groupId, topic, partitions } = options ?? ({} as typeof options);
    if (!groupId) throw invalid(`Invalid groupId ${String(groupId)}`);
    if (!topic) throw invalid(`Invalid topic ${String(topic)}`);
    if (!partitions || partitions.length === 0) throw invalid('Invalid partitions');
    await this.#call(async (a) => {
      const [g] = await describeGroupsRaw(a.client, [groupId]);
      if (g!.state !== 'Empty' && g!.state !== 'Dead') throw invalid(`The consumer group must have no running instances, current state: ${g!.state}`);
      // kafkajs seeks a consumer of the group: -1 and -2 are the partition's latest and earliest.
      const special = partitions.filter((p) => p.offset === '-1' || p.offset === '-2').map((p) => p.partition);
      const [high, low] = special.length === 0 ? [new Map(), new Map()] : await Promise.all([this.#offsets(a, topic, special, 'latest'), this.#offsets(a, topic, special, 'earliest')]);
      await a.alterOffsets(groupId, partitions.map((p) => ({
        topic, partition: p.partition, offset: p.offset === '-1' ? high.get(p.partition)! : p.offset === '-2' ? low.get(p.partition)! : BigInt(p.offset),
      })));
    });
  }

  async resetOffsets(options: { groupId: string; topic: string; earliest: boolean }): Promise<void> {
    const { groupId, topic, earliest = false } = options ?? ({} as typeof options);
    if (!groupId) throw invalid(`Invalid groupId ${String(groupId)}`);
    if (!topic) throw invalid(`Invalid topic ${String(topic)}`);
    const partitions = await this.#call((a) => this.#partitions(a, topic));
    await this.setOffsets({ groupId, topic, partitions: partitions.map((partition) => ({ partition, offset: earliest ? '-2' : '-1' })) });
  }

  async deleteTopicRecords(options: { topic: string; partitions: SeekEntry[] }): Promise<void> {
    const { topic, partitions } = options ?? ({} as typeof options);
    if (!topic || typeof topic !== 'string') throw invalid(`Invalid topic "${String(topic)}"`);
    if (!partitions || partitions.length === 0) throw invalid('Invalid partitions');
    const a = await this.#call((x) => Promise.resolve(x));
    try {
      await this.#instrumentation.work(() => a.deleteRecords(partitions.map((p) => ({ topic, partition: p.partition, before: BigInt(p.offset) }))));
    } catch (error) {
      if (!(error instanceof AdminError) || (error.code !== 'RESOURCES' && error.code !== 'BROKER')) throw kafkaJSAdminError(error);
      const failures = error.code === 'RESOURCES' ? error.failures : [error];
      throw new KafkaJSDeleteTopicRecordsError({
        topic,
        partitions: failures.map((f) => {
          const partition = Number(/-(\d+)$/.exec(f.resource ?? '')?.[1] ?? -1);
          return { partition, offset: partitions.find((p) => p.partition === partition)?.offset ?? '-1', error: kafkaJSAdminError(f) as KafkaJSError };
        }),
      });
    }
  }

  // ---- cluster and configs ----

  async describeCluster(): Promise<{ brokers: { nodeId: number; host: string; port: number }[]; controller: number | null; clusterId: string }> {
    return this.#call(async (a) => {
      const c = await a.describeCluster();
      return { brokers: c.brokers.map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port })), controller: c.controllerId < 0 ? null : c.controllerId, clusterId: c.clusterId };
    });
  }

  async describeConfigs(configs: { resources: ResourceConfigQuery[]; includeSynonyms: boolean }): Promise<DescribeConfigResponse> {
    const resources = checkConfigResources(configs?.resources);
    const badKeys = resources.find((r) => r.configNames !== undefined && r.configNames !== null && !Array.isArray(r.configNames));
    if (badKeys) throw invalid(`Invalid resource configNames ${String(badKeys.configNames)}: ${JSON.stringify(badKeys)}`);
    return this.#call(async (a) => {
      const described = await a.describeConfigs(
        resources.map((r) => ({ type: CONFIG_TYPE_NAMES[r.type]!, name: r.name, keys: r.configNames ?? undefined })),
        { synonyms: configs.includeSynonyms ?? false },
      );
      const source = (s: string) => Math.max(0, CONFIG_SOURCES.indexOf(s as never));
      // kafkajs resolves to { resources } alone (its types add throttleTime), each with errorMessage ''.
      return {
        resources: described.map((d) => ({
          errorCode: 0, errorMessage: '', resourceType: CONFIG_TYPE_CODES[d.type] as ConfigResourceTypes, resourceName: d.name,
          configEntries: d.entries.map((e) => ({
            configName: e.name, configValue: e.value as string, readOnly: e.readOnly, isDefault: e.isDefault, configSource: source(e.source), isSensitive: e.isSensitive,
            configSynonyms: e.synonyms.map((s) => ({ configName: s.name, configValue: s.value as string, configSource: source(s.source) })),
          })),
        })),
      } as DescribeConfigResponse;
    });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's declared result
  async alterConfigs(configs: { validateOnly: boolean; resources: IResourceConfig[] }): Promise<any> {
    const resources = checkConfigResources(configs?.resources);
    const badEntries = resources.find((r) => !Array.isArray(r.configEntries));
    if (badEntries) throw invalid(`Invalid resource configEntries ${String(badEntries.configEntries)}: ${JSON.stringify(badEntries)}`);
    const badValue = resources.find((r) => r.configEntries.some((e) => typeof e.name !== 'string' || typeof e.value !== 'string'));
    if (badValue) throw invalid(`Invalid resource config value: ${JSON.stringify(badValue)}`);
    return this.#call(async (a) => {
      // AlterConfigs (kafkajs's) replaces the dynamic configs: the ones not given are deleted.
      const current = await a.describeConfigs(resources.map((r) => ({ type: CONFIG_TYPE_NAMES[r.type]!, name: r.name })), { synonyms: false });
      const alterations = resources.map((r, i) => {
        const given = new Set(r.configEntries.map((e) => e.name));
        const dropped = current[i]!.entries.filter((e) => e.source.startsWith('DYNAMIC_') && !given.has(e.name)).map((e) => ({ name: e.name, op: 'delete' as const }));
        return { type: CONFIG_TYPE_NAMES[r.type]!, name: r.name, changes: [...r.configEntries.map((e) => ({ name: e.name, value: e.value })), ...dropped] };
      });
      // An empty change list (nothing given, nothing dynamic) changes nothing: skip the resource.
      const toSend = alterations.filter((x) => x.changes.length > 0);
      if (toSend.length > 0) await a.alterConfigs(toSend, { validateOnly: !!configs.validateOnly });
      return { resources: resources.map((r) => ({ errorCode: 0, errorMessage: null, resourceType: r.type, resourceName: r.name })) };
    });
  }

  // ---- groups ----

  async listGroups(): Promise<{ groups: { groupId: string; protocolType: string }[] }> {
    return this.#call(async (a) => ({ groups: (await a.listGroups()).map((g) => ({ groupId: g.groupId, protocolType: g.protocolType })) }));
  }

  async describeGroups(groupIds: string[]): Promise<GroupDescriptions> {
    return this.#call(async (a) => ({ groups: await describeGroupsRaw(a.client, groupIds) }));
  }

  async deleteGroups(groupIds: string[]): Promise<DeleteGroupsResult[]> {
    if (!groupIds || !Array.isArray(groupIds)) throw invalid(`Invalid groupIds array ${String(groupIds)}`);
    if (groupIds.some((g) => typeof g !== 'string')) throw invalid('Invalid groupId name: true');
    if (groupIds.length === 0) return [];
    const a = await this.#call((x) => Promise.resolve(x));
    try {
      await this.#instrumentation.work(() => a.deleteGroups(groupIds));
      return groupIds.map((groupId) => ({ groupId, errorCode: 0 }));
    } catch (error) {
      if (!(error instanceof AdminError) || (error.code !== 'RESOURCES' && error.code !== 'BROKER')) throw kafkaJSAdminError(error);
      const failures = error.code === 'RESOURCES' ? error.failures : [error];
      throw new KafkaJSDeleteGroupsError('Error in DeleteGroups', failures.map((f) => ({
        groupId: f.resource?.replace(/^group /, '') ?? '', errorCode: f.errorCode, error: kafkaJSAdminError(f) as KafkaJSProtocolError,
      })));
    }
  }

  // ---- ACLs ----

  async createAcls(options: { acl: AclEntry[] }): Promise<boolean> {
    const acl = options?.acl;
    if (!acl || !Array.isArray(acl)) throw invalid(`Invalid ACL array ${String(acl)}`);
    if (acl.length === 0) throw invalid('Empty ACL array');
    checkAcls(acl, 'ACL', false);
    await this.#call((a) => a.createAcls(acl.map((x) => wireFilter(x) as AclBinding)));
    return true;
  }

  async describeAcls(options: AclFilter): Promise<DescribeAclResponse> {
    const f = options ?? ({} as AclFilter);
    checkAcls([f], 'ACL filter', true);
    return this.#call(async (a) => {
      const found = await a.describeAcls(wireFilter(f));
      const resources = new Map<string, DescribeAclResource>();
      for (const b of found) {
        const e = aclEntry(b);
        const key = `${e.resourceType}\u0000${e.resourceName}\u0000${e.resourcePatternType}`;
        let r = resources.get(key);
        if (r === undefined) resources.set(key, r = { resourceType: e.resourceType, resourceName: e.resourceName, resourcePatternType: e.resourcePatternType, acls: [] });
        r.acls.push({ principal: e.principal, host: e.host, operation: e.operation, permissionType: e.permissionType } satisfies Acl);
      }
      // kafkajs resolves to { resources } alone (its types add throttleTime and errorCode).
      return { resources: [...resources.values()] } as DescribeAclResponse;
    });
  }

  async deleteAcls(options: { filters: AclFilter[] }): Promise<DeleteAclResponse> {
    const filters = options?.filters;
    if (!filters || !Array.isArray(filters)) throw invalid(`Invalid ACL Filter array ${String(filters)}`);
    if (filters.length === 0) throw invalid('Empty ACL Filter array');
    checkAcls(filters, 'ACL Filter', true);
    return this.#call(async (a) => {
      const deleted = await a.deleteAcls(filters.map(wireFilter));
      // kafkajs resolves to { filterResponses } alone (its types add throttleTime).
      return {
        filterResponses: deleted.map((list) => ({
          errorCode: 0, errorMessage: null as unknown as string,
          matchingAcls: list.map((b) => ({ errorCode: 0, errorMessage: null as unknown as string, ...aclEntry(b) })),
        })),
      } as DeleteAclResponse;
    });
  }

  // ---- reassignments ----

  async alterPartitionReassignments(request: { topics: PartitionReassignment[]; timeout?: number }): Promise<void> {
    const topics = checkTopics(request?.topics, 'topics');
    for (const { topic, partitionAssignment } of topics) {
      if (!partitionAssignment || !Array.isArray(partitionAssignment)) throw invalid(`Invalid partitions array: ${String(partitionAssignment)} for topic: ${topic}`);
      for (const { partition, replicas } of partitionAssignment) {
        if (typeof partition !== 'number' || partition < 0) throw invalid(`Invalid partitions index: ${String(partition)} for topic: ${topic}`);
        if (!replicas || !Array.isArray(replicas)) throw invalid(`Invalid replica assignment: ${String(replicas)} for topic: ${topic} on partition: ${partition}`);
        if (replicas.some((r) => typeof r !== 'number' || r < 0)) {
          throw invalid(`Invalid replica assignment: ${String(replicas)} for topic: ${topic} on partition: ${partition}. Replicas must be a non negative number`);
        }
      }
    }
    const a = await this.#call((x) => Promise.resolve(x));
    try {
      await this.#instrumentation.work(() => a.alterPartitionReassignments(topics.flatMap((t) => t.partitionAssignment.map((p) => ({ topic: t.topic, partition: p.partition, replicas: p.replicas })))));
    } catch (error) {
      if (!(error instanceof AdminError) || (error.code !== 'RESOURCES' && error.code !== 'BROKER')) throw kafkaJSAdminError(error);
      // kafkajs: one KafkaJSAlterPartitionReassignmentsError per refused partition, in an aggregate.
      const failures = error.code === 'RESOURCES' ? error.failures : [error];
      throw new KafkaJSAggregateError('Errors altering partition reassignments', failures.map((f) => {
        const [, topic, partition] = /^(.*)-(\d+)$/.exec(f.resource ?? '') ?? [];
        const e = new KafkaJSAlterPartitionReassignmentsError(kafkaJSAdminError(f) as Error, topic, partition === undefined ? undefined : Number(partition));
        return e;
      }));
    }
  }

  async listPartitionReassignments(request: { topics?: TopicPartitions[]; timeout?: number }): Promise<ListPartitionReassignmentsResponse> {
    const topics = request?.topics ?? null;
    if (topics) {
      checkTopics(topics, 'topics');
      for (const { topic, partitions } of topics) {
        if (!partitions || !Array.isArray(partitions)) throw invalid(`Invalid partition array: ${String(partitions)} for topic: ${topic}`);
        if (partitions.some((p) => typeof p !== 'number' || p < 0)) {
          throw invalid(`Invalid partition array: ${String(partitions)} for topic: ${topic}. The partition indices have to be a valid number greater than 0.`);
        }
      }
    }
    return this.#call(async (a) => {
      const list = await a.listPartitionReassignments(topics?.flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition }))));
      const byTopic = new Map<string, ListPartitionReassignmentsResponse['topics'][number]>();
      for (const r of list) {
        let t = byTopic.get(r.topic);
        // kafkajs resolves to { name, partitions: [{ partition, ... }] } although its types say
        // topic and partitionIndex: both names are given, so code written either way works.
        if (t === undefined) byTopic.set(r.topic, t = { topic: r.topic, name: r.topic, partitions: [] } as ListPartitionReassignmentsResponse['topics'][number]);
        t.partitions.push({ partitionIndex: r.partition, partition: r.partition, replicas: r.replicas, addingReplicas: r.addingReplicas, removingReplicas: r.removingReplicas } as never);
      }
      return { topics: [...byTopic.values()] };
    });
  }

  // ---- the rest ----

  on(eventName: string, listener: (event: never) => void): () => void {
    return this.#instrumentation.on(eventName, Object.values(ADMIN_EVENTS), listener);
  }

  logger(): Logger { return this.#context.logger; }
}
