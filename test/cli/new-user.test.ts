// The command line as a new user meets it: the mistakes people make first (a misspelled API, the
// wrong direction, empty input) get a message that says what to do, and explain's text is whole
// when it goes on to a pipe. In-process through main(), as the bin runs it.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sampleFrame } from '../../src/index.js';
import { toHex } from '../../src/text.js';

async function run(args: string[], stdin = '', tty = false): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    stdin: Readable.from([stdin]),
    stdout: { write: (t: string | Uint8Array) => (out += typeof t === 'string' ? t : Buffer.from(t).toString()), isTTY: tty },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

describe('mistakes a new user makes', () => {
  it('a misspelled API name gets "did you mean"', async () => {
    const r = await run(['sample', 'Metdata', '1', 'request']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no API named Metdata; did you mean Metadata?');
    expect((await run(['explain', '--response', '--api-key', 'FindCordinator', '--api-version', '1', '00'])).err).toContain('did you mean FindCoordinator?');
    // Nothing close: no guess.
    expect((await run(['sample', 'Zebra', '1', 'request'])).err).not.toContain('did you mean');
  });

  it('a request decoded as a response gets a hint to read it as a request', async () => {
    for (const [key, version] of [[3, 1], [0, 3], [18, 3]]) {
      const hex = toHex(sampleFrame(key, 'request', version));
      for (const command of ['decode', 'explain']) {
        const r = await run([command, '--response', '--api-key', String(key), '--api-version', String(version), hex]);
        expect(r.code, `${command} ${key} v${version}`).toBe(1);
        expect(r.err).toMatch(/hint: these bytes decode as a \w+ v\d+ request: if they are one, leave out --response/);
      }
    }
    // A real response read as one: no such hint.
    const response = toHex(sampleFrame(3, 'response', 1).slice(0, 12));
    expect((await run(['decode', '--response', '--api-key', '3', '--api-version', '1', response])).err).not.toContain('leave out --response');
  });

  it('encode on empty or non-JSON stdin says so, not "Unexpected end of JSON input"', async () => {
    const empty = await run(['encode'], '');
    expect(empty.code).toBe(1);
    expect(empty.err).toBe('kafka-wire encode: no JSON given (the input is empty)\n');
    const bad = await run(['encode'], '{"apiKey": 3,');
    expect(bad.err).toMatch(/^kafka-wire encode: the input is not JSON: /);
    const lines = await run(['encode', '--jsonl'], '{x\n');
    expect(JSON.parse(lines.out).error.code).toBe('INVALID_JSON');
  });

  it('explain prints the [malformed] text whole, and descriptions whole when piped', async () => {
    const frame = sampleFrame(3, 'request', 12);
    const hex = toHex(frame.slice(0, 30));
    const piped = await run(['explain', '--no-schemas', hex]);
    const line = piped.out.split('\n').find((l) => l.includes('[malformed]'))!;
    expect(line).toMatch(/the input ends before the value does \(.*\)$/);
    expect(line).not.toMatch(/\.\.\.$/);
    const tty = await run(['explain', '--no-schemas', hex], '', true);
    expect(tty.out.split('\n').find((l) => l.includes('[malformed]'))).toBe(line);
  });
});
