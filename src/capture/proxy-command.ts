// `kafka-wire proxy --listen HOST:PORT --upstream HOST:PORT [--record FILE]`: a recording Kafka
// proxy that runs until interrupted. --record FILE.pcap / FILE.pcapng writes a capture of what the
// clients saw; any other name gets the JSON lines `kafka-wire pcap` would print for that capture.
import { closeSync, createWriteStream, openSync, readFileSync, write as writeFile } from 'node:fs';
import { once } from 'node:events';
import type { Command, Io } from '../cli/command.js';
import { stringOption, type ParsedArgs } from '../cli/options.js';
import { UsageError } from '../errors.js';
import { parseHostPort } from '../wire/client.js';
import { startProxy, type HostPort } from './proxy.js';
import { CaptureFileWriter, type Packet } from './writer.js';
import { CaptureReader, type CaptureEvent } from './reader.js';
import { writeCaptureFrameLine } from './json.js';
import { JsonWriter } from '../json-writer.js';

/** JSON lines are written in chunks of about this size (from buffers with room for a line more). */
const RECORD_CHUNK = 1 << 20;

function address(text: string | undefined, option: string): HostPort {
  if (text === undefined) throw new UsageError(`${option} HOST:PORT is required`);
  // Port 0 asks for any free port.
  if (/:0$/.test(text)) return { host: text.slice(0, -2).replace(/^\[|\]$/g, ''), port: 0 };
  try {
    return parseHostPort(text);
  } catch (error) {
    throw new UsageError(`${option}: ${(error as Error).message}`);
  }
}

/** Where recorded packets go. */
interface Recorder { write(packet: Packet): void; close(): Promise<void> }

/** Capture records are copied into buffers of this size, each written with one call when full. */
const CAPTURE_CHUNK = 1 << 20;
/** A buffer holding records is written after this long even when not full, so a quiet recording reaches the file. */
const CAPTURE_FLUSH_MS = 200;

/**
 * A capture file written from large reused buffers: a record is copied into the current buffer
 * as its bytes are forwarded (so the forwarded chunks are not kept), and the buffer is written at
 * its own file position once the next record would not fit, or after CAPTURE_FLUSH_MS. Thousands
 * of pieces a second through a stream cost more than the copy.
 */
class CaptureFileRecorder implements Recorder {
  private readonly writer: CaptureFileWriter;
  private readonly fd: number;
  private buffer: Uint8Array = new Uint8Array(CAPTURE_CHUNK);
  private fill = 0;
  private position = 0;
  private readonly free: Uint8Array[] = [];
  private writing = 0;
  private written: (() => void) | undefined;
  private failure: Error | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(file: string, format: 'pcap' | 'pcapng', private readonly onError: (error: Error) => void) {
    this.fd = openSync(file, 'w');
    this.writer = new CaptureFileWriter({ format, nanoseconds: true });
    const header = this.writer.header();
    this.room(header.length).set(header, this.fill);
    this.fill += header.length;
  }

  write(packet: Packet): void {
    const buffer = this.room(this.writer.recordLength(packet));
    this.fill = this.writer.writeRecord(packet, buffer, this.fill);
    this.timer ??= setTimeout(() => this.flush(), CAPTURE_FLUSH_MS).unref();
  }

  async close(): Promise<void> {
    this.flush();
    while (this.writing > 0) await new Promise<void>((resolve) => { this.written = resolve; });
    closeSync(this.fd);
    if (this.failure !== undefined) throw this.failure;
  }

  /** The current buffer, written first if `n` more bytes would not fit. */
  private room(n: number): Uint8Array {
    if (this.fill + n > this.buffer.length) this.flush();
    if (n > this.buffer.length) this.buffer = new Uint8Array(n);
    return this.buffer;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.fill === 0) return;
    const buffer = this.buffer;
    writeFile(this.fd, buffer, 0, this.fill, this.position, (error) => {
      if (error !== null && this.failure === undefined) {
        this.failure = error;
        this.onError(error);
      }
      if (buffer.length === CAPTURE_CHUNK) this.free.push(buffer);
      if (--this.writing === 0) this.written?.();
    });
    this.writing++;
    this.position += this.fill;
    this.buffer = this.free.pop() ?? new Uint8Array(CAPTURE_CHUNK);
    this.fill = 0;
  }
}

