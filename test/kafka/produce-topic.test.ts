// Producing to a topic that does not exist, against real Kafka: with auto-creation on, the CLI says
// the broker created it and the records are there; --no-create refuses and creates nothing; with
// auto-creation off, it says to create the topic first.
import { describe, expect, it } from 'vitest';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { runCli } from '../wire/cli-io.js';

const ok = await kafkaPeer();

describe.skipIf(!ok)('produce to a missing topic, real Kafka with auto-creation on', () => {
  const kafka = useKafka({ nodes: 1, config: { 'auto.create.topics.enable': 'true', 'num.partitions': '2' } });
  it('says the broker created it; --no-create refuses', async () => {
    const b = kafka().bootstrap;
    const refused = await runCli('produce', ['-b', b, '-t', 'never-made', '--no-create'], 'x\n');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('topic never-made does not exist (and --no-create says not to create it)');
    const made = await runCli('produce', ['-b', b, '-t', 'made-on-demand', '-q'], 'one\ntwo\n');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toBe('kafka-wire produce: topic made-on-demand did not exist: the broker created it, with 2 partitions (--no-create refuses instead)\n');
    const read = await runCli('consume', ['-b', b, '-t', 'made-on-demand', '-e', '-f', '%s\\n']);
    expect(read.stdout.trim().split('\n').sort()).toEqual(['one', 'two']);
    const metadata = await runCli('metadata', ['-b', b, '--json']);
    expect(JSON.parse(metadata.stdout).topics.map((t: { name: string }) => t.name)).not.toContain('never-made');
  }, 120_000);
});

describe.skipIf(!ok)('produce to a missing topic, real Kafka with auto-creation off', () => {
  const kafka = useKafka({ nodes: 1, config: { 'auto.create.topics.enable': 'false' } });
  it('says to create it first', async () => {
    const r = await runCli('produce', ['-b', kafka().bootstrap, '-t', 'not-there'], 'x\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/topic not-there does not exist, and the broker does not create topics on request \(auto.create.topics.enable=false\): create it first/);
  }, 120_000);
});
