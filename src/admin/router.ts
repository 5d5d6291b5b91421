// How every admin call reaches the broker that must answer it, and what happens when it cannot:
// each resource of a call has a route (any broker, the controller, a group or transaction
// coordinator, a partition's leader, one broker); resources with the same destination go in one
// request at the version negotiation picks; a retriable answer (NOT_CONTROLLER, NOT_COORDINATOR,
// COORDINATOR_LOAD_IN_PROGRESS, LEADER_NOT_AVAILABLE, ...) or a lost connection sends those
// resources again after a backoff, to a destination looked up afresh; every other error is that
// resource's failure, and the call's other resources still succeed.
import type { Connection } from '../wire/connection.js';
import { ConnectionError } from '../wire/errors.js';
import type { KafkaClient } from '../wire/client.js';
import { apiName } from '../wire/versions.js';
import { AdminError, brokerError } from './errors.js';

/** Where a resource's request must go. */
export type Route =
  | { kind: 'any' }
  | { kind: 'controller' }
  | { kind: 'node'; nodeId: number }
  /** keyType 0: a group, 1: a transactional id (FindCoordinator's key types). */
  | { kind: 'coordinator'; keyType: 0 | 1; key: string }
  | { kind: 'leader'; topic: string; partition: number };

export const ANY: Route = { kind: 'any' };
export const CONTROLLER: Route = { kind: 'controller' };

/** What the broker said about one resource: an error code, or the value it produced. */
export type Outcome<T> = { errorCode: 0; value: T } | { errorCode: number; errorMessage?: string | null };

export const ok = <T>(value: T): Outcome<T> => ({ errorCode: 0, value });

/** Kafka's errors that mean "ask again (elsewhere), shortly". */
export const RETRIABLE = new Set([
  5, // LEADER_NOT_AVAILABLE
  6, // NOT_LEADER_OR_FOLLOWER
  13, // NETWORK_EXCEPTION
  14, // COORDINATOR_LOAD_IN_PROGRESS
  15, // COORDINATOR_NOT_AVAILABLE
  16, // NOT_COORDINATOR
  41, // NOT_CONTROLLER
]);

/** A lost or refused connection, or no answer in time: worth asking again. */
const RETRIABLE_CONNECTION = new Set(['CONNECT', 'CLOSED', 'TRUNCATED', 'TIMEOUT']);

export interface Call<I, T> {
  /** Names the call in errors: "createTopics". */
  op: string;
  apiKey: number;
  /** The resource in errors: "topic orders". */
  resource(item: I): string;
  route(item: I): Route;
  /**
   * Sends the items (all bound for one broker) at `version` and says what happened to each, in
   * the order given. Throwing an AdminError fails them all with it; a ConnectionError retries.
   */
  send(conn: Connection, version: number, items: I[], nodeId: number): Promise<Outcome<T>[]>;
  /** The lowest version the call can use (a field it needs, as DeleteTopics by id needs v6). */
  minVersion?: number;
}

export interface RouterOptions {
  /** Retries of a resource after a retriable error; default 8. */
  retries?: number;
  /** The first backoff; it doubles up to 1 s. Default 100 ms. */
  retryBackoffMs?: number;
}

export class Router {
  readonly client: KafkaClient;
  readonly #retries: number;
  readonly #backoffMs: number;
  readonly #coordinators = new Map<string, number>();
  #metadataLoaded = false;
  /** Topics whose leaders may have moved since metadata last said. */
  readonly #staleTopics = new Set<string>();
  closed = false;

  constructor(client: KafkaClient, options: RouterOptions = {}) {
    this.client = client;
    this.#retries = options.retries ?? 8;
    this.#backoffMs = options.retryBackoffMs ?? 100;
  }

