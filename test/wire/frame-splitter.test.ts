import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { FrameSplitter, FrameError, FrameSplitterStream, DEFAULT_MAX_FRAME_SIZE } from '../../src/wire/frame-splitter.js';
import { createFrameSplitterTransform } from '../../src/wire/frame-splitter-node.js';
import { createServer, type AddressInfo } from 'node:net';
import { nodeConnector } from '../../src/wire/sockets/node.js';

function frameOf(payload: Uint8Array): Uint8Array {
  const f = new Uint8Array(4 + payload.length);
  new DataView(f.buffer).setInt32(0, payload.length, false);
  f.set(payload, 4);
  return f;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/** Cuts `bytes` at the given (sorted, deduplicated) positions. */
function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) { out.push(bytes.slice(prev, p)); prev = p; }
  out.push(bytes.slice(prev));
  return out;
}

const payloads = fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 });

describe('FrameSplitter (push API)', () => {
  it('reassembles frames exactly under any chunking (fast-check)', () => {
    fc.assert(fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), (ps, cuts) => {
      const frames = ps.map(frameOf);
      const stream = concat(frames);
      const s = new FrameSplitter();
      const got: Uint8Array[] = [];
      for (const chunk of cut(stream, cuts)) got.push(...s.push(chunk));
      s.end();
      expect(got.length).toBe(frames.length);
      for (let i = 0; i < frames.length; i++) expect(Array.from(got[i]!)).toEqual(Array.from(frames[i]!));
      expect(s.bufferedBytes).toBe(0);
      expect(s.offset).toBe(stream.length);
    }), { numRuns: 300 });
  });

  it('with reuse, gives the same frames under any chunking when each is read before the next push (fast-check)', () => {
    fc.assert(fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), (ps, cuts) => {
      const frames = ps.map(frameOf);
      const s = new FrameSplitter({ reuse: true });
      const got: number[][] = [];
      for (const chunk of cut(concat(frames), cuts)) for (const f of s.push(chunk)) got.push(Array.from(f));
      s.end();
      expect(got).toEqual(frames.map((f) => Array.from(f)));
    }), { numRuns: 300 });
  });

  it('with reuse, assembles spanning frames in one buffer that grows to the largest frame', () => {
    const s = new FrameSplitter({ reuse: true });
    const spanning = (n: number, fill: number) => {
      const f = frameOf(new Uint8Array(n).fill(fill));
      expect(s.push(f.subarray(0, 3))).toEqual([]);
      const [frame] = s.push(f.subarray(3));
      expect(Array.from(frame!)).toEqual(Array.from(f));
      return frame!;
    };
    const a = spanning(100, 1);
    const b = spanning(50, 2);
    expect(b.buffer).toBe(a.buffer); // the second frame overwrote the first: valid until the next push only
    expect(a[4]).toBe(2);
    const c = spanning(1000, 3);
    expect(c.buffer).not.toBe(a.buffer);
    expect(spanning(999, 4).buffer).toBe(c.buffer);
    // Frames wholly inside one chunk are still views of that chunk, never of the shared buffer.
    const whole = frameOf(new Uint8Array([9, 9]));
    expect(s.push(whole)[0]!.buffer).toBe(whole.buffer);
  });

  it('reassembles with 1-byte chunks', () => {
    const frames = [frameOf(new Uint8Array([1, 2, 3])), frameOf(new Uint8Array(0)), frameOf(new Uint8Array(1000).fill(7))];
    const stream = concat(frames);
    const s = new FrameSplitter();
    const got: Uint8Array[] = [];
    for (let i = 0; i < stream.length; i++) {
      const out = s.push(stream.subarray(i, i + 1));
      got.push(...out);
    }
    s.end();
    expect(got.map((f) => Array.from(f))).toEqual(frames.map((f) => Array.from(f)));
  });

  it('emits frames including the 4-byte size prefix', () => {
    const s = new FrameSplitter();
    const [f] = s.push(frameOf(new Uint8Array([9, 8])));
    expect(Array.from(f!)).toEqual([0, 0, 0, 2, 9, 8]);
  });

  it('returns subarrays (no copy) for frames wholly inside one chunk', () => {
    const chunk = concat([frameOf(new Uint8Array([1])), frameOf(new Uint8Array([2, 2])), new Uint8Array([0, 0])]);
    const s = new FrameSplitter();
    const frames = s.push(chunk);
    expect(frames).toHaveLength(2);
    for (const f of frames) expect(f.buffer).toBe(chunk.buffer);
    expect(frames[1]!.byteOffset).toBe(5);
    expect(s.bufferedBytes).toBe(2);
  });

  it('after a spanning frame, frames later in the same chunk are still subarrays', () => {
    const a = frameOf(new Uint8Array(10).fill(1));
    const b = frameOf(new Uint8Array(3).fill(2));
    const s = new FrameSplitter();
    expect(s.push(a.subarray(0, 6))).toEqual([]);
    const second = concat([a.subarray(6), b]);
    const frames = s.push(second);
    expect(frames).toHaveLength(2);
    expect(frames[0]!.buffer).not.toBe(second.buffer);
    expect(frames[1]!.buffer).toBe(second.buffer);
    expect(Array.from(frames[0]!)).toEqual(Array.from(a));
  });

  it('delivers to onFrame when given', () => {
    const seen: number[][] = [];
    const s = new FrameSplitter({ onFrame: (f) => seen.push(Array.from(f)) });
    expect(s.push(concat([frameOf(new Uint8Array([5])), frameOf(new Uint8Array([6]))]))).toEqual([]);
    expect(seen).toEqual([[0, 0, 0, 1, 5], [0, 0, 0, 1, 6]]);
  });

  it('accepts a frame of exactly maxFrameSize and rejects one byte more, before buffering the payload', () => {
    const s = new FrameSplitter({ maxFrameSize: 8 });
    expect(s.push(frameOf(new Uint8Array(8)))).toHaveLength(1);
    const head = new Uint8Array([0, 0, 0, 9]);
    let err: unknown;
    try { s.push(head); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FrameError);
    expect((err as FrameError).code).toBe('FRAME_TOO_LARGE');
    expect((err as FrameError).size).toBe(9);
    expect((err as FrameError).offset).toBe(12);
    // sticky
    expect(() => s.push(new Uint8Array(9))).toThrow(FrameError);
    expect(() => s.end()).toThrow(/exceeds maxFrameSize/);
  });

  it('detects a too-large size whose prefix straddles chunks', () => {
    const s = new FrameSplitter({ maxFrameSize: 1000 });
    s.push(new Uint8Array([0, 1]));
    expect(() => s.push(new Uint8Array([0, 0]))).toThrow(expect.objectContaining({ code: 'FRAME_TOO_LARGE', size: 65536 }));
  });

  it('uses 100 MiB as the default limit', () => {
    expect(new FrameSplitter().maxFrameSize).toBe(DEFAULT_MAX_FRAME_SIZE);
    expect(DEFAULT_MAX_FRAME_SIZE).toBe(104857600);
    expect(() => new FrameSplitter().push(new Uint8Array([0x7f, 0xff, 0xff, 0xff]))).toThrow(expect.objectContaining({ code: 'FRAME_TOO_LARGE' }));
  });

  it('rejects a negative size, keeping frames completed earlier in the same push', () => {
    const good = frameOf(new Uint8Array([1, 2]));
    const s = new FrameSplitter();
    let err: FrameError | undefined;
    try { s.push(concat([good, new Uint8Array([0xff, 0xff, 0xff, 0xfe])])); } catch (e) { err = e as FrameError; }
    expect(err).toBeInstanceOf(FrameError);
    expect(err!.code).toBe('NEGATIVE_SIZE');
    expect(err!.size).toBe(-2);
    expect(err!.offset).toBe(6);
    expect(err!.frames.map((f) => Array.from(f))).toEqual([Array.from(good)]);
  });

  it('reports a stream ending mid-payload as TRUNCATED', () => {
    const s = new FrameSplitter();
    s.push(frameOf(new Uint8Array(10)).subarray(0, 7));
    expect(() => s.end()).toThrow(expect.objectContaining({ code: 'TRUNCATED', size: 10, received: 7, offset: 0 }));
  });

  it('reports a stream ending inside the size prefix as TRUNCATED', () => {
    const s = new FrameSplitter();
    s.push(frameOf(new Uint8Array(1)));
    s.push(new Uint8Array([0, 0]));
    expect(() => s.end()).toThrow(expect.objectContaining({ code: 'TRUNCATED', size: -1, received: 2, offset: 5 }));
  });

  it('ends cleanly on a frame boundary, and refuses push after end', () => {
    const s = new FrameSplitter();
    s.push(frameOf(new Uint8Array(3)));
    expect(() => s.end()).not.toThrow();
    expect(() => s.push(new Uint8Array([1]))).toThrow(expect.objectContaining({ code: 'ENDED' }));
  });

  it('ignores empty chunks', () => {
    const s = new FrameSplitter();
    expect(s.push(new Uint8Array(0))).toEqual([]);
    s.push(new Uint8Array([0, 0]));
    expect(s.push(new Uint8Array(0))).toEqual([]);
    expect(s.push(new Uint8Array([0, 1, 42]))).toHaveLength(1);
  });

  it('keeps no chunk of a frame that spans chunks: they may be written over once pushed, Uint8Arrays and Buffers (fast-check)', () => {
    fc.assert(fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(), (ps, cuts, buffers) => {
      const stream = concat(ps.map(frameOf));
      const s = new FrameSplitter();
      const got: Uint8Array[] = [];
      // A Buffer's slice() is a view, not a copy: what the splitter keeps must be a real copy.
      for (const chunk of cut(stream, cuts).map((c) => (buffers ? Buffer.from(c) : c))) {
        // A frame wholly inside a chunk is a view of it: copied before the chunk is reused.
        for (const f of s.push(chunk)) got.push(new Uint8Array(f)); // a copy, whatever f is
        expect(s.bufferedBytes).toBeLessThanOrEqual(stream.length);
        chunk.fill(0xee); // as a socket's reused read buffer would be
      }
      s.end();
      expect(got.map((f) => Buffer.from(f).toString('hex'))).toEqual(ps.map((p) => Buffer.from(frameOf(p)).toString('hex')));
    }), { numRuns: 500 });
  });

  it('with chunksReused, keeps every frame intact though each chunk is read into the same memory again (fast-check)', () => {
    fc.assert(fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), (ps, cuts) => {
      const stream = concat(ps.map(frameOf));
      const s = new FrameSplitter({ chunksReused: true });
      const got: Uint8Array[] = [];
      // One read buffer, as a socket's onread: every chunk is a view of it, written over after the push.
      const memory = new Uint8Array(stream.length + 1);
      for (const piece of cut(stream, cuts)) {
        memory.set(piece);
        got.push(...s.push(memory.subarray(0, piece.length))); // kept as they are: no copy here
        memory.fill(0xee);
      }
      s.end();
      expect(got.map((f) => Buffer.from(f).toString('hex'))).toEqual(ps.map((p) => Buffer.from(frameOf(p)).toString('hex')));
    }), { numRuns: 500 });
    // A frame over the size received into a buffer of its own (80 MiB) is collected piece by piece: copies too.
    const size = (80 << 20) + 10;
    const s = new FrameSplitter({ chunksReused: true });
    const memory = new Uint8Array(4 << 20);
    let frames: Uint8Array[] = [];
    for (let sent = 0, k = 0; sent < size + 4; k++) {
      const n = Math.min(memory.length, size + 4 - sent);
      memory.fill(k & 0xff, 0, n);
      if (sent === 0) new DataView(memory.buffer).setInt32(0, size, false);
      frames = s.push(memory.subarray(0, n));
      memory.fill(0xee);
      sent += n;
    }
    expect(frames).toHaveLength(1);
    const f = frames[0]!;
    expect(f.length).toBe(size + 4);
    expect([f[4], f[(4 << 20) + 1], f[size + 3]]).toEqual([0, 1, 20]);
    expect(() => new FrameSplitter({ chunksReused: true, reuse: true })).toThrow(RangeError);
    expect(() => new FrameSplitter({ chunksReused: true, decide: () => 'hold' })).toThrow(RangeError);
  });

  it('receives a large frame\'s rest in place from a node:net socket (readInto), every frame intact', async () => {
    const big = new Uint8Array(3 << 20).map((_, i) => (i * 7) & 0xff);
    const small = [Uint8Array.of(1, 2, 3), new Uint8Array(100_000).fill(9)];
    const sent = [frameOf(big), ...small.map(frameOf), frameOf(big.subarray(1000))];
    const server = createServer((c) => c.end(concat(sent))).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const socket = await nodeConnector({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, timeoutMs: 5000 });
      const s = new FrameSplitter({ chunksReused: true });
      socket.readInto!(() => s.receiving);
      const frames: Uint8Array[] = [];
      let inPlace = 0;
      socket.on('data', (chunk) => {
        const into = s.receiving;
        if (into !== undefined && chunk.buffer === into.buffer && chunk.byteOffset === into.byteOffset) inPlace += chunk.length;
        frames.push(...s.push(chunk));
      });
      await new Promise((r) => socket.once('close', r));
      s.end();
      expect(frames.map((f) => Buffer.from(f).toString('hex'))).toEqual(sent.map((f) => Buffer.from(f).toString('hex')));
      // Most of each large frame came in where it belongs (the first read of each, with its head, did not).
      expect(inPlace).toBeGreaterThan(2 * big.length - 2 * (256 << 10) - 200_000);
    } finally {
      server.close();
    }
  });

  it('copies each byte at most once for a large frame arriving in many chunks', () => {
    // Indirect check: 64 MiB in 64 KiB chunks finishes quickly (a quadratic join would not).
    const size = 64 * 1024 * 1024;
    const chunkSize = 64 * 1024;
    const s = new FrameSplitter();
    const head = new Uint8Array(chunkSize);
    new DataView(head.buffer).setInt32(0, size, false);
    const body = new Uint8Array(chunkSize).fill(3);
    const t0 = performance.now();
    s.push(head);
    let frames: Uint8Array[] = [];
    let sent = chunkSize - 4;
    while (sent < size) {
      const n = Math.min(chunkSize, size - sent);
      frames = s.push(n === chunkSize ? body : body.subarray(0, n));
      sent += n;
    }
    expect(frames).toHaveLength(1);
    expect(frames[0]!.length).toBe(size + 4);
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});

