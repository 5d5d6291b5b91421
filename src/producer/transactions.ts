// Transactions: the coordinator of our transactional id (FindCoordinator), partitions added to the
// running transaction before their first batch is sent (AddPartitionsToTxn), a consumer group's
// offsets committed with it (AddOffsetsToTxn, then TxnOffsetCommit to the group's coordinator),
// and EndTxn to commit or abort. Uses the protocol where the client adds partitions itself
// (AddPartitionsToTxn v3 and earlier, Produce up to v11), which every Kafka since 0.11 serves.
import { connect, type Connection } from '../wire/connection.js';
import type { KafkaClient } from '../wire/client.js';
import { ApiKey } from '../generated/types.js';
import { ErrorCode, ProducerError, errorName, isRetriable } from './errors.js';
import type { ProducerIdAndEpoch } from './idempotence.js';
import type { PartitionState } from './accumulator.js';

/** Highest versions used with transactions: the ones without implicit partition adds (KIP-890 part 2). */
export const TRANSACTIONAL_MAX_PRODUCE_VERSION = 11;
const MAX_ADD_PARTITIONS_VERSION = 3;
const MAX_END_TXN_VERSION = 4;

export type TransactionState = 'ready' | 'in-transaction' | 'committing' | 'aborting' | 'abortable' | 'fenced';

/** A consumer group's position to commit with the transaction (consume-transform-produce). */
export interface GroupMetadata { groupId: string; generationId?: number; memberId?: string; groupInstanceId?: string | null }
export interface OffsetToCommit { topic: string; partition: number; offset: bigint; leaderEpoch?: number; metadata?: string | null }

const FENCING = new Set<number>([ErrorCode.INVALID_PRODUCER_EPOCH, ErrorCode.PRODUCER_FENCED, 52 /* TRANSACTIONAL_ID_AUTHORIZATION_FAILED is fatal too */]);
const COORDINATOR_MOVED = new Set<number>([ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE]);

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Finds the coordinator for a transactional id (keyType 1) or group (0) and connects to it. */
export async function coordinatorConnection(client: KafkaClient, keyType: 0 | 1, key: string): Promise<Connection> {
  for (let attempt = 0; ; attempt++) {
    const c = await client.findCoordinator(keyType, key, (message) => new ProducerError('BROKER', message));
    if (c.errorCode === ErrorCode.NONE) return connect({ ...client.options, host: c.host, port: c.port });
    const code = c.errorCode;
    if (attempt < 20 && isRetriable(code)) { await sleep(Math.min(50 * 2 ** attempt, 1000)); continue; }
    throw new ProducerError('BROKER', `FindCoordinator for ${keyType === 1 ? 'transactional id' : 'group'} ${key}: ${errorName(code)}`, { errorCode: code });
  }
}

export interface TransactionHooks {
  identity(): ProducerIdAndEpoch;
  /** Something was added: the sender may send those partitions now. */
  added(): void;
}

export class Transactions {
  readonly transactionalId: string;
  readonly #client: KafkaClient;
  readonly #hooks: TransactionHooks;
  #coordinator: Promise<Connection> | null = null;
  state: TransactionState = 'ready';
  /** Why the transaction can only be aborted (or the producer is fenced). */
  error: ProducerError | null = null;
  readonly #added = new Set<PartitionState>();
  readonly #toAdd = new Set<PartitionState>();
  #adding: Promise<void> | null = null;

  constructor(client: KafkaClient, transactionalId: string, hooks: TransactionHooks) {
    this.#client = client;
    this.transactionalId = transactionalId;
    this.#hooks = hooks;
  }

  coordinator(): Promise<Connection> {
    const existing = this.#coordinator;
    if (existing !== null) {
      return existing.then((c) => c.closed ? this.#reconnect() : c, () => this.#reconnect());
    }
    return this.#reconnect();
  }

  #reconnect(): Promise<Connection> {
    this.#coordinator = coordinatorConnection(this.#client, 1, this.transactionalId);
    return this.#coordinator;
  }

  begin(): void {
    this.#check('begin a transaction', ['ready']);
    this.state = 'in-transaction';
  }

