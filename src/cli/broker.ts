// `kafka-wire broker`: the in-memory broker (memory-broker.ts) as a command, a local mock for tests
// and users. It creates the given topics, optionally fills them with generated records or loads
// the JSON lines `kafka-wire consume` prints, prints its address on stdout once it is listening,
// and runs until its signal aborts (the CLI wires SIGINT and SIGTERM to it).
//
//   kafka-wire broker [--listen HOST:PORT] --topic NAME[:PARTITIONS]... [--fill N] [--value-size B]
//       [--compression CODEC] [--load FILE.jsonl] [--encoding utf8|base64|hex]

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { startMemoryBroker, type MemoryBroker } from '../wire/memory-broker.js';
import { encodeRecordBatch, initZstd, COMPRESSION_NAMES, type CompressionName, type RecordInput } from '../records/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import type { OptionValues } from './options.js';

/** Records per written batch, for --fill and --load. */
export const BROKER_BATCH_RECORDS = 1000;
const DEFAULT_LISTEN = '127.0.0.1:9092';

export const broker: Command = {
  name: 'broker',
  summary: 'an in-memory broker on 127.0.0.1, a local mock for tests: prints its address once listening',
  synopsis: ['[--listen HOST:PORT] --topic NAME[:PARTITIONS]... [--fill N] [--value-size B] [--compression CODEC] [--load FILE.jsonl] [--encoding ENC]'],
  options: [
    { name: 'listen', value: 'HOST:PORT', help: `where to listen (default ${DEFAULT_LISTEN}; port 0 picks a free one)` },
    { name: 'topic', short: 't', value: 'NAME[:PARTITIONS]', multiple: true, help: 'a topic to create (one partition unless given)' },
    { name: 'fill', value: 'N', help: 'generate N records per topic, spread over its partitions, in batches of 1000' },
    { name: 'value-size', value: 'B', help: 'bytes per generated value (default 100)' },
    { name: 'compression', short: 'z', value: 'CODEC', help: `the codec of written batches: ${COMPRESSION_NAMES.join(', ')}` },
    { name: 'load', value: 'FILE', help: 'store the JSON lines kafka-wire consume printed' },
    { name: 'encoding', value: 'ENC', help: 'how --load lines encode keys and values: utf8 (default), base64 or hex' },
  ],
  notes: ['Runs until SIGINT or SIGTERM, then closes its connections and exits 0.'],
  async run({ options: values, positionals }, io) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    return runBroker(options(values), io);
  },
};

async function runBroker(opts: BrokerOptions, io: Io): Promise<number> {
  let broker: MemoryBroker | undefined;
  // zstd compression needs its WebAssembly loaded (asynchronously) before the first batch.
  if (opts.compression === 'zstd') await initZstd();
  try {
    broker = await startMemoryBroker({ host: opts.host, port: opts.port, topics: Object.fromEntries(opts.topics), autoCreateTopics: true });
    let records = 0;
    if (opts.fill > 0) for (const [name, partitions] of opts.topics) records += fill(broker, name, partitions, opts.fill, opts.valueSize, opts.compression);
    if (opts.load !== undefined) records += await load(broker, opts.load, opts.encoding, opts.compression);
    if (io.signal?.aborted) return 0;
    io.stderr.write(`kafka-wire broker: ${[...broker.topics.values()].map((t) => `${t.name} (${t.partitions.length} partition${t.partitions.length === 1 ? '' : 's'})`).join(', ') || 'no topics'}; ${records} records stored\n`);
    io.stdout.write(`${broker.bootstrap}\n`);
    await new Promise<void>((resolve) => {
      if (io.signal === undefined) return; // runs until the process ends
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return 0;
  } finally {
    await broker?.close();
  }
}

interface BrokerOptions {
  host: string; port: number; topics: Map<string, number>; fill: number; valueSize: number;
  compression: CompressionName; load?: string; encoding: 'utf8' | 'base64' | 'hex';
}

function options(values: OptionValues): BrokerOptions {
  const listen = (values.listen as string | undefined) ?? DEFAULT_LISTEN;
  const m = /^(.*):(\d+)$/.exec(listen);
  const port = m ? Number(m[2]) : NaN;
  if (!m || m[1] === '' || !(port >= 0 && port <= 65535)) throw new UsageError(`bad --listen ${listen} (HOST:PORT; port 0 picks a free one)`);
  const topics = new Map<string, number>();
  for (const spec of (values.topic ?? []) as string[]) {
    const t = /^([A-Za-z0-9._-]+)(?::(\d+))?$/.exec(spec);
    const partitions = t?.[2] === undefined ? 1 : Number(t[2]);
    if (!t || !(partitions >= 1 && partitions <= 10_000)) throw new UsageError(`bad --topic ${spec} (NAME or NAME:PARTITIONS)`);
    topics.set(t[1]!, partitions);
  }
  const count = (name: string, fallback: number, max: number): number => {
    const raw = values[name];
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > max) throw new UsageError(`bad --${name} ${raw} (an integer from 0 to ${max})`);
    return n;
  };
  const fill = count('fill', 0, 100_000_000);
  if (fill > 0 && topics.size === 0) throw new UsageError('--fill needs at least one --topic');
  const compression = ((values.compression as string | undefined) ?? 'none') as CompressionName;
  if (!COMPRESSION_NAMES.includes(compression)) throw new UsageError(`bad --compression ${compression} (${COMPRESSION_NAMES.join(', ')})`);
  const encoding = (values.encoding as BrokerOptions['encoding'] | undefined) ?? 'utf8';
  if (!['utf8', 'base64', 'hex'].includes(encoding)) throw new UsageError(`bad --encoding ${encoding}`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port, topics, fill, valueSize: count('value-size', 100, 1 << 20), compression, load: values.load as string | undefined, encoding };
}

/**
 * Generates `n` records for a topic, record i in partition i mod partitions, each partition's in
 * batches of up to BROKER_BATCH_RECORDS: key "key-<i>", a value of `valueSize` bytes (JSON-like,
 * compressible about as event payloads are), timestamps a millisecond apart.
 */
function fill(broker: MemoryBroker, topic: string, partitions: number, n: number, valueSize: number, compression: CompressionName): number {
  const start = Date.now() - n;
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil(valueSize / 36) + 1);
  const pending: RecordInput[][] = Array.from({ length: partitions }, () => []);
  const flush = (p: number) => {
    if (pending[p]!.length === 0) return;
    broker.append(topic, p, encodeRecordBatch({ compression, records: pending[p]! }));
    pending[p] = [];
  };
  for (let i = 0; i < n; i++) {
    const head = `{"id":${i},"note":"`;
    const value = (head + filler.slice(i % 36, i % 36 + Math.max(0, valueSize - head.length - 2)) + '"}').slice(0, valueSize);
    const p = i % partitions;
    pending[p]!.push({ key: `key-${i}`, value, timestamp: start + i });
    if (pending[p]!.length === BROKER_BATCH_RECORDS) flush(p);
  }
  for (let p = 0; p < partitions; p++) flush(p);
  return n;
}

