// The packed package's types, as TypeScript users meet them: every entry imported from a .ts, an
// .mts and a .cts file under moduleResolution node16, nodenext and bundler, with TypeScript 5.9
// and 7, strict; TypeScript 7 under node16 also without skipLibCheck, so the shipped declarations
// (.d.ts for .ts and .mts, .d.cts for .cts) are checked themselves (thrice as slow). Typed calls
// compile; one misspelled field per file does not, which proves the check reads real types.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import { built, exportKeys, packAndInstall } from './packed.js';

const COMPILERS: [string, string][] = [
  ['TypeScript 5.9', join(repoRoot, 'node_modules', 'typescript-5.9', 'bin', 'tsc')],
  ['TypeScript 7', join(repoRoot, 'node_modules', '.bin', 'tsc')],
];
const RESOLUTIONS: [string, string][] = [['node16', 'node16'], ['nodenext', 'nodenext'], ['bundler', 'preserve']];

/** Every entry as a namespace (an entry added to package.json is checked unasked), then typed calls. */
const source = (importLine: (names: string, entry: string) => string) => [
  ...exportKeys().map((entry, i) => importLine(`* as entry${i}`, entry)),
  importLine('{ ApiKey, encodeRequest, decodeRequest, KafkaWireError }', 'kafka-wire'),
  importLine('{ encodeRequestFor }', 'kafka-wire/core'),
  importLine('{ produceApi }', 'kafka-wire/apis/Produce'),
  importLine('{ encodeRecordBatch, RecordsError }', 'kafka-wire/records'),
  importLine('{ decodeRecordBatches, initZstd }', 'kafka-wire/browser'),
  importLine('{ connect }', 'kafka-wire/wire'),
  importLine('{ buildExplainTree }', 'kafka-wire/explain'),
  importLine('{ readCapture }', 'kafka-wire/capture'),
  importLine('{ loadCatalogue }', 'kafka-wire/catalogue'),
  `export const entries: number = [${exportKeys().map((_, i) => `entry${i}`).join(', ')}].length;`,
  'const header = { requestApiKey: ApiKey.Produce, requestApiVersion: 3, correlationId: 1, clientId: null };',
  "const request = decodeRequest(encodeRequest(header, { acks: -1, topicData: [{ name: 't', partitionData: [{ index: 0 }] }] }));",
  'if (request.apiKey === ApiKey.Produce) console.log(request.body.acks.toFixed(0));',
  "encodeRequestFor(produceApi, header, { topicData: [{ name: 't' }] });",
  "const batches = decodeRecordBatches(encodeRecordBatch({ compression: 'lz4', records: [{ value: 'v' }] })).batches;",
  'const offset: bigint = batches[0].baseOffset;',
  'export const typed: [bigint, boolean, boolean, Promise<void>] = [offset, new Error() instanceof KafkaWireError, new Error() instanceof RecordsError, initZstd()];',
  "export const used = [connect, buildExplainTree, readCapture, loadCatalogue].map((f) => typeof f);",
  '// the one expected error:',
  'encodeRequest({ requestApiKey: ApiKey.Produce, requestApiVersion: 9, correlationId: 1, clientId: null }, { ackz: -1 });',
].join('\n') + '\n';
const MISTAKE_LINE = source(() => '').split('\n').findIndex((l) => l.includes('ackz')) + 1;

describe.skipIf(!built)('the packed package\'s types', () => {
  let dir = '';
  beforeAll(() => {
    ({ dir } = packAndInstall('kafka-wire-types-'));
    const esm = (names: string, entry: string) => `import ${names} from '${entry}';`;
    writeFileSync(join(dir, 'uses.ts'), source(esm));
    writeFileSync(join(dir, 'uses.mts'), source(esm));
    writeFileSync(join(dir, 'uses.cts'), source(esm)); // compiled to require() calls under node16 and nodenext
  }, 180_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const [compiler, tsc] of COMPILERS) {
    for (const [resolution, module] of RESOLUTIONS) {
      it(`${compiler}, moduleResolution ${resolution}: .ts, .mts and .cts see every entry's types`, () => {
        const config = join(dir, `tsconfig.${resolution}.json`);
        writeFileSync(config, JSON.stringify({
          compilerOptions: {
            module, moduleResolution: resolution, target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true,
            skipLibCheck: !(compiler === 'TypeScript 7' && resolution === 'node16'), types: ['node'], typeRoots: [join(repoRoot, 'node_modules', '@types')],
          },
          files: ['uses.ts', 'uses.mts', 'uses.cts'],
        }));
        let output = '';
        try {
          execFileSync(tsc, ['-p', config, '--pretty', 'false'], { cwd: dir, stdio: 'pipe' });
        } catch (error) {
          output = String((error as { stdout: Buffer }).stdout);
        }
        const errors = output.trim().split('\n').filter((l) => l !== '');
        expect(errors.map((l) => l.replace(/\(\d+,\d+\)/, (m) => m.replace(/,\d+/, '')).replace(/:.*?error (TS\d+).*/, ': $1')).sort()).toEqual(
          ['uses.cts', 'uses.mts', 'uses.ts'].map((f) => `${f}(${MISTAKE_LINE}): TS2353`));
        expect(errors.every((l) => l.includes("'ackz' does not exist"))).toBe(true);
      }, 120_000);
    }
  }
});
