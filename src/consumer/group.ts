// Group membership, classic protocol: a member's state machine over the requests in classic.ts.
//
//   unjoined -> joining -> syncing -> stable -> (rebalance wanted) -> joining ...
//                                      \-> leaving -> left          (close)
//                        any state -> failed                        (an error rejoining cannot fix)
//
// Each change of state goes through `to(state, why)`, so a debug log shows every step. Two loops
// run: the rebalance loop (join, sync, hand the assignment to the consumer) and the heartbeat loop
// (keeps the session alive, also while the consumer finishes revoked work, and notices when the
// group wants to rebalance). Errors the coordinator answers are handled where Java's client
// handles them: find the coordinator again, rejoin, or rejoin as a new member; only fatal ones
// reach the consumer.

import type { Connection } from '../wire/connection.js';
import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ConsumerError, COORDINATOR_ERRORS, GroupErrorCode } from './errors.js';
import { CoordinatorConnection, heartbeat, joinGroup, leaveGroup, syncGroup } from './classic.js';
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription, type TopicPartitions } from './protocol.js';
import { toTopicPartitions, type Assignor, type AssignorMember } from './assignors.js';
import type { CommitIdentity } from './offsets.js';

export type MemberState = 'unjoined' | 'joining' | 'syncing' | 'stable' | 'leaving' | 'left' | 'failed';

/** What a membership asks of the consumer that owns it. */
export interface MembershipHooks {
  /** The topics subscribed to now (patterns matched against fresh metadata). */
  subscribedTopics(): Promise<string[]>;
  /** Partition counts of these topics, from fresh metadata (the leader assigns from them). */
  partitionCounts(topics: string[]): Promise<Map<string, number>>;
  /** Partitions now this member's. */
  assigned(partitions: TopicPartitions[]): Promise<void>;
  /** Partitions to give up: finish what is under way, commit, stop reading. */
  revoked(partitions: TopicPartitions[]): Promise<void>;
  /** Partitions taken away without a chance to commit (fenced, session expired): stop reading. */
  lost(partitions: TopicPartitions[]): Promise<void>;
  /** The membership cannot go on. */
  failed(error: Error): void;
  debug?(message: string): void;
}

/** The membership interface the consumer uses, classic or KIP-848. */
export interface Membership {
  readonly state: MemberState;
  readonly memberId: string;
  /** What an OffsetCommit must carry now; null while the member has no generation. */
  commitIdentity(): CommitIdentity | null;
  /** The coordinator connection (found again when needed). */
  coordinator(): Promise<Connection>;
  /** Note that the coordinator failed (a commit saw NOT_COORDINATOR or a closed connection). */
  coordinatorFailed(): void;
  /** Ask for a rebalance (subscription changed, or a commit was refused for the generation). */
  requestRejoin(why: string): void;
  start(): void;
  /** Gives up everything (committing through the hooks), leaves the group, stops. */
  close(): Promise<void>;
}

export interface ClassicOptions {
  groupId: string;
  groupInstanceId?: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** Assignors offered, in preference order; the coordinator picks one every member has. */
  assignors: readonly Assignor[];
}

/** How long a leader waits before SyncGroup (see #rebalance). */
const LEADER_SYNC_DELAY_MS = 100;

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const t = setTimeout(done, ms);
  function done() { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); }
  signal?.addEventListener('abort', done, { once: true });
});

const count = (tps: readonly TopicPartitions[]) => tps.reduce((n, tp) => n + tp.partitions.length, 0);
const show = (tps: readonly TopicPartitions[]) => tps.map((tp) => `${tp.topic}[${tp.partitions.join(',')}]`).join(' ') || 'nothing';

function minus(a: readonly TopicPartitions[], b: readonly TopicPartitions[]): TopicPartitions[] {
  const drop = new Set(b.flatMap((tp) => tp.partitions.map((p) => `${tp.topic}\u0000${p}`)));
  return a.map((tp) => ({ topic: tp.topic, partitions: tp.partitions.filter((p) => !drop.has(`${tp.topic}\u0000${p}`)) }))
    .filter((tp) => tp.partitions.length > 0);
}

export class ClassicMembership implements Membership {
  #state: MemberState = 'unjoined';
  #memberId = '';
  #generationId = -1;
  #protocol: Assignor | null = null;
  #owned: TopicPartitions[] = [];
  readonly #coordinator: CoordinatorConnection;
  #rejoinWanted: string | null = 'first join';
  #wake: () => void = () => {};
  readonly #stop = new AbortController();
  #loops: Promise<void>[] = [];
  /** Topics the leader assigned from, with their partition counts: a change means rebalance. */
  #assignedFrom = new Map<string, number>();

