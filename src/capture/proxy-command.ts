// `kafka-wire proxy --listen HOST:PORT --upstream HOST:PORT [--record FILE]`: a recording Kafka
// proxy that runs until interrupted. --record FILE.pcap / FILE.pcapng writes a capture of what the
// clients saw; any other name gets the JSON lines `kafka-wire pcap` would print for that capture.
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import type { Command, Io } from '../cli/command.js';
import { stringOption, type ParsedArgs } from '../cli/options.js';
import { UsageError } from '../errors.js';
import { parseHostPort } from '../wire/client.js';
import { startProxy, type HostPort } from './proxy.js';
import { CaptureFileWriter, type Packet } from './writer.js';
import { CaptureReader } from './reader.js';
import { captureFrameToJson } from './json.js';

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

/** Where recorded packets go: a capture file, or the pcap command's JSON lines. */
function recorder(file: string): { write(packet: Packet): void; close(): Promise<void> } {
  const out = createWriteStream(file);
  const format = /\.pcapng$/i.test(file) ? 'pcapng' : 'pcap';
  const writer = new CaptureFileWriter({ format, nanoseconds: true });
  if (/\.pcap(ng)?$/i.test(file)) {
    out.write(writer.header());
    return {
      write: (packet) => out.write(writer.record(packet)),
      close: async () => { out.end(); await once(out, 'close'); },
    };
  }
  const reader = new CaptureReader();
  const emit = (events: ReturnType<CaptureReader['push']>) => {
    for (const event of events) if (event.type === 'frame') out.write(JSON.stringify(captureFrameToJson(event)) + '\n');
  };
  emit(reader.push(writer.header()));
  return {
    write: (packet) => emit(reader.push(writer.record(packet))),
    close: async () => { emit(reader.end()); out.end(); await once(out, 'close'); },
  };
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
  const recording = recordFile === undefined ? undefined : recorder(recordFile);
  const ca = stringOption(options, 'ca');
  try {
    const proxy = await startProxy({
      listen, upstream,
      upstreamTls: options['upstream-tls']
        ? { ca: ca === undefined ? undefined : readFileSync(ca), rejectUnauthorized: !options.insecure }
        : undefined,
      record: recording?.write,
      onListener: (from, to) => io.stderr.write(`kafka-wire proxy: ${to.host}:${to.port} -> ${from.host}:${from.port}\n`),
      onError: (error) => io.stderr.write(`kafka-wire proxy: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    if (io.signal !== undefined && !io.signal.aborted) await once(io.signal, 'abort');
    await proxy.close();
    return 0;
  } finally {
    await recording?.close();
  }
}
