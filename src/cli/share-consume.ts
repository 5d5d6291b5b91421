// `kafka-wire consume --share GROUP TOPIC...`: reads as a member of a share group (KIP-932), Kafka
// used as a queue: members of one group share the topic's records between them. Lines are JSON
// as `consume` prints them, with each record's deliveryCount, or -K/-f text; a record is
// acknowledged ACCEPT only after its line is flushed, so a record whose line never got out comes
// again (to this or another member): when output fails, the records not written are left to be
// released as the member closes its share sessions, released explicitly with --release-on-error,
// or rejected (never delivered again) with --reject. The next records are fetched (one ShareFetch
// ahead) while lines are written; those never written are released at close, and come again
// with their delivery count up.

import { ShareConsumer, type ShareConsumerOptions, type ShareRecordRun } from '../consumer/share.js';
import type { ClientOptions } from '../wire/client.js';
import { UsageError } from '../errors.js';
import type { Io } from './command.js';
import {
  flushedWriter, JsonLinesWriter, jsonRangeWriter, jsonRecordWriter, recordWriter, type Encoding, type OutputOptions, type RangeWriter, type RecordWriter,
} from './consume-output.js';
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
/**
 * Records one ShareFetch asks for (Kafka's default is 500): the broker's share path costs it far
 * more per ShareFetch than a fetch does (acquiring, then recording the acknowledgements in its
 * share state), a third less at 5000 on 1M records (and a quarter less wall time); and
 * 5000 lines are written well inside a lock's 30 s even to a slow reader.
 */
const MAX_RECORDS = 5000;
/** A record is written only while at least this much (or half the lock) is left of its lock. */
const LOCK_MARGIN_MS = 10_000;

const DELIVERY_COUNT = Buffer.from(',"deliveryCount":', 'latin1');
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Writes records [from, to) of a run (all of one delivery count). */
type RunWriter = (run: ShareRecordRun, from: number, to: number) => void;

/**
 * consume's lines for runs of records: JSON lines with ,"deliveryCount":N as their last field (in
 * utf8 a batch at a time in WebAssembly, as consume writes them, the field as the lines' tail), or
 * -K/-f text.
 */
function shareRunWriter(topic: string, output: OutputOptions, encoding: Encoding, out: JsonLinesWriter): RunWriter {
  let deliveryCount = 0;
  const text = output.format !== undefined || output.keyDelimiter !== undefined;
  const one: RecordWriter = text ? recordWriter(topic, output, out)
    : jsonRecordWriter(topic, encoding, out, (o) => { o.raw(DELIVERY_COUNT); o.int(deliveryCount); });
  const range: RangeWriter | undefined = !text && encoding === 'utf8' ? jsonRangeWriter(topic, out, one) : undefined;
  const tails = new Map<number, Buffer>();
  const tailFor = (n: number) => tails.get(n) ?? tails.set(n, Buffer.from(`${DELIVERY_COUNT.toString('latin1')}${n}`, 'latin1')).get(n)!;
  return (run, from, to) => {
    deliveryCount = run.deliveryCount;
    // The range writer takes safe offsets only; as consume prints offsets: a Number while exact.
    if (range !== undefined && run.lastOffset <= SAFE) { range(run.partition, run.batch, from, to, tailFor(run.deliveryCount)); return; }
    for (let i = from; i < to; i++) { const offset = run.batch.offsetAt(i); one(run.partition, run.batch, i, offset <= SAFE ? Number(offset) : offset); }
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
    prefetch: true,
    maxRecords: MAX_RECORDS,
    ...(debugOn ? { debug: (m: string) => io.stderr.write(`kafka-wire: +${Math.round(performance.now() - started)} ms ${m}\n`) } : {}),
  };
  const consumer = new ShareConsumer(options);
  let stopping = false;
  // A signal ends a poll() at once (by closing); lines being written are written and accepted
  // first, and the loop then closes: closing while they were still to be acknowledged would
  // release records whose lines got out (another member would write them again).
  let polling = false;
  const onAbort = () => { stopping = true; if (polling) void consumer.close(); };
  io.signal?.addEventListener('abort', onAbort, { once: true });
  if (io.signal?.aborted) onAbort();

  const writer = flushedWriter(io.stdout);
  const out = new JsonLinesWriter((bytes, done) => writer.write(bytes, done));
  const formats = new Map<string, RunWriter>();
  const formatFor = (topic: string) => formats.get(topic) ?? formats.set(topic, shareRunWriter(topic, o.output, o.encoding, out)).get(topic)!;
  let printed = 0;
  /** The most records one poll brought. */
  let most = MAX_RECORDS;
  // stdout's errors (EPIPE: the reader went away) come here through the writes, so that the
  // records whose lines did not get out are settled before the process ends.
  const unhold = holdStdoutErrors();
  try {
    while (!stopping && printed < o.limit) {
      // The next records are fetched while these lines are written (one ShareFetch ahead), but
      // not near -c: records fetched ahead and never written are released at close, and come
      // again with their delivery count up.
      polling = true;
      let runs: ShareRecordRun[];
      try {
        // Runs of records (a batch's, of one acquired range), written a batch at a time: no object per record.
        runs = await consumer.pollRuns(o.exitAtEnd ? IDLE_END_MS : POLL_MS, { prefetch: o.limit - printed > 2 * most });
      } finally { polling = false; }
      if (runs.length === 0) { if (o.exitAtEnd || stopping) break; continue; }
      let count = 0;
      for (const run of runs) count += run.to - run.from;
      if (count > most) most = count;
      // A record whose lock is near its end may be another member's before its acknowledgement
      // gets there: not written (that member writes it), released.
      const now = Date.now();
      const margin = Math.min(consumer.acquisitionLockTimeoutMs / 2, LOCK_MARGIN_MS);
      /** Each run to write, and the end of its records written (the rest are released). */
      const take: [ShareRecordRun, number][] = [];
      let left = o.limit - printed;
      for (const run of runs) {
        if (run.lockExpiresAt - now < margin) { consumer.acknowledgeRun(run, 'release'); continue; }
        const n = Math.min(run.to - run.from, left);
        // Past -c: for the others at once (and fetching ahead stops, which would bring them back to this member).
        if (n < run.to - run.from) { consumer.fetchAhead(false); consumer.acknowledgeRun(run, 'release', run.from + n, run.to); }
        if (n > 0) { take.push([run, run.from + n]); left -= n; }
      }
      try {
        for (const [run, end] of take) formatFor(run.topic)(run, run.from, end);
        out.flush();
        await writer.flushed();
      } catch (err) {
        // Without an option they are left unacknowledged: closing the share session releases them.
        // No ShareFetch ahead from now: it would take released records back.
        consumer.fetchAhead(false);
        if (onError !== null) {
          for (const [run, end] of take) consumer.acknowledgeRun(run, onError, run.from, end);
          await consumer.commitSync().catch(() => {});
        }
        // A reader that stopped early (`| head`) is not an error, as for consume.
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return 0;
        throw err;
      }
      // Accepted as offset ranges (a run's records whose offsets follow each other are one).
      for (const [run, end] of take) { consumer.acknowledgeRun(run, 'accept', run.from, end); printed += end - run.from; }
    }
  } finally {
    io.signal?.removeEventListener('abort', onAbort);
    try { await consumer.close(); } finally { unhold(); }
  }
  return 0;
}
