// KIP-714 client metrics push, as the Java client does it (enable.metrics.push): ask a broker for
// this client's telemetry subscription (GetTelemetrySubscriptions), and while the subscription
// asks for metrics, push the ones it names every push interval (PushTelemetry, OTLP protobuf
// metrics from observe/otlp.ts, compressed with the first codec the broker accepts that kafka-wire
// has, else none), a last push marked terminating on close. A broker without the APIs or a
// subscription asking for none means no pushes (with a subscription of none, a new look after
// the interval). Failures are
// logged at debug and never reach the app: telemetry is best effort, as in Java. Kafka lists the
// two APIs only when it has a client telemetry receiver plugin, so most brokers see no request.
import type { KafkaClient } from './client.js';
import { ApiKey } from '../generated/types.js';
import { ZERO_UUID } from './versions.js';
import { kafkaErrorName } from './errors.js';
import { compress } from '../records/index.js';
import { encodeOtlpMetrics } from '../observe/otlp.js';
import type { MetricValue } from '../observe/metrics.js';

/** Kafka's errors that mean: ask for the subscription again. */
const RESUBSCRIBE = new Set([117 /* UNKNOWN_SUBSCRIPTION_ID */]);
/** The interval when the broker gives none (Java's default, 5 minutes). */
const DEFAULT_INTERVAL_MS = 300_000;

interface Subscription {
  clientInstanceId: string;
  subscriptionId: number;
  pushIntervalMs: number;
  compressionType: number;
  deltaTemporality: boolean;
  telemetryMaxBytes: number;
  select: ((name: string) => boolean) | null;
}

/** Java's selection: no names, none; one empty name or "*", all; else by prefix. */
export function metricSelector(requested: readonly string[]): ((name: string) => boolean) | null {
  if (requested.length === 0) return null;
  if (requested.some((r) => r === '' || r === '*')) return () => true;
  return (name) => requested.some((r) => name.startsWith(r));
}

export class TelemetryPusher {
  readonly #client: KafkaClient;
  readonly #snapshot: () => MetricValue[];
  readonly #debug: ((message: string) => void) | undefined;
  readonly #startMs = Date.now();
  #subscription: Subscription | null = null;
  #instanceId = ZERO_UUID;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #previous = new Map<string, { value: number; atMs: number }>();
  #work: Promise<void> = Promise.resolve();
  /** Pushes sent and accepted (for tests and the debug log). */
  pushes = 0;

  constructor(client: KafkaClient, snapshot: () => MetricValue[], debug?: (message: string) => void) {
    this.#client = client;
    this.#snapshot = snapshot;
    this.#debug = debug;
  }

  #started = false;

  /** Looks for a subscription now (and pushes from then on as it says); once. */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#work = this.#subscribe();
  }

  #schedule(ms: number, what: () => Promise<void>): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => { this.#work = what(); }, ms);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #subscribe(): Promise<void> {
    try {
      const conn = await this.#client.anyConnection();
      const version = conn.versionFor(ApiKey.GetTelemetrySubscriptions);
      if (version === undefined || conn.versionFor(ApiKey.PushTelemetry) === undefined) { this.#debug?.('telemetry: the broker has no KIP-714 APIs; no metrics pushed'); return; }
      const res = await conn.request(ApiKey.GetTelemetrySubscriptions, version, { clientInstanceId: this.#instanceId });
      if (res.errorCode !== 0) throw new Error(kafkaErrorName(res.errorCode));
      this.#instanceId = res.clientInstanceId;
      const interval = res.pushIntervalMs > 0 ? res.pushIntervalMs : DEFAULT_INTERVAL_MS;
      const compressionType = res.acceptedCompressionTypes.find((c) => { try { compress(c, new Uint8Array(1)); return true; } catch { return false; } }) ?? 0;
      const select = metricSelector(res.requestedMetrics);
      if (select === null || this.#subscription?.deltaTemporality !== res.deltaTemporality) this.#previous = new Map();
      this.#subscription = { clientInstanceId: res.clientInstanceId, subscriptionId: res.subscriptionId, pushIntervalMs: interval, compressionType, deltaTemporality: res.deltaTemporality, telemetryMaxBytes: res.telemetryMaxBytes, select };
      this.#debug?.(`telemetry: subscription ${res.subscriptionId}, ${select === null ? 'no metrics' : `${res.requestedMetrics.length} metric prefixes`}, every ${interval} ms`);
      // Java: the first push at a random point of the first interval (0.5 to 1.5 of it), so clients spread out.
      if (select === null) this.#schedule(interval, () => this.#subscribe());
      else this.#schedule(Math.round(interval * (0.5 + Math.random())), () => this.#push(false));
    } catch (err) {
      this.#debug?.(`telemetry: GetTelemetrySubscriptions failed (${(err as Error).message}); trying again later`);
      this.#schedule(this.#subscription?.pushIntervalMs ?? 30_000, () => this.#subscribe());
    }
  }

  /** The snapshot as the subscription asks for it: OTLP bytes, compressed. */
  #payload(s: Subscription): { metrics: Uint8Array; names: string[] } {
    const { bytes, names } = encodeOtlpMetrics(this.#snapshot(), {
      nowMs: Date.now(), startMs: this.#startMs, select: s.select ?? undefined, previous: s.deltaTemporality ? this.#previous : undefined,
    });
    return { metrics: s.compressionType === 0 ? bytes : compress(s.compressionType, bytes), names };
  }

  async #push(terminating: boolean): Promise<void> {
    const s = this.#subscription;
    if (!s || s.select === null) return;
    try {
      const conn = await this.#client.anyConnection();
      const { metrics, names } = this.#payload(s);
      const res = await conn.request(ApiKey.PushTelemetry, undefined, {
        clientInstanceId: s.clientInstanceId, subscriptionId: s.subscriptionId, terminating, compressionType: s.compressionType, metrics,
      });
      if (res.errorCode !== 0) {
        this.#debug?.(`telemetry: PushTelemetry: ${kafkaErrorName(res.errorCode)}`);
        if (!terminating) this.#schedule(RESUBSCRIBE.has(res.errorCode) ? 0 : s.pushIntervalMs, () => this.#subscribe());
        return;
      }
      this.pushes++;
      this.#debug?.(`telemetry: pushed ${names.length} metrics (${metrics.length} bytes)${terminating ? ', terminating' : ''}`);
    } catch (err) {
      this.#debug?.(`telemetry: PushTelemetry failed (${(err as Error).message})`);
    }
    if (!terminating) this.#schedule(s.pushIntervalMs, () => this.#push(false));
  }

  /** Stops; with a subscription that asks for metrics, one last push marked terminating (before the client closes). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    // A push under way ends first (not a subscription lookup: it may wait for a broker that is not there).
    if (this.#subscription?.select) {
      await this.#work.catch(() => {});
      await this.#push(true);
    }
  }
}
