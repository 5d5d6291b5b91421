// The network subcommands of the kafka-wire CLI: metadata, produce, consume. Each is
// (args, io) → exit code, like the other commands in src/cli.ts, so tests run them in-process.
//
//   kafka-wire metadata -b HOST:PORT [-t TOPIC]...
//   kafka-wire produce  -b HOST:PORT -t TOPIC [-p N] [-z|--compression CODEC] [-H k=v]... [--acks N]
//       stdin: one record per line, "key<TAB>value" or just "value" (key null)
//   kafka-wire consume  -b HOST:PORT -t TOPIC [-p N] [-o beginning|end|N|-N] [-e] [-c COUNT]
//       stdout: one JSON object per record {topic, partition, offset, timestamp, key, value, headers}
//
// Common: --client-id ID, --timeout MS, --tls, --tls-insecure, --sasl-username U --sasl-password P
// (SASL/PLAIN).

import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { KafkaClient, type TopicInfo } from './client.js';
import type { Connection, ConnectOptions } from './connection.js';
import { kafkaErrorName } from './errors.js';
import { encodeRecordBatch, COMPRESSION_NAMES, type CompressionName, type RecordInput } from '../records/index.js';
import { consumeLoop, byLeader, type Encoding } from './consume.js';
import { ZERO_UUID } from './versions.js';
import { UsageError } from '../errors.js';

export interface WireIo {
  stdin: NodeJS.ReadableStream;
  /** Text, or UTF-8 bytes (consume writes its JSON lines as bytes). */
  stdout: { write(data: string | Uint8Array): unknown };
  stderr: { write(text: string): unknown };
  /** Stops a consume that runs without -e / -c (the CLI wires SIGINT to it). */
  signal?: AbortSignal;
}

export type WireCommand = (args: string[], io: WireIo) => Promise<number>;

export const WIRE_USAGE = `  metadata -b HOST:PORT [-t TOPIC]...                  brokers, topics, partitions as JSON
  produce -b HOST:PORT -t TOPIC [-p N] [-z CODEC] [-H k=v]... [--acks N]
                                                       stdin lines "key<TAB>value" or "value" → records
  consume -b HOST:PORT -t TOPIC [-p N] [-o beginning|end|N|-N] [-e] [-c COUNT] [--encoding utf8|base64|hex]
                                                       records → stdout, one JSON object per line
  (network options: --client-id ID --timeout MS --tls --tls-insecure --sasl-username U --sasl-password P)
`;

const COMMON = {
  broker: { type: 'string', short: 'b' },
  'client-id': { type: 'string' },
  timeout: { type: 'string' },
  tls: { type: 'boolean' },
  'tls-insecure': { type: 'boolean' },
  'sasl-username': { type: 'string' },
  'sasl-password': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** parseArgs, but "-o -5" means offset -5 (parseArgs alone calls that ambiguous). */
function parse<T extends Record<string, any>>(args: string[], options: T) {
  const fixed: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((a === '-o' || a === '--offset') && i + 1 < args.length && /^-\d+$/.test(args[i + 1]!)) {
      fixed.push(`--offset=${args[++i]}`);
    } else {
      fixed.push(a);
    }
  }
  try {
    return parseArgs({ args: fixed, options: { ...COMMON, ...options }, strict: true, allowPositionals: false }).values as Record<string, any>;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function clientFrom(values: Record<string, any>): KafkaClient {
  if (!values.broker) throw new UsageError('-b HOST:PORT is required');
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout >= 0)) throw new UsageError(`bad --timeout ${values.timeout}`);
  const options: Omit<ConnectOptions, 'host' | 'port'> = {
    clientId: values['client-id'] ?? 'kafka-wire-cli',
    requestTimeoutMs: timeout,
    tls: values.tls || values['tls-insecure'] ? (values['tls-insecure'] ? { rejectUnauthorized: false } : true) : undefined,
    // ListOffsets (key 2) v3 covers earliest/latest; librdkafka 2.0.2's mock broker mis-encodes v4+.
    maxVersions: { 2: 3 },
  };
  if (values['sasl-username'] !== undefined || values['sasl-password'] !== undefined) {
    options.sasl = { mechanism: 'PLAIN', username: values['sasl-username'] ?? '', password: values['sasl-password'] ?? '' };
  }
  return new KafkaClient({ ...options, bootstrap: values.broker });
}

