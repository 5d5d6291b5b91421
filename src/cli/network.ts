// The network commands metadata and consume against a broker, kcat-style (-b HOST:PORT,
// -t TOPIC, -p N, -o OFFSET, -e, -c COUNT), and the options every network command shares
// (produce, on the producer, is ./produce-command.ts).
import { KafkaClient, type ClientOptions, type TopicInfo } from '../wire/client.js';
import type { Connection, ConnectOptions } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { consumeLoop, byLeader, type Encoding } from '../wire/consume.js';
import { ZERO_UUID } from '../wire/versions.js';
import { GROUP_CONSUME_OPTIONS, refuseGroupOptions, runGroupConsume } from './group-consume.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { integerArg, stringOption, type OptionSpec, type OptionValues, type ParsedArgs } from './options.js';

export const NETWORK_OPTIONS: readonly OptionSpec[] = [
  { name: 'broker', short: 'b', value: 'HOST:PORT', help: 'a bootstrap broker (several: comma-separated)' },
  { name: 'client-id', value: 'ID', help: 'the client id sent in every request (default kafka-wire-cli)' },
  { name: 'timeout', value: 'MS', help: 'request timeout in milliseconds' },
  { name: 'tls', help: 'connect with TLS' },
  { name: 'tls-insecure', help: 'TLS without checking the broker\'s certificate' },
  { name: 'sasl-username', value: 'USER', help: 'SASL/PLAIN user name' },
  { name: 'sasl-password', value: 'PASSWORD', help: 'SASL/PLAIN password' },
];

export const TOPIC_OPTION: OptionSpec = { name: 'topic', short: 't', value: 'TOPIC', help: 'the topic' };
export const PARTITION_OPTION: OptionSpec = { name: 'partition', short: 'p', value: 'N', help: 'only this partition' };

export function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
}

export function clientFrom(values: OptionValues): KafkaClient {
  return new KafkaClient(clientOptionsFrom(values));
}

/** The client options -b, --client-id, --timeout, --tls and --sasl-* give. */
export function clientOptionsFrom(values: OptionValues): ClientOptions {
  const broker = stringOption(values, 'broker');
  if (broker === undefined) throw new UsageError('-b HOST:PORT is required');
  const timeout = integerArg(stringOption(values, 'timeout'), '--timeout', 0);
  const options: Omit<ConnectOptions, 'host' | 'port'> = {
    clientId: stringOption(values, 'client-id') ?? 'kafka-wire-cli',
    requestTimeoutMs: timeout,
    tls: values.tls || values['tls-insecure'] ? (values['tls-insecure'] ? { rejectUnauthorized: false } : true) : undefined,
    // ListOffsets (key 2) v3 covers earliest/latest; librdkafka 2.0.2's mock broker mis-encodes v4+.
    maxVersions: { 2: 3 },
  };
  if (values['sasl-username'] !== undefined || values['sasl-password'] !== undefined) {
    options.sasl = { mechanism: 'PLAIN', username: stringOption(values, 'sasl-username') ?? '', password: stringOption(values, 'sasl-password') ?? '' };
  }
  try {
    new KafkaClient({ ...options, bootstrap: broker }); // checks the list
  } catch (error) {
    throw new UsageError(`-b ${broker}: ${(error as Error).message}`); // no HOST:PORT in it
  }
  return { ...options, bootstrap: broker };
}

export function partitionArg(values: OptionValues): number | undefined {
  return integerArg(stringOption(values, 'partition'), '-p (partition)', 0);
}

// ---- metadata ----

export const metadata: Command = {
  name: 'metadata',
  summary: 'the cluster\'s brokers, topics and partitions as JSON (kcat -L)',
  synopsis: ['-b HOST:PORT [-t TOPIC]...'],
  options: [...NETWORK_OPTIONS, { ...TOPIC_OPTION, multiple: true, help: 'only these topics (repeatable); exit 1 if one has an error' }],
  run: runMetadata,
};

async function runMetadata({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  noPositionals(positionals);
  const client = clientFrom(values);
  try {
    const topics = values.topic as string[] | undefined;
    const md = await client.metadata(topics ?? null, false);
    const out = {
      clusterId: md.clusterId ?? null,
      controllerId: md.controllerId ?? -1,
      brokers: md.brokers.map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack ?? null }))
        .sort((a, b) => a.nodeId - b.nodeId),
      topics: md.topics.map((t) => ({
        name: t.name,
        ...(t.topicId && t.topicId !== ZERO_UUID ? { topicId: t.topicId } : {}),
        ...(t.isInternal ? { isInternal: true } : {}),
        errorCode: t.errorCode,
        ...(t.errorCode ? { error: kafkaErrorName(t.errorCode) } : {}),
        partitions: t.partitions.map((p) => ({
          partition: p.partitionIndex, leader: p.leaderId, replicas: p.replicaNodes, isr: p.isrNodes,
          ...(p.errorCode ? { errorCode: p.errorCode, error: kafkaErrorName(p.errorCode) } : {}),
        })).sort((a, b) => a.partition - b.partition),
      })).sort((a, b) => String(a.name).localeCompare(String(b.name))),
    };
    io.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return topics && md.topics.some((t) => t.errorCode !== 0) ? 1 : 0;
  } finally {
    await client.close();
  }
}

