// The diagnostics channels: Node's own tracing channels under kafka-wire's names, whose context is
// made only while someone subscribes, and whose subscribers see start, end, asyncStart/asyncEnd
// and error for each traced operation.
import { describe, expect, it } from 'vitest';
import diagnostics from 'node:diagnostics_channel';
import { KafkaChannel, diagnosticsAvailable, requestChannel, type RequestTrace } from '../../src/observe/channels.js';

const trace = (): RequestTrace => ({ apiKey: 3, apiName: 'Metadata', apiVersion: 12, broker: '127.0.0.1:9092', correlationId: 1, clientId: 'c', requestBytes: 40 });

describe('kafka-wire diagnostics channels', () => {
  it('is Node\'s tracing channel of the documented name', async () => {
    expect(diagnosticsAvailable()).toBe(true);
    const seen: string[] = [];
    const onStart = (message: unknown) => seen.push((message as RequestTrace).apiName);
    diagnostics.subscribe('tracing:kafka-wire:request:start', onStart);
    try {
      expect(requestChannel.active).toBe(true);
      await requestChannel.tracePromise(trace, async () => 1);
      expect(seen).toEqual(['Metadata']);
    } finally {
      diagnostics.unsubscribe('tracing:kafka-wire:request:start', onStart);
    }
  });

  it('makes no context and publishes nothing without a subscriber', async () => {
    const channel = new KafkaChannel<RequestTrace>('kafka-wire:test-idle');
    let made = 0;
    expect(channel.active).toBe(false);
    expect(await channel.tracePromise(() => { made++; return trace(); }, async (context) => context)).toBeUndefined();
    channel.event(() => { made++; return trace(); });
    expect(made).toBe(0);
  });

  it('gives subscribers start, asyncEnd and error, with the result or the error on the context', async () => {
    const channel = new KafkaChannel<RequestTrace>('kafka-wire:test-busy');
    const events: string[] = [];
    const stop = channel.subscribe({
      start: (m) => events.push(`start ${m.correlationId}`),
      asyncEnd: (m) => events.push(`asyncEnd ${m.correlationId} ${String(m.result ?? '')}${m.error ? ` ${(m.error as Error).message}` : ''}`),
      error: (m) => events.push(`error ${(m.error as Error).message}`),
    });
    await channel.tracePromise(() => ({ ...trace(), correlationId: 7 }), async (context) => { context!.responseBytes = 10; return 'ok'; });
    await expect(channel.tracePromise(() => ({ ...trace(), correlationId: 8 }), async () => { throw new Error('TIMEOUT'); })).rejects.toThrow('TIMEOUT');
    stop();
    await channel.tracePromise(() => ({ ...trace(), correlationId: 9 }), async () => 'unseen');
    expect(events).toEqual(['start 7', 'asyncEnd 7 ok', 'start 8', 'error TIMEOUT', 'asyncEnd 8  TIMEOUT']);
  });
});

describe('the clients publish on the channels', () => {
  it('gives every request of a run start and asyncEnd with its bytes, a timed-out one error, and none once unsubscribed', async () => {
    const { startMemoryBroker } = await import('../../src/wire/memory-broker.js');
    const { connect } = await import('../../src/wire/connection.js');
    const { createServer } = await import('node:net');
    const broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { t: 1 } });
    const seen: string[] = [];
    const handlers = {
      start: (m: RequestTrace) => seen.push(`start ${m.apiName} v${m.apiVersion} #${m.correlationId} ${m.requestBytes > 0}`),
      asyncEnd: (m: RequestTrace & { error?: unknown }) => seen.push(`end ${m.apiName} #${m.correlationId}${m.error ? ' error' : ` ${(m.responseBytes ?? 0) > 0}`}`),
      error: (m: RequestTrace & { error?: unknown }) => seen.push(`error ${m.apiName} ${(m.error as Error).message.includes('timed out')}`),
    };
    const stop = requestChannel.subscribe(handlers);
    // A server that accepts and never answers: the request times out.
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const conn = await connect({ host: broker.host, port: broker.port, clientId: 'traced' });
      await conn.request(3, undefined, { topics: null });
      await conn.close();
      const mute = await connect({ host: '127.0.0.1', port: (silent.address() as { port: number }).port, negotiateVersions: false });
      await expect(mute.request(3, 12, { topics: null }, { timeoutMs: 200 })).rejects.toThrow(/timed out/);
      mute.destroy();
      stop();
      const quiet = await connect({ host: broker.host, port: broker.port });
      await quiet.request(3, undefined, { topics: null });
      await quiet.close();
    } finally {
      stop();
      silent.close();
      await broker.close();
    }
    expect(seen).toEqual([
      expect.stringMatching(/^start ApiVersions v\d+ #0 true$/), 'end ApiVersions #0 true',
      expect.stringMatching(/^start Metadata v\d+ #1 true$/), 'end Metadata #1 true',
      'start Metadata v12 #0 true', 'error Metadata true', 'end Metadata #0 error',
    ]);
  });
});

describe('the consumer publishes kafka-wire:fetch', () => {
  it('traces run()\'s handler per batch (start, asyncEnd; error when it throws), the iterator\'s batches as start and end, and nothing unsubscribed', async () => {
    const { startMemoryBroker } = await import('../../src/wire/memory-broker.js');
    const { Producer } = await import('../../src/producer/index.js');
    const { Consumer } = await import('../../src/consumer/index.js');
    const { fetchChannel } = await import('../../src/observe/channels.js');
    const broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { f: 1 } });
    const producer = new Producer({ bootstrap: broker.bootstrap, lingerMs: 0 });
    const seen: string[] = [];
    const stop = fetchChannel.subscribe({
      start: (m) => seen.push(`start ${m.topic}/${m.partition} @${m.firstOffset} ${m.records} ${m.bytes > 0} ${m.groupId}`),
      end: (m) => seen.push(`end ${m.firstOffset}`),
      asyncEnd: (m) => seen.push(`asyncEnd ${m.firstOffset}${m.error ? ' error' : ''}`),
      error: (m) => seen.push(`error ${(m.error as Error).message}`),
    });
    try {
      await producer.send('f', [{ value: 'a' }, { value: 'b' }]);
      const failing = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'f' }], resetPolicy: 'earliest' });
      await expect(failing.run(async () => { throw new Error('handler broke'); })).rejects.toThrow('handler broke');
      await failing.close();
      const iterating = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'f' }], resetPolicy: 'earliest' });
      for await (const batch of iterating) { expect(batch.recordCount).toBe(2); break; }
      await iterating.close();
      const running = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'f' }], resetPolicy: 'earliest' });
      await new Promise<void>((resolve, reject) => { running.run(async () => { resolve(); }).catch(reject); });
      await running.close();
      stop();
      const quiet = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'f' }], resetPolicy: 'earliest' });
      for await (const batch of quiet) { quiet.markFinished(batch); break; }
      await quiet.close();
    } finally {
      stop();
      await producer.close();
      await broker.close();
    }
    expect(seen).toEqual([
      'start f/0 @0 2 true null', 'end 0', 'error handler broke', 'asyncEnd 0 error',
      'start f/0 @0 2 true null', 'end 0',
      'start f/0 @0 2 true null', 'end 0', 'asyncEnd 0',
    ]);
  });
});
