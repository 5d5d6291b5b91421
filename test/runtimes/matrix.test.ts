// The runtime matrix: smoke.mjs run by Node 22 and 24, Bun, Deno (cli.mjs), workerd, Chromium and
// Firefox (web.mjs bundled under their package.json conditions). The host Node makes the golden
// output first; each runtime checks itself against it, and its own Fetch bytes are decoded here.
// Every cell must pass, or be a typed refusal this file expects; docs/runtimes.md carries the table.
// The admin, produce and consume cells create a topic with the Admin client, then run the Producer
// and a group Consumer (1,000 records each way)
// against one real Kafka 4.4 shared by every runtime (its own topic and group each): Node, Bun and
// Deno over TCP, workerd over cloudflare:sockets, the browsers through one kafka-wire bridge.
// The runtimes: `npm --prefix test/runtimes ci` (npm registry) and Debian's chromium, firefox-esr.
import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as R from '../../src/records/index.js';
import { decodeResponse } from '../../src/index.js';
import { peer } from '../helpers/peer.js';
import { kafkaPeer, useKafka, type RealKafka } from '../helpers/kafka.js';
import { startBridge, type KafkaBridge } from '../../src/wire/bridge.js';
import { repoRoot } from '../helpers/shared.js';
import { CHECKS } from './smoke.mjs';

const here = join(repoRoot, 'test', 'runtimes');
const bins = join(here, 'node_modules');
const out = join(repoRoot, 'test-artifacts', 'runtimes');
const capturePath = join(repoRoot, 'test', 'capture', 'fixtures', 'kafkajs-memory-broker.pcap');
const NPM_INSTALL = 'npm --prefix test/runtimes ci';

type Kind = 'cli' | 'workerd' | 'browser';
interface Runtime { name: string; kind: Kind; command: string[]; install: string }
const RUNTIMES: Runtime[] = [
  // package.json's engines floor: "node": ">=20" holds from the first Node 20 on.
  { name: 'Node 20.0.0', kind: 'cli', command: [join(bins, 'node-20', 'bin', 'node')], install: NPM_INSTALL },
  { name: 'Node 22', kind: 'cli', command: [join(bins, 'node-22', 'bin', 'node')], install: NPM_INSTALL },
  { name: 'Node 24', kind: 'cli', command: [join(bins, 'node-24', 'bin', 'node')], install: NPM_INSTALL },
  { name: 'Bun', kind: 'cli', command: [join(bins, '@oven', 'bun-linux-x64', 'bin', 'bun')], install: NPM_INSTALL },
  { name: 'Deno', kind: 'cli', command: [join(bins, '@deno', 'linux-x64-glibc', 'deno'), 'run', '--no-lock', '--allow-read', '--allow-net', '--allow-env', '--allow-sys'], install: NPM_INSTALL },
  { name: 'workerd', kind: 'workerd', command: [join(bins, '@cloudflare', 'workerd-linux-64', 'bin', 'workerd')], install: NPM_INSTALL },
  { name: 'Chromium', kind: 'browser', command: ['/usr/bin/chromium', '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'], install: 'apt-get install chromium' },
  { name: 'Firefox ESR', kind: 'browser', command: ['/usr/bin/firefox-esr', '--headless', '--no-remote'], install: 'apt-get install firefox-esr' },
];

/**
 * The refusals expected, by runtime and check: the typed error's message must name the runtime
 * and contain the feature. Anything else that is not a pass fails.
 */
const TCP = 'TCP sockets (node:net)';
const WASM = 'WebAssembly compilation from bytes at run time';
const REFUSALS: Record<string, Partial<Record<string, { runtime: string; feature: string }>>> = {
  // A page or a Worker cannot listen: the memory broker (a TCP server) refuses there.
  Chromium: { 'memory broker': { runtime: 'Chrome/', feature: TCP } },
  'Firefox ESR': { 'memory broker': { runtime: 'Firefox/', feature: TCP } },
  // The codec and records run there from precompiled modules (init({ codec, records })), zstd
  // through nodejs_compat's node:zlib; without those modules every check would refuse (WASM).
  workerd: { 'memory broker': { runtime: 'Cloudflare-Workers', feature: TCP } },
};

/** How the table names a refusal's missing feature. */
const SHORT: [string, string][] = [[TCP, 'no TCP'], [WASM, 'no wasm compile']];

interface Result { check: string; status: 'pass' | 'fail' | 'refused' | 'skipped'; detail: string }
interface Run { results: Result[]; produced: Record<string, string> }

const built = existsSync(join(repoRoot, 'dist', 'src', 'index.js')) && existsSync(join(repoRoot, 'dist', 'browser', 'kafka-wire.js'));
if (!built) console.warn('SKIPPED: the runtime matrix needs `npm run build` first');

