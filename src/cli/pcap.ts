// `kafka-wire pcap FILE...`: the Kafka frames in capture files as JSON lines on stdout, notes
// (skipped, lost or unreadable bytes) and a summary on stderr. A frame that does not decode is a
// line with "ok": false; only an unreadable file makes the exit code 1.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { Command, Io } from './command.js';
import { apiKeyOf, catalogueOption, SCHEMA_OPTIONS, SCHEMAS_NOTE, schemasDirOption } from './input.js';
import { integerArg, stringOption, type ParsedArgs } from './options.js';
import { loadDescriptions } from '../explain/descriptions-node.js';
import type { Descriptions } from '../explain/descriptions.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { findApi } from '../codec/by-key.js';
import { UsageError } from '../errors.js';
import { CaptureReader, type CaptureEvent, type CaptureStats } from '../capture/reader.js';
import { captureNoteToJson, writeCaptureFrameLine } from '../capture/json.js';
import { JsonWriter } from '../json-writer.js';

/** Output is gathered into chunks of about this many bytes before each write. */
const WRITE_CHUNK = 1 << 20;

interface Totals { files: number; errors: number; stats: CaptureStats[]; catalogue?: Catalogue }

export const pcap: Command = {
  name: 'pcap',
  summary: 'the Kafka frames in pcap/pcapng captures, as JSON lines (notes and a summary on stderr)',
  synopsis: ['FILE... [--records] [--explain] [--api-key KEY] [--conn TEXT] [--port P] [--schemas DIR]'],
  options: [
    { name: 'records', help: 'decode records fields into their batches' },
    { name: 'explain', help: 'add each frame\'s annotated tree under "explain"' },
    { name: 'api-key', value: 'KEY', help: 'only frames of this API (number or name)' },
    { name: 'conn', value: 'TEXT', help: 'only connections whose "CLIENT->SERVER" contains TEXT' },
    { name: 'port', value: 'P', help: 'the broker port when a connection\'s SYN is not in the capture (default 9092, and any port whose streams parse as Kafka)' },
    ...SCHEMA_OPTIONS,
  ],
  notes: [
    'FILE "-" reads stdin. Each line: {"time","conn","direction","apiKey","apiVersion","correlationId","ok","frame"|"error"}; responses carry "latencyMs".',
    'A frame that does not decode is a line with "ok": false; only an unreadable file makes the exit code 1.',
    SCHEMAS_NOTE,
  ],
  run: runPcap,
};

async function runPcap({ options, positionals }: ParsedArgs, io: Io): Promise<number> {
  if (positionals.length === 0) throw new UsageError('pcap needs at least one FILE ("-" for stdin)');
  const catalogue = catalogueOption(options);
  const keyText = stringOption(options, 'api-key');
  const apiKey = keyText === undefined ? undefined : apiKeyOf(keyText, '--api-key', catalogue);
  const port = integerArg(stringOption(options, 'port'), '--port', 0, 65535);
  const conn = stringOption(options, 'conn');
  const explain = options.explain === true;
  const records = options.records === true;
  const schemasDir = explain ? schemasDirOption(options) : undefined;
  const descriptionsByName = new Map<string, Descriptions>();
  const descriptionsFor = (key: number | null, direction: 'request' | 'response'): Descriptions | undefined => {
    const api = key === null ? undefined : findApi(key, { catalogue });
    if (schemasDir === undefined || api === undefined) return undefined;
    const name = api[direction].name;
    let d = descriptionsByName.get(name);
    if (d === undefined) descriptionsByName.set(name, d = loadDescriptions(schemasDir, [name]));
    return d;
  };

  const totals: Totals = { files: 0, errors: 0, stats: [], catalogue };
  // Lines are written as UTF-8 bytes; a stdout that takes only text (a test's) gets them decoded.
  const lines = new JsonWriter(WRITE_CHUNK + (WRITE_CHUNK >> 2));
  const byteStream = io.stdout instanceof Writable ? io.stdout : undefined;
  const text = new TextDecoder();
  const flush = async () => {
    if (lines.length === 0) return;
    const chunk = lines.take();
    if (byteStream === undefined) {
      io.stdout.write(text.decode(chunk));
      lines.release(chunk);
      return;
    }
    // Respect a slow reader of stdout (a pipe into less, say) instead of buffering it all.
    if (!byteStream.write(chunk, () => lines.release(chunk))) await once(byteStream, 'drain');
  };
  let code = 0;
  for (const file of positionals) {
    totals.files++;
    const input = file === '-' ? io.stdin as AsyncIterable<Uint8Array> : createReadStream(file, { highWaterMark: 1 << 20 });
    const reader = new CaptureReader({ port, catalogue });
    totals.stats.push(reader.stats);
    const handle = async (events: CaptureEvent[]) => {
      for (const event of events) {
        if (conn !== undefined && !event.conn.includes(conn)) continue;
        if (event.type === 'note') {
          const n = captureNoteToJson(event);
          io.stderr.write(`kafka-wire pcap: note: ${file} packet ${n.packet} ${n.conn}${n.direction === null ? '' : ` (${n.direction}s)`}: ${n.message}\n`);
          continue;
        }
        if (apiKey !== undefined && event.apiKey !== apiKey) continue;
        const line = writeCaptureFrameLine(lines, event, { records, explain, catalogue, descriptions: explain ? descriptionsFor(event.apiKey, event.direction) : undefined });
        if (line.ok === false) totals.errors++;
        if (lines.length >= WRITE_CHUNK) await flush();
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
  const apis = [...byApi].sort(([a], [b]) => a - b).map(([key, n]) => `${key === -1 ? 'unpaired' : findApi(key, totals)?.name ?? `key ${key}`} ${n}`);
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
