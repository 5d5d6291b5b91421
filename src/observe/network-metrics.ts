// The network part of a client's metrics, under the Java client's names (the selector's and the
// network client's): connection-count, connection-creation-rate/-total,
// connection-close-rate/-total, request-rate/-total, request-latency-avg/-max. A consumer or
// admin passes one as its connections' observer (ConnectOptions.observer), so every connection
// its KafkaClient opens, coordinators' included, is counted. No runtime imports.
import type { Metrics } from './metrics.js';

/** What a client's metrics are told by each of its connections (ConnectOptions.observer). */
export interface ConnectionObserver {
  /** A connection is up (versions negotiated, authenticated). */
  opened(): void;
  /** It closed (for whatever reason). */
  closed(): void;
  /** A request was answered (failed: rejected, e.g. timed out or the connection lost) after `ms`. */
  answered(apiKey: number, ms: number, failed: boolean): void;
}

export class NetworkMetrics implements ConnectionObserver {
  #open = 0;
  readonly #created;
  readonly #closed;
  readonly #request;
  readonly #latency;

  /** Registers the metrics in `group` of `metrics` (e.g. consumer-metrics, admin-client-metrics). */
  constructor(metrics: Metrics, group: string) {
    metrics.gauge(group, 'connection-count', () => this.#open);
    this.#created = metrics.meter(group, 'connection-creation');
    this.#closed = metrics.meter(group, 'connection-close');
    this.#request = metrics.meter(group, 'request');
    this.#latency = metrics.stat(group, 'request-latency');
  }

  opened(): void { this.#open++; this.#created.record(); }
  closed(): void { this.#open--; this.#closed.record(); }
  answered(_apiKey: number, ms: number, _failed: boolean): void {
    this.#request.record();
    this.#latency.record(ms);
  }
}