const available = (r: Runtime) => peer(r.name, existsSync(r.command[0]), r.install);
const ready = RUNTIMES.filter((r) => built && available(r));

/** Real Kafka for the produce and consume cells (skipped, by the peer rule, where it cannot run). */
const kafkaOk = ready.length > 0 && await kafkaPeer();
const kafka: (() => RealKafka) | undefined = kafkaOk ? useKafka() : undefined;
/** The one bridge every page reaches Kafka through. */
let bridge: KafkaBridge | undefined;
const KAFKA_CHECKS = ['admin', 'produce', 'consume'];

/** A runtime's own topic (its admin check creates it, 3 partitions) and group on the shared Kafka, as the suite takes them. */
function kafkaFor(runtime: Runtime): { bootstrap: string; topic: string; groupId: string; version: string; bridge?: string } | undefined {
  if (kafka === undefined) return undefined;
  const k = kafka();
  const slug = runtime.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const topic = `matrix-${slug}`;
  return { bootstrap: k.bootstrap, topic, groupId: `matrix-${slug}`, version: k.version, ...(runtime.kind === 'browser' ? { bridge: bridge!.url } : {}) };
}

const table = new Map<string, Result[]>();
let goldenFile = '';
let webDir = '';

beforeAll(async () => {
  if (ready.length === 0) return;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // The host Node's run is the golden (and must itself pass everything).
  // (No Kafka for it: the produce and consume cells are each runtime's own, decoded by nobody else.)
  const node: Run = JSON.parse(execFileSync(process.execPath, [join(here, 'cli.mjs'), capturePath], { maxBuffer: 64 << 20 }).toString());
  for (const r of node.results) expect(r, r.check).toMatchObject({ status: KAFKA_CHECKS.includes(r.check) ? 'skipped' : 'pass' });
  if (kafka !== undefined && ready.some((r) => r.kind === 'browser')) {
    const [host, port] = kafka().bootstrap.split(',')[0].split(':');
    bridge = await startBridge({ listen: { host: '127.0.0.1', port: 0 }, bootstrap: [{ host, port: Number(port) }], allowedOrigins: ['*'] });
  }
  goldenFile = join(out, 'golden.json');
  writeFileSync(goldenFile, JSON.stringify(node.produced));
  // The web bundles resolve kafka-wire as a user's app does: through package.json's exports.
  const modules = join(out, 'node_modules');
  mkdirSync(modules);
  symlinkSync(repoRoot, join(modules, 'kafka-wire'), 'dir');
  webDir = join(out, 'web');
  for (const [dir, conditions, splitting] of [['browser', ['browser'], true], ['workerd', ['workerd', 'worker', 'browser'], false]] as const) {
    await build({
      entryPoints: [join(here, 'web.mjs')], outdir: join(webDir, dir), bundle: true, format: 'esm', platform: 'browser',
      conditions: [...conditions], splitting, nodePaths: [modules], logLevel: 'warning', target: 'es2022',
    });
    copyFileSync(join(repoRoot, 'dist', 'browser', 'zstd.wasm'), join(webDir, dir, 'zstd.wasm'));
  }
}, 120_000);

afterAll(async () => {
  await bridge?.close();
  if (table.size === 0) return;
  const markdown = matrixTable(table);
  writeFileSync(join(out, 'matrix.md'), markdown);
  console.log(markdown);
  // The guide's table is this run's when every runtime ran, Kafka's cells too.
  if (table.size === RUNTIMES.length && kafka !== undefined) {
    const guide = readFileSync(join(repoRoot, 'docs', 'runtimes.md'), 'utf8');
    expect(guide.includes(markdown), 'docs/runtimes.md must carry the table in test-artifacts/runtimes/matrix.md').toBe(true);
  }
});

