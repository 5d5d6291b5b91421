// OpenTelemetry tracing for the producer and consumer, following the semantic conventions for
// messaging: a PRODUCER span per record sent ("send TOPIC"), whose context travels in the
// record's `traceparent`/`tracestate` headers (the propagator the app registered writes them),
// and a CONSUMER span per record processed ("process TOPIC"), a child of the producer's span
// when the record carries one, a new trace when it does not. The OpenTelemetry API module is the
// app's (`import * as otel from '@opentelemetry/api'`), passed in: nothing loads unless used.

/** The record a producer takes, as far as tracing needs (the producer's RecordInput fits). */
export interface OutgoingRecordLike {
  key?: Uint8Array | string | null;
  value?: Uint8Array | string | null;
  headers?: ReadonlyArray<{ key: string | Uint8Array; value?: Uint8Array | string | null }>;
}

/** The parts of @opentelemetry/api used here (its module namespace fits). */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): TracerLike;
    setSpan(context: unknown, span: SpanLike): unknown;
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  propagation: {
    inject(context: unknown, carrier: Record<string, string>, setter?: unknown): void;
    extract(context: unknown, carrier: Record<string, string>, getter?: unknown): unknown;
  };
  SpanKind: { PRODUCER: number; CONSUMER: number };
  SpanStatusCode: { ERROR: number };
}
interface TracerLike { startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean> }, context?: unknown): SpanLike }
interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  recordException(error: unknown): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The semantic conventions' names (messaging, Kafka). */
export const MESSAGING = {
  system: 'messaging.system',
  operationType: 'messaging.operation.type',
  operationName: 'messaging.operation.name',
  destination: 'messaging.destination.name',
  partition: 'messaging.destination.partition.id',
  offset: 'messaging.kafka.offset',
  key: 'messaging.kafka.message.key',
  group: 'messaging.consumer.group.name',
  clientId: 'messaging.client.id',
  bodySize: 'messaging.message.body.size',
} as const;

const TRACER = 'kafka-wire';
const decoder = new TextDecoder();

const text = (v: Uint8Array | string | null | undefined): string | undefined =>
  v === null || v === undefined ? undefined : typeof v === 'string' ? v : decoder.decode(v);

const sizeOf = (v: Uint8Array | string | null | undefined): number =>
  v === null || v === undefined ? 0 : typeof v === 'string' ? new TextEncoder().encode(v).length : v.length;

/** What a producer's send takes and gives back, as far as tracing needs. */
interface SendsRecords {
  send(topic: string, records: any, options?: { partition?: number }): Promise<readonly { partition: number; offset: bigint }[]>;
}

/**
 * Wraps `producer.send` so each record gets a PRODUCER span and carries its context in its
 * headers; the span ends with the partition and offset the broker gave, or the error. Returns
 * the producer.
 */
export function traceProducer<P extends SendsRecords>(producer: P, otel: OpenTelemetryApi, options: { clientId?: string } = {}): P {
  const tracer = otel.trace.getTracer(TRACER);
  const send = producer.send.bind(producer);
  producer.send = async (topic: string, records: OutgoingRecordLike | readonly OutgoingRecordLike[], sendOptions?: { partition?: number }) => {
    const list: readonly OutgoingRecordLike[] = Array.isArray(records) ? records : [records as OutgoingRecordLike];
    const parent = otel.context.active();
    const spans = list.map((record) => {
      const span = tracer.startSpan(`send ${topic}`, {
        kind: otel.SpanKind.PRODUCER,
        attributes: {
          [MESSAGING.system]: 'kafka', [MESSAGING.operationType]: 'send', [MESSAGING.operationName]: 'send',
          [MESSAGING.destination]: topic, [MESSAGING.bodySize]: sizeOf(record.value),
          ...(text(record.key) !== undefined ? { [MESSAGING.key]: text(record.key)! } : {}),
          ...(options.clientId !== undefined ? { [MESSAGING.clientId]: options.clientId } : {}),
        },
      }, parent);
      const carrier: Record<string, string> = {};
      otel.propagation.inject(otel.trace.setSpan(parent, span), carrier);
      // The record's own trace headers give way to the new span's.
      const kept = (record.headers ?? []).filter((h) => !(text(h.key)! in carrier));
      const headers = [...kept, ...Object.entries(carrier).map(([key, value]) => ({ key, value }))];
      return { span, record: { ...record, headers } };
    });
    try {
      const metadata = await send(topic, spans.map((s) => s.record), sendOptions);
      metadata.forEach((m, i) => {
        spans[i]?.span.setAttribute(MESSAGING.partition, String(m.partition));
        spans[i]?.span.setAttribute(MESSAGING.offset, Number(m.offset));
      });
      return metadata;
    } catch (error) {
      for (const { span } of spans) {
        span.recordException(error);
        span.setStatus({ code: otel.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      }
      throw error;
    } finally {
      for (const { span } of spans) span.end();
    }
  };
  return producer;
}

/** What a consumed record gives tracing (a decoded KafkaRecord fits). */
export interface ConsumedRecordLike {
  offset: bigint;
  key: Uint8Array | string | null;
  value: Uint8Array | string | null;
  headers: readonly { key: string; value: Uint8Array | string | null }[];
}

/** Where a consumed record came from. */
export interface ConsumedFrom {
  topic: string;
  partition: number;
  groupId?: string | null;
  clientId?: string;
}

/**
 * Runs `process()` inside a CONSUMER span ("process TOPIC") for `record`, a child of the span its
 * headers carry (a new trace when they carry none); the span ends when `process` settles, with
 * its error if it throws.
 */
export async function traceProcessing<T>(otel: OpenTelemetryApi, from: ConsumedFrom, record: ConsumedRecordLike, process: () => T | Promise<T>): Promise<T> {
  const carrier: Record<string, string> = {};
  for (const h of record.headers) {
    const value = text(h.value);
    if (value !== undefined) carrier[h.key] = value;
  }
  const parent = otel.propagation.extract(otel.context.active(), carrier);
  const span = otel.trace.getTracer(TRACER).startSpan(`process ${from.topic}`, {
    kind: otel.SpanKind.CONSUMER,
    attributes: {
      [MESSAGING.system]: 'kafka', [MESSAGING.operationType]: 'process', [MESSAGING.operationName]: 'process',
      [MESSAGING.destination]: from.topic, [MESSAGING.partition]: String(from.partition),
      [MESSAGING.offset]: Number(record.offset), [MESSAGING.bodySize]: sizeOf(record.value),
      ...(text(record.key) !== undefined ? { [MESSAGING.key]: text(record.key)! } : {}),
      ...(from.groupId != null ? { [MESSAGING.group]: from.groupId } : {}),
      ...(from.clientId !== undefined ? { [MESSAGING.clientId]: from.clientId } : {}),
    },
  }, parent);
  try {
    return await otel.context.with(otel.trace.setSpan(parent, span), process);
  } catch (error) {
    span.recordException(error);
    span.setStatus({ code: otel.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
