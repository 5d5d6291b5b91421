// Holds a sender to a target rate: record i is due at start + i / rate, measured from one start
// (so errors do not add up over a long run), and the sender waits only when it is ahead of its
// schedule by more than a timer's granularity; an average over any second is within a record or
// two of the rate, however slow or bursty the calls in between.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How far ahead (ms) the sender may run before it sleeps: timers are no finer than this. */
const SLACK_MS = 2;

export class Throttle {
  readonly #perMs: number;
  readonly #start: number;
  readonly #now: () => number;

  /** `recordsPerSecond` <= 0 or not finite: no limit. */
  constructor(recordsPerSecond: number, now: () => number = () => performance.now()) {
    this.#perMs = recordsPerSecond > 0 && Number.isFinite(recordsPerSecond) ? recordsPerSecond / 1000 : 0;
    this.#now = now;
    this.#start = now();
  }

  get limited(): boolean { return this.#perMs > 0; }

  /** How long (ms) to wait before sending record number `sent` (0-based), 0 when it is due. */
  delayFor(sent: number): number {
    if (this.#perMs === 0) return 0;
    const ahead = sent / this.#perMs - (this.#now() - this.#start);
    return ahead > SLACK_MS ? ahead : 0;
  }

  /** Waits until record number `sent` is due (resolves at once when it is). */
  async wait(sent: number): Promise<void> {
    const ms = this.delayFor(sent);
    if (ms > 0) await sleep(ms);
  }
}
