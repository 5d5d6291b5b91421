// Group membership, KIP-848 ("consumer" protocol): the broker computes assignments, and the
// member keeps one request going, ConsumerGroupHeartbeat, that carries its subscription and what
// it owns and brings back its target assignment. Reconciling is this file's job: give up what
// left the target (commit first), take what joined it, and tell the broker at the next heartbeat.
//
//   unjoined -> joining (epoch 0) -> stable (epoch n) -> ... -> leaving (epoch -1) -> left
//   fenced / unknown member: what is owned is lost, join again at epoch 0.

import { bytesToBase64Url } from '../text.js';
import type { Connection } from '../wire/connection.js';
import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, COORDINATOR_ERRORS, GroupErrorCode } from './errors.js';
import { CoordinatorConnection } from './classic.js';
import type { MemberState, Membership, MembershipHooks } from './group.js';
import type { CommitIdentity } from './offsets.js';
import { namedAssignment, type TopicPartitions } from './protocol.js';

export interface NextGenOptions {
  groupId: string;
  groupInstanceId: string | null;
  rebalanceTimeoutMs: number;
  serverAssignor: string | null;
  /** Only for the record: hooks.subscribedTopics() resolves it. */
  subscription: readonly (string | RegExp)[];
}

/** Epochs with a meaning of their own. */
const JOIN_EPOCH = 0;
const LEAVE_EPOCH = -1;
const STATIC_LEAVE_EPOCH = -2;
const DEFAULT_HEARTBEAT_MS = 5000;

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const t = setTimeout(done, ms);
  function done() { clearTimeout(t); signal.removeEventListener('abort', done); resolve(); }
  signal.addEventListener('abort', done, { once: true });
});

function toSet(tps: readonly TopicPartitions[]): Set<string> { return new Set(tps.flatMap((tp) => tp.partitions.map((p) => keyOf(tp.topic, p)))); }
function minus(a: readonly TopicPartitions[], b: readonly TopicPartitions[]): TopicPartitions[] {
  const drop = toSet(b);
  return a.map((tp) => ({ topic: tp.topic, partitions: tp.partitions.filter((p) => !drop.has(keyOf(tp.topic, p))) })).filter((tp) => tp.partitions.length > 0);
}

export class NextGenMembership implements Membership {
  #state: MemberState = 'unjoined';
  /** KIP-1082: the member makes up its own id and keeps it across rejoins. */
  // KIP-848: the member makes its id, a random uuid (Web Crypto, as every runtime has it).
  readonly #memberId = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(16)), 0);
  #epoch = JOIN_EPOCH;
  #owned: TopicPartitions[] = [];
  readonly #coordinator: CoordinatorConnection;
  #intervalMs = DEFAULT_HEARTBEAT_MS;
  /** The last assignment the broker sent (topic ids), until it is reconciled in full. */
  #target: { topicId: string; partitions: number[] }[] | null = null;
  /**
   * The next heartbeat is a full request (rebalance timeout, subscription and owned partitions
   * all set), which Kafka answers with the whole assignment again: after a heartbeat failed (its
   * answer, perhaps bringing the assignment, is lost) and while the held assignment names
   * topics or partitions the metadata does not have (a corrupted answer is not sent twice).
   */
  #full = false;
  #loop: Promise<void> | null = null;
  #wake: () => void = () => {};
  readonly #stop = new AbortController();

  constructor(private readonly client: KafkaClient, private readonly options: NextGenOptions, private readonly hooks: MembershipHooks) {
    this.#coordinator = new CoordinatorConnection(client, options.groupId);
  }

