// The types of kafkajs 2.2.4's API, declared for kafka-wire/kafkajs, so an app written against
// kafkajs compiles unchanged: configuration, messages, metadata, payloads, events, producer,
// transaction and consumer. (Values are Buffer and strings as in kafkajs, not kafka-wire's
// Uint8Array and bigint.)
/// <reference types="node" />
import type * as tls from 'node:tls';
import type * as net from 'node:net';
import type { Logger, logCreator, logLevel } from './logger.js';
import type {
  AclOperationTypes, AclPermissionTypes, AclResourceTypes, CompressionTypes, ConfigResourceTypes, ConfigSource, ResourcePatternTypes,
} from './constants.js';
import type { KafkaJSProtocolError } from './errors.js';

type Without<T, U> = { [P in Exclude<keyof T, keyof U>]?: never };
type XOR<T, U> = T | U extends object ? (Without<T, U> & U) | (Without<U, T> & T) : T | U;
type ValueOf<T> = T[keyof T];

export type BrokersFunction = () => string[] | Promise<string[]>;

export type Authenticator = { authenticate: () => Promise<void> };
export type SaslAuthenticateArgs<ParseResult> = {
  request: { encode: () => Buffer | Promise<Buffer> };
  response?: { decode: (rawResponse: Buffer) => Buffer | Promise<Buffer>; parse: (data: Buffer) => ParseResult };
};
export type AuthenticationProviderArgs = {
  host: string;
  port: number;
  logger: Logger;
  saslAuthenticate: <ParseResult>(args: SaslAuthenticateArgs<ParseResult>) => Promise<ParseResult | void>;
};
export type Mechanism = { mechanism: string; authenticationProvider: (args: AuthenticationProviderArgs) => Authenticator };

