// The built bin with --schemas DIR: decode, encode, explain, sample and site all use the
// catalogue DIR builds, so an API key the package does not know (1000 in test/fixtures/schemas)
// and a version it lacks (Metadata v14) work, and fail as before without it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apis } from '../../src/generated/catalogue.js';
import { toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';
import { gizmoV1Frame } from './golden.js';

const bin = join(repoRoot, 'dist', 'src', 'cli', 'main.js');
const fixtureDir = join(repoRoot, 'test', 'fixtures', 'schemas');

function cli(args: string[], input = ''): { code: number | null; out: string; err: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const gizmoFrame = toHex(gizmoV1Frame);

describe.skipIf(!fs.existsSync(bin))('the CLI with --schemas', () => {
  it('decodes and encodes an API the package does not know', () => {
    expect(cli(['decode', gizmoFrame]).code).toBe(1);
    const decoded = cli(['decode', gizmoFrame, '--schemas', fixtureDir]);
    expect(decoded.err).toBe('');
    const frame = JSON.parse(decoded.out);
    expect([frame.apiKey, frame.body.size, frame.body.offset, frame.body.side]).toEqual([1000, 4000000000, '1099511627776', { level: 5 }]);
    const encoded = cli(['encode', decoded.out.replace(/\s+/g, ' '), '--schemas', fixtureDir]);
    expect(encoded.out.trim()).toBe(gizmoFrame);
    const lines = cli(['decode', '--jsonl', '--schemas', fixtureDir], JSON.stringify({ direction: 'request', hex: gizmoFrame }) + '\n');
    expect(JSON.parse(lines.out).frame.body.port).toBe(65535);
  });

  it('explains and samples through the catalogue, a name or a key', () => {
    const tree = JSON.parse(cli(['explain', gizmoFrame, '--json', '--schemas', fixtureDir]).out);
    expect(tree.apiName).toBe('Gizmo');
    const sample = cli(['sample', 'gizmo', '1', 'response', '--schemas', fixtureDir]);
    expect(sample.code).toBe(0);
    expect(cli(['explain', sample.out.trim(), '--response', '--api-key', 'Gizmo', '--api-version', '1', '--schemas', fixtureDir]).out)
      .toContain('GizmoResponse struct');
    expect(cli(['sample', '3', '14', 'request', '--schemas', fixtureDir]).code).toBe(0);
    const missing = cli(['sample', '3', '14', 'request']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('Metadata requests have versions 0 to 13, not 14');
  });

  it('samples every key and version of the catalogue', () => {
    const builtIn = cli(['sample', '--all']).out.trim().split('\n');
    const extended = cli(['sample', '--all', '--schemas', fixtureDir]).out.trim().split('\n').map((l) => JSON.parse(l));
    // The fixture adds Gizmo v0-1 and Metadata v14, each in both directions.
    expect(extended.length).toBe(builtIn.length + 4 + 2);
    expect(extended.filter((l) => l.apiKey === 1000).map((l) => `${l.apiVersion} ${l.direction}`))
      .toEqual(['0 request', '0 response', '1 request', '1 response']);
  });

  it('builds the site with the catalogue\'s pages and explorer schemas', () => {
    const out = fs.mkdtempSync(join(os.tmpdir(), 'kafka-wire-site-catalogue-'));
    try {
      const result = cli(['site', out, '--schemas', fixtureDir]);
      expect(result.code).toBe(0);
      expect(fs.existsSync(join(out, 'api', 'Gizmo-v1.html'))).toBe(true);
      expect(fs.existsSync(join(out, 'api', 'Metadata-v14.html'))).toBe(true);
      expect(fs.readdirSync(join(out, 'api')).length).toBe(
        apis.reduce((n, a) => n + a.request.validVersions[1] - a.request.validVersions[0] + 1, 0) + 2 + 1);
      const schemas = fs.readFileSync(join(out, 'assets', 'catalogue.js'), 'utf8');
      expect(schemas).toContain('"name":"GizmoRequest"');
      expect(schemas).not.toContain('"about"');
      expect(fs.readFileSync(join(out, 'explore.html'), 'utf8')).toContain('assets/catalogue.js');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
