// `kafka-wire broker`: filled and loaded topics read back by our consume (and kcat where
// installed), its options' errors, and the built bin stopping cleanly on SIGTERM.
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { kcatAvailable, kcatOk } from './kcat.js';
import { runCli, jsonLines } from './cli-io.js';
import { builtBin } from '../helpers/shared.js';

/** Starts the command in-process; resolves with its address once it printed it, and a stop function. */
async function startBroker(args: string[]): Promise<{ address: string; stop: () => Promise<{ code: number; stderr: string }> }> {
  const ac = new AbortController();
  let stdout = '';
  let stderr = '';
  let ready!: (address: string) => void;
  const printed = new Promise<string>((resolve) => { ready = resolve; });
  const running = main(['broker', '--listen', '127.0.0.1:0', ...args], {
    stdin: Readable.from([]),
    stdout: { write: (t: string) => { stdout += t; if (stdout.endsWith('\n')) ready(stdout.trim()); } },
    stderr: { write: (t: string) => { stderr += t; } },
    signal: ac.signal,
  });
  const address = await Promise.race([printed, running.then((code) => { throw new Error(`broker exited ${code}: ${stderr}`); })]);
  return { address, stop: async () => { ac.abort(); return { code: await running, stderr }; } };
}

describe('kafka-wire broker', () => {
  it('fills every partition of each topic with the requested records, in every codec', async () => {
    for (const codec of ['none', 'lz4', 'zstd']) {
      const b = await startBroker(['--topic', 'filled:3', '--topic', 'other', '--fill', '2500', '--value-size', '64', '--compression', codec]);
      expect(b.address).toMatch(/^127\.0\.0\.1:\d+$/);
      const md = JSON.parse((await runCli('metadata', ['-b', b.address, '--json'])).stdout);
      expect(md.topics.map((t: any) => [t.name, t.partitions.length]).sort()).toEqual([['filled', 3], ['other', 1]]);
      const got = jsonLines((await runCli('consume', ['-b', b.address, '-t', 'filled', '-e'])).stdout);
      expect(got.length).toBe(2500);
      expect([0, 1, 2].map((p) => got.filter((r) => r.partition === p).length)).toEqual([834, 833, 833]);
      // Record i went to partition i mod 3, as the i-th record of that partition.
      for (const r of got) {
        const i = Number(r.key.slice(4));
        expect([r.partition, r.offset]).toEqual([i % 3, Math.floor(i / 3)]);
        expect(r.value.length).toBe(64);
        expect(r.value.startsWith(`{"id":${i},`)).toBe(true);
      }
      expect(new Set(got.map((r) => r.key)).size).toBe(2500);
      expect(jsonLines((await runCli('consume', ['-b', b.address, '-t', 'other', '-e'])).stdout).length).toBe(2500);
      const { code, stderr } = await b.stop();
      expect(code).toBe(0);
      expect(stderr).toContain('5000 records stored');
    }
  });

  it('loads what consume printed, keys, values, headers and timestamps intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kw-broker-'));
    try {
      const lines = Array.from({ length: 2300 }, (_, i) => ({
        topic: 'loaded', partition: i % 2, offset: 0, timestamp: 1_700_000_000_000 + i,
        key: i % 5 === 0 ? null : `k${i}`, value: i % 7 === 0 ? null : `v ✓ ${i}`,
        headers: i % 3 === 0 ? [{ key: 'h', value: `x${i}` }, { key: 'n', value: null }] : [],
      }));
      writeFileSync(join(dir, 'in.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const b = await startBroker(['--load', join(dir, 'in.jsonl'), '--compression', 'gzip']);
      const got = jsonLines((await runCli('consume', ['-b', b.address, '-t', 'loaded', '-e'])).stdout);
      const strip = (r: any) => [r.partition, r.timestamp, r.key, r.value, r.headers];
      const byPartitionThenOrder = (a: any, z: any) => a[0] - z[0] || a[1] - z[1];
      expect(got.map(strip).sort(byPartitionThenOrder)).toEqual(lines.map(strip).sort(byPartitionThenOrder));
      // Offsets are assigned anew, in file order per partition.
      expect(got.filter((r) => r.partition === 1).map((r) => r.offset)).toEqual(Array.from({ length: 1150 }, (_, i) => i));
      expect((await b.stop()).code).toBe(0);

      writeFileSync(join(dir, 'bad.jsonl'), '{"topic":"t","partition":0,"value":"a"}\n{"topic":"t","value":"b"}\n');
      const bad = await runCli('broker', ['--listen', '127.0.0.1:0', '--load', join(dir, 'bad.jsonl')]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('bad.jsonl:2: needs "topic" and "partition"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!kcatAvailable())('serves kcat', async () => {
    const b = await startBroker(['--topic', 'k:2', '--fill', '1500', '--compression', 'snappy']);
    const got = jsonLines(await kcatOk(['-b', b.address, '-C', '-t', 'k', '-o', 'beginning', '-e', '-J']));
    expect(got.length).toBe(1500);
    expect(new Set(got.map((r) => r.key)).size).toBe(1500);
    expect((await b.stop()).code).toBe(0);
  });

  it('rejects bad options with exit code 2', async () => {
    for (const args of [['--topic', 'a:0'], ['--topic', 'a b'], ['--listen', 'nowhere'], ['--fill', '10'], ['--topic', 't', '--fill', '-1'],
      ['--topic', 't', '--compression', 'brotli'], ['--bogus']]) {
      const res = await runCli('broker', args);
      expect([args, res.code]).toEqual([args, 2]);
      expect(res.stderr).toContain('(see kafka-wire broker --help)');
    }
  });

  const bin = builtBin;
  it.skipIf(!existsSync(bin))('runs as the built bin: prints its address once ready, exits 0 on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(process.execPath, [bin, 'broker', '--listen', '127.0.0.1:0', '--topic', 'bin:2', '--fill', '100'], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const address = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.trim()); });
          child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address`)));
        });
        expect(jsonLines((await runCli('consume', ['-b', address, '-t', 'bin', '-e'])).stdout).length).toBe(100);
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        child.kill(signal);
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  });
});
