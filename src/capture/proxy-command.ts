// `kafka-wire proxy --listen HOST:PORT --upstream HOST:PORT [--record FILE]`: a recording Kafka
// proxy that runs until interrupted. --record FILE.pcap / FILE.pcapng writes a capture of what the
// clients saw; any other name gets the JSON lines `kafka-wire pcap` would print for that capture.
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fail, parse, type CliIo } from '../explain/cli-commands.js';
import { UsageError } from '../errors.js';
import { parseHostPort } from '../wire/client.js';
import { startProxy, type HostPort } from './proxy.js';
import { CaptureFileWriter, type Packet } from './writer.js';
import { CaptureReader } from './reader.js';
import { captureFrameToJson } from './json.js';

export const PROXY_USAGE = `  proxy --listen HOST:PORT --upstream HOST:PORT [--record FILE] [--upstream-tls [--ca FILE] [--insecure]]
                                                        forward to a cluster, rewriting broker addresses to local
                                                        listeners; --record FILE.pcap|.pcapng, or JSON lines
`;

function address(text: string | true | undefined, option: string): HostPort {
  if (typeof text !== 'string') throw new UsageError(`${option} HOST:PORT is required`);
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

export async function runProxy(args: string[], io: CliIo & { signal?: AbortSignal }): Promise<number> {
  let listen: HostPort;
  let upstream: HostPort;
  let options: Map<string, string | true>;
  try {
    ({ options } = parse(args, ['--listen', '--upstream', '--record', '--ca'], ['--upstream-tls', '--insecure']));
    listen = address(options.get('--listen'), '--listen');
    upstream = address(options.get('--upstream'), '--upstream');
  } catch (error) {
    io.stderr.write(PROXY_USAGE);
    return fail(io, 'proxy', error);
  }
  const recordFile = options.get('--record');
  const recording = typeof recordFile === 'string' ? recorder(recordFile) : undefined;
  const ca = options.get('--ca');
  try {
    const proxy = await startProxy({
      listen, upstream,
      upstreamTls: options.has('--upstream-tls')
        ? { ca: typeof ca === 'string' ? readFileSync(ca) : undefined, rejectUnauthorized: !options.has('--insecure') }
        : undefined,
      record: recording?.write,
      onListener: (from, to) => io.stderr.write(`kafka-wire proxy: ${to.host}:${to.port} -> ${from.host}:${from.port}\n`),
      onError: (error) => io.stderr.write(`kafka-wire proxy: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    if (io.signal !== undefined && !io.signal.aborted) await once(io.signal, 'abort');
    await proxy.close();
    return 0;
  } catch (error) {
    return fail(io, 'proxy', error);
  } finally {
    await recording?.close();
  }
}
