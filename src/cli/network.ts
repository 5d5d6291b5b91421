// The network commands metadata and consume against a broker, kcat-style (-b HOST:PORT,
// -t TOPIC, -p N, -o OFFSET, -e, -c COUNT), and the options every network command shares
// (produce, on the producer, is ./produce-command.ts).
import { readFileSync } from 'node:fs';
import { KafkaClient, type ClientOptions, type TopicInfo } from '../wire/client.js';
import { SASL_MECHANISMS, type Connection, type ConnectOptions, type SaslOptions } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { consumeLoop, byLeader, type Encoding } from './consume.js';
import { ZERO_UUID } from '../wire/versions.js';
import { IsolationLevel, ISOLATION_NAMES, type IsolationName } from '../wire/isolation.js';
import { GROUP_CONSUME_OPTIONS, refuseGroupOptions, runGroupConsume } from './group-consume.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { integerArg, stringOption, type OptionSpec, type OptionValues, type ParsedArgs } from './options.js';

/**
 * kcat's (librdkafka's) names for the security settings, as `-X key=value`, onto the long options
 * below, so one set of arguments works for both tools.
 */
export const SECURITY_PROPERTIES: Record<string, (value: string, into: OptionValues) => void> = {
  'security.protocol': (value, into) => {
    const protocol = value.toUpperCase();
    if (!['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'].includes(protocol)) {
      throw new UsageError(`-X security.protocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not ${JSON.stringify(value)}`);
    }
    if (protocol.endsWith('SSL')) into.tls = true;
    if (protocol.startsWith('SASL')) into['sasl-mechanism'] ??= 'PLAIN';
  },
  'sasl.mechanisms': (value, into) => { into['sasl-mechanism'] = value; },
  'sasl.mechanism': (value, into) => { into['sasl-mechanism'] = value; },
  'sasl.username': (value, into) => { into['sasl-username'] = value; },
  'sasl.password': (value, into) => { into['sasl-password'] = value; },
  // As in kcat, the CA is used when the protocol is SSL; it does not turn TLS on by itself (--tls-ca does).
  'ssl.ca.location': (value, into) => { into['kcat-ca'] = value; },
  'enable.ssl.certificate.verification': (value, into) => { if (value === 'false') into['tls-insecure'] = true; },
};

export const NETWORK_OPTIONS: readonly OptionSpec[] = [
  { name: 'broker', short: 'b', value: 'HOST:PORT', help: 'a bootstrap broker (several: comma-separated)' },
  { name: 'client-id', value: 'ID', help: 'the client id sent in every request (default kafka-wire-cli)' },
  { name: 'timeout', value: 'MS', help: 'request timeout in milliseconds' },
  { name: 'tls', help: 'connect with TLS' },
  { name: 'tls-insecure', help: 'TLS without checking the broker\'s certificate' },
  { name: 'tls-ca', value: 'FILE', help: 'TLS, checking the broker\'s certificate against this CA (PEM)' },
  { name: 'sasl-mechanism', value: 'MECH', help: `${SASL_MECHANISMS.join(', ')} (default PLAIN)` },
  { name: 'sasl-username', value: 'USER', help: 'SASL user name' },
  { name: 'sasl-password', value: 'PASSWORD', help: 'SASL password' },
  { name: 'property', short: 'X', value: 'KEY=VALUE', multiple: true, help: 'kcat\'s security settings: security.protocol, sasl.mechanism(s), sasl.username, sasl.password, ssl.ca.location, enable.ssl.certificate.verification' },
];

/**
 * The options with each -X property laid onto its long option (a long option given too wins).
 * `others` are the -X names the command itself takes (produce's producer settings): left to it.
 */
function withProperties(values: OptionValues, others: readonly string[]): OptionValues {
  const fromX: OptionValues = {};
  for (const property of (values.property ?? []) as string[]) {
    const eq = property.indexOf('=');
    const name = eq > 0 ? property.slice(0, eq) : property;
    if (others.includes(name)) continue;
    const apply = eq > 0 ? SECURITY_PROPERTIES[name] : undefined;
    if (apply === undefined) throw new UsageError(`-X ${property}: kafka-wire takes ${[...Object.keys(SECURITY_PROPERTIES), ...others].join(', ')}`);
    apply(property.slice(eq + 1), fromX);
  }
  return { ...fromX, ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) };
}

/** TLS and SASL from the options: --tls, --tls-insecure, --tls-ca, --sasl-* (and -X). */
function securityFrom(values: OptionValues): Pick<ConnectOptions, 'tls' | 'sasl'> {
  const ca = stringOption(values, 'tls-ca') ?? (values.tls ? stringOption(values, 'kcat-ca') : undefined);
  let tls: ConnectOptions['tls'];
  if (values['tls-insecure']) tls = { rejectUnauthorized: false };
  else if (ca !== undefined) {
    try {
      tls = { ca: readFileSync(ca, 'utf8') };
    } catch (error) {
      throw new UsageError(`--tls-ca ${ca}: ${(error as Error).message}`);
    }
  } else if (values.tls) tls = true;
  const mechanism = stringOption(values, 'sasl-mechanism');
  const username = stringOption(values, 'sasl-username');
  const password = stringOption(values, 'sasl-password');
  if (mechanism === undefined && username === undefined && password === undefined) return { tls };
  const upper = (mechanism ?? 'PLAIN').toUpperCase() as SaslOptions['mechanism'];
  if (!SASL_MECHANISMS.includes(upper)) throw new UsageError(`--sasl-mechanism must be ${SASL_MECHANISMS.join(', ')}, not ${JSON.stringify(mechanism)}`);
  if (username === undefined || password === undefined) throw new UsageError(`SASL ${upper} needs --sasl-username and --sasl-password`);
  return { tls, sasl: { mechanism: upper, username, password } };
}

