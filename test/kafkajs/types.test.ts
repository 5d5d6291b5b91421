// kafka-wire/kafkajs's types against kafkajs 2.2.4's: the app in test/types/pass/kafkajs.ts
// (compiled against kafka-wire/kafkajs by test/types/types.test.ts) compiles unchanged against
// kafkajs's own declarations, and kafka-wire's additions stay out of what kafkajs accepts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const app = readFileSync(join(root, 'test/types/pass/kafkajs.ts'), 'utf8');
const OURS = "from '../../../src/kafkajs/index.js'";

function compile(files: Record<string, string>): string[] {
  const dir = join(root, 'test', 'kafkajs', `.types-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], isolatedModules: true },
      include: Object.keys(files),
    }));
    const run = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8', cwd: root });
    if (run.error) throw run.error;
    return run.stdout.split('\n').filter((l) => l.includes('error TS'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('kafka-wire/kafkajs\'s types', () => {
  it('the app written for kafka-wire/kafkajs compiles against kafkajs 2.2.4 too (the import the only change)', () => {
    expect(app).toContain(OURS);
    expect(compile({ 'app.ts': app.replace(OURS, "from 'kafkajs'") })).toEqual([]);
  }, 120_000);
});
