// kafkajs's instrumentation events: `on(name, listener)` returns a remover, and each event is
// { id, type, timestamp, payload }. An unknown event name is refused as kafkajs refuses it.
// As kafkajs's, an event's id is a number (its types say string) and connect, disconnect and
// stop carry no payload (undefined, not null).
import { KafkaJSNonRetriableError } from './errors.js';
import type { InstrumentationEvent } from './types.js';

let nextId = 0;

export class Instrumentation {
  readonly #listeners = new Map<string, Set<(event: InstrumentationEvent<unknown>) => void>>();

  on(eventName: string, known: readonly string[], listener: (event: never) => void): () => void {
    if (!known.includes(eventName)) throw new KafkaJSNonRetriableError(`Event name should be one of ${known.join(', ')}`);
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
