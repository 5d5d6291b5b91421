// The admin client's one error type: what was wrong (code), which resource (topic a, group g,
// BROKER 1), and Kafka's error name where the broker gave one. A batch call where some resources
// failed rejects with code RESOURCES: `failures` names each that failed, `succeeded` holds the
// results of the others (done: a retry should ask only for the failures).
import { KAFKA_ERROR_NAMES } from '../wire/error-names.js';
import { kafkaErrorName } from '../wire/errors.js';

export type AdminErrorCode =
  /** Bad input, refused before anything was sent (a negative partition count, a bad topic name). */
  | 'INVALID_ARGUMENT'
  /** The broker refused the call for this resource (errorCode, errorName say why). */
  | 'BROKER'
  /** Some resources of a batch call failed: see `failures` and `succeeded`. */
  | 'RESOURCES'
  /** No broker speaks a version of the request this call needs. */
  | 'UNSUPPORTED'
  /** Still failing with a retriable error (or a lost connection) after every retry. */
  | 'RETRIES_EXHAUSTED'
  /** What the call needs is not on the cluster (abortTransaction: no open transaction starts at that offset). */
  | 'NOT_FOUND'
  /** The admin client was closed. */
  | 'CLOSED';

export interface AdminErrorDetails {
  /** The resource the error is about, as "topic orders", "group g1", "broker 1". */
  resource?: string;
  /** Kafka's error code, when the broker gave one. */
  errorCode?: number;
  /** The broker's error message, when it gave one. */
  errorMessage?: string | null;
  failures?: readonly AdminError[];
  succeeded?: readonly unknown[];
  cause?: unknown;
}

export class AdminError extends Error {
  override readonly name = 'AdminError';
  readonly code: AdminErrorCode;
  readonly resource: string | undefined;
  readonly errorCode: number | undefined;
  /** Kafka's name for errorCode ("TOPIC_ALREADY_EXISTS"), undefined without one. */
  readonly errorName: string | undefined;
  readonly errorMessage: string | null | undefined;
  /** RESOURCES: one error per resource that failed. */
  readonly failures: readonly AdminError[];
  /** RESOURCES: the results of the resources that succeeded, in the order they were asked for. */
  readonly succeeded: readonly unknown[];

  constructor(code: AdminErrorCode, message: string, details: AdminErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.resource = details.resource;
    this.errorCode = details.errorCode;
    this.errorName = details.errorCode === undefined ? undefined : KAFKA_ERROR_NAMES.get(details.errorCode);
    this.errorMessage = details.errorMessage;
    this.failures = details.failures ?? [];
    this.succeeded = details.succeeded ?? [];
  }
}

/** The error for one resource the broker refused: "topic a: TOPIC_ALREADY_EXISTS (36): Topic 'a' already exists." */
export function brokerError(resource: string, errorCode: number, errorMessage?: string | null): AdminError {
  return new AdminError('BROKER', `${resource}: ${kafkaErrorName(errorCode)}${errorMessage ? `: ${errorMessage}` : ''}`, { resource, errorCode, errorMessage });
}

export function invalid(message: string, resource?: string): AdminError {
  return new AdminError('INVALID_ARGUMENT', message, { resource });
}
