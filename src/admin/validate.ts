// Input the admin client refuses before sending anything, with the rule Kafka itself applies
// (a topic name is 1 to 249 of [a-zA-Z0-9._-], and not "." or ".."), so a typo costs no round trip.
import { invalid } from './errors.js';

const LEGAL_TOPIC = /^[a-zA-Z0-9._-]{1,249}$/;

export function checkTopicName(name: unknown): string {
  if (typeof name !== 'string') throw invalid(`a topic name must be a string, not ${typeof name}`);
  if (name === '.' || name === '..') throw invalid(`topic name ${JSON.stringify(name)} is not allowed`, `topic ${name}`);
  if (!LEGAL_TOPIC.test(name)) {
    throw invalid(`topic name ${JSON.stringify(name)} is not legal: Kafka takes 1 to 249 of a-z A-Z 0-9 . _ -`, `topic ${name}`);
  }
  return name;
}

/** A whole number from min up (int32), or the default when absent. */
export function checkCount(value: unknown, what: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 2 ** 31 - 1) {
    throw invalid(`${what} must be an integer of at least ${min}, not ${String(value)}`);
  }
  return value;
}

/** An int64 offset or time from min up. */
export function checkOffset(value: unknown, what: string, min = 0n): bigint {
  const v = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof v !== 'bigint' || v < min || v > 2n ** 63n - 1n) throw invalid(`${what} must be an integer of at least ${min}, not ${String(value)}`);
  return v;
}

export function checkPartition(value: unknown, what: string): number {
  return checkCount(value, what, 0, -1);
}

/** Broker ids for a replica assignment: non-empty, each a node id, none twice. */
export function checkReplicas(ids: unknown, what: string): number[] {
  if (!Array.isArray(ids) || ids.length === 0) throw invalid(`${what}: a replica list must name at least one broker`);
  const seen = new Set<number>();
  for (const id of ids) {
    checkCount(id, `${what}: a broker id`, 0, 0);
    if (seen.has(id)) throw invalid(`${what}: broker ${id} is listed twice`);
    seen.add(id);
  }
  return ids as number[];
}

export function nonEmpty<T>(items: readonly T[] | undefined, what: string): readonly T[] {
  if (!Array.isArray(items)) throw invalid(`${what} must be a list`);
  return items;
}
