// The network commands meet kcat users' habits, checked against kcat itself on the same broker:
// metadata prints kcat -L's text (or --json), and consume's output options (-K, -f, -J, -o s@/e@,
// -Z, -u) print what kcat prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { kcatAvailable, kcatOk } from './kcat.js';
import { runCli } from './cli-io.js';
import { peer } from '../helpers/peer.js';

const haveKcat = peer('kcat', kcatAvailable(), 'apt-get install kcat');

describe.skipIf(!haveKcat)('kcat habits, against kcat on the memory broker', () => {
  let broker: MemoryBroker;
  beforeAll(async () => {
    broker = await startMemoryBroker({ topics: { orders: 3, one: 1 }, autoCreateTopics: false });
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
      expect(md.topics.map((t: any) => [t.name, t.partitions.length])).toEqual([['one', 1], ['orders', 3]]);
    }
  });
});
