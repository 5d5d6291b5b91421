// A small typed event emitter that needs no node:events, so the connection, the consumers and the
// producer bundle for browsers and workerd as they are. It keeps the part of Node's EventEmitter
// API the clients offer (on/addListener, once, off/removeListener, removeAllListeners, emit,
// listenerCount, listeners) with Node's rules: listeners run in the order added, synchronously;
// a listener added or removed during an emit does not change that emit; `emit('error')` with no
// listener throws the error (or an Error naming the value).

type Listener<A extends unknown[]> = (...args: A) => void;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyListener = (...args: any[]) => void;
interface Entry { listener: AnyListener; once: boolean }

export class Emitter<E extends { [K in keyof E]: unknown[] }> {
  readonly #listeners = new Map<keyof E, Entry[]>();

  on<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return this.#add(event, listener, false);
  }

  addListener<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return this.#add(event, listener, false);
  }

  once<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return this.#add(event, listener, true);
  }

  /** Removes the most recently added registration of `listener` (as Node does). */
  off<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    const list = this.#listeners.get(event);
    if (list === undefined) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].listener === (listener as AnyListener)) {
        const next = list.slice(0, i).concat(list.slice(i + 1));
        if (next.length === 0) this.#listeners.delete(event);
        else this.#listeners.set(event, next);
        break;
      }
    }
    return this;
  }

  removeListener<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    return this.off(event, listener);
  }

  removeAllListeners<K extends keyof E & string>(event?: K): this {
    if (event === undefined) this.#listeners.clear();
    else this.#listeners.delete(event);
    return this;
  }

  listenerCount<K extends keyof E & string>(event: K): number {
    return this.#listeners.get(event)?.length ?? 0;
  }

  listeners<K extends keyof E & string>(event: K): Listener<E[K]>[] {
    return (this.#listeners.get(event) ?? []).map((e) => e.listener as Listener<E[K]>);
  }

  /** Calls every listener of `event` with `args`; whether there was one. */
  emit<K extends keyof E & string>(event: K, ...args: E[K]): boolean {
    const list = this.#listeners.get(event);
    if (list === undefined || list.length === 0) {
      if (event === 'error') {
        const error = args[0];
        throw error instanceof Error ? error : new Error(`Unhandled error event: ${String(error)}`);
      }
      return false;
    }
    // The array is replaced, never changed in place, so this emit sees the listeners it began with.
    for (const entry of list) {
      if (entry.once) this.#drop(event, entry);
      entry.listener(...args);
    }
    return true;
  }

  #drop(event: keyof E, entry: Entry): void {
    const next = (this.#listeners.get(event) ?? []).filter((e) => e !== entry);
    if (next.length === 0) this.#listeners.delete(event);
    else this.#listeners.set(event, next);
  }

  #add(event: keyof E, listener: AnyListener, once: boolean): this {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), { listener, once }]);
    return this;
  }
}
