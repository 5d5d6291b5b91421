// The floors of src/: every folder (and each loose file at the root) stands on one floor, and
// imports run one way, from a floor down to lower ones, never sideways or up. The floors are
// written out here, so a new folder has to be given its place before the suite passes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/** Highest floor first; each entry is one unit: a folder (ending in /) or files taken together. */
const FLOORS: ReadonlyArray<ReadonlyArray<{ name: string; paths: readonly string[] }>> = [
  [{ name: 'entries', paths: ['index.ts', 'browser.ts', 'consumer.ts'] }], // the package's front doors (kafka-wire, /browser, /consumer)
  [{ name: 'cli', paths: ['cli/'] }], // the commands: a thin face (options, output) over the library
  [{ name: 'kafkajs', paths: ['kafkajs/'] }], // the KafkaJS API over the producer, the consumer and the admin client
  [{ name: 'perf', paths: ['perf/'] }], // kafka-wire perf's payloads, histogram, rates and report
  [{ name: 'site', paths: ['site/'] }], // the explorer site and its browser scripts
  [{ name: 'admin', paths: ['admin/'] }], // the admin client: topics, configs, groups, ACLs, ... each to the broker that must answer
  [{ name: 'capture', paths: ['capture/'] }, { name: 'producer', paths: ['producer/'] }, { name: 'consumer', paths: ['consumer/'] }], // captures and the recording proxy; the producer; the consumer (groups, share groups, assigned partitions)
  [{ name: 'wire', paths: ['wire/'] }, { name: 'explain', paths: ['explain/'] }], // the network; seeing the bytes
  [{ name: 'codec', paths: ['codec/'] }], // messages to and from bytes
  [{ name: 'records', paths: ['records/'] }], // record batches
  [{ name: 'catalogue', paths: ['catalogue/', 'generated/'] }], // the schema model and the APIs it holds
  [{ name: 'wasm', paths: ['wasm/'] }], // loading the WebAssembly engines, and the numbers they share with TypeScript
  [{ name: 'observe', paths: ['observe/'] }], // diagnostics channels, metric snapshots and their adapters
  [{ name: 'ground', paths: ['errors.ts', 'bytes.ts', 'text.ts', 'limits.ts', 'json-writer.ts', 'serde.ts', 'logger.ts'] }],
];

/**
 * The codec's doors for every other folder: its public functions (a plan lookup, a scan's result),
 * never its insides or its memory. Only the package's entries, which assemble the API, pass by.
 */
const CODEC_DOORS = ['codec/by-key.ts', 'codec/by-definition.ts', 'codec/json.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

/** The src/ files a module imports, by relative specifier: static, type-only, re-exports and import(). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(SRC, dirname(file), s.replace(/\.js$/, '.ts'))));
}

function unitOf(file: string): { name: string; floor: number } | undefined {
  for (let floor = 0; floor < FLOORS.length; floor++) {
    for (const unit of FLOORS[floor]!) {
      if (unit.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p))) return { name: unit.name, floor };
    }
  }
  return undefined;
}

const files = sourceFiles(SRC);
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));

describe('the floors of src/', () => {
  it('reads the imports it checks', () => {
    // The check sees the arrows it is about: a regression in the reader would pass everything.
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'cli/command-loaders.ts', to: 'cli/produce.ts' }); // import()
    expect(edges).toContainEqual({ from: 'cli/explain.ts', to: 'site/build.ts' }); // import()
    expect(edges.every((e) => files.includes(e.to))).toBe(true);
  });

  it('places every file on a floor', () => {
    expect(files.filter((f) => unitOf(f) === undefined)).toEqual([]);
  });

  it('has every import run down to a lower floor (or stay in its own unit)', () => {
    const wrong = edges.flatMap(({ from, to }) => {
      const a = unitOf(from)!;
      const b = unitOf(to)!;
      if (a.name === b.name || b.floor > a.floor) return [];
      return [`${from} (${a.name}) -> ${to} (${b.name}): ${b.floor === a.floor ? 'sideways' : 'up'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('lets other folders into the codec only through its doors', () => {
    const wrong = edges
      .filter(({ from, to }) => to.startsWith('codec/') && !from.startsWith('codec/') && unitOf(from)?.name !== 'entries' && !CODEC_DOORS.includes(to))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  it('keeps the CLI a face over the library: no connection of its own, no request sent itself', () => {
    // The commands speak to brokers through the library (the client, the consumer, the producer,
    // the admin client): a request built in a command is a lookup the library should have once.
    const cli = files.filter((f) => f.startsWith('cli/'));
    expect(cli.length).toBeGreaterThan(10);
    expect(edges.filter(({ from, to }) => from.startsWith('cli/') && to === 'wire/connection.ts').map(({ from }) => from)).toEqual([]);
    const sending = cli.filter((f) => /\.request\s*\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(sending).toEqual([]);
  });

  it('has one place for each lookup several clients need', () => {
    // Coordinator, metadata and offsets lookups, each sent from one file: the client's (coordinator,
    // metadata: KafkaClient.findCoordinator, metadata, leader), the consumer's offsets lookup (what
    // the CLI, perf and the Consumer start from); the admin client's own listTopics, describeTopics
    // and listOffsets are its operations (per-partition outcomes), not lookups.
    const code = (f: string) => readFileSync(join(SRC, f), 'utf8').split('\n').filter((l) => !/^\s*(\/\/|\*)/.test(l)).join('\n');
    const senders = (api: string) => files.filter((f) => new RegExp(`\\.request\\(ApiKey\\.${api}\\b|send\\(conn, ApiKey\\.${api}\\b`).test(code(f))).sort();
    expect(senders('FindCoordinator')).toEqual(['wire/client.ts']);
    expect(senders('Metadata')).toEqual(['admin/admin.ts', 'wire/client.ts']);
    expect(senders('ListOffsets')).toEqual(['admin/admin.ts', 'consumer/offsets.ts']);
  });

  it('keeps each WebAssembly engine and its memory to its own folder', () => {
    const engines = ['codec/engine.ts', 'records/engine.ts'];
    const wrong = edges
      .filter(({ from, to }) => engines.includes(to) && dirname(from) !== dirname(to) && unitOf(from)?.name !== 'entries')
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });
});
