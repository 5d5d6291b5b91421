// Writes a recording proxy's capture file cheaply: each record is copied into a large reused
// buffer as its bytes are forwarded (so the forwarded chunks are not kept), and a buffer is
// written with one call once the next record would not fit, or after a quiet spell. Where the
// file system allows it the file is written past the page cache (O_DIRECT): on a virtual machine
// a fresh page-cache page can cost more CPU than everything else recording does. Node only.
import { closeSync, constants, ftruncateSync, openSync, write } from 'node:fs';
import { CaptureFileWriter, type Packet } from './writer.js';

/** Records are copied into buffers of this size (a multiple of WASM_PAGE), each written with one call. */
export const RECORD_BUFFER = 1 << 20;
/** A buffer holding records is written after this long even when not full, so a quiet recording reaches the file. */
export const RECORD_FLUSH_MS = 200;
/** Direct writes cover whole blocks of this size at offsets that are multiples of it (the largest logical block in use). */
const BLOCK = 4096;
/** Writes under way at once: a disk keeps up better with several. */
const MAX_WRITES = 4;
/** Written buffers kept for reuse: a moment of slow disk has a dozen queued, and a fresh buffer costs a page fault per page. */
const KEPT_BUFFERS = 16;
const WASM_PAGE = 65536;

export interface RecordFileOptions {
  format?: 'pcap' | 'pcapng';
  /** Write past the page cache where the file system allows it. Default true. */
  direct?: boolean;
  /** A write failed (reported once; the recording goes on without the bytes). */
  onError?: (error: Error) => void;
}

/**
 * Memory whose first byte is page-aligned, as direct I/O needs: a WebAssembly memory's is, a
 * typed array's (from malloc) need not be.
 */
function alignedBuffer(size: number): Uint8Array {
  const pages = Math.ceil(size / WASM_PAGE);
  return new Uint8Array(new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer);
}

/** Opens `file` for direct writes when asked and allowed; otherwise for ordinary ones. */
function open(file: string, direct: boolean): { fd: number; direct: boolean } {
  if (direct && constants.O_DIRECT !== undefined) {
    try {
      return { fd: openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_DIRECT), direct: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
    }
  }
  return { fd: openSync(file, 'w'), direct: false };
}

interface Job {
  buffer: Uint8Array;
  length: number;
  position: number;
  /** Ends in a zero-padded block that the next write covers again: that one waits for it. */
  padded: boolean;
  /** Whether it went to the file opened for direct writes (set as it starts). */
  direct?: boolean;
}

/**
 * A capture file (pcap or pcapng, nanosecond timestamps) written in whole blocks. A full buffer
 * is written up to its last whole block, the rest carried to the front of the next buffer; a
 * flush after a quiet spell (or at close) writes the last block zero-padded, and the next write
 * covers that block again, so it waits for that one; other writes never overlap and go several
 * at a time. Until `close` the file may end in up to a block of zeros, which close cuts off.
 */
export class CaptureRecordFile {
  private readonly writer: CaptureFileWriter;
  private readonly onError: (error: Error) => void;
  private fd: number;
  private direct: boolean;
  private buffer = alignedBuffer(RECORD_BUFFER);
  /** Bytes in the buffer, of which the first `written` are in the file already (a padded write's last block). */
  private fill = 0;
  private written = 0;
  /** File offset of the buffer's first byte: a multiple of BLOCK. */
  private position = 0;
  private readonly free: Uint8Array[] = [];
  private readonly queue: Job[] = [];
  private writing = 0;
  private paddedWriting = false;
  private idle: (() => void) | undefined;
  private failure: Error | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly file: string, options: RecordFileOptions = {}) {
    this.writer = new CaptureFileWriter({ format: options.format ?? 'pcap', nanoseconds: true });
    this.onError = options.onError ?? (() => {});
    ({ fd: this.fd, direct: this.direct } = open(file, options.direct ?? true));
    const header = this.writer.header();
    this.room(header.length).set(header, this.fill);
    this.fill += header.length;
  }

  /** Whether the file is being written past the page cache. */
  get writesDirect(): boolean {
    return this.direct;
  }

  write(packet: Packet): void {
    const buffer = this.room(this.writer.recordLength(packet));
    this.fill = this.writer.writeRecord(packet, buffer, this.fill);
    this.timer ??= setTimeout(() => this.flush(true), RECORD_FLUSH_MS).unref();
  }

  /** Writes what is buffered, waits for every write, and cuts the file to its records. */
  async close(): Promise<void> {
    this.flush(true);
    while (this.writing > 0 || this.queue.length > 0) await new Promise<void>((resolve) => { this.idle = resolve; });
    try {
      ftruncateSync(this.fd, this.position + this.fill);
    } finally {
      closeSync(this.fd);
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** The current buffer, written first if `n` more bytes would not fit. */
  private room(n: number): Uint8Array {
    if (this.fill + n > this.buffer.length) this.flush(false);
    if (this.fill + n > this.buffer.length) {
      // A record larger than a buffer: a buffer of its own, with the carried block in front.
      const larger = alignedBuffer(this.fill + n);
      larger.set(this.buffer.subarray(0, this.fill));
      this.reuse(this.buffer);
      this.buffer = larger;
    }
    return this.buffer;
  }

  /** Queues the buffer's bytes for writing: all of them, the last block padded, or only its whole blocks. */
  private flush(pad: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const whole = this.fill - (this.fill % BLOCK);
    if (this.fill === this.written || (!pad && whole === 0)) return;
    const length = pad ? Math.ceil(this.fill / BLOCK) * BLOCK : whole;
    this.buffer.fill(0, this.fill, length);
    this.queue.push({ buffer: this.buffer, length, position: this.position, padded: length > whole });
    const next = this.free.pop() ?? alignedBuffer(RECORD_BUFFER);
    next.set(this.buffer.subarray(whole, this.fill), 0);
    this.position += whole;
    this.fill -= whole;
    this.written = length > whole ? this.fill : 0;
    this.buffer = next;
    this.pump();
  }

  /** Starts queued writes while there is room, none overlapping one under way. */
  private pump(): void {
    while (this.queue.length > 0 && this.writing < MAX_WRITES && !this.paddedWriting) this.start(this.queue.shift()!);
    if (this.writing === 0 && this.queue.length === 0) this.idle?.();
  }

  private start(job: Job): void {
    this.writing++;
    if (job.padded) this.paddedWriting = true;
    job.direct = this.direct;
    write(this.fd, job.buffer, 0, job.length, job.position, (error) => {
      this.writing--;
      if (job.padded) this.paddedWriting = false;
      if (error !== null && error.code === 'EINVAL' && job.direct) {
        // The file system took O_DIRECT but not these writes: the same writes, through the page cache.
        if (this.direct) {
          closeSync(this.fd);
          this.fd = openSync(this.file, 'r+');
          this.direct = false;
        }
        this.queue.unshift(job);
      } else {
        if (error !== null && this.failure === undefined) {
          this.failure = error;
          this.onError(error);
        }
        this.reuse(job.buffer);
      }
      this.pump();
    });
  }

  /** Keeps a buffer of the usual size for a later flush. */
  private reuse(buffer: Uint8Array): void {
    if (buffer.length === RECORD_BUFFER && this.free.length < KEPT_BUFFERS) this.free.push(buffer);
  }
}
