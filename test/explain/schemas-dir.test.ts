// Where field descriptions come from for a user who installed the package: --schemas naming a
// schema directory, Kafka's source tree or an unpacked kafka-clients jar; KAFKA_WIRE_SCHEMAS; and
// a --help that says where Kafka's JSON lives rather than naming a path inside the package.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadCatalogue, messageSchemasDir } from '../../src/catalogue/node.js';
import { sampleFrame } from '../../src/index.js';
import { toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    stdin: Readable.from(['']),
    stdout: { write: (t: string | Uint8Array) => (out += String(t)) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

// A schema with a description of the test's own words (the repository carries none of Kafka's).
const WORDS = 'Described by the schemas-dir test.';
const schema = readFileSync(join(repoRoot, 'test/fixtures/schemas/MetadataRequest.json'), 'utf8')
  .replace('"name": "Topics", "type"', `"name": "Topics", "about": "${WORDS}", "type"`);
const root = mkdtempSync(join(tmpdir(), 'kafka-wire-schemas-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const layouts = { plain: '', 'Kafka source tree': 'clients/src/main/resources/common/message', 'unpacked kafka-clients jar': 'common/message' };
for (const [name, sub] of Object.entries(layouts)) {
  mkdirSync(join(root, name, sub), { recursive: true });
  writeFileSync(join(root, name, sub, 'MetadataRequest.json'), schema);
  writeFileSync(join(root, name, sub, 'MetadataResponse.json'), readFileSync(join(repoRoot, 'test/fixtures/schemas/MetadataResponse.json')));
}
const frame = toHex(sampleFrame(3, 12, 'request'));

describe('schemas where a user has them', () => {
  it.each(Object.keys(layouts))('--schemas names a %s', async (name) => {
    expect(messageSchemasDir(join(root, name))).toBe(join(root, name, layouts[name as keyof typeof layouts]));
    const r = await run(['explain', '--schemas', join(root, name), frame]);
    expect(r.err).toBe('');
    expect(r.out).toContain(WORDS);
    // and the catalogue reads the same place (its made-up v14 joins the catalogue)
    expect(loadCatalogue(join(root, name)).api(3)!.request.validVersions[1]).toBe(14);
  });

  it('KAFKA_WIRE_SCHEMAS gives the default', async () => {
    const before = process.env.KAFKA_WIRE_SCHEMAS;
    process.env.KAFKA_WIRE_SCHEMAS = join(root, 'plain');
    try {
      expect((await run(['explain', frame])).out).toContain(WORDS);
      expect((await run(['explain', '--no-schemas', frame])).out).not.toContain(WORDS);
    } finally {
      if (before === undefined) delete process.env.KAFKA_WIRE_SCHEMAS; else process.env.KAFKA_WIRE_SCHEMAS = before;
    }
  });

  it('--help says where Kafka\'s JSON lives, and names no path inside the package as the default', async () => {
    for (const command of ['explain', 'sample', 'site', 'demo', 'pcap']) {
      const help = (await run([command, '--help'])).out.replace(/\s+/g, ' ');
      expect(help, command).toContain('KAFKA_WIRE_SCHEMAS');
      expect(help).toContain('clients/src/main/resources/common/message');
      expect(help).toContain('kafka-clients');
      expect(help).not.toContain('../shared');
    }
    const guide = readFileSync(join(repoRoot, 'docs', 'explain-and-captures.md'), 'utf8');
    expect(guide).toContain('clients/src/main/resources/common/message');
    expect(guide).toContain('KAFKA_WIRE_SCHEMAS');
  });
});
