// The explorer index's grouping of APIs by what they are for, by name: a name not listed falls to
// admin, and the share and streams group families are matched by their prefixes.
import type { ApiDef } from '../catalogue/schema.js';

export const API_GROUPS = [
  'produce and consume', 'consumer groups', 'transactions', 'share groups', 'streams groups', 'admin', 'KRaft and controller',
] as const;
export type ApiGroup = (typeof API_GROUPS)[number];

const BY_NAME: Record<string, ApiGroup> = {};
const put = (group: ApiGroup, names: string) => { for (const name of names.split(' ')) BY_NAME[name] = group; };
put('produce and consume', 'Produce Fetch ListOffsets Metadata OffsetForLeaderEpoch DescribeTopicPartitions ApiVersions '
  + 'SaslHandshake SaslAuthenticate GetTelemetrySubscriptions PushTelemetry');
put('consumer groups', 'OffsetCommit OffsetFetch FindCoordinator JoinGroup Heartbeat LeaveGroup SyncGroup DescribeGroups '
  + 'ListGroups DeleteGroups OffsetDelete ConsumerGroupHeartbeat ConsumerGroupDescribe');
put('transactions', 'InitProducerId AddPartitionsToTxn AddOffsetsToTxn EndTxn WriteTxnMarkers TxnOffsetCommit '
  + 'DescribeTransactions ListTransactions DescribeProducers');
put('KRaft and controller', 'LeaderAndIsr StopReplica UpdateMetadata ControlledShutdown Vote BeginQuorumEpoch EndQuorumEpoch '
  + 'DescribeQuorum AlterPartition Envelope FetchSnapshot BrokerRegistration BrokerHeartbeat UnregisterBroker AllocateProducerIds '
  + 'AddRaftVoter RemoveRaftVoter UpdateRaftVoter AssignReplicasToDirs ControllerRegistration UnregisterController');

/** The group an API belongs to. */
export function apiGroup(api: ApiDef): ApiGroup {
  if (/Share/.test(api.name)) return 'share groups';
  if (/^StreamsGroup/.test(api.name)) return 'streams groups';
  return BY_NAME[api.name] ?? 'admin';
}
