// The Java client's default partitioner, so records keyed alike land where Kafka's clients put them.

/**
 * Kafka's Java client's default partitioner hash (murmur2, seed 0x9747b28c), as a signed int32,
 * of data[start, end) (default: all of it; a range needs no view made).
 */
export function murmur2(data: Uint8Array, start = 0, end = data.length): number {
  const m = 0x5bd1e995;
  const length = end - start;
  let h = (0x9747b28c ^ length) | 0;
  const whole = start + (length & ~3);
  for (let i = start; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  switch (length & 3) {
    case 3: h ^= data[whole + 2]! << 16; // falls through
    case 2: h ^= data[whole + 1]! << 8; // falls through
    case 1: h ^= data[whole]!; h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** The Java client's partition for a keyed record: toPositive(murmur2(key)) % partitions (key: key[start, end)). */
export function partitionForKey(key: Uint8Array, partitions: number, start = 0, end = key.length): number {
  return (murmur2(key, start, end) & 0x7fffffff) % partitions;
}
