// The KafkaJS error classes (names, `retriable`, the extra fields kafkajs gives each), so an app's
// `instanceof KafkaJSProtocolError` and `e.type === 'UNKNOWN_TOPIC_OR_PARTITION'` keep working,
// and `fromWire()`, which turns kafka-wire's own errors (ConnectionError, ProducerError,
// ConsumerError) into them.
import { ConnectionError } from '../wire/errors.js';
import { ProducerError } from '../producer/index.js';
import { ConsumerError } from '../consumer/index.js';

export interface KafkaJSErrorMetadata { retriable?: boolean; topic?: string; partitionId?: number; metadata?: unknown }

const messageOf = (e: Error | string) => (typeof e === 'string' ? e : e.message);

export class KafkaJSError extends Error {
  override readonly name: string = 'KafkaJSError';
  readonly retriable: boolean;
  readonly helpUrl?: string;
  override readonly cause?: Error;

  constructor(e: Error | string, metadata: KafkaJSErrorMetadata = {}) {
    super(messageOf(e));
    this.retriable = metadata.retriable ?? true;
    if (e instanceof Error) this.cause = e;
  }
}

export class KafkaJSNonRetriableError extends KafkaJSError {
  override readonly name: string = 'KafkaJSNonRetriableError';
  constructor(e: Error | string, metadata: KafkaJSErrorMetadata = {}) { super(e, { ...metadata, retriable: false }); }
}

/** One Kafka error code: the name kafkajs gives it and whether a retry may succeed (Kafka's RetriableException). */
interface ProtocolErrorInfo { type: string; retriable: boolean }

/**
 * Kafka's error codes by the names kafkajs uses (a few are Kafka's older names, e.g.
 * NOT_LEADER_FOR_PARTITION for what Kafka now calls NOT_LEADER_OR_FOLLOWER), and whether each
 * is retriable. Codes not listed are reported as KAFKAJS_UNKNOWN_ERROR_CODE, not retriable.
 */
