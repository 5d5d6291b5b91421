// kafka-wire/producer: a pipelined, idempotent (by default) and transactional Kafka producer.
export { createProducer, Producer, type ProducerOptions, type ProducerStats } from './producer.js';
export type { RecordMetadata } from './accumulator.js';
export { DelimitedWriter, type DelimitedOptions } from './delimited.js';
export type { BatchAck } from './sender.js';
export { ProducerError, errorName, type ProducerErrorCode, type ProducerErrorDetails } from './errors.js';
export { murmur2, partitionForKey, type Partitioner } from './partitioner.js';
export type { GroupMetadata, OffsetToCommit, TransactionState } from './transactions.js';
export { serdes, jsonSafe, SerdeError, type Serde, type Serializer, type SerializeFn, type RecordToSend, type RawField, type JsonSafe, type SerializerOptions } from '../serde.js';
