// `kafka-wire consume --share GROUP TOPIC...`: reads as a member of a share group (KIP-932), Kafka
// used as a queue: members of one group share the topic's records between them. Lines are JSON
// as `consume` prints them, with each record's deliveryCount, or -K/-f text; a record is
// acknowledged ACCEPT only after its line is flushed, so a record whose line never got out comes
// again (to this or another member): when output fails, the records not written are left to be
// released as the member closes its share sessions, released explicitly with --release-on-error,
// or rejected (never delivered again) with --reject.

import { ShareConsumer, type ShareConsumerOptions, type ShareRecord } from '../consumer/share.js';
import type { ClientOptions } from '../wire/client.js';
import { UsageError } from '../errors.js';
import type { Io } from './command.js';
import { flushedWriter, JsonLinesWriter, jsonRecordWriter, recordWriter, type Encoding, type OutputOptions, type RecordWriter } from './consume-output.js';
import { stringOption, type OptionSpec, type OptionValues } from './options.js';
import { holdStdoutErrors } from './stdout-hold.js';

/** The options `consume` takes for share mode (consume.ts lists them with its own). */
export const SHARE_CONSUME_OPTIONS: readonly OptionSpec[] = [
  { name: 'share', value: 'GROUP', help: 'consume as a member of this share group (KIP-932: a queue; members share records); topics are arguments' },
  { name: 'release-on-error', help: 'with --share: when output fails, release the records not written (others get them at once)' },
  { name: 'reject', help: 'with --share: when output fails, reject the records not written (never delivered again)' },
];

/** Share-only options given without --share are a mistake, not something to ignore. */
export function refuseShareOptions(values: OptionValues): void {
  for (const name of ['release-on-error', 'reject']) if (values[name] !== undefined) throw new UsageError(`--${name} needs --share GROUP`);
}

export interface ShareConsumeOptions {
  group: string;
  topics: string[];
  values: OptionValues;
  client: ClientOptions;
  output: OutputOptions;
  exitAtEnd: boolean;
  limit: number;
  encoding: Encoding;
}

/** With -e: a poll this long with nothing in it ends the run. */
const IDLE_END_MS = 3000;
const POLL_MS = 30_000;

/** consume's JSON line with ,"deliveryCount":N before its closing brace. */
function shareJsonWriter(topic: string, encoding: Encoding): (out: JsonLinesWriter, r: ShareRecord) => void {
  let line: Uint8Array = new Uint8Array(0);
  const scratch = new JsonLinesWriter((bytes) => { line = bytes; });
  const json = jsonRecordWriter(topic, encoding, scratch);
  return (out, r) => {
    json(r.partition, r.batch, r.index, r.offset);
    scratch.flush();
    out.raw(line.subarray(0, line.length - 2)); // without '}\n'
    out.raw(Buffer.from(`,"deliveryCount":${r.deliveryCount}}\n`, 'latin1'));
  };
}

export async function runShareConsume(o: ShareConsumeOptions, io: Io): Promise<number> {
  if (o.topics.length === 0) throw new UsageError('--share GROUP needs at least one topic argument');
  if (o.topics.some((t) => t.startsWith('^'))) throw new UsageError('share groups subscribe to topics by name (no ^patterns)');
  if (stringOption(o.values, 'group') !== undefined) throw new UsageError('--share and -G exclude each other');
  if (stringOption(o.values, 'topic') !== undefined || stringOption(o.values, 'partition') !== undefined || o.values.offset !== undefined) {
    throw new UsageError('with --share, topics are arguments and the share group decides what each member reads (no -t, -p or -o)');
  }
  if (o.values['release-on-error'] === true && o.values.reject === true) throw new UsageError('give one of --release-on-error and --reject');
  const onError = o.values.reject === true ? 'reject' : o.values['release-on-error'] === true ? 'release' : null;
  const started = performance.now();
  const debugOn = /\bgroup\b|\bshare\b|\ball\b/.test(io.env?.KAFKA_WIRE_DEBUG ?? '');
  const options: ShareConsumerOptions = {
    ...o.client,
    groupId: o.group,
    topics: o.topics,
    acknowledgementMode: 'explicit',
    ...(debugOn ? { debug: (m: string) => io.stderr.write(`kafka-wire: +${Math.round(performance.now() - started)} ms ${m}\n`) } : {}),
  };
  const consumer = new ShareConsumer(options);
  let stopping = false;
  const onAbort = () => { stopping = true; void consumer.close(); };
  io.signal?.addEventListener('abort', onAbort, { once: true });
  if (io.signal?.aborted) onAbort();

  const text = o.output.format !== undefined || o.output.keyDelimiter !== undefined;
  const writer = flushedWriter(io.stdout);
  const out = new JsonLinesWriter((bytes) => writer.write(bytes));
  const formats = new Map<string, (out: JsonLinesWriter, r: ShareRecord) => void>();
  const formatFor = (topic: string) => {
    let f = formats.get(topic);
    if (!f) {
      // The text writers write into `out` itself (the sink f is called with).
      if (text) { const w: RecordWriter = recordWriter(topic, o.output, out); f = (_sink, r) => w(r.partition, r.batch, r.index, r.offset); }
      else f = shareJsonWriter(topic, o.encoding);
      formats.set(topic, f);
    }
    return f;
  };
  let printed = 0;
  // stdout's errors (EPIPE: the reader went away) come here through the writes, so that the
  // records whose lines did not get out are settled before the process ends.
  const unhold = holdStdoutErrors();
  try {
    while (!stopping && printed < o.limit) {
      const records = await consumer.poll(o.exitAtEnd ? IDLE_END_MS : POLL_MS);
      if (records.length === 0) { if (o.exitAtEnd) break; continue; }
      const take = records.slice(0, Math.max(0, Math.min(records.length, o.limit - printed)));
      // Past -c: never written, so released for the others at once.
      for (const r of records.slice(take.length)) consumer.acknowledge(r, 'release');
      try {
        for (const r of take) formatFor(r.topic)(out, r);
        out.flush();
        await writer.flushed();
      } catch (err) {
        // Without an option they are left unacknowledged: closing the share session releases them.
        if (onError !== null) {
          for (const r of take) consumer.acknowledge(r, onError);
          await consumer.commitSync().catch(() => {});
        }
        // A reader that stopped early (`| head`) is not an error, as for consume.
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return 0;
        throw err;
      }
      for (const r of take) consumer.acknowledge(r, 'accept');
      printed += take.length;
    }
  } finally {
    io.signal?.removeEventListener('abort', onAbort);
    try { await consumer.close(); } finally { unhold(); }
  }
  return 0;
}