  constructor(private readonly client: KafkaClient, private readonly options: ClassicOptions, private readonly hooks: MembershipHooks) {
    if (options.assignors.length === 0) throw new ConsumerError('USAGE', 'no assignor');
    this.#coordinator = new CoordinatorConnection(client, options.groupId);
  }

  get state(): MemberState { return this.#state; }
  get memberId(): string { return this.#memberId; }
  get generationId(): number { return this.#generationId; }
  /** The assignor the coordinator chose in the last join. */
  get protocolName(): string | null { return this.#protocol?.name ?? null; }
  get owned(): readonly TopicPartitions[] { return this.#owned; }

  #to(state: MemberState, why: string): void {
    if (this.#state === state) return;
    this.hooks.debug?.(`group ${this.options.groupId}: ${this.#state} -> ${state} (${why})`);
    this.#state = state;
  }

  commitIdentity(): CommitIdentity | null {
    // After leaving, a commit would be refused (and would open a coordinator connection nobody closes).
    if (this.#generationId < 0 || this.#memberId === '' || this.#state === 'left' || this.#state === 'failed') return null;
    return { groupId: this.options.groupId, generationIdOrMemberEpoch: this.#generationId, memberId: this.#memberId, groupInstanceId: this.options.groupInstanceId ?? null };
  }

  coordinator(): Promise<Connection> {
    if (this.#state === 'left') return Promise.reject(new ConsumerError('CLOSED', `group ${this.options.groupId}: the member has left`));
    return this.#coordinator.get();
  }

  coordinatorFailed(): void {
    this.#coordinator.failed();
  }

  requestRejoin(why: string): void {
    if (this.#state === 'leaving' || this.#state === 'left' || this.#state === 'failed') return;
    this.#rejoinWanted ??= why;
    this.#wake();
  }

  start(): void {
    this.#loops = [this.#rebalanceLoop(), this.#heartbeatLoop()];
  }

  // ---- the rebalance loop ----

  async #rebalanceLoop(): Promise<void> {
    let failures = 0;
    while (!this.#stop.signal.aborted) {
      if (this.#rejoinWanted === null) {
        await new Promise<void>((resolve) => { this.#wake = resolve; });
        continue;
      }
      const why = this.#rejoinWanted;
      try {
        await this.#rebalance(why);
        failures = 0;
      } catch (err) {
        if (this.#stop.signal.aborted) return;
        if (err instanceof ConsumerError) { this.#fail(err); return; }
        failures++;
        this.hooks.debug?.(`group ${this.options.groupId}: rebalance failed (${(err as Error).message}); retrying`);
        this.coordinatorFailed();
        this.#rejoinWanted ??= 'retry';
        await sleep(Math.min(100 * 2 ** failures, 2000), this.#stop.signal);
      }
    }
  }

  /** One rebalance: give up what the protocol says to, join, sync, take the new assignment. */
  async #rebalance(why: string): Promise<void> {
    // Eager protocols give up everything before joining (committing first), so nothing is read
    // twice at once; cooperative ones keep reading and give up only what moves (after sync).
    if (this.#protocol?.rebalance !== 'cooperative' && this.#owned.length > 0) await this.#revoke(this.#owned, 'eager rebalance');
    this.#rejoinWanted = null;
    const topics = (await this.hooks.subscribedTopics()).sort();
    const conn = await this.coordinator();
    this.#to('joining', why);
    const protocols = this.options.assignors.map((a) => ({
      name: a.name,
      metadata: encodeSubscription({ topics, ownedPartitions: this.#owned, generationId: this.#generationId }),
    }));
    const join = await joinGroup(conn, {
      groupId: this.options.groupId, memberId: this.#memberId, groupInstanceId: this.options.groupInstanceId ?? null,
      sessionTimeoutMs: this.options.sessionTimeoutMs, rebalanceTimeoutMs: this.options.rebalanceTimeoutMs, protocols, reason: why,
    });
    if (join.errorCode !== 0) return this.#joinError(join.errorCode, join.memberId);
    this.#memberId = join.memberId;
    this.#generationId = join.generationId;
    this.#protocol = this.options.assignors.find((a) => a.name === join.protocolName) ?? null;
    if (!this.#protocol) throw new ConsumerError('GROUP', `group ${this.options.groupId}: coordinator chose unknown assignor ${join.protocolName}`);
    const leader = join.leader === join.memberId;
    this.#to('syncing', `generation ${join.generationId}, ${leader ? `leader of ${join.members.length}` : 'follower'}, ${this.#protocol.name}`);

    const assignments = leader ? await this.#assign(join.members) : [];
    // The leader syncs a moment after the followers: librdkafka's mock coordinator completes the
    // sync on the leader's request and refuses any follower's that comes after it (each such
    // refusal costs a rebalance). Kafka waits for everyone, so there it costs only the moment.
    if (leader && join.members.length > 1) await sleep(LEADER_SYNC_DELAY_MS, this.#stop.signal);
    // A follower's SyncGroup waits for the leader's (up to the rebalance timeout); the leader's is
    // answered once the coordinator stored the assignments, and an answer later than the session
    // timeout is moot (the member is gone): a stalled one is given up then, not after the rebalance timeout (issue 37).
    const syncTimeoutMs = leader
      ? Math.min(this.options.rebalanceTimeoutMs, Math.max(conn.requestTimeoutMs, this.options.sessionTimeoutMs)) + 1000
      : this.options.rebalanceTimeoutMs + 10_000;
    const sync = await syncGroup(conn, {
      groupId: this.options.groupId, generationId: this.#generationId, memberId: this.#memberId,
      groupInstanceId: this.options.groupInstanceId ?? null, protocolName: this.#protocol.name, assignments,
    }, syncTimeoutMs);
    // librdkafka's mock coordinator answers a SyncGroup that comes after the leader's with
    // INVALID_REQUEST (it completes the sync on the leader's assignments); joining again is safe.
    if (sync.errorCode === GroupErrorCode.INVALID_REQUEST) { this.#rejoinWanted = 'SyncGroup refused'; return; }
    if (sync.errorCode !== 0) return this.#joinError(sync.errorCode, this.#memberId);
    const assigned = decodeAssignment(sync.assignment).assignedPartitions;

    const revoked = minus(this.#owned, assigned);
    const added = minus(assigned, this.#owned);
    this.#to('stable', `assigned ${show(assigned)}`);
    if (revoked.length > 0) {
      // Cooperative: give these up, then rejoin so the leader can hand them on.
      await this.#revoke(revoked, 'assigned elsewhere');
      this.requestRejoin('partitions given up');
    }
    this.#owned = assigned.map((tp) => ({ topic: tp.topic, partitions: [...tp.partitions] }));
    if (count(added) > 0) {
      try {
        await this.hooks.assigned(added);
      } catch (err) {
        // Not taken (their offsets could not be read): the retried rebalance must hand them out as
        // added again, or a cooperative member keeps them as owned and never reads them.
        this.#owned = minus(this.#owned, added);
        throw err;
      }
    }
  }

  /** JoinGroup/SyncGroup errors: each handled as the protocol says, else fatal. */
  #joinError(code: number, memberId: string): void {
    const E = GroupErrorCode;
    const why = kafkaErrorName(code);
    if (code === E.MEMBER_ID_REQUIRED) {
      this.#memberId = memberId; // join again at once with the id the coordinator gave
      this.#rejoinWanted = 'member id assigned';
      return;
    }
    if (code === E.UNKNOWN_MEMBER_ID || code === E.ILLEGAL_GENERATION || code === E.FENCED_MEMBER_EPOCH) {
      this.#reset(why);
      this.#rejoinWanted = why;
      return;
    }
    if (code === E.REBALANCE_IN_PROGRESS) { this.#rejoinWanted = why; return; }
    if (COORDINATOR_ERRORS.has(code)) { this.coordinatorFailed(); throw new Error(`coordinator: ${why}`); }
    throw new ConsumerError('GROUP', `group ${this.options.groupId}: ${why}`, { errorCode: code });
  }

  /** Forget the member id and generation (the coordinator no longer knows them). */
  #reset(why: string): void {
    if (this.#owned.length > 0) {
      const lost = this.#owned;
      this.#owned = [];
      void this.hooks.lost(lost);
    }
    this.#memberId = '';
    this.#generationId = -1;
    this.#to('unjoined', why);
  }

  async #revoke(partitions: TopicPartitions[], why: string): Promise<void> {
    this.hooks.debug?.(`group ${this.options.groupId}: revoking ${show(partitions)} (${why})`);
    await this.hooks.revoked(partitions);
    this.#owned = minus(this.#owned, partitions);
  }

  /** The leader's part: decode every member's subscription, run the chosen assignor, encode. */
  async #assign(members: { memberId: string; groupInstanceId: string | null; metadata: Uint8Array }[]) {
    const decoded: AssignorMember[] = members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, subscription: decodeSubscription(m.metadata) }));
    const topics = [...new Set(decoded.flatMap((m) => m.subscription.topics))];
    const counts = await this.hooks.partitionCounts(topics);
    this.#assignedFrom = counts;
    const result = this.#protocol!.assign(decoded, counts);
    return decoded.map((m) => ({ memberId: m.memberId, assignment: encodeAssignment({ assignedPartitions: toTopicPartitions(result.get(m.memberId)) }) }));
  }

  /** For the consumer's metadata refresh: the leader rebalances when partition counts change. */
  partitionCountsChanged(counts: ReadonlyMap<string, number>): boolean {
    for (const [topic, n] of this.#assignedFrom) if (counts.has(topic) && counts.get(topic) !== n) return true;
    return false;
  }

  get assignedFromTopics(): string[] { return [...this.#assignedFrom.keys()]; }

  // ---- the heartbeat loop ----

  async #heartbeatLoop(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      await sleep(this.options.heartbeatIntervalMs, this.#stop.signal);
      if (this.#stop.signal.aborted) return;
      // While joining or syncing the coordinator answers for us; not a member yet: nothing to keep alive.
      if (this.#state !== 'stable' || this.#generationId < 0) continue;
      const generation = this.#generationId;
      let code: number;
      try {
        code = await heartbeat(await this.coordinator(), this.options.groupId, generation, this.#memberId, this.options.groupInstanceId ?? null);
      } catch (err) {
        if (err instanceof ConsumerError) { this.#fail(err); return; }
        this.hooks.debug?.(`group ${this.options.groupId}: heartbeat failed (${(err as Error).message})`);
        this.coordinatorFailed();
        continue;
      }
      if (code === 0 || generation !== this.#generationId) continue;
      const E = GroupErrorCode;
      if (code === E.REBALANCE_IN_PROGRESS) this.requestRejoin('the group is rebalancing');
      else if (code === E.UNKNOWN_MEMBER_ID || code === E.ILLEGAL_GENERATION) { this.#reset(kafkaErrorName(code)); this.requestRejoin(kafkaErrorName(code)); }
      else if (COORDINATOR_ERRORS.has(code)) this.coordinatorFailed();
      else { this.#fail(new ConsumerError('GROUP', `group ${this.options.groupId}: heartbeat: ${kafkaErrorName(code)}`, { errorCode: code })); return; }
    }
  }

  #fail(error: ConsumerError): void {
    if (this.#state === 'failed') return;
    this.#to('failed', error.message);
    this.#stop.abort();
    this.hooks.failed(error);
  }

  // ---- leaving ----

  async close(): Promise<void> {
    if (this.#state === 'left') return;
    if (this.#state === 'failed') {
      // Failed (a fatal answer): nothing to leave, but its loops may still wait and its coordinator
      // connection is still open (issue 37 #2): both end here.
      this.#stop.abort();
      this.#wake();
      await Promise.allSettled(this.#loops);
      this.coordinatorFailed();
      return;
    }
    const wasMember = this.#memberId !== '';
    this.#stop.abort();
    this.#wake();
    // A JoinGroup or SyncGroup under way can wait out the rebalance timeout: cut it short.
    if (this.#state === 'joining' || this.#state === 'syncing') this.coordinatorFailed();
    await Promise.allSettled(this.#loops);
    this.#to('leaving', 'close');
    try {
      if (this.#owned.length > 0) await this.#revoke(this.#owned, 'leaving');
    } finally {
      try {
        // Static members (an instance id) stay: the coordinator keeps their partitions for them.
        if (wasMember && !this.options.groupInstanceId) {
          const conn = await this.coordinator();
          await leaveGroup(conn, this.options.groupId, this.#memberId, null, 'the consumer is closing');
        }
      } catch (err) {
        this.hooks.debug?.(`group ${this.options.groupId}: LeaveGroup failed (${(err as Error).message}); the session times out instead`);
      } finally {
        this.#to('left', 'closed');
        this.coordinatorFailed();
      }
    }
  }
}
