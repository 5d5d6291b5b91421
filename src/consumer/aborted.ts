// read_committed: which fetched batches belong to aborted transactions. A Fetch at isolation
// level read_committed lists, per partition, the aborted transactions that overlap the answer
// (producer id, first offset); a producer's batches from that first offset up to its ABORT
// marker are dropped, and control batches (the markers) are never delivered.
// (A shared filter for the wire layer may replace this file; it keeps to one function.)

import { decodeControl, type RecordBatch } from '../records/index.js';

export interface AbortedTransaction { producerId: bigint; firstOffset: bigint }

/** The batches a read_committed reader delivers, in order (the others filtered out). */
export function committedBatches(batches: readonly RecordBatch[], aborted: readonly AbortedTransaction[] | null): RecordBatch[] {
  const pending = [...(aborted ?? [])].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  const abortedProducers = new Set<bigint>();
  const out: RecordBatch[] = [];
  let next = 0;
  for (const batch of batches) {
    const last = batch.baseOffset + BigInt(batch.lastOffsetDelta);
    // Transactions that began at or before this batch's last offset are now open for skipping.
    while (next < pending.length && pending[next]!.firstOffset <= last) abortedProducers.add(pending[next++]!.producerId);
    if (batch.isControl) {
      if (batch.recordCount > 0 && batch.isTransactional && abortedProducers.has(batch.producerId)) {
        if (decodeControl(batch.records[0]!).type === 'abort') abortedProducers.delete(batch.producerId);
      }
      continue;
    }
    if (batch.isTransactional && abortedProducers.has(batch.producerId)) continue;
    out.push(batch);
  }
  return out;
}
