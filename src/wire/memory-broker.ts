// A single-node, in-memory Kafka broker built on startServer(): ApiVersions, Metadata, Produce,
// Fetch, ListOffsets and InitProducerId (plus SASL/PLAIN when asked), enough for producers
// (idempotent ones too: sequences are checked and duplicates answered with the first write's
// offset, as Kafka does) and simple (non-group) consumers such as kcat -P / -C and this
// package's CLI. For tests and demos.
//
// Responses set only the fields their version has (the codec rejects a non-default value in a
// field the version lacks). Record batches are stored as produced (v2 batches, any compression) with only their base
// offset rewritten; the batch CRC does not cover the base offset, so it stays valid.

import { randomBytes } from 'node:crypto';
import type { TlsOptions } from 'node:tls';
import { startServer, apiVersionsResponse, type IncomingRequest, type KafkaServer } from './server.js';
import { supportedVersions } from './versions.js';
import { concatBytes } from '../bytes.js';
import { ApiKey } from '../generated/types.js';
import { KafkaErrorCode } from './errors.js';


/** The version ranges served (clipped to what the codec knows); name-addressed versions only. */
const SERVED: ReadonlyArray<[apiKey: number, min: number, max: number]> = [
  [ApiKey.Produce, 3, 12], [ApiKey.Fetch, 4, 12], [ApiKey.ListOffsets, 1, 9], [ApiKey.Metadata, 1, 12],
  [ApiKey.ApiVersions, 0, 4], [ApiKey.InitProducerId, 0, 5],
];
const SASL_SERVED: ReadonlyArray<[number, number, number]> = [[ApiKey.SaslHandshake, 0, 1], [ApiKey.SaslAuthenticate, 0, 2]];

export interface MemoryBrokerOptions {
  host?: string;
  port?: number;
  nodeId?: number;
  /** Topics created up front: name → partition count. */
  topics?: Record<string, number>;
  /** Create unknown topics (1 partition, or `defaultPartitions`) on Metadata/Produce. Default true. */
  autoCreateTopics?: boolean;
  defaultPartitions?: number;
  /** A record batch larger than this is refused with MESSAGE_TOO_LARGE (Kafka's message.max.bytes); default: no limit. */
  maxMessageBytes?: number;
  /** Require SASL/PLAIN with these credentials before anything but ApiVersions. */
  sasl?: { username: string; password: string };
  /** Serve TLS (SSL / SASL_SSL listeners) with these options. */
  tls?: TlsOptions;
  onError?: (error: unknown) => void;
}

/** One produced batch, as stored (bytes with the assigned base offset). */
export interface StoredBatch { baseOffset: bigint; lastOffset: bigint; maxTimestamp: bigint; bytes: Uint8Array }
export interface PartitionLog {
  batches: StoredBatch[];
  nextOffset: bigint;
  /** Idempotent producers' state: epoch, last sequence and their last batches (for duplicates). */
  producers?: Map<bigint, ProducerState>;
}
/** What the log remembers of an idempotent producer (Kafka keeps the last 5 batches). */
export interface ProducerState { epoch: number; lastSequence: number; recent: { firstSequence: number; lastSequence: number; baseOffset: bigint }[] }
const PRODUCER_BATCHES_KEPT = 5;
export interface MemoryTopic { name: string; topicId: string; partitions: PartitionLog[] }

export interface MemoryBroker {
  readonly host: string;
  readonly port: number;
  /** "host:port" */
  readonly bootstrap: string;
  readonly topics: ReadonlyMap<string, MemoryTopic>;
  createTopic(name: string, partitions?: number): void;
  /**
   * Appends v2 record batches to a partition as a Produce does (base offsets assigned, consumers
   * waiting in a Fetch woken); returns the first offset. Throws on an unknown partition or a
   * malformed batch.
   */
  append(topic: string, partition: number, records: Uint8Array): bigint;
  /** Requests served, by API key (for tests). */
  readonly requestCounts: ReadonlyMap<number, number>;
  close(): Promise<void>;
}

