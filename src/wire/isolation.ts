// read_committed: which fetched batches a consumer at isolation level READ_COMMITTED delivers.
// The broker already stops a read_committed Fetch at the last stable offset; what remains is to
// drop the batches of aborted transactions, which the Fetch response lists per partition
// (AbortedTransactions: producer id and first offset), and the control batches (the commit and
// abort markers). This is the Java consumer's rule (CompletedFetch), batch by batch in offset order:
//   - once a batch's last offset reaches an aborted transaction's first offset, that producer
//     id is "aborted";
//   - a transactional data batch of an aborted producer id is dropped;
//   - an ABORT marker of that producer id ends its aborted span (later batches are a new
//     transaction);
//   - control batches are never delivered.
// Stateless per Fetch partition: the broker lists every aborted transaction that overlaps the
// fetched range, including ones that began before it.

import { be16 } from '../bytes.js';

/** Fetch's and ListOffsets' IsolationLevel field. */
export const IsolationLevel = { READ_UNCOMMITTED: 0, READ_COMMITTED: 1 } as const;
export type IsolationName = 'read_uncommitted' | 'read_committed';
export const ISOLATION_NAMES: readonly IsolationName[] = ['read_uncommitted', 'read_committed'];

/** One entry of a Fetch response partition's AbortedTransactions. */
export interface AbortedTransaction { readonly producerId: bigint; readonly firstOffset: bigint }

/** What the rule reads of a batch (RecordBatch, lazy or not, has all of it). */
export interface IsolationBatch {
  readonly baseOffset: bigint;
  readonly lastOffsetDelta: number;
  readonly producerId: bigint;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly recordCount: number;
  keyAt(i: number): Uint8Array | null;
}

/** Control record type 0 is ABORT (1 is COMMIT): the int16 after the key's int16 version. */
const ABORT_MARKER = 0;

function isAbortMarker(batch: IsolationBatch): boolean {
  if (!batch.isControl || batch.recordCount === 0) return false;
  const key = batch.keyAt(0);
  return key !== null && key.length >= 4 && be16(key, 2) === ABORT_MARKER;
}

/**
 * The batches a read_committed consumer delivers, in order: `batches` (one Fetch partition's,
 * in offset order) without control batches and without the transactional batches of aborted
 * transactions. `abortedTransactions` is that partition's AbortedTransactions (null when the
 * broker sent none). Offsets still advance past the dropped batches: that is the caller's.
 */
export function readCommitted<B extends IsolationBatch>(batches: readonly B[], abortedTransactions: readonly AbortedTransaction[] | null | undefined): B[] {
  const pending = [...(abortedTransactions ?? [])].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  let next = 0;
  const aborted = new Set<bigint>();
  const out: B[] = [];
  for (const batch of batches) {
    if (batch.producerId >= 0n) {
      const lastOffset = batch.baseOffset + BigInt(batch.lastOffsetDelta);
      while (next < pending.length && pending[next]!.firstOffset <= lastOffset) aborted.add(pending[next++]!.producerId);
      if (isAbortMarker(batch)) aborted.delete(batch.producerId);
      else if (batch.isTransactional && aborted.has(batch.producerId)) continue;
    }
    if (!batch.isControl) out.push(batch);
  }
  return out;
}