export const TOPIC_OPTION: OptionSpec = { name: 'topic', short: 't', value: 'TOPIC', help: 'the topic' };
export const PARTITION_OPTION: OptionSpec = { name: 'partition', short: 'p', value: 'N', help: 'only this partition' };

export function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
}

export function clientFrom(values: OptionValues): KafkaClient {
  return new KafkaClient(clientOptionsFrom(values));
}

/**
 * The client options -b, --client-id, --timeout, --tls*, --sasl-* and -X's security settings give;
 * `otherProperties` are the -X names the command reads itself.
 */
export function clientOptionsFrom(given: OptionValues, otherProperties: readonly string[] = []): ClientOptions {
  const values = withProperties(given, otherProperties);
  const broker = stringOption(values, 'broker');
  if (broker === undefined) throw new UsageError('-b HOST:PORT is required');
  const timeout = integerArg(stringOption(values, 'timeout'), '--timeout', 0);
  const options: Omit<ConnectOptions, 'host' | 'port'> = {
    clientId: stringOption(values, 'client-id') ?? 'kafka-wire-cli',
    requestTimeoutMs: timeout,
    ...securityFrom(values),
    // ListOffsets (key 2) v3 covers earliest/latest; librdkafka 2.0.2's mock broker mis-encodes v4+.
    maxVersions: { 2: 3 },
  };
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
    '-b HOST:PORT -t TOPIC [-p N] [-o beginning|end|N|-N] [-e] [-c COUNT] [--encoding utf8|base64|hex] [--isolation read_committed]',
    '-b HOST:PORT -G GROUP TOPIC|^REGEX... [-o beginning|end|s@TIMESTAMP] [--isolation read_committed] [-e] [-c COUNT]',
  ],
  options: [
    ...NETWORK_OPTIONS, TOPIC_OPTION, PARTITION_OPTION,
    { name: 'offset', short: 'o', value: 'OFFSET', help: 'beginning (default), end, N, or -N (N before the end)' },
    { name: 'exit', short: 'e', help: 'exit at the end of the partitions instead of waiting for more' },
    { name: 'count', short: 'c', value: 'COUNT', help: 'exit after COUNT records' },
    { name: 'encoding', value: 'ENCODING', help: 'keys, values and headers as utf8 (default), base64 or hex' },
    { name: 'isolation', value: 'LEVEL', help: 'read_uncommitted (default) or read_committed (no aborted transactions; -e stops at the last stable offset)' },
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
  const isolation = (stringOption(values, 'isolation') ?? 'read_uncommitted') as IsolationName;
  if (!ISOLATION_NAMES.includes(isolation)) throw new UsageError(`--isolation must be ${ISOLATION_NAMES.join(' or ')}, not ${JSON.stringify(isolation)}`);
  const isolationLevel = isolation === 'read_committed' ? IsolationLevel.READ_COMMITTED : IsolationLevel.READ_UNCOMMITTED;
  const exitAtEnd = values.exit === true;
  const signal = io.signal;
  if (group !== undefined) {
    return runGroupConsume({ group, topics: positionals, values, client: clientOptionsFrom(values), exitAtEnd, limit, encoding }, io);
  }

  const client = clientFrom(values);
  try {
    const info = await client.topic(topic);
    const partitions = only === undefined ? info.partitions.map((p) => p.partition) : [only];
    if (only !== undefined && !info.partitions.some((p) => p.partition === only)) {
      throw new Error(`topic ${topic} has no partition ${only} (it has ${info.partitions.length})`);
    }
    const start = await resolveOffsets(client, info, partitions, offsetArg, isolationLevel);
    await consumeLoop(client, info, { start, exitAtEnd, limit, encoding, isolationLevel, signal, write: (bytes) => io.stdout.write(bytes) });
    return 0;
  } finally {
    await client.close();
  }
}

/** Where each partition starts and ends: "end" is the last stable offset under read_committed. */
async function resolveOffsets(client: KafkaClient, info: TopicInfo, partitions: number[], spec: string, isolationLevel: number):
  Promise<Map<number, { offset: bigint; end: bigint }>> {
  const out = new Map<number, { offset: bigint; end: bigint }>();
  const topic = info.name;
  await Promise.all(byLeader(info, partitions).map(async (ps) => {
    const conn = await client.leader(topic, ps[0]!);
    const [earliest, latest] = await Promise.all([listOffsets(conn, topic, ps, -2n, isolationLevel), listOffsets(conn, topic, ps, -1n, isolationLevel)]);
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

async function listOffsets(conn: Connection, topic: string, partitions: number[], timestamp: bigint, isolationLevel: number): Promise<Map<number, bigint>> {
  const version = conn.versionFor(2);
  if (version === undefined) throw new Error(`broker ${conn.host}:${conn.port} lacks ListOffsets`);
  if (isolationLevel !== 0 && version < 2) throw new Error(`broker ${conn.host}:${conn.port} lacks ListOffsets v2+ (isolation levels)`);
  const res = await conn.request(2, version, {
    replicaId: -1,
    isolationLevel,
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

