// Every package.json entry of the packed package, as a user reaches it: imported from ESM and
// required from CommonJS with the same names, on the host Node and on Node 20.0.0 (the engines
// floor), 22 and 24 (the runtime matrix's binaries); one KafkaWireError and RecordsError class
// whichever entry threw; and the exports map itself: every entry has its CommonJS build and
// CommonJS-format types.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';
import { built, exportKeys, packAndInstall } from './packed.js';

const nodes: [string, string][] = [['host', process.execPath]];
// Node 20.0.0 is package.json's engines floor ("node": ">=20").
for (const [name, dir] of [['Node 20.0.0', 'node-20'], ['Node 22', 'node-22'], ['Node 24', 'node-24']]) {
  const bin = join(repoRoot, 'test', 'runtimes', 'node_modules', dir, 'bin', 'node');
  if (peer(name, existsSync(bin), 'npm --prefix test/runtimes ci')) nodes.push([name, bin]);
}

describe('package.json exports', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  it('gives every entry an import and a require condition, each with its types', () => {
    for (const [key, value] of Object.entries<any>(pkg.exports)) {
      if (key === './package.json' || key.endsWith('.wasm')) continue;
      // An entry written as { types, default } still gets its CommonJS build (scripts/bundle.mjs
      // reads the exports); it needs these two conditions to be reached:
      const esm = value.import?.default ?? value.default;
      const wanted = {
        import: { types: esm.replace(/\.js$/, '.d.ts'), default: esm },
        require: { types: esm.replace(/^\.\/dist\/(src|browser)\//, './dist/cjs/').replace(/\.js$/, '.d.cts'), default: esm.replace(/^\.\/dist\/(src|browser)\//, './dist/cjs/').replace(/\.js$/, '.cjs') },
      };
      if (key === './browser') wanted.import.types = './dist/src/browser.d.ts', wanted.require = { types: './dist/cjs/browser.d.cts', default: './dist/cjs/browser.cjs' };
      expect({ key, import: value.import, require: value.require }).toEqual({ key, ...wanted });
    }
  });
});

describe.skipIf(!built)('the packed package, entry by entry', () => {
  let dir = '';
  beforeAll(() => {
    ({ dir } = packAndInstall('kafka-wire-entries-'));
  }, 180_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, node] of nodes) {
    it(`${name}: every entry imports from ESM and requires from CommonJS, with the same names`, () => {
      writeFileSync(join(dir, 'entries.mjs'), `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const entry of ${JSON.stringify(exportKeys())}) {
  const esm = Object.keys(await import(entry)).filter((k) => k !== 'default').sort();
  const cjs = Object.keys(require(entry)).filter((k) => k !== 'default' && k !== '__esModule').sort();
  out[entry] = { esm, cjs };
}
console.log(JSON.stringify(out));`);
      const out: Record<string, { esm: string[]; cjs: string[] }> = JSON.parse(execFileSync(node, ['entries.mjs'], { cwd: dir }).toString());
      expect(Object.keys(out)).toEqual(exportKeys());
      for (const [entry, { esm, cjs }] of Object.entries(out)) {
        expect(esm.length, entry).toBeGreaterThan(0);
        expect(cjs, entry).toEqual(esm);
      }
    });

    it(`${name}: one KafkaWireError and RecordsError whichever entry threw, in CommonJS and in ESM`, () => {
      const probe = (load: (entry: string) => string, recordsFrom: string) => `
const root = ${load('kafka-wire')}, core = ${load('kafka-wire/core')}, explain = ${load('kafka-wire/explain')};
const records = ${load('kafka-wire/records')}, other = ${load(recordsFrom)}, metadata = ${load('kafka-wire/apis/Metadata')};
const thrown = (f) => { try { f(); } catch (e) { return e; } throw new Error('did not throw'); };
const frame = root.sampleFrame(3, 'request', 12);
const fromCore = thrown(() => core.decodeRequestFor(metadata.metadataApi, frame.subarray(0, 9)));
const fromExplain = thrown(() => explain.buildExplainTree(frame.subarray(0, 9), { direction: 'request' }));
const batch = records.encodeRecordBatch({ records: [{ value: 'x' }] });
batch[20] ^= 1;
const fromOther = thrown(() => other.decodeRecordBatches(batch));
console.log(JSON.stringify([
  fromCore instanceof root.KafkaWireError, fromExplain instanceof root.KafkaWireError, fromCore.constructor === fromExplain.constructor,
  fromCore.code, fromOther instanceof records.RecordsError, fromOther.code,
]));`;
      // CommonJS: kafka-wire/browser is built from the same modules as every other entry. ESM:
      // kafka-wire/browser is the self-contained browser bundle, so the records come from the wire entry's peer.
      writeFileSync(join(dir, 'identity.cjs'), probe((e) => `require('${e}')`, 'kafka-wire/browser'));
      writeFileSync(join(dir, 'identity.mjs'), probe((e) => `await import('${e}')`, 'kafka-wire/records'));
      for (const file of ['identity.cjs', 'identity.mjs']) {
        expect(JSON.parse(execFileSync(node, [file], { cwd: dir }).toString()), file).toEqual([true, true, true, 'FRAME_SIZE_MISMATCH', true, 'CRC_MISMATCH']);
      }
    });
  }
});
