// The public types checked by the TypeScript compiler: every snippet under pass/ and every example
// of the README and docs/*.md compiles in a strict NodeNext project, and every line of fail/ marked `// TS<code> <text>`
// fails with that code and a message containing the text, while no unmarked line fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docBlocks } from '../helpers/readme.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');

interface Diagnostic { file: string; line: number; code: string; message: string }

/** One tsc run over the fixture project, diagnostics grouped by file (relative to test/types). */
function compile(): Diagnostic[] {
  const run = spawnSync(tsc, ['-p', join(here, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8', cwd: root });
  if (run.error) throw run.error;
  const diagnostics: Diagnostic[] = [];
  for (const line of run.stdout.split('\n')) {
    const m = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (m !== null) diagnostics.push({ file: m[1].replace(/^.*test\/types\//, ''), line: Number(m[2]), code: m[3], message: m[4] });
    else if (line.startsWith(' ') && diagnostics.length > 0) diagnostics[diagnostics.length - 1].message += `\n${line.trim()}`;
    else if (line.trim() !== '') throw new Error(`unexpected tsc output: ${line}`);
  }
  return diagnostics;
}

const readmeDir = join(here, 'readme-blocks');
rmSync(readmeDir, { recursive: true, force: true });
mkdirSync(readmeDir);
docBlocks.forEach((block) => writeFileSync(join(readmeDir, `${block.id}.ts`), block.source));
let diagnostics: Diagnostic[];
try {
  diagnostics = compile();
} finally {
  rmSync(readmeDir, { recursive: true, force: true });
}
const inFile = (file: string) => diagnostics.filter((d) => d.file === file);

describe('must-pass snippets', () => {
  for (const name of readdirSync(join(here, 'pass'))) {
    it(name, () => {
      expect(inFile(`pass/${name}`).map((d) => `${d.line}: ${d.code} ${d.message}`)).toEqual([]);
    });
  }
});

describe('docs examples', () => {
  docBlocks.forEach((block) => {
    it(`compiles without any: ${block.title}`, () => {
      expect(inFile(`readme-blocks/${block.id}.ts`).map((d) => `${d.line}: ${d.code} ${d.message}`)).toEqual([]);
      expect(block.text, 'a docs example typed any').not.toMatch(/:\s*any\b|\bas any\b|<any\b/);
    });
  });
});

describe('must-fail snippets', () => {
  for (const name of readdirSync(join(here, 'fail'))) {
    it(name, () => {
      const expected = new Map<number, { code: string; text: string }>();
      readFileSync(join(here, 'fail', name), 'utf8').split('\n').forEach((text, i) => {
        const m = /\/\/ (TS\d+) (.*)$/.exec(text);
        if (m !== null) expected.set(i + 1, { code: m[1], text: m[2] });
      });
      expect(expected.size).toBeGreaterThan(0);
      const found = inFile(`fail/${name}`);
      expect(found.filter((d) => !expected.has(d.line)).map((d) => `unexpected at ${d.line}: ${d.code} ${d.message}`)).toEqual([]);
      for (const [line, { code, text }] of expected) {
        const here = found.filter((d) => d.line === line);
        expect(here.map((d) => d.code), `line ${line}`).toContain(code);
        expect(here.some((d) => d.code === code && d.message.includes(text)), `line ${line}: ${text}\n${here.map((d) => d.message).join('\n')}`).toBe(true);
      }
    });
  }
});
