// Memory for large answer frames (and the row tables decoded from them) that their reader gives
// back once nothing of them is in use, so the next one is received into pages already touched
// rather than fresh ones: a fresh buffer page-faults on every page it fills, and external memory
// drives V8's full collections. A Fetch answer's memory comes back when every batch of it is
// released (PartitionBatch.release(): kafka-wire consume once its records are printed, the
// Consumer's caller when it says so); nothing is given back otherwise. Only buffers the pool
// handed out are taken back, so a view of anything else given back is ignored.
import { allocateBytes } from '../bytes.js';

export interface FramePoolOptions {
  /** Buffers given back and not yet taken again: at most this many (default 4), the rest left to the GC. */
  keep?: number;
  /**
   * Smaller sizes are allocated as usual (default 1 MiB: smaller frames are cheap, and many per
   * answer); pooled sizes are rounded up to a multiple of it, so sizes alike fit each other's buffers.
   */
  minBytes?: number;
}

export class FramePool {
  readonly #free: ArrayBuffer[] = [];
  readonly #mine = new WeakSet<ArrayBufferLike>();
  readonly keep: number;
  readonly minBytes: number;
  /** Frames received into a given-back buffer (for tests and stats). */
  reused = 0;

  constructor(options: FramePoolOptions = {}) {
    this.keep = options.keep ?? 4;
    this.minBytes = options.minBytes ?? 1 << 20;
  }

  /** `size` bytes for a frame: a given-back buffer when one is large enough, else a new one. */
  take(size: number): Uint8Array {
    const grain = this.minBytes;
    if (size < grain) return allocateBytes(size);
    const free = this.#free;
    for (let i = 0; i < free.length; i++) {
      if (free[i]!.byteLength >= size) {
        const [buffer] = free.splice(i, 1);
        this.reused++;
        return new Uint8Array(buffer!, 0, size);
      }
    }
    const bytes = allocateBytes(Math.ceil(size / grain) * grain);
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
