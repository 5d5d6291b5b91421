// The share session with one broker (KIP-932), as bookkeeping without I/O: which partitions the
// broker has in the session, the epoch the next ShareFetch or ShareAcknowledge carries, and the
// acknowledgements waiting to go, turned into the protocol's acknowledgement batches.
//
//   epoch 0  opens a session (lists every partition; no acknowledgements allowed)
//   1, 2 ... continue it (list only partitions added or acknowledged; forgotten ones removed)
//   -1       closes it (acknowledgements allowed; what the member still holds is released)

import { kafkaErrorName } from '../wire/errors.js';

/** The acknowledgement types by name, with the ids the protocol carries. */
export const AcknowledgeType = { GAP: 0, ACCEPT: 1, RELEASE: 2, REJECT: 3, RENEW: 4 } as const;
export type AcknowledgeTypeName = 'accept' | 'release' | 'reject' | 'renew';
export const ACK_TYPE_ID: Readonly<Record<AcknowledgeTypeName | 'gap', number>> = {
  gap: AcknowledgeType.GAP, accept: AcknowledgeType.ACCEPT, release: AcknowledgeType.RELEASE, reject: AcknowledgeType.REJECT, renew: AcknowledgeType.RENEW,
};

/** The acknowledgement came after the acquisition lock had expired (or for a record not held). */
export const INVALID_RECORD_STATE = 121;

/** Names of the share errors (the wire layer's short table lacks them), else the wire layer's name. */
const SHARE_ERROR_NAMES: Record<number, string> = {
  121: 'INVALID_RECORD_STATE', 122: 'SHARE_SESSION_NOT_FOUND', 123: 'INVALID_SHARE_SESSION_EPOCH', 124: 'FENCED_STATE_EPOCH', 133: 'SHARE_SESSION_LIMIT_REACHED',
};
export function shareErrorName(code: number): string {
  const name = SHARE_ERROR_NAMES[code];
  return name ? `${name} (${code})` : kafkaErrorName(code);
}

export const OPEN_EPOCH = 0;
export const CLOSE_EPOCH = -1;
const MAX_EPOCH = 0x7fffffff;

/** The share-session errors after which the next request opens a new session. */
export const SESSION_ERRORS: ReadonlySet<number> = new Set([
  122, // SHARE_SESSION_NOT_FOUND
  123, // INVALID_SHARE_SESSION_EPOCH
  133, // SHARE_SESSION_LIMIT_REACHED
]);

export interface AckBatch { firstOffset: bigint; lastOffset: bigint; acknowledgeTypes: number[] }

/** Pending acknowledgements of one type for a run of offsets (what the caller learns the result of). */
export interface PendingAck { topic: string; partition: number; firstOffset: bigint; lastOffset: bigint; type: number }

/** A run of offsets with one acknowledgement type. */
export interface AckRange { firstOffset: bigint; lastOffset: bigint; type: number }

/**
 * Runs of consecutive offsets with one type, as one batch each (a single type applies to the
 * whole range). Offsets acknowledged twice: the last word counts.
 */
export function ackBatches(acks: readonly AckRange[]): AckBatch[] {
  let inOrder = true;
  for (let i = 1; i < acks.length && inOrder; i++) inOrder = acks[i - 1]!.lastOffset < acks[i]!.firstOffset;
  // The common case (offsets handed out in order, each acknowledged once) needs no map or sort.
  const sorted: readonly AckRange[] = inOrder ? acks : (() => {
    const byOffset = new Map<bigint, number>();
    for (const a of acks) for (let o = a.firstOffset; o <= a.lastOffset; o++) byOffset.set(o, a.type);
    return [...byOffset].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([o, type]) => ({ firstOffset: o, lastOffset: o, type }));
  })();
  const out: AckBatch[] = [];
  for (const a of sorted) {
    const last = out[out.length - 1];
    if (last && last.lastOffset + 1n === a.firstOffset && last.acknowledgeTypes[0] === a.type) last.lastOffset = a.lastOffset;
    else out.push({ firstOffset: a.firstOffset, lastOffset: a.lastOffset, acknowledgeTypes: [a.type] });
  }
  return out;
}

const keyOf = (topicId: string, partition: number) => `${topicId}:${partition}`;

export interface SessionPartition { topicId: string; topic: string; partition: number }

/** A request's partitions: the ones to list (with their acknowledgements) and the ones to forget. */
export interface SessionRequest {
  epoch: number;
  topics: { topicId: string; partitions: { partitionIndex: number; partitionMaxBytes?: number; acknowledgementBatches: AckBatch[] }[] }[];
  forgotten: { topicId: string; partitions: number[] }[];
  /** The acknowledgements this request carries (reported when its answer comes). */
  acks: PendingAck[];
}

export class ShareSession {
  #epoch = OPEN_EPOCH;
  /** What the broker has in the session. */
  readonly #inSession = new Map<string, SessionPartition>();
  /** Acknowledgements to send, by partition key. */
  readonly #pending = new Map<string, { part: SessionPartition; acks: PendingAck[] }>();

