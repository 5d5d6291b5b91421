// The package's `kafka-wire/consumer` entry: the consumer (./consumer/index.ts), and the group and
// share-group admin functions that moved up to the admin client (kafka-wire/admin), still offered here for code
// written against earlier releases. An entry stands above every floor, so this re-export points
// down; from inside the consumer folder it would point up.
export * from './consumer/index.js';
/**
 * @deprecated Moved to `kafka-wire/admin` (an Admin's listGroups, describeGroups, fetchOffsets,
 * alterOffsets; these functions too): re-exported here for code written against earlier releases.
 */
export {
  listGroups, describeGroup, resetOffsets,
  type GroupListing, type GroupDescription, type GroupMemberDescription, type PartitionOffsets, type ResetTarget, type ResetPlanRow,
} from './admin/groups.js';
/**
 * @deprecated Moved to `kafka-wire/admin` (an Admin's listShareGroups, describeShareGroups, ...;
 * these functions too): re-exported here for code written against earlier releases.
 */
export {
  listShareGroups, describeShareGroup, alterShareGroupOffsets, resetShareGroupOffsets, deleteShareGroupOffsets, deleteShareGroup, alterShareGroupConfig,
  type ShareGroupListing, type ShareGroupDescription, type ShareMemberDescription, type SharePartitionOffsets, type ShareResetTarget,
} from './admin/share-groups.js';
