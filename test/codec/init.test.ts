// init() as a process's first call: with no argument it compiles both engines asynchronously; with
// precompiled modules (what workerd gives, where nothing compiles from bytes) it uses them and
// compiles nothing. Each case runs in a fresh Node process on the built package.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import { peer } from '../helpers/peer.js';

const dist = join(repoRoot, 'dist');
const built = peer('the built package (dist/)', existsSync(join(dist, 'browser', 'codec.wasm')), 'npm run build');

function run(source: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: repoRoot, encoding: 'utf8' }).trim();
}

const roundTrip = `
  const frame = encodeRequest({ requestApiKey: 3, requestApiVersion: 12, correlationId: 7, clientId: 'c' }, { topics: null });
  const batch = encodeRecordBatch({ baseTimestamp: 0, compression: 'lz4', records: [{ key: 'k', value: 'v' }] });
  console.log(decodeRequest(frame).header.correlationId, new TextDecoder().decode(decodeRecordBatches(batch).batches[0].records[0].value));`;

describe.skipIf(!built)('init()', () => {
  it('as the first call, compiles both engines and the codec and records then work', () => {
    expect(run(`
      import { init, encodeRequest, decodeRequest } from './dist/src/index.js';
      import { encodeRecordBatch, decodeRecordBatches } from './dist/src/records/index.js';
      await init();
      await init(); // a second call is a no-op
      ${roundTrip}`)).toBe('7 v');
  });

  it('with precompiled modules, compiles nothing from bytes', () => {
    expect(run(`
      import { readFileSync } from 'node:fs';
      const codec = new WebAssembly.Module(readFileSync('dist/browser/codec.wasm'));
      const records = new WebAssembly.Module(readFileSync('dist/browser/records.wasm'));
      // From here on, as in workerd: compiling from bytes fails.
      const refuse = () => { throw new WebAssembly.CompileError('Wasm code generation disallowed by embedder'); };
      WebAssembly.Module = function () { refuse(); };
      WebAssembly.compile = async () => refuse();
      const { init, encodeRequest, decodeRequest } = await import('./dist/src/index.js');
      const { encodeRecordBatch, decodeRecordBatches } = await import('./dist/src/records/index.js');
      await init({ codec, records });
      ${roundTrip}`)).toBe('7 v');
  });

  it('without them where nothing compiles, refuses with the typed error naming the runtime', () => {
    expect(run(`
      const refuse = () => { throw new WebAssembly.CompileError('Wasm code generation disallowed by embedder'); };
      WebAssembly.Module = function () { refuse(); };
      WebAssembly.compile = async () => refuse();
      WebAssembly.instantiate = async () => refuse();
      const { init, KafkaWireError } = await import('./dist/src/index.js');
      try { await init(); console.log('no error'); } catch (e) { console.log(e instanceof KafkaWireError, e.code, /has no WebAssembly compilation from bytes/.test(e.message)); }`))
      .toBe('true UNSUPPORTED_RUNTIME true');
  });
});
