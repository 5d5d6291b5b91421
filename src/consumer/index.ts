// Public API of the consumer (`kafka-wire/consumer`): a group or partition consumer on the wire
// layer, the group protocol's pieces (assignors, subscription/assignment bytes, offsets) for
// tools that speak to groups themselves, and the admin requests `kafka-wire group` uses.
export { Consumer, PartitionBatch, type ConsumerOptions, type ConsumerEvents } from './consumer.js';
export { ConsumerError, GroupErrorCode, type ConsumerErrorCode, type ConsumerErrorDetails } from './errors.js';
export { rangeAssignor, cooperativeStickyAssignor, ASSIGNORS, type Assignor, type AssignorMember, type GroupAssignment } from './assignors.js';
export {
  encodeSubscription, decodeSubscription, encodeAssignment, decodeAssignment, CONSUMER_PROTOCOL_TYPE,
  type Subscription, type Assignment, type TopicPartitions,
} from './protocol.js';
export { fetchCommitted, commitOffsets, listOffsets, PartitionErrors, type ResetPolicy, type OffsetMap, type CommitIdentity } from './offsets.js';
export { readCommitted, type AbortedTransaction } from '../wire/isolation.js';
export { ClassicMembership, type Membership, type MembershipHooks, type MemberState } from './group.js';
export { NextGenMembership } from './next-gen.js';
export {
  listGroups, describeGroup, resetOffsets,
  type GroupListing, type GroupDescription, type GroupMemberDescription, type PartitionOffsets, type ResetTarget, type ResetPlanRow,
} from './admin.js';
export {
  ShareConsumer, AcknowledgeType,
  type ShareConsumerOptions, type ShareConsumerEvents, type ShareRecord, type AcknowledgementResult, type AcknowledgeTypeName,
} from './share.js';
export {
  listShareGroups, describeShareGroup, alterShareGroupOffsets, resetShareGroupOffsets, deleteShareGroupOffsets, deleteShareGroup, alterShareGroupConfig,
  type ShareGroupListing, type ShareGroupDescription, type ShareMemberDescription, type SharePartitionOffsets, type ShareResetTarget,
} from './share-admin.js';
