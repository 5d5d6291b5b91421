// Rebuilds zstd's decompressor for WebAssembly (wasm32, SIMD, bulk memory, -Os) into
// scripts/zstd/decoder.json, which is committed: `npm run build` only embeds it
// (scripts/embed-zstd.mjs), so a machine with only Node and npm never needs this script.
//
//   node scripts/build-zstd.mjs [--source DIR]
//
// Sources: zstd's single-file library (zstd.c, zstd.h, zstd_errors.h) as carried by PyPI's
// `zstandard` sdist (pinned below, checked by hash and fetched with pip), or DIR holding those three
// files. Compiler: Debian's clang (clang-19 preferred) with lld and wasi-libc for malloc and
// string.h: apt-get install clang-19 lld-19 wasi-libc (or clang lld wasi-libc).
// Why -Os: as fast as -O2/-O3 here on the bench's inputs (within noise) and 15 KB smaller; builds
// with only Huffman's X1 decoder or -Oz are smaller still but 10-20% slower on some inputs.
// Why ZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT: Kafka's batches are far below the window sizes where
// zstd's long-offset sequence path pays; leaving it out saves 9 KB of wasm (below the zstddec
// build this replaced, so a Fetch consumer's bundle does not grow) for 2-4% of speed.
// Why --compress-relocations: lld otherwise leaves every relocated LEB in the code padded to five
// bytes; compressed, the module is 1.5 KB smaller (50.2 KB) with the same instructions (wasm-dis
// prints both identically).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArgs } from './lib/args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SDIST = { name: 'zstandard', version: '0.23.0', sha256: 'b2d8c62d08e7255f68f7a740bae85b3c9b8e5466baa9cbf7f57f1cde0ac6bc09' };
const OUT = join(root, 'scripts', 'zstd', 'decoder.json');
// The amalgamation turns on multithreading (pthread.h) outside Emscripten; a decoder needs none.
const MULTITHREAD = '#ifndef __EMSCRIPTEN__\n#define ZSTD_MULTITHREAD\n#endif';
const FLAGS = ['-Os', '-msimd128', '-mbulk-memory', '-DNDEBUG', '-DZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT'];

let source;
readArgs('build-zstd', process.argv.slice(2), 'node scripts/build-zstd.mjs [--source DIR]', { '--source': (v) => { source = v; } });
const work = mkdtempSync(join(tmpdir(), 'kw-zstd-'));
try {
  const dir = source ?? fetchSdist(work);
  const zstdC = readFileSync(join(dir, 'zstd.c'), 'utf8');
  if (!zstdC.includes(MULTITHREAD)) throw new Error(`${dir}/zstd.c: the multithreading switch was not found (a different zstd.c layout?)`);
  writeFileSync(join(work, 'zstd.c'), zstdC.replace(MULTITHREAD, ''));
  for (const h of ['zstd.h', 'zstd_errors.h']) writeFileSync(join(work, h), readFileSync(join(dir, h)));
  const version = /#define ZSTD_VERSION_MAJOR\s+(\d+)[\s\S]*?#define ZSTD_VERSION_MINOR\s+(\d+)[\s\S]*?#define ZSTD_VERSION_RELEASE\s+(\d+)/
    .exec(readFileSync(join(dir, 'zstd.h'), 'utf8')).slice(1).join('.');
  const { clang, ld, resourceInclude } = compiler();
  const wasmPath = join(work, 'decoder.wasm');
  execFileSync(clang, ['--target=wasm32-wasi', ...FLAGS, '-nostdinc', '-isystem', resourceInclude, '-isystem', '/usr/include/wasm32-wasi',
    '-L/usr/lib/wasm32-wasi', `-I${work}`, '-mexec-model=reactor', `-fuse-ld=${ld}`, '-Wl,--export=malloc,--export=free,--strip-all,--compress-relocations',
    '-o', wasmPath, join(root, 'scripts', 'zstd', 'entry.c'), join(work, 'zstd.c')], { stdio: ['ignore', 'inherit', 'pipe'] });
  const wasm = readFileSync(wasmPath);
  const module = new WebAssembly.Module(wasm);
  const imports = WebAssembly.Module.imports(module);
  if (imports.length) throw new Error(`the decoder imports ${imports.map((i) => `${i.module}.${i.name}`).join()}: expected none`);
  const compilerVersion = execFileSync(clang, ['--version'], { encoding: 'utf8' }).split('\n')[0];
  writeFileSync(OUT, `${JSON.stringify({
    about: "zstd's decompressor (BSD-3-Clause, Meta Platforms) for wasm32, built by scripts/build-zstd.mjs; embedded by scripts/embed-zstd.mjs",
    zstd: version, from: source ? 'local sources' : `${SDIST.name} ${SDIST.version} sdist`, compiler: compilerVersion, flags: FLAGS.join(' '),
    sha256: createHash('sha256').update(wasm).digest('hex'), bytes: wasm.length, base64: wasm.toString('base64'),
  }, null, 1)}\n`);
  console.log(`zstd ${version}: ${wasm.length} bytes of wasm -> ${OUT}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Downloads the pinned sdist with pip, checks its hash, unpacks it; returns its zstd/ folder. */
function fetchSdist(work) {
  execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--no-binary', ':all:', '--dest', work,
    `${SDIST.name}==${SDIST.version}`], { stdio: 'inherit' });
  const file = join(work, `${SDIST.name}-${SDIST.version}.tar.gz`);
  const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (hash !== SDIST.sha256) throw new Error(`${file}: sha256 ${hash}, expected ${SDIST.sha256}`);
  execFileSync('tar', ['-xzf', file, '-C', work, `${SDIST.name}-${SDIST.version}/zstd`]);
  return join(work, `${SDIST.name}-${SDIST.version}`, 'zstd');
}

/** Debian's clang and lld for wasm32 (the newest installed), and clang's own header folder. */
function compiler() {
  for (const suffix of ['-19', '-18', '-17', '-16', '']) {
    const clang = `/usr/bin/clang${suffix}`;
    const ld = `/usr/bin/wasm-ld${suffix}`;
    if (!existsSync(clang) || !existsSync(ld)) continue;
    const resourceDir = execFileSync(clang, ['-print-resource-dir'], { encoding: 'utf8' }).trim();
    if (!existsSync('/usr/include/wasm32-wasi/stdlib.h')) break;
    return { clang, ld, resourceInclude: join(resourceDir, 'include') };
  }
  throw new Error('needs clang, lld and wasi-libc: apt-get install clang-19 lld-19 wasi-libc');
}