export interface OauthbearerProviderResponse { value: string }
type SASLMechanismOptionsMap = {
  plain: { username: string; password: string };
  'scram-sha-256': { username: string; password: string };
  'scram-sha-512': { username: string; password: string };
  aws: { authorizationIdentity: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  oauthbearer: { oauthBearerProvider: () => Promise<OauthbearerProviderResponse> };
};
export type SASLMechanism = keyof SASLMechanismOptionsMap;
type SASLMechanismOptions<T> = T extends SASLMechanism ? { mechanism: T } & SASLMechanismOptionsMap[T] : never;
export type SASLOptions = SASLMechanismOptions<SASLMechanism>;

export interface ISocketFactoryArgs { host: string; port: number; ssl: tls.ConnectionOptions; onConnect: () => void }
export type ISocketFactory = (args: ISocketFactoryArgs) => net.Socket;

export interface RetryOptions {
  maxRetryTime?: number;
  initialRetryTime?: number;
  factor?: number;
  multiplier?: number;
  retries?: number;
  restartOnFailure?: (e: Error) => Promise<boolean>;
}

export interface KafkaConfig {
  brokers: string[] | BrokersFunction;
  ssl?: tls.ConnectionOptions | boolean;
  sasl?: SASLOptions | Mechanism;
  clientId?: string;
  connectionTimeout?: number;
  authenticationTimeout?: number;
  reauthenticationThreshold?: number;
  requestTimeout?: number;
  enforceRequestTimeout?: boolean;
  retry?: RetryOptions;
  socketFactory?: ISocketFactory;
  logLevel?: logLevel;
  logCreator?: logCreator;
}

export interface ProducerConfig {
  createPartitioner?: ICustomPartitioner;
  retry?: RetryOptions;
  metadataMaxAge?: number;
  allowAutoTopicCreation?: boolean;
  idempotent?: boolean;
  transactionalId?: string;
  transactionTimeout?: number;
  maxInFlightRequests?: number;
}

export interface IHeaders { [key: string]: Buffer | string | (Buffer | string)[] | undefined }

export interface Message {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  partition?: number;
  headers?: IHeaders;
  timestamp?: string;
}

export type PartitionMetadata = {
  partitionErrorCode: number;
  partitionId: number;
  leader: number;
  replicas: number[];
  isr: number[];
  offlineReplicas?: number[];
};

// ---- partitioners (./partitioners.ts has kafkajs's two) ----

export interface PartitionerArgs { topic: string; partitionMetadata: PartitionMetadata[]; message: Message }
export type ICustomPartitioner = () => (args: PartitionerArgs) => number;
export type DefaultPartitioner = ICustomPartitioner;
export type LegacyPartitioner = ICustomPartitioner;

export type Assignment = { [topic: string]: number[] };
export type GroupMember = { memberId: string; memberMetadata: Buffer };
export type GroupMemberAssignment = { memberId: string; memberAssignment: Buffer };
export type GroupState = { name: string; metadata: Buffer };
export type Assigner = {
  name: string;
  version: number;
  assign(group: { members: GroupMember[]; topics: string[] }): Promise<GroupMemberAssignment[]>;
  protocol(subscription: { topics: string[] }): GroupState;
};
/** What an assigner is built from; kafka-wire gives `cluster` only the calls its own assigner needs. */
export type Cluster = {
  findTopicPartitionMetadata(topic: string): PartitionMetadata[];
  [call: string]: unknown;
};
export type PartitionAssigner = (config: { cluster: Cluster; groupId: string; logger: Logger }) => Assigner;

export interface ConsumerConfig {
  groupId: string;
  partitionAssigners?: PartitionAssigner[];
  metadataMaxAge?: number;
  sessionTimeout?: number;
  rebalanceTimeout?: number;
  heartbeatInterval?: number;
  maxBytesPerPartition?: number;
  minBytes?: number;
  maxBytes?: number;
  maxWaitTimeInMs?: number;
  retry?: RetryOptions & { restartOnFailure?: (err: Error) => Promise<boolean> };
  allowAutoTopicCreation?: boolean;
  maxInFlightRequests?: number;
  readUncommitted?: boolean;
  rackId?: string;
  /**
   * kafka-wire's addition: the group protocol. 'classic' (JoinGroup/SyncGroup, kafkajs's only
   * one, the default) or 'consumer' (KIP-848: the broker assigns; partitionAssigners unused).
   */
  groupProtocol?: 'classic' | 'consumer';
}

export interface AdminConfig { retry?: RetryOptions }

export interface InstrumentationEvent<T> { id: string; type: string; timestamp: number; payload: T }
export type RemoveInstrumentationEventListener<T> = () => void; // eslint-disable-line @typescript-eslint/no-unused-vars -- kafkajs's declared shape
export type ConnectEvent = InstrumentationEvent<null>;
export type DisconnectEvent = InstrumentationEvent<null>;
export type RequestEvent = InstrumentationEvent<{
  apiKey: number; apiName: string; apiVersion: number; broker: string; clientId: string; correlationId: number;
  createdAt: number; duration: number; pendingDuration: number; sentAt: number; size: number;
}>;
export type RequestTimeoutEvent = InstrumentationEvent<{
  apiKey: number; apiName: string; apiVersion: number; broker: string; clientId: string; correlationId: number;
  createdAt: number; pendingDuration: number; sentAt: number;
}>;
export type RequestQueueSizeEvent = InstrumentationEvent<{ broker: string; clientId: string; queueSize: number }>;

export type SeekEntry = PartitionOffset;

interface MessageSetEntry {
  key: Buffer | null; value: Buffer | null; timestamp: string; attributes: number; offset: string; size: number; headers?: never;
}
interface RecordBatchEntry {
  key: Buffer | null; value: Buffer | null; timestamp: string; attributes: number; offset: string; headers: IHeaders; size?: never;
}
export type KafkaMessage = MessageSetEntry | RecordBatchEntry;

export interface ProducerRecord { topic: string; messages: Message[]; acks?: number; timeout?: number; compression?: CompressionTypes }
export type RecordMetadata = {
  topicName: string;
  partition: number;
  errorCode: number;
  offset?: string;
  timestamp?: string;
  baseOffset?: string;
  logAppendTime?: string;
  logStartOffset?: string;
};
export interface TopicMessages { topic: string; messages: Message[] }
export interface ProducerBatch { acks?: number; timeout?: number; compression?: CompressionTypes; topicMessages?: TopicMessages[] }
export interface PartitionOffset { partition: number; offset: string }
export interface TopicOffsets { topic: string; partitions: PartitionOffset[] }
export interface Offsets { topics: TopicOffsets[] }

type Sender = {
  send(record: ProducerRecord): Promise<RecordMetadata[]>;
  sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]>;
};

