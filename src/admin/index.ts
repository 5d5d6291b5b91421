// Public API of the admin client (`kafka-wire/admin`): topics, configs, offsets and records,
// groups and the cluster, each call sent to the broker that must answer it, with per-resource
// results and errors (AdminError).
export {
  Admin, createAdmin,
  type AdminOptions, type NewTopic, type CreatedTopic, type TopicRef, type TopicListing, type TopicDescription, type PartitionDescription,
  type NewPartitions, type ConfigResource, type ConfigEntry, type ConfigSynonym, type ConfigDescription, type ConfigChange, type ConfigAlteration,
  type OffsetSpec, type OffsetQuery, type ListedOffset, type RecordsToDelete, type DeletedRecords,
  type GroupType, type GroupListing, type GroupMember, type GroupDescriptionResult, type CommittedOffset, type OffsetToCommit,
  type ClusterDescription, type FeatureDescription, type LogDirDescription, type PartitionReassignment, type ReplicaAssignment,
  type QuotaEntity, type ClientQuota, type QuotaAlteration, type ScramMechanismName, type ScramCredentials, type ScramAlteration,
  type AclBinding, type AclFilter, type FeatureUpdate, type DelegationToken, type TransactionListing, type TransactionDescription, type ProducerState, type TransactionToAbort,
} from './admin.js';
export { AdminError, type AdminErrorCode, type AdminErrorDetails } from './errors.js';
export { RETRIABLE as RETRIABLE_ERROR_CODES, type Route } from './router.js';
export {
  CONFIG_SOURCES, CONFIG_TYPES, CONFIG_OPERATIONS, RESOURCE_TYPE_CODES, ACL_OPERATIONS, ACL_RESOURCE_TYPES, ACL_PATTERN_TYPES, ACL_PERMISSIONS,
  type ConfigSource, type ConfigType, type ConfigOperation, type ConfigResourceType, type AclOperation, type AclResourceType, type AclPatternType, type AclPermission,
} from './codes.js';
export {
  listGroups, describeGroup, resetOffsets,
  type GroupDescription, type GroupMemberDescription, type PartitionOffsets, type ResetTarget, type ResetPlanRow,
} from './groups.js';
export { METADATA_VERSIONS, metadataVersionName } from './metadata-versions.js';
export { assignReplicas, type PlanBroker } from './reassign-plan.js';
export {
  listShareGroups, describeShareGroup, alterShareGroupOffsets, resetShareGroupOffsets, deleteShareGroupOffsets, deleteShareGroup, alterShareGroupConfig,
  type ShareGroupListing, type ShareGroupDescription, type ShareMemberDescription, type SharePartitionOffsets, type ShareResetTarget,
} from './share-groups.js';
