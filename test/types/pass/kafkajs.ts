// Must pass: an app written against kafkajs 2.2.4's types, using every method of its producer,
// transaction and consumer (and its admin client's, which kafka-wire/kafkajs declares). The same
// file compiles against kafkajs itself (test/kafkajs/types.test.ts swaps the import).
import {
  Kafka, logLevel, CompressionTypes, CompressionCodecs, Partitioners, PartitionAssigners, AssignerProtocol,
  AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes, ConfigResourceTypes,
  KafkaJSError, KafkaJSProtocolError, KafkaJSNumberOfRetriesExceeded, KafkaJSConnectionError, KafkaJSNonRetriableError,
  type KafkaConfig, type ProducerConfig, type ConsumerConfig, type Producer, type Consumer, type Transaction, type Admin,
  type EachMessagePayload, type EachBatchPayload, type KafkaMessage, type RecordMetadata, type Message, type IHeaders,
  type LogEntry, type logCreator, type ConsumerRunConfig, type TopicPartitionOffsetAndMetadata, type GroupDescription,
  type ConsumerCrashEvent, type ConsumerGroupJoinEvent, type InstrumentationEvent, type ProducerRecord, type ProducerBatch,
  type Offsets, type Batch, type PartitionerArgs, type ICustomPartitioner, type SASLOptions, type Logger,
} from '../../../src/kafkajs/index.js';

const entries: LogEntry[] = [];
const toMemory: logCreator = (level: logLevel) => (entry: LogEntry) => { if (level >= logLevel.ERROR) entries.push(entry); };
const sasl: SASLOptions = { mechanism: 'scram-sha-512', username: 'app', password: 'secret' };
const config: KafkaConfig = {
  clientId: 'orders-service',
  brokers: async () => ['kafka-1:9092', 'kafka-2:9092'],
  ssl: { rejectUnauthorized: true },
  sasl,
  connectionTimeout: 3000,
  requestTimeout: 25000,
  retry: { initialRetryTime: 100, retries: 8 },
  logLevel: logLevel.WARN,
  logCreator: toMemory,
};
const kafka = new Kafka(config);
const log: Logger = kafka.logger();
log.info('starting', { pid: 1 });
log.namespace('orders').debug('namespaced');

const byRegion: ICustomPartitioner = () => ({ partitionMetadata, message }: PartitionerArgs) =>
  message.headers?.region === 'eu' ? 0 : partitionMetadata.length - 1;
const producerConfig: ProducerConfig = { createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false, idempotent: true };
const producer: Producer = kafka.producer(producerConfig);
const legacy = kafka.producer({ createPartitioner: Partitioners.LegacyPartitioner });
const custom = kafka.producer({ createPartitioner: byRegion, transactionalId: 'orders-tx', maxInFlightRequests: 1, transactionTimeout: 30000 });
CompressionCodecs[CompressionTypes.Snappy] = () => ({ compress: async (b: Buffer) => b, decompress: async (b: Buffer) => b });

export async function produce(): Promise<string[]> {
  await producer.connect();
  const headers: IHeaders = { 'correlation-id': 'abc', tags: ['a', Buffer.from('b')] };
  const messages: Message[] = [{ key: 'order-1', value: JSON.stringify({ total: 3 }), headers, timestamp: String(Date.now()) }, { value: Buffer.from('raw'), partition: 0 }];
  const record: ProducerRecord = { topic: 'orders', messages, acks: -1, timeout: 30000, compression: CompressionTypes.GZIP };
  const sent: RecordMetadata[] = await producer.send(record);
  const batch: ProducerBatch = { acks: 1, compression: CompressionTypes.ZSTD, topicMessages: [{ topic: 'orders', messages }, { topic: 'audit', messages: [{ value: null }] }] };
  const batched = await producer.sendBatch(batch);
  const remove = producer.on(producer.events.CONNECT, (e) => log.info(`connected at ${e.timestamp}`));
  producer.on(producer.events.REQUEST, ({ payload }) => log.debug(`${payload.apiName} took ${payload.duration}`));
  remove();
  if (!producer.isIdempotent()) log.warn('not idempotent');
  producer.logger().info('sent');
  await legacy.disconnect();
  await producer.disconnect();
  return [...sent, ...batched].map((m) => `${m.topicName}/${m.partition}@${m.baseOffset ?? m.offset}`);
}