export type ProducerEvents = {
  CONNECT: 'producer.connect';
  DISCONNECT: 'producer.disconnect';
  REQUEST: 'producer.network.request';
  REQUEST_TIMEOUT: 'producer.network.request_timeout';
  REQUEST_QUEUE_SIZE: 'producer.network.request_queue_size';
};

type Listen<E, Name, Event> = (eventName: Name, listener: (event: Event) => void) => RemoveInstrumentationEventListener<E>;

export type Producer = Sender & {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  isIdempotent(): boolean;
  readonly events: ProducerEvents;
  on: Listen<ProducerEvents['CONNECT'], ProducerEvents['CONNECT'], ConnectEvent>
    & Listen<ProducerEvents['DISCONNECT'], ProducerEvents['DISCONNECT'], DisconnectEvent>
    & Listen<ProducerEvents['REQUEST'], ProducerEvents['REQUEST'], RequestEvent>
    & Listen<ProducerEvents['REQUEST_QUEUE_SIZE'], ProducerEvents['REQUEST_QUEUE_SIZE'], RequestQueueSizeEvent>
    & Listen<ProducerEvents['REQUEST_TIMEOUT'], ProducerEvents['REQUEST_TIMEOUT'], RequestTimeoutEvent>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's catch-all listener
    & Listen<ValueOf<ProducerEvents>, ValueOf<ProducerEvents>, InstrumentationEvent<any>>;
  transaction(): Promise<Transaction>;
  logger(): Logger;
};

export type Transaction = Sender & {
  sendOffsets(offsets: Offsets & { consumerGroupId: string }): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  isActive(): boolean;
};

export type MemberDescription = { clientHost: string; clientId: string; memberId: string; memberAssignment: Buffer; memberMetadata: Buffer };
export type ConsumerGroupState = 'Unknown' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead' | 'Empty';
export type GroupDescription = { groupId: string; members: MemberDescription[]; protocol: string; protocolType: string; state: ConsumerGroupState };
export type GroupDescriptions = { groups: GroupDescription[] };
export type TopicPartitions = { topic: string; partitions: number[] };
export type TopicPartition = { topic: string; partition: number };
export type TopicPartitionOffset = TopicPartition & { offset: string };
export type TopicPartitionOffsetAndMetadata = TopicPartitionOffset & { metadata?: string | null };

export type Batch = {
  topic: string;
  partition: number;
  highWatermark: string;
  messages: KafkaMessage[];
  isEmpty(): boolean;
  firstOffset(): string | null;
  lastOffset(): string;
  offsetLag(): string;
  offsetLagLow(): string;
};

export type ConsumerEvents = {
  HEARTBEAT: 'consumer.heartbeat';
  COMMIT_OFFSETS: 'consumer.commit_offsets';
  GROUP_JOIN: 'consumer.group_join';
  FETCH_START: 'consumer.fetch_start';
  FETCH: 'consumer.fetch';
  START_BATCH_PROCESS: 'consumer.start_batch_process';
  END_BATCH_PROCESS: 'consumer.end_batch_process';
  CONNECT: 'consumer.connect';
  DISCONNECT: 'consumer.disconnect';
  STOP: 'consumer.stop';
  CRASH: 'consumer.crash';
  REBALANCING: 'consumer.rebalancing';
  RECEIVED_UNSUBSCRIBED_TOPICS: 'consumer.received_unsubscribed_topics';
  REQUEST: 'consumer.network.request';
  REQUEST_TIMEOUT: 'consumer.network.request_timeout';
  REQUEST_QUEUE_SIZE: 'consumer.network.request_queue_size';
};

