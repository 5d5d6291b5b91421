// One sha256 over the generated reader and writer source (generate.ts) of every message version
// of the built-in catalogue, request and response, header and body: run it before and after a
// change to the codec's walks that must leave the generated code byte-identical, after
// `npm run build`:
//
//   node scripts/generated-source-hash.mjs [dist/src] [--layout-free]
//
// --layout-free hashes the source without its whole-line // comments and with every run of white
// space as one space: for comparing across a change to the generated text's comments or layout only.
// The source is caught by wrapping the global Function constructor, which generate.ts calls.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const layoutFree = args.includes('--layout-free');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? new URL('../dist/src', import.meta.url).pathname);
const captured = [];
globalThis.Function = new Proxy(Function, {
  construct(target, args) {
    captured.push(args.join('\u0000')); // the parameter names too
    return Reflect.construct(target, args);
  },
});
const load = (path) => import(pathToFileURL(`${dir}/${path}`).href);
const { builtInCatalogue } = await load('catalogue/catalogue.js');
const { planForMessage } = await load('codec/plan.js');
const { generateReader, generateWriter } = await load('codec/generate.js');

const hash = createHash('sha256');
let sources = 0;
for (const api of builtInCatalogue.apis) {
  for (const message of [api.request, api.response]) {
    for (let version = message.validVersions[0]; version <= message.validVersions[1]; version++) {
      const plan = planForMessage(message, version);
      for (const struct of [plan.header, plan.body]) {
        for (const generate of [generateReader, generateWriter]) {
          captured.length = 0;
          generate(struct);
          if (captured.length !== 1) throw new Error(`expected one generated source, got ${captured.length}`);
          hash.update(layoutFree ? captured[0].replace(/^[ \t]*\/\/.*\n/gm, '').replace(/\s+/g, ' ').trim() : captured[0]);
          hash.update('\u0001');
          sources++;
        }
      }
    }
  }
}
console.log(`${sources} sources, sha256 ${hash.digest('hex')}`);
