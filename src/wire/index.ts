// The network layer: connections over a socket connector (node:net and node:tls by default, loaded
// on first use; workerd's sockets; a WebSocket to kafka-wire bridge), the client, the memory
// broker, the bridge, SASL. The browser and workerd entry is ./browser.ts.

export {
  FrameSplitter, FrameSplitterStream, FrameError, DEFAULT_MAX_FRAME_SIZE,
  type FrameErrorCode, type FrameSplitterOptions,
} from './frame-splitter.js';
export { createFrameSplitterTransform } from './frame-splitter-node.js';
export { FramePool } from './frame-pool.js';
export { ConnectionError, kafkaErrorName, KafkaErrorCode, type ConnectionErrorCode, type ConnectionErrorDetails } from './errors.js';
export {
  connect, Connection, SASL_MECHANISMS,
  type ConnectOptions, type RequestOptions, type SaslPlainOptions, type SaslScramOptions, type SaslOptions, type NegotiatedVersion, type ResponseOf, type ConnectionEvents,
} from './connection.js';
export {
  startServer, apiVersionsResponse,
  type ServerOptions, type KafkaServer, type IncomingRequest, type RequestHandler, type ClientInfo,
} from './server.js';
export { startMemoryBroker, type MemoryBroker, type MemoryBrokerOptions, type MemoryTopic, type PartitionLog, type StoredBatch } from './memory-broker.js';
export { KafkaClient, TopicError, parseHostPort, type ClientOptions, type BrokerAddress, type TopicInfo, type PartitionInfo } from './client.js';
export { supportedVersions, allSupportedVersions, usableVersion, apiName, ZERO_UUID, type VersionRange } from './versions.js';
export { readCommitted, IsolationLevel, ISOLATION_NAMES, type IsolationName, type AbortedTransaction, type IsolationBatch } from './isolation.js';
export { ScramClient, ScramError, SCRAM_MECHANISMS, type ScramMechanism } from './scram.js';
export { murmur2, partitionForKey } from './partitioner.js';
export * from './sasl/index.js';
export {
  createLogger, consoleSink, silentLogger, redact, redactText, isSecretName, withDebugCallback, LOG_LEVELS,
  type Logger, type LoggerOptions, type LoggerOption, type LogEntry, type LogSink, type LogLevel,
} from '../logger.js';
export { webSocketConnector, bridgeUrlFor, type WebSocketConnectorOptions } from './sockets/websocket.js';
export { cloudflareConnector } from './sockets/cloudflare.js';
export type { ByteSocket, ByteSocketEvents, SocketConnector, SocketTarget } from './sockets/socket.js';
export { startBridge, BridgeRefusal, type BridgeOptions, type KafkaBridge } from './bridge.js';
