// Test helper: runs a CLI command in-process (through main, as the bin does) with string stdin and captured output.
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliResult { code: number; stdout: string; stderr: string }
/** A run's output so far (code null until it ends). */
export interface CliProgress { code: number | null; stdout: string; stderr: string }

/**
 * Runs a CLI command in process. `live`, when given, holds what it has printed so far while it runs
 * (for a test that waits for a line rather than for a while).
 */
export async function runCli(command: string, args: string[], stdin = '', signal?: AbortSignal, live: CliProgress = { code: null, stdout: '', stderr: '' }): Promise<CliResult> {
  const code = await main([command, ...args], {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: { write: (t: string | Uint8Array) => { live.stdout += typeof t === 'string' ? t : Buffer.from(t).toString('utf8'); } },
    stderr: { write: (t: string) => { live.stderr += t; } },
    signal,
  });
  live.code = code;
  return { code, stdout: live.stdout, stderr: live.stderr };
}

export function jsonLines(text: string): any[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}
