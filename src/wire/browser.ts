// kafka-wire/wire where there are no TCP sockets (package.json's "browser" and "workerd"
// conditions): the browser-safe parts as they are, everything that needs node:net or node:stream
// as the same names throwing UnsupportedRuntimeError when used, so importing never fails.
// test/runtimes/matrix.test.ts holds its export names to src/wire/index.ts's.
import { runtimeName, UnsupportedRuntimeError } from '../errors.js';

export {
  FrameSplitter, FrameSplitterStream, FrameError, DEFAULT_MAX_FRAME_SIZE,
  type FrameErrorCode, type FrameSplitterOptions,
} from './frame-splitter.js';
export { FramePool } from './frame-pool.js';
export { ConnectionError, kafkaErrorName, KafkaErrorCode, type ConnectionErrorCode, type ConnectionErrorDetails } from './errors.js';
export { supportedVersions, allSupportedVersions, usableVersion, apiName, ZERO_UUID, type VersionRange } from './versions.js';
export { murmur2, partitionForKey } from './partitioner.js';
export { readCommitted, IsolationLevel, ISOLATION_NAMES, type IsolationName, type AbortedTransaction, type IsolationBatch } from './isolation.js';
export { ScramClient, ScramError, SCRAM_MECHANISMS, type ScramMechanism } from './scram.js';
export * from './sasl/index.js';

// Connectors that need no node:net: a WebSocket to kafka-wire bridge, workerd's sockets.
export { webSocketConnector, bridgeUrlFor, type WebSocketConnectorOptions } from './sockets/websocket.js';
export { cloudflareConnector } from './sockets/cloudflare.js';
export type { ByteSocket, ByteSocketEvents, SocketConnector, SocketTarget } from './sockets/socket.js';

const TCP = 'TCP sockets (node:net)';
function refuse(feature: string): never {
  throw new UnsupportedRuntimeError(runtimeName(), feature, 'kafka-wire/wire connects from Node, Bun and Deno; the codec and records entries work here');
}
export function connect(..._: unknown[]): never { return refuse(TCP); }
export function startServer(..._: unknown[]): never { return refuse(TCP); }
export function startBridge(..._: unknown[]): never { return refuse(TCP); }
export class BridgeRefusal extends Error {}
export class TopicError extends Error {}
export function startMemoryBroker(..._: unknown[]): never { return refuse(TCP); }
export function apiVersionsResponse(..._: unknown[]): never { return refuse(TCP); }
export function parseHostPort(..._: unknown[]): never { return refuse(TCP); }
export function createFrameSplitterTransform(..._: unknown[]): never { return refuse('Node streams (node:stream)'); }
export class Connection { constructor() { refuse(TCP); } }
export class KafkaClient { constructor(..._: unknown[]) { refuse(TCP); } }
export {
  createLogger, consoleSink, silentLogger, redact, redactText, isSecretName, withDebugCallback, LOG_LEVELS,
  type Logger, type LoggerOptions, type LoggerOption, type LogEntry, type LogSink, type LogLevel,
} from '../logger.js';
