// Memory for large answer frames that their reader gives back once nothing of them is in use, so
// the next large frame is received into pages already touched rather than fresh ones: a fresh
// buffer page-faults on every page it fills, and external memory drives V8's full collections.
// kafka-wire consume gives back each Fetch answer's frame once its records are printed
// (readAssigned's handedOn); a reader that keeps batches must not use a pool. Only buffers the
// pool handed out are taken back, so a view of anything else given back is ignored.
import { allocateBytes } from '../bytes.js';

/** Frames smaller than this are allocated as usual (they are cheap, and many per answer). */
const MIN_POOLED_BYTES = 1 << 20;
/** Pooled sizes are rounded up to this, so frames of a similar size fit each other's buffers. */
const POOL_GRAIN = 1 << 20;

export class FramePool {
  readonly #free: ArrayBuffer[] = [];
  readonly #mine = new WeakSet<ArrayBufferLike>();
  /** Buffers given back and not yet taken again: at most `keep`, the rest left to the GC. */
  readonly keep: number;
  /** Frames received into a given-back buffer (for tests and stats). */
  reused = 0;

  constructor(keep = 4) {
    this.keep = keep;
  }

  /** `size` bytes for a frame: a given-back buffer when one is large enough, else a new one. */
  take(size: number): Uint8Array {
    if (size < MIN_POOLED_BYTES) return allocateBytes(size);
    const free = this.#free;
    for (let i = 0; i < free.length; i++) {
      if (free[i]!.byteLength >= size) {
        const [buffer] = free.splice(i, 1);
        this.reused++;
        return new Uint8Array(buffer!, 0, size);
      }
    }
    const bytes = allocateBytes(Math.ceil(size / POOL_GRAIN) * POOL_GRAIN);
    this.#mine.add(bytes.buffer);
    return bytes.subarray(0, size);
  }

  /**
   * Gives back the buffer a frame of take() lies in: the caller vouches that nothing of it is read
   * or kept any more. Anything else (a buffer the pool did not hand out, one already given back)
   * is ignored.
   */
  giveBack(buffer: ArrayBufferLike): void {
    if (!this.#mine.has(buffer) || this.#free.includes(buffer as ArrayBuffer) || this.#free.length >= this.keep) return;
    this.#free.push(buffer as ArrayBuffer);
  }
}
