// Share-group membership (KIP-932): one ShareGroupHeartbeat at a time to the group coordinator,
// carrying the subscription and bringing back the member's epoch and its assignment. Unlike a
// consumer group there is nothing to revoke or commit: partitions are shared, so a new
// assignment simply replaces the old one and the fetcher follows it.
//
//   joining (epoch 0) -> stable (epoch n) -> ... -> leaving (epoch -1) -> left
//   fenced / unknown member: join again at epoch 0 (with the same member id)

import { bytesToBase64Url } from '../text.js';
import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, COORDINATOR_ERRORS, GroupErrorCode } from './errors.js';
import { CoordinatorConnection } from './classic.js';
import { namedAssignment, type TopicPartitions } from './protocol.js';

export type ShareMemberState = 'unjoined' | 'joining' | 'stable' | 'leaving' | 'left' | 'failed';

export interface ShareMembershipHooks {
  /** The assignment changed (the full new one). */
  assigned(partitions: TopicPartitions[]): void;
  failed(error: ConsumerError): void;
  debug?(message: string): void;
}

const JOIN_EPOCH = 0;
const LEAVE_EPOCH = -1;
const DEFAULT_HEARTBEAT_MS = 5000;
/** While nothing is assigned, for EMPTY_FAST_MS: this many heartbeats this far apart, then EMPTY_NEXT_MS apart (at most ~45 in all). */
const EMPTY_FIRST_BEATS = 10;
const EMPTY_FIRST_MS = 25;
const EMPTY_NEXT_MS = 50;
const EMPTY_FAST_MS = 2000;

const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const t = setTimeout(done, ms);
  function done() { clearTimeout(t); signal.removeEventListener('abort', done); resolve(); }
  signal.addEventListener('abort', done, { once: true });
});