export type ConsumerHeartbeatEvent = InstrumentationEvent<{ groupId: string; memberId: string; groupGenerationId: number }>;
export type ConsumerCommitOffsetsEvent = InstrumentationEvent<{ groupId: string; memberId: string; groupGenerationId: number; topics: TopicOffsets[] }>;
export interface IMemberAssignment { [key: string]: number[] }
export type ConsumerGroupJoinEvent = InstrumentationEvent<{
  duration: number; groupId: string; isLeader: boolean; leaderId: string; groupProtocol: string; memberId: string; memberAssignment: IMemberAssignment;
}>;
export type ConsumerFetchStartEvent = InstrumentationEvent<{ nodeId: number }>;
export type ConsumerFetchEvent = InstrumentationEvent<{ numberOfBatches: number; duration: number; nodeId: number }>;
interface IBatchProcessEvent {
  topic: string; partition: number; highWatermark: string; offsetLag: string; offsetLagLow: string; batchSize: number; firstOffset: string; lastOffset: string;
}
export type ConsumerStartBatchProcessEvent = InstrumentationEvent<IBatchProcessEvent>;
export type ConsumerEndBatchProcessEvent = InstrumentationEvent<IBatchProcessEvent & { duration: number }>;
export type ConsumerCrashEvent = InstrumentationEvent<{ error: Error; groupId: string; restart: boolean }>;
export type ConsumerRebalancingEvent = InstrumentationEvent<{ groupId: string; memberId: string }>;
export type ConsumerReceivedUnsubcribedTopicsEvent = InstrumentationEvent<{
  groupId: string; generationId: number; memberId: string; assignedTopics: string[]; topicsSubscribed: string[]; topicsNotSubscribed: string[];
}>;

export interface OffsetsByTopicPartition { topics: TopicOffsets[] }

export interface EachMessagePayload {
  topic: string;
  partition: number;
  message: KafkaMessage;
  heartbeat(): Promise<void>;
  pause(): () => void;
}
export interface EachBatchPayload {
  batch: Batch;
  resolveOffset(offset: string): void;
  heartbeat(): Promise<void>;
  pause(): () => void;
  commitOffsetsIfNecessary(offsets?: Offsets): Promise<void>;
  uncommittedOffsets(): OffsetsByTopicPartition;
  isRunning(): boolean;
  isStale(): boolean;
}
export type ConsumerEachMessagePayload = EachMessagePayload;
export type ConsumerEachBatchPayload = EachBatchPayload;
export type EachBatchHandler = (payload: EachBatchPayload) => Promise<void>;
export type EachMessageHandler = (payload: EachMessagePayload) => Promise<void>;

export type ConsumerRunConfig = {
  autoCommit?: boolean;
  autoCommitInterval?: number | null;
  autoCommitThreshold?: number | null;
  eachBatchAutoResolve?: boolean;
  partitionsConsumedConcurrently?: number;
  eachBatch?: EachBatchHandler;
  eachMessage?: EachMessageHandler;
};

export type ConsumerSubscribeTopic = { topic: string | RegExp; fromBeginning?: boolean };
export type ConsumerSubscribeTopics = { topics: (string | RegExp)[]; fromBeginning?: boolean };

export type Consumer = {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  subscribe(subscription: ConsumerSubscribeTopics | ConsumerSubscribeTopic): Promise<void>;
  stop(): Promise<void>;
  run(config?: ConsumerRunConfig): Promise<void>;
  commitOffsets(topicPartitions: Array<TopicPartitionOffsetAndMetadata>): Promise<void>;
  seek(topicPartitionOffset: TopicPartitionOffset): void;
  describeGroup(): Promise<GroupDescription>;
  pause(topics: Array<{ topic: string; partitions?: number[] }>): void;
  paused(): TopicPartitions[];
  resume(topics: Array<{ topic: string; partitions?: number[] }>): void;
  on: Listen<ConsumerEvents['HEARTBEAT'], ConsumerEvents['HEARTBEAT'], ConsumerHeartbeatEvent>
    & Listen<ConsumerEvents['COMMIT_OFFSETS'], ConsumerEvents['COMMIT_OFFSETS'], ConsumerCommitOffsetsEvent>
    & Listen<ConsumerEvents['GROUP_JOIN'], ConsumerEvents['GROUP_JOIN'], ConsumerGroupJoinEvent>
    & Listen<ConsumerEvents['FETCH_START'], ConsumerEvents['FETCH_START'], ConsumerFetchStartEvent>
    & Listen<ConsumerEvents['FETCH'], ConsumerEvents['FETCH'], ConsumerFetchEvent>
    & Listen<ConsumerEvents['START_BATCH_PROCESS'], ConsumerEvents['START_BATCH_PROCESS'], ConsumerStartBatchProcessEvent>
    & Listen<ConsumerEvents['END_BATCH_PROCESS'], ConsumerEvents['END_BATCH_PROCESS'], ConsumerEndBatchProcessEvent>
    & Listen<ConsumerEvents['CONNECT'], ConsumerEvents['CONNECT'], ConnectEvent>
    & Listen<ConsumerEvents['DISCONNECT'], ConsumerEvents['DISCONNECT'], DisconnectEvent>
    & Listen<ConsumerEvents['STOP'], ConsumerEvents['STOP'], InstrumentationEvent<null>>
    & Listen<ConsumerEvents['CRASH'], ConsumerEvents['CRASH'], ConsumerCrashEvent>
    & Listen<ConsumerEvents['REBALANCING'], ConsumerEvents['REBALANCING'], ConsumerRebalancingEvent>
    & Listen<ConsumerEvents['RECEIVED_UNSUBSCRIBED_TOPICS'], ConsumerEvents['RECEIVED_UNSUBSCRIBED_TOPICS'], ConsumerReceivedUnsubcribedTopicsEvent>
    & Listen<ConsumerEvents['REQUEST'], ConsumerEvents['REQUEST'], RequestEvent>
    & Listen<ConsumerEvents['REQUEST_TIMEOUT'], ConsumerEvents['REQUEST_TIMEOUT'], RequestTimeoutEvent>
    & Listen<ConsumerEvents['REQUEST_QUEUE_SIZE'], ConsumerEvents['REQUEST_QUEUE_SIZE'], RequestQueueSizeEvent>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's catch-all listener
    & Listen<ValueOf<ConsumerEvents>, ValueOf<ConsumerEvents>, InstrumentationEvent<any>>;
  logger(): Logger;
  readonly events: ConsumerEvents;
};

