// The schema pipeline (npm run schemas) against the curated set: built for Kafka 4.4.0 from the
// release's jars, with the removed versions restored from 3.9.2 and 4.0.2, it must describe every
// (message, version) exactly as ../shared/kafka-schemas (a hand-assembled 4.4.0 set with the same
// versions restored) does: the same fields with the same types, nullability, tags, defaults,
// flexibility and flags; and generate the same catalogue byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSchemas, parseSchemaText } from '../../src/catalogue/parse.js';
import type { MessageDef } from '../../src/catalogue/schema.js';
import { hasCommand, hasPath, peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';
import { versionView } from '../helpers/version-view.js';

const sharedDir = path.join(repoRoot, '..', 'shared', 'kafka-schemas');
/** The release ../shared/kafka-schemas is curated from (its SOURCE says so). */
const RELEASE = '4.4.0';
const ok = peer('Java and Maven', hasCommand('java') && hasCommand('mvn'), 'install Java 17 and Maven (npm run schemas needs them)')
  && peer('../shared/kafka-schemas', hasPath(sharedDir), `the curated Kafka ${RELEASE} schema set beside the repository`);

/** Every request, response and header of a schema directory, by name. */
function messages(dir: string): Map<string, MessageDef> {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const parsed = parseSchemas(files.map((f) => parseSchemaText(fs.readFileSync(path.join(dir, f), 'utf8'), f)));
  const out = new Map<string, MessageDef>();
  for (const api of parsed.apis) for (const m of [api.request, api.response]) out.set(m.name, m);
  for (const m of [parsed.requestHeader, parsed.responseHeader]) if (m) out.set(m.name, m);
  return out;
}

/** The paths at which two plain values differ, "a.b.c: x vs y". */
function differences(where: string, a: unknown, b: unknown, out: string[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k], y = (b as Record<string, unknown>)[k];
      const name = Array.isArray(a) ? ((x as { name?: string })?.name ?? (y as { name?: string })?.name ?? k) : k;
      differences(`${where}.${name}`, x, y, out);
    }
    return;
  }
  out.push(`${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
}

describe.runIf(ok)(`the schema pipeline, built for Kafka ${RELEASE}`, () => {
  let built: string;
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-pipeline-'));
    built = path.join(tmp, 'schemas');
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'schemas.mjs'), '--kafka', RELEASE, '--out', built], { stdio: 'pipe', timeout: 600_000 });
  }, 600_000);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('describes every (message, version) as ../shared/kafka-schemas does', () => {
    const mine = messages(built);
    const theirs = messages(sharedDir);
    expect([...mine.keys()].sort()).toEqual([...theirs.keys()].sort());
    const found: string[] = [];
    let compared = 0;
    for (const [name, m] of mine) {
      const s = theirs.get(name)!;
      differences(`${name} validVersions`, m.validVersions, s.validVersions, found);
      differences(`${name} deprecatedVersions`, m.deprecatedVersions, s.deprecatedVersions, found);
      differences(`${name} listeners`, m.listeners, s.listeners, found);
      for (let v = m.validVersions[0]; v <= m.validVersions[1]; v++) {
        differences(`${name} v${v}`, versionView(m, v), versionView(s, v), found);
        compared++;
      }
    }
    expect(found).toEqual([]);
    // Every version of every message was looked at: both directions of each key/version pair, and the headers.
    const pairs = [...theirs.values()].filter((m) => m.type === 'request')
      .reduce((n, m) => n + m.validVersions[1] - m.validVersions[0] + 1, 0);
    const headers = [...theirs.values()].filter((m) => m.type === 'header')
      .reduce((n, m) => n + m.validVersions[1] - m.validVersions[0] + 1, 0);
    expect(compared).toBe(2 * pairs + headers);
  });

  it('leaves the files that need no restoring as Kafka wrote them (those ../shared keeps byte for byte)', () => {
    let same = 0;
    for (const file of fs.readdirSync(sharedDir).filter((f) => f.endsWith('.json'))) {
      const theirs = fs.readFileSync(path.join(sharedDir, file), 'utf8');
      const mine = fs.readFileSync(path.join(built, file), 'utf8');
      const restored = (text: string) => /^\/\/ kafka-wire:/m.test(text);
      expect(restored(mine), file).toBe(restored(theirs));
      if (!restored(theirs)) {
        expect(mine, file).toBe(theirs);
        same++;
      }
    }
    expect(same).toBeGreaterThan(0);
  });

  it('generates the same catalogue, byte for byte, as ../shared/kafka-schemas', () => {
    const generate = (schemas: string, out: string) => execFileSync(process.execPath,
      [path.join(repoRoot, 'scripts', 'generate.mjs'), '--schemas', schemas, '--out', out], { stdio: 'pipe' });
    const a = path.join(tmp, 'from-pipeline');
    const b = path.join(tmp, 'from-shared');
    generate(built, a);
    generate(sharedDir, b);
    const files = (dir: string): string[] => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).sort();
    expect(files(a)).toEqual(files(b));
    for (const f of files(a)) {
      const x = fs.readFileSync(path.join(a, f), 'utf8');
      const y = fs.readFileSync(path.join(b, f), 'utf8');
      // The pipeline records its release; ../shared has none to record.
      const unrelease = (text: string) => text.replace(/^export const kafkaRelease: string \| null = .*;$/m, '');
      expect(unrelease(x) === unrelease(y), `${f} differs`).toBe(true);
    }
  });
});
