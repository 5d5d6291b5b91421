// `kafka-wire pcap FILE...`: the Kafka frames in capture files as JSON lines on stdout, notes
// (skipped, lost or unreadable bytes) and a summary on stderr. A frame that does not decode is a
// line with "ok": false; only an unreadable file makes the exit code 1.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { apiKeyOf, fail, integer, parse, schemasOption, type CliIo } from '../explain/cli-commands.js';
import { loadDescriptions } from '../explain/descriptions-node.js';
import type { Descriptions } from '../explain/descriptions.js';
import { findApi } from '../codec.js';
import { UsageError } from '../errors.js';
import { CaptureReader, type CaptureEvent, type CaptureStats } from './reader.js';
import { captureFrameToJson, captureNoteToJson } from './json.js';

export const PCAP_USAGE = `  pcap FILE... [--records] [--explain] [--api-key K] [--conn TEXT] [--port P] [--schemas DIR]
                                                        Kafka frames in pcap/pcapng captures as JSON lines ("-": stdin)
`;

/** Output is gathered into chunks of about this many characters before each write. */
const WRITE_CHUNK = 1 << 20;

interface Totals { files: number; errors: number; stats: CaptureStats[] }

export async function runPcap(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parse(args, ['--api-key', '--conn', '--port', '--schemas'], ['--records', '--explain', '--no-schemas']);
    if (parsed.positional.length === 0) throw new UsageError('pcap needs at least one FILE');
  } catch (error) {
    io.stderr.write(PCAP_USAGE);
    return fail(io, 'pcap', error);
  }
  const { options, positional } = parsed;
  let apiKey: number | undefined;
  let port: number | undefined;
  try {
    apiKey = typeof options.get('--api-key') === 'string' ? apiKeyOf(options.get('--api-key') as string) : undefined;
    port = integer(options.get('--port'), '--port');
  } catch (error) {
    return fail(io, 'pcap', error);
  }
  const conn = options.get('--conn');
  const explain = options.has('--explain');
  const records = options.has('--records');
  const schemasDir = explain ? schemasOption(options) : undefined;
  const descriptionsByName = new Map<string, Descriptions>();
  const descriptionsFor = (key: number | null, direction: 'request' | 'response'): Descriptions | undefined => {
    const api = key === null ? undefined : findApi(key);
    if (schemasDir === undefined || api === undefined) return undefined;
    const name = api[direction].name;
    let d = descriptionsByName.get(name);
    if (d === undefined) descriptionsByName.set(name, d = loadDescriptions(schemasDir, [name]));
    return d;
  };

  const totals: Totals = { files: 0, errors: 0, stats: [] };
  let pending: string[] = [];
  let pendingLength = 0;
  const stream = io.stdout as { cork?: () => void; uncork?: () => void; once?: unknown };
  const flush = async () => {
    if (pending.length === 0) return;
    // Corked, the lines leave in one write without first being joined into one string.
    let ok: unknown = true;
    stream.cork?.();
    for (const text of pending) ok = io.stdout.write(text);
    stream.uncork?.();
    pending = [];
    pendingLength = 0;
    // Respect a slow reader of stdout (a pipe into less, say) instead of buffering it all.
    if (ok === false && typeof stream.once === 'function') await once(io.stdout as any, 'drain');
  };
  let code = 0;
  for (const file of positional) {
    totals.files++;
    const input = file === '-' ? io.stdin as AsyncIterable<Uint8Array> : createReadStream(file, { highWaterMark: 1 << 20 });
    const reader = new CaptureReader({ port });
    totals.stats.push(reader.stats);
    const handle = async (events: CaptureEvent[]) => {
      for (const event of events) {
        if (typeof conn === 'string' && !event.conn.includes(conn)) continue;
        if (event.type === 'note') {
          const n = captureNoteToJson(event);
          io.stderr.write(`kafka-wire pcap: note: ${file} packet ${n.packet} ${n.conn}${n.direction === null ? '' : ` (${n.direction}s)`}: ${n.message}\n`);
          continue;
        }
        if (apiKey !== undefined && event.apiKey !== apiKey) continue;
        const line = captureFrameToJson(event, { records, explain, descriptions: explain ? descriptionsFor(event.apiKey, event.direction) : undefined });
        if (line.ok === false) totals.errors++;
        // The newline apart: joining it would copy the whole line once more.
        const text = JSON.stringify(line);
        pending.push(text, '\n');
        pendingLength += text.length + 1;
        if (pendingLength >= WRITE_CHUNK) await flush();
      }
    };
    try {
      for await (const chunk of input as AsyncIterable<Uint8Array>) {
        await handle(reader.push(chunk));
        if (reader.error !== undefined) break;
      }
      await handle(reader.end());
      if (reader.error !== undefined) throw reader.error;
    } catch (error) {
      await flush();
      io.stderr.write(`kafka-wire pcap: ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
      code = 1;
    }
  }
  await flush();
  io.stderr.write(summary(totals));
  return code;
}

/** One line: connections, frames per API, errors, gaps. */
export function summary(totals: Totals): string {
  const sum = (pick: (s: CaptureStats) => number) => totals.stats.reduce((n, s) => n + pick(s), 0);
  const byApi = new Map<number, number>();
  for (const s of totals.stats) for (const [key, n] of s.framesByApi) byApi.set(key, (byApi.get(key) ?? 0) + n);
  const apis = [...byApi].sort(([a], [b]) => a - b).map(([key, n]) => `${key === -1 ? 'unpaired' : findApi(key)?.name ?? `key ${key}`} ${n}`);
  const parts = [
    `${totals.files} file${totals.files === 1 ? '' : 's'}`,
    `${sum((s) => s.packets)} packets`,
    `${sum((s) => s.connections)} Kafka connections (${sum((s) => s.skippedConnections)} skipped)`,
    `${sum((s) => s.frames)} frames${apis.length > 0 ? ` (${apis.join(', ')})` : ''}`,
    `${totals.errors} decode errors`,
    `${sum((s) => s.gaps)} gaps (${sum((s) => s.lostBytes)} bytes lost)`,
    `${sum((s) => s.retransmissions)} retransmitted segments`,
    `${sum((s) => s.unpairedResponses)} unpaired responses`,
    `${sum((s) => s.unansweredRequests)} requests without a response`,
  ];
  return `kafka-wire pcap: ${parts.join(', ')}\n`;
}
