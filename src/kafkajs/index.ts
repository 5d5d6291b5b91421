// kafka-wire/kafkajs: kafkajs 2.2.4's API on kafka-wire's producer and consumer, so an app moves
// by changing one import (`from 'kafka-wire/kafkajs'` for `from 'kafkajs'`). docs/kafkajs.md says
// what changes, what is new (KIP-848 groups, Kafka 4, every codec built in) and what is not there.
//
//   const kafka = new Kafka({ clientId: 'app', brokers: ['localhost:9092'] });
//   const producer = kafka.producer();
//   await producer.connect();
//   await producer.send({ topic: 'orders', messages: [{ key: 'k', value: 'v' }] });
import type { ProducerOptions } from '../producer/index.js';
import { KafkaJSAdmin } from './admin.js';
import { KafkaJSConsumer } from './consumer.js';
import { KafkaJSNonRetriableError, KafkaJSNotImplemented } from './errors.js';
import { createLogger, logLevel, type Logger } from './logger.js';
import { KafkaJSProducer } from './producer.js';
import { saslOf } from './sasl.js';
import type { Admin, AdminConfig, Consumer, ConsumerConfig, KafkaConfig, Producer, ProducerConfig } from './types.js';

export {
  KafkaJSError, KafkaJSNonRetriableError, KafkaJSPartialMessageError, KafkaJSBrokerNotFound, KafkaJSProtocolError,
  KafkaJSConnectionError, KafkaJSConnectionClosedError, KafkaJSRequestTimeoutError, KafkaJSSASLAuthenticationError,
  KafkaJSNumberOfRetriesExceeded, KafkaJSOffsetOutOfRange, KafkaJSMemberIdRequired, KafkaJSGroupCoordinatorNotFound,
  KafkaJSNotImplemented, KafkaJSMetadataNotLoaded, KafkaJSTopicMetadataNotLoaded, KafkaJSStaleTopicMetadataAssignment,
  KafkaJSDeleteGroupsError, KafkaJSTimeout, KafkaJSLockTimeout, KafkaJSServerDoesNotSupportApiKey,
  KafkaJSUnsupportedMagicByteInMessageSet, KafkaJSDeleteTopicRecordsError, KafkaJSInvariantViolation, KafkaJSInvalidVarIntError,
  KafkaJSInvalidLongError, KafkaJSCreateTopicError, KafkaJSAggregateError, KafkaJSFetcherRebalanceError, KafkaJSNoBrokerAvailableError,
  KafkaJSAlterPartitionReassignmentsError, isKafkaJSError, isRebalancing, type KafkaJSErrorMetadata,
} from './errors.js';
export { logLevel, type Logger, type LogEntry, type LoggerEntryContent, type logCreator } from './logger.js';
export {
  CompressionTypes, CompressionCodecs, ConfigResourceTypes, ConfigSource, AclResourceTypes, ResourceTypes, AclOperationTypes,
  AclPermissionTypes, ResourcePatternTypes,
} from './constants.js';
export { Partitioners } from './partitioners.js';
export { PartitionAssigners, AssignerProtocol } from './assigners.js';
export type * from './types.js';

/** kafkajs's defaults for the connection (its docs' values). */
const CONNECTION_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 30_000;

export class Kafka {
  readonly #config: KafkaConfig;
  readonly #logger: Logger;

  constructor(config: KafkaConfig) {
    if (config === undefined || config === null) throw new KafkaJSNonRetriableError('Kafka needs a configuration ({ brokers })');
    const { brokers } = config;
    if (typeof brokers !== 'function' && (!Array.isArray(brokers) || brokers.length === 0)) {
      throw new KafkaJSNonRetriableError('Failed to connect: expected brokers array and got nothing');
    }
    this.#config = config;
    this.#logger = createLogger(config.logLevel ?? logLevel.INFO, config.logCreator);
  }

  /** The kafka-wire client options for this configuration (a brokers function is asked each time). */
  async #options(): Promise<Omit<ProducerOptions, 'acks'>> {
    const c = this.#config;
    if (c.socketFactory !== undefined) throw new KafkaJSNotImplemented('kafka-wire/kafkajs: socketFactory is not supported (kafka-wire opens its own sockets; use ssl for TLS options)');
    const brokers = typeof c.brokers === 'function' ? await c.brokers() : c.brokers;
    if (!Array.isArray(brokers) || brokers.length === 0) throw new KafkaJSNonRetriableError('Failed to connect: brokers function returned no brokers');
    return {
      bootstrap: brokers,
      clientId: c.clientId ?? 'kafkajs',
      tls: c.ssl === undefined || c.ssl === false ? undefined : c.ssl,
      sasl: saslOf(c.sasl, this.#logger),
      connectTimeoutMs: c.connectionTimeout ?? CONNECTION_TIMEOUT_MS,
      requestTimeoutMs: c.requestTimeout ?? REQUEST_TIMEOUT_MS,
      retryBackoffMs: c.retry?.initialRetryTime,
    };
  }

  producer(config?: ProducerConfig): Producer {
    return new KafkaJSProducer({ options: () => this.#options(), logger: this.#logger }, config);
  }

  consumer(config: ConsumerConfig): Consumer {
    return new KafkaJSConsumer({ options: () => this.#options(), logger: this.#logger }, config);
  }

  /** kafkajs's admin client (every method of kafkajs 2.2.4's Admin), over kafka-wire's own admin client (kafka-wire/admin). */
  admin(config?: AdminConfig): Admin {
    return new KafkaJSAdmin({ options: () => this.#options(), logger: this.#logger }, config);
  }

  logger(): Logger { return this.#logger; }
}