  /** Runs a call for every item; resolves with their values or rejects with AdminError RESOURCES. */
  async each<I, T>(call: Call<I, T>, items: readonly I[]): Promise<T[]> {
    const results = new Map<number, T>();
    const failures = new Map<number, AdminError>();
    let pending = items.map((item, index) => ({ item, index, last: undefined as AdminError | undefined }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (this.closed) throw new AdminError('CLOSED', `${call.op}: the admin client is closed`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(this.#backoffMs * 2 ** (attempt - 1), 1000)));
      const retry: typeof pending = [];
      const byNode = new Map<number, typeof pending>();
      for (const p of pending) {
        const found = await this.#resolve(call.route(p.item)).catch((error: unknown) => error);
        if (typeof found === 'number') byNode.set(found, [...(byNode.get(found) ?? []), p]);
        else if (found instanceof AdminError && found.code === 'BROKER' && !RETRIABLE.has(found.errorCode!)) {
          failures.set(p.index, brokerError(call.resource(p.item), found.errorCode!, found.errorMessage));
        } else if (found instanceof AdminError && found.code !== 'BROKER') failures.set(p.index, found);
        else if (found instanceof AdminError || found instanceof ConnectionError) retry.push({ ...p, last: found instanceof AdminError ? found : this.#lost(call, found) });
        else throw found;
      }
      await Promise.all([...byNode].map(async ([nodeId, group]) => {
        let outcomes: Outcome<T>[];
        try {
          const conn = nodeId === -1 ? await this.client.anyConnection() : await this.client.broker(nodeId);
          const version = conn.versionFor(call.apiKey);
          if (version === undefined || version < (call.minVersion ?? 0)) {
            throw new AdminError('UNSUPPORTED', `${call.op}: broker ${conn.host}:${conn.port} does not support a version of ${apiName(call.apiKey)} kafka-wire can use`
              + `${call.minVersion ? ` (it needs v${call.minVersion}+)` : ''}`);
          }
          outcomes = await call.send(conn, version, group.map((p) => p.item), nodeId);
        } catch (error) {
          if (error instanceof AdminError) {
            for (const p of group) failures.set(p.index, error);
            return;
          }
          if (error instanceof ConnectionError && !RETRIABLE_CONNECTION.has(error.code)) throw error;
          if (!(error instanceof ConnectionError) && !(error instanceof Error && /not in metadata/.test(error.message))) throw error;
          this.#forget(group.map((p) => call.route(p.item)));
          for (const p of group) retry.push({ ...p, last: this.#lost(call, error) });
          return;
        }
        group.forEach((p, i) => {
          const o = outcomes[i] ?? { errorCode: -1, errorMessage: 'no answer for it in the response' };
          if (o.errorCode === 0) results.set(p.index, (o as { value: T }).value);
          else {
            const failure = brokerError(call.resource(p.item), o.errorCode, 'errorMessage' in o ? o.errorMessage : null);
            if (RETRIABLE.has(o.errorCode)) {
              // A coordinator still loading is still the coordinator: ask it again.
              if (o.errorCode !== 14) this.#forget([call.route(p.item)]);
              retry.push({ ...p, last: failure });
            } else failures.set(p.index, failure);
          }
        });
      }));
      if (retry.length > 0 && attempt >= this.#retries) {
        for (const p of retry) {
          const last = p.last!;
          failures.set(p.index, new AdminError('RETRIES_EXHAUSTED', `${last.message} (still, after ${this.#retries} retries)`,
            { resource: last.resource ?? call.resource(p.item), errorCode: last.errorCode, errorMessage: last.errorMessage, cause: last.cause ?? last }));
        }
        break;
      }
      pending = retry;
    }
    if (failures.size > 0) {
      const failed = [...failures].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
      const succeeded = [...results].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
      throw new AdminError('RESOURCES', `${call.op}: ${failed.length} of ${items.length} failed: ${failed.map((e) => e.message).join('; ')}`,
        { failures: failed, succeeded });
    }
    return items.map((_, i) => results.get(i)!);
  }

  /** A call about one thing (the cluster, a broker): its value, or its own error (not RESOURCES). */
  async one<I, T>(call: Call<I, T>, item: I): Promise<T> {
    try {
      return (await this.each(call, [item]))[0]!;
    } catch (error) {
      if (error instanceof AdminError && error.code === 'RESOURCES' && error.failures.length === 1) throw error.failures[0]!;
      throw error;
    }
  }

  #lost(call: Call<unknown, unknown>, error: unknown): AdminError {
    return new AdminError('RETRIES_EXHAUSTED', `${call.op}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  async #metadata(topics: string[] | null): Promise<void> {
    await this.client.metadata(topics);
    this.#metadataLoaded = true;
  }

  /** The node a route leads to now (-1: the bootstrap connection). */
  async #resolve(route: Route): Promise<number> {
    switch (route.kind) {
      case 'any':
        return -1;
      case 'controller':
        if (!this.#metadataLoaded || this.client.controllerId < 0) await this.#metadata([]);
        if (this.client.controllerId < 0) throw brokerError('the controller', 41, 'metadata names no controller');
        return this.client.controllerId;
      case 'node':
        if (!this.#metadataLoaded || !this.client.brokers.has(route.nodeId)) await this.#metadata([]);
        if (!this.client.brokers.has(route.nodeId)) throw brokerError(`broker ${route.nodeId}`, 8, 'not in the cluster\'s metadata'); // BROKER_NOT_AVAILABLE
        return route.nodeId;
      case 'leader': {
        let info = this.client.topics.get(route.topic);
        if (!info || this.#staleTopics.has(route.topic) || !info.partitions.some((p) => p.partition === route.partition && p.leader >= 0)) {
          this.#staleTopics.delete(route.topic);
          await this.#metadata([route.topic]);
          info = this.client.topics.get(route.topic);
        }
        if (!info) throw brokerError(`topic ${route.topic}`, 3);
        if (info.errorCode !== 0) throw brokerError(`topic ${route.topic}`, info.errorCode);
        const p = info.partitions.find((x) => x.partition === route.partition);
        if (!p) throw brokerError(`${route.topic}-${route.partition}`, 3, `the topic has ${info.partitions.length} partitions`);
        if (p.leader < 0) throw brokerError(`${route.topic}-${route.partition}`, 5);
        return p.leader;
      }
      case 'coordinator': {
        const cacheKey = `${route.keyType}\u0000${route.key}`;
        const cached = this.#coordinators.get(cacheKey);
        if (cached !== undefined) return cached;
        const found = await this.client.findCoordinator(route.keyType, route.key, (message) => new AdminError('UNSUPPORTED', message));
        const what = `${route.keyType === 0 ? 'group' : 'transactional id'} ${route.key}`;
        if (found.errorCode !== 0) throw brokerError(what, found.errorCode, found.errorMessage);
        if (!this.client.brokers.has(found.nodeId)) await this.#metadata([]);
        this.#coordinators.set(cacheKey, found.nodeId);
        return found.nodeId;
      }
    }
  }

  /** Forgets where these routes led (a coordinator moved, the controller changed, a leader died). */
  #forget(routes: Route[]): void {
    for (const route of routes) {
      if (route.kind === 'coordinator') this.#coordinators.delete(`${route.keyType}\u0000${route.key}`);
      else if (route.kind === 'leader') this.#staleTopics.add(route.topic);
      else if (route.kind !== 'any') this.#metadataLoaded = false;
    }
  }

}
