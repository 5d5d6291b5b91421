// The producer's metrics under the Java producer's names (group producer-metrics): what it sent,
// what failed and was retried, batch sizes, request latency, requests in flight and buffer room.
// One place counts them, from the producer's own acknowledgements, failures and requests.
import { Metrics, type MetricValue } from '../observe/metrics.js';
import { produceChannel } from '../observe/channels.js';

const GROUP = 'producer-metrics';

export class ProducerMetrics {
  readonly metrics: Metrics;
  readonly #recordSend;
  readonly #outgoingBytes;
  readonly #batchSize;
  readonly #recordsPerRequest;
  readonly #recordError;
  readonly #recordRetry;
  readonly #request;
  readonly #requestLatency;
  readonly #recordQueueTime;

  constructor(clientId: string, live: { inFlight: () => number; bufferTotal: number; buffered: () => number }) {
    const m = this.metrics = new Metrics(clientId);
    this.#recordSend = m.meter(GROUP, 'record-send');
    this.#outgoingBytes = m.meter(GROUP, 'outgoing-byte');
    this.#batchSize = m.stat(GROUP, 'batch-size');
    this.#recordsPerRequest = m.stat(GROUP, 'records-per-request');
    this.#recordError = m.meter(GROUP, 'record-error');
    this.#recordRetry = m.meter(GROUP, 'record-retry');
    this.#request = m.meter(GROUP, 'request');
    this.#requestLatency = m.stat(GROUP, 'request-latency');
    this.#recordQueueTime = m.stat(GROUP, 'record-queue-time');
    m.gauge(GROUP, 'requests-in-flight', live.inFlight);
    m.gauge(GROUP, 'buffer-total-bytes', () => live.bufferTotal);
    m.gauge(GROUP, 'buffer-available-bytes', () => live.bufferTotal - live.buffered());
  }

  /** A Produce request went out with `records` records. */
  sent(records: number): void {
    this.#request.record();
    this.#recordsPerRequest.record(records);
  }

  /** A batch was acknowledged. */
  acked(ack: { topic: string; partition: number; baseOffset: bigint; records: number; bytes: number; latencyMs: number; requestMs: number; attempts: number }): void {
    this.#recordSend.record(ack.records);
    this.#outgoingBytes.record(ack.bytes);
    this.#batchSize.record(ack.bytes);
    this.#requestLatency.record(ack.requestMs);
    this.#recordQueueTime.record(Math.max(0, ack.latencyMs - ack.requestMs));
    if (ack.attempts > 1) this.#recordRetry.record(ack.records * (ack.attempts - 1));
    produceChannel.event(() => ({ topic: ack.topic, partition: ack.partition, records: ack.records, bytes: ack.bytes, baseOffset: ack.baseOffset, latencyMs: ack.latencyMs }));
  }

  /** A batch of `records` records failed for good. */
  failed(records: number): void {
    this.#recordError.record(records);
  }

  snapshot(): MetricValue[] { return this.metrics.snapshot(); }
}