describe('createFrameSplitterTransform (Node stream)', () => {
  it('emits whole frames in objectMode', async () => {
    const frames = [frameOf(new Uint8Array([1])), frameOf(new Uint8Array(500).fill(4)), frameOf(new Uint8Array(0))];
    const chunks = cut(concat(frames), [3, 9, 100, 200, 501]).map((c) => Buffer.from(c));
    const got: Uint8Array[] = [];
    for await (const f of Readable.from(chunks).pipe(createFrameSplitterTransform())) got.push(f as Uint8Array);
    expect(got.map((f) => Array.from(f))).toEqual(frames.map((f) => Array.from(f)));
  });

  it('errors with TRUNCATED when the input ends mid-frame, after emitting the complete frames', async () => {
    const chunks = [Buffer.from(frameOf(new Uint8Array([1]))), Buffer.from([0, 0, 0, 5, 1])];
    const got: Uint8Array[] = [];
    // Flowing mode: 'data' sees every pushed frame (an async iterator drops what is buffered at the error).
    const err = await new Promise<unknown>((resolve) => {
      const t = Readable.from(chunks).pipe(createFrameSplitterTransform());
      t.on('data', (f: Uint8Array) => got.push(f));
      t.on('error', resolve);
      t.on('end', () => resolve(null));
    });
    expect(err).toMatchObject({ name: 'FrameError', code: 'TRUNCATED', size: 5, received: 5 });
    expect(got).toHaveLength(1);
  });

  it('errors with FRAME_TOO_LARGE', async () => {
    const t = createFrameSplitterTransform({ maxFrameSize: 4 });
    const run = async () => { for await (const _ of Readable.from([Buffer.from([0, 0, 0, 5])]).pipe(t)) { /* none */ } };
    await expect(run()).rejects.toMatchObject({ code: 'FRAME_TOO_LARGE' });
  });
});