  /** Whether the partition was added to the running transaction (and so may be sent). */
  canSend(state: PartitionState): boolean {
    if (this.#added.has(state)) return true;
    if (this.state === 'in-transaction' || this.state === 'committing') this.#add(state);
    return false;
  }

  /** Throws unless a record may be appended now. */
  checkAppend(): void {
    this.#check('send', ['in-transaction']);
  }

  /** The transaction failed: only abort is possible now (fatal errors make the producer unusable). */
  fail(error: ProducerError): void {
    if (this.state === 'fenced') return;
    this.error = error;
    this.state = error.code === 'FENCED' ? 'fenced' : 'abortable';
  }

  #check(what: string, allowed: TransactionState[]): void {
    if (allowed.includes(this.state)) return;
    if (this.state === 'fenced') throw this.error!;
    if (this.state === 'abortable') {
      throw new ProducerError('TRANSACTION_ABORTABLE', `cannot ${what}: the transaction failed (${this.error?.message}); abort it`, { cause: this.error });
    }
    throw new ProducerError('TRANSACTION_STATE', `cannot ${what} while the transaction is ${this.state}`);
  }

  #add(state: PartitionState): void {
    if (this.#toAdd.has(state)) return;
    this.#toAdd.add(state);
    this.#adding ??= (async () => {
      await Promise.resolve(); // gather the partitions of this tick
      while (this.#toAdd.size > 0) {
        const batch = [...this.#toAdd];
        try {
          await this.#addPartitions(batch);
          for (const s of batch) { this.#toAdd.delete(s); this.#added.add(s); }
          this.#hooks.added();
        } catch (error) {
          for (const s of batch) this.#toAdd.delete(s);
          this.fail(error instanceof ProducerError ? error : new ProducerError('TRANSACTION_ABORTABLE', `AddPartitionsToTxn: ${(error as Error).message}`, { cause: error }));
          this.#hooks.added();
        }
      }
    })().finally(() => { this.#adding = null; });
  }

  async #addPartitions(states: PartitionState[]): Promise<void> {
    const byTopic = new Map<string, number[]>();
    for (const s of states) {
      let list = byTopic.get(s.topic);
      if (list === undefined) byTopic.set(s.topic, list = []);
      list.push(s.partition);
    }
    for (let attempt = 0; ; attempt++) {
      const conn = await this.coordinator();
      const id = this.#hooks.identity();
      const version = Math.min(conn.versionFor(ApiKey.AddPartitionsToTxn) ?? 0, MAX_ADD_PARTITIONS_VERSION);
      const res = await conn.request(ApiKey.AddPartitionsToTxn, version, {
        v3AndBelowTransactionalId: this.transactionalId, v3AndBelowProducerId: id.producerId, v3AndBelowProducerEpoch: id.epoch,
        v3AndBelowTopics: [...byTopic].map(([name, partitions]) => ({ name, partitions })),
      });
      let worst = res.errorCode;
      for (const t of res.resultsByTopicV3AndBelow) {
        for (const p of t.resultsByPartition) {
          // OPERATION_NOT_ATTEMPTED (55) marks the partitions skipped because of another's error.
          if (p.partitionErrorCode !== 0 && p.partitionErrorCode !== 55 && worst === 0) worst = p.partitionErrorCode;
        }
      }
      if (worst === ErrorCode.NONE) return;
      await this.#handle('AddPartitionsToTxn', worst, attempt);
    }
  }

  /** Sleeps before a retry, finds the coordinator again, or throws for errors that end the transaction. */
  async #handle(what: string, code: number, attempt: number): Promise<void> {
    if (FENCING.has(code)) {
      const err = new ProducerError('FENCED', `${what}: ${errorName(code)}: another producer with transactional id ${this.transactionalId} took over`, { errorCode: code });
      this.fail(err);
      throw err;
    }
    if (COORDINATOR_MOVED.has(code)) this.#coordinator = null;
    if ((isRetriable(code) || COORDINATOR_MOVED.has(code)) && attempt < 50) {
      await sleep(code === ErrorCode.CONCURRENT_TRANSACTIONS ? 20 : Math.min(50 * 2 ** attempt, 500));
      return;
    }
    throw new ProducerError('TRANSACTION_ABORTABLE', `${what}: ${errorName(code)}`, { errorCode: code });
  }