const PROTOCOL_ERRORS: Record<number, ProtocolErrorInfo> = {
  [-1]: { type: 'UNKNOWN', retriable: false },
  1: { type: 'OFFSET_OUT_OF_RANGE', retriable: false },
  2: { type: 'CORRUPT_MESSAGE', retriable: true },
  3: { type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true },
  4: { type: 'INVALID_FETCH_SIZE', retriable: false },
  5: { type: 'LEADER_NOT_AVAILABLE', retriable: true },
  6: { type: 'NOT_LEADER_FOR_PARTITION', retriable: true },
  7: { type: 'REQUEST_TIMED_OUT', retriable: true },
  8: { type: 'BROKER_NOT_AVAILABLE', retriable: false },
  9: { type: 'REPLICA_NOT_AVAILABLE', retriable: true },
  10: { type: 'MESSAGE_TOO_LARGE', retriable: false },
  11: { type: 'STALE_CONTROLLER_EPOCH', retriable: false },
  12: { type: 'OFFSET_METADATA_TOO_LARGE', retriable: false },
  13: { type: 'NETWORK_EXCEPTION', retriable: true },
  14: { type: 'GROUP_LOAD_IN_PROGRESS', retriable: true },
  15: { type: 'GROUP_COORDINATOR_NOT_AVAILABLE', retriable: true },
  16: { type: 'NOT_COORDINATOR_FOR_GROUP', retriable: true },
  17: { type: 'INVALID_TOPIC_EXCEPTION', retriable: false },
  18: { type: 'RECORD_LIST_TOO_LARGE', retriable: false },
  19: { type: 'NOT_ENOUGH_REPLICAS', retriable: true },
  20: { type: 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', retriable: true },
  21: { type: 'INVALID_REQUIRED_ACKS', retriable: false },
  22: { type: 'ILLEGAL_GENERATION', retriable: false },
  23: { type: 'INCONSISTENT_GROUP_PROTOCOL', retriable: false },
  24: { type: 'INVALID_GROUP_ID', retriable: false },
  25: { type: 'UNKNOWN_MEMBER_ID', retriable: false },
  26: { type: 'INVALID_SESSION_TIMEOUT', retriable: false },
  27: { type: 'REBALANCE_IN_PROGRESS', retriable: false },
  28: { type: 'INVALID_COMMIT_OFFSET_SIZE', retriable: false },
  29: { type: 'TOPIC_AUTHORIZATION_FAILED', retriable: false },
  30: { type: 'GROUP_AUTHORIZATION_FAILED', retriable: false },
  31: { type: 'CLUSTER_AUTHORIZATION_FAILED', retriable: false },
  32: { type: 'INVALID_TIMESTAMP', retriable: false },
  33: { type: 'UNSUPPORTED_SASL_MECHANISM', retriable: false },
  34: { type: 'ILLEGAL_SASL_STATE', retriable: false },
  35: { type: 'UNSUPPORTED_VERSION', retriable: false },
  36: { type: 'TOPIC_ALREADY_EXISTS', retriable: false },
  37: { type: 'INVALID_PARTITIONS', retriable: false },
  38: { type: 'INVALID_REPLICATION_FACTOR', retriable: false },
  39: { type: 'INVALID_REPLICA_ASSIGNMENT', retriable: false },
  40: { type: 'INVALID_CONFIG', retriable: false },
  41: { type: 'NOT_CONTROLLER', retriable: true },
  42: { type: 'INVALID_REQUEST', retriable: false },
  43: { type: 'UNSUPPORTED_FOR_MESSAGE_FORMAT', retriable: false },
  44: { type: 'POLICY_VIOLATION', retriable: false },
  45: { type: 'OUT_OF_ORDER_SEQUENCE_NUMBER', retriable: false },
  46: { type: 'DUPLICATE_SEQUENCE_NUMBER', retriable: false },
  47: { type: 'INVALID_PRODUCER_EPOCH', retriable: false },
  48: { type: 'INVALID_TXN_STATE', retriable: false },
  49: { type: 'INVALID_PRODUCER_ID_MAPPING', retriable: false },
  50: { type: 'INVALID_TRANSACTION_TIMEOUT', retriable: false },
  51: { type: 'CONCURRENT_TRANSACTIONS', retriable: true },
  52: { type: 'TRANSACTION_COORDINATOR_FENCED', retriable: false },
  53: { type: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', retriable: false },
  54: { type: 'SECURITY_DISABLED', retriable: false },
  55: { type: 'OPERATION_NOT_ATTEMPTED', retriable: false },
  56: { type: 'KAFKA_STORAGE_ERROR', retriable: true },
  57: { type: 'LOG_DIR_NOT_FOUND', retriable: false },
  58: { type: 'SASL_AUTHENTICATION_FAILED', retriable: false },
  59: { type: 'UNKNOWN_PRODUCER_ID', retriable: false },
  60: { type: 'REASSIGNMENT_IN_PROGRESS', retriable: false },
  61: { type: 'DELEGATION_TOKEN_AUTH_DISABLED', retriable: false },
  62: { type: 'DELEGATION_TOKEN_NOT_FOUND', retriable: false },
  63: { type: 'DELEGATION_TOKEN_OWNER_MISMATCH', retriable: false },
  64: { type: 'DELEGATION_TOKEN_REQUEST_NOT_ALLOWED', retriable: false },
  65: { type: 'DELEGATION_TOKEN_AUTHORIZATION_FAILED', retriable: false },
  66: { type: 'DELEGATION_TOKEN_EXPIRED', retriable: false },
  67: { type: 'INVALID_PRINCIPAL_TYPE', retriable: false },
  68: { type: 'NON_EMPTY_GROUP', retriable: false },
  69: { type: 'GROUP_ID_NOT_FOUND', retriable: false },
  70: { type: 'FETCH_SESSION_ID_NOT_FOUND', retriable: true },
  71: { type: 'INVALID_FETCH_SESSION_EPOCH', retriable: true },
  72: { type: 'LISTENER_NOT_FOUND', retriable: true },
  73: { type: 'TOPIC_DELETION_DISABLED', retriable: false },
  74: { type: 'FENCED_LEADER_EPOCH', retriable: true },
  75: { type: 'UNKNOWN_LEADER_EPOCH', retriable: true },
  76: { type: 'UNSUPPORTED_COMPRESSION_TYPE', retriable: false },
  77: { type: 'STALE_BROKER_EPOCH', retriable: false },
  78: { type: 'OFFSET_NOT_AVAILABLE', retriable: true },
  79: { type: 'MEMBER_ID_REQUIRED', retriable: false },
  80: { type: 'PREFERRED_LEADER_NOT_AVAILABLE', retriable: true },
  81: { type: 'GROUP_MAX_SIZE_REACHED', retriable: false },
  82: { type: 'FENCED_INSTANCE_ID', retriable: false },
  83: { type: 'ELIGIBLE_LEADERS_NOT_AVAILABLE', retriable: true },
  84: { type: 'ELECTION_NOT_NEEDED', retriable: true },
  85: { type: 'NO_REASSIGNMENT_IN_PROGRESS', retriable: false },
  86: { type: 'GROUP_SUBSCRIBED_TO_TOPIC', retriable: false },
  87: { type: 'INVALID_RECORD', retriable: false },
  88: { type: 'UNSTABLE_OFFSET_COMMIT', retriable: true },
  // Codes newer than kafkajs 2.2.4 (which calls them KAFKAJS_UNKNOWN_ERROR_CODE): Kafka's names.
  89: { type: 'THROTTLING_QUOTA_EXCEEDED', retriable: true },
  90: { type: 'PRODUCER_FENCED', retriable: false },
  91: { type: 'RESOURCE_NOT_FOUND', retriable: false },
  92: { type: 'DUPLICATE_RESOURCE', retriable: false },
  93: { type: 'UNACCEPTABLE_CREDENTIAL', retriable: false },
  94: { type: 'INCONSISTENT_VOTER_SET', retriable: false },
  95: { type: 'INVALID_UPDATE_VERSION', retriable: false },
  96: { type: 'FEATURE_UPDATE_FAILED', retriable: false },
  97: { type: 'PRINCIPAL_DESERIALIZATION_FAILURE', retriable: false },
  98: { type: 'SNAPSHOT_NOT_FOUND', retriable: false },
  99: { type: 'POSITION_OUT_OF_RANGE', retriable: false },
  100: { type: 'UNKNOWN_TOPIC_ID', retriable: true },
  101: { type: 'DUPLICATE_BROKER_REGISTRATION', retriable: false },
  102: { type: 'BROKER_ID_NOT_REGISTERED', retriable: false },
  103: { type: 'INCONSISTENT_TOPIC_ID', retriable: true },
  104: { type: 'INCONSISTENT_CLUSTER_ID', retriable: false },
  105: { type: 'TRANSACTIONAL_ID_NOT_FOUND', retriable: false },
  106: { type: 'FETCH_SESSION_TOPIC_ID_ERROR', retriable: true },
  107: { type: 'INELIGIBLE_REPLICA', retriable: false },
  108: { type: 'NEW_LEADER_ELECTED', retriable: false },
  109: { type: 'OFFSET_MOVED_TO_TIERED_STORAGE', retriable: false },
  110: { type: 'FENCED_MEMBER_EPOCH', retriable: false },
  111: { type: 'UNRELEASED_INSTANCE_ID', retriable: false },
  112: { type: 'UNSUPPORTED_ASSIGNOR', retriable: false },
  113: { type: 'STALE_MEMBER_EPOCH', retriable: false },
  114: { type: 'MISMATCHED_ENDPOINT_TYPE', retriable: false },
  115: { type: 'UNSUPPORTED_ENDPOINT_TYPE', retriable: false },
  116: { type: 'UNKNOWN_CONTROLLER_ID', retriable: false },
  117: { type: 'UNKNOWN_SUBSCRIPTION_ID', retriable: false },
  118: { type: 'TELEMETRY_TOO_LARGE', retriable: false },
  119: { type: 'INVALID_REGISTRATION', retriable: false },
  120: { type: 'TRANSACTION_ABORTABLE', retriable: false },
};

/** The first code kafkajs 2.2.4 does not know. */
export const FIRST_CODE_AFTER_KAFKAJS = 89;

/** The kafkajs name and retriability of a Kafka error code. */
export function protocolErrorInfo(code: number): ProtocolErrorInfo {
  return PROTOCOL_ERRORS[code] ?? { type: 'KAFKAJS_UNKNOWN_ERROR_CODE', retriable: false };
}

export class KafkaJSProtocolError extends KafkaJSError {
  override readonly name: string = 'KafkaJSProtocolError';
  readonly type: string;
  readonly code: number;

  /** From a Kafka error code (a number), or a message and the code's name (kafkajs's own form). */
  constructor(e: Error | string | number, metadata: KafkaJSErrorMetadata & { type?: string; code?: number } = {}) {
    const code = typeof e === 'number' ? e : (metadata.code ?? -1);
    const info = protocolErrorInfo(code);
    // Without a code (kafkajs's message-only form) an error counts as retriable, as KafkaJSError does.
    const retriable = typeof e === 'number' ? info.retriable : true;
    super(typeof e === 'number' ? `${info.type} (Kafka error code ${e})` : e, { retriable, ...metadata });
    this.type = metadata.type ?? info.type;
    this.code = code;
  }
}

export class KafkaJSOffsetOutOfRange extends KafkaJSProtocolError {
  override readonly name: string = 'KafkaJSOffsetOutOfRange';
  readonly topic: string;
  readonly partition: number;
  constructor(e: Error | string, metadata: { topic: string; partition: number } = { topic: '', partition: -1 }) {
    super(e, { code: 1 });
    this.topic = metadata.topic;
    this.partition = metadata.partition;
  }
}

export class KafkaJSMemberIdRequired extends KafkaJSProtocolError {
  override readonly name: string = 'KafkaJSMemberIdRequired';
  readonly memberId: string;
  constructor(e: Error | string, metadata: { memberId?: string } = {}) {
    super(e, { code: 79, retriable: true });
    this.memberId = metadata.memberId ?? '';
  }
}

export class KafkaJSCreateTopicError extends KafkaJSProtocolError {
  override readonly name: string = 'KafkaJSCreateTopicError';
  readonly topic: string;
  /** From the topic's protocol error (its type and code kept, as kafkajs keeps them); a message alone is TOPIC_ALREADY_EXISTS. */
  constructor(e: Error | string, topicName = '') {
    const from = e instanceof KafkaJSProtocolError ? e : null;
    super(e, from ? { code: from.code, type: from.type, retriable: from.retriable } : { code: 36, retriable: true });
    this.topic = topicName;
  }
}

export class KafkaJSAlterPartitionReassignmentsError extends KafkaJSProtocolError {
  override readonly name: string = 'KafkaJSAlterPartitionReassignmentsError';
  readonly topic?: string;
  readonly partition?: number;
  /** From the partition's protocol error (its type and code kept, as kafkajs keeps them). */
  constructor(e: Error | string, topic?: string, partition?: number) {
    const from = e instanceof KafkaJSProtocolError ? e : null;
    super(e, from ? { code: from.code, type: from.type, retriable: from.retriable } : { retriable: true });
    this.topic = topic;
    this.partition = partition;
  }
}

export class KafkaJSConnectionError extends KafkaJSError {
  override readonly name: string = 'KafkaJSConnectionError';
  readonly broker: string;
  readonly code?: string;
  constructor(e: Error | string, metadata: { broker?: string; code?: string } = {}) {
    super(e);
    this.broker = metadata.broker ?? '';
    this.code = metadata.code;
  }
}

export class KafkaJSConnectionClosedError extends KafkaJSConnectionError {
  override readonly name: string = 'KafkaJSConnectionClosedError';
  readonly host: string;
  readonly port: number;
  constructor(e: Error | string, metadata: { host?: string; port?: number } = {}) {
    super(e, { broker: metadata.host === undefined ? undefined : `${metadata.host}:${metadata.port}` });
    this.host = metadata.host ?? '';
    this.port = metadata.port ?? -1;
  }
}

export class KafkaJSRequestTimeoutError extends KafkaJSError {
  override readonly name: string = 'KafkaJSRequestTimeoutError';
  readonly broker: string;
  readonly correlationId: number;
  readonly createdAt: number;
  readonly sentAt: number;
  readonly pendingDuration: number;
  constructor(e: Error | string, metadata: Partial<{ broker: string; correlationId: number; createdAt: number; sentAt: number; pendingDuration: number }> = {}) {
    super(e);
    this.broker = metadata.broker ?? '';
    this.correlationId = metadata.correlationId ?? -1;
    this.createdAt = metadata.createdAt ?? 0;
    this.sentAt = metadata.sentAt ?? 0;
    this.pendingDuration = metadata.pendingDuration ?? 0;
  }
}

export class KafkaJSNumberOfRetriesExceeded extends KafkaJSNonRetriableError {
  override readonly name: string = 'KafkaJSNumberOfRetriesExceeded';
  readonly retryCount: number;
  readonly retryTime: number;
  constructor(e: Error | string, metadata: { retryCount?: number; retryTime?: number } = {}) {
    super(e);
    this.retryCount = metadata.retryCount ?? 0;
    this.retryTime = metadata.retryTime ?? 0;
  }
}

export class KafkaJSPartialMessageError extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSPartialMessageError'; }
export class KafkaJSBrokerNotFound extends KafkaJSError { override readonly name: string = 'KafkaJSBrokerNotFound'; }
export class KafkaJSSASLAuthenticationError extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSSASLAuthenticationError'; }
export class KafkaJSGroupCoordinatorNotFound extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSGroupCoordinatorNotFound'; }
export class KafkaJSNotImplemented extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSNotImplemented'; }
export class KafkaJSMetadataNotLoaded extends KafkaJSError { override readonly name: string = 'KafkaJSMetadataNotLoaded'; }
export class KafkaJSTimeout extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSTimeout'; }
export class KafkaJSLockTimeout extends KafkaJSTimeout { override readonly name: string = 'KafkaJSLockTimeout'; }
export class KafkaJSUnsupportedMagicByteInMessageSet extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSUnsupportedMagicByteInMessageSet'; }
export class KafkaJSNoBrokerAvailableError extends KafkaJSError {
  override readonly name: string = 'KafkaJSNoBrokerAvailableError';
  constructor() { super('No broker available'); }
}
export class KafkaJSInvariantViolation extends KafkaJSNonRetriableError {
  override readonly name: string = 'KafkaJSInvariantViolation';
  constructor(e: Error | string) { super(`Invariant violated: ${messageOf(e)}. This is likely a bug and should be reported.`); }
}

export class KafkaJSTopicMetadataNotLoaded extends KafkaJSMetadataNotLoaded {
  override readonly name: string = 'KafkaJSTopicMetadataNotLoaded';
  readonly topic: string;
  constructor(e: Error | string, metadata: { topic?: string } = {}) { super(e); this.topic = metadata.topic ?? ''; }
}

export class KafkaJSStaleTopicMetadataAssignment extends KafkaJSError {
  override readonly name: string = 'KafkaJSStaleTopicMetadataAssignment';
  readonly topic: string;
  readonly unknownPartitions: unknown;
  constructor(e: Error | string, metadata: { topic?: string; unknownPartitions?: unknown } = {}) {
    super(e);
    this.topic = metadata.topic ?? '';
    this.unknownPartitions = metadata.unknownPartitions ?? [];
  }
}

export class KafkaJSServerDoesNotSupportApiKey extends KafkaJSNonRetriableError {
  override readonly name: string = 'KafkaJSServerDoesNotSupportApiKey';
  readonly apiKey: number;
  readonly apiName: string;
  constructor(e: Error | string, metadata: { apiKey?: number; apiName?: string } = {}) {
    super(e);
    this.apiKey = metadata.apiKey ?? -1;
    this.apiName = metadata.apiName ?? '';
  }
}

export class KafkaJSDeleteGroupsError extends KafkaJSError {
  override readonly name: string = 'KafkaJSDeleteGroupsError';
  readonly groups: { groupId: string; errorCode?: number; error?: KafkaJSProtocolError }[];
  constructor(e: Error | string, groups: { groupId: string; errorCode?: number; error?: KafkaJSProtocolError }[] = []) { super(e); this.groups = groups; }
}

export class KafkaJSDeleteTopicRecordsError extends KafkaJSError {
  override readonly name: string = 'KafkaJSDeleteTopicRecordsError';
  readonly partitions: { partition: number; offset: string; error: KafkaJSError }[];
  constructor(metadata: { topic: string; partitions: { partition: number; offset: string; error: KafkaJSError }[] }) {
    super('Error while deleting records');
    this.partitions = metadata.partitions;
  }
}

export class KafkaJSAggregateError extends Error {
  override readonly name: string = 'KafkaJSAggregateError';
  readonly errors: (Error | string)[];
  constructor(message: Error | string, errors: (Error | string)[]) { super(messageOf(message)); this.errors = errors; }
}

/** kafkajs names these two KafkaJSNonRetriableError (the class they extend); here each has its own name. */
export class KafkaJSInvalidVarIntError extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSInvalidVarIntError'; }
export class KafkaJSInvalidLongError extends KafkaJSNonRetriableError { override readonly name: string = 'KafkaJSInvalidLongError'; }

/** A fetch given up for a rebalance (kafkajs uses it inside its runner; exported for instanceof checks). */
export class KafkaJSFetcherRebalanceError extends Error { override readonly name: string = 'KafkaJSFetcherRebalanceError'; }

export const isKafkaJSError = (e: unknown): e is KafkaJSError => e instanceof KafkaJSError;

/** Protocol errors a rebalance causes (the member rejoins). */
export function isRebalancing(e: unknown): boolean {
  return e instanceof KafkaJSProtocolError && (e.type === 'REBALANCE_IN_PROGRESS' || e.type === 'NOT_COORDINATOR_FOR_GROUP' || e.type === 'ILLEGAL_GENERATION');
}

/** A kafka-wire error as the KafkaJS error an app would have seen; other errors pass through. */
export function fromWire(error: unknown): unknown {
  if (error instanceof KafkaJSError || !(error instanceof Error)) return error;
  if (error instanceof ConnectionError) {
    const broker = error.host === undefined ? undefined : `${error.host}:${error.port}`;
    switch (error.code) {
      case 'TIMEOUT': return new KafkaJSRequestTimeoutError(error, { broker, correlationId: error.correlationId });
      case 'CLOSED': case 'TRUNCATED': return new KafkaJSConnectionClosedError(error, { host: error.host, port: error.port });
      case 'SASL':
        // As in kafkajs: a custom authenticator's own KafkaJS error passes through, and a refused
        // SaslHandshake (key 17: the broker lacks the mechanism) is a protocol error.
        if (error.cause instanceof KafkaJSError) return error.cause;
        if (error.apiKey === 17 && error.errorCode !== undefined && error.errorCode !== 0) return protocolError(error, error.errorCode);
        return new KafkaJSSASLAuthenticationError(error);
      case 'UNSUPPORTED_VERSION': return new KafkaJSServerDoesNotSupportApiKey(error, { apiKey: error.apiKey });
      default:
        if (error.errorCode !== undefined && error.errorCode !== 0) return protocolError(error, error.errorCode);
        return new KafkaJSConnectionError(error, { broker, code: error.code });
    }
  }
  if (error instanceof ProducerError) {
    if (error.errorCode !== undefined && error.errorCode !== 0) return protocolError(error, error.errorCode);
    switch (error.code) {
      case 'UNKNOWN_TOPIC': return protocolError(error, 3);
      case 'RECORD_TOO_LARGE': return protocolError(error, 10);
      case 'FENCED': return protocolError(error, 47);
      case 'DELIVERY_TIMEOUT': return new KafkaJSNumberOfRetriesExceeded(error);
      case 'CLOSED': case 'TRANSACTION_STATE': return new KafkaJSNonRetriableError(error);
      default: return new KafkaJSError(error);
    }
  }
  if (error instanceof ConsumerError) {
    if (error.errorCode !== undefined && error.errorCode !== 0) return protocolError(error, error.errorCode);
    return new KafkaJSNonRetriableError(error);
  }
  return error;
}

function protocolError(cause: Error, code: number): KafkaJSProtocolError {
  return new KafkaJSProtocolError(cause, { code, retriable: protocolErrorInfo(code).retriable });
}
