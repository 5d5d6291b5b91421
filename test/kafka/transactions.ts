// Test helper: idempotent and transactional produce spoken at the protocol level with kafka-wire's
// connection (InitProducerId, AddPartitionsToTxn, Produce with producer ids and sequences, EndTxn),
// so that the real broker judges the requests as kafka-wire encodes them.
import { encodeRecordBatch, type CompressionName, type RecordInput } from '../../src/records/index.js';
import { kafkaErrorName, type Connection, type KafkaClient, type TopicInfo } from '../../src/wire/index.js';

/** Kafka's retriable errors around a coordinator that is still loading or moved. */
const RETRIABLE = new Set([14 /* COORDINATOR_LOAD_IN_PROGRESS */, 15 /* COORDINATOR_NOT_AVAILABLE */, 16 /* NOT_COORDINATOR */, 51 /* CONCURRENT_TRANSACTIONS */]);

async function retrying<T extends { errorCode: number }>(what: string, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const res = await call();
    if (res.errorCode === 0) return res;
    if (!RETRIABLE.has(res.errorCode) || attempt > 40) throw new Error(`${what}: ${kafkaErrorName(res.errorCode)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface ProducerSession { conn: Connection; producerId: bigint; producerEpoch: number; transactionalId: string | null; sequence: Map<number, number> }

/** The transaction coordinator's connection (FindCoordinator, key type 1). */
async function coordinator(client: KafkaClient, transactionalId: string): Promise<Connection> {
  const conn = await client.anyConnection();
  const res = await retrying('FindCoordinator', async () => {
    const version = conn.versionFor(10)!;
    const r = await conn.request(10, version, version >= 4 ? { keyType: 1, coordinatorKeys: [transactionalId] } : { keyType: 1, key: transactionalId });
    const c = r.coordinators[0];
    return c ? { errorCode: c.errorCode, nodeId: c.nodeId } : { errorCode: r.errorCode, nodeId: r.nodeId };
  });
  await client.metadata(null);
  return client.broker(res.nodeId);
}

/** InitProducerId: an idempotent producer (transactionalId null) or a transactional one. */
export async function initProducer(client: KafkaClient, transactionalId: string | null): Promise<ProducerSession> {
  const conn = transactionalId === null ? await client.anyConnection() : await coordinator(client, transactionalId);
  const res = await retrying('InitProducerId', () =>
    conn.request(22, undefined, { transactionalId, transactionTimeoutMs: 60_000, producerId: -1n, producerEpoch: -1 }));
  return { conn, producerId: res.producerId, producerEpoch: res.producerEpoch, transactionalId, sequence: new Map() };
}

/** AddPartitionsToTxn (the client versions, v3 and below). */
export async function addPartitions(session: ProducerSession, topic: string, partitions: number[]): Promise<void> {
  const version = Math.min(3, session.conn.versionFor(24) ?? 3);
  await retrying('AddPartitionsToTxn', async () => {
    const r = await session.conn.request(24, version, {
      v3AndBelowTransactionalId: session.transactionalId!, v3AndBelowProducerId: session.producerId,
      v3AndBelowProducerEpoch: session.producerEpoch, v3AndBelowTopics: [{ name: topic, partitions }],
    });
    const errors = r.resultsByTopicV3AndBelow.flatMap((t) => t.resultsByPartition.map((p) => p.partitionErrorCode)).filter((e) => e !== 0);
    return { errorCode: errors[0] ?? 0 };
  });
}

/** EndTxn: commit or abort. */
/**
 * EndTxn: commit or abort. From v5 (transactions version 2, KIP-890) the coordinator bumps the
 * epoch at every transaction's end and answers with the producer id and epoch to use next.
 */
export async function endTransaction(session: ProducerSession, commit: boolean): Promise<void> {
  const version = session.conn.versionFor(26)!;
  const res = await retrying('EndTxn', () => session.conn.request(26, version, {
    transactionalId: session.transactionalId!, producerId: session.producerId, producerEpoch: session.producerEpoch, committed: commit,
  }));
  if (version >= 5 && res.producerId >= 0n) {
    session.producerId = res.producerId;
    session.producerEpoch = res.producerEpoch;
    session.sequence.clear(); // a new epoch starts its sequences at 0
  }
}

/** One Produce of one batch to the partition's leader, with the session's producer id and next sequence (when given). */
export async function produceBatch(client: KafkaClient, info: TopicInfo, partition: number, records: RecordInput[],
  compression: CompressionName, session?: ProducerSession): Promise<bigint> {
  const sequence = session?.sequence.get(partition) ?? 0;
  const bytes = encodeRecordBatch({
    compression, records,
    ...(session ? { producerId: session.producerId, producerEpoch: session.producerEpoch, baseSequence: sequence, isTransactional: session.transactionalId !== null } : {}),
  });
  const conn = await client.leader(info.name, partition);
  const version = conn.versionFor(0)!;
  const res = await conn.request(0, version, {
    transactionalId: session?.transactionalId ?? null, acks: -1, timeoutMs: 30_000,
    topicData: [{ ...(version >= 13 ? { topicId: info.topicId } : { name: info.name }), partitionData: [{ index: partition, records: bytes }] }],
  });
  const p = res!.responses[0]!.partitionResponses[0]!;
  if (p.errorCode !== 0) throw new Error(`Produce ${info.name}/${partition}: ${kafkaErrorName(p.errorCode)} ${p.errorMessage ?? ''}`);
  session?.sequence.set(partition, sequence + records.length);
  return p.baseOffset;
}