export interface ISerializer<T> { encode(value: T): Buffer; decode(buffer: Buffer): T | null }
export type MemberMetadata = { version: number; topics: string[]; userData: Buffer };
export type MemberAssignment = { version: number; assignment: Assignment; userData: Buffer };

export type { XOR };

// ---- the admin client's types (kafka.admin() is declared with them; see index.ts) ----

export interface ITopicConfig {
  topic: string;
  numPartitions?: number;
  replicationFactor?: number;
  replicaAssignment?: ReplicaAssignment[];
  configEntries?: IResourceConfigEntry[];
}
export interface ITopicPartitionConfig { topic: string; count: number; assignments?: Array<Array<number>> }
export interface ITopicMetadata { name: string; partitions: PartitionMetadata[] }
export interface ReplicaAssignment { partition: number; replicas: Array<number> }
export interface PartitionReassignment { topic: string; partitionAssignment: Array<ReplicaAssignment> }
export interface ResourceConfigQuery { type: ConfigResourceTypes; name: string; configNames?: string[] }
export interface ConfigSynonyms { configName: string; configValue: string; configSource: ConfigSource }
export interface ConfigEntries {
  configName: string; configValue: string; isDefault: boolean; configSource: ConfigSource; isSensitive: boolean; readOnly: boolean;
  configSynonyms: ConfigSynonyms[];
}
export interface DescribeConfigResponse {
  resources: { configEntries: ConfigEntries[]; errorCode: number; errorMessage: string; resourceName: string; resourceType: ConfigResourceTypes }[];
  throttleTime: number;
}
export interface IResourceConfigEntry { name: string; value: string }
export interface IResourceConfig { type: ConfigResourceTypes; name: string; configEntries: IResourceConfigEntry[] }
export type FetchOffsetsPartition = PartitionOffset & { metadata: string | null };
export interface Acl { principal: string; host: string; operation: AclOperationTypes; permissionType: AclPermissionTypes }
export interface AclResource { resourceType: AclResourceTypes; resourceName: string; resourcePatternType: ResourcePatternTypes }
export type AclEntry = Acl & AclResource;
export type DescribeAclResource = AclResource & { acls: Acl[] };
export interface DescribeAclResponse { throttleTime: number; errorCode: number; errorMessage?: string; resources: DescribeAclResource[] }
export interface AclFilter {
  resourceType: AclResourceTypes; resourceName?: string; resourcePatternType: ResourcePatternTypes; principal?: string; host?: string;
  operation: AclOperationTypes; permissionType: AclPermissionTypes;
}
export interface MatchingAcl {
  errorCode: number; errorMessage?: string; resourceType: AclResourceTypes; resourceName: string; resourcePatternType: ResourcePatternTypes;
  principal: string; host: string; operation: AclOperationTypes; permissionType: AclPermissionTypes;
}
export interface DeleteAclFilterResponses { errorCode: number; errorMessage?: string; matchingAcls: MatchingAcl[] }
export interface DeleteAclResponse { throttleTime: number; filterResponses: DeleteAclFilterResponses[] }
export interface OngoingPartitionReassignment { partitionIndex: number; replicas: number[]; addingReplicas?: number[]; removingReplicas?: number[] }
export interface OngoingTopicReassignment { topic: string; partitions: OngoingPartitionReassignment[] }
export interface ListPartitionReassignmentsResponse { topics: OngoingTopicReassignment[] }
export type GroupOverview = { groupId: string; protocolType: string };
export type DeleteGroupsResult = { groupId: string; errorCode?: number; error?: KafkaJSProtocolError };

