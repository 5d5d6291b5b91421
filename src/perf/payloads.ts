// What `kafka-wire perf produce` sends: record values as slices of one pool, either random letters
// (--record-size, as Kafka's ProducerPerformance) or a file's records split at a delimiter
// (--payload-file). Slices, not copies: the producer copies each value into its batch anyway.

/** The values: pool[starts[i], ends[i]) for i in 0..starts.length; a file's are picked at random, like Kafka's tool. */
export interface Payloads { pool: Uint8Array; starts: Int32Array; ends: Int32Array; averageBytes: number; pickAtRandom: boolean }

/** Bytes of random letters that --record-size values are cut from. */
const PAYLOAD_POOL_BYTES = 1 << 20;
/** Distinct start offsets in the pool, so no two neighbouring records are the same bytes. */
const SLOTS = 1024;

/** Values of `size` bytes of random capital letters. */
export function randomPayloads(size: number): Payloads {
  const pool = new Uint8Array(Math.max(PAYLOAD_POOL_BYTES, size * 2));
  for (let i = 0; i < pool.length; i++) pool[i] = 65 + Math.floor(Math.random() * 26);
  const starts = new Int32Array(SLOTS);
  const ends = new Int32Array(SLOTS);
  for (let i = 0; i < SLOTS; i++) { starts[i] = Math.floor(Math.random() * (pool.length - size)); ends[i] = starts[i]! + size; }
  return { pool, starts, ends, averageBytes: size, pickAtRandom: false };
}

/** The non-empty records of `bytes` between `delimiter`s; null when there are none. */
export function filePayloads(bytes: Buffer, delimiter: Uint8Array): Payloads | null {
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  while (at <= bytes.length) {
    let end = bytes.indexOf(delimiter, at);
    if (end < 0) end = bytes.length;
    if (end > at) { starts.push(at); ends.push(end); }
    at = end + delimiter.length;
  }
  if (starts.length === 0) return null;
  const total = ends.reduce((s, e, i) => s + e - starts[i]!, 0);
  return { pool: bytes, starts: Int32Array.from(starts), ends: Int32Array.from(ends), averageBytes: total / starts.length, pickAtRandom: true };
}