/** The -t TOPIC that produce and consume need. */
export function requiredTopic(values: OptionValues): string {
  const topic = stringOption(values, 'topic');
  if (!topic) throw new UsageError('-t TOPIC is required');
  return topic;
}

// ---- consume (the loop: consume.ts) ----

const ENCODINGS: readonly Encoding[] = ['utf8', 'base64', 'hex'];

export const consume: Command = {
  name: 'consume',
  summary: 'records to stdout, one JSON object per line {topic, partition, offset, timestamp, key, value, headers} (kcat -C)',
  synopsis: [
    '-b HOST:PORT -t TOPIC [-p N] [-o beginning|end|N|-N] [-e] [-c COUNT] [--encoding utf8|base64|hex]',
    '-b HOST:PORT -G GROUP TOPIC|^REGEX... [-o beginning|end|s@TIMESTAMP] [--isolation read_committed] [-e] [-c COUNT]',
  ],
  options: [
    ...NETWORK_OPTIONS, TOPIC_OPTION, PARTITION_OPTION,
    { name: 'offset', short: 'o', value: 'OFFSET', help: 'beginning (default), end, N, or -N (N before the end)' },
    { name: 'exit', short: 'e', help: 'exit at the end of the partitions instead of waiting for more' },
    { name: 'count', short: 'c', value: 'COUNT', help: 'exit after COUNT records' },
    { name: 'encoding', value: 'ENCODING', help: 'keys, values and headers as utf8 (default), base64 or hex' },
    ...GROUP_CONSUME_OPTIONS,
  ],
  run: runConsume,
};

async function runConsume({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const group = stringOption(values, 'group');
  if (group === undefined) { noPositionals(positionals); refuseGroupOptions(values); }
  const topic = group === undefined ? requiredTopic(values) : '';
  const only = partitionArg(values);
  const offsetArg = stringOption(values, 'offset') ?? 'beginning';
  if (group === undefined && !/^(beginning|end|-?\d+)$/.test(offsetArg)) throw new UsageError(`bad offset ${offsetArg} (beginning, end, N or -N)`);
  const limit = integerArg(stringOption(values, 'count'), '-c (count)', 0, Number.MAX_SAFE_INTEGER) ?? Infinity;
  const encoding = (stringOption(values, 'encoding') ?? 'utf8') as Encoding;
  if (!ENCODINGS.includes(encoding)) throw new UsageError(`--encoding must be ${ENCODINGS.join(', ')}, not ${JSON.stringify(encoding)}`);
  const exitAtEnd = values.exit === true;
  const signal = io.signal;
  if (group !== undefined) {
    return runGroupConsume({ group, topics: positionals, values, client: clientFrom(values).options, exitAtEnd, limit, encoding }, io);
  }

  const client = clientFrom(values);
  try {
    const info = await client.topic(topic);
    const partitions = only === undefined ? info.partitions.map((p) => p.partition) : [only];
    if (only !== undefined && !info.partitions.some((p) => p.partition === only)) {
      throw new Error(`topic ${topic} has no partition ${only} (it has ${info.partitions.length})`);
    }
    const start = await resolveOffsets(client, info, partitions, offsetArg);
    await consumeLoop(client, info, { start, exitAtEnd, limit, encoding, signal, write: (bytes) => io.stdout.write(bytes) });
    return 0;
  } finally {
    await client.close();
  }
}

async function resolveOffsets(client: KafkaClient, info: TopicInfo, partitions: number[], spec: string):
  Promise<Map<number, { offset: bigint; end: bigint }>> {
  const out = new Map<number, { offset: bigint; end: bigint }>();
  const topic = info.name;
  await Promise.all(byLeader(info, partitions).map(async (ps) => {
    const conn = await client.leader(topic, ps[0]!);
    const [earliest, latest] = await Promise.all([listOffsets(conn, topic, ps, -2n), listOffsets(conn, topic, ps, -1n)]);
    for (const p of ps) {
      const lo = earliest.get(p)!;
      const hi = latest.get(p)!;
      let offset: bigint;
      if (spec === 'beginning') offset = lo;
      else if (spec === 'end') offset = hi;
      else if (spec.startsWith('-')) offset = hi + BigInt(spec) < lo ? lo : hi + BigInt(spec);
      else offset = BigInt(spec);
      out.set(p, { offset, end: hi });
    }
  }));
  return out;
}

async function listOffsets(conn: Connection, topic: string, partitions: number[], timestamp: bigint): Promise<Map<number, bigint>> {
  const version = conn.versionFor(2);
  if (version === undefined) throw new Error(`broker ${conn.host}:${conn.port} lacks ListOffsets`);
  const res = await conn.request(2, version, {
    replicaId: -1,
    isolationLevel: 0,
    topics: [{ name: topic, partitions: partitions.map((p) => ({ partitionIndex: p, timestamp, maxNumOffsets: 1 })) }],
  });
  const out = new Map<number, bigint>();
  for (const t of res.topics) {
    for (const p of t.partitions) {
      if (p.errorCode !== 0) throw new Error(`ListOffsets ${topic}/${p.partitionIndex}: ${kafkaErrorName(p.errorCode)}`);
      out.set(p.partitionIndex, version === 0 ? (p.oldStyleOffsets[0] ?? 0n) : p.offset);
    }
  }
  for (const p of partitions) if (!out.has(p)) throw new Error(`ListOffsets ${topic}/${p}: no answer`);
  return out;
}

