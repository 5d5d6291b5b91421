#!/usr/bin/env node
// The schema pipeline: builds the schema directory that `npm run generate` reads from a Kafka
// release itself. Maven resolves org.apache.kafka:kafka-clients of the release (and of the last
// releases that still had the versions Kafka has since removed) from Maven Central, through
// kafka/schemas/pom.xml; this script takes each jar's common/message/*.json, puts back every
// removed version from the newest of those releases that had it, leaves out versions a file marks
// latestVersionUnstable, and writes build/kafka-schemas/<release>/ (git-ignored).
//
//   node scripts/schemas.mjs [--kafka 4.4.0] [--out DIR]
//
// Files that need neither are Kafka's bytes unchanged; the others are written anew (facts and
// Kafka's about texts, which stay in this git-ignored directory) under a "kafka-wire:" comment
// saying which versions came from which release.

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readZipEntries } from './lib/zip.mjs';
import { mergeSchemas, versionList } from './lib/restore.mjs';
import { importParser } from './lib/parser.mjs';
import { pipelineDir, pomProperty, schemasPom as pom } from './lib/schema-dir.mjs';
import { exitWith, readArgs } from './lib/args.mjs';

const MESSAGE_DIR = 'common/message/';
const PROTOCOL_TYPES = new Set(['request', 'response', 'header']);

function fail(message) {
  exitWith('schemas', message);
}

function parseArgs(argv) {
  const opts = { kafka: pomProperty('kafka.version'), out: undefined };
  readArgs('schemas', argv, 'node scripts/schemas.mjs [--kafka VERSION] [--out DIR]', {
    '--kafka': (v) => { opts.kafka = v; },
    '--out': (v) => { opts.out = path.resolve(v); },
  });
  if (!/^\d+\.\d+\.\d+$/.test(opts.kafka)) fail(`--kafka wants a release such as 4.4.0, not ${JSON.stringify(opts.kafka)}`);
  opts.out ??= pipelineDir(opts.kafka);
  return opts;
}

