// Producing to a topic that does not exist: the broker's auto-creation is said on stderr, --no-create
// refuses, and a broker that does not create topics gets a message saying to create it first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { runCli } from '../wire/cli-io.js';

describe('produce to a topic that does not exist', () => {
  let creating: MemoryBroker;
  let strict: MemoryBroker;
  beforeAll(async () => {
    creating = await startMemoryBroker({ topics: { there: 2 }, autoCreateTopics: true });
    strict = await startMemoryBroker({ topics: { there: 1 }, autoCreateTopics: false });
  });
  afterAll(async () => { await creating?.close(); await strict?.close(); });

  it('says the broker created it, and the records are there', async () => {
    const r = await runCli('produce', ['-b', creating.bootstrap, '-t', 'fresh', '-q'], 'a\n');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('kafka-wire produce: topic fresh did not exist: the broker created it, with 1 partition (--no-create refuses instead)\n');
    expect((await runCli('consume', ['-b', creating.bootstrap, '-t', 'fresh', '-e', '-f', '%s\\n'])).stdout).toBe('a\n');
    // the second time it exists: nothing to say (-q: no summary either)
    expect((await runCli('produce', ['-b', creating.bootstrap, '-t', 'fresh', '-q'], 'b\n')).stderr).toBe('');
    expect((await runCli('produce', ['-b', creating.bootstrap, '-t', 'there', '-q'], 'c\n')).stderr).toBe('');
  });

  it('--no-create refuses, and the topic is not created', async () => {
    const r = await runCli('produce', ['-b', creating.bootstrap, '-t', 'typo', '--no-create', '-q'], 'a\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('topic typo does not exist (and --no-create says not to create it)\n');
    expect(r.stderr).not.toContain('created');
    expect(creating.topics.has('typo')).toBe(false);
    expect((await runCli('produce', ['-b', creating.bootstrap, '-t', 'there', '--no-create'], 'a\n')).code).toBe(0);
  });

  it('a broker that does not create topics: create it first', async () => {
    const r = await runCli('produce', ['-b', strict.bootstrap, '-t', 'fresh'], 'a\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/topic fresh does not exist, and the broker does not create topics on request \(auto.create.topics.enable=false\): create it first/);
  });
});
