// A thin multi-broker client: bootstrap, metadata, one Connection per broker, leader lookup.
// Enough for the CLI's metadata / produce / consume; not a consumer-group client.

import { connect, type Connection, type ConnectOptions } from './connection.js';
// What a face over the client (the CLI) needs of the connection's options, so it need not open a connection's module itself.
export { SASL_MECHANISMS, type ConnectOptions, type SaslOptions } from './connection.js';
import { ConnectionError, kafkaErrorName, KafkaErrorCode, isTransient } from './errors.js';
import { ApiKey, type MetadataResponse } from '../generated/types.js';
import { ZERO_UUID } from './versions.js';

export interface ClientOptions extends Omit<ConnectOptions, 'host' | 'port'> {
  /** "host:port[,host:port...]" or a list of "host:port". */
  bootstrap: string | string[];
  /**
   * How long reaching a bootstrap server (one that refuses, or an answer lost on the way) and a
   * Metadata lookup are retried, with backoff, before their error is given; default 30 000 ms,
   * 0: one try. Each wait is told to `debug`.
   */
  retryTimeoutMs?: number;
  /** Debug lines: what the client waits for (a bootstrap server that refuses, a retried lookup). */
  debug?: (message: string) => void;
  /**
   * KIP-714: a producer or consumer pushes its metrics to the cluster when the broker has a
   * client-metrics subscription for it (GetTelemetrySubscriptions / PushTelemetry). Default true,
   * as the Java client's enable.metrics.push; false: never asks.
   */
  enableMetricsPush?: boolean;
}

/** First wait before a retry of a lookup, doubling up to RETRY_BACKOFF_MAX_MS. */
const RETRY_BACKOFF_MS = 100;
const RETRY_BACKOFF_MAX_MS = 1000;

export interface BrokerAddress { nodeId: number; host: string; port: number }

export interface PartitionInfo { partition: number; leader: number; leaderEpoch: number; replicas: number[]; isr: number[]; errorCode: number }
/** One key's FindCoordinator answer (errorCode 0: nodeId, host and port say where). */
export interface CoordinatorAnswer { nodeId: number; host: string; port: number; errorCode: number; errorMessage: string | null }
export interface TopicInfo { name: string; topicId: string; errorCode: number; partitions: PartitionInfo[] }

/** Parses "host:port" (IPv6 as "[::1]:9092"). */
export function parseHostPort(text: string, defaultPort = 9092): { host: string; port: number } {
  const t = text.trim();
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : defaultPort };
  const i = t.lastIndexOf(':');
  if (i < 0) return { host: t, port: defaultPort };
  const port = Number(t.slice(i + 1));
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new RangeError(`bad port in "${text}"`);
  return { host: t.slice(0, i), port };
}

/**
 * Metadata's answer about a topic that cannot be read or written as asked: it does not exist
 * (UNKNOWN_TOPIC_OR_PARTITION), it has an error of its own, or some partition has no leader.
 */
export class TopicError extends Error {
  override readonly name = 'TopicError';
  constructor(readonly topic: string, readonly errorCode: number, message: string) {
    super(message);
  }
}

/** "Unknown topic or partition" for UNKNOWN_TOPIC_OR_PARTITION: Kafka's words, as kcat prints them. */
const TOPIC_WORDS: Record<number, string> = { [KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION]: 'Unknown topic or partition', [KafkaErrorCode.LEADER_NOT_AVAILABLE]: 'Leader not available' };

export class KafkaClient {
  readonly options: ClientOptions;
  readonly #bootstrap: { host: string; port: number }[];
  #bootstrapConn: Connection | null = null;
  /** The bootstrap connection being made: concurrent callers share it (no connection storm). */
  #bootstrapping: Promise<Connection> | null = null;
  #closed = false;
  /** Retry waits in progress: close() ends them. */
  readonly #sleeps = new Set<() => void>();
  readonly #byNode = new Map<number, Promise<Connection>>();
  /** The connections of #byNode once made (openBroker()). */
  readonly #made = new Map<number, Connection>();
  #brokers = new Map<number, BrokerAddress>();
  #topics = new Map<string, TopicInfo>();
  #clusterId: string | null = null;
  #controllerId = -1;