/** Maven copies the three kafka-clients jars (from ~/.m2, else Maven Central) into a temporary directory. */
function resolveJars(release, restoreReleases) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-schemas-'));
  const args = ['-q', '-B', '-f', pom, 'dependency:copy', `-Dkafka.version=${release}`, `-Dschemas.jars=${dir}`];
  try {
    execFileSync('mvn', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const out = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    fail(`mvn ${args.join(' ')} failed${error.code === 'ENOENT' ? ': Maven (mvn) is not on PATH' : ''}\n${out}`);
  }
  const jars = {};
  for (const r of [release, ...restoreReleases]) {
    const file = path.join(dir, `kafka-clients-${r}.jar`);
    if (!fs.existsSync(file)) fail(`Maven did not copy kafka-clients ${r}`);
    const data = fs.readFileSync(file);
    jars[r] = { data, sha256: crypto.createHash('sha256').update(data).digest('hex') };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return jars;
}

/** A jar's common/message files, name -> text. */
function messageFiles(jar, release) {
  const entries = readZipEntries(jar.data, (n) => n.startsWith(MESSAGE_DIR) && !n.slice(MESSAGE_DIR.length).includes('/'), `kafka-clients-${release}.jar`);
  return new Map([...entries].map(([n, b]) => [n.slice(MESSAGE_DIR.length), b.toString('utf8')]));
}

/** "v0-2" for a sorted run of versions. */
function runText(versions) {
  const lo = versions[0], hi = versions[versions.length - 1];
  return lo === hi ? `v${lo}` : `v${lo}-${hi}`;
}

/** The leading // comment lines of a schema file (Kafka's license header). */
function licenseHeader(text) {
  const lines = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line);
  }
  return lines.join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  // Newest first: a removed version comes from the newest release that still had it.
  const restoreReleases = [pomProperty('kafka.restore.share.version'), pomProperty('kafka.restore.version')];
  const { parseSchemaText } = await importParser();
  const jars = resolveJars(opts.kafka, restoreReleases);
  const target = messageFiles(jars[opts.kafka], opts.kafka);
  if (target.size === 0) fail(`kafka-clients ${opts.kafka} holds no ${MESSAGE_DIR}*.json`);
  const sources = restoreReleases.map((release) => ({ release, files: messageFiles(jars[release], release) }));

  // A message is the same one across releases by its API key and type (Kafka renames some:
  // ListClientMetricsResources became ListConfigResources); headers and other files by file name.
  const identity = (schema, name) => (schema.type === 'request' || schema.type === 'response' ? `${schema.type} ${schema.apiKey}` : name);
  const targetNameOf = new Map();
  for (const [name, text] of target) if (name.endsWith('.json')) targetNameOf.set(identity(parseSchemaText(text, name), name), name);
  for (const source of sources) {
    const renamed = new Map();
    for (const [name, text] of source.files) {
      const id = name.endsWith('.json') ? identity(parseSchemaText(text, `${source.release} ${name}`), name) : name;
      renamed.set(targetNameOf.get(id) ?? name, text);
    }
    source.files = renamed;
  }
  // A request's latestVersionUnstable holds for its response too: brokers advertise neither.
  const unstableKeys = new Set();
  for (const [name, text] of target) {
    if (!name.endsWith('.json')) continue;
    const schema = parseSchemaText(text, name);
    if (schema.latestVersionUnstable === true || schema.latestVersionUnstable === 'true') unstableKeys.add(schema.apiKey);
  }

  const outputs = new Map();
  const restoredNotes = [];
  const unstableNotes = [];
  const emptyNotes = [];
  const names = new Set([...target.keys(), ...sources.flatMap((s) => [...s.files.keys()])]);
  for (const name of [...names].sort()) {
    if (!name.endsWith('.json')) {
      if (target.has(name)) outputs.set(name, target.get(name));
      continue;
    }
    const text = target.get(name);
    const schema = text === undefined ? null : parseSchemaText(text, name);
    if (schema !== null && !PROTOCOL_TYPES.has(schema.type)) {
      outputs.set(name, text);
      continue;
    }
    const valid = schema ? versionList(schema.validVersions, name) : [];
    let kept = valid;
    const story = [];
    if (schema && schema.type !== 'header' && unstableKeys.has(schema.apiKey) && valid.length > 0) {
      kept = valid.slice(0, -1);
      unstableNotes.push(`${name.slice(0, -5)} v${valid[valid.length - 1]}`);
    }
    let merged = schema;
    let versions = kept;
    let firstKept = Math.min(...valid);
    for (const source of sources) {
      const sourceText = source.files.get(name);
      if (sourceText === undefined) continue;
      const older = parseSchemaText(sourceText, `${source.release} ${name}`);
      if (!PROTOCOL_TYPES.has(older.type)) continue;
      const restored = versionList(older.validVersions, `${source.release} ${name}`).filter((v) => v < firstKept);
      if (restored.length === 0) continue;
      merged = mergeSchemas(older, merged, restored, versions, name.slice(0, -5));
      versions = [...restored, ...versions];
      firstKept = restored[0];
      story.push(`${runText(restored)} restored from Kafka ${source.release}`);
      restoredNotes.push(`${name.slice(0, -5)} ${runText(restored)} from ${source.release}`);
    }
    if (merged === null) continue; // only older releases had it, and not as protocol
    if (versions.length === 0) {
      // Every version unstable (a new API brokers do not advertise yet), or "none" with nothing to restore.
      emptyNotes.push(name.slice(0, -5));
      continue;
    }
    if (kept.length === valid.length && story.length === 0) {
      outputs.set(name, text);
      continue;
    }
    if (story.length === 0) merged = mergeSchemas(null, schema, [], kept, name.slice(0, -5));
    const base = text ?? sources.map((s) => s.files.get(name)).find((t) => t !== undefined);
    const what = [
      kept.length > 0 ? `Kafka ${opts.kafka}'s file for ${runText(kept)}` : `Kafka ${opts.kafka} has no versions of it`,
      ...story,
      ...(kept.length < valid.length ? [`v${valid[valid.length - 1]} left out (latestVersionUnstable)`] : []),
    ];
    const comment = `// kafka-wire: built by scripts/schemas.mjs: ${what.join('; ')}.`;
    outputs.set(name, `${licenseHeader(base)}\n\n${comment}\n\n${JSON.stringify(merged, null, 2)}\n`);
  }

  const source = [
    `Apache Kafka ${opts.kafka}'s message schemas (common/message/*.json of org.apache.kafka:kafka-clients:${opts.kafka}),`,
    'built by scripts/schemas.mjs (npm run schemas) through kafka/schemas/pom.xml. Do not edit; rebuild.',
    '',
    'Jars (sha256):',
    ...Object.entries(jars).map(([r, j]) => `  kafka-clients-${r}.jar ${j.sha256}`),
    '',
    `Restored (${restoredNotes.length}): ${restoredNotes.join('; ') || 'none'}`,
    `Left out, latestVersionUnstable (${unstableNotes.length}): ${unstableNotes.join('; ') || 'none'}`,
    `Left out, no versions left (${emptyNotes.length}): ${emptyNotes.join('; ') || 'none'}`,
    '',
  ].join('\n');
  outputs.set('SOURCE', source);
  outputs.set('RELEASE', `${opts.kafka}\n`);

  fs.rmSync(opts.out, { recursive: true, force: true });
  fs.mkdirSync(opts.out, { recursive: true });
  for (const [name, text] of outputs) fs.writeFileSync(path.join(opts.out, name), text);
  const schemas = [...outputs.keys()].filter((n) => n.endsWith('.json')).length;
  console.log(`schemas: Kafka ${opts.kafka}: ${schemas} schema files in ${path.relative(process.cwd(), opts.out) || '.'}`);
  console.log(`  restored (${restoredNotes.length}): ${restoredNotes.join('; ')}`);
  console.log(`  left out, latestVersionUnstable (${unstableNotes.length}): ${unstableNotes.join('; ') || 'none'}`);
  if (emptyNotes.length > 0) console.log(`  left out, no versions left (${emptyNotes.length}): ${emptyNotes.join('; ')}`);
}

main().catch((error) => fail(error.stack ?? error.message));
