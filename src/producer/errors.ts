// The producer's errors: one class with a code saying what went wrong, the topic and partition
// (and the broker's error code) where it applies, and which Kafka error codes are worth a retry.
import { kafkaErrorName } from '../wire/errors.js';

export type ProducerErrorCode =
  /** The broker rejected a batch with an error that a retry cannot fix (errorCode says which). */
  | 'BROKER'
  /** A batch was not acknowledged within deliveryTimeoutMs, retries included. */
  | 'DELIVERY_TIMEOUT'
  /** The topic does not exist (and was not created) or has no such partition. */
  | 'UNKNOWN_TOPIC'
  /** One record is larger than maxRecordBytes / the broker's limit. */
  | 'RECORD_TOO_LARGE'
  /** The broker lost the producer's sequence: records may be missing (OUT_OF_ORDER_SEQUENCE_NUMBER, UNKNOWN_PRODUCER_ID). */
  | 'SEQUENCE'
  /** Another producer with the same transactional id (or a newer epoch) took over: this one must close. */
  | 'FENCED'
  /** A transaction call out of order (commit without begin, send outside a transaction...). */
  | 'TRANSACTION_STATE'
  /** The transaction coordinator failed the transaction; abortTransaction() and begin again. */
  | 'TRANSACTION_ABORTABLE'
  /** The producer was closed. */
  | 'CLOSED';

export interface ProducerErrorDetails {
  topic?: string;
  partition?: number;
  errorCode?: number;
  /** Records in the failed batch. */
  records?: number;
  /** The one record refused (RECORD_TOO_LARGE): its number, from 1, among those the producer was given. */
  record?: number;
  /** That record's size in bytes (its input bytes, with writeDelimited()). */
  size?: number;
  cause?: unknown;
}

export class ProducerError extends Error {
  override readonly name = 'ProducerError';
  readonly code: ProducerErrorCode;
  readonly topic: string | undefined;
  readonly partition: number | undefined;
  readonly errorCode: number | undefined;
  readonly records: number | undefined;
  readonly record: number | undefined;
  readonly size: number | undefined;

  constructor(code: ProducerErrorCode, message: string, details: ProducerErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.topic = details.topic;
    this.partition = details.partition;
    this.errorCode = details.errorCode;
    this.records = details.records;
    this.record = details.record;
    this.size = details.size;
  }
}

/** Kafka error codes the producer handles by name. */
export const ErrorCode = {
  NONE: 0,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  REQUEST_TIMED_OUT: 7,
  MESSAGE_TOO_LARGE: 10,
  NETWORK_EXCEPTION: 13,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  RECORD_LIST_TOO_LARGE: 18,
  NOT_ENOUGH_REPLICAS: 19,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 20,
  OUT_OF_ORDER_SEQUENCE_NUMBER: 45,
  DUPLICATE_SEQUENCE_NUMBER: 46,
  INVALID_PRODUCER_EPOCH: 47,
  INVALID_TXN_STATE: 48,
  CONCURRENT_TRANSACTIONS: 51,
  KAFKA_STORAGE_ERROR: 56,
  UNKNOWN_PRODUCER_ID: 59,
  FENCED_LEADER_EPOCH: 74,
  UNKNOWN_LEADER_EPOCH: 75,
  PRODUCER_FENCED: 90,
  TRANSACTION_ABORTABLE: 120,
} as const;

/** Errors after which the same batch may be sent again (the Java client's RetriableException kinds). */
const RETRIABLE = new Set<number>([
  ErrorCode.CORRUPT_MESSAGE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.REQUEST_TIMED_OUT, ErrorCode.NETWORK_EXCEPTION,
  ErrorCode.NOT_ENOUGH_REPLICAS, ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.UNKNOWN_LEADER_EPOCH, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR, ErrorCode.CONCURRENT_TRANSACTIONS,
]);

export function isRetriable(errorCode: number): boolean {
  return RETRIABLE.has(errorCode);
}

/** Errors after which the partition's leader may have moved: metadata is fetched again. */
const STALE_METADATA = new Set<number>([
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.LEADER_NOT_AVAILABLE, ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.UNKNOWN_LEADER_EPOCH, ErrorCode.KAFKA_STORAGE_ERROR,
]);

export function needsMetadata(errorCode: number): boolean {
  return STALE_METADATA.has(errorCode);
}

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(ErrorCode).map(([k, v]) => [v, k]));

/** "NOT_LEADER_OR_FOLLOWER (6)" for the codes above, else the wire layer's naming. */
export function errorName(code: number): string {
  const name = NAMES[code];
  return name !== undefined ? `${name} (${code})` : kafkaErrorName(code);
}
