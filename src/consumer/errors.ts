// Errors the consumer raises when it cannot go on by itself (everything retriable is retried):
// a broker's refusal that no rejoin or refresh can fix, bytes of the consumer protocol that do
// not decode, or a use of the API that cannot work.

import { kafkaErrorName } from '../wire/errors.js';

export type ConsumerErrorCode =
  /** The consumer protocol's subscription or assignment bytes did not decode. */
  | 'PROTOCOL'
  /** The group coordinator refused in a way that rejoining cannot fix (e.g. authorization, fenced instance). */
  | 'GROUP'
  /** Committing offsets failed for good (e.g. the member was fenced before the commit landed). */
  | 'COMMIT'
  /** A Fetch or ListOffsets failed for good (e.g. authorization, offset out of range with reset 'none'). */
  | 'FETCH'
  /**
   * A topic given by name does not exist: an assigned one, or a subscribed one with
   * `missingTopics: 'error'` (errorCode and errorName say what the broker answered).
   */
  | 'UNKNOWN_TOPIC'
  /** The API was used in a way that cannot work (e.g. seek on a partition this member does not own). */
  | 'USAGE'
  /** The consumer was closed. */
  | 'CLOSED';

export interface ConsumerErrorDetails {
  /** A Kafka error code from the broker, when that is the reason. */
  errorCode?: number;
  /** The topic (and partition) it is about, where there is one. */
  topic?: string;
  partition?: number;
  /** For PROTOCOL: the byte offset and the field path where decoding stopped. */
  offset?: number;
  path?: string;
  cause?: unknown;
}

export class ConsumerError extends Error {
  override readonly name = 'ConsumerError';
  readonly code: ConsumerErrorCode;
  readonly errorCode: number | undefined;
  /** Kafka's name for errorCode ("UNKNOWN_TOPIC_OR_PARTITION"), when the broker gave one. */
  readonly errorName: string | undefined;
  readonly topic: string | undefined;
  readonly partition: number | undefined;
  readonly offset: number | undefined;
  readonly path: string | undefined;

  constructor(code: ConsumerErrorCode, message: string, details: ConsumerErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.errorCode = details.errorCode;
    this.errorName = details.errorCode === undefined ? undefined : /^([A-Z_]+) \(/.exec(kafkaErrorName(details.errorCode))?.[1];
    this.topic = details.topic;
    this.partition = details.partition;
    this.offset = details.offset;
    this.path = details.path;
  }
}

/** The Kafka error codes the group and offset paths act on, by name (one source for the numbers). */
export const GroupErrorCode = {
  NONE: 0,
  OFFSET_OUT_OF_RANGE: 1,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  REQUEST_TIMED_OUT: 7,
  NETWORK_EXCEPTION: 13,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  ILLEGAL_GENERATION: 22,
  INCONSISTENT_GROUP_PROTOCOL: 23,
  INVALID_REQUEST: 42,
  UNKNOWN_MEMBER_ID: 25,
  INVALID_SESSION_TIMEOUT: 26,
  REBALANCE_IN_PROGRESS: 27,
  GROUP_AUTHORIZATION_FAILED: 30,
  UNSUPPORTED_VERSION: 35,
  FENCED_LEADER_EPOCH: 74,
  UNKNOWN_LEADER_EPOCH: 75,
  MEMBER_ID_REQUIRED: 79,
  FENCED_INSTANCE_ID: 82,
  UNSTABLE_OFFSET_COMMIT: 88,
  GROUP_MAX_SIZE_REACHED: 81,
  UNKNOWN_TOPIC_ID: 100,
  FENCED_MEMBER_EPOCH: 110,
  UNRELEASED_INSTANCE_ID: 111,
  UNSUPPORTED_ASSIGNOR: 112,
  STALE_MEMBER_EPOCH: 113,
  GROUP_ID_NOT_FOUND: 69,
  NON_EMPTY_GROUP: 68,
} as const;

/** Errors after which a Fetch or commit is retried once metadata or the coordinator is refreshed. */
export const RETRIABLE_PARTITION_ERRORS: ReadonlySet<number> = new Set([
  GroupErrorCode.UNKNOWN_TOPIC_OR_PARTITION, GroupErrorCode.LEADER_NOT_AVAILABLE, GroupErrorCode.NOT_LEADER_OR_FOLLOWER,
  GroupErrorCode.REQUEST_TIMED_OUT, GroupErrorCode.NETWORK_EXCEPTION, GroupErrorCode.FENCED_LEADER_EPOCH,
  GroupErrorCode.UNKNOWN_LEADER_EPOCH, GroupErrorCode.UNKNOWN_TOPIC_ID, 56 /* KAFKA_STORAGE_ERROR */,
]);

/** Errors that mean: find the coordinator again. */
export const COORDINATOR_ERRORS: ReadonlySet<number> = new Set([
  GroupErrorCode.COORDINATOR_NOT_AVAILABLE, GroupErrorCode.NOT_COORDINATOR, GroupErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  GroupErrorCode.REQUEST_TIMED_OUT, GroupErrorCode.NETWORK_EXCEPTION,
]);