  get state(): MemberState { return this.#state; }
  get memberId(): string { return this.#memberId; }
  get memberEpoch(): number { return this.#epoch; }
  get owned(): readonly TopicPartitions[] { return this.#owned; }

  #to(state: MemberState, why: string): void {
    if (this.#state === state) return;
    this.hooks.debug?.(`group ${this.options.groupId} (consumer protocol): ${this.#state} -> ${state} (${why})`);
    this.#state = state;
  }

  commitIdentity(): CommitIdentity | null {
    // After leaving, a commit would be refused (and would open a coordinator connection nobody closes).
    if (this.#epoch <= 0 || this.#state === 'left' || this.#state === 'failed') return null;
    return { groupId: this.options.groupId, generationIdOrMemberEpoch: this.#epoch, memberId: this.#memberId, groupInstanceId: this.options.groupInstanceId };
  }

  coordinator(): Promise<Connection> {
    if (this.#state === 'left') return Promise.reject(new ConsumerError('CLOSED', `group ${this.options.groupId}: the member has left`));
    return this.#coordinator.get();
  }

  coordinatorFailed(): void {
    this.#coordinator.failed();
  }

  /** A commit was refused for the epoch: the next heartbeat (sent now) brings the current one. */
  requestRejoin(why: string): void {
    this.hooks.debug?.(`group ${this.options.groupId}: heartbeat now (${why})`);
    this.#wake();
  }

  /** The subscription's topics changed: the next heartbeat (sent now) carries them. */
  subscriptionChanged(): void { this.#wake(); }

  start(): void { this.#loop = this.#run(); }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stop.signal.aborted) {
      let again = false;
      try {
        again = await this.#heartbeat();
        failures = 0;
      } catch (err) {
        if (this.#stop.signal.aborted) return;
        if (err instanceof ConsumerError) { this.#fail(err); return; }
        failures++;
        this.#full = true;
        this.hooks.debug?.(`group ${this.options.groupId}: heartbeat failed (${(err as Error).message})`);
        this.coordinatorFailed();
        await sleep(Math.min(100 * 2 ** failures, 2000), this.#stop.signal);
        continue;
      }
      if (again) continue;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        void sleep(this.#intervalMs, this.#stop.signal).then(resolve);
      });
    }
  }

  /** One heartbeat and what follows from its answer; true when another should go at once (to acknowledge). */
  async #heartbeat(epoch = this.#epoch): Promise<boolean> {
    const topics = epoch >= 0 ? await this.hooks.subscribedTopics() : null;
    const conn = await this.coordinator();
    const version = conn.versionFor(ApiKey.ConsumerGroupHeartbeat);
    if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks ConsumerGroupHeartbeat (KIP-848)`, { errorCode: GroupErrorCode.UNSUPPORTED_VERSION });
    if (epoch === JOIN_EPOCH) this.#to('joining', 'epoch 0');
    const owned = await this.#topicIds(this.#owned);
    const full = epoch === JOIN_EPOCH || (epoch > 0 && this.#full);
    const res = await conn.request(ApiKey.ConsumerGroupHeartbeat, version, {
      groupId: this.options.groupId,
      memberId: this.#memberId,
      memberEpoch: epoch,
      instanceId: this.options.groupInstanceId,
      rebalanceTimeoutMs: full ? this.options.rebalanceTimeoutMs : -1,
      subscribedTopicNames: topics,
      serverAssignor: full ? this.options.serverAssignor : null,
      topicPartitions: epoch >= 0 ? owned : null,
    });
    const E = GroupErrorCode;
    if (res.errorCode !== 0) {
      const why = `${kafkaErrorName(res.errorCode)}${res.errorMessage ? `: ${res.errorMessage}` : ''}`;
      if (epoch < 0) return false; // leaving: nothing more to do
      if (res.errorCode === E.UNKNOWN_MEMBER_ID || res.errorCode === E.FENCED_MEMBER_EPOCH) {
        const lost = this.#owned;
        this.#owned = [];
        this.#epoch = JOIN_EPOCH;
        this.#target = null;
        this.#to('unjoined', why);
        if (lost.length > 0) await this.hooks.lost(lost);
        return true;
      }
      if (COORDINATOR_ERRORS.has(res.errorCode)) { this.coordinatorFailed(); throw new Error(why); }
      throw new ConsumerError('GROUP', `group ${this.options.groupId}: ConsumerGroupHeartbeat: ${why}`, { errorCode: res.errorCode });
    }
    if (epoch < 0) return false;
    this.#full = false;
    this.#epoch = res.memberEpoch;
    if (res.heartbeatIntervalMs > 0) this.#intervalMs = res.heartbeatIntervalMs;
    // The broker sends an assignment once, when it changes: kept until it is reconciled, so a
    // failure on the way (metadata for its topic ids, committing what it revokes) retries it
    // at the next heartbeat rather than leaving the member stable with nothing.
    if (res.assignment !== null) this.#target = res.assignment.topicPartitions;
    const pending = this.#target;
    if (pending === null) {
      if (this.#state === 'joining') this.#to('stable', `epoch ${res.memberEpoch}`);
      return false;
    }
    const target = await namedAssignment(this.client, pending, null, this.hooks.debug);
    const changed = await this.#reconcile(target);
    const complete = target.reduce((n, tp) => n + tp.partitions.length, 0) === pending.reduce((n, t) => n + t.partitions.length, 0);
    if (complete && this.#target === pending) this.#target = null;
    if (!complete) this.#full = true;
    return changed;
  }

  /** Gives up what left the target, takes what joined it; true when the broker should hear of it now. */
  async #reconcile(target: TopicPartitions[]): Promise<boolean> {
    const revoked = minus(this.#owned, target);
    const added = minus(target, this.#owned);
    if (revoked.length > 0) {
      await this.hooks.revoked(revoked);
      this.#owned = minus(this.#owned, revoked);
    }
    if (added.length > 0) {
      await this.hooks.assigned(added);
      this.#owned = [...this.#owned, ...added];
    }
    this.#to('stable', `epoch ${this.#epoch}, ${target.reduce((n, tp) => n + tp.partitions.length, 0)} partitions`);
    return revoked.length > 0 || added.length > 0;
  }

  async #topicIds(tps: readonly TopicPartitions[]): Promise<{ topicId: string; partitions: number[] }[]> {
    const out: { topicId: string; partitions: number[] }[] = [];
    for (const tp of tps) {
      let id = this.client.topics.get(tp.topic)?.topicId;
      if (!id) { await this.client.metadata([tp.topic]); id = this.client.topics.get(tp.topic)?.topicId; }
      if (id) out.push({ topicId: id, partitions: tp.partitions });
    }
    return out;
  }


  #fail(error: ConsumerError): void {
    if (this.#state === 'failed') return;
    this.#to('failed', error.message);
    this.#stop.abort();
    this.hooks.failed(error);
  }

  async close(): Promise<void> {
    if (this.#state === 'left') return;
    if (this.#state === 'failed') {
      // Failed (a fatal answer): nothing to leave, but its loop may still wait and its coordinator
      // connection is still open (issue 37 #2): both end here.
      this.#stop.abort();
      this.#wake();
      await this.#loop?.catch(() => {});
      this.coordinatorFailed();
      return;
    }
    this.#stop.abort();
    this.#wake();
    await this.#loop?.catch(() => {});
    this.#to('leaving', 'close');
    try {
      if (this.#owned.length > 0) {
        const all = this.#owned;
        await this.hooks.revoked(all);
        this.#owned = [];
      }
    } finally {
      try {
        if (this.#epoch > 0) await this.#heartbeat(this.options.groupInstanceId ? STATIC_LEAVE_EPOCH : LEAVE_EPOCH);
      } catch (err) {
        this.hooks.debug?.(`group ${this.options.groupId}: leaving failed (${(err as Error).message}); the session times out instead`);
      } finally {
        this.#to('left', 'closed');
        this.coordinatorFailed();
      }
    }
  }
}
