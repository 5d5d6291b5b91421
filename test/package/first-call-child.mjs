// Runs one exported function of one entry of the built package as the first call of a fresh
// process (test/package/first-call.test.ts starts one of these per export): prints "ok", or the
// error with its stack, so a path that assumes some other call came first shows up.
// argv: entry file URL (.cjs: required), export name, the call's source (an async function body over `m` and `I`),
// the inputs as JSON (hex strings and paths).
const [entry, name, source, inputsJson] = process.argv.slice(2);
const hex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const I = Object.fromEntries(Object.entries(JSON.parse(inputsJson)).map(([k, v]) => [k, typeof v === 'string' && k.endsWith('Hex') ? hex(v) : v]));
// A CommonJS entry is required, as a CommonJS user loads it.
const m = entry.endsWith('.cjs') ? (await import('node:module')).createRequire(import.meta.url)(new URL(entry).pathname) : await import(entry);
if (m[name] === undefined) {
  console.log(`no export ${name}`);
  process.exit(1);
}
try {
  const run = new Function('m', 'I', `return (async () => { ${source} })();`);
  await run(m, I);
  console.log('ok');
} catch (error) {
  console.log(`${name}: ${error?.stack ?? String(error)}`);
  process.exitCode = 1;
}
