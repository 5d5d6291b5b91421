// Test helper: runs a CLI command in-process (through main, as the bin does) with string stdin and captured output.
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliResult { code: number; stdout: string; stderr: string }

export async function runCli(command: string, args: string[], stdin = '', signal?: AbortSignal): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main([command, ...args], {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: { write: (t: string | Uint8Array) => { stdout += typeof t === 'string' ? t : Buffer.from(t).toString('utf8'); } },
    stderr: { write: (t: string) => { stderr += t; } },
    signal,
  });
  return { code, stdout, stderr };
}

export function jsonLines(text: string): any[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}