/**
 * The pcap command's JSON lines for the recorded packets: they are queued as they are
 * forwarded and read back as a capture once per turn of the event loop.
 */
function jsonLinesRecorder(file: string): Recorder {
  const out = createWriteStream(file);
  const writer = new CaptureFileWriter({ nanoseconds: true });
  const reader = new CaptureReader();
  const lines = new JsonWriter(2 * RECORD_CHUNK);
  const emit = (events: CaptureEvent[]) => {
    for (const event of events) if (event.type === 'frame') writeCaptureFrameLine(lines, event);
  };
  const writeLines = () => {
    if (lines.length === 0) return;
    const chunk = lines.take();
    out.write(chunk, () => lines.release(chunk));
  };
  emit(reader.push(writer.header()));

  let queue: Packet[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    const packets = queue;
    queue = [];
    for (const packet of packets) {
      emit(reader.push(writer.record(packet)));
      if (lines.length >= RECORD_CHUNK) writeLines();
    }
    writeLines();
  };
  return {
    write: (packet) => {
      queue.push(packet);
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    close: async () => {
      drain();
      emit(reader.end());
      writeLines();
      out.end();
      await once(out, 'close');
    },
  };
}

/** FILE.pcap / FILE.pcapng: a capture; any other name: JSON lines. */
function recorder(file: string, onError: (error: Error) => void): Recorder {
  const capture = /\.(pcap(ng)?)$/i.exec(file);
  return capture === null ? jsonLinesRecorder(file) : new CaptureFileRecorder(file, capture[1].toLowerCase() as 'pcap' | 'pcapng', onError);
}

export const proxy: Command = {
  name: 'proxy',
  summary: 'forward to a cluster, rewriting broker addresses to local listeners; optionally record the traffic',
  synopsis: ['--listen HOST:PORT --upstream HOST:PORT [--record FILE] [--upstream-tls [--ca FILE] [--insecure]]'],
  options: [
    { name: 'listen', value: 'HOST:PORT', help: 'where clients connect (port 0: any free port)' },
    { name: 'upstream', value: 'HOST:PORT', help: 'a bootstrap broker of the cluster' },
    { name: 'record', value: 'FILE', help: 'write every frame: FILE.pcap or FILE.pcapng as a capture, any other name as pcap\'s JSON lines' },
    { name: 'upstream-tls', help: 'speak TLS to the cluster' },
    { name: 'ca', value: 'FILE', help: 'the CA certificate for --upstream-tls' },
    { name: 'insecure', help: 'do not verify the cluster\'s certificate' },
  ],
  notes: ['One local listener is opened per upstream broker, each printed on stderr; runs until interrupted (SIGINT/SIGTERM).'],
  run: runProxy,
};

async function runProxy({ options, positionals }: ParsedArgs, io: Io): Promise<number> {
  if (positionals.length > 0) throw new UsageError('proxy takes no arguments');
  const listen = address(stringOption(options, 'listen'), '--listen');
  const upstream = address(stringOption(options, 'upstream'), '--upstream');
  const recordFile = stringOption(options, 'record');
  const report = (error: unknown) => io.stderr.write(`kafka-wire proxy: ${error instanceof Error ? error.message : String(error)}\n`);
  const recording = recordFile === undefined ? undefined : recorder(recordFile, report);
  const ca = stringOption(options, 'ca');
  try {
    const proxy = await startProxy({
      listen, upstream,
      upstreamTls: options['upstream-tls']
        ? { ca: ca === undefined ? undefined : readFileSync(ca), rejectUnauthorized: !options.insecure }
        : undefined,
      record: recording === undefined ? undefined : (packet) => recording.write(packet),
      onListener: (from, to) => io.stderr.write(`kafka-wire proxy: ${to.host}:${to.port} -> ${from.host}:${from.port}\n`),
      onError: report,
    });
    if (io.signal !== undefined && !io.signal.aborted) await once(io.signal, 'abort');
    await proxy.close();
    return 0;
  } finally {
    await recording?.close();
  }
}
