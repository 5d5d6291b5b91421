// The idempotent producer's identity and what Kafka's producer-state errors mean for a batch:
// InitProducerId gives a producer id and epoch; every partition numbers its batches from 0
// (sequences wrap at 2^31); a batch keeps its id, epoch and sequence through retries, so a broker
// that already wrote it answers with the first write's offset instead of writing it twice.
import type { Connection } from '../wire/connection.js';
import { isTransient } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { crc32c } from '../records/index.js';
import { ATTRIBUTES_OFFSET, BASE_SEQUENCE_OFFSET, PRODUCER_EPOCH_OFFSET, PRODUCER_ID_OFFSET } from '../wasm/abi.js';
import { ErrorCode, ProducerError, errorName, isRetriable } from './errors.js';

/** The batch header's CRC-32C field (it covers attributes to the end). */
const CRC_OFFSET = 17;

export interface ProducerIdAndEpoch { producerId: bigint; epoch: number }

/**
 * InitProducerId. `current` (v3+) asks for the next epoch of the id we hold (KIP-360) rather than
 * a new id. Retries the coordinator's "not yet" answers; other errors throw ProducerError.
 */
export async function initProducerId(conn: () => Promise<Connection>, transactionalId: string | null, transactionTimeoutMs: number,
  current?: ProducerIdAndEpoch): Promise<ProducerIdAndEpoch> {
  for (let attempt = 0; ; attempt++) {
    const c = await conn();
    const version = c.versionFor(ApiKey.InitProducerId);
    if (version === undefined) throw new ProducerError('BROKER', `broker ${c.host}:${c.port} does not support InitProducerId (idempotence needs Kafka 0.11 or later; set idempotent: false)`);
    const bump = current !== undefined && version >= 3;
    let res;
    try {
      res = await c.request(ApiKey.InitProducerId, version, {
        transactionalId, transactionTimeoutMs,
        ...(bump ? { producerId: current.producerId, producerEpoch: current.epoch } : {}),
      });
    } catch (error) {
      // The answer was lost on the way (its connection is closed now): ask again on a fresh one.
      if (!isTransient(error) || attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1000)));
      continue;
    }
    if (res.errorCode === ErrorCode.NONE) return { producerId: res.producerId, epoch: res.producerEpoch };
    if (res.errorCode === ErrorCode.INVALID_PRODUCER_EPOCH || res.errorCode === ErrorCode.PRODUCER_FENCED) {
      throw new ProducerError('FENCED', `InitProducerId: ${errorName(res.errorCode)}: another producer with transactional id ${transactionalId} took over`, { errorCode: res.errorCode });
    }
    if (isRetriable(res.errorCode) && attempt < 20) {
      await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1000)));
      continue;
    }
    throw new ProducerError('BROKER', `InitProducerId: ${errorName(res.errorCode)}`, { errorCode: res.errorCode });
  }
}

/** Writes a new producer id, epoch and base sequence into an encoded batch and its CRC. */
export function restamp(batch: Uint8Array, id: ProducerIdAndEpoch, baseSequence: number): void {
  const v = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  v.setBigInt64(PRODUCER_ID_OFFSET, id.producerId);
  v.setInt16(PRODUCER_EPOCH_OFFSET, id.epoch);
  v.setInt32(BASE_SEQUENCE_OFFSET, baseSequence);
  v.setUint32(CRC_OFFSET, crc32c(batch.subarray(ATTRIBUTES_OFFSET)));
}

/** The sequence after a batch of `count` records starting at `sequence` (wrapping as Kafka does). */
export function nextSequence(sequence: number, count: number): number {
  return (sequence + count) % 0x80000000;
}

/**
 * What to do with a batch the broker answered `errorCode` for:
 * - 'done': written (NONE, or DUPLICATE_SEQUENCE_NUMBER: written before, offset unknown);
 * - 'retry': send it again, same id, epoch and sequence (after the partition's in-flight settle);
 * - 'reset': the broker lost our sequence for it: fail it, bump the epoch, number from 0 again
 *   (an idempotent producer without transactions, as the Java client);
 * - 'abortable': a transactional producer fails the batch and the transaction;
 * - 'fenced': a newer producer with our transactional id (or epoch) exists: fatal;
 * - 'fail': fail the batch with the broker's error.
 * `earlierFailed` says a batch before this one in the partition failed or is being retried, so an
 * out-of-order answer is only the consequence of that.
 */
export function classify(errorCode: number, idempotent: boolean, transactional: boolean, earlierFailed: boolean):
  'done' | 'retry' | 'reset' | 'abortable' | 'fenced' | 'fail' {
  switch (errorCode) {
    case ErrorCode.NONE: return 'done';
    case ErrorCode.DUPLICATE_SEQUENCE_NUMBER: return idempotent ? 'done' : 'fail';
    case ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER:
    case ErrorCode.UNKNOWN_PRODUCER_ID:
      if (earlierFailed) return 'retry';
      return transactional ? 'abortable' : 'reset';
    case ErrorCode.INVALID_PRODUCER_EPOCH:
    case ErrorCode.PRODUCER_FENCED:
      return transactional ? 'fenced' : errorCode === ErrorCode.INVALID_PRODUCER_EPOCH ? (earlierFailed ? 'retry' : 'reset') : 'fenced';
    case ErrorCode.TRANSACTION_ABORTABLE:
    case ErrorCode.INVALID_TXN_STATE:
      return transactional ? 'abortable' : 'fail';
  }
  return isRetriable(errorCode) ? 'retry' : 'fail';
}
