// Editor cost of the public types: tsc time and memory for a small strict NodeNext project that
// imports the whole API (by key, the core, two definitions) from this checkout's built package,
// against the same project over another built checkout (--base DIR), in interleaved pairs; with
// skipLibCheck (as `tsc --init` writes it) and without (the package's .d.ts checked too).
//   node bench/editor-cost.mjs --base /path/to/other/checkout [--rounds 10]
// Both packages must be built (npm run build); the same tsc (this checkout's) checks both.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quartiles } from './lib/compression.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
}
const base = option('--base');
const rounds = Number(option('--rounds', '10'));
if (base === undefined) throw new Error('usage: node bench/editor-cost.mjs --base DIR [--rounds N]');

// What a user's first file does: calls by key with literal keys, a narrowing switch, records
// inline, the per-API entry. It compiles against the package before and after the types work.
const consumer = `import * as kw from 'kafka-wire';
import { ApiKey, decodeRequest, decodeResponse, encodeRequest, newMessage } from 'kafka-wire';
import { decodeResponseFor, encodeRequestFor } from 'kafka-wire/core';
import { metadataApi } from 'kafka-wire/apis/Metadata';
import { produceApi } from 'kafka-wire/apis/Produce';

const header = { requestApiKey: ApiKey.Produce, requestApiVersion: 9, correlationId: 1, clientId: 'app' };
const frame = encodeRequest(header, { acks: -1, timeoutMs: 1000, topicData: [{ name: 'orders', partitionData: [{ index: 0 }] }] });
encodeRequestFor(produceApi, header, { acks: 1 });
const request = decodeRequest(frame);
switch (request.apiKey) {
  case ApiKey.Produce: console.log(request.body.acks); break;
  case ApiKey.Metadata: console.log(request.body.topics?.length); break;
}
const metadata = decodeResponse(frame, ApiKey.Metadata, 12);
console.log(metadata.body.brokers.map((b) => b.host), decodeResponseFor(metadataApi, frame, 12).body.topics.length);
const fetched = decodeResponse(frame, ApiKey.Fetch, 12, { records: true });
console.log(fetched.body.responses.length, newMessage(ApiKey.Produce, 'request', 9, { acks: -1 }).acks, Object.keys(kw).length);
`;

/** A scratch project whose node_modules/kafka-wire is the package at `pkg`. */
function project(pkg, skipLibCheck) {
  const dir = mkdtempSync(join(tmpdir(), 'kw-editor-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(pkg, join(dir, 'node_modules', 'kafka-wire'));
  symlinkSync(join(root, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck, types: ['node'] },
    include: ['index.ts'],
  }));
  writeFileSync(join(dir, 'index.ts'), consumer);
  return dir;
}

/** One tsc run: total time (s) and memory (MB) from --extendedDiagnostics, and the error count. */
function measure(dir) {
  let out;
  try {
    out = execFileSync(process.execPath, [tsc, '-p', dir, '--extendedDiagnostics', '--pretty', 'false'], { encoding: 'utf8' });
  } catch (error) {
    out = error.stdout; // type errors: still measured, and counted
  }
  const number = (label) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out)?.[1]);
  return { seconds: number('Total time'), megabytes: number('Memory used') / 1024, errors: (out.match(/error TS\d+/g) ?? []).length };
}

const show = (q, digits) => `${q.median.toFixed(digits)} (${q.q1.toFixed(digits)}-${q.q3.toFixed(digits)})`;
console.log(`tsc ${execFileSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).trim()}, ${rounds} interleaved pairs, median (quartiles)`);
for (const skipLibCheck of [true, false]) {
  const sides = { head: project(root, skipLibCheck), base: project(resolve(base), skipLibCheck) };
  const runs = { head: [], base: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 === 0 ? ['base', 'head'] : ['head', 'base']) runs[side].push(measure(sides[side]));
    }
  } finally {
    for (const dir of Object.values(sides)) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`skipLibCheck ${skipLibCheck}:`);
  for (const side of ['base', 'head']) {
    const r = runs[side];
    console.log(`  ${side}: total ${show(quartiles(r.map((x) => x.seconds)), 2)} s, memory ${show(quartiles(r.map((x) => x.megabytes)), 0)} MB, errors ${r[0].errors}`);
  }
  const extra = quartiles(runs.head.map((x, i) => x.seconds - runs.base[i].seconds));
  console.log(`  extra time head - base, per pair: ${show(extra, 2)} s`);
}