/** The runtimes table (docs/runtimes.md): a row per runtime, a column per check. */
function matrixTable(rows: Map<string, Result[]>): string {
  const cell = (r: Result | undefined) => r === undefined ? '–'
    : r.status === 'pass' ? (r.check === 'zstd' ? `✓ (${r.detail.split(' ').at(-1)})` : '✓')
      : r.status === 'refused' ? `refused: ${SHORT.find(([feature]) => r.detail.includes(feature))?.[1] ?? '?'}`
        : r.status === 'skipped' ? 'skipped' : '✗';
  const lines = [`| runtime | ${CHECKS.join(' | ')} |`, `|---|${CHECKS.map(() => '---').join('|')}|`];
  for (const runtime of RUNTIMES) {
    const results = rows.get(runtime.name);
    if (results !== undefined) lines.push(`| ${runtime.name} | ${CHECKS.map((c) => cell(results.find((r) => r.check === c))).join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

/** Runs the suite in one runtime, by its kind. */
async function runIn(runtime: Runtime): Promise<Run> {
  const target = kafkaFor(runtime);
  const kafkaFile = join(out, `kafka-${runtime.name.replace(/\W+/g, '-')}.json`);
  writeFileSync(kafkaFile, JSON.stringify(target ?? null));
  if (runtime.kind === 'cli') {
    const [command, ...args] = runtime.command;
    return JSON.parse(await new Promise<string>((resolve, reject) => execFile(command, [...args, join(here, 'cli.mjs'), capturePath, goldenFile, ...(target ? [kafkaFile] : [])],
      { cwd: repoRoot, maxBuffer: 64 << 20, timeout: 120_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)))));
  }
  return runtime.kind === 'workerd' ? runInWorkerd(runtime, kafkaFile) : runInBrowser(runtime, kafkaFile);
}

/** Serves the browser bundle, the golden and the capture, and takes the page's result by POST. */
async function runInBrowser(runtime: Runtime, kafkaFile: string): Promise<Run> {
  const dir = join(webDir, 'browser');
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><script type="module">
const post = (body) => fetch('/result', { method: 'POST', body });
try {
  const { run } = await import('./web.js');
  const golden = await (await fetch('/golden.json')).json();
  const capture = new Uint8Array(await (await fetch('/capture.pcap')).arrayBuffer());
  const kafka = (await (await fetch('/kafka.json')).json()) ?? undefined;
  await post(JSON.stringify(await run(golden, capture, undefined, kafka)));
} catch (error) { await post(JSON.stringify({ crash: String(error?.stack ?? error) })); }
</script>`);
  const files: Record<string, string> = { '/golden.json': goldenFile, '/capture.pcap': capturePath, '/kafka.json': kafkaFile };
  let resolve!: (text: string) => void;
  const posted = new Promise<string>((r) => { resolve = r; });
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => { res.end('ok'); resolve(Buffer.concat(chunks).toString()); });
      return;
    }
    const path = files[req.url!] ?? join(dir, req.url === '/' ? 'index.html' : req.url!.slice(1));
    if (!path.startsWith(dir) && !Object.values(files).includes(path) || !existsSync(path)) { res.writeHead(404).end(); return; }
    const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.html') ? 'text/html' : path.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const profile = mkdtempSync(join(tmpdir(), 'kafka-wire-runtime-'));
  const [command, ...args] = runtime.command;
  const profileArgs = runtime.name.startsWith('Firefox') ? ['--profile', profile] : [`--user-data-dir=${profile}`];
  if (runtime.name.startsWith('Firefox')) {
    // No first-run pages, updates or telemetry on a closed network.
    writeFileSync(join(profile, 'user.js'), ['browser.shell.checkDefaultBrowser', 'datareporting.policy.dataSubmissionEnabled', 'toolkit.telemetry.enabled',
      'app.update.enabled', 'browser.startup.homepage_override.mstone', 'extensions.update.enabled']
      .map((p) => `user_pref("${p}", ${p.endsWith('mstone') ? '"ignore"' : 'false'});`).join('\n'));
  }
  // Its own process group, so that the browser's helper processes end with it.
  const child: ChildProcess = spawn(command, [...args, ...profileArgs, url], { stdio: 'ignore', detached: true, env: { ...process.env, MOZ_HEADLESS: '1' } });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const text = await Promise.race([posted, new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`${runtime.name} posted nothing in 90 s`)), 90_000))]);
    const run = JSON.parse(text);
    if (run.crash !== undefined) throw new Error(`${runtime.name}: ${run.crash}`);
    return run;
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    await exited;
    server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** workerd serves the bundle as a module worker; the golden and capture are modules beside it. */
