// The produce benchmark's records, the same for every library script: the input file's lines
// split at the first tab into key and value Buffers (views of the file), before any timing.
import { readFileSync } from 'node:fs';

export function loadRecords(file) {
  const data = readFileSync(file);
  const records = [];
  let start = 0;
  for (;;) {
    const end = data.indexOf(10, start);
    if (end < 0) break;
    const tab = data.indexOf(9, start);
    records.push(tab >= 0 && tab < end
      ? { key: data.subarray(start, tab), value: data.subarray(tab + 1, end) }
      : { key: null, value: data.subarray(start, end) });
    start = end + 1;
  }
  return records;
}

/** Messages per send() call for the clients whose API takes arrays (and for kafka-wire's send row). */
export const CHUNK = 10_000;

/** Prints the one result line the parent reads. */
export function report(started, records) {
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, records }) + '\n');
}
