// kafka-wire/observe: what production monitoring plugs into. The diagnostics channels
// (kafka-wire:request, :produce, :fetch, :group), the metric snapshot's types, the prom-client and
// OpenTelemetry metrics adapters, and OpenTelemetry tracing for the producer and consumer. Each
// adapter takes the app's own module (prom-client, @opentelemetry/api): nothing loads unless used.
export {
  KafkaChannel, requestChannel, produceChannel, fetchChannel, groupChannel, diagnosticsAvailable,
  type RequestTrace, type ProduceTrace, type FetchTrace, type GroupTrace, type GroupEvent,
} from './channels.js';
export { Metrics, Meter, Stat, metricsByName, SAMPLE_WINDOW_MS, METRIC_TAGS, type MetricValue, type MetricsSource } from './metrics.js';
export { registerPrometheus, prometheusName, type PrometheusOptions } from './prometheus.js';
export { observeWithOpenTelemetry, openTelemetryName } from './opentelemetry.js';
export { traceProducer, traceProcessing, MESSAGING, type OpenTelemetryApi, type ConsumedRecordLike, type ConsumedFrom, type OutgoingRecordLike } from './tracing.js';
