// `--stats-interval MS` on produce, consume and perf (librdkafka's statistics.interval.ms habit):
// every MS ms, and once more at the end, the client's metrics snapshot as one JSON line on stderr:
//   {"type":"stats","timestampMs":"1733150000000","clientId":"kafka-wire-cli","metrics":[{"group":"producer-metrics","name":"record-send-rate","tags":{...},"value":12.5},...]}
// The timestamp is an int64, so a decimal string (the JSON convention); a metric with no value yet
// (an average of nothing, NaN) is null.
import type { OptionSpec, OptionValues } from './options.js';
import { integerArg, stringOption } from './options.js';
import type { Io } from './command.js';
import type { MetricValue } from '../observe/metrics.js';

export const STATS_OPTION: OptionSpec = {
  name: 'stats-interval', value: 'MS',
  help: 'every MS ms and at the end, the client\'s metrics (Java names) as a JSON line {"type":"stats",...} on stderr',
};

/** --stats-interval's milliseconds, or undefined without it. */
export function statsIntervalArg(values: OptionValues): number | undefined {
  return integerArg(stringOption(values, 'stats-interval'), '--stats-interval', 1);
}

/** One stats line. */
export function statsLine(clientId: string, metrics: readonly MetricValue[], now = Date.now()): string {
  return JSON.stringify({
    type: 'stats', timestampMs: String(now), clientId,
    metrics: metrics.map((m) => ({ group: m.group, name: m.name, tags: m.tags, value: Number.isFinite(m.value) ? m.value : null })),
  }) + '\n';
}

/** Prints a stats line every `ms` from `snapshot`; the function returned prints the last one and stops. Without `ms`, nothing. */
export function startStats(ms: number | undefined, clientId: string, snapshot: () => MetricValue[], io: Io): () => void {
  if (ms === undefined) return () => {};
  const timer = setInterval(() => io.stderr.write(statsLine(clientId, snapshot())), ms);
  (timer as { unref?: () => void }).unref?.();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    io.stderr.write(statsLine(clientId, snapshot()));
  };
}
