// decode and explain read several frames back to back (a stream on stdin or in a file, hex or raw)
// and give each in turn; a damaged one says which frame it was; --jsonl stays one frame per line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sampleFrame } from '../../src/index.js';
import { toHex } from '../../src/text.js';

async function run(args: string[], stdin: string | Uint8Array = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    stdin: Readable.from([typeof stdin === 'string' ? Buffer.from(stdin) : Buffer.from(stdin)]),
    stdout: { write: (t: string | Uint8Array) => (out += String(t)) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

/** Consecutive JSON documents in `text`. */
function documents(text: string): any[] {
  return text.split(/\n(?=\{)/).filter((d) => d.trim() !== '').map((d) => JSON.parse(d));
}

const frames = [sampleFrame(3, 12, 'request'), sampleFrame(18, 3, 'request'), sampleFrame(0, 9, 'request')];
const stream = Uint8Array.from(frames.flatMap((f) => [...f]));
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-streams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('several frames back to back', () => {
  it('decode gives each frame in turn, from hex, raw stdin and a file', async () => {
    const raw = join(dir, 'stream.bin');
    writeFileSync(raw, stream);
    for (const [args, stdin] of [[[toHex(stream)], ''], [[], stream], [['--file', raw], '']] as const) {
      const r = await run(['decode', ...args], stdin);
      expect(r.err).toBe('');
      expect(documents(r.out).map((d) => [d.apiKey, d.apiVersion])).toEqual([[3, 12], [18, 3], [0, 9]]);
    }
  });

  it('explain gives each tree in turn, a blank line between', async () => {
    const r = await run(['explain', '--no-schemas', toHex(stream)]);
    expect(r.err).toBe('');
    const roots = r.out.split('\n').filter((l) => /^\w+Request message v\d+/.test(l));
    expect(roots.map((l) => l.split(' ')[0])).toEqual(['MetadataRequest', 'ApiVersionsRequest', 'ProduceRequest']);
    expect(r.out.split('\n\n')).toHaveLength(3);
  });

  it('a damaged frame in a stream says which frame it is', async () => {
    const damaged = Uint8Array.from([...frames[0], ...frames[1], ...frames[2]]);
    damaged[frames[0].length + frames[1].length + 8] = 0x7f; // frame 3's correlation id is fine; its version now is not
    damaged[frames[0].length + frames[1].length + 6] = 0x7f;
    for (const command of ['decode', 'explain']) {
      const r = await run([command, toHex(damaged)]);
      expect(r.code, command).toBe(1);
      expect(r.err).toMatch(new RegExp(`^kafka-wire ${command}: frame 3 of 3: UNSUPPORTED_VERSION`));
    }
    // A single frame's errors stay as they were.
    expect((await run(['decode', toHex(damaged.subarray(frames[0].length + frames[1].length))])).err).toMatch(/^kafka-wire decode: UNSUPPORTED_VERSION/);
  });

  it('bytes whose size prefixes do not line up stay one (malformed) frame', async () => {
    const r = await run(['decode', toHex(stream.subarray(0, stream.length - 1))]);
    expect(r.code).toBe(1);
    expect(r.err).not.toContain('frame 1 of');
  });

  it('--jsonl stays one frame per line', async () => {
    const r = await run(['decode', '--jsonl'], JSON.stringify({ direction: 'request', hex: toHex(stream) }) + '\n');
    const answers = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(answers).toHaveLength(1);
    expect(answers[0].ok).toBe(false);
  });
});