describe('FrameSplitterStream (WHATWG)', () => {
  function source(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
    return new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
  }

  it('emits whole frames under random chunkings (fast-check)', async () => {
    await fc.assert(fc.asyncProperty(payloads, fc.array(fc.nat(), { maxLength: 20 }), async (ps, cuts) => {
      const frames = ps.map(frameOf);
      const got: Uint8Array[] = [];
      const reader = source(cut(concat(frames), cuts)).pipeThrough(new FrameSplitterStream()).getReader();
      for (;;) { const r = await reader.read(); if (r.done) break; got.push(r.value); }
      expect(got.map((f) => Array.from(f))).toEqual(frames.map((f) => Array.from(f)));
    }), { numRuns: 100 });
  });

  it('errors with TRUNCATED when the input closes mid-frame', async () => {
    const reader = source([new Uint8Array([0, 0, 0, 3, 1])]).pipeThrough(new FrameSplitterStream()).getReader();
    await expect(reader.read()).rejects.toMatchObject({ code: 'TRUNCATED' });
  });

  it('errors with NEGATIVE_SIZE, enqueuing earlier frames first', async () => {
    const reader = source([concat([frameOf(new Uint8Array([7])), new Uint8Array([0x80, 0, 0, 0])])])
      .pipeThrough(new FrameSplitterStream()).getReader();
    const first = await reader.read();
    expect(Array.from(first.value!)).toEqual([0, 0, 0, 1, 7]);
    await expect(reader.read()).rejects.toMatchObject({ code: 'NEGATIVE_SIZE' });
  });
});

