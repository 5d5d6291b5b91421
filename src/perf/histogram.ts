// A high-dynamic-range latency histogram in fixed memory: values (non-negative, in any unit;
// perf records microseconds) fall in log-linear buckets, exact below 2^SUB_BITS and within
// 1/2^(SUB_BITS-1) (0.8%) above, up to 2^MAX_EXPONENT. 4,480 counters (35 KiB) whether it holds
// ten values or ten billion, so a run of 100,000,000 records costs no more than one of 100.

/** Bits of the sub-bucket index: 256 buckets per power of two below 2^8, 128 per power above. */
const SUB_BITS = 8;
const SUB_COUNT = 1 << SUB_BITS;
const HALF = SUB_COUNT >> 1;
/** The largest value kept exactly in range (larger ones are clamped to it): about 12.7 days in µs. */
const MAX_EXPONENT = 40;
const BUCKETS = SUB_COUNT + (MAX_EXPONENT - SUB_BITS + 1) * HALF;
export const HISTOGRAM_MAX_VALUE = 2 ** MAX_EXPONENT - 1;

/** The bucket of a non-negative integer value. */
function bucketOf(value: number): number {
  if (value < SUB_COUNT) return value;
  const msb = Math.floor(Math.log2(value));
  // log2 of values just under a power of two can round up: correct it.
  const exponent = 2 ** msb > value ? msb - 1 : msb;
  const shift = exponent - (SUB_BITS - 1);
  const top = Math.floor(value / 2 ** shift); // in [HALF, SUB_COUNT)
  return SUB_COUNT + (shift - 1) * HALF + (top - HALF);
}

/** The lowest value of a bucket and its width. */
function bucketRange(bucket: number): [low: number, width: number] {
  if (bucket < SUB_COUNT) return [bucket, 1];
  const shift = Math.floor((bucket - SUB_COUNT) / HALF) + 1;
  const top = (bucket - SUB_COUNT) % HALF + HALF;
  return [top * 2 ** shift, 2 ** shift];
}

export class Histogram {
  readonly #counts = new Float64Array(BUCKETS);
  #total = 0;
  #sum = 0;
  #min = Infinity;
  #max = 0;

  /** Records `value` (rounded to an integer, clamped to [0, HISTOGRAM_MAX_VALUE]) `count` times. */
  record(value: number, count = 1): void {
    if (!(count > 0)) return;
    const v = value > 0 ? Math.min(Math.round(value), HISTOGRAM_MAX_VALUE) : 0;
    this.#counts[bucketOf(v)]! += count;
    this.#total += count;
    this.#sum += v * count;
    if (v < this.#min) this.#min = v;
    if (v > this.#max) this.#max = v;
  }

  /** Adds another histogram's values (per-window histograms into the run's). */
  add(other: Histogram): void {
    for (let i = 0; i < BUCKETS; i++) this.#counts[i]! += other.#counts[i]!;
    this.#total += other.#total;
    this.#sum += other.#sum;
    if (other.#min < this.#min) this.#min = other.#min;
    if (other.#max > this.#max) this.#max = other.#max;
  }

  reset(): void {
    this.#counts.fill(0);
    this.#total = 0;
    this.#sum = 0;
    this.#min = Infinity;
    this.#max = 0;
  }

  get count(): number { return this.#total; }
  get min(): number { return this.#total === 0 ? 0 : this.#min; }
  get max(): number { return this.#max; }
  get mean(): number { return this.#total === 0 ? 0 : this.#sum / this.#total; }

  /**
   * The value at quantile q (0..1), as Kafka's perf tools take it from a sorted list: the value
   * at index floor(q * count). Exact below 256; above, the middle of its bucket, never outside
   * [min, max].
   */
  quantile(q: number): number {
    if (this.#total === 0) return 0;
    const rank = Math.min(this.#total, Math.floor(q * this.#total) + 1);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.#counts[i]!;
      if (seen >= rank) {
        const [low, width] = bucketRange(i);
        const middle = width === 1 ? low : low + (width - 1) / 2;
        return Math.min(this.#max, Math.max(this.#min, middle));
      }
    }
    return this.#max;
  }

  /** Non-empty buckets as [low, high, count] (the report's distribution plot). */
  buckets(): [low: number, high: number, count: number][] {
    const out: [number, number, number][] = [];
    for (let i = 0; i < BUCKETS; i++) {
      const c = this.#counts[i]!;
      if (c > 0) {
        const [low, width] = bucketRange(i);
        out.push([low, low + width - 1, c]);
      }
    }
    return out;
  }
}
