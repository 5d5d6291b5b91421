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
