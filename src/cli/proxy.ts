// `kafka-wire proxy --listen HOST:PORT --upstream HOST:PORT [--record FILE]`: a recording Kafka
// proxy that runs until interrupted. --record FILE.pcap / FILE.pcapng writes a capture of what the
// clients saw; any other name gets the JSON lines `kafka-wire pcap` would print for that capture.
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import type { Command, Io } from './command.js';
import { stringOption, type ParsedArgs } from './options.js';
import { UsageError } from '../errors.js';
import { parseHostPort } from '../wire/client.js';
import { startProxy, type HostPort } from '../capture/proxy.js';
import { CaptureFileWriter, type Packet } from '../capture/writer.js';
import { CaptureRecordFile } from '../capture/record-file.js';
import { CaptureReader, type CaptureEvent } from '../capture/reader.js';
import { writeCaptureFrameLine } from '../capture/json.js';
import { JsonWriter } from '../json-writer.js';

/** JSON lines are written in chunks of about this size (from buffers with room for a line more). */
const RECORD_CHUNK = 1 << 20;

/** A HOST:PORT option's value (port 0: any free port), or a usage error naming the option. */
export function address(text: string | undefined, option: string): HostPort {
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

/**
 * The pcap command's JSON lines for the recorded packets: their records are made as they are
 * forwarded (copying the bytes, which are only lent) and read back as a capture once per turn
 * of the event loop.
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

  let queue: Uint8Array[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    const records = queue;
    queue = [];
    for (const record of records) {
      emit(reader.push(record));
      if (lines.length >= RECORD_CHUNK) writeLines();
    }
    writeLines();
  };
  return {
    write: (packet) => {
      queue.push(writer.record(packet));
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
  return capture === null ? jsonLinesRecorder(file) : new CaptureRecordFile(file, { format: capture[1].toLowerCase() as 'pcap' | 'pcapng', onError });
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
