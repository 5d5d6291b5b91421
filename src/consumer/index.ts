// The consumer folder's face: a group or partition consumer on the wire layer, the fast read of
// given partitions from a start to their end (readAssigned: what `kafka-wire consume` runs), the
// group protocol's pieces (assignors, subscription/assignment bytes, offsets) for tools that speak
// to groups themselves. The package's `kafka-wire/consumer` entry is ../consumer.ts (this, and the
// group admin functions that moved to kafka-wire/admin, for code written against earlier releases).
export { Consumer, PartitionBatch, type ConsumerOptions, type ConsumerEvents, type RunHandlers, type PartitionOffset } from './consumer.js';
export {
  serdes, jsonSafe, SerdeError, type Serde, type Serializer, type Deserializer, type SerializeFn, type DeserializeFn,
  type ConsumerRecord, type JsonSafe, type SerdeErrorCode, type DeserializerOptions,
} from '../serde.js';
export { ConsumerError, GroupErrorCode, type ConsumerErrorCode, type ConsumerErrorDetails } from './errors.js';
export { rangeAssignor, cooperativeStickyAssignor, ASSIGNORS, type Assignor, type AssignorMember, type GroupAssignment } from './assignors.js';
export {
  encodeSubscription, decodeSubscription, encodeAssignment, decodeAssignment, CONSUMER_PROTOCOL_TYPE,
  type Subscription, type Assignment, type TopicPartitions,
} from './protocol.js';
export {
  fetchCommitted, commitOffsets, listOffsets, startOffsets, PartitionErrors,
  type ResetPolicy, type OffsetMap, type CommitIdentity, type StartAt, type PartitionStart,
} from './offsets.js';
export { readAssigned, type ReadAssignedOptions } from './assigned.js';
export { readCommitted, type AbortedTransaction } from '../wire/isolation.js';
export { ClassicMembership, type Membership, type MembershipHooks, type MemberState } from './group.js';
export { NextGenMembership } from './next-gen.js';
export {
  ShareConsumer, AcknowledgeType,
  type ShareConsumerOptions, type ShareConsumerEvents, type ShareRecord, type ShareRecordRun, type AcknowledgementResult, type AcknowledgeTypeName,
} from './share.js';
