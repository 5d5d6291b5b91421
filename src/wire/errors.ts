// Errors raised by the network layer (connection, server, CLI), as opposed to the codec's
// KafkaWireError (which a ConnectionError carries as `cause` when decoding failed).
import { KAFKA_ERROR_NAMES } from './error-names.js';

export type ConnectionErrorCode =
  /** The TCP/TLS connection could not be established (cause: the socket error). */
  | 'CONNECT'
  /** The connection was closed (by the peer, by close(), or after a socket error). */
  | 'CLOSED'
  /** The peer closed the connection in the middle of a response frame. */
  | 'TRUNCATED'
  /** A response frame's size prefix was negative or above maxFrameSize (cause: FrameError). */
  | 'FRAME'
  /** A response frame could not be decoded (cause: KafkaWireError). */
  | 'DECODE'
  /** A response carried a correlation id with no request waiting for it, or came out of order. */
  | 'UNEXPECTED_RESPONSE'
  /** The server does not speak Kafka: an HTTP server, or a TLS listener where plaintext was used. */
  | 'NOT_KAFKA'
  /** No response within the request timeout (the connection is closed), or no connection within the connect timeout. */
  | 'TIMEOUT'
  /** The broker and this library share no version of the API. */
  | 'UNSUPPORTED_VERSION'
  /** ApiVersions negotiation failed. */
  | 'NEGOTIATION'
  /** SASL handshake or authentication failed. */
  | 'SASL';

export interface ConnectionErrorDetails {
  host?: string;
  port?: number;
  apiKey?: number;
  apiVersion?: number;
  correlationId?: number;
  /** A Kafka error code from the broker, when that is the reason. */
  errorCode?: number;
  cause?: unknown;
}

export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  readonly code: ConnectionErrorCode;
  readonly host: string | undefined;
  readonly port: number | undefined;
  readonly apiKey: number | undefined;
  readonly apiVersion: number | undefined;
  readonly correlationId: number | undefined;
  readonly errorCode: number | undefined;

  constructor(code: ConnectionErrorCode, message: string, details: ConnectionErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.host = details.host;
    this.port = details.port;
    this.apiKey = details.apiKey;
    this.apiVersion = details.apiVersion;
    this.correlationId = details.correlationId;
    this.errorCode = details.errorCode;
  }
}

/**
 * True for a failure a fresh connection may not repeat: the server refused or reset, an answer
 * was lost, cut, spoiled or late (the connection is closed after each). False for what a retry
 * cannot fix: SASL, TLS certificates, an unknown host, a server that is not Kafka, versions.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ConnectionError)) return false;
  switch (error.code) {
    case 'CLOSED': case 'TRUNCATED': case 'FRAME': case 'DECODE': case 'UNEXPECTED_RESPONSE': case 'TIMEOUT':
      return true;
    case 'CONNECT': {
      const cause = error.cause as NodeJS.ErrnoException | undefined;
      const code = cause?.code ?? '';
      if (code === 'ENOTFOUND' || /CERT|SELF_SIGNED|ALTNAME|ERR_TLS/.test(code)) return false;
      return !(cause instanceof Error && /certificate|altnames/i.test(cause.message));
    }
    default:
      return false;
  }
}

/** "UNKNOWN_TOPIC_OR_PARTITION (3)", or "error 123" for a code Kafka does not define. */
export function kafkaErrorName(code: number): string {
  const name = KAFKA_ERROR_NAMES.get(code);
  return name ? `${name} (${code})` : `error ${code}`;
}

export const KafkaErrorCode = {
  NONE: 0,
  OFFSET_OUT_OF_RANGE: 1,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  COORDINATOR_NOT_AVAILABLE: 15,
  UNSUPPORTED_SASL_MECHANISM: 33,
  ILLEGAL_SASL_STATE: 34,
  UNSUPPORTED_VERSION: 35,
  SASL_AUTHENTICATION_FAILED: 58,
} as const;
