// The user documentation (README.md and the guides docs/*.md) and its ```ts blocks, with their
// kafka-wire imports pointed at the sources, as the docs test runs them and the type test compiles
// them. Subpaths come from package.json's exports, so a new entry's examples resolve with no edit
// here. docs/api/ (generated from the types) holds no examples and is not read.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './shared.js';

/** A documentation file: its path from the repository root and its text. */
export interface DocFile {
  path: string;
  text: string;
}

export const docFiles: DocFile[] = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
  .map((path) => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') }));

export const readme = docFiles[0].text;

/** The source file behind each `kafka-wire` import specifier, from package.json's exports ("*" as a wildcard). */
const entries: Array<[RegExp, string]> = Object.entries(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).exports as Record<string, unknown>)
  .flatMap(([subpath, target]) => {
    const types = (target as { import?: { types?: string } }).import?.types;
    if (types === undefined) return [];
    const specifier = `kafka-wire${subpath.slice(1)}`;
    const pattern = new RegExp(`^${specifier.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '(\\w+)')}$`);
    return [[pattern, types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')]];
  });

/** The source file a `kafka-wire...` import specifier names, or undefined. */
export function sourceOf(specifier: string): string | undefined {
  for (const [pattern, source] of entries) {
    const m = pattern.exec(specifier);
    if (m !== null) return join(repoRoot, source.replace('*', m[1] ?? ''));
  }
  return undefined;
}

export interface ReadmeBlock {
  /** The file it is in (README.md, docs/producer.md). */
  file: string;
  /** A name for its generated file: the doc's name and the block's index in it. */
  id: string;
  /** The block's first comment line. */
  title: string;
  /** The block as written. */
  text: string;
  /** The block with every kafka-wire import an absolute path to its source file. */
  source: string;
}

export const docBlocks: ReadmeBlock[] = docFiles.flatMap(({ path, text: doc }) =>
  [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => {
    const text = m[1];
    const source = text.replace(/from '(kafka-wire(?:\/[\w-]+)*)'/g, (_m, spec: string) => {
      const target = sourceOf(spec);
      if (target === undefined) throw new Error(`${path} imports unknown ${spec}`);
      return `from '${target}'`;
    });
    const title = text.split('\n').find((l) => l.startsWith('//'))?.slice(2).trim() ?? `block ${i + 1}`;
    const id = `${path.replace(/^docs\//, '').replace(/\.md$/, '')}-${i}`;
    return { file: path, id, title: `${path}: ${title}`, text, source };
  }));
