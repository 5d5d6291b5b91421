// The explain and sample subcommands, run in-process.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadDescriptions, sampleFrame } from '../../src/explain/index.js';
import { schemasDir } from './seeds.js';
import { catalogueTriples } from '../helpers/shared.js';
import { haveDir } from '../helpers/shared.js';

function io(stdin = '', tty = false) {
  const out = { text: '', isTTY: tty, write(s: string) { this.text += s; return true; } };
  const err = { text: '', write(s: string) { this.text += s; return true; } };
  return { stdin: Readable.from([stdin]), stdout: out, stderr: err };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('kafka-wire explain', () => {
  it('prints the tree of a request given as hex', async () => {
    const t = io();
    expect(await main(['explain', hex(sampleFrame(45, 'request', 0)), '--no-schemas'], t)).toBe(0);
    const lines = t.stdout.text.split('\n');
    expect(lines[0]).toBe('AlterPartitionReassignmentsRequest message v0 [0x0000, 34B]');
    expect(lines).toContain('    +-- TimeoutMs int32 = 0 [0x000f, 4B]');
  });

  it.runIf(haveDir(schemasDir, 'explain --schemas'))('adds descriptions with --schemas', async () => {
    const t = io();
    expect(await main(['explain', hex(sampleFrame(45, 'request', 0)), '--schemas', schemasDir], t)).toBe(0);
    const about = loadDescriptions(schemasDir).about('AlterPartitionReassignmentsRequest', 'AlterPartitionReassignmentsRequest', 'TimeoutMs');
    expect(about).toBeTruthy();
    expect(t.stdout.text).toContain(`    +-- TimeoutMs int32 = 0 [0x000f, 4B] ${about}\n`);
  });

  it('explains a response with --response --api-key --api-version, as JSON', async () => {
    const t = io();
    const code = await main(['explain', hex(sampleFrame(49, 'response', 1)), '--response', '--api-key', '49', '--api-version', '1', '--json'], t);
    expect(code).toBe(0);
    const json = JSON.parse(t.stdout.text);
    expect(json).toMatchObject({ apiKey: 49, apiVersion: 1, direction: 'response', size: 23 });
  });

  it('reads hex from stdin and prints the byte layout with --layout', async () => {
    const spaced = hex(sampleFrame(49, 'request', 1)).replace(/(..)/g, '$1 ');
    const t = io(spaced + '\n');
    expect(await main(['explain', '--layout', '--no-schemas'], t)).toBe(0);
    expect(t.stdout.text.startsWith('byte layout (35 bytes, 16 bytes per row)\n')).toBe(true);
    expect(t.stdout.text).toContain('AlterClientQuotasRequest message v1 [0x0000, 35B]');
    expect(t.stdout.text).not.toContain('\x1b[');
    const tty = io(spaced, true);
    expect(await main(['explain', '-', '--layout', '--no-schemas'], tty)).toBe(0);
    expect(tty.stdout.text).toContain('\x1b[');
  });

  it('fails with a message on bad input', async () => {
    let t = io();
    expect(await main(['explain', 'zz'], t)).toBe(1);
    expect(t.stderr.text).toMatch(/^kafka-wire explain: /);
    t = io();
    expect(await main(['explain', hex(sampleFrame(49, 'response', 1)), '--response'], t)).toBe(2);
    expect(t.stderr.text).toContain('--api-key and --api-version');
    t = io();
    expect(await main(['explain', '0000000500'], t)).toBe(1);
    expect(t.stderr.text).toContain('TRUNCATED');
  });
});

describe('kafka-wire sample', () => {
  it('prints the hex of the smallest instance', async () => {
    const t = io();
    expect(await main(['sample', '45', '0', 'request'], t)).toBe(0);
    expect(t.stdout.text).toBe(hex(sampleFrame(45, 'request', 0)) + '\n');
    const byName = io();
    expect(await main(['sample', 'AlterClientQuotas', '1', 'response'], byName)).toBe(0);
    expect(byName.stdout.text.trim().length).toBe(46);
  });

  it('prints the tree with --explain', async () => {
    const t = io();
    expect(await main(['sample', '49', '1', 'response', '--explain', '--no-schemas'], t)).toBe(0);
    expect(t.stdout.text.split('\n')[0]).toBe('AlterClientQuotasResponse message v1 [0x0000, 23B]');
  });

  it('prints every key, version and direction with --all', async () => {
    const t = io();
    expect(await main(['sample', '--all'], t)).toBe(0);
    const lines = t.stdout.text.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(await catalogueTriples());
    expect(Object.keys(lines[0])).toEqual(['apiKey', 'apiVersion', 'direction', 'hex']);
    expect(lines).toContainEqual({ apiKey: 45, apiVersion: 0, direction: 'request', hex: hex(sampleFrame(45, 'request', 0)) });
  });

  it('rejects unknown versions and directions', async () => {
    let t = io();
    expect(await main(['sample', '45', '9', 'request'], t)).toBe(2);
    t = io();
    expect(await main(['sample', '45', '0', 'sideways'], t)).toBe(2);
  });
});