/**
 * Loads `kafka-wire consume` output: one JSON object per line with topic, partition, timestamp,
 * key, value and headers (text in the given encoding). Offsets are assigned anew, in file order
 * per partition; unknown topics are created with as many partitions as the file uses.
 */
async function load(broker: MemoryBroker, file: string, encoding: BrokerOptions['encoding'], compression: CompressionName): Promise<number> {
  const bytes = (text: unknown, where: string): Uint8Array | null => {
    if (text === null || text === undefined) return null;
    if (typeof text !== 'string') throw new Error(`${where}: expected a string or null`);
    return encoding === 'utf8' ? Buffer.from(text, 'utf8') : Buffer.from(text, encoding);
  };
  const byPartition = new Map<string, { topic: string; partition: number; records: RecordInput[] }>();
  let line = 0;
  let count = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    const where = `${file}:${line}`;
    let r: any;
    try {
      r = JSON.parse(text);
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
    if (typeof r?.topic !== 'string' || !Number.isInteger(r.partition) || r.partition < 0) throw new Error(`${where}: needs "topic" and "partition"`);
    const headers = (Array.isArray(r.headers) ? r.headers : []).map((h: any, i: number) => {
      if (typeof h?.key !== 'string') throw new Error(`${where}: headers[${i}].key: expected a string`);
      return { key: h.key, value: bytes(h.value, `${where}: headers[${i}].value`) };
    });
    const id = `${r.topic}\u0000${r.partition}`;
    let p = byPartition.get(id);
    if (!p) byPartition.set(id, p = { topic: r.topic, partition: r.partition, records: [] });
    p.records.push({ key: bytes(r.key, `${where}: key`), value: bytes(r.value, `${where}: value`), headers, timestamp: Number(r.timestamp ?? Date.now()) });
    count++;
  }
  // Topics first (the whole file read: a topic needs as many partitions as it uses), then batches.
  const used = new Map<string, number>();
  for (const p of byPartition.values()) used.set(p.topic, Math.max(used.get(p.topic) ?? 0, p.partition + 1));
  for (const [topic, partitions] of used) {
    const have = broker.topics.get(topic)?.partitions.length;
    if (have === undefined) broker.createTopic(topic, partitions);
    else if (have < partitions) throw new Error(`${file}: topic ${topic} has no partition ${partitions - 1} (it has ${have})`);
  }
  for (const p of byPartition.values()) {
    for (let i = 0; i < p.records.length; i += BROKER_BATCH_RECORDS) {
      broker.append(p.topic, p.partition, encodeRecordBatch({ compression, records: p.records.slice(i, i + BROKER_BATCH_RECORDS) }));
    }
  }
  return count;
}