  constructor(options: ClientOptions) {
    this.options = options;
    const list = Array.isArray(options.bootstrap) ? options.bootstrap : options.bootstrap.split(',');
    this.#bootstrap = list.filter((s) => s.trim() !== '').map((s) => parseHostPort(s));
    if (this.#bootstrap.length === 0) throw new RangeError('no bootstrap servers');
  }

  get brokers(): ReadonlyMap<number, BrokerAddress> { return this.#brokers; }
  get topics(): ReadonlyMap<string, TopicInfo> { return this.#topics; }
  get clusterId(): string | null { return this.#clusterId; }
  get controllerId(): number { return this.#controllerId; }

  /**
   * A connection to any bootstrap server (the first that answers), shared by concurrent callers;
   * retried with backoff for up to retryTimeoutMs while they refuse or fail on the way.
   */
  async anyConnection(): Promise<Connection> {
    if (this.#closed) throw this.#closedError();
    if (this.#bootstrapConn && !this.#bootstrapConn.closed) return this.#bootstrapConn;
    this.#bootstrapping ??= this.#connectBootstrap().finally(() => { this.#bootstrapping = null; });
    return this.#bootstrapping;
  }

  async #connectBootstrap(): Promise<Connection> {
    const deadline = Date.now() + (this.options.retryTimeoutMs ?? 30_000);
    for (let attempt = 0; ; attempt++) {
      let last: unknown;
      let transient = false;
      for (const { host, port } of this.#bootstrap) {
        try {
          const conn = await connect({ ...this.options, host, port });
          if (this.#closed) { conn.destroy(); throw this.#closedError(); }
          this.#bootstrapConn = conn;
          return conn;
        } catch (err) {
          if (this.#closed) throw this.#closedError();
          last = err;
          transient ||= isTransient(err);
        }
      }
      const error = last instanceof Error ? last : new ConnectionError('CONNECT', 'no bootstrap server reachable');
      if (!transient) throw error;
      await this.#backoff(attempt, deadline, `bootstrap ${this.#bootstrap.map((b) => `${b.host}:${b.port}`).join(',')}`, error);
    }
  }

  /** Waits before retry `attempt` (from 0), or throws `error` when that would pass `deadline` or the client closed. */
  async #backoff(attempt: number, deadline: number, what: string, error: Error): Promise<void> {
    const wait = Math.min(RETRY_BACKOFF_MS * 2 ** attempt, RETRY_BACKOFF_MAX_MS);
    if (this.#closed) throw this.#closedError();
    if (Date.now() + wait > deadline) throw error;
    this.options.debug?.(`${what}: ${error.message}; retrying in ${wait} ms (for up to ${Math.max(0, deadline - Date.now())} ms more)`);
    await new Promise<void>((resolve) => {
      const done = () => { clearTimeout(timer); this.#sleeps.delete(done); resolve(); };
      const timer = setTimeout(done, wait);
      this.#sleeps.add(done);
    });
    if (this.#closed) throw this.#closedError();
  }

  #closedError(): ConnectionError {
    return new ConnectionError('CLOSED', 'the client is closed');
  }

  /** Fetches metadata for `topics` (null: all topics) and updates the cached view. */
  async metadata(topics: string[] | null = null, allowAutoTopicCreation = false): Promise<MetadataResponse> {
    const deadline = Date.now() + (this.options.retryTimeoutMs ?? 30_000);
    let res: MetadataResponse;
    for (let attempt = 0; ; attempt++) {
      const conn = await this.anyConnection();
      const version = conn.versionFor(ApiKey.Metadata);
      try {
        res = await conn.request(ApiKey.Metadata, version, {
          topics: topics === null ? (version === 0 ? [] : null) : topics.map((name) => ({ name, topicId: ZERO_UUID })),
          // The field exists from v4; older versions always allow auto-creation.
          ...(version !== undefined && version >= 4 ? { allowAutoTopicCreation } : {}),
        });
        break;
      } catch (err) {
        // The answer was lost on the way (the connection is closed now): ask again on a fresh one.
        if (!isTransient(err)) throw err;
        await this.#backoff(attempt, deadline, `Metadata ${topics === null ? '(all topics)' : topics.join(',')}`, err as Error);
      }
    }
    for (const b of res.brokers) this.#brokers.set(b.nodeId, { nodeId: b.nodeId, host: b.host, port: b.port });
    this.#clusterId = res.clusterId;
    this.#controllerId = res.controllerId;
    for (const t of res.topics) {
      if (t.name === null) continue;
      this.#topics.set(t.name, {
        name: t.name,
        topicId: t.topicId ?? ZERO_UUID,
        errorCode: t.errorCode,
        partitions: t.partitions.map((p) => ({
          partition: p.partitionIndex, leader: p.leaderId, leaderEpoch: p.leaderEpoch ?? -1,
          replicas: p.replicaNodes, isr: p.isrNodes, errorCode: p.errorCode,
        })).sort((a, b) => a.partition - b.partition),
      });
    }
    return res;
  }

  /**
   * The topic's metadata, refreshed (a few times, briefly apart) until it exists and every
   * partition has a leader. Throws ConnectionError-free plain Errors for missing topics.
   */
  async topic(name: string, options: { allowAutoTopicCreation?: boolean; attempts?: number } = {}): Promise<TopicInfo> {
    const attempts = options.attempts ?? 10;
    let info: TopicInfo | undefined;
    for (let i = 0; i < attempts; i++) {
      await this.metadata([name], options.allowAutoTopicCreation ?? false);
      info = this.#topics.get(name);
      // Kafka (KRaft) creates an auto-created topic asynchronously: the Metadata that asked for it
      // answers UNKNOWN_TOPIC_OR_PARTITION until the controller has made it.
      const creating = options.allowAutoTopicCreation === true && info?.errorCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
      const retriable = !info || creating || info.errorCode === KafkaErrorCode.LEADER_NOT_AVAILABLE
        || info.partitions.some((p) => p.leader < 0 || p.errorCode === KafkaErrorCode.LEADER_NOT_AVAILABLE);
      if (info && info.errorCode === 0 && !retriable) return info;
      if (info && info.errorCode !== 0 && !retriable) break;
      await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** i, 500)));
    }
    if (!info) throw new TopicError(name, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic ${name}: not in metadata`);
    if (info.errorCode !== 0) throw topicError(name, info.errorCode);
    throw new TopicError(name, KafkaErrorCode.LEADER_NOT_AVAILABLE, `topic ${name}: some partitions have no leader`);
  }

  /**
   * Of these topic names, the ones Metadata says do not exist (asked without auto-creation): for
   * saying so at once rather than waiting for partitions that will not come.
   */
  async missingTopics(names: readonly string[]): Promise<TopicError[]> {
    if (names.length === 0) return [];
    const md = await this.metadata([...names], false);
    return md.topics.filter((t) => t.name !== null && t.errorCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
      .map((t) => topicError(t.name!, t.errorCode));
  }

  /** The (shared) connection to broker `nodeId`, as found in metadata. */
  broker(nodeId: number): Promise<Connection> {
    const existing = this.#byNode.get(nodeId);
    if (existing) {
      return existing.then((c) => {
        if (!c.closed) return c;
        // Callers who find it closed share the one new connection (requests of a partition stay
        // on one connection, in order).
        if (this.#byNode.get(nodeId) === existing) this.#byNode.delete(nodeId);
        return this.broker(nodeId);
      });
    }
    if (this.#closed) return Promise.reject(this.#closedError());
    const addr = this.#brokers.get(nodeId);
    if (!addr) return Promise.reject(new Error(`broker ${nodeId} is not in metadata`));
    const p = connect({ ...this.options, host: addr.host, port: addr.port }).then((c) => {
      if (this.#closed) { c.destroy(); throw this.#closedError(); } // made while the client closed
      this.#made.set(nodeId, c);
      return c;
    });
    this.#byNode.set(nodeId, p);
    p.catch(() => { if (this.#byNode.get(nodeId) === p) this.#byNode.delete(nodeId); });
    return p;
  }

  /**
   * broker()'s connection to `nodeId` when it is made and open, without a promise to wait on
   * (a request on it goes out now); undefined otherwise (broker() makes or waits for one).
   */
  openBroker(nodeId: number): Connection | undefined {
    const c = this.#made.get(nodeId);
    return c !== undefined && !c.closed && !this.#closed ? c : undefined;
  }

  /** The leader's node id of topic/partition in the metadata known now; -1 when unknown (no metadata, no leader). */
  leaderOf(topic: string, partition: number): number {
    return this.#topics.get(topic)?.partitions.find((x) => x.partition === partition)?.leader ?? -1;
  }

  /** The connection to the leader of topic/partition (metadata fetched if not cached). */
  async leader(topic: string, partition: number): Promise<Connection> {
    if (this.leaderOf(topic, partition) < 0) {
      const info = await this.topic(topic);
      if (!info.partitions.some((x) => x.partition === partition)) {
        throw new TopicError(topic, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic ${topic} has no partition ${partition} (it has ${info.partitions.length})`);
      }
    }
    return this.broker(this.leaderOf(topic, partition));
  }

  /**
   * Where the coordinator of `key` is (keyType 0: a group, 1: a transactional id, 2: a share
   * group), asked of any broker: the answer for that key, its error code included (each caller
   * knows which to retry); a broker that left the key out answers COORDINATOR_NOT_AVAILABLE.
   * A broker without FindCoordinator is refused by `unsupported(message)` (the caller's typed
   * error), or by a ConnectionError UNSUPPORTED_VERSION.
   */
  async findCoordinator(keyType: number, key: string, unsupported?: (message: string) => Error): Promise<CoordinatorAnswer> {
    const conn = await this.anyConnection();
    const version = conn.versionFor(ApiKey.FindCoordinator);
    if (version === undefined) {
      const message = `broker ${conn.host}:${conn.port} does not support FindCoordinator`;
      throw unsupported?.(message) ?? new ConnectionError('UNSUPPORTED_VERSION', message, { host: conn.host, port: conn.port, apiKey: ApiKey.FindCoordinator });
    }
    // v4 asks for a list of keys (KIP-699); before it, one key (and from v1 its type).
    const res = await conn.request(ApiKey.FindCoordinator, version, version >= 4
      ? { keyType, coordinatorKeys: [key] }
      : { key, ...(version >= 1 ? { keyType } : {}) });
    const found = version >= 4 ? res.coordinators.find((c) => c.key === key) : res;
    if (found === undefined) return { nodeId: -1, host: '', port: -1, errorCode: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE, errorMessage: 'not in the FindCoordinator answer' };
    return { nodeId: found.nodeId, host: found.host, port: found.port, errorCode: found.errorCode, errorMessage: found.errorMessage };
  }

  /** Closes every connection; a connection being made is closed once made, retry waits end. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const wake of [...this.#sleeps]) wake();
    await this.#bootstrapping?.catch(() => undefined);
    const conns = await Promise.allSettled([...this.#byNode.values()]);
    const all = new Set<Connection>();
    for (const c of conns) if (c.status === 'fulfilled') all.add(c.value);
    if (this.#bootstrapConn) all.add(this.#bootstrapConn);
    this.#byNode.clear();
    this.#made.clear();
    this.#bootstrapConn = null;
    await Promise.all([...all].map((c) => c.close()));
  }
}

function topicError(topic: string, errorCode: number): TopicError {
  const words = TOPIC_WORDS[errorCode];
  return new TopicError(topic, errorCode, `topic ${topic}: ${kafkaErrorName(errorCode)}${words ? ` (${words})` : ''}`);
}
