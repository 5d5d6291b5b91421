// A live progress bar on a terminal (stderr): records done of the goal, the rate and the time
// left, redrawn in place with a carriage return; nothing at all when stderr is not a terminal,
// so --progress never mixes control characters into a log or a pipe.

export interface BarStream { write(text: string): unknown; isTTY?: boolean; columns?: number }

const WIDTH = 30;

export class ProgressBar {
  readonly #stream: BarStream;
  readonly #goal: number;
  readonly #enabled: boolean;
  #drawn = false;

  constructor(stream: BarStream, goal: number) {
    this.#stream = stream;
    this.#goal = goal;
    this.#enabled = stream.isTTY === true;
  }

  /** The bar's text for `done` records at `rate` records/s (exported for tests through draw's output). */
  static text(done: number, goal: number, rate: number): string {
    const fraction = goal > 0 ? Math.min(1, done / goal) : 1;
    const filled = Math.round(fraction * WIDTH);
    const eta = rate > 0 && done < goal ? `${Math.ceil((goal - done) / rate)} s left` : '';
    return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(fraction * 100).toFixed(1).padStart(5)}% ` +
      `${done.toLocaleString('en-US')}/${goal.toLocaleString('en-US')} records, ${Math.round(rate).toLocaleString('en-US')} records/s ${eta}`;
  }

  draw(done: number, rate: number): void {
    if (!this.#enabled) return;
    this.#stream.write(`\r\x1b[2K${ProgressBar.text(done, this.#goal, rate)}`);
    this.#drawn = true;
  }

  /** Removes the bar (before a line is printed, and at the end). */
  clear(): void {
    if (!this.#drawn) return;
    this.#stream.write('\r\x1b[2K');
    this.#drawn = false;
  }
}