async function run(io: WireIo, usage: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`kafka-wire: ${err.message}\nusage:\n${usage}`);
      return 2;
    }
    const e = err as Error & { code?: string };
    io.stderr.write(`kafka-wire: ${e.name && e.name !== 'Error' ? `${e.name}${e.code ? ` ${e.code}` : ''}: ` : ''}${e.message}\n`);
    return 1;
  }
}

function partitionArg(values: Record<string, any>): number | undefined {
  if (values.partition === undefined) return undefined;
  const p = Number(values.partition);
  if (!Number.isInteger(p) || p < 0) throw new UsageError(`bad partition ${values.partition}`);
  return p;
}

// ---- metadata ----

export const metadataCommand: WireCommand = (args, io) => run(io, WIRE_USAGE, async () => {
  const values = parse(args, { topic: { type: 'string', short: 't', multiple: true } });
  if (values.help) { io.stdout.write(WIRE_USAGE); return 0; }
  const client = clientFrom(values);
  try {
    const topics: string[] | undefined = values.topic;
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
});

// ---- produce ----

/** Kafka's Java client's default partitioner hash (murmur2, seed 0x9747b28c), as a signed int32. */
export function murmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = (0x9747b28c ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  switch (length & 3) {
    case 3: h ^= data[whole + 2]! << 16; // falls through
    case 2: h ^= data[whole + 1]! << 8; // falls through
    case 1: h ^= data[whole]!; h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** The Java client's partition for a keyed record: toPositive(murmur2(key)) % partitions. */
export function partitionForKey(key: Uint8Array, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}

const BATCH_RECORDS = 1000;
const BATCH_BYTES = 512 * 1024;
const utf8 = new TextEncoder();

export const produceCommand: WireCommand = (args, io) => run(io, WIRE_USAGE, async () => {
  const values = parse(args, {
    topic: { type: 'string', short: 't' },
    partition: { type: 'string', short: 'p' },
    compression: { type: 'string', short: 'z' },
    header: { type: 'string', short: 'H', multiple: true },
    acks: { type: 'string' },
  });
  if (values.help) { io.stdout.write(WIRE_USAGE); return 0; }
  const topic: string | undefined = values.topic;
  if (!topic) throw new UsageError('-t TOPIC is required');
  const partition = partitionArg(values);
  const compression = (values.compression ?? 'none') as CompressionName;
  if (!COMPRESSION_NAMES.includes(compression)) throw new UsageError(`unknown compression ${compression} (${COMPRESSION_NAMES.join(', ')})`);
  const acks = values.acks === undefined ? -1 : Number(values.acks);
  if (![-1, 0, 1].includes(acks)) throw new UsageError(`--acks must be -1, 0 or 1`);
  const headers = ((values.header ?? []) as string[]).map((h) => {
    const i = h.indexOf('=');
    if (i <= 0) throw new UsageError(`bad header ${h} (want key=value)`);
    return { key: h.slice(0, i), value: utf8.encode(h.slice(i + 1)) };
  });

  const client = clientFrom(values);
  try {
    const info = await client.topic(topic, { allowAutoTopicCreation: true });
    const count = info.partitions.length;
    if (partition !== undefined && partition >= count) throw new Error(`topic ${topic} has no partition ${partition} (it has ${count})`);
    const sticky = Math.floor(Math.random() * count);
    const pending = new Map<number, { records: RecordInput[]; bytes: number }>();

    const flush = async (p: number) => {
      const batch = pending.get(p);
      if (!batch || batch.records.length === 0) return;
      pending.delete(p);
      await sendBatch(client, info, p, batch.records, compression, acks);
    };

    const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      const tab = line.indexOf('\t');
      const key = tab >= 0 ? utf8.encode(line.slice(0, tab)) : null;
      const value = utf8.encode(tab >= 0 ? line.slice(tab + 1) : line);
      const p = partition ?? (key !== null ? partitionForKey(key, count) : sticky);
      let batch = pending.get(p);
      if (!batch) pending.set(p, batch = { records: [], bytes: 0 });
      batch.records.push({ key, value, headers, timestamp: Date.now() });
      batch.bytes += value.length + (key?.length ?? 0) + 16;
      if (batch.records.length >= BATCH_RECORDS || batch.bytes >= BATCH_BYTES) await flush(p);
    }
    for (const p of [...pending.keys()]) await flush(p);
    return 0;
  } finally {
    await client.close();
  }
});

async function sendBatch(client: KafkaClient, info: TopicInfo, partition: number, records: RecordInput[],
  compression: CompressionName, acks: number): Promise<void> {
  const bytes = encodeRecordBatch({ compression, records });
  for (let attempt = 0; ; attempt++) {
    const conn = await client.leader(info.name, partition);
    const version = conn.versionFor(0);
    if (version === undefined || version < 3) throw new Error(`broker ${conn.host}:${conn.port} lacks Produce v3+ (record batches v2)`);
    const topicData = [{
      ...(version >= 13 ? { topicId: info.topicId } : { name: info.name }),
      partitionData: [{ index: partition, records: bytes }],
    }];
    const res = await conn.request(0, version, { acks, timeoutMs: 30_000, topicData });
    if (res === null) return; // acks=0
    const pr = res.responses[0]?.partitionResponses[0];
    if (!pr) throw new Error(`Produce to ${info.name}/${partition}: empty response`);
    if (pr.errorCode === 0) return;
    if (attempt < 3 && [5, 6, 74, 75].includes(pr.errorCode)) { // leadership moved: refresh and retry
      await client.topic(info.name);
      continue;
    }
    throw new Error(`Produce to ${info.name}/${partition}: ${kafkaErrorName(pr.errorCode)}${pr.errorMessage ? `: ${pr.errorMessage}` : ''}`);
  }
}

// ---- consume (the loop: consume.ts) ----

export const consumeCommand: WireCommand = (args, io) => run(io, WIRE_USAGE, async () => {
  const values = parse(args, {
    topic: { type: 'string', short: 't' },
    partition: { type: 'string', short: 'p' },
    offset: { type: 'string', short: 'o' },
    exit: { type: 'boolean', short: 'e' },
    count: { type: 'string', short: 'c' },
    encoding: { type: 'string' },
  });
  if (values.help) { io.stdout.write(WIRE_USAGE); return 0; }
  const topic: string | undefined = values.topic;
  if (!topic) throw new UsageError('-t TOPIC is required');
  const only = partitionArg(values);
  const offsetArg: string = values.offset ?? 'beginning';
  if (!/^(beginning|end|-?\d+)$/.test(offsetArg)) throw new UsageError(`bad offset ${offsetArg} (beginning, end, N or -N)`);
  const limit = values.count === undefined ? Infinity : Number(values.count);
  if (!(limit >= 0)) throw new UsageError(`bad count ${values.count}`);
  const encoding = (values.encoding ?? 'utf8') as Encoding;
  if (!['utf8', 'base64', 'hex'].includes(encoding)) throw new UsageError(`bad encoding ${encoding}`);
  const exitAtEnd = values.exit === true;
  const signal = io.signal;

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
});

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

/** The subcommands by name, for src/cli.ts. */
export const wireCommands: Readonly<Record<'metadata' | 'produce' | 'consume', WireCommand>> = {
  metadata: metadataCommand,
  produce: produceCommand,
  consume: consumeCommand,
};