describe('frame type', () => {
  it('hands out plain Uint8Arrays, joined or not', async () => {
    const { FrameSplitter } = await import('../../src/wire/frame-splitter.js');
    const frame = Uint8Array.of(0, 0, 0, 2, 7, 8);
    const splitter = new FrameSplitter();
    const frames = [...splitter.push(frame.subarray(0, 3)), ...splitter.push(frame.subarray(3)), ...splitter.push(frame)];
    expect(frames.map((f) => f.constructor.name)).toEqual(['Uint8Array', 'Uint8Array']);
    expect(frames).toEqual([frame, frame]);
  });
});

describe('FrameSplitter with a policy (decide: hold, pass, reject)', () => {
  const PEEK = 8;
  /** Frames whose payload starts with an even byte are held, the others pass; the decision sees up to PEEK bytes. */
  const policy = (heads: number[][]) => (head: Uint8Array, size: number) => {
    heads.push(Array.from(head));
    expect(head.length).toBe(Math.min(PEEK, Math.max(4, size + 4)));
    return size > 0 && head[4]! % 2 === 0 ? 'hold' as const : 'pass' as const;
  };

  it('holds and passes frames exactly, in order, under any chunking; passed bytes are never joined (fast-check)', () => {
    fc.assert(fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), (ps, cuts) => {
      const frames = ps.map(frameOf);
      const stream = concat(frames);
      const chunks = cut(stream, cuts);
      const heads: number[][] = [];
      const events: Array<['frame' | 'pass', Uint8Array]> = [];
      const s = new FrameSplitter({ peek: PEEK, decide: policy(heads), onPass: (p) => events.push(['pass', p]), onFrame: (f) => events.push(['frame', f]) });
      for (const chunk of chunks) s.push(chunk);
      expect(heads).toEqual(frames.map((f) => Array.from(f.subarray(0, Math.min(PEEK, f.length)))));
      // The passed pieces put together, and the held frames, give the stream back.
      expect(Array.from(concat(events.map(([, b]) => b)))).toEqual(Array.from(stream));
      const held = frames.filter((f) => f.length > 4 && f[4]! % 2 === 0);
      expect(events.filter(([k]) => k === 'frame').map(([, f]) => Array.from(f))).toEqual(held.map((f) => Array.from(f)));
      // Every passed piece is a view of a pushed chunk, never a copy.
      for (const [k, b] of events) if (k === 'pass') expect(chunks.some((c) => c.buffer === b.buffer)).toBe(true);
      expect(s.offset).toBe(stream.length);
      expect(s.bufferedBytes).toBe(0);
    }), { numRuns: 300 });
  });

  it('passes a frame with a negative size as its 4-byte prefix alone, and a short frame whole', () => {
    const passed: number[][] = [];
    const s = new FrameSplitter({ peek: PEEK, decide: () => 'pass', onPass: (p) => passed.push(Array.from(p)) });
    s.push(Uint8Array.of(0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 1, 9, 0, 0, 0, 0));
    expect(concat(passed.map((p) => Uint8Array.from(p)))).toEqual(Uint8Array.of(0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 1, 9, 0, 0, 0, 0));
    expect(s.offset).toBe(13);
  });

  it('stops at a rejected frame and gives back the bytes from its first one, under any chunking (fast-check)', () => {
    fc.assert(fc.property(payloads, fc.nat(), fc.array(fc.nat(), { maxLength: 40 }), (ps, which, cuts) => {
      const frames = ps.map(frameOf);
      const stream = concat(frames);
      const bad = frames.length === 0 ? -1 : which % frames.length;
      let seen = 0;
      const got: Uint8Array[] = [];
      const s = new FrameSplitter({ decide: () => (seen++ === bad ? 'reject' : 'hold'), onFrame: (f) => got.push(f) });
      let released: Uint8Array[] | undefined;
      const chunks = cut(stream, cuts);
      let i = 0;
      for (; i < chunks.length && !s.rejected; i++) s.push(chunks[i]!);
      if (s.rejected) {
        const start = s.offset;
        released = [...s.release(), ...chunks.slice(i)];
        expect(s.offset).toBe(start + released.slice(0, released.length - (chunks.length - i)).reduce((n, p) => n + p.length, 0));
        expect(Array.from(concat(released))).toEqual(Array.from(stream.subarray(start)));
      }
      const before = bad < 0 ? frames : frames.slice(0, bad);
      expect(got.map((f) => Array.from(f))).toEqual(before.map((f) => Array.from(f)));
      expect(released !== undefined).toBe(bad >= 0);
    }), { numRuns: 300 });
  });
});
