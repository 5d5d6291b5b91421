// The README's ```ts blocks, with their kafka-wire imports pointed at the sources, as the README
// test runs them and the type test compiles them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './shared.js';

export const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

const SUBPATHS: Record<string, string> = {
  'kafka-wire': 'src/index.ts',
  'kafka-wire/core': 'src/codec/by-definition.ts',
  'kafka-wire/records': 'src/records/index.ts',
  'kafka-wire/wire': 'src/wire/index.ts',
  'kafka-wire/explain': 'src/explain/index.ts',
  'kafka-wire/catalogue': 'src/catalogue/node.ts',
  'kafka-wire/capture': 'src/capture/index.ts',
  'kafka-wire/producer': 'src/producer/index.ts',
  'kafka-wire/consumer': 'src/consumer/index.ts',
};

export interface ReadmeBlock {
  /** The block's first comment line. */
  title: string;
  /** The block as written. */
  text: string;
  /** The block with every kafka-wire import an absolute path to its source file. */
  source: string;
}

export const readmeBlocks: ReadmeBlock[] = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => {
  const text = m[1];
  const source = text.replace(/from '(kafka-wire(?:\/[a-z]+|\/apis\/\w+)?)'/g, (_m, spec: string) => {
    const target = spec.startsWith('kafka-wire/apis/') ? `src/generated/apis/${spec.slice(16)}.ts` : SUBPATHS[spec];
    if (target === undefined) throw new Error(`README imports unknown ${spec}`);
    return `from '${join(repoRoot, target)}'`;
  });
  const title = text.split('\n').find((l) => l.startsWith('//'))?.slice(2).trim() ?? `block ${i + 1}`;
  return { title, text, source };
});