async function runInWorkerd(runtime: Runtime, kafkaFile: string): Promise<Run> {
  const dir = join(webDir, 'workerd');
  copyFileSync(goldenFile, join(dir, 'golden.json'));
  copyFileSync(kafkaFile, join(dir, 'kafka.json'));
  copyFileSync(capturePath, join(dir, 'capture.pcap'));
  // What a worker imports from kafka-wire/wasm/*.wasm: the modules precompiled, given to init().
  for (const name of ['codec', 'records']) copyFileSync(join(repoRoot, 'dist', 'browser', `${name}.wasm`), join(dir, `${name}.wasm`));
  writeFileSync(join(dir, 'worker.mjs'), `import { run } from './web.js';
import golden from './golden.json';
import capture from './capture.pcap';
import codec from './codec.wasm';
import records from './records.wasm';
import kafka from './kafka.json';
export default { async fetch() { return new Response(JSON.stringify(await run(golden, new Uint8Array(capture), { codec, records }, kafka ?? undefined))); } };`);
  writeFileSync(join(dir, 'bare.mjs'), `import { firstUse } from './web.js';
export default { async fetch() { return new Response(JSON.stringify(await firstUse())); } };`);
  const port = await freePort();
  const barePort = await freePort();
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .smoke), (name = "bare", worker = .bare),
    # cloudflare:sockets' connect() goes out through this: Kafka listens on 127.0.0.1 ("local").
    (name = "net", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:${port}", http = (), service = "main"),
    (name = "bare", address = "127.0.0.1:${barePort}", http = (), service = "bare"),
  ],
);
const bare :Workerd.Worker = (
  modules = [ (name = "bare.mjs", esModule = embed "bare.mjs"), (name = "web.js", esModule = embed "web.js") ],
  compatibilityDate = "2024-01-01",
);
const smoke :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "web.js", esModule = embed "web.js"),
    (name = "golden.json", json = embed "golden.json"),
    (name = "kafka.json", json = embed "kafka.json"),
    (name = "capture.pcap", data = embed "capture.pcap"),
    (name = "codec.wasm", wasm = embed "codec.wasm"),
    (name = "records.wasm", wasm = embed "records.wasm"),
  ],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "net",
);
`);
  const [command] = runtime.command;
  const child = spawn(command, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => { stderr += c; });
  /** The worker's answer, once workerd listens. */
  const answer = async (port: number): Promise<string> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        const text = await response.text();
        if (response.ok) return text;
        throw new Error(`workerd answered ${response.status}: ${text.slice(0, 500)}`);
      } catch (error) {
        if (attempt >= 100 || child.exitCode !== null || (error as Error).message.startsWith('workerd answered')) throw new Error(`${(error as Error).message}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  try {
    const run = JSON.parse(await answer(port));
    // A worker (its own isolate; a compatibility date before Node APIs were on by default, so no
    // node:zlib) that never calls init(): the codec's first use and initZstd() refuse, typed.
    const refusal = {
      name: 'KafkaWireError', code: 'UNSUPPORTED_RUNTIME', typed: true,
      message: expect.stringMatching(/^UNSUPPORTED_RUNTIME: Cloudflare-Workers has no WebAssembly compilation from bytes at run time/),
    };
    expect(JSON.parse(await answer(barePort))).toEqual({ codec: refusal, zstd: refusal });
    return run;
  } finally {
    child.kill('SIGKILL');
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The runtime's own Fetch frames, decoded here in Node: the same records. */
function checkProducedInNode(run: Run): void {
  const node: Record<string, string> = JSON.parse(readFileSync(goldenFile, 'utf8'));
  for (const key of ['fetch', 'zstd'] as const) {
    if (run.produced[key] === undefined) continue;
    const decode = (hex: string) => decodeResponse(Buffer.from(hex, 'hex'), 1, 12).body.responses[0].partitions
      .map((p) => R.decodeRecordBatches(p.records!).batches[0].records.map((r) => [Buffer.from(r.key!).toString(), Buffer.from(r.value!).toString()]));
    expect(decode(run.produced[key]), key).toEqual(decode(node[key]));
  }
}

describe.skipIf(ready.length === 0)('the runtime matrix', () => {
  for (const runtime of ready) {
    it(`${runtime.name}: every check passes or is the expected typed refusal`, async () => {
      const run = await runIn(runtime);
      table.set(runtime.name, run.results);
      expect(run.results.map((r) => r.check)).toEqual(CHECKS);
      for (const result of run.results) {
        const refusal = REFUSALS[runtime.name]?.[result.check];
        if (KAFKA_CHECKS.includes(result.check) && kafka === undefined) {
          expect(result, `${runtime.name} ${result.check}`).toMatchObject({ status: 'skipped' });
        } else if (refusal === undefined) {
          expect(result, `${runtime.name} ${result.check}: ${result.detail}`).toMatchObject({ status: 'pass' });
        } else {
          expect(result.status, `${runtime.name} ${result.check}: ${result.detail}`).toBe('refused');
          expect(result.detail).toContain(refusal.runtime);
          expect(result.detail).toContain(refusal.feature);
        }
      }
      checkProducedInNode(run);
    }, 180_000);
  }

  it('kafka-wire/wire for browsers and workerd exports the names the Node entry does', async () => {
    const names = (m: object) => Object.keys(m).sort();
    expect(names(await import('../../src/wire/browser.js'))).toEqual(names(await import('../../src/wire/index.js')));
    expect(names(await import('../../src/explain/browser.js'))).toEqual(names(await import('../../src/explain/index.js')));
    expect(names(await import('../../src/catalogue/browser.js'))).toEqual(names(await import('../../src/catalogue/node.js')));
  });
});

