// Real compressed batches between kafka-wire and librdkafka (kcat, the mock cluster): a thousand
// JSON events per codec, big enough that every compressor finds matches and lz4/snappy/zstd
// write several blocks. kcat produces with each codec and our consume reads it; our produce
// writes each codec and kcat consumes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockClusterAvailable, startMockCluster, type MockCluster } from './mock-cluster.js';
import { kcatAvailable, kcatOk, CODECS } from './kcat.js';
import { runCli, jsonLines } from './cli-io.js';
// @ts-expect-error: plain JavaScript module shared with the benchmarks
import { jsonEvents } from '../../bench/lib/events.mjs';

const avail = await mockClusterAvailable();
const haveKcat = kcatAvailable();
const COMPRESSED = CODECS.filter((c) => c !== 'none');

/** Whole JSON lines, about 300 KB, different per codec. */
function eventLines(seed: number): string[] {
  const text = new TextDecoder().decode(jsonEvents(300_000, seed) as Uint8Array);
  return text.split('\n').slice(0, -1);
}

describe.skipIf(!avail.ok || !haveKcat)('compressed batches ↔ librdkafka', () => {
  let mc: MockCluster;
  beforeAll(async () => {
    mc = await startMockCluster({ brokers: 1, topics: COMPRESSED.flatMap((z) => [`ours-${z}:1`, `theirs-${z}:1`]) });
  });
  afterAll(async () => { await mc?.stop(); });

  for (const [i, z] of COMPRESSED.entries()) {
    it(`${z}: kcat produces, we consume; we produce, kcat consumes`, async () => {
      const theirs = eventLines(100 + i);
      await kcatOk(['-b', mc.bootstrap, '-P', '-t', `theirs-${z}`, '-p', '0', '-z', z, '-X', 'linger.ms=50'], `${theirs.join('\n')}\n`);
      const read = await runCli('consume', ['-b', mc.bootstrap, '-t', `theirs-${z}`, '-p', '0', '-o', 'beginning', '-e']);
      expect(read.stderr).toBe('');
      expect(jsonLines(read.stdout).map((r) => r.value)).toEqual(theirs);

      const ours = eventLines(200 + i);
      const wrote = await runCli('produce', ['-b', mc.bootstrap, '-t', `ours-${z}`, '-p', '0', '-z', z], `${ours.join('\n')}\n`);
      expect(wrote.stderr).toMatch(/^% \d+ records .* acknowledged by ours-/);
      expect(wrote.code).toBe(0);
      const got = jsonLines(await kcatOk(['-b', mc.bootstrap, '-C', '-t', `ours-${z}`, '-p', '0', '-o', 'beginning', '-e', '-J']));
      expect(got.map((r) => r.payload)).toEqual(ours);
    }, 60_000);
  }
});
