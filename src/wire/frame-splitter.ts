// Splits a chunked byte stream (a TCP socket, a capture, a file) into whole Kafka frames: the
// one splitter of the house (the wire's connections and server, the capture reader, the proxy).
//
// A Kafka frame is a big-endian int32 size followed by that many bytes. Every frame this module
// emits INCLUDES its 4-byte size prefix, so it can be handed unchanged to the codec's
// decodeRequest()/decodeResponse(), which take whole frames.
//
// Cost: every input byte is copied at most once. A frame that spans chunks is copied into a
// buffer of its size as its chunks arrive (allocated when its size prefix is complete; with
// `reuse`, a policy, or a frame over 80 MiB, its chunks are collected and joined once, when its
// last byte arrives); a frame lying wholly inside one chunk is returned as a subarray of that
// chunk with no copy. Consequently an emitted frame may share memory with the chunk it came from:
// do not reuse or mutate an input buffer after pushing it while its frames are still in use.
//
// A policy (`decide`) may look at each frame's first bytes before any more of it is held, and
// hold it whole, let it pass in pieces as they arrive (a proxy forwarding what it does not
// rewrite), or reject it (a capture reader that then resynchronises on the bytes given back).
//
// This module has no Node imports (it runs in browsers); the Node stream.Transform form is in
// frame-splitter-node.ts.
import { allocateBytes, be32, concatBytes, copyBytes } from '../bytes.js';
import { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';

export { DEFAULT_MAX_FRAME_SIZE } from '../limits.js';

/**
 * Frames up to this size are received into a buffer allocated when their size prefix arrives;
 * larger ones (which a peer may claim without sending) are collected piece by piece as they come.
 */
const FILL_LIMIT = 80 << 20;

export type FrameErrorCode =
  /** The size field is larger than maxFrameSize. */
  | 'FRAME_TOO_LARGE'
  /** The size field is negative. */
  | 'NEGATIVE_SIZE'
  /** The stream ended inside a frame (in its size prefix or its payload). */
  | 'TRUNCATED'
  /** push() was called after end(). */
  | 'ENDED';

export class FrameError extends Error {
  override readonly name = 'FrameError';
  readonly code: FrameErrorCode;
  /** Byte offset in the stream (from the first byte ever pushed) where the offending frame starts. */
  readonly offset: number;
  /** The frame's size field when it had been read (payload bytes, prefix excluded), else -1. */
  readonly size: number;
  /** Bytes of the offending frame received, prefix included (TRUNCATED), else -1. */
  readonly received: number;
  /**
   * Whole frames completed by the same push() before the error was detected, in order. They
   * are valid and should be processed before the error is handled. Empty when an onFrame
   * callback is in use (those frames were already delivered to it).
   */
  frames: Uint8Array[] = [];

  constructor(code: FrameErrorCode, message: string, offset: number, size = -1, received = -1) {
    super(message);
    this.code = code;
    this.offset = offset;
    this.size = size;
    this.received = received;
  }
}

/** What a policy makes of a frame it has seen the start of. */
export type FrameDecision =
  /** Collect it whole: onFrame or push()'s result gets it. */
  | 'hold'
  /** Hand its bytes to onPass as they arrive, views of the chunks, never held or joined. */
  | 'pass'
  /** Stop at its first byte: `rejected` is set, and release() gives back the bytes from there. */
  | 'reject';

export interface FrameSplitterOptions {
  /**
   * The largest size field accepted: payload bytes, NOT counting the 4-byte prefix (the same
   * meaning as Kafka's socket.request.max.bytes). A larger size raises FrameError
   * 'FRAME_TOO_LARGE' as soon as the prefix is read, before any payload is buffered.
   * Default DEFAULT_MAX_FRAME_SIZE (100 MiB).
   */
  maxFrameSize?: number;
  /**
   * When given, each frame (prefix included) is passed here as soon as it is complete, and
   * push() returns an empty array.
   */
  onFrame?: (frame: Uint8Array) => void;
  /**
   * Assemble frames that span chunks in one buffer the splitter keeps and reuses, instead of a
   * new allocation per frame. Such a frame is then valid only until the next push(): decode it,
   * forward it or copy it before pushing again (decoded bytes and records fields are views into
   * it). Saves an allocation per large frame and the page faults of fresh memory (1.3-2x
   * faster on the benchmark's 64 MiB stream); memory stays at the largest frame seen.
   * Default false: every frame stays valid for as long as it is referenced.
   */
  reuse?: boolean;
  /**
   * The caller reads each chunk into memory it uses again once push() returns (a socket reading
   * into one buffer, src/wire/sockets/node.ts): every frame is then received into memory of its
   * own, a frame lying inside one chunk copied too, and nothing of a chunk is kept. Saves a
   * fresh buffer per read, whose external memory drives V8's full collections. Not with `reuse`
   * or a policy (those keep views of the chunks).
   */
  chunksReused?: boolean;
  /** Where a frame received into a buffer of its own gets it (a FramePool's take); default a new one. */
  allocate?: (size: number) => Uint8Array;
  /**
   * Each frame's policy, from its size field and its first `peek` bytes (all of it when the frame
   * is shorter; just the prefix when its size is negative). With a policy, sizes are the
   * policy's to judge: no FrameError is raised for them, and a passed frame with a negative size
   * is its 4-byte prefix alone. Without one, every frame is held and sizes are checked.
   */
  decide?: (head: Uint8Array, size: number) => FrameDecision;
  /** Bytes of each frame `decide` sees (at least 4). Default 4. */
  peek?: number;
  /** Receives passed frames' bytes, in order. */
  onPass?: (piece: Uint8Array) => void;
}

/**
 * The plain push API.
 *
 * ```ts
 * const splitter = new FrameSplitter({ maxFrameSize: 1 << 20 });
 * socket.on('data', (chunk) => {
 *   for (const frame of splitter.push(chunk)) handle(decodeResponse(frame, apiKey, version));
 * });
 * socket.on('end', () => splitter.end()); // throws FrameError 'TRUNCATED' if mid-frame
 * ```
 *
 * Errors are sticky: once push() has thrown, every later push() and end() throws the same
 * FrameError, since the framing of the rest of the stream is lost.
 */
export class FrameSplitter {
  readonly maxFrameSize: number;
  readonly #onFrame: ((frame: Uint8Array) => void) | undefined;
  /** Collected pieces of the incomplete frame at the head of the stream. */
  #pieces: Uint8Array[] = [];
  #buffered = 0;
  /** The current frame's size field, or -1 while fewer than 4 bytes of it have arrived. */
  #size = -1;
  /** Stream offset of the first byte of the current (incomplete) frame. */
  #offset = 0;
  #error: FrameError | null = null;
  #ended = false;
  /**
   * The last frame joined from several chunks, kept until the next join. With glibc's malloc,
   * freeing a large block at the top of the heap shrinks the heap, and the next large frame then
   * page-faults on every page it fills (measured: ~4,500 faults and 3x the time per 64 MiB of
   * mixed frames). Holding one block keeps the heap top in use. Costs at most one frame of memory.
   */
  #lastJoined: Uint8Array | null = null;
  readonly #reuse: boolean;
  readonly #chunksReused: boolean;
  readonly #allocate: (size: number) => Uint8Array;
  /** With `reuse`, where frames spanning chunks are assembled. */
  #assembly = new Uint8Array(0);
  /**
   * Without `reuse` or a policy: the frame being received, allocated once its size is known and
   * filled as each chunk arrives (`#buffered` bytes so far), so no chunk is kept: a socket's
   * chunks die young (scavenged, not left to full GCs) and each is copied while it is in cache.
   */
  #frame: Uint8Array | null = null;
  readonly #decide: ((head: Uint8Array, size: number) => FrameDecision) | undefined;
  readonly #peek: number;
  readonly #onPass: (piece: Uint8Array) => void;
  /** The current frame is held (decided, or no policy); else its head is still being collected. */
  #holding = false;
  /** Bytes of a passed frame still to come. */
  #passing = 0;
  #rejected = false;

  constructor(options: FrameSplitterOptions = {}) {
    const max = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    if (!Number.isInteger(max) || max < 0 || max > 0x7fffffff) {
      throw new RangeError(`maxFrameSize must be an integer in [0, 2^31-1], got ${max}`);
    }
    this.maxFrameSize = max;
    this.#onFrame = options.onFrame;
    this.#reuse = options.reuse === true;
    this.#decide = options.decide;
    this.#chunksReused = options.chunksReused === true;
    this.#allocate = options.allocate ?? allocateBytes;
    if (this.#chunksReused && (this.#reuse || this.#decide !== undefined)) {
      throw new RangeError('chunksReused cannot go with reuse or decide (they keep views of the chunks)');
    }
    this.#peek = Math.max(4, options.peek ?? 4);
    this.#onPass = options.onPass ?? (() => {});
  }

  /** A policy rejected the frame at `offset`: push() takes nothing more until release(). */
  get rejected(): boolean {
    return this.#rejected;
  }

  /**
   * Gives back the bytes not yet emitted or passed, from the start of the frame being read (a
   * rejected one), and starts afresh there: `offset` moves past them.
   */
  release(): Uint8Array[] {
    const pieces = this.#pieces;
    this.#offset += this.#buffered;
    this.#pieces = [];
    this.#buffered = 0;
    this.#size = -1;
    this.#holding = false;
    this.#rejected = false;
    return pieces;
  }

  /**
   * Where the stream's next bytes belong when they can be read there directly: the rest of the
   * frame being received into a buffer of its own (undefined when none is). A chunk pushed that
   * is a view of that place is not copied (ByteSocket.readInto).
   */
  get receiving(): Uint8Array | undefined {
    const frame = this.#frame;
    return frame === null ? undefined : frame.subarray(this.#buffered);
  }

  /** Bytes received that do not yet form a whole frame. */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** The size field of the frame being collected, or -1 when its prefix is not complete yet. */
  get pendingFrameSize(): number {
    return this.#size;
  }

  /** Total bytes consumed into emitted (or passed, or released) frames so far. */
  get offset(): number {
    return this.#offset;
  }

  /**
   * Feeds one chunk; returns the frames it completed (each including its 4-byte size prefix),
   * or [] when an onFrame callback is set. Throws FrameError on a negative or too-large size.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.#error) throw this.#error;
    if (this.#ended) {
      throw new FrameError('ENDED', 'FrameSplitter: push() after end()', this.#offset + this.#buffered);
    }
    if (this.#rejected) throw new Error('FrameSplitter: push() after a rejected frame, before release()');
    const out: Uint8Array[] = [];
    const emit = this.#onFrame ?? ((frame: Uint8Array) => { out.push(frame); });
    try {
      this.#consume(chunk, emit);
    } catch (err) {
      if (err instanceof FrameError) {
        err.frames = out;
        this.#error = err;
      }
      throw err;
    }
    return out;
  }

  /** Declares the end of the stream. Throws FrameError 'TRUNCATED' if a frame is incomplete. */
  end(): void {
    if (this.#error) throw this.#error;
    this.#ended = true;
    this.#lastJoined = null;
    if (this.#buffered > 0) {
      const size = this.#size;
      const message = size < 0
        ? `stream ended inside a frame's size prefix (${this.#buffered} of 4 bytes) at offset ${this.#offset}`
        : `stream ended inside a frame at offset ${this.#offset}: ${this.#buffered} of ${size + 4} bytes received`;
      this.#error = new FrameError('TRUNCATED', message, this.#offset, size, this.#buffered);
      throw this.#error;
    }
  }

  #checkSize(size: number): void {
    if (size < 0) {
      throw new FrameError('NEGATIVE_SIZE', `negative frame size ${size} at offset ${this.#offset}`, this.#offset, size);
    }
    if (size > this.maxFrameSize) {
      throw new FrameError('FRAME_TOO_LARGE',
        `frame size ${size} at offset ${this.#offset} exceeds maxFrameSize ${this.maxFrameSize}`, this.#offset, size);
    }
  }

  /**
   * The decision on the frame starting at `head[0]` (its first `want` bytes are in `head`): size
   * checks without a policy, else the policy's word. How many head bytes a decision needs:
   * headWant().
   */
  #decideOn(head: Uint8Array, size: number): FrameDecision {
    if (this.#decide === undefined) {
      this.#checkSize(size);
      return 'hold';
    }
    return this.#decide(head, size);
  }

  /** Bytes of a frame of `size` a decision looks at. */
  #headWant(size: number): number {
    return this.#decide === undefined ? 4 : Math.min(this.#peek, Math.max(4, size + 4));
  }

  #consume(chunk: Uint8Array, emit: (frame: Uint8Array) => void): void {
    if (chunk.length === 0) return;
    if (this.#passing > 0) {
      const n = Math.min(this.#passing, chunk.length);
      this.#onPass(n === chunk.length ? chunk : chunk.subarray(0, n));
      this.#passing -= n;
      this.#offset += n;
      if (n === chunk.length) return;
      chunk = chunk.subarray(n);
    }
    if (this.#frame !== null) {
      const frame = this.#frame;
      const n = Math.min(frame.length - this.#buffered, chunk.length);
      // Read in place (receiving): nothing to copy.
      const inPlace = chunk.buffer === frame.buffer && chunk.byteOffset === frame.byteOffset + this.#buffered;
      if (!inPlace) frame.set(n === chunk.length ? chunk : chunk.subarray(0, n), this.#buffered);
      this.#buffered += n;
      if (this.#buffered < frame.length) return;
      this.#frame = null;
      this.#lastJoined = frame;
      this.#buffered = 0;
      this.#size = -1;
      this.#holding = false;
      this.#offset += frame.length;
      emit(frame);
      if (n === chunk.length) return;
      chunk = chunk.subarray(n);
    } else if (this.#buffered > 0) {
      // Finish the frame already started, collecting rather than concatenating.
      this.#pieces.push(this.#chunksReused ? copyBytes(chunk) : chunk);
      this.#buffered += chunk.length;
      if (this.#size < 0) {
        if (this.#buffered < 4) {
          // A size prefix still incomplete: its few bytes copied, unless chunks may be kept.
          if (this.#copies()) this.#pieces[this.#pieces.length - 1] = copyBytes(chunk);
          return;
        }
        this.#size = this.#readPrefixFromPieces();
      }
      if (!this.#holding) {
        const want = this.#headWant(this.#size);
        if (this.#buffered < want) return;
        const decision = this.#decideOn(this.#headFromPieces(want), this.#size);
        if (decision === 'reject') {
          this.#rejected = true;
          return;
        }
        if (decision === 'pass') {
          const rest = this.#passPieces(4 + Math.max(0, this.#size));
          if (rest === null) return;
          chunk = rest;
          return this.#consume(chunk, emit);
        }
        this.#holding = true;
      }
      const total = this.#size + 4;
      if (this.#buffered < total) {
        if (this.#fills()) this.#startFrame(concatBytes(this.#pieces, this.#buffered));
        return;
      }
      // Join once: exactly `total` bytes; whatever follows in the last piece starts the next frame.
      const pieces = this.#pieces;
      const excess = this.#buffered - total;
      let rest: Uint8Array | null = null;
      if (excess > 0) {
        const last = pieces[pieces.length - 1];
        pieces[pieces.length - 1] = last.subarray(0, last.length - excess);
        rest = last.subarray(last.length - excess);
      }
      const frame = this.#reuse ? this.#joinInPlace(pieces, total) : (this.#lastJoined = concatBytes(pieces, total));
      this.#pieces = [];
      this.#buffered = 0;
      this.#size = -1;
      this.#holding = false;
      this.#offset += total;
      emit(frame);
      if (rest === null) return;
      chunk = rest;
    }
    // Fast path: frames wholly inside this chunk are subarrays of it.
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const decide = this.#decide;
    let pos = 0;
    const len = chunk.length;
    while (len - pos >= 4) {
      const size = view.getInt32(pos, false);
      if (decide === undefined) {
        this.#checkSize(size);
      } else {
        const want = Math.min(this.#peek, Math.max(4, size + 4));
        if (len - pos < want) break;
        const decision = decide(chunk.subarray(pos, pos + want), size);
        if (decision === 'reject') {
          this.#pieces.push(chunk.subarray(pos));
          this.#buffered = len - pos;
          this.#size = size;
          this.#rejected = true;
          return;
        }
        if (decision === 'pass') {
          const total = 4 + Math.max(0, size);
          const n = Math.min(total, len - pos);
          this.#onPass(chunk.subarray(pos, pos + n));
          this.#offset += n;
          pos += n;
          this.#passing = total - n;
          continue;
        }
      }
      const end = pos + 4 + size;
      if (end > len) {
        this.#size = size;
        this.#holding = true;
        if (this.#fills()) { this.#startFrame(chunk.subarray(pos)); return; }
        break;
      }
      this.#offset += 4 + size;
      emit(this.#chunksReused ? copyBytes(chunk.subarray(pos, end)) : chunk.subarray(pos, end));
      pos = end;
    }
    if (pos < len) {
      // What is left here is less than a size prefix (a frame begun is received in #frame).
      this.#pieces.push(this.#copies() && (len - pos < 4 || this.#chunksReused) ? copyBytes(chunk.subarray(pos)) : pos === 0 ? chunk : chunk.subarray(pos));
      this.#buffered = len - pos;
    }
  }

  /** A frame's first `want` bytes, collected from the pieces (a copy of at most `peek` bytes). */
  #headFromPieces(want: number): Uint8Array {
    if (this.#pieces[0].length >= want) return this.#pieces[0].subarray(0, want);
    const head = new Uint8Array(want);
    let filled = 0;
    for (const piece of this.#pieces) {
      const n = Math.min(piece.length, want - filled);
      head.set(n === piece.length ? piece : piece.subarray(0, n), filled);
      filled += n;
      if (filled === want) break;
    }
    return head;
  }

  /**
   * Passes the first `total` bytes of the pieces (the frame decided on); returns what follows
   * them in the last piece, or null when the frame continues (`passing` then counts the rest).
   */
  #passPieces(total: number): Uint8Array | null {
    const pieces = this.#pieces;
    let left = total;
    let rest: Uint8Array | null = null;
    for (const piece of pieces) {
      if (left === 0) break;
      if (piece.length <= left) {
        this.#onPass(piece);
        left -= piece.length;
      } else {
        this.#onPass(piece.subarray(0, left));
        rest = piece.subarray(left);
        left = 0;
      }
    }
    const passed = total - left;
    this.#offset += passed;
    this.#pieces = [];
    this.#buffered = 0;
    this.#size = -1;
    this.#passing = left;
    return rest;
  }

  /** Whether this splitter copies what it holds rather than keep views of the chunks (no reuse, no policy). */
  #copies(): boolean {
    return !this.#reuse && this.#decide === undefined;
  }

  /** Whether the held frame (its size known) is received into a buffer of its own as it arrives. */
  #fills(): boolean {
    return this.#copies() && this.#size + 4 <= FILL_LIMIT;
  }

  /** Starts receiving the held frame into its own buffer with its first bytes, `head`. */
  #startFrame(head: Uint8Array): void {
    const frame = this.#allocate(this.#size + 4);
    frame.set(head, 0);
    this.#frame = frame;
    this.#pieces = [];
    this.#buffered = head.length;
  }

  #joinInPlace(pieces: readonly Uint8Array[], total: number): Uint8Array {
    if (this.#assembly.length < total) {
      // Grow geometrically (within the frame limit) so a stream of growing frames reallocates rarely.
      this.#assembly = new Uint8Array(Math.max(total, Math.min(this.#assembly.length * 2, this.maxFrameSize + 4)));
    }
    let filled = 0;
    for (const piece of pieces) {
      this.#assembly.set(piece, filled);
      filled += piece.length;
    }
    return this.#assembly.subarray(0, total);
  }

  /** Reads the int32 prefix when it may straddle pieces (only the first 4 bytes are looked at). */
  #readPrefixFromPieces(): number {
    const b = new Uint8Array(4);
    let n = 0;
    for (const piece of this.#pieces) {
      for (let i = 0; i < piece.length && n < 4; i++) b[n++] = piece[i]!;
      if (n === 4) break;
    }
    return be32(b, 0);
  }
}

/**
 * A WHATWG TransformStream: Uint8Array chunks in, whole frames out (each a Uint8Array including
 * its 4-byte size prefix). The stream errors with FrameError on a bad size, or with 'TRUNCATED'
 * when the writable side closes mid-frame; frames completed before the error are enqueued first.
 *
 * ```ts
 * for await (const frame of response.body!.pipeThrough(new FrameSplitterStream())) { ... }
 * ```
 */
export class FrameSplitterStream extends TransformStream<Uint8Array, Uint8Array> {
  constructor(options: Omit<FrameSplitterOptions, 'onFrame' | 'reuse'> = {}) {
    const splitter = new FrameSplitter({ maxFrameSize: options.maxFrameSize });
    super({
      transform(chunk, controller) {
        let frames: Uint8Array[];
        try {
          frames = splitter.push(chunk);
        } catch (err) {
          if (err instanceof FrameError) for (const frame of err.frames) controller.enqueue(frame);
          throw err;
        }
        for (const frame of frames) controller.enqueue(frame);
      },
      flush() {
        splitter.end();
      },
    });
  }
}
