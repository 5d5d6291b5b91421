// Where Kafka keeps its JSON message schemas: in its source tree, and in every kafka-clients jar.
// (Plain names, no file access: both the Node and the browser entries of kafka-wire/catalogue export them.)
export const KAFKA_SOURCE_SCHEMAS = 'clients/src/main/resources/common/message';
export const KAFKA_JAR_SCHEMAS = 'common/message';