export async function transfer(offsets: Offsets): Promise<boolean> {
  await custom.connect();
  const tx: Transaction = await custom.transaction();
  try {
    await tx.send({ topic: 'ledger', messages: [{ key: 'a', value: '1' }] });
    await tx.sendBatch({ topicMessages: [{ topic: 'ledger', messages: [{ value: '2' }] }] });
    await tx.sendOffsets({ consumerGroupId: 'ledger-writers', ...offsets });
    await tx.commit();
  } catch (e) {
    if (tx.isActive()) await tx.abort();
    if (e instanceof KafkaJSProtocolError) log.error(`${e.type} (${e.code}) retriable=${e.retriable}`);
    throw e;
  }
  return tx.isActive();
}

const consumerConfig: ConsumerConfig = {
  groupId: 'orders-readers', partitionAssigners: [PartitionAssigners.roundRobin], sessionTimeout: 30000, heartbeatInterval: 3000,
  maxBytesPerPartition: 1048576, maxWaitTimeInMs: 1000, readUncommitted: false, retry: { retries: 3, restartOnFailure: async (e: Error) => e.name !== 'KafkaJSNonRetriableError' },
};
const consumer: Consumer = kafka.consumer(consumerConfig);

async function handle(message: KafkaMessage): Promise<void> {
  const value: Buffer | null = message.value;
  const key: string | undefined = message.key?.toString();
  const offset: string = message.offset;
  const timestamp: number = Number(message.timestamp);
  const id = message.headers?.['correlation-id']?.toString();
  log.debug(`${key} ${offset} ${timestamp} ${id} ${value?.length}`);
}

export async function consume(): Promise<GroupDescription> {
  await consumer.connect();
  await consumer.subscribe({ topics: ['orders', /^audit-.*/], fromBeginning: true });
  await consumer.subscribe({ topic: 'legacy-topic' });
  consumer.on(consumer.events.GROUP_JOIN, (e: ConsumerGroupJoinEvent) => log.info(`joined ${e.payload.groupId} with ${JSON.stringify(e.payload.memberAssignment)}`));
  consumer.on(consumer.events.CRASH, ({ payload }: ConsumerCrashEvent) => { if (!payload.restart) log.error(payload.error.message); });
  consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => payload.topics.forEach((t) => t.partitions.forEach((p) => log.debug(`${t.topic}/${p.partition}@${p.offset}`))));
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => log.debug(`${payload.batchSize} in ${payload.duration} ms, lag ${payload.offsetLag}`));
  consumer.on(consumer.events.STOP, (e: InstrumentationEvent<null>) => log.info(e.type));
  const eachMessage = async ({ topic, partition, message, heartbeat, pause }: EachMessagePayload) => {
    if (topic === 'orders' && message.value === null) {
      const resume = pause();
      setTimeout(resume, 1000);
      return;
    }
    await handle(message);
    await heartbeat();
    if (partition < 0) throw new KafkaJSNonRetriableError('impossible');
  };
  const run: ConsumerRunConfig = { eachMessage, autoCommitInterval: 5000, autoCommitThreshold: 100, partitionsConsumedConcurrently: 1 };
  await consumer.run(run);
  consumer.pause([{ topic: 'orders' }, { topic: 'audit-eu', partitions: [0, 1] }]);
  const paused: string[] = consumer.paused().map((tp) => `${tp.topic}:${tp.partitions.join(',')}`);
  consumer.resume([{ topic: 'orders' }]);
  consumer.seek({ topic: 'orders', partition: 0, offset: '42' });
  const commits: TopicPartitionOffsetAndMetadata[] = [{ topic: 'orders', partition: 0, offset: '43', metadata: paused.join(';') }];
  await consumer.commitOffsets(commits);
  const group = await consumer.describeGroup();
  const assignment = AssignerProtocol.MemberAssignment.decode(group.members[0]!.memberAssignment);
  log.info(`${group.state} ${Object.keys(assignment?.assignment ?? {}).length}`);
  await consumer.stop();
  await consumer.run({
    eachBatchAutoResolve: false,
    autoCommit: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, uncommittedOffsets, isRunning, isStale, pause }: EachBatchPayload) => {
      const b: Batch = batch;
      for (const message of b.messages) {
        if (!isRunning() || isStale()) break;
        await handle(message);
        resolveOffset(message.offset);
        await heartbeat();
      }
      if (b.offsetLag() === '0' && b.offsetLagLow() !== b.firstOffset() && !b.isEmpty()) pause();
      await commitOffsetsIfNecessary(uncommittedOffsets());
      log.debug(`${b.topic}/${b.partition} to ${b.lastOffset()} of ${b.highWatermark}`);
    },
  });
  consumer.logger().info('running');
  await consumer.disconnect();
  return group;
}

