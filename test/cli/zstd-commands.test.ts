// Every command, run with zstd where it can meet zstd (compressing or reading batches), in a fresh
// process through the built bin: no command may need the caller to know about initZstd(). The list
// is the command table, so a new command needs a case here (or a reason it never meets zstd).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { encodeRequest, encodeResponse, newMessage } from '../../src/index.js';
import { encodeRecordBatch, initZstd } from '../../src/records/index.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/index.js';
import { toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';
import { captureOf, conversationSegments } from '../capture/helpers.js';

const bin = join(repoRoot, 'dist', 'src', 'cli', 'main.js');
const built = existsSync(bin);
if (!built) console.warn('SKIPPED: the zstd command tests need `npm run build` first');

/** The bin in a child process (asynchronously: the broker some commands talk to runs in this one). */
async function run(args: string[], input = ''): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stdout, stderr };
}

/** The broker command until it prints its address, then stopped (by its PID) and its exit awaited. */
async function brokerRun(args: string[]): Promise<{ address: string; stderr: string; status: number | null }> {
  const child = spawn(process.execPath, [bin, 'broker', '--listen', '127.0.0.1:0', ...args]);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const address = await new Promise<string>((resolve) => {
    child.stdout.on('data', (d) => { stdout += d; if (stdout.includes('\n')) resolve(stdout.trim()); });
    void exited.then(() => resolve(''));
  });
  child.kill('SIGTERM');
  return { address, stderr, status: await exited };
}

let dir = '';
let broker: MemoryBroker;
let zstdBatch: Uint8Array;
let zstdFetch: Uint8Array;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kafka-wire-zstd-'));
  await initZstd(); // the test's own fixtures; the commands run in their own processes
  zstdBatch = encodeRecordBatch({ compression: 'zstd', records: [{ key: 'k', value: 'zstd value '.repeat(20) }] });
  zstdFetch = encodeResponse(1, 4, { correlationId: 1 }, newMessage(1, 'response', 4, {
    responses: [{ topic: 't', partitions: [{ partitionIndex: 0, highWatermark: 1n, lastStableOffset: 1n, abortedTransactions: null, records: zstdBatch }] }],
  }));
  broker = await startMemoryBroker({ topics: { z: 1 } });
  broker.append('z', 0, zstdBatch);
});
afterAll(async () => {
  await broker?.close();
  rmSync(dir, { recursive: true, force: true });
});

const bootstrap = () => `${broker.host}:${broker.port}`;

/** Each command's zstd run; a string is why the command never compresses or reads batches. */
const CASES: Record<string, string | (() => Promise<void> | void)> = {
  decode: async () => {
    const r = await run(['decode', '--response', '--api-key', '1', '--api-version', '4', '--records', toHex(zstdFetch)]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('"compression": "zstd"');
  },
  encode: 'takes records fields as bytes (hex) and writes them as given: it never compresses',
  explain: async () => {
    const r = await run(['explain', '--no-schemas', '--response', '--api-key', '1', '--api-version', '4', toHex(zstdFetch)]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('zstd value');
  },
  sample: 'its samples carry an uncompressed batch',
  site: 'its pages are built from uncompressed samples (the explorer reads zstd: test/site)',
  demo: 'explains the reference pages\' messages, which carry no records',
  metadata: 'carries no records',
  produce: async () => {
    const r = await run(['produce', '-b', bootstrap(), '-t', 'z', '-z', 'zstd'], 'a\tone\nb\ttwo\n');
    expect(r.stderr).not.toContain('NOT_INITIALIZED');
    expect(r.status, r.stderr).toBe(0);
  },
  consume: async () => {
    const r = await run(['consume', '-b', bootstrap(), '-t', 'z', '-e', '-c', '1']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]).value).toBe('zstd value '.repeat(20));
  },
  broker: async () => {
    const filled = await brokerRun(['-t', 'f:2', '--fill', '2500', '--compression', 'zstd']);
    expect(filled.stderr).not.toContain('NOT_INITIALIZED');
    expect(filled.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(filled.stderr).toContain('2500 records stored');
    const lines = join(dir, 'load.jsonl');
    writeFileSync(lines, '{"topic":"l","partition":0,"key":"k","value":"v","headers":[]}\n');
    const loaded = await brokerRun(['--load', lines, '-z', 'zstd']);
    expect(loaded.stderr).toContain('1 records stored');
  },
  pcap: async () => {
    const request = encodeRequest({ requestApiKey: 0, requestApiVersion: 9, correlationId: 1, clientId: 'z' },
      { acks: -1, timeoutMs: 1000, topicData: [{ name: 'z', partitionData: [{ index: 0, records: zstdBatch }] }] });
    const response = encodeResponse(0, 9, { correlationId: 1 }, newMessage(0, 'response', 9, { responses: [] }));
    const file = join(dir, 'zstd.pcap');
    writeFileSync(file, captureOf(conversationSegments([{ request, response }]).segments));
    for (const extra of [['--records'], ['--explain', '--no-schemas']]) {
      const r = await run(['pcap', file, ...extra]);
      expect(r.status, r.stderr).toBe(0);
      // --records gives values as hex, --explain's tree as text
      expect(r.stdout.includes('zstd value') || r.stdout.includes(toHex(new TextEncoder().encode('zstd value '))), extra.join(' ')).toBe(true);
    }
  },
  proxy: 'forwards and records frames as they are: it never compresses or decompresses',
  bridge: 'carries frames between WebSockets and brokers as they are: it never compresses or decompresses',
  group: 'lists, describes and moves committed offsets: it reads no records',
  topics: 'creates, describes and deletes topics: it reads no records',
  configs: 'describes and alters configs: it reads no records',
  acls: 'lists, adds and removes ACLs: it reads no records',
  quotas: 'describes and alters client quotas: it reads no records',
  reassign: 'moves replicas between brokers: it reads no records',
  records: 'deletes records by offset (DeleteRecords): it reads none',
  users: 'describes and alters SCRAM credentials: it reads no records',
  features: 'describes feature levels: it reads no records',
  transactions: 'lists and describes transactions and producers: it reads no records',
  cluster: 'describes the cluster: it reads no records',
  perf: async () => {
    const r = await run(['perf', 'produce', '-b', bootstrap(), '-t', 'pz', '--records', '2000', '--record-size', '100', '-z', 'zstd']);
    expect(r.stderr).not.toContain('NOT_INITIALIZED');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2000 records sent/);
  },
};

describe.skipIf(!built)('every command with zstd, in a fresh process, without initZstd()', () => {
  it('has a case for every command', () => {
    expect(COMMANDS.map((c) => c.name).filter((name) => CASES[name] === undefined)).toEqual([]);
  });
  for (const [name, test] of Object.entries(CASES)) {
    if (typeof test === 'string') continue;
    it(name, test, 120_000);
  }
});
