// The fault proxy itself (test/helpers/fault-proxy.ts): it forwards untouched when told nothing,
// knows which API an answer belongs to, and applies a scripted fault to exactly the answer named.
import { describe, it, expect, afterEach } from 'vitest';
import { connect } from '../../src/wire/connection.js';
import { ConnectionError } from '../../src/wire/errors.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { ApiKey } from '../../src/generated/types.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { waitUntil } from '../helpers/wait.js';

let broker: MemoryBroker | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => { await proxy?.close(); await broker?.close(); proxy = broker = undefined; });

describe('fault proxy', () => {
  it('forwards answers untouched and rewrites broker addresses to its own', async () => {
    broker = await startMemoryBroker({ topics: { t: 2 } });
    proxy = await startFaultProxy({ upstream: broker });
    const conn = await connect({ host: proxy.host, port: proxy.port });
    const md = await conn.request(ApiKey.Metadata, undefined, { topics: null });
    expect(md.brokers.map((b) => b.port)).toEqual([proxy.port]);
    expect(md.topics.find((t) => t.name === 't')?.partitions).toHaveLength(2);
    expect(proxy.answers.get(ApiKey.ApiVersions)).toBe(1);
    expect(proxy.answers.get(ApiKey.Metadata)).toBe(1);
    expect(proxy.opened).toBe(1);
    await conn.close();
    await waitUntil(() => proxy!.open === 0, 'the proxy to see the close');
    expect(proxy.faults).toEqual([]);
  });

  it('applies a scripted fault to the nth answer of an API and counts it', async () => {
    broker = await startMemoryBroker({ topics: { t: 1 } });
    proxy = await startFaultProxy({ upstream: broker, script: [{ apiKey: ApiKey.Metadata, nth: 3, kind: 'midframe' }] });
    const conn = await connect({ host: proxy.host, port: proxy.port });
    await conn.request(ApiKey.Metadata, undefined, { topics: null });
    await conn.request(ApiKey.Metadata, undefined, { topics: null });
    const third = await conn.request(ApiKey.Metadata, undefined, { topics: null }).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(ConnectionError);
    expect((third as ConnectionError).code).toBe('TRUNCATED');
    expect(proxy.faults).toEqual([{ kind: 'midframe', apiKey: ApiKey.Metadata, nth: 3, connection: 1 }]);
    await waitUntil(() => proxy!.open === 0, 'the cut connection to close');
  });

  it('seeded random faults are the same for the same seed', async () => {
    broker = await startMemoryBroker({ topics: { t: 1 } });
    const runs: string[] = [];
    for (let run = 0; run < 2; run++) {
      proxy = await startFaultProxy({ upstream: broker, seed: 7, rate: 0.5, kinds: ['delay', 'duplicate', 'garbage'], apiKeys: [ApiKey.Metadata], delayMs: 5 });
      for (let i = 0; i < 6; i++) {
        const conn = await connect({ host: proxy.host, port: proxy.port });
        await conn.request(ApiKey.Metadata, undefined, { topics: null }).catch(() => undefined);
        conn.destroy();
      }
      runs.push(proxy.faults.map((f) => `${f.kind}@${f.nth}`).join(','));
      await proxy.close();
      proxy = undefined;
    }
    expect(runs[0]).not.toBe('');
    expect(runs[1]).toBe(runs[0]);
  });
});
