// kafkajs's network instrumentation events (REQUEST and REQUEST_TIMEOUT of the producer, the
// consumer and the admin client; the consumer's FETCH_START, FETCH and HEARTBEAT) from
// kafka-wire's request diagnostics channel (src/observe/channels.ts). Each request is told to the
// kafkajs client whose work sent it: the client runs its calls (and so the kafka-wire loops they
// start: fetching, heartbeats, the producer's sender) inside an AsyncLocalStorage holding it.
// The channel is subscribed to only once an app listens to one of these events, so a client
// nobody listens to pays nothing; where the runtime has no AsyncLocalStorage or diagnostics
// channels (browsers), these events do not come.
import { requestChannel, type RequestTrace } from '../observe/channels.js';
import { ConnectionError } from '../wire/errors.js';

/** What a kafkajs client wants told about the requests its work sent. */
export interface NetworkOwner {
  /** A request is being sent (synchronously, before it is written). */
  started?(trace: RequestTrace): void;
  /** Its answer came: the decoded response, when the request was sent, how long it took. */
  answered?(trace: RequestTrace, response: unknown, sentAt: number, durationMs: number): void;
  /** It timed out. */
  timedOut?(trace: RequestTrace, sentAt: number): void;
}

interface Storage<T> { run<R>(store: T, fn: () => R): R; getStore(): T | undefined }

function loadStorage(): Storage<NetworkOwner> | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const m = proc?.getBuiltinModule?.('node:async_hooks') as { AsyncLocalStorage?: new () => Storage<NetworkOwner> } | undefined;
    if (m?.AsyncLocalStorage !== undefined) return new m.AsyncLocalStorage();
  } catch { /* not this runtime's */ }
  return undefined;
}

const storage = loadStorage();
const inFlight = new WeakMap<object, { owner: NetworkOwner; sentAt: number }>();
let subscribed = false;

/** Subscribes to the request channel (once, when the first app listener asks for a network event). */
export function listenToRequests(): void {
  if (subscribed || storage === undefined) return;
  subscribed = true;
  requestChannel.subscribe({
    start(trace) {
      const owner = storage.getStore();
      if (owner === undefined) return;
      inFlight.set(trace, { owner, sentAt: Date.now() });
      owner.started?.(trace);
    },
    asyncEnd(trace) {
      const f = inFlight.get(trace);
      if (f === undefined) return;
      inFlight.delete(trace);
      if (trace.error === undefined) f.owner.answered?.(trace, trace.result, f.sentAt, Date.now() - f.sentAt);
    },
    error(trace) {
      const f = inFlight.get(trace);
      if (f === undefined) return;
      if (trace.error instanceof ConnectionError && trace.error.code === 'TIMEOUT') {
        inFlight.delete(trace);
        f.owner.timedOut?.(trace, f.sentAt);
      }
    },
  });
}

/** Runs `fn` (and what it starts) as `owner`'s work. */
export function asWorkOf<R>(owner: NetworkOwner, fn: () => R): R {
  return storage === undefined ? fn() : storage.run(owner, fn);
}

/** kafkajs's REQUEST payload of an answered request. */
export function requestPayload(trace: RequestTrace, sentAt: number, durationMs: number) {
  return {
    apiKey: trace.apiKey, apiName: trace.apiName, apiVersion: trace.apiVersion, broker: trace.broker, clientId: trace.clientId ?? '',
    correlationId: trace.correlationId, createdAt: sentAt, sentAt, pendingDuration: 0, duration: durationMs, size: trace.responseBytes ?? 0,
  };
}

/** kafkajs's REQUEST_TIMEOUT payload. */
export function timeoutPayload(trace: RequestTrace, sentAt: number) {
  return {
    apiKey: trace.apiKey, apiName: trace.apiName, apiVersion: trace.apiVersion, broker: trace.broker, clientId: trace.clientId ?? '',
    correlationId: trace.correlationId, createdAt: sentAt, sentAt, pendingDuration: Date.now() - sentAt,
  };
}
