// The command line as a user calls it: the built bin (package.json's, dist/cjs/cli/main.cjs) in a child
// process, its stdout, stderr and exit status; pipes through bash where the test is about a pipe.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeRequest, encodeResponse, newMessage, sampleFrame } from '../../src/index.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { toHex } from '../../src/text.js';
import { builtBin, repoRoot } from '../helpers/shared.js';
import { peer } from '../helpers/peer.js';

const bin = builtBin;
const built = peer(`the built CLI (${bin})`, existsSync(bin), 'npm run build');
if (!built) console.warn('SKIPPED: the bin tests need `npm run build` first');
const version: string = JSON.parse((await import('node:fs')).readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;

interface Run { status: number | null; stdout: string; stderr: string }

function run(args: string[], options: { input?: string | Uint8Array; env?: Record<string, string> } = {}): Run {
  const result = spawnSync(process.execPath, [bin, ...args], {
    input: options.input ?? '', env: { ...process.env, NO_COLOR: '', KAFKA_WIRE_DEBUG: '', ...options.env },
  });
  return { status: result.status, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** A shell pipeline; `$BIN` is the bin. Returns what the pipeline printed. */
function shell(script: string): Run {
  const result = spawnSync('bash', ['-c', script], { env: { ...process.env, BIN: `${process.execPath} ${bin}` }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const metadata = encodeRequest({ requestApiKey: 3, requestApiVersion: 12, correlationId: 9, clientId: 'cli' },
  { topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', name: 'orders' }], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: true });
const metadataHex = toHex(metadata);
const fetchResponse = encodeResponse(1, 4, { correlationId: 5 }, newMessage(1, 'response', 4, {
  responses: [{ topic: 't', partitions: [{ partitionIndex: 0, errorCode: 0, highWatermark: 2n ** 40n, lastStableOffset: -1n,
    abortedTransactions: null, records: null }] }],
}));
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The frame cut after `keep` bytes, its size prefix honest about the cut. */
function cut(frame: Uint8Array, keep: number): Uint8Array {
  const out = frame.slice(0, keep);
  new DataView(out.buffer).setInt32(0, keep - 4);
  return out;
}

describe.skipIf(!built)('kafka-wire help, version and exit status', () => {
  it('prints the global help to stdout with --help, -h and help, exit 0', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^usage: kafka-wire <command>/);
      for (const command of COMMANDS) expect(r.stdout).toContain(`\n  ${command.name} `);
      expect(r.stderr).toBe('');
    }
  });

  it('aligns the help\'s columns', () => {
    const lines = run(['--help']).stdout.split('\n').filter((l) => /^ {2}[a-z]/.test(l));
    const starts = new Set(lines.map((l) => l.search(/(?<=\S) {2,}\S/) + l.slice(l.search(/(?<=\S) {2,}\S/)).search(/\S/)));
    expect(lines.length).toBe(COMMANDS.length);
    expect(starts.size).toBe(1);
  });

  it('prints each command\'s own usage for CMD --help, CMD -h and help CMD, exit 0', () => {
    const forms = (name: string) => name === 'decode' ? [[name, '--help'], [name, '-h'], ['help', name]] : [[name, '--help']];
    for (const command of COMMANDS) {
      for (const args of forms(command.name)) {
        const r = run(args);
        expect(r.status, args.join(' ')).toBe(0);
        expect(r.stdout.startsWith(`usage: kafka-wire ${command.name} `), args.join(' ')).toBe(true);
        for (const option of command.options) expect(r.stdout).toContain(`--${option.name}`);
      }
    }
    // demo --help does not run the demo; metadata --help is metadata's, not a shared network block.
    expect(run(['demo', '--help']).stdout).not.toContain('byte layout');
    expect(run(['metadata', '--help']).stdout).not.toContain('--acks');
  });

  it('prints the version for --version and -V', () => {
    for (const flag of ['--version', '-V']) {
      const r = run([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`kafka-wire ${version}\n`);
    }
  });

  it('makes process.stdin and loads node:tls only for a command that needs them (each costs a start)', () => {
    // The run tells on stderr, as it exits, whether process.stdin was made and node:tls loaded.
    const hook = `data:text/javascript,${encodeURIComponent(`
      const made = Object.getOwnPropertyDescriptor(process, 'stdin');
      let stdin = false;
      Object.defineProperty(process, 'stdin', { configurable: true, get() { stdin = true; return made.get.call(this); } });
      process.on('exit', () => { const tls = process.moduleLoadList.includes('NativeModule tls'); process.stderr.write('stdin ' + stdin + ' tls ' + tls + '\\n'); });`)}`;
    const told = (args: string[], input = '') => /stdin \w+ tls \w+/.exec(spawnSync(process.execPath, ['--import', hook, bin, ...args], { input, encoding: 'utf8' }).stderr)?.[0];
    expect(told(['--version'])).toBe('stdin false tls false');
    expect(told(['metadata', '-b', '127.0.0.1:1'])).toBe('stdin false tls false'); // refused, over plain TCP
    expect(told(['metadata', '-b', '127.0.0.1:1', '--tls'])).toBe('stdin false tls true');
    expect(told(['decode'], toHex(metadata))).toBe('stdin true tls false'); // a frame read from stdin
  }, 150_000); // each refused metadata run retries its bootstrap for the client's 30 s: two of them took the default 60 s

  it('says so for an unknown command, and for no command at all, exit 2', () => {
    const bogus = run(['bogus']);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toContain('unknown command "bogus"');
    expect(run(['help', 'bogus']).status).toBe(2);
    const none = run([]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^usage: kafka-wire/);
  });
});

describe.skipIf(!built)('kafka-wire options', () => {
  it('refuses unknown options and missing values in every command, naming them, exit 2', () => {
    for (const command of COMMANDS) {
      const r = run([command.name, '--bogus']);
      expect(r.status, command.name).toBe(2);
      expect(r.stderr, command.name).toContain('unknown option --bogus');
    }
    const missing = run(['decode', metadataHex, '--api-key']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--api-key needs a value');
    expect(run(['decode', metadataHex, '--records=yes']).stderr).toContain('--records takes no value');
  });

  it('takes --opt=value and APIs by number or name, any case', () => {
    for (const key of ['3', 'Metadata', 'metadata', 'METADATA']) {
      const r = run(['decode', metadataHex, `--api-key=${key}`, '--api-version', '12']);
      expect(r.status, key).toBe(0);
      expect(JSON.parse(r.stdout).body.topics[0].name).toBe('orders');
    }
    expect(run(['sample', 'metadata', '12', 'request']).stdout.trim()).toBe(toHex(sampleFrame(3, 'request', 12)));
    const unknown = run(['decode', metadataHex, '--api-key', 'Nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no API named Nope');
  });

  it('gives a stated key or version that the header contradicts as an error, not a silent decode', () => {
    const r = run(['decode', metadataHex, '--api-key', 'Fetch']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('API key 3, not the stated 1');
  });

  it('exits 2 for an unknown key and an unknown version alike', () => {
    expect(run(['sample', '999', '0', 'request']).status).toBe(2);
    const version = run(['sample', '1', '99', 'request']);
    expect(version.status).toBe(2);
    expect(version.stderr).toContain('versions 0 to');
  });

  it('takes --acks all, and refuses other spellings before connecting', () => {
    // Port 1 on loopback: a refused connection exits 1; a refused option exits 2 first.
    expect(run(['produce', '-b', '127.0.0.1:1', '-t', 't', '--acks', 'all', '--timeout', '2000'], { input: 'v\n' }).status).toBe(1);
    const bad = run(['produce', '-b', '127.0.0.1:1', '-t', 't', '--acks', 'some']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--acks must be all, -1, 0 or 1');
  });
});

describe.skipIf(!built)('kafka-wire frames in', () => {
  it('reads hex with 0x, spaces or colons, split over arguments or not', () => {
    const spaced = metadataHex.replace(/(..)/g, '$1 ').trim();
    for (const args of [[metadataHex], ['0x' + metadataHex], [spaced], spaced.split(' '), [metadataHex.replace(/(..)(?!$)/g, '$1:')]]) {
      const r = run(['decode', ...args]);
      expect(r.status, args.join(' ')).toBe(0);
      expect(JSON.parse(r.stdout).header.clientId).toBe('cli');
    }
  });

  it('reads stdin with no argument or -, as hex text or raw bytes', () => {
    for (const args of [['decode'], ['decode', '-'], ['explain'], ['explain', '-']]) {
      expect(run(args, { input: metadataHex + '\n' }).status, args.join(' ') + ' (hex)').toBe(0);
      expect(run(args, { input: metadata }).status, args.join(' ') + ' (raw)').toBe(0);
    }
    expect(JSON.parse(run(['decode'], { input: metadata }).stdout).body.topics[0].name).toBe('orders');
  });

  it('does not wait on a terminal for a frame nobody gave', () => {
    const r = shell('script -qec "$BIN decode" /dev/null < /dev/null');
    expect(r.stdout).toContain('no frame given: give it as HEX, on stdin, or with --file PATH');
  });

  it('reads --file PATH, hex text or raw bytes', () => {
    writeFileSync(join(dir, 'frame.bin'), metadata);
    writeFileSync(join(dir, 'frame.hex'), '0x' + metadataHex + '\n');
    for (const name of ['frame.bin', 'frame.hex']) {
      const r = run(['decode', '--file', join(dir, name)]);
      expect(r.status, name).toBe(0);
      expect(JSON.parse(r.stdout).header.correlationId).toBe(9);
    }
    const missing = run(['decode', '--file', join(dir, 'absent')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('cannot read');
  });

  it('says what is wrong with bad hex, without "offset -1" or a stack trace', () => {
    const odd = run(['decode', 'abc']);
    expect(odd.status).toBe(1);
    expect(odd.stderr).toBe('kafka-wire decode: HEX has an odd number of hex digits (3)\n');
    const stray = run(['explain', 'zz']);
    expect(stray.stderr).toContain('"z" is not a hex digit');
    for (const r of [odd, stray, run(['encode', '{"apiKey":3}'])]) {
      expect(r.stderr).not.toContain('offset -1');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe.skipIf(!built)('kafka-wire errors for people', () => {
  it('gives both sizes of a size prefix that does not match', () => {
    const r = run(['decode', '7fffffff0003000c0000']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('FRAME_SIZE_MISMATCH');
    expect(r.stderr).toContain('the size prefix says 2147483647 bytes follow; 6 do');
  });

  it('hints at --response for a response read as a request', () => {
    const r = run(['decode', toHex(fetchResponse)]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/hint: if these bytes are a response, give --response --api-key KEY --api-version N/);
    expect(run(['decode', toHex(fetchResponse), '--response', '--api-key', 'fetch', '--api-version', '4']).status).toBe(0);
  });

  it('hints at HTTP, TLS and a missing size prefix', () => {
    expect(run(['decode', toHex(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))]).stderr).toContain('hint: these bytes are HTTP');
    expect(run(['decode', '160301020001000100000000']).stderr).toContain('hint: these bytes look like a TLS record');
    expect(run(['decode', metadataHex.slice(8)]).stderr).toContain('hint: the bytes may lack their int32 size prefix: they start like a Metadata v12 request header');
  });

  it('shows a stack only with KAFKA_WIRE_DEBUG=1', () => {
    const frame = toHex(cut(metadata, 20));
    expect(run(['decode', frame]).stderr).not.toMatch(/\n\s+at /);
    expect(run(['decode', frame], { env: { KAFKA_WIRE_DEBUG: '1' } }).stderr).toMatch(/\n\s+at /);
  });
});

describe.skipIf(!built)('kafka-wire explain of a damaged frame', () => {
  const damaged = cut(metadata, 40); // inside the first topic's name, "orders"

  it('prints the tree as far as it read, a malformed node at the failing offset, exit 1', () => {
    const r = run(['explain', toHex(damaged), '--layout', '--no-schemas']);
    expect(r.status).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('byte layout (40 bytes, 16 bytes per row)');
    expect(lines).toContain('0020  00 00 01 07 6f 72 64 65');
    expect(lines).toContain('|   +-- client_id nullable_string = "cli" (int16 len=3) [0x000c, 5B] always a non-flexible int16-prefixed string');
    expect(lines).toContain('            +-- TopicId uuid = AAAAAAAAAAAAAAAAAAAAAQ [0x0013, 16B]');
    expect(lines).toContain('            +-- Name string (claims 6 bytes, 4 bytes left) [0x0023, 5B]');
    expect(lines).toContain('                +-- [malformed] (TRUNCATED) [0x0024, 4B] the input ends before the value does');
    expect(r.stderr).toContain('TRUNCATED at offset 36 in MetadataRequest.topics[0].name');
    expect(r.stderr).toContain('(its length prefix claims 6 bytes, 4 bytes left)');
    expect(run(['decode', toHex(damaged)]).stderr).toContain('(its length prefix claims 6 bytes, 4 bytes left)');
    // An array whose count the bytes left cannot hold.
    expect(run(['decode', toHex(cut(metadata, 30))]).stderr).toContain('TRUNCATED at offset 18 in MetadataRequest.topics: the input ends before the value does (its length prefix claims 1 element, 11 bytes left)');
  });

  it('gives the partial tree and the error in --json', () => {
    const r = run(['explain', toHex(damaged), '--json', '--no-schemas']);
    expect(r.status).toBe(1);
    const tree = JSON.parse(r.stdout);
    expect(tree.error).toMatchObject({ code: 'TRUNCATED', offset: 36, path: 'MetadataRequest.topics[0].name' });
    const topic = tree.root.children[2].children[0].children[1];
    expect(topic).toMatchObject({ path: 'topics[0]', offset: 19 });
    expect(topic.children.map((c: any) => c.path)).toEqual(['topics[0].topicId', 'topics[0].name']);
    expect(topic.children[1].children).toMatchObject([{ name: '[malformed]', offset: 36, size: 4 }]);
  });

  it('shows the bytes of a frame it cannot read at all, with the error', () => {
    const r = run(['explain', '0000000600ff00000000', '--layout']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('byte layout (10 bytes, 16 bytes per row)\n      0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F\n0000  00 00 00 06 00 ff 00 00 00 00\n');
    expect(r.stderr).toContain('UNSUPPORTED_API');
  });
});

describe.skipIf(!built)('kafka-wire explain naming and wording', () => {
  it('carries the decode path and the schema name in --json, as decode names the field', () => {
    const tree = JSON.parse(run(['explain', toHex(fetchResponse), '--response', '--api-key', '1', '--api-version', '4', '--json', '--no-schemas']).stdout);
    const nodes: any[] = [];
    const visit = (n: any) => { nodes.push(n); n.children.forEach(visit); };
    visit(tree.root);
    const hw = nodes.find((n) => n.schemaName === 'HighWatermark');
    expect(hw).toMatchObject({ name: 'highWatermark', path: 'responses[0].partitions[0].highWatermark', value: '1099511627776' });
    expect(nodes.find((n) => n.schemaName === 'CorrelationId')).toMatchObject({ name: 'correlationId', path: 'header.correlationId' });
    const request = JSON.parse(run(['explain', metadataHex, '--json', '--no-schemas']).stdout);
    expect(JSON.stringify(request)).not.toContain('request_api_key');
    expect(request.root.children[1].children[0]).toMatchObject({ name: 'requestApiKey', schemaName: 'RequestApiKey', path: 'header.requestApiKey', value: 3 });
    const decoded = JSON.parse(run(['decode', toHex(fetchResponse), '--response', '--api-key', '1', '--api-version', '4']).stdout);
    expect(decoded.body.responses[0].partitions[0].highWatermark).toBe(hw.value);
  });

  it('words samples as samples and real frames as they are', () => {
    const real = run(['explain', metadataHex, '--no-schemas']).stdout;
    expect(real).toContain('one element follows');
    expect(real).not.toContain('sample');
    expect(real).not.toContain('patched after encoding');
    const sample = run(['sample', '3', '12', 'request', '--explain', '--no-schemas']).stdout;
    expect(sample).toContain('one sample element follows');
    expect(sample).toContain('patched after encoding');
  });
});

describe.skipIf(!built)('kafka-wire pipes and colour', () => {
  it('ends quietly with exit 0 when the reader stops early', () => {
    const all = shell('$BIN sample --all 2>err.txt | head -2; echo "status ${PIPESTATUS[0]}"; cat err.txt; rm -f err.txt');
    expect(all.stdout.split('\n').slice(0, 2).map((l) => JSON.parse(l).apiKey)).toEqual([0, 0]);
    expect(all.stdout).toContain('status 0');
    expect(all.stdout).not.toContain('EPIPE');
    const line = JSON.stringify({ direction: 'request', hex: metadataHex });
    const jsonl = shell(`yes '${line}' | head -5000 | $BIN decode --jsonl 2>err.txt | head -1; echo "status \${PIPESTATUS[2]}"; cat err.txt; rm -f err.txt`);
    expect(JSON.parse(jsonl.stdout.split('\n')[0]).ok).toBe(true);
    expect(jsonl.stdout).toContain('status 0');
    expect(jsonl.stdout).not.toContain('Error');
  });

  it('colours only when asked or on a terminal, never with NO_COLOR', () => {
    const hex = toHex(sampleFrame(49, 'request', 1));
    expect(run(['explain', hex, '--layout']).stdout).not.toContain('\x1b[');
    expect(run(['explain', hex, '--layout', '--color', 'always']).stdout).toContain('\x1b[');
    expect(run(['explain', hex, '--layout', '--color=never']).stdout).not.toContain('\x1b[');
    expect(run(['explain', hex, '--layout', '--color', 'sometimes']).status).toBe(2);
    // A terminal: script(1) gives the bin a pty.
    const tty = (env: string) => shell(`${env} script -qec "$BIN explain ${hex} --layout --no-schemas" /dev/null`).stdout;
    expect(tty('NO_COLOR=')).toContain('\x1b[');
    expect(tty('NO_COLOR=1')).not.toContain('\x1b[');
  });
});

describe.skipIf(!built)('kafka-wire decode --jsonl and encode --jsonl', () => {
  it('answers every line, blank ones included, errors with code, message, offset and path', () => {
    const lines = [
      JSON.stringify({ direction: 'request', hex: metadataHex }),
      '',
      'not json',
      JSON.stringify({ direction: 'request', hex: toHex(cut(metadata, 20)) }),
      JSON.stringify({ direction: 'request', hex: metadataHex, apiKey: 3, apiVersion: 11 }),
      '   ',
    ];
    const r = run(['decode', '--jsonl'], { input: lines.join('\n') + '\n' });
    expect(r.status).toBe(0);
    const answers = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(answers).toHaveLength(lines.length);
    expect(answers.map((a) => a.ok)).toEqual([true, false, false, false, false, false]);
    for (const a of answers.slice(1)) expect(Object.keys(a.error).sort()).toEqual(['code', 'message', 'name', 'offset', 'path']);
    expect(answers[1].error).toMatchObject({ code: 'EMPTY_LINE', offset: null });
    expect(answers[2].error).toMatchObject({ code: 'INVALID_JSON', offset: null });
    expect(answers[3].error).toMatchObject({ code: 'TRUNCATED', offset: expect.any(Number), path: expect.stringMatching(/^MetadataRequest\./) });
    expect(answers[4].error).toMatchObject({ code: 'INVALID_VALUE', offset: 6, path: 'header.requestApiVersion' });
  });

  it('encodes, one answer per line, with codes on errors', () => {
    const frame = JSON.parse(run(['decode', metadataHex]).stdout);
    const r = run(['encode', '--jsonl'], { input: [JSON.stringify(frame), '', '{"apiKey":3,"apiVersion":12,"direction":"request","body":{"topics":[{"name":7}]}}'].join('\n') + '\n' });
    const answers = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(answers).toHaveLength(3);
    expect(answers[0]).toEqual({ ok: true, hex: metadataHex });
    expect(answers[1].error.code).toBe('EMPTY_LINE');
    expect(answers[2].error).toMatchObject({ code: 'INVALID_VALUE', offset: null, path: 'MetadataRequest.topics[0].name' });
    expect(answers[2].error.message).not.toContain('offset -1');
  });

  it('encodes one frame from an argument, stdin or a file', () => {
    const json = run(['decode', metadataHex]).stdout;
    writeFileSync(join(dir, 'frame.json'), json);
    expect(run(['encode', json]).stdout).toBe(metadataHex + '\n');
    expect(run(['encode'], { input: json }).stdout).toBe(metadataHex + '\n');
    expect(run(['encode', '--file', join(dir, 'frame.json')]).stdout).toBe(metadataHex + '\n');
  });
});

describe.skipIf(!built)('kafka-wire refuses what it would otherwise ignore', () => {
  it('takes only the --acks values it names, not inherited property names', () => {
    const r = run(['produce', '-b', '127.0.0.1:1', '-t', 't', '--acks', 'constructor']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--acks must be all, -1, 0 or 1');
  });

  it('refuses JSON and --file together on encode, as decode refuses HEX and --file', () => {
    const file = join(dir, 'frame.json');
    writeFileSync(file, '{}');
    const r = run(['encode', '{}', '--file', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('not both');
  });

  it('refuses frame options that --jsonl lines would override', () => {
    const r = run(['decode', '--jsonl', '--response'], { input: '\n' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--response does not go with --jsonl');
  });

  it('checks --color whether or not a layout is printed', () => {
    const r = run(['explain', metadataHex, '--color', 'bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--color must be auto, always or never');
  });
});