export async function administer(): Promise<number> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  const topics = await admin.listTopics();
  await admin.createTopics({ topics: [{ topic: 'new', numPartitions: 3, replicationFactor: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }], waitForLeaders: true });
  await admin.createPartitions({ topicPartitions: [{ topic: 'new', count: 6 }] });
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: ['new'] });
  const offsets = await admin.fetchTopicOffsets('new');
  await admin.fetchTopicOffsetsByTimestamp('new', Date.now() - 60_000);
  const committed = await admin.fetchOffsets({ groupId: 'g', topics: ['new'] });
  await admin.setOffsets({ groupId: 'g', topic: 'new', partitions: [{ partition: 0, offset: '0' }] });
  await admin.resetOffsets({ groupId: 'g', topic: 'new', earliest: true });
  const cluster = await admin.describeCluster();
  const configs = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: 'new' }] });
  await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: 'new', configEntries: [{ name: 'retention.ms', value: '1000' }] }] });
  const { groups } = await admin.listGroups();
  await admin.describeGroups(groups.map((g) => g.groupId));
  await admin.deleteGroups(['old']);
  const acl = { resourceType: AclResourceTypes.TOPIC, resourceName: 'new', resourcePatternType: ResourcePatternTypes.LITERAL, principal: 'User:app', host: '*', operation: AclOperationTypes.READ, permissionType: AclPermissionTypes.ALLOW };
  await admin.createAcls({ acl: [acl] });
  await admin.describeAcls(acl);
  await admin.deleteAcls({ filters: [acl] });
  await admin.deleteTopicRecords({ topic: 'new', partitions: [{ partition: 0, offset: '10' }] });
  await admin.alterPartitionReassignments({ topics: [{ topic: 'new', partitionAssignment: [{ partition: 0, replicas: [1, 2] }] }] });
  await admin.listPartitionReassignments({ topics: [{ topic: 'new', partitions: [0] }] });
  await admin.deleteTopics({ topics: ['new'] });
  admin.on(admin.events.CONNECT, (e) => admin.logger().info(e.type));
  await admin.disconnect();
  return topics.length + metadata.length + offsets.length + committed.length + cluster.brokers.length + configs.resources.length;
}

export function classify(e: unknown): string {
  if (e instanceof KafkaJSNumberOfRetriesExceeded) return `gave up after ${e.retryCount}`;
  if (e instanceof KafkaJSConnectionError) return `broker ${e.broker}`;
  if (e instanceof KafkaJSError) return `${e.name}${e.retriable ? ' (retriable)' : ''}`;
  return String(e);
}
