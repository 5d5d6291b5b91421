// The enumerations kafkajs exports (codes of the Kafka protocol: compression, config and ACL
// resource types, operations, permissions, patterns, config sources) and its compression codec
// table, where every codec is built in: a plugin assigned to CompressionCodecs is accepted and
// never called, since kafka-wire's records engine compresses and decompresses them all.
import { compress, decompress } from '../records/index.js';
import type { CompressionName } from '../records/types.js';

export enum CompressionTypes {
  None = 0,
  GZIP = 1,
  Snappy = 2,
  LZ4 = 3,
  ZSTD = 4,
}

/** CompressionTypes as kafka-wire's codec names. */
export const COMPRESSION_NAME: Readonly<Record<number, CompressionName>> = { 0: 'none', 1: 'gzip', 2: 'snappy', 3: 'lz4', 4: 'zstd' };

/** A codec as kafkajs plugins shape it: compress / decompress of an encoder's buffer. */
export interface CompressionCodec {
  compress(encoder: { buffer: Buffer } | Buffer): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

const builtIn = (name: CompressionName) => (): CompressionCodec => ({
  async compress(encoder) {
    const data = Buffer.isBuffer(encoder) ? encoder : encoder.buffer;
    const out = compress(name, data);
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  },
  async decompress(buffer) {
    const out = decompress(name, buffer);
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- kafkajs declares the table's entries as () => any
export const CompressionCodecs: { [CompressionTypes.GZIP]: () => any; [CompressionTypes.Snappy]: () => any; [CompressionTypes.LZ4]: () => any; [CompressionTypes.ZSTD]: () => any } = {
  [CompressionTypes.GZIP]: builtIn('gzip'),
  [CompressionTypes.Snappy]: builtIn('snappy'),
  [CompressionTypes.LZ4]: builtIn('lz4'),
  [CompressionTypes.ZSTD]: builtIn('zstd'),
};

export enum ConfigResourceTypes {
  UNKNOWN = 0,
  TOPIC = 2,
  BROKER = 4,
  BROKER_LOGGER = 8,
}

export enum ConfigSource {
  UNKNOWN = 0,
  TOPIC_CONFIG = 1,
  DYNAMIC_BROKER_CONFIG = 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG = 3,
  STATIC_BROKER_CONFIG = 4,
  DEFAULT_CONFIG = 5,
  DYNAMIC_BROKER_LOGGER_CONFIG = 6,
}

export enum AclResourceTypes {
  UNKNOWN = 0,
  ANY = 1,
  TOPIC = 2,
  GROUP = 3,
  CLUSTER = 4,
  TRANSACTIONAL_ID = 5,
  DELEGATION_TOKEN = 6,
}

/** kafkajs 1.x's name for AclResourceTypes (2.2.4 no longer exports it; kept for old apps). */
export const ResourceTypes = AclResourceTypes;

export enum AclOperationTypes {
  UNKNOWN = 0,
  ANY = 1,
  ALL = 2,
  READ = 3,
  WRITE = 4,
  CREATE = 5,
  DELETE = 6,
  ALTER = 7,
  DESCRIBE = 8,
  CLUSTER_ACTION = 9,
  DESCRIBE_CONFIGS = 10,
  ALTER_CONFIGS = 11,
  IDEMPOTENT_WRITE = 12,
}

export enum AclPermissionTypes {
  UNKNOWN = 0,
  ANY = 1,
  DENY = 2,
  ALLOW = 3,
}

export enum ResourcePatternTypes {
  UNKNOWN = 0,
  ANY = 1,
  MATCH = 2,
  LITERAL = 3,
  PREFIXED = 4,
}
