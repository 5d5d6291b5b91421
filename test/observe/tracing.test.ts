// OpenTelemetry tracing through the memory broker, with the SDK's in-memory exporter and W3C
// propagation as an app registers them: a record sent by a traced producer and processed by the
// consumer gives a PRODUCER span and a CONSUMER span in one trace, the consumer's a child of the
// producer's, with the messaging conventions' attributes; a record without trace headers starts a
// new trace; a processing error is the span's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as otel from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { Producer } from '../../src/producer/index.js';
import { Consumer } from '../../src/consumer/index.js';
import { traceProducer, traceProcessing, MESSAGING } from '../../src/observe/tracing.js';

describe('OpenTelemetry tracing, producer to consumer', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let broker: MemoryBroker;
  beforeAll(async () => {
    otel.trace.setGlobalTracerProvider(provider);
    otel.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { traced: 1 } });
  });
  afterAll(async () => {
    await broker?.close();
    await provider.shutdown();
    otel.trace.disable();
    otel.propagation.disable();
  });

  it('joins the consumer\'s span to the producer\'s trace through the record\'s headers', async () => {
    const producer = traceProducer(new Producer({ bootstrap: broker.bootstrap, lingerMs: 0 }), otel, { clientId: 'traced-app' });
    const [sent] = await producer.send('traced', { key: 'order-1', value: '{"n":1}' });
    await producer.close();
    // A record sent without the traced producer: no trace headers.
    const plain = new Producer({ bootstrap: broker.bootstrap, lingerMs: 0 });
    await plain.send('traced', { key: 'order-2', value: 'x' });
    await plain.close();

    const consumer = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'traced' }], resetPolicy: 'earliest' });
    const processed: string[] = [];
    const failures: unknown[] = [];
    for await (const batch of consumer) {
      for (const record of batch.records()) {
        const from = { topic: batch.topic, partition: batch.partition, groupId: 'billing' };
        await traceProcessing(otel, from, record, () => { processed.push(String(record.offset)); });
        if (record.offset === 1n) {
          await traceProcessing(otel, from, record, () => { throw new Error('handler failed'); }).catch((e) => failures.push(e));
        }
      }
      if (processed.length >= 2) break;
    }
    await consumer.close();
    expect(processed).toEqual(['0', '1']);
    expect(failures).toHaveLength(1);

    const spans = exporter.getFinishedSpans();
    const send = spans.find((s) => s.name === 'send traced')!;
    const [first, second, failed] = spans.filter((s) => s.name === 'process traced');
    expect(send.kind).toBe(otel.SpanKind.PRODUCER);
    expect(send.attributes).toMatchObject({
      [MESSAGING.system]: 'kafka', [MESSAGING.destination]: 'traced', [MESSAGING.operationName]: 'send',
      [MESSAGING.partition]: String(sent!.partition), [MESSAGING.offset]: Number(sent!.offset), [MESSAGING.key]: 'order-1',
      [MESSAGING.clientId]: 'traced-app',
    });
    expect(first!.kind).toBe(otel.SpanKind.CONSUMER);
    expect(first!.spanContext().traceId).toBe(send.spanContext().traceId);
    expect(first!.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    expect(first!.attributes).toMatchObject({ [MESSAGING.offset]: 0, [MESSAGING.group]: 'billing', [MESSAGING.operationName]: 'process' });
    // The record without headers: its own trace, no parent.
    expect(second!.spanContext().traceId).not.toBe(send.spanContext().traceId);
    expect(second!.parentSpanContext).toBeUndefined();
    expect(failed!.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(failed!.events.map((e) => e.name)).toContain('exception');
  });
});
