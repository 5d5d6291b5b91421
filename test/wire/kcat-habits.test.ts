// The network commands meet kcat users' habits, checked against kcat itself on the same broker:
// metadata prints kcat -L's text (or --json), and consume's output options (-K, -f, -J, -o s@/e@,
// -Z, -u) print what kcat prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { kcatAvailable, kcatOk } from './kcat.js';
import { runCli } from './cli-io.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { main } from '../../src/cli/main.js';
import { Readable } from 'node:stream';

/** Records one batch each (the memory broker finds timestamps batch by batch), awkward ones among them. */
const RECORDS = [
  { key: 'k0', value: 'plain', headers: [{ key: 'h', value: 'x' }] },
  { key: null, value: 'no key', headers: [] },
  { key: 'k2', value: null, headers: [{ key: 'a', value: '1' }, { key: 'b', value: null }] },
  { key: 'ключ', value: 'tab\there ✓', headers: [] },
  { key: 'k4', value: '', headers: [] },
];
const T0 = 1_700_000_000_000;
import { peer } from '../helpers/peer.js';

const haveKcat = peer('kcat', kcatAvailable(), 'apt-get install kcat');

describe.skipIf(!haveKcat)('kcat habits, against kcat on the memory broker', () => {
  let broker: MemoryBroker;
  beforeAll(async () => {
    broker = await startMemoryBroker({ topics: { orders: 3, one: 1, habits: 1, empty: 2 }, autoCreateTopics: false });
    RECORDS.forEach((r, i) => broker.append('habits', 0, encodeRecordBatch({ baseOffset: BigInt(i), baseTimestamp: BigInt(T0 + i * 1000), records: [r] })));
  });
  afterAll(async () => { await broker?.close(); });

  it('metadata prints kcat -L\'s text, all topics or some', async () => {
    for (const topics of [[], ['orders']]) {
      const ours = await runCli('metadata', ['-b', broker.bootstrap, ...topics.flatMap((t) => ['-t', t])]);
      expect(ours.stderr).toBe('');
      const theirs = await kcatOk(['-b', broker.bootstrap, '-L', ...topics.flatMap((t) => ['-t', t])]);
      expect(ours.stdout).toBe(theirs);
    }
  });

  it('metadata --json (and -J) is the JSON form', async () => {
    for (const flag of ['--json', '-J']) {
      const md = JSON.parse((await runCli('metadata', ['-b', broker.bootstrap, flag])).stdout);
      expect(md.topics.map((t: any) => [t.name, t.partitions.length])).toEqual([['empty', 2], ['habits', 1], ['one', 1], ['orders', 3]]);
    }
  });

  const both = async (ours: string[], theirs: string[]) => {
    const mine = await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-e', ...ours]);
    expect(mine.stderr).toBe('');
    expect(mine.code).toBe(0);
    const kcatOut = await kcatOk(['-b', broker.bootstrap, '-C', '-t', 'habits', '-e', '-q', ...theirs]);
    return [mine.stdout, kcatOut];
  };

  it('-K DELIM prints "key DELIM value" as kcat does, -Z prints nulls as NULL, -D ends records', async () => {
    for (const args of [['-K', '\\t'], ['-K', '::'], ['-K', '\\t', '-Z'], ['-K', '|', '-D', '\\n--\\n']]) {
      const [mine, theirs] = await both(args, args);
      expect(mine, args.join(' ')).toBe(theirs);
    }
  });

  it('-f FORMAT with kcat\'s tokens prints what kcat prints', async () => {
    for (const format of [
      'Topic %t [%p] at offset %o: key %k: %s\\n',
      '%T %S %K|%h|%k=%s\\n',
      '%R%s',
      '100%% %o\\t\\x41\\n',
    ]) {
      for (const z of [[], ['-Z']]) {
        const [mine, theirs] = await both(['-f', format, ...z], ['-f', format, ...z]);
        expect(mine, format).toBe(theirs);
      }
    }
  });

  it('-o s@TS starts and -o e@TS stops where kcat does', async () => {
    for (const offsets of [['s@' + (T0 + 2000)], ['s@' + (T0 + 1500)], ['e@' + (T0 + 3000)], ['s@' + (T0 + 1000), 'e@' + (T0 + 3000)]]) {
      const o = offsets.flatMap((x) => ['-o', x]);
      const [mine, theirs] = await both([...o, '-f', '%o %s\\n'], [...o, '-f', '%o %s\\n']);
      expect(mine, offsets.join(' ')).toBe(theirs);
      expect(mine).not.toBe('');
    }
  });

  it('-J is the JSON lines output, the default', async () => {
    const plain = await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-e']);
    const j = await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-e', '-J']);
    expect(j.stdout).toBe(plain.stdout);
    expect(j.stdout.trim().split('\n').map((l) => JSON.parse(l).value)).toEqual(RECORDS.map((r) => r.value));
    expect((await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-J', '-K', ':'])).code).toBe(2);
    expect((await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-f', '%q'])).stderr).toMatch(/unknown token %q/);
  });

  it('-u writes each record as it is read', async () => {
    const writes: number[] = [];
    const run = (extra: string[]) => main(['consume', '-b', broker.bootstrap, '-t', 'habits', '-e', ...extra], {
      stdin: Readable.from([]), stdout: { write: (t: string | Uint8Array) => writes.push(t.length) }, stderr: { write: () => {} },
    });
    await run([]);
    expect(writes.length).toBe(1); // one write per response
    writes.length = 0;
    await run(['-u']);
    expect(writes.length).toBe(RECORDS.length);
  });

  it('-e with nothing to print says why on stderr', async () => {
    const empty = await runCli('consume', ['-b', broker.bootstrap, '-t', 'empty', '-e']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toMatch(/no records printed: -e exits at the end of each partition.*partition 0: at its end, offset 0; partition 1: at its end, offset 0/);
    const past = await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-o', '9', '-e']);
    expect(past.stderr).toMatch(/partition 0: offset 9 is past its end \(5\)/);
    const end = await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-o', 'end', '-e']);
    expect(end.stderr).toMatch(/partition 0: at its end, offset 5.*-o beginning/);
    // and nothing on stderr when records were printed
    expect((await runCli('consume', ['-b', broker.bootstrap, '-t', 'habits', '-e', '-c', '1'])).stderr).toBe('');
  });
});