export async function startMemoryBroker(options: MemoryBrokerOptions = {}): Promise<MemoryBroker> {
  const nodeId = options.nodeId ?? 1;
  const topics = new Map<string, MemoryTopic>();
  const counts = new Map<number, number>();
  const waiters = new Set<() => void>();
  const autoCreate = options.autoCreateTopics ?? true;
  const createTopic = (name: string, partitions = options.defaultPartitions ?? 1): MemoryTopic => {
    let t = topics.get(name);
    if (!t) {
      t = { name, topicId: randomBytes(16).toString('base64url'), partitions: [] };
      for (let i = 0; i < partitions; i++) t.partitions.push({ batches: [], nextOffset: 0n });
      topics.set(name, t);
    }
    return t;
  };
  for (const [name, n] of Object.entries(options.topics ?? {})) createTopic(name, n);

  const served = (options.sasl ? [...SERVED, ...SASL_SERVED] : SERVED).map(([apiKey, min, max]) => {
    const ours = supportedVersions(apiKey)!;
    return { apiKey, minVersion: Math.max(min, ours.min), maxVersion: Math.min(max, ours.max) };
  });

  let server: KafkaServer;
  const handler = async (req: IncomingRequest): Promise<object | null> => {
    counts.set(req.apiKey, (counts.get(req.apiKey) ?? 0) + 1);
    const state = req.client.state as { authenticated?: boolean; handshake?: boolean };
    if (options.sasl && !state.authenticated && req.apiKey !== ApiKey.ApiVersions
        && req.apiKey !== ApiKey.SaslHandshake && req.apiKey !== ApiKey.SaslAuthenticate) {
      throw new Error(`${req.apiKey} before SASL authentication`); // a broker closes the connection
    }
    switch (req.apiKey) {
      case ApiKey.ApiVersions: return apiVersionsResponse(served);
      case ApiKey.SaslHandshake: {
        if (!options.sasl) throw new Error('SASL not enabled');
        const ok = req.body.mechanism === 'PLAIN';
        state.handshake = ok;
        return { errorCode: ok ? KafkaErrorCode.NONE : KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms: ['PLAIN'] };
      }
      case ApiKey.SaslAuthenticate: {
        if (!options.sasl) throw new Error('SASL not enabled');
        if (!state.handshake) return { errorCode: KafkaErrorCode.ILLEGAL_SASL_STATE, errorMessage: 'SaslHandshake first', authBytes: new Uint8Array(0) };
        const parts = new TextDecoder().decode(req.body.authBytes).split('\u0000');
        const ok = parts.length === 3 && parts[1] === options.sasl.username && parts[2] === options.sasl.password;
        state.authenticated = ok;
        return ok
          ? { errorCode: KafkaErrorCode.NONE, errorMessage: null, authBytes: new Uint8Array(0) }
          : { errorCode: KafkaErrorCode.SASL_AUTHENTICATION_FAILED, errorMessage: 'Invalid username or password', authBytes: new Uint8Array(0) };
      }
      case ApiKey.Metadata: return metadata(req);
      case ApiKey.Produce: return produce(req);
      case ApiKey.ListOffsets: return listOffsets(req);
      case ApiKey.Fetch: return fetch(req);
      case ApiKey.InitProducerId: return initProducerId(req);
    }
    throw new Error(`unsupported API key ${req.apiKey}`);
  };

  function metadata(req: IncomingRequest): object {
    const requested: { name: string | null }[] | null = req.body.topics;
    const names = requested === null || (req.apiVersion === 0 && requested.length === 0)
      ? [...topics.keys()]
      : requested.map((t) => t.name ?? '');
    const allowCreate = autoCreate && (req.apiVersion < 4 || req.body.allowAutoTopicCreation !== false);
    return {
      throttleTimeMs: 0,
      brokers: [{ nodeId, host: server.host, port: server.port, rack: null }],
      clusterId: 'kafka-wire-memory',
      controllerId: nodeId,
      topics: names.map((name) => {
        const t = topics.get(name) ?? (allowCreate && name !== '' ? createTopic(name) : undefined);
        if (!t) return { errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name, partitions: [] };
        return {
          errorCode: KafkaErrorCode.NONE, name, topicId: req.apiVersion >= 10 ? t.topicId : undefined, isInternal: false,
          partitions: t.partitions.map((_, i) => ({
            errorCode: KafkaErrorCode.NONE, partitionIndex: i, leaderId: nodeId, ...(req.apiVersion >= 7 ? { leaderEpoch: 0 } : {}),
            replicaNodes: [nodeId], isrNodes: [nodeId], offlineReplicas: [],
          })),
        };
      }),
    };
  }

  let nextProducerId = 1000n;
  const epochs = new Map<bigint, number>();
  function initProducerId(req: IncomingRequest): object {
    if (req.body.transactionalId !== null) {
      return { throttleTimeMs: 0, errorCode: 15 /* COORDINATOR_NOT_AVAILABLE: no transactions here */, producerId: -1n, producerEpoch: -1 };
    }
    const current: bigint = req.apiVersion >= 3 ? req.body.producerId : -1n;
    if (current >= 0n && epochs.get(current) === req.body.producerEpoch) { // the next epoch of the same id (KIP-360)
      const epoch = req.body.producerEpoch + 1;
      epochs.set(current, epoch);
      return { throttleTimeMs: 0, errorCode: KafkaErrorCode.NONE, producerId: current, producerEpoch: epoch };
    }
    const id = nextProducerId++;
    epochs.set(id, 0);
    return { throttleTimeMs: 0, errorCode: KafkaErrorCode.NONE, producerId: id, producerEpoch: 0 };
  }

  function produce(req: IncomingRequest): object {
    let appended = false;
    const responses = (req.body.topicData as any[]).map((td) => {
      const t = topics.get(td.name) ?? (autoCreate ? createTopic(td.name) : undefined);
      return {
        name: td.name,
        partitionResponses: (td.partitionData as any[]).map((pd) => {
          const log = t?.partitions[pd.index];
          if (!log) return { index: pd.index, errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, baseOffset: -1n };
          const base = append(log, pd.records, options.maxMessageBytes);
          if (typeof base === 'number') return { index: pd.index, errorCode: base, baseOffset: -1n };
          if (base < 0n) return { index: pd.index, errorCode: KafkaErrorCode.CORRUPT_MESSAGE, baseOffset: -1n };
          appended = true;
          return { index: pd.index, errorCode: KafkaErrorCode.NONE, baseOffset: base, logAppendTimeMs: -1n, ...(req.apiVersion >= 5 ? { logStartOffset: 0n } : {}) };
        }),
      };
    });
    if (appended) { for (const w of [...waiters]) w(); }
    return { responses, throttleTimeMs: 0 };
  }

  function listOffsets(req: IncomingRequest): object {
    return {
      throttleTimeMs: 0,
      topics: (req.body.topics as any[]).map((tp) => {
        const t = topics.get(tp.name);
        return {
          name: tp.name,
          partitions: (tp.partitions as any[]).map((p) => {
            const log = t?.partitions[p.partitionIndex];
            if (!log) return { partitionIndex: p.partitionIndex, errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
            const ts: bigint = p.timestamp;
            let offset: bigint;
            if (ts === -1n) offset = log.nextOffset;            // latest
            else if (ts === -2n || ts === -4n) offset = 0n;     // earliest / earliest-local
            else if (ts === -3n) offset = log.batches.length ? log.batches[log.batches.length - 1]!.baseOffset : 0n; // max timestamp (approximate)
            else offset = log.batches.find((b) => b.maxTimestamp >= ts)?.baseOffset ?? log.nextOffset;
            return { partitionIndex: p.partitionIndex, errorCode: KafkaErrorCode.NONE, timestamp: -1n, offset, ...(req.apiVersion >= 4 ? { leaderEpoch: 0 } : {}) };
          }),
        };
      }),
    };
  }

  async function fetch(req: IncomingRequest): Promise<object> {
    const build = () => {
      let bytes = 0;
      const responses = (req.body.topics as any[]).map((ft) => {
        const t = topics.get(ft.topic);
        return {
          topic: ft.topic,
          partitions: (ft.partitions as any[]).map((fp) => {
            const log = t?.partitions[fp.partition];
            const base = { partitionIndex: fp.partition, abortedTransactions: null, preferredReadReplica: -1 };
            if (!log) return { ...base, errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, highWatermark: -1n, records: null };
            const offset: bigint = fp.fetchOffset;
            const common = { ...base, highWatermark: log.nextOffset, lastStableOffset: log.nextOffset, ...(req.apiVersion >= 5 ? { logStartOffset: 0n } : {}) };
            if (offset < 0n || offset > log.nextOffset) return { ...common, errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE, records: null };
            const picked: Uint8Array[] = [];
            let size = 0;
            for (const b of log.batches) {
              if (b.lastOffset < offset) continue;
              if (picked.length > 0 && size + b.bytes.length > fp.partitionMaxBytes) break;
              picked.push(b.bytes);
              size += b.bytes.length;
            }
            bytes += size;
            return { ...common, errorCode: KafkaErrorCode.NONE, records: concatBytes(picked, size) };
          }),
        };
      });
      return { bytes, body: { throttleTimeMs: 0, errorCode: 0, sessionId: 0, responses } };
    };
    let result = build();
    const wait = Math.min(req.body.maxWaitMs ?? 0, 5000);
    if (result.bytes === 0 && req.body.minBytes > 0 && wait > 0) {
      await new Promise<void>((resolve) => {
        const done = () => { clearTimeout(timer); waiters.delete(done); resolve(); };
        const timer = setTimeout(done, wait);
        waiters.add(done);
      });
      result = build();
    }
    return result.body;
  }

  server = await startServer({
    host: options.host,
    port: options.port,
    tls: options.tls,
    handler,
    onError: (err) => options.onError?.(err),
  });

  return {
    host: server.host,
    port: server.port,
    bootstrap: `${server.host}:${server.port}`,
    topics,
    requestCounts: counts,
    createTopic: (name, partitions) => { createTopic(name, partitions); },
    append(topic, partition, records) {
      const log = topics.get(topic)?.partitions[partition];
      if (!log) throw new Error(`no partition ${topic}/${partition}`);
      const base = append(log, records);
      if (typeof base === 'number') throw new Error(`${topic}/${partition}: error ${base}`);
      if (base < 0n) throw new Error(`malformed record batches for ${topic}/${partition}`);
      for (const w of [...waiters]) w();
      return base;
    },
    async close() {
      for (const w of [...waiters]) w();
      await server.close();
    },
  };
}

/**
 * Appends the v2 record batches in `records`; returns the first assigned offset, -1n if
 * malformed, or a Kafka error code (a number) for an idempotent producer's bad sequence or epoch.
 * A batch an idempotent producer sent before (one of its last 5) is not written again: its first
 * write's offset is the answer.
 */
function append(log: PartitionLog, records: Uint8Array | null, maxMessageBytes = Infinity): bigint | number {
  if (records === null || records.length === 0) return log.nextOffset;
  const staged: StoredBatch[] = [];
  const sequenced: { producerId: bigint; epoch: number; first: number; last: number; baseOffset: bigint }[] = [];
  let next = log.nextOffset;
  let pos = 0;
  while (pos < records.length) {
    if (records.length - pos < 61) return -1n;
    const view = new DataView(records.buffer, records.byteOffset + pos, records.length - pos);
    const batchLength = view.getInt32(8, false);
    const magic = view.getInt8(16);
    const total = 12 + batchLength;
    if (magic !== 2 || batchLength < 49 || total > records.length - pos) return -1n;
    if (total > maxMessageBytes) return ERROR_MESSAGE_TOO_LARGE;
    // A copy (not records.slice(): on a Buffer that is a view): the frame's memory is not ours to keep.
    const bytes = new Uint8Array(total);
    bytes.set(records.subarray(pos, pos + total));
    const lastOffsetDelta = view.getInt32(23, false);
    const maxTimestamp = view.getBigInt64(35, false);
    const producerId = view.getBigInt64(43, false);
    const baseSequence = view.getInt32(53, false);
    if (producerId >= 0n && baseSequence >= 0) {
      const epoch = view.getInt16(51, false);
      const known = log.producers?.get(producerId);
      const last = (baseSequence + lastOffsetDelta) % 0x80000000;
      if (known !== undefined && epoch < known.epoch) return ERROR_INVALID_PRODUCER_EPOCH;
      if (known !== undefined && epoch === known.epoch) {
        const dup = known.recent.find((r) => r.firstSequence === baseSequence && r.lastSequence === last);
        if (dup !== undefined) return staged.length === 0 ? dup.baseOffset : -1n;
        if (baseSequence !== (known.lastSequence + 1) % 0x80000000) return ERROR_OUT_OF_ORDER_SEQUENCE_NUMBER;
      } else if (baseSequence !== 0) {
        return known === undefined ? ERROR_UNKNOWN_PRODUCER_ID : ERROR_OUT_OF_ORDER_SEQUENCE_NUMBER;
      }
      sequenced.push({ producerId, epoch, first: baseSequence, last, baseOffset: next });
    }
    new DataView(bytes.buffer).setBigInt64(0, next, false);
    staged.push({ baseOffset: next, lastOffset: next + BigInt(lastOffsetDelta), maxTimestamp, bytes });
    next += BigInt(lastOffsetDelta) + 1n;
    pos += total;
  }
  const first = log.nextOffset;
  log.batches.push(...staged);
  log.nextOffset = next;
  for (const b of sequenced) {
    log.producers ??= new Map();
    let state = log.producers.get(b.producerId);
    if (state === undefined || state.epoch !== b.epoch) log.producers.set(b.producerId, state = { epoch: b.epoch, lastSequence: -1, recent: [] });
    state.lastSequence = b.last;
    state.recent.push({ firstSequence: b.first, lastSequence: b.last, baseOffset: b.baseOffset });
    if (state.recent.length > PRODUCER_BATCHES_KEPT) state.recent.shift();
  }
  return first;
}

const ERROR_MESSAGE_TOO_LARGE = 10;
const ERROR_OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
const ERROR_INVALID_PRODUCER_EPOCH = 47;
const ERROR_UNKNOWN_PRODUCER_ID = 59;