  /** AddOffsetsToTxn then TxnOffsetCommit to the group's coordinator. */
  async sendOffsets(offsets: readonly OffsetToCommit[], group: GroupMetadata): Promise<void> {
    this.#check('send offsets', ['in-transaction']);
    for (let attempt = 0; ; attempt++) {
      const conn = await this.coordinator();
      const id = this.#hooks.identity();
      const res = await conn.request(ApiKey.AddOffsetsToTxn, undefined, {
        transactionalId: this.transactionalId, producerId: id.producerId, producerEpoch: id.epoch, groupId: group.groupId,
      });
      if (res.errorCode === ErrorCode.NONE) break;
      await this.#handle('AddOffsetsToTxn', res.errorCode, attempt);
    }
    const byTopic = new Map<string, OffsetToCommit[]>();
    for (const o of offsets) {
      let list = byTopic.get(o.topic);
      if (list === undefined) byTopic.set(o.topic, list = []);
      list.push(o);
    }
    let groupConn = await coordinatorConnection(this.#client, 0, group.groupId);
    try {
      for (let attempt = 0; ; attempt++) {
        const id = this.#hooks.identity();
        // v6 names topics by id only; names are what the caller gives, so stay at v5 and below.
        const version = Math.min(groupConn.versionFor(ApiKey.TxnOffsetCommit) ?? 5, 5);
        const res = await groupConn.request(ApiKey.TxnOffsetCommit, version, {
          transactionalId: this.transactionalId, groupId: group.groupId, producerId: id.producerId, producerEpoch: id.epoch,
          generationIdOrMemberEpoch: group.generationId ?? -1, memberId: group.memberId ?? '', groupInstanceId: group.groupInstanceId ?? null,
          topics: [...byTopic].map(([name, list]) => ({
            name, partitions: list.map((o) => ({ partitionIndex: o.partition, committedOffset: o.offset, committedLeaderEpoch: o.leaderEpoch ?? -1, committedMetadata: o.metadata ?? null })),
          })),
        });
        let worst = 0;
        for (const t of res.topics) for (const p of t.partitions) if (p.errorCode !== 0 && worst === 0) worst = p.errorCode;
        if (worst === 0) return;
        if (COORDINATOR_MOVED.has(worst)) {
          await groupConn.close();
          groupConn = await coordinatorConnection(this.#client, 0, group.groupId);
        }
        await this.#handle('TxnOffsetCommit', worst, attempt);
      }
    } finally {
      await groupConn.close();
    }
  }

  /** EndTxn; the caller has flushed (commit) or dropped (abort) the transaction's batches. */
  async end(commit: boolean): Promise<void> {
    if (commit) this.#check('commit', ['in-transaction']);
    else this.#check('abort', ['in-transaction', 'abortable']);
    this.state = commit ? 'committing' : 'aborting';
    const nothingSent = this.#added.size === 0 && !this.#sentOffsets;
    try {
      // A transaction that added nothing has nothing to end at the coordinator.
      if (!nothingSent) {
        for (let attempt = 0; ; attempt++) {
          const conn = await this.coordinator();
          const id = this.#hooks.identity();
          const version = Math.min(conn.versionFor(ApiKey.EndTxn) ?? 0, MAX_END_TXN_VERSION);
          const res = await conn.request(ApiKey.EndTxn, version, {
            transactionalId: this.transactionalId, producerId: id.producerId, producerEpoch: id.epoch, committed: commit,
          });
          if (res.errorCode === ErrorCode.NONE) break;
          await this.#handle('EndTxn', res.errorCode, attempt);
        }
      }
      this.state = 'ready';
      this.error = null;
    } catch (error) {
      if ((this.state as TransactionState) !== 'fenced') this.state = 'abortable';
      throw error;
    } finally {
      this.#added.clear();
      this.#toAdd.clear();
      this.#sentOffsets = false;
    }
  }

  #sentOffsets = false;
  /** Marks that offsets joined the transaction (so EndTxn is needed even without records). */
  offsetsSent(): void { this.#sentOffsets = true; }

  async close(): Promise<void> {
    const c = this.#coordinator;
    this.#coordinator = null;
    if (c !== null) await c.then((x) => x.close(), () => undefined);
  }
}