export type AdminEvents = {
  CONNECT: 'admin.connect';
  DISCONNECT: 'admin.disconnect';
  REQUEST: 'admin.network.request';
  REQUEST_TIMEOUT: 'admin.network.request_timeout';
  REQUEST_QUEUE_SIZE: 'admin.network.request_queue_size';
};

export type Admin = {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  listTopics(): Promise<string[]>;
  createTopics(options: { validateOnly?: boolean; waitForLeaders?: boolean; timeout?: number; topics: ITopicConfig[] }): Promise<boolean>;
  deleteTopics(options: { topics: string[]; timeout?: number }): Promise<void>;
  createPartitions(options: { validateOnly?: boolean; timeout?: number; topicPartitions: ITopicPartitionConfig[] }): Promise<boolean>;
  fetchTopicMetadata(options?: { topics: string[] }): Promise<{ topics: Array<ITopicMetadata> }>;
  fetchOffsets(options: { groupId: string; topics?: string[]; resolveOffsets?: boolean }): Promise<Array<{ topic: string; partitions: FetchOffsetsPartition[] }>>;
  fetchTopicOffsets(topic: string): Promise<Array<SeekEntry & { high: string; low: string }>>;
  fetchTopicOffsetsByTimestamp(topic: string, timestamp?: number): Promise<Array<SeekEntry>>;
  describeCluster(): Promise<{ brokers: Array<{ nodeId: number; host: string; port: number }>; controller: number | null; clusterId: string }>;
  setOffsets(options: { groupId: string; topic: string; partitions: SeekEntry[] }): Promise<void>;
  resetOffsets(options: { groupId: string; topic: string; earliest: boolean }): Promise<void>;
  describeConfigs(configs: { resources: ResourceConfigQuery[]; includeSynonyms: boolean }): Promise<DescribeConfigResponse>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's declared result
  alterConfigs(configs: { validateOnly: boolean; resources: IResourceConfig[] }): Promise<any>;
  listGroups(): Promise<{ groups: GroupOverview[] }>;
  deleteGroups(groupIds: string[]): Promise<DeleteGroupsResult[]>;
  describeGroups(groupIds: string[]): Promise<GroupDescriptions>;
  describeAcls(options: AclFilter): Promise<DescribeAclResponse>;
  deleteAcls(options: { filters: AclFilter[] }): Promise<DeleteAclResponse>;
  createAcls(options: { acl: AclEntry[] }): Promise<boolean>;
  deleteTopicRecords(options: { topic: string; partitions: SeekEntry[] }): Promise<void>;
  alterPartitionReassignments(request: { topics: PartitionReassignment[]; timeout?: number }): Promise<void>;
  listPartitionReassignments(request: { topics?: TopicPartitions[]; timeout?: number }): Promise<ListPartitionReassignmentsResponse>;
  logger(): Logger;
  on: Listen<AdminEvents['CONNECT'], AdminEvents['CONNECT'], ConnectEvent>
    & Listen<AdminEvents['DISCONNECT'], AdminEvents['DISCONNECT'], DisconnectEvent>
    & Listen<AdminEvents['REQUEST'], AdminEvents['REQUEST'], RequestEvent>
    & Listen<AdminEvents['REQUEST_QUEUE_SIZE'], AdminEvents['REQUEST_QUEUE_SIZE'], RequestQueueSizeEvent>
    & Listen<AdminEvents['REQUEST_TIMEOUT'], AdminEvents['REQUEST_TIMEOUT'], RequestTimeoutEvent>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs's catch-all listener
    & Listen<ValueOf<AdminEvents>, ValueOf<AdminEvents>, InstrumentationEvent<any>>;
  readonly events: AdminEvents;
};