  get epoch(): number { return this.#epoch; }
  get isNew(): boolean { return this.#epoch === OPEN_EPOCH; }
  /** Pending acknowledgements, in runs (0: nothing to send). */
  get pendingCount(): number { let n = 0; for (const p of this.#pending.values()) n += p.acks.length; return n; }
  hasPendingType(type: number): boolean {
    for (const p of this.#pending.values()) if (p.acks.some((a) => a.type === type)) return true;
    return false;
  }

  /** The entry acknowledged last, by its partition object (records of one fetch share theirs: no key to build). */
  #last: { part: SessionPartition; entry: { part: SessionPartition; acks: PendingAck[] } } | null = null;

  /** One offset's acknowledgement; the next offset with the same type extends the same run. */
  acknowledge(part: SessionPartition, offset: bigint, type: number): void { this.acknowledgeRange(part, offset, offset, type); }

  acknowledgeRange(part: SessionPartition, firstOffset: bigint, lastOffset: bigint, type: number): void {
    // (#last is cleared whenever entries leave #pending.)
    let entry = this.#last !== null && this.#last.part === part ? this.#last.entry : undefined;
    if (entry === undefined) {
      const k = keyOf(part.topicId, part.partition);
      entry = this.#pending.get(k) ?? this.#pending.set(k, { part, acks: [] }).get(k)!;
      this.#last = { part, entry };
    }
    const tail = entry.acks[entry.acks.length - 1];
    if (tail !== undefined && tail.type === type && tail.lastOffset + 1n === firstOffset) tail.lastOffset = lastOffset;
    else entry.acks.push({ topic: part.topic, partition: part.partition, firstOffset, lastOffset, type });
  }

  /** Every pending acknowledgement, removed (a new session cannot carry them: the caller reports them lost). */
  takePending(): PendingAck[] {
    const out = [...this.#pending.values()].flatMap((p) => p.acks);
    this.#pending.clear();
    this.#last = null;
    return out;
  }

  /**
   * The next ShareFetch's partitions for `wanted` (the partitions this broker should serve now):
   * a new session lists them all; a continued one lists the added and acknowledged ones and
   * forgets the dropped ones. Pending acknowledgements go along unless the session is new.
   */
  fetchRequest(wanted: readonly SessionPartition[], partitionMaxBytes: number): SessionRequest {
    const wantedKeys = new Map(wanted.map((p) => [keyOf(p.topicId, p.partition), p]));
    const listed = new Map<string, SessionPartition>();
    const forgotten: SessionPartition[] = [];
    const isNew = this.isNew;
    if (isNew) {
      this.#inSession.clear();
      for (const [k, p] of wantedKeys) { this.#inSession.set(k, p); listed.set(k, p); }
    } else {
      for (const [k, p] of this.#inSession) if (!wantedKeys.has(k)) { forgotten.push(p); this.#inSession.delete(k); }
      for (const [k, p] of wantedKeys) if (!this.#inSession.has(k)) { this.#inSession.set(k, p); listed.set(k, p); }
    }
    const { acks, batches } = isNew ? { acks: [], batches: new Map<string, AckBatch[]>() } : this.#takeAcks(listed, true);
    return { epoch: this.#epoch, topics: byTopic(listed, batches, partitionMaxBytes), forgotten: forgottenByTopic(forgotten), acks };
  }

  /** A ShareAcknowledge's partitions: every pending acknowledgement (null when the session is new: it cannot carry them). */
  acknowledgeRequest(close = false): SessionRequest | null {
    if (this.isNew) return null;
    const listed = new Map<string, SessionPartition>();
    const { acks, batches } = this.#takeAcks(listed, false);
    return { epoch: close ? CLOSE_EPOCH : this.#epoch, topics: byTopic(listed, batches, undefined), forgotten: [], acks };
  }

  #takeAcks(listed: Map<string, SessionPartition>, onlyInSession: boolean): { acks: PendingAck[]; batches: Map<string, AckBatch[]> } {
    const batches = new Map<string, AckBatch[]>();
    const acks: PendingAck[] = [];
    this.#last = null;
    for (const [k, entry] of this.#pending) {
      // A partition gone from the session (reassigned) is acknowledged by ShareAcknowledge instead.
      if (onlyInSession && !this.#inSession.has(k)) continue;
      listed.set(k, entry.part);
      batches.set(k, ackBatches(entry.acks));
      acks.push(...entry.acks);
      this.#pending.delete(k);
    }
    return { acks, batches };
  }

  /** The broker answered without a top-level error: the session goes on at the next epoch. */
  succeeded(): void { this.#epoch = this.#epoch >= MAX_EPOCH ? 1 : this.#epoch + 1; }

  /** The session is gone or out of step (or the connection failed): the next request opens a new one. */
  reset(): void { this.#epoch = OPEN_EPOCH; this.#inSession.clear(); }

  /** The partitions the broker holds in the session. */
  get partitions(): SessionPartition[] { return [...this.#inSession.values()]; }
}

/** The request's topics; partitionMaxBytes only for a ShareFetch (ShareAcknowledge has no such field). */
function byTopic(listed: Map<string, SessionPartition>, acks: Map<string, AckBatch[]>, partitionMaxBytes: number | undefined): SessionRequest['topics'] {
  const topics = new Map<string, SessionRequest['topics'][number]>();
  for (const [k, p] of listed) {
    const t = topics.get(p.topicId) ?? topics.set(p.topicId, { topicId: p.topicId, partitions: [] }).get(p.topicId)!;
    const acknowledgementBatches = acks.get(k) ?? [];
    t.partitions.push(partitionMaxBytes === undefined ? { partitionIndex: p.partition, acknowledgementBatches } : { partitionIndex: p.partition, partitionMaxBytes, acknowledgementBatches });
  }
  return [...topics.values()];
}

function forgottenByTopic(list: readonly SessionPartition[]): SessionRequest['forgotten'] {
  const topics = new Map<string, number[]>();
  for (const p of list) (topics.get(p.topicId) ?? topics.set(p.topicId, []).get(p.topicId)!).push(p.partition);
  return [...topics].map(([topicId, partitions]) => ({ topicId, partitions }));
}