export class ShareMembership {
  #state: ShareMemberState = 'unjoined';
  // The member makes its own id (a random uuid) and keeps it across rejoins.
  readonly memberId = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(16)), 0);
  #epoch = JOIN_EPOCH;
  #assignment: TopicPartitions[] = [];
  readonly #coordinator: CoordinatorConnection;
  #intervalMs = DEFAULT_HEARTBEAT_MS;
  /** The next heartbeat is a full request (after one failed). */
  #full = false;
  #loop: Promise<void> | null = null;
  #wake: () => void = () => {};
  readonly #stop = new AbortController();
  #joined: { promise: Promise<void>; resolve(): void };

  constructor(private readonly client: KafkaClient, private readonly groupId: string, private readonly topics: readonly string[], private readonly hooks: ShareMembershipHooks) {
    this.#coordinator = new CoordinatorConnection(client, groupId);
    let resolve!: () => void;
    this.#joined = { promise: new Promise<void>((r) => { resolve = r; }), resolve };
  }

  get state(): ShareMemberState { return this.#state; }
  get memberEpoch(): number { return this.#epoch; }
  get assignment(): readonly TopicPartitions[] { return this.#assignment; }
  /** Resolves at the first answer that makes this a member (with or without partitions). */
  get joined(): Promise<void> { return this.#joined.promise; }

  #to(state: ShareMemberState, why: string): void {
    if (this.#state === state) return;
    this.hooks.debug?.(`share group ${this.groupId}: ${this.#state} -> ${state} (${why})`);
    this.#state = state;
  }

  start(): void { this.#loop ??= this.#run(); }

  async #run(): Promise<void> {
    let failures = 0;
    let emptyBeats = 0;
    let emptySince: number | null = null;
    while (!this.#stop.signal.aborted) {
      try {
        await this.#heartbeat(this.#epoch);
        failures = 0;
      } catch (err) {
        if (this.#stop.signal.aborted) return;
        if (err instanceof ConsumerError) { this.#fail(err); return; }
        failures++;
        // The lost answer may have carried a new assignment, which Kafka sends once: the next
        // heartbeat is a full one (the subscription set), which Kafka answers with the whole assignment.
        this.#full = true;
        this.hooks.debug?.(`share group ${this.groupId}: heartbeat failed (${(err as Error).message})`);
        this.#coordinator.failed();
        await sleep(Math.min(100 * 2 ** failures, 2000), this.#stop.signal);
        continue;
      }
      if (this.#epoch === JOIN_EPOCH) { await sleep(50, this.#stop.signal); continue; } // fenced: join again soon
      // A member with nothing assigned yet (Kafka assigns a new share group's partitions once
      // their share state is initialized, after the join's answer, and at most once per
      // group.share.assignment.interval.ms, 1 s by default) asks again soon for its first
      // EMPTY_FAST_MS, then at the interval: waiting out a whole interval, or a backoff's step,
      // before the first records is most of a short run's time. The first asks come every
      // EMPTY_FIRST_MS (a new group's share state takes some tens of ms), then every EMPTY_NEXT_MS.
      const empty = this.#assignment.every((tp) => tp.partitions.length === 0);
      if (!empty) emptySince = null; else emptySince ??= Date.now();
      emptyBeats = empty ? emptyBeats + 1 : 0;
      const fast = empty && Date.now() - emptySince! < EMPTY_FAST_MS;
      const wait = fast ? Math.min(this.#intervalMs, emptyBeats <= EMPTY_FIRST_BEATS ? EMPTY_FIRST_MS : EMPTY_NEXT_MS) : this.#intervalMs;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        void sleep(wait, this.#stop.signal).then(resolve);
      });
    }
  }

  async #heartbeat(epoch: number): Promise<void> {
    const conn = await this.#coordinator.get();
    const version = conn.versionFor(ApiKey.ShareGroupHeartbeat);
    if (version === undefined) {
      throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks ShareGroupHeartbeat (share groups, KIP-932)`, { errorCode: GroupErrorCode.UNSUPPORTED_VERSION });
    }
    if (epoch === JOIN_EPOCH) this.#to('joining', 'epoch 0');
    const res = await conn.request(ApiKey.ShareGroupHeartbeat, version, {
      groupId: this.groupId,
      memberId: this.memberId,
      memberEpoch: epoch,
      rackId: null,
      // The subscription goes with the join and after a failed heartbeat; otherwise null says "unchanged".
      subscribedTopicNames: epoch === JOIN_EPOCH || this.#full ? [...this.topics] : null,
    });
    this.#full = false;
    if (res.errorCode !== 0) {
      const why = `${kafkaErrorName(res.errorCode)}${res.errorMessage ? `: ${res.errorMessage}` : ''}`;
      if (epoch === LEAVE_EPOCH) return;
      if (res.errorCode === GroupErrorCode.UNKNOWN_MEMBER_ID || res.errorCode === GroupErrorCode.FENCED_MEMBER_EPOCH) {
        this.#epoch = JOIN_EPOCH;
        this.#setAssignment([]);
        this.#to('unjoined', why);
        return;
      }
      if (COORDINATOR_ERRORS.has(res.errorCode)) { this.#coordinator.failed(); throw new Error(why); }
      throw new ConsumerError('GROUP', `share group ${this.groupId}: ShareGroupHeartbeat: ${why}`, { errorCode: res.errorCode });
    }
    if (epoch === LEAVE_EPOCH) return;
    this.#epoch = res.memberEpoch;
    if (res.heartbeatIntervalMs > 0) this.#intervalMs = res.heartbeatIntervalMs;
    if (res.assignment !== null) this.#setAssignment(await namedAssignment(this.client, res.assignment.topicPartitions, [...this.topics], this.hooks.debug));
    this.#to('stable', `epoch ${res.memberEpoch}`);
    this.#joined.resolve();
  }

  #setAssignment(target: TopicPartitions[]): void {
    this.#assignment = target;
    this.hooks.assigned(target);
  }


  #fail(error: ConsumerError): void {
    if (this.#state === 'failed') return;
    this.#to('failed', error.message);
    this.#stop.abort();
    this.hooks.failed(error);
  }

  /** Leaves the group (epoch -1) so the others get its partitions at once; closes the coordinator connection. */
  async close(): Promise<void> {
    if (this.#state === 'left') return;
    this.#stop.abort();
    this.#wake();
    await this.#loop?.catch(() => {});
    const wasMember = this.#epoch > 0 && this.#state !== 'failed';
    this.#to('leaving', 'close');
    try {
      if (wasMember) await this.#heartbeat(LEAVE_EPOCH);
    } catch (err) {
      this.hooks.debug?.(`share group ${this.groupId}: leaving failed (${(err as Error).message}); the session times out instead`);
    } finally {
      this.#to('left', 'closed');
      this.#coordinator.failed();
    }
  }
}
