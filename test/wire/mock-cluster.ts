// Test helper: builds test/fixtures/mock-cluster (librdkafka's mock cluster behind a tiny C
// program) once, and starts/stops instances of it.
//
//   const avail = await mockClusterAvailable();           // at module top level
//   describe.skipIf(!avail.ok)('...', () => {
//     let mc: MockCluster;
//     beforeAll(async () => { mc = await startMockCluster({ brokers: 3, topics: ['t:3'] }); });
//     afterAll(() => mc.stop());
//   });
//
// Without `cc` or librdkafka's headers the build is reported unavailable (with the reason
// printed once) so the suite passes on machines without them; in CI that is a failure instead
// (the peer rule, test/helpers/peer.ts).

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { peer } from '../helpers/peer.js';

const fixtureDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mock-cluster');
const source = join(fixtureDir, 'mock-cluster.c');
const buildScript = join(fixtureDir, 'build.sh');
/** Build output (not committed: test/fixtures/mock-cluster/build/ should be in .gitignore). */
export const mockClusterBinary = join(fixtureDir, 'build', 'mock-cluster');

export type Availability = { ok: true; binary: string } | { ok: false; reason: string };

let availability: Promise<Availability> | undefined;

function run(file: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as any).code === 'number' ? (err as any).code : 127) : 0;
      resolve({ code, output: `${stdout}${stderr}${err && !stderr ? err.message : ''}` });
    });
  });
}

async function which(cmd: string): Promise<boolean> {
  return (await run('sh', ['-c', `command -v ${cmd}`])).code === 0;
}

async function build(): Promise<Availability> {
  const fresh = existsSync(mockClusterBinary)
    && statSync(mockClusterBinary).mtimeMs >= Math.max(statSync(source).mtimeMs, statSync(buildScript).mtimeMs);
  if (fresh) return { ok: true, binary: mockClusterBinary };
  const cc = process.env.CC ?? 'cc';
  if (!(await which(cc))) return { ok: false, reason: `no C compiler (${cc}) on PATH` };
  // Several vitest workers may build at once: each builds to its own file, then renames.
  mkdirSync(dirname(mockClusterBinary), { recursive: true });
  const tmp = `${mockClusterBinary}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const result = await run('sh', [buildScript, tmp]);
  if (result.code !== 0) {
    rmSync(tmp, { force: true });
    if (/rdkafka(_mock)?\.h|lrdkafka|rd_kafka_mock/.test(result.output)) {
      return { ok: false, reason: `librdkafka development files missing (Debian: librdkafka-dev): ${result.output.trim().split('\n')[0]}` };
    }
    throw new Error(`building the mock cluster failed:\n${result.output}`);
  }
  renameSync(tmp, mockClusterBinary);
  return { ok: true, binary: mockClusterBinary };
}

/** Builds the binary on first use; resolves whether mock-cluster tests can run. */
export function mockClusterAvailable(): Promise<Availability> {
  availability ??= build().then((a) => {
    peer(`librdkafka's mock cluster (${a.ok ? '' : a.reason})`, a.ok, 'apt-get install librdkafka-dev gcc');
    return a;
  });
  return availability;
}

export interface MockCluster {
  /** "127.0.0.1:port,127.0.0.1:port,..." */
  readonly bootstrap: string;
  /** Each broker's address, broker id i+1 at index i. */
  readonly brokers: ReadonlyArray<{ host: string; port: number }>;
  readonly pid: number;
  /** SIGTERMs exactly the process this call started (SIGKILL after 5 s); resolves when it exited. */
  stop(): Promise<void>;
}

export interface MockClusterOptions {
  brokers?: number;
  /** "name", "name:partitions" or "name:partitions:replication". */
  topics?: string[];
  /** librdkafka debug contexts, e.g. "protocol,broker"; logs go to this process's stderr. */
  debug?: string;
}

export async function startMockCluster(options: MockClusterOptions = {}): Promise<MockCluster> {
  const avail = await mockClusterAvailable();
  if (!avail.ok) throw new Error(`mock cluster unavailable: ${avail.reason}`);
  const args = ['-b', String(options.brokers ?? 1)];
  for (const t of options.topics ?? []) args.push('-t', t);
  if (options.debug) args.push('-d', options.debug);
  // stdin stays an open pipe: the program also exits when it closes (e.g. if we die).
  const child: ChildProcess = spawn(avail.binary, args, { stdio: ['pipe', 'pipe', options.debug ? 'inherit' : 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr += String(d); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => { fail(new Error('mock cluster did not print its bootstrap servers in 10 s')); }, 10_000);
    const fail = (err: Error) => { clearTimeout(timer); rl.close(); child.kill('SIGKILL'); reject(err); };
    rl.once('line', (l) => { clearTimeout(timer); rl.close(); resolve(l.trim()); });
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`mock cluster exited early (${code ?? signal}): ${stderr}`)));
  });
  const brokers = line.split(',').map((hp) => {
    const i = hp.lastIndexOf(':');
    return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
  });
  const pid = child.pid!;
  let stopping: Promise<void> | undefined;
  return {
    bootstrap: line,
    brokers,
    pid,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM'); // ChildProcess.kill signals exactly child.pid
        const timer = setTimeout(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); }, 5000);
        await exited;
        clearTimeout(timer);
        child.stdin?.destroy();
      })();
      return stopping;
    },
  };
}
