// Test helper: runs kcat (Debian package kcat) with a timeout, capturing its output.

import { spawn, execFileSync } from 'node:child_process';
import { peer } from '../helpers/peer.js';

let available: boolean | undefined;

export function kcatAvailable(): boolean {
  if (available === undefined) {
    try {
      execFileSync('kcat', ['-V'], { stdio: 'ignore', timeout: 10_000 });
      available = true;
    } catch {
      available = false;
    }
    peer('kcat', available, 'apt-get install kcat');
  }
  return available;
}

export interface KcatResult { code: number | null; stdout: string; stderr: string }

/** Runs kcat; rejects if it has not exited within timeoutMs (it is then killed). */
export function kcat(args: string[], input?: string | Uint8Array, timeoutMs = 20_000): Promise<KcatResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kcat', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kcat ${args.join(' ')} timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', (err) => { clearTimeout(timer); reject(err); });
    child.once('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    child.stdin.on('error', () => { /* kcat may exit before reading everything */ });
    child.stdin.end(input ?? '');
  });
}

/** Like kcat() but rejects unless the exit code is 0. */
export async function kcatOk(args: string[], input?: string | Uint8Array, timeoutMs?: number): Promise<string> {
  const r = await kcat(args, input, timeoutMs);
  if (r.code !== 0) throw new Error(`kcat ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

export const CODECS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
export type Codec = (typeof CODECS)[number];
