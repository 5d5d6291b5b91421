// The network commands metadata and consume against a broker, kcat-style (-b HOST:PORT,
// -t TOPIC, -p N, -o OFFSET, -e, -c COUNT), and the options every network command shares
// (produce, on the producer, is ./produce-command.ts).
import { readFileSync } from 'node:fs';
import { KafkaClient, type ClientOptions, type TopicInfo } from '../wire/client.js';
import { SASL_MECHANISMS, type Connection, type ConnectOptions, type SaslOptions } from '../wire/connection.js';
import { kafkaErrorName } from '../wire/errors.js';
import { consumeLoop, byLeader, type Encoding } from './consume.js';
import { ZERO_UUID } from '../wire/versions.js';
import type { MetadataResponse } from '../generated/types.js';
import { IsolationLevel, ISOLATION_NAMES, type IsolationName } from '../wire/isolation.js';
import { GROUP_CONSUME_OPTIONS, refuseGroupOptions, runGroupConsume } from './group-consume.js';
import { SHARE_CONSUME_OPTIONS, refuseShareOptions, runShareConsume } from './share-consume.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { integerArg, stringOption, type OptionSpec, type OptionValues, type ParsedArgs } from './options.js';
import { recordWriter, type OutputOptions } from './consume-output.js';

/** consume's output forms, kcat's flags: -J (JSON lines, the default), -K, -D, -f, -Z, -u. */
const CONSUME_OUTPUT_OPTIONS: readonly OptionSpec[] = [
  { name: 'json', short: 'J', help: 'JSON lines (the default; kcat -J\'s habit)' },
  { name: 'key-delimiter', short: 'K', value: 'DELIM', help: 'print "key DELIM value" per record instead of JSON (kcat -K; \\t \\n \\xNN escapes)' },
  { name: 'delimiter', short: 'D', value: 'DELIM', help: 'what ends each record with -K (default \\n)' },
  { name: 'format', short: 'f', value: 'FORMAT', help: 'print records in kcat\'s -f format: %s value, %k key, %S %K their lengths (-1 for null), %R value length as 4 bytes, %T timestamp, %h headers, %t topic, %p partition, %o offset' },
  { name: 'null', short: 'Z', help: 'print null keys and values as NULL in -K and -f output (JSON prints null)' },
  { name: 'unbuffered', short: 'u', help: 'write each record as soon as it is read' },
];

/** The output options, checked: -J, -K and -f are three forms, one at a time. */
function outputOptions(values: OptionValues, encoding: Encoding): OutputOptions {
  const forms = ['json', 'key-delimiter', 'format'].filter((name) => values[name] !== undefined);
  if (forms.length > 1) throw new UsageError(`give one of -J, -K and -f, not ${forms.map((f) => `--${f}`).join(' and ')}`);
  if (values.delimiter !== undefined && values['key-delimiter'] === undefined) throw new UsageError('-D goes with -K (with -f, end the format with \\n)');
  return {
    format: stringOption(values, 'format'), keyDelimiter: stringOption(values, 'key-delimiter'),
    delimiter: stringOption(values, 'delimiter'), nullAsText: values.null === true, encoding,
  };
}

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
  summary: 'the cluster\'s brokers, topics and partitions, as kcat -L prints them (or JSON)',
  synopsis: ['-b HOST:PORT [-t TOPIC]... [--json]'],
  options: [
    ...NETWORK_OPTIONS,
    { ...TOPIC_OPTION, multiple: true, help: 'only these topics (repeatable); exit 1 if one has an error' },
    { name: 'json', short: 'J', help: 'JSON: {clusterId, controllerId, brokers, topics} sorted by id and name' },
  ],
  run: runMetadata,
};

