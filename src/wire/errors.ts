// Errors raised by the network layer (connection, server, CLI), as opposed to the codec's
// KafkaWireError (which a ConnectionError carries as `cause` when decoding failed).

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

/** Names of the Kafka error codes this package reports on, for messages. */
const KAFKA_ERRORS: Record<number, string> = {
  [-1]: 'UNKNOWN_SERVER_ERROR', 0: 'NONE', 1: 'OFFSET_OUT_OF_RANGE', 2: 'CORRUPT_MESSAGE',
  3: 'UNKNOWN_TOPIC_OR_PARTITION', 4: 'INVALID_FETCH_SIZE', 5: 'LEADER_NOT_AVAILABLE',
  6: 'NOT_LEADER_OR_FOLLOWER', 7: 'REQUEST_TIMED_OUT', 8: 'BROKER_NOT_AVAILABLE', 9: 'REPLICA_NOT_AVAILABLE',
  10: 'MESSAGE_TOO_LARGE', 13: 'NETWORK_EXCEPTION', 17: 'INVALID_TOPIC_EXCEPTION',
  19: 'NOT_ENOUGH_REPLICAS', 29: 'TOPIC_AUTHORIZATION_FAILED', 33: 'UNSUPPORTED_SASL_MECHANISM',
  34: 'ILLEGAL_SASL_STATE', 35: 'UNSUPPORTED_VERSION', 42: 'INVALID_REQUEST', 58: 'SASL_AUTHENTICATION_FAILED',
  74: 'FENCED_LEADER_EPOCH', 75: 'UNKNOWN_LEADER_EPOCH', 76: 'UNSUPPORTED_COMPRESSION_TYPE',
  87: 'INVALID_RECORD', 100: 'UNKNOWN_TOPIC_ID',
  // New in Kafka 4.4: DeleteGroups v3, StreamsGroupTopologyDescriptionUpdate, UnregisterController.
  134: 'GROUP_DELETION_FAILED', 135: 'STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED', 136: 'CONTROLLER_ID_NOT_REGISTERED',
};

/** "UNKNOWN_TOPIC_OR_PARTITION (3)", or "error 123" for codes not in the short table. */
export function kafkaErrorName(code: number): string {
  const name = KAFKA_ERRORS[code];
  return name ? `${name} (${code})` : `error ${code}`;
}

export const KafkaErrorCode = {
  NONE: 0,
  OFFSET_OUT_OF_RANGE: 1,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  UNSUPPORTED_SASL_MECHANISM: 33,
  ILLEGAL_SASL_STATE: 34,
  UNSUPPORTED_VERSION: 35,
  SASL_AUTHENTICATION_FAILED: 58,
} as const;
