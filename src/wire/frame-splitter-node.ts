// The Node stream.Transform form of the frame splitter (see frame-splitter.ts; kept apart so
// that module stays free of Node imports).

import { Transform, type TransformCallback } from 'node:stream';
import { FrameSplitter, FrameError, type FrameSplitterOptions } from './frame-splitter.js';

/**
 * A Node stream.Transform: bytes (Buffer/Uint8Array) in, whole frames out (objectMode readable
 * side, each frame a Uint8Array including its 4-byte size prefix). Errors with FrameError on a
 * bad size, or with 'TRUNCATED' when the writable side ends mid-frame. Frames completed before
 * an error are pushed before the error is raised.
 */
export function createFrameSplitterTransform(options: Omit<FrameSplitterOptions, 'onFrame' | 'reuse'> = {}): Transform {
  const splitter = new FrameSplitter({ maxFrameSize: options.maxFrameSize });
  return new Transform({
    writableObjectMode: false,
    readableObjectMode: true,
    transform(this: Transform, chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      let frames: Uint8Array[];
      try {
        frames = splitter.push(chunk);
      } catch (err) {
        if (err instanceof FrameError) for (const frame of err.frames) this.push(frame);
        callback(err as Error);
        return;
      }
      for (const frame of frames) this.push(frame);
      callback();
    },
    flush(callback: TransformCallback) {
      try {
        splitter.end();
      } catch (err) {
        callback(err as Error);
        return;
      }
      callback();
    },
  });
}
