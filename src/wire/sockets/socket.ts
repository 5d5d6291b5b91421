// What a Connection needs of a socket, so that one connection layer runs over every transport:
// node:net and node:tls (Node, Bun, Deno), cloudflare:sockets (workerd), and a WebSocket to
// `kafka-wire bridge` (browsers). A node:net Socket is one as it is; the others adapt to it.
// The byte stream is Kafka's: writes may split a frame into pieces, reads may join or split frames.

export interface ByteSocketEvents {
  data: [chunk: Uint8Array];
  end: [];
  error: [error: Error];
  close: [];
}

export interface ByteSocket {
  write(bytes: Uint8Array, done?: (error?: Error | null) => void): unknown;
  /** Writes between cork() and uncork() may leave together (one writev); a hint only. */
  cork(): void;
  uncork(): void;
  /** Half-closes: no more writes; 'close' follows once the other side is done. */
  end(): unknown;
  /** Closes at once. */
  destroy(): unknown;
  readonly destroyed: boolean;
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
  /**
   * True when each 'data' chunk is a view of a buffer the socket reads into again: valid only
   * while the listener runs (the listener copies what it keeps).
   */
  readonly chunksReused?: boolean;
  /**
   * Lets the reader say where the next bytes go: `next` is asked before each read and gives the
   * rest of a frame being received, so that they land there with no copy (the chunk is then a view
   * of it), or undefined for the socket's own buffer. Only a socket that reads into a buffer of
   * its own has it.
   */
  readInto?(next: () => Uint8Array | undefined): void;
  on<E extends keyof ByteSocketEvents>(event: E, listener: (...args: ByteSocketEvents[E]) => void): unknown;
  once<E extends keyof ByteSocketEvents>(event: E, listener: (...args: ByteSocketEvents[E]) => void): unknown;
  off<E extends keyof ByteSocketEvents>(event: E, listener: (...args: ByteSocketEvents[E]) => void): unknown;
}

/** Where to connect: the broker's address as Kafka names it, and how long opening may take. */
export interface SocketTarget {
  host: string;
  port: number;
  /** The ConnectOptions' tls (true, or the transport's own TLS options). */
  tls?: unknown;
  /** 0: no limit. */
  timeoutMs: number;
}

/**
 * Opens a connected socket to a broker, or rejects with an Error saying why (the connection
 * layer wraps it as ConnectionError CONNECT). Given as ConnectOptions.socket.
 */
export type SocketConnector = (target: SocketTarget) => Promise<ByteSocket>;

/**
 * A small event emitter with the ByteSocket's on/once/off, for transports that are not node:net,
 * and the one way such a socket ends: destroyed, then 'end' and 'close' once.
 */
export class SocketEvents {
  readonly #listeners = new Map<string, Set<(...args: any[]) => void>>();
  #ended = false;
  protected destroyedFlag = false;

  get destroyed(): boolean { return this.destroyedFlag; }

  /** Marks the socket gone and says so once ('end', then 'close'). */
  protected finish(): void {
    this.destroyedFlag = true;
    if (this.#ended) return;
    this.#ended = true;
    this.emit('end');
    this.emit('close');
  }

  on(event: string, listener: (...args: any[]) => void): this {
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, set = new Set());
    set.add(listener);
    return this;
  }

  once(event: string, listener: (...args: any[]) => void): this {
    const wrapped = (...args: any[]) => { this.off(event, wrapped); listener(...args); };
    (wrapped as { original?: unknown }).original = listener;
    return this.on(event, wrapped);
  }

  off(event: string, listener: (...args: any[]) => void): this {
    const set = this.#listeners.get(event);
    if (set === undefined) return this;
    for (const l of set) if (l === listener || (l as { original?: unknown }).original === listener) set.delete(l);
    return this;
  }

  protected emit(event: string, ...args: unknown[]): void {
    const set = this.#listeners.get(event);
    if (set !== undefined) for (const l of [...set]) l(...args);
  }
}