async function runMetadata({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  noPositionals(positionals);
  const client = clientFrom(values);
  try {
    const topics = values.topic as string[] | undefined;
    const md = await client.metadata(topics ?? null, false);
    if (values.json) io.stdout.write(JSON.stringify(metadataJson(md), null, 2) + '\n');
    else io.stdout.write(metadataText(md, topics, await client.anyConnection()));
    return topics && md.topics.some((t) => t.errorCode !== 0) ? 1 : 0;
  } finally {
    await client.close();
  }
}

function metadataJson(md: MetadataResponse): object {
  return {
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
}

/**
 * kcat -L's text, line for line: who answered, the brokers (the controller marked), each topic
 * with its partitions' leader, replicas and in-sync replicas; errors by Kafka's names.
 */
export function metadataText(md: MetadataResponse, topics: string[] | undefined, answered: { host: string; port: number }): string {
  const from = md.brokers.find((b) => b.host === answered.host && b.port === answered.port);
  let out = `Metadata for ${topics === undefined ? 'all topics' : topics.join(', ')} `
    + `(from broker ${from?.nodeId ?? -1}: ${answered.host}:${answered.port}/${from?.nodeId ?? 'bootstrap'}):\n`;
  out += ` ${md.brokers.length} brokers:\n`;
  for (const b of md.brokers) out += `  broker ${b.nodeId} at ${b.host}:${b.port}${b.nodeId === md.controllerId ? ' (controller)' : ''}\n`;
  out += ` ${md.topics.length} topics:\n`;
  for (const t of md.topics) {
    out += `  topic "${t.name}" with ${t.partitions.length} partitions:${t.errorCode ? ` ${kafkaErrorName(t.errorCode)}` : ''}\n`;
    for (const p of t.partitions) {
      out += `    partition ${p.partitionIndex}, leader ${p.leaderId}, replicas: ${p.replicaNodes.join(',')}, isrs: ${p.isrNodes.join(',')}`
        + `${p.errorCode ? `, ${kafkaErrorName(p.errorCode)}` : ''}\n`;
    }
  }
  return out;
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
    '-b HOST:PORT -t TOPIC [-p N] [-o beginning|end|N|-N|s@TS] [-o e@TS] [-e] [-c COUNT] [--encoding utf8|base64|hex] [--isolation read_committed] [-J | -K DELIM | -f FORMAT] [-Z] [-u]',
    '-b HOST:PORT -G GROUP TOPIC|^REGEX... [-o beginning|end|s@TIMESTAMP] [--isolation read_committed] [-e] [-c COUNT]',
    '-b HOST:PORT --share GROUP TOPIC... [--release-on-error | --reject] [-e] [-c COUNT] [-J | -K DELIM | -f FORMAT]',
  ],
  options: [
    ...NETWORK_OPTIONS, TOPIC_OPTION, PARTITION_OPTION,
    { name: 'offset', short: 'o', value: 'OFFSET', multiple: true, help: 'beginning (default), end, N, -N (N before the end), s@TS (the first record at or after TS ms); e@TS stops before the first record at or after TS (repeat -o for both)' },
    { name: 'exit', short: 'e', help: 'exit at the end of the partitions instead of waiting for more' },
    { name: 'count', short: 'c', value: 'COUNT', help: 'exit after COUNT records' },
    { name: 'encoding', value: 'ENCODING', help: 'keys, values and headers as utf8 (default), base64 or hex' },
    { name: 'isolation', value: 'LEVEL', help: 'read_uncommitted (default) or read_committed (no aborted transactions; -e stops at the last stable offset)' },
    ...GROUP_CONSUME_OPTIONS,
    ...SHARE_CONSUME_OPTIONS,
    ...CONSUME_OUTPUT_OPTIONS,
  ],
  run: runConsume,
};

async function runConsume({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const share = stringOption(values, 'share');
  if (share !== undefined) {
    const encoding = (stringOption(values, 'encoding') ?? 'utf8') as Encoding;
    if (!ENCODINGS.includes(encoding)) throw new UsageError(`--encoding must be ${ENCODINGS.join(', ')}, not ${JSON.stringify(encoding)}`);
    const limit = integerArg(stringOption(values, 'count'), '-c (count)', 0, Number.MAX_SAFE_INTEGER) ?? Infinity;
    return runShareConsume({ group: share, topics: positionals, values, client: clientOptionsFrom(values), output: outputOptions(values, encoding), exitAtEnd: values.exit === true, limit, encoding }, io);
  }
  refuseShareOptions(values);
  const group = stringOption(values, 'group');
  if (group === undefined) { noPositionals(positionals); refuseGroupOptions(values); }
  const topic = group === undefined ? requiredTopic(values) : '';
  const only = partitionArg(values);
  const { start: offsetArg, stopAt } = offsetSpecs(values);
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
    const printed = await consumeLoop(client, info, {
      start, exitAtEnd, limit, encoding, isolationLevel, signal, write: (bytes) => io.stdout.write(bytes),
      writer: recordWriter(topic, outputOptions(values, encoding)), unbuffered: values.unbuffered === true, stopAtTimestamp: stopAt,
    });
    if (printed === 0 && exitAtEnd && !signal?.aborted) io.stderr.write(`kafka-wire consume: ${nothingPrinted(topic, start, stopAt)}\n`);
    return 0;
  } finally {
    await client.close();
  }
}

/** The -o options: where to start (beginning, end, N, -N, s@TS) and the e@TS to stop at. */
function offsetSpecs(values: OptionValues): { start: string; stopAt?: bigint } {
  let start = 'beginning';
  let stopAt: bigint | undefined;
  for (const spec of (values.offset ?? []) as string[]) {
    if (/^e@\d+$/.test(spec)) stopAt = BigInt(spec.slice(2));
    else if (/^(beginning|end|-?\d+|s@\d+)$/.test(spec)) start = spec;
    else throw new UsageError(`bad offset ${spec} (beginning, end, N, -N, s@TIMESTAMP or e@TIMESTAMP)`);
  }
  return { start, stopAt };
}

/** Why -e ended without printing a record, partition by partition (for stderr). */
function nothingPrinted(topic: string, start: ReadonlyMap<number, { offset: bigint; end: bigint }>, stopAt: bigint | undefined): string {
  const where = [...start].sort(([a], [b]) => a - b).map(([p, { offset, end }]) =>
    offset > end ? `partition ${p}: offset ${offset} is past its end (${end})` : `partition ${p}: at its end, offset ${end}`);
  const stop = stopAt === undefined ? '' : ` or at the e@${stopAt} stop timestamp`;
  return `no records printed: -e exits at the end of each partition${stop}, and ${topic} had none to give from the start offset `
    + `(${where.join('; ')}); start earlier with -o beginning or -o -N`;
}

/** Where each partition starts and ends: "end" is the last stable offset under read_committed. */
async function resolveOffsets(client: KafkaClient, info: TopicInfo, partitions: number[], spec: string, isolationLevel: number):
  Promise<Map<number, { offset: bigint; end: bigint }>> {
  const out = new Map<number, { offset: bigint; end: bigint }>();
  const topic = info.name;
  await Promise.all(byLeader(info, partitions).map(async (ps) => {
    const conn = await client.leader(topic, ps[0]!);
    const [earliest, latest, byTime] = await Promise.all([listOffsets(conn, topic, ps, -2n, isolationLevel), listOffsets(conn, topic, ps, -1n, isolationLevel),
      spec.startsWith('s@') ? listOffsets(conn, topic, ps, BigInt(spec.slice(2)), isolationLevel) : Promise.resolve(new Map<number, bigint>())]);
    for (const p of ps) {
      const lo = earliest.get(p)!;
      const hi = latest.get(p)!;
      let offset: bigint;
      if (spec === 'beginning') offset = lo;
      else if (spec === 'end') offset = hi;
      else if (spec.startsWith('s@')) offset = byTime.get(p)! < 0n ? hi : byTime.get(p)!;
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

