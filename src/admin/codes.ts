// The numbers Kafka's admin requests carry and the names its tools print for them (config
// sources and types, resource types, ACL operations, patterns and permissions), both ways.
// Kafka's Java Admin prints the same names; test/admin/*.test.ts compares with it.

/** DescribeConfigs' configSource, by the names Kafka's Admin gives them (ConfigEntry.ConfigSource). */
export const CONFIG_SOURCES = [
  'UNKNOWN', 'DYNAMIC_TOPIC_CONFIG', 'DYNAMIC_BROKER_CONFIG', 'DYNAMIC_DEFAULT_BROKER_CONFIG', 'STATIC_BROKER_CONFIG',
  'DEFAULT_CONFIG', 'DYNAMIC_BROKER_LOGGER_CONFIG', 'DYNAMIC_CLIENT_METRICS_CONFIG', 'DYNAMIC_GROUP_CONFIG',
] as const;
export type ConfigSource = (typeof CONFIG_SOURCES)[number];

export const CONFIG_TYPES = ['UNKNOWN', 'BOOLEAN', 'STRING', 'INT', 'SHORT', 'LONG', 'DOUBLE', 'LIST', 'CLASS', 'PASSWORD'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

/** Config resources: the name kafka-wire takes, and the resourceType on the wire. */
export const RESOURCE_TYPE_CODES = { topic: 2, broker: 4, 'broker-logger': 8, 'client-metrics': 16, group: 32 } as const;
export type ConfigResourceType = keyof typeof RESOURCE_TYPE_CODES;

/** IncrementalAlterConfigs' configOperation. */
export const CONFIG_OPERATIONS = { set: 0, delete: 1, append: 2, subtract: 3 } as const;
export type ConfigOperation = keyof typeof CONFIG_OPERATIONS;

/** ACL operations by code (AclOperation), also the bits of an authorizedOperations field. */
export const ACL_OPERATIONS = [
  'UNKNOWN', 'ANY', 'ALL', 'READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'CLUSTER_ACTION',
  'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'IDEMPOTENT_WRITE', 'CREATE_TOKENS', 'DESCRIBE_TOKENS', 'TWO_PHASE_COMMIT',
] as const;
export type AclOperation = (typeof ACL_OPERATIONS)[number];

/** ACL resource types (ResourceType). */
export const ACL_RESOURCE_TYPES = ['UNKNOWN', 'ANY', 'TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID', 'DELEGATION_TOKEN', 'USER'] as const;
export type AclResourceType = (typeof ACL_RESOURCE_TYPES)[number];

/** ACL resource pattern types (PatternType): MATCH and ANY only in filters. */
export const ACL_PATTERN_TYPES = ['UNKNOWN', 'ANY', 'MATCH', 'LITERAL', 'PREFIXED'] as const;
export type AclPatternType = (typeof ACL_PATTERN_TYPES)[number];

export const ACL_PERMISSIONS = ['UNKNOWN', 'ANY', 'DENY', 'ALLOW'] as const;
export type AclPermission = (typeof ACL_PERMISSIONS)[number];

/** A code's name in one of the lists above ("UNKNOWN" for a code past its end). */
export function nameOf(names: readonly string[], code: number): string {
  return names[code] ?? 'UNKNOWN';
}

/** A name's code in one of the lists above, or -1. */
export function codeOf(names: readonly string[], name: string): number {
  return names.indexOf(name.toUpperCase());
}

/**
 * An authorizedOperations bit field as the operations' names, sorted; null where the broker left
 * it out (INT32_MIN: not asked for, or not known).
 */
export function authorizedOperations(bits: number | null): string[] | null {
  if (bits === null || bits === -2147483648) return null;
  return ACL_OPERATIONS.filter((_, code) => code < 32 && (bits & (1 << code)) !== 0).slice().sort();
}
