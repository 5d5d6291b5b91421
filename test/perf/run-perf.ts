// Runs `kafka-wire perf` in this process and the line formats of Kafka's perf tools (the
// patterns both kafka-wire's and Kafka's own output must match), for the perf tests.
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export const PRODUCE_PROGRESS = /^\d+ records sent, \d+\.\d records\/sec \(\d+\.\d\d MB\/sec\), \d+\.\d ms avg latency, \d+\.\d ms max latency\.$/;
export const PRODUCE_FINAL = /^(\d+) records sent, (\d+\.\d{6}) records\/sec \((\d+\.\d\d) MB\/sec\), (\d+\.\d\d) ms avg latency, (\d+\.\d\d) ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, (\d+) ms 99\.9th\.$/;
export const CONSUME_FINAL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, (\d+\.\d{4}), \d+\.\d{4}, (\d+), \d+\.\d{4}, (\d+), (\d+), \d+\.\d{4}, \d+\.\d{4}$/;

export async function perf(args: string[], stderrTTY = false): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['perf', ...args], {
    stdin: Readable.from([]),
    stdout: { write: (t: string | Uint8Array) => { stdout += typeof t === 'string' ? t : Buffer.from(t).toString(); } },
    stderr: Object.assign({ write: (t: string) => { stderr += t; } }, stderrTTY ? { isTTY: true } : {}),
  });
  return { code, stdout, stderr };
}

