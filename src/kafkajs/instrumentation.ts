// kafkajs's instrumentation events: `on(name, listener)` returns a remover, and each event is
// { id, type, timestamp, payload }. An unknown event name is refused as kafkajs refuses it.
// As kafkajs's, an event's id is a number (its types say string) and connect, disconnect and
// stop carry no payload (undefined, not null).
import { KafkaJSNonRetriableError } from './errors.js';
import { asWorkOf, listenToRequests, requestPayload, timeoutPayload, type NetworkOwner } from './network-events.js';
import type { InstrumentationEvent } from './types.js';

let nextId = 0;

/**
 * A client's network events (./network-events.ts): the names of its REQUEST and REQUEST_TIMEOUT
 * events, and for the consumer the names its own hooks turn requests into (FETCH, HEARTBEAT, ...).
 */
export interface NetworkEvents { request: string; timeout: string; more?: { names: readonly string[]; owner: NetworkOwner } }

export class Instrumentation {
  readonly #listeners = new Map<string, Set<(event: InstrumentationEvent<unknown>) => void>>();
  readonly #network: NetworkEvents | undefined;
  /** Made when the app first listens to a network event: from then on the client's work is attributed to it. */
  #owner: NetworkOwner | null = null;

  constructor(network?: NetworkEvents) { this.#network = network; }

  /** Runs a client call as this client's work, so that the requests it sends are told to it (only once someone listens). */
  work<R>(fn: () => R): R { return this.#owner === null ? fn() : asWorkOf(this.#owner, fn); }

  #listenToNetwork(eventName: string): void {
    const n = this.#network;
    if (this.#owner !== null || n === undefined) return;
    if (eventName !== n.request && eventName !== n.timeout && !n.more?.names.includes(eventName)) return;
    const more = n.more?.owner;
    this.#owner = {
      started: (trace) => more?.started?.(trace),
      answered: (trace, response, sentAt, durationMs) => {
        if (this.has(n.request)) this.emit(n.request, requestPayload(trace, sentAt, durationMs));
        more?.answered?.(trace, response, sentAt, durationMs);
      },
      timedOut: (trace, sentAt) => {
        if (this.has(n.timeout)) this.emit(n.timeout, timeoutPayload(trace, sentAt));
        more?.timedOut?.(trace, sentAt);
      },
    };
    listenToRequests();
  }

  on(eventName: string, known: readonly string[], listener: (event: never) => void): () => void {
    if (!known.includes(eventName)) throw new KafkaJSNonRetriableError(`Event name should be one of ${known.join(', ')}`);
    this.#listenToNetwork(eventName);
    let set = this.#listeners.get(eventName);
    if (set === undefined) this.#listeners.set(eventName, set = new Set());
    const l = listener as (event: InstrumentationEvent<unknown>) => void;
    set.add(l);
    return () => { set.delete(l); };
  }

  /** Whether anyone listens (so a payload need not be built). */
  has(type: string): boolean { return (this.#listeners.get(type)?.size ?? 0) > 0; }

  emit(type: string, payload?: unknown): void {
    const set = this.#listeners.get(type);
    if (set === undefined || set.size === 0) return;
    const event = { id: nextId++ as unknown as string, type, timestamp: Date.now(), payload };
    for (const l of [...set]) {
      try { l(event); } catch { /* a listener's error is the listener's (kafkajs ignores it too) */ }
    }
  }
}
