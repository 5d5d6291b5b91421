// One client connection to one Kafka broker: framing, correlation, version negotiation,
// timeouts and SASL (the mechanisms are in ./sasl/), over a socket of ./sockets/: node:net or
// node:tls by default, workerd's cloudflare:sockets there, a WebSocket to kafka-wire bridge when
// asked. No transport is imported statically, so the module loads in every runtime.
//
//   const conn = await connect({ host: '127.0.0.1', port: 9092, clientId: 'me' });
//   const md = await conn.request(ApiKey.Metadata, undefined, { topics: null });
//   await conn.close();
//
// Every request is either answered, or rejected with a ConnectionError: a socket that closes,
// a frame that cannot be split or decoded, an answer out of order (Kafka answers a connection's
// requests in the order sent) or a request that times out fails every pending request at once
// and closes the connection: after any of them the stream is out of step, and the next attempt
// needs a fresh connection (as Kafka's own clients do).

import { Emitter as EventEmitter } from './emitter.js';
import type * as tls from 'node:tls';
import { encodeRequest, encodeRequestParts, decodeResponse, newMessage, prepareResponse } from '../codec/by-key.js';
import type { ApiVersionsResponse, RequestBodies, ResponseBodies } from '../generated/types.js';
import { FrameSplitter, FrameError } from './frame-splitter.js';
import type { FramePool } from './frame-pool.js';
import { ConnectionError, KafkaErrorCode, kafkaErrorName, type ConnectionErrorCode } from './errors.js';
import { apiName, supportedVersions, usableVersion, type VersionRange } from './versions.js';
import { ApiKey } from '../generated/types.js';
import { SASL_MECHANISMS, saslMechanism, authenticateSasl, defaultReauthenticateAfterMs, SaslError, type SaslOptions, type SaslMechanism } from './sasl/index.js';
import { createLogger, type Logger, type LoggerOption } from '../logger.js';
import type { ByteSocket, SocketConnector } from './sockets/socket.js';
import { requestChannel, type RequestTrace } from '../observe/channels.js';
import type { ConnectionObserver } from '../observe/network-metrics.js';
export type { ConnectionObserver } from '../observe/network-metrics.js';
import { cloudflareConnector } from './sockets/cloudflare.js';


export type { SaslPlainOptions, SaslScramOptions, SaslOptions } from './sasl/index.js';
export { SASL_MECHANISMS };

export interface ConnectOptions {
  host: string;
  port: number;
  /** Sent in every request header; default 'kafka-wire'. */
  clientId?: string | null;
  /** true for TLS with Node's defaults, or tls.connect() options (ca, cert, servername, ...). */
  tls?: boolean | tls.ConnectionOptions;
  /**
   * How to reach the broker: node:net / node:tls where they exist (Node, Bun, Deno), workerd's
   * cloudflare:sockets in workerd, or a connector of ./sockets/ (webSocketConnector({ url }) for
   * a page through `kafka-wire bridge`).
   */
  socket?: SocketConnector;
  sasl?: SaslOptions;
  /** Per-request timeout, and the longest an answer may pause mid-frame; default 30 000 ms. 0 disables both. */
  requestTimeoutMs?: number;
  /** Timeout for establishing TCP/TLS; default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Largest response frame accepted; default 100 MiB. */
  maxFrameSize?: number;
  /**
   * Send ApiVersions on connect and pick versions from the answer (default true). Without it,
   * request(k, undefined, ...) uses the highest version this library knows.
   */
  negotiateVersions?: boolean;
  /**
   * Caps on the version negotiation may pick, by API key (e.g. `{ 2: 3 }` keeps ListOffsets at
   * v3 for a broker that mis-encodes newer versions). Explicit versions are not capped.
   */
  maxVersions?: Readonly<Record<number, number>>;
  /** ApiVersions v3+ ClientSoftwareName / ClientSoftwareVersion. */
  clientSoftwareName?: string;
  clientSoftwareVersion?: string;
  /** Where the connection (and a client over it) logs: a Logger, or its options; default silent. */
  logger?: LoggerOption;
  /** Told of the connection's life and of each request's answer (a client's metrics count them); none by default. */
  observer?: ConnectionObserver;
  /**
   * Large answer frames are received into memory from here, which their reader gives back
   * (./frame-pool.ts; kafka-wire consume). Default: a new buffer per frame.
   */
  frames?: FramePool;
}


export interface RequestOptions {
  /** Overrides the connection's requestTimeoutMs for this request. */
  timeoutMs?: number;
}

/** A broker's advertised version range for one API, and the version this connection will use. */
export interface NegotiatedVersion extends VersionRange {
  /** The highest version both sides support, or undefined when the ranges do not overlap. */
  readonly usable: number | undefined;
}

type KnownKey = keyof RequestBodies & keyof ResponseBodies;
/** The resolved value of request(): acks=0 Produce resolves with null once written. */
export type ResponseOf<K extends KnownKey> = K extends 0 ? ResponseBodies[K] | null : ResponseBodies[K];

interface Pending {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  resolve(body: unknown): void;
  reject(err: unknown): void;
  timeoutMs: number;
  /** When it times out (Date.now() ms), 0 for never. */
  deadline: number;
  /** The diagnostics channel's context, when someone listens (its responseBytes set on the answer). */
  trace: RequestTrace | undefined;
}


/**
 * Connects, negotiates versions (unless negotiateVersions is false) and authenticates (when
 * `sasl` is given). Rejects with ConnectionError.
 */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const socket = await openSocket(options);
  const conn = new Connection(socket, options);
  try {
    if (options.negotiateVersions !== false) await conn.negotiateVersions();
    if (options.sasl) await conn.authenticate(options.sasl);
  } catch (err) {
    conn.destroy();
    throw err;
  }
  const observer = options.observer;
  if (observer !== undefined) {
    observer.opened();
    conn.once('close', () => observer.closed());
  }
  conn.logger.debug('connected', { tls: options.tls !== undefined && options.tls !== false, sasl: options.sasl === undefined ? null : 'mechanism' in options.sasl ? options.sasl.mechanism : options.sasl.name });
  return conn;
}

/** The runtime's own transport: workerd's sockets there, node:net elsewhere (loaded on first use). */
async function defaultConnector(): Promise<SocketConnector> {
  if ((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers') return cloudflareConnector();
  return (await import('./sockets/node.js')).nodeConnector;
}

async function openSocket(options: ConnectOptions): Promise<ByteSocket> {
  const { host, port } = options;
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const connector = options.socket ?? await defaultConnector();
  try {
    return await connector({ host, port, tls: options.tls, timeoutMs });
  } catch (cause) {
    const err = cause instanceof Error ? cause : new Error(String(cause));
    const code = (err as { code?: string }).code;
    if (code === 'ETIMEDOUT' && /^timed out after/.test(err.message)) {
      throw new ConnectionError('TIMEOUT', `connecting to ${host}:${port} timed out after ${timeoutMs} ms`, { host, port });
    }
    // A plaintext listener (or an HTTP server) answers a TLS hello with a close or with bytes that are no TLS.
    const hint = options.tls && code !== 'ECONNREFUSED' && !/certificate|self.signed|altnames|CERT/i.test(`${err.message} ${code ?? ''}`)
      ? ' (the TLS handshake failed: is it a plaintext listener?)' : '';
    throw new ConnectionError('CONNECT', `cannot connect to ${host}:${port}: ${err.message}${hint}`, { host, port, cause: err });
  }
}

export interface ConnectionEvents {
  /** Emitted once, with the error that failed pending requests (CLOSED after a clean close). */
  close: [error: ConnectionError];
}

export class Connection extends EventEmitter<ConnectionEvents> {
  readonly host: string;
  readonly port: number;
  readonly clientId: string | null;
  readonly requestTimeoutMs: number;
  readonly logger: Logger;
  readonly #socket: ByteSocket;
  readonly #splitter: FrameSplitter;
  readonly #clientSoftware: [name: string, version: string];
  readonly #maxVersions: Readonly<Record<number, number>>;
  /** Requests waiting for an answer, in the order sent (the order answers must come in). */
  readonly #pending = new Map<number, Pending>();
  /** Bytes received so far (the first ones tell a Kafka broker from an HTTP or TLS server). */
  #received = 0;
  readonly #tls: boolean;
  #nextCorrelationId = 0;
  #versions: Map<number, NegotiatedVersion> | null = null;
  #apiVersionsVersion = -1;
  #closedError: ConnectionError | null = null;
  #socketError: Error | null = null;
  #closing = false;
  /** KIP-368: the pending re-authentication's timer, and while one runs, what new requests wait on. */
  #reauthTimer: ReturnType<typeof setTimeout> | undefined;
  #saslGate: Promise<void> | null = null;
  #reauthentications = 0;
  readonly #observer: ConnectionObserver | undefined;
  /**
   * An answer whose first bytes arrived keeps coming, whatever its request's own deadline (a
   * JoinGroup may wait minutes for the broker to start answering, not for the rest of its
   * bytes): when the last byte of an incomplete answer came, and the timer that checks it.
   */
  #lastByteAt = 0;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** The pending requests' timeout watch (#watchDeadline) and the deadline it is armed for. */
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  #deadlineAt = Infinity;

  /** Wraps an already-connected socket; most callers want connect(). */
  constructor(socket: ByteSocket, options: Omit<ConnectOptions, 'host' | 'port'> & { host?: string; port?: number }) {
    super();
    this.#socket = socket;
    this.host = options.host ?? socket.remoteAddress ?? '';
    this.port = options.port ?? socket.remotePort ?? 0;
    this.clientId = options.clientId === undefined ? 'kafka-wire' : options.clientId;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.logger = createLogger(options.logger, 'connection').child('connection', { broker: `${this.host}:${this.port}` });
    // Frames are handled as they complete, so those before a bad one in the same chunk are too.
    this.#splitter = new FrameSplitter({ maxFrameSize: options.maxFrameSize, onFrame: (frame) => this.#onFrame(frame), chunksReused: socket.chunksReused === true,
      allocate: options.frames === undefined ? undefined : (size) => options.frames!.take(size) });
    this.#clientSoftware = [options.clientSoftwareName ?? 'kafka-wire', options.clientSoftwareVersion ?? '0.1.0'];
    this.#maxVersions = options.maxVersions ?? {};
    this.#tls = options.tls !== undefined && options.tls !== false;
    this.#observer = options.observer;
    socket.on('data', (chunk) => this.#onData(chunk));
    socket.readInto?.(() => this.#splitter.receiving);
    socket.on('end', () => this.#onEnd());
    socket.on('error', (err) => { this.#socketError ??= err; });
    socket.on('close', () => this.#onClose());
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** True once the connection has failed or been closed. */
  get closed(): boolean {
    return this.#closedError !== null;
  }

  /** The broker's ApiVersions answer (null before negotiation, or when it was skipped). */
  get apiVersions(): ReadonlyMap<number, NegotiatedVersion> | null {
    return this.#versions;
  }

  /** The ApiVersions version the broker accepted during negotiation (-1 before). */
  get apiVersionsVersion(): number {
    return this.#apiVersionsVersion;
  }

  /**
   * The version request(apiKey, undefined, ...) will use: the highest both sides support after
   * negotiation, our highest without negotiation, undefined when there is none.
   */
  versionFor(apiKey: number): number | undefined {
    const v = this.#versions === null ? supportedVersions(apiKey)?.max : this.#versions.get(apiKey)?.usable;
    const cap = this.#maxVersions[apiKey];
    if (v === undefined || cap === undefined || v <= cap) return v;
    const lowest = this.#versions?.get(apiKey)?.min ?? supportedVersions(apiKey)!.min;
    return cap >= lowest && cap >= supportedVersions(apiKey)!.min ? cap : undefined;
  }

  /**
   * Sends one request and resolves with the decoded response body.
   * `version` undefined means versionFor(apiKey). `body` may be partial at any depth: missing
   * fields take the schema defaults for that version; setting a field the version lacks to a
   * non-default value is an encoding error (NOT_IN_VERSION). A Produce with
   * acks=0 resolves with null once written (brokers send no response). Encoding errors reject
   * with the codec's KafkaWireError and send nothing; everything else rejects with
   * ConnectionError.
   */
  request<K extends KnownKey>(apiKey: K, version: number | undefined, body?: Partial<RequestBodies[K]>, options?: RequestOptions): Promise<ResponseOf<K>>;
  request(apiKey: number, version: number | undefined, body?: object, options?: RequestOptions): Promise<any>;
  request(apiKey: number, version: number | undefined, body: object = {}, options: RequestOptions = {}): Promise<unknown> {
    if (this.#closedError) return Promise.reject(this.#errorFor(this.#closedError, apiKey, version));
    if (this.#saslGate && apiKey !== ApiKey.SaslHandshake && apiKey !== ApiKey.SaslAuthenticate) {
      return this.#saslGate.then(() => this.request(apiKey, version, body, options));
    }
    const apiVersion = version ?? this.versionFor(apiKey);
    if (apiVersion === undefined) {
      const theirs = this.#versions?.get(apiKey);
      const mine = supportedVersions(apiKey);
      return Promise.reject(new ConnectionError('UNSUPPORTED_VERSION',
        `${apiName(apiKey)}: no common version (broker ${theirs ? `${theirs.min}-${theirs.max}` : 'does not support it'}, ` +
        `kafka-wire ${mine ? `${mine.min}-${mine.max}` : 'does not know it'})`, { host: this.host, port: this.port, apiKey }));
    }
    const correlationId = this.#nextCorrelationId;
    this.#nextCorrelationId = (this.#nextCorrelationId + 1) & 0x7fffffff;
    let frame: Uint8Array | Uint8Array[];
    try {
      // The encoder fills every field the body leaves out with its default (acks: 0 included).
      // A Produce request goes out in pieces, its record batches as they are (no copy into a frame).
      const header = { requestApiKey: apiKey, requestApiVersion: apiVersion, correlationId, clientId: this.clientId };
      frame = apiKey === ApiKey.Produce ? encodeRequestParts(header, body) : encodeRequest(header, body);
    } catch (err) {
      return Promise.reject(err);
    }
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const acksZero = apiKey === ApiKey.Produce && ((body as { acks?: number }).acks ?? 0) === 0;
    // The channel's context is made only when someone listens (see observe/channels.ts).
    const sent = !requestChannel.active ? this.#send(apiKey, apiVersion, correlationId, frame, timeoutMs, acksZero, undefined)
      : requestChannel.tracePromise(() => ({
        apiKey, apiName: apiName(apiKey), apiVersion, broker: `${this.host}:${this.port}`, correlationId, clientId: this.clientId,
        requestBytes: Array.isArray(frame) ? frame.reduce((n, piece) => n + piece.length, 0) : frame.length,
      }), (trace) => this.#send(apiKey, apiVersion, correlationId, frame, timeoutMs, acksZero, trace));
    const observer = this.#observer;
    if (observer === undefined) return sent;
    const t0 = performance.now();
    return sent.then((body) => { observer.answered(apiKey, performance.now() - t0, false); return body; },
      (err: unknown) => { observer.answered(apiKey, performance.now() - t0, true); throw err; });
  }

  /** Writes an encoded request and waits for its answer (acks=0 Produce: for the write). */
  #send(apiKey: number, apiVersion: number, correlationId: number, frame: Uint8Array | Uint8Array[], timeoutMs: number,
    acksZero: boolean, trace: RequestTrace | undefined): Promise<unknown> {
    if (acksZero) {
      return new Promise((resolve, reject) => {
        this.#write(frame, (err) => {
          if (err) reject(this.#errorFor(this.#closedError ?? new ConnectionError('CLOSED', `write failed: ${err.message}`, { cause: err }), apiKey, apiVersion, correlationId));
          else { if (trace !== undefined) trace.responseBytes = 0; resolve(null); }
        });
      });
    }
    return new Promise((resolve, reject) => {
      const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : 0;
      const pending: Pending = { apiKey, apiVersion, correlationId, resolve, reject, timeoutMs, deadline, trace };
      this.#pending.set(correlationId, pending);
      if (deadline > 0 && deadline < this.#deadlineAt) this.#watchDeadline(deadline);
      this.#write(frame);
      // While the broker answers: the answer's readers are made now, not when it arrives (a failure
      // shows, typed, when the answer is decoded).
      try { prepareResponse(apiKey, apiVersion); } catch { /* see decodeResponse */ }
    });
  }

  /**
   * One timer for every pending request's timeout, armed for the earliest deadline (a timer per
   * request, set and cleared, was a measurable part of an awaited send's own time). Unref'd: a
   * pending request's socket keeps the process alive, as its own timer did.
   */
  #watchDeadline(at: number): void {
    clearTimeout(this.#deadlineTimer);
    this.#deadlineAt = at;
    this.#deadlineTimer = setTimeout(() => this.#checkDeadlines(), Math.max(0, at - Date.now()));
    (this.#deadlineTimer as { unref?: () => void }).unref?.();
  }

  /** Fails the connection TIMEOUT for the request whose deadline passed first, or watches the next deadline. */
  #checkDeadlines(): void {
    this.#deadlineTimer = undefined;
    this.#deadlineAt = Infinity;
    if (this.#closedError) return;
    const now = Date.now();
    let expired: Pending | undefined;
    let next = Infinity;
    for (const p of this.#pending.values()) {
      if (p.deadline === 0) continue;
      if (p.deadline <= now) { if (expired === undefined || p.deadline < expired.deadline) expired = p; }
      else if (p.deadline < next) next = p.deadline;
    }
    if (expired !== undefined) {
      const { apiKey, apiVersion, correlationId } = expired;
      // Its answer may still come, ahead of the others': the connection cannot be trusted now.
      this.#fail(new ConnectionError('TIMEOUT',
        `${apiName(apiKey)} v${apiVersion} (correlation id ${correlationId}) to ${this.host}:${this.port} timed out after ${expired.timeoutMs} ms; connection closed`,
        { host: this.host, port: this.port, apiKey, apiVersion, correlationId }));
      return;
    }
    if (next < Infinity) this.#watchDeadline(next);
  }

  /** Writes a frame, or its pieces in one go (corked: one writev; one piece is written as it is). */
  #write(frame: Uint8Array | Uint8Array[], done?: (err?: Error | null) => void): void {
    if (!Array.isArray(frame)) { this.#socket.write(frame, done); return; }
    if (frame.length === 1) { this.#socket.write(frame[0]!, done); return; }
    this.#socket.cork();
    for (let i = 0; i < frame.length; i++) this.#socket.write(frame[i]!, i === frame.length - 1 ? done : undefined);
    this.#socket.uncork();
  }

  /**
   * ApiVersions negotiation (connect() runs it): sends the highest ApiVersions version we know;
   * on UNSUPPORTED_VERSION retries with the broker's highest ApiVersions version if its answer
   * lists one, else v0. Records each key's usable version.
   */
  async negotiateVersions(): Promise<ReadonlyMap<number, NegotiatedVersion>> {
    let version: number = supportedVersions(ApiKey.ApiVersions)!.max;
    const tried = new Set<number>();
    for (;;) {
      tried.add(version);
      const body = version >= 3 ? { clientSoftwareName: this.#clientSoftware[0], clientSoftwareVersion: this.#clientSoftware[1] } : {};
      const res: ApiVersionsResponse = await this.request(ApiKey.ApiVersions, version, body);
      if (res.errorCode === KafkaErrorCode.UNSUPPORTED_VERSION) {
        const theirs = res.apiKeys.find((k) => k.apiKey === ApiKey.ApiVersions);
        let next = theirs ? Math.min(version - 1, theirs.maxVersion) : 0;
        if (next < 0 || tried.has(next)) next = 0;
        if (tried.has(next)) {
          throw new ConnectionError('NEGOTIATION', `ApiVersions: broker ${this.host}:${this.port} rejected every version tried`,
            { host: this.host, port: this.port, apiKey: ApiKey.ApiVersions, errorCode: res.errorCode });
        }
        version = next;
        continue;
      }
      if (res.errorCode !== 0) {
        throw new ConnectionError('NEGOTIATION', `ApiVersions v${version}: broker ${this.host}:${this.port} answered ${kafkaErrorName(res.errorCode)}`,
          { host: this.host, port: this.port, apiKey: ApiKey.ApiVersions, apiVersion: version, errorCode: res.errorCode });
      }
      const versions = new Map<number, NegotiatedVersion>();
      for (const k of res.apiKeys) {
        const range = { min: k.minVersion, max: k.maxVersion };
        versions.set(k.apiKey, { ...range, usable: usableVersion(k.apiKey, range) });
      }
      this.#versions = versions;
      this.#apiVersionsVersion = version;
      return versions;
    }
  }

  /**
   * SASL (src/wire/sasl/): SaslHandshake v1+ naming the mechanism, then its SaslAuthenticate
   * conversation. connect() runs it when `sasl` is set. When the broker grants a session
   * lifetime (KIP-368), the connection re-authenticates before it ends, holding new requests
   * until that is done. Every failure is a SaslError (code SASL) whose message names the mechanism.
   */
  async authenticate(sasl: SaslOptions): Promise<void> {
    let mechanism: SaslMechanism;
    try {
      mechanism = saslMechanism(sasl);
    } catch (err) {
      throw new SaslError(String((sasl as { mechanism?: unknown }).mechanism ?? (sasl as { name?: unknown }).name), (err as Error).message,
        { host: this.host, port: this.port, cause: err });
    }
    await this.#saslSession(mechanism, false);
  }

  async #saslSession(mechanism: SaslMechanism, reauthentication: boolean): Promise<void> {
    const { sessionLifetimeMs } = await authenticateSasl(this, mechanism, reauthentication);
    if (reauthentication) this.#reauthentications++;
    if (sessionLifetimeMs <= 0 || this.#closedError) return;
    const afterMs = mechanism.reauthenticateAfterMs?.(sessionLifetimeMs) ?? defaultReauthenticateAfterMs(sessionLifetimeMs);
    clearTimeout(this.#reauthTimer); // authenticate() called again: one schedule
    this.#reauthTimer = setTimeout(() => {
      const run = this.#saslSession(mechanism, true);
      this.#saslGate = run.then(() => { this.#saslGate = null; }, (err: unknown) => {
        this.#saslGate = null;
        this.#fail(err instanceof SaslError ? err : new SaslError(mechanism.name, `SASL ${mechanism.name}: re-authentication failed: ${(err as Error).message}`,
          { host: this.host, port: this.port, cause: err }));
      });
    }, afterMs);
    (this.#reauthTimer as { unref?: () => void }).unref?.();
  }

  /** Re-authentications so far (KIP-368), for tests and metrics. */
  get reauthentications(): number {
    return this.#reauthentications;
  }

  /** Half-closes and waits for the socket to close; pending requests fail with CLOSED. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#socket.destroyed) { this.#fail(new ConnectionError('CLOSED', 'connection closed')); resolve(); return; }
      this.#closing = true;
      this.#socket.once('close', () => resolve());
      this.#fail(new ConnectionError('CLOSED', `connection to ${this.host}:${this.port} closed by the client`, { host: this.host, port: this.port }), false);
      this.#socket.end();
      // A peer that never closes its side must not keep us waiting (unref: Node's timers only).
      const timer = setTimeout(() => this.#socket.destroy(), 1000);
      (timer as { unref?: () => void }).unref?.();
    });
  }

  /** Closes at once; pending requests fail with CLOSED. */
  destroy(): void {
    this.#fail(new ConnectionError('CLOSED', `connection to ${this.host}:${this.port} destroyed by the client`, { host: this.host, port: this.port }));
  }

  #onData(chunk: Uint8Array): void {
    if (this.#closedError) return;
    if (this.#received === 0) {
      const notKafka = notKafkaHint(chunk, this.#tls);
      if (notKafka !== null) {
        this.#fail(new ConnectionError('NOT_KAFKA', `${this.host}:${this.port} does not answer as a Kafka broker: ${notKafka}`, { host: this.host, port: this.port }));
        return;
      }
    }
    this.#received += chunk.length;
    try {
      this.#splitter.push(chunk);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.#fail(new ConnectionError('FRAME', `bad response frame from ${this.host}:${this.port}: ${err.message}`, { host: this.host, port: this.port, cause: err }));
      return;
    }
    // One clock read per chunk; the timer is armed once per stretch of incomplete answer.
    if (this.#splitter.bufferedBytes > 0 && this.requestTimeoutMs > 0) {
      this.#lastByteAt = Date.now();
      if (this.#stallTimer === undefined) this.#watchStall(this.requestTimeoutMs);
    }
  }

  /** Fails the connection TIMEOUT when an incomplete answer gets no byte for requestTimeoutMs. */
  #watchStall(ms: number): void {
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      if (this.#closedError || this.#splitter.bufferedBytes === 0) return;
      const idle = Date.now() - this.#lastByteAt;
      if (idle < this.requestTimeoutMs) { this.#watchStall(this.requestTimeoutMs - idle); return; }
      const size = this.#splitter.pendingFrameSize;
      const oldest = this.#pending.values().next().value;
      const what = oldest === undefined ? 'an answer' : `the ${apiName(oldest.apiKey)} v${oldest.apiVersion} answer (correlation id ${oldest.correlationId})`;
      this.#fail(new ConnectionError('TIMEOUT',
        `${this.host}:${this.port} stalled mid-frame: ${this.#splitter.bufferedBytes} of ${size < 0 ? 'an unknown number of' : size + 4} bytes of ${what} came, then nothing for ${idle} ms; connection closed`,
        { host: this.host, port: this.port, apiKey: oldest?.apiKey, apiVersion: oldest?.apiVersion, correlationId: oldest?.correlationId }));
    }, ms);
    // The pending request holds the process; this watch alone must not.
    (this.#stallTimer as { unref?: () => void }).unref?.();
  }

  #onFrame(frame: Uint8Array): void {
    if (this.#closedError) return;
    if (frame.length < 8) {
      this.#fail(new ConnectionError('DECODE', `response frame from ${this.host}:${this.port} too short for a header (${frame.length} bytes)`, { host: this.host, port: this.port }));
      return;
    }
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    const correlationId = view.getInt32(4, false);
    const pending = this.#pending.get(correlationId);
    if (!pending) {
      this.#fail(new ConnectionError('UNEXPECTED_RESPONSE',
        `response from ${this.host}:${this.port} with correlation id ${correlationId}, which no request is waiting for`,
        { host: this.host, port: this.port, correlationId }));
      return;
    }
    const oldest = this.#pending.keys().next().value!;
    if (oldest !== correlationId) {
      // Kafka answers in order: an answer that overtakes an older request's is not to be trusted.
      this.#fail(new ConnectionError('UNEXPECTED_RESPONSE',
        `response from ${this.host}:${this.port} with correlation id ${correlationId} before the answer to ${oldest}, sent earlier`,
        { host: this.host, port: this.port, correlationId }));
      return;
    }
    this.#pending.delete(correlationId);
    if (pending.trace !== undefined) pending.trace.responseBytes = frame.length;
    const version = pending.apiVersion;
    // The splitter already held the frame to its limit; the codec takes the same one.
    const limits = { maxFrameSize: this.#splitter.maxFrameSize };
    // A broker that does not support our ApiVersions version answers with error 35 in v0 form
    // (Kafka) or in some other form (librdkafka's mock broker writes a malformed flexible
    // body): the body starts with the error code in every version, after a v0 header. Decode
    // what can be decoded; the error code alone is enough to retry.
    if (pending.apiKey === ApiKey.ApiVersions && frame.length >= 10 && view.getInt16(8, false) === KafkaErrorCode.UNSUPPORTED_VERSION) {
      for (const v of new Set([0, version])) {
        try { pending.resolve(decodeResponse(frame, ApiKey.ApiVersions, v, limits).body); return; } catch { /* try the next */ }
      }
      pending.resolve(newMessage(ApiKey.ApiVersions, 0, 'response', { errorCode: KafkaErrorCode.UNSUPPORTED_VERSION, apiKeys: [] }));
      return;
    }
    let body: unknown;
    try {
      body = decodeResponse(frame, pending.apiKey, version, limits).body;
    } catch (err) {
      // librdkafka's mock broker answers a failed SyncGroup (v0-3) with a null assignment, which
      // the schema does not allow; its error code (after the throttle time from v1) is the answer.
      const errorAt = 8 + (version >= 1 ? 4 : 0);
      if (pending.apiKey === ApiKey.SyncGroup && version <= 3 && frame.length >= errorAt + 6 && view.getInt16(errorAt, false) !== 0
          && view.getInt32(errorAt + 2, false) === -1) {
        pending.resolve(newMessage(ApiKey.SyncGroup, 'response', version, { errorCode: view.getInt16(errorAt, false) }));
        return;
      }
      const error = new ConnectionError('DECODE',
        `cannot decode ${apiName(pending.apiKey)} v${version} response (correlation id ${correlationId}) from ${this.host}:${this.port}: ${(err as Error).message}`,
        { host: this.host, port: this.port, apiKey: pending.apiKey, apiVersion: version, correlationId, cause: err });
      pending.reject(error);
      this.#fail(error);
      return;
    }
    pending.resolve(body);
  }

  #onEnd(): void {
    try {
      this.#splitter.end();
    } catch (err) {
      this.#fail(new ConnectionError('TRUNCATED', `${this.host}:${this.port} closed the connection mid-frame: ${(err as Error).message}`,
        { host: this.host, port: this.port, cause: err }));
      return;
    }
    if (!this.#closing) this.#fail(new ConnectionError('CLOSED', `${this.host}:${this.port} closed the connection${this.#silentCloseHint()}`, { host: this.host, port: this.port }));
  }

  #onClose(): void {
    const cause = this.#socketError;
    this.#fail(new ConnectionError('CLOSED',
      `connection to ${this.host}:${this.port} closed${this.#silentCloseHint()}${cause ? `: ${cause.message}` : ''}`, { host: this.host, port: this.port, cause: cause ?? undefined }));
  }

  /** A TLS listener given plaintext often closes without a word: say what it may be. */
  #silentCloseHint(): string {
    return this.#received === 0 && !this.#tls && this.#pending.size > 0 && !this.#closing ? ' before answering anything (a TLS listener? set tls)' : '';
  }

  #errorFor(base: ConnectionError, apiKey: number, apiVersion?: number, correlationId?: number): ConnectionError {
    return new ConnectionError(base.code as ConnectionErrorCode, base.message,
      { host: this.host, port: this.port, apiKey, apiVersion, correlationId, errorCode: base.errorCode, cause: base.cause ?? base });
  }

  /** Fails every pending request with `error` (first failure wins) and closes the socket. */
  #fail(error: ConnectionError, destroy = true): void {
    if (this.#closedError) {
      if (destroy && !this.#socket.destroyed) this.#socket.destroy();
      return;
    }
    this.#closedError = error;
    clearTimeout(this.#reauthTimer);
    clearTimeout(this.#stallTimer);
    clearTimeout(this.#deadlineTimer);
    this.logger[error.code === 'CLOSED' ? 'debug' : 'warn'](error.message, { code: error.code, pending: this.#pending.size });
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      p.reject(this.#errorFor(error, p.apiKey, p.apiVersion, p.correlationId));
    }
    if (destroy && !this.#socket.destroyed) this.#socket.destroy();
    this.emit('close', error);
  }
}

/**
 * Why the first bytes from a server are not a Kafka answer, or null: an HTTP server ("HTTP/"), a
 * TLS server answering plaintext with a TLS record (alert or handshake, version 3.x).
 */
function notKafkaHint(chunk: Uint8Array, tls: boolean): string | null {
  if (chunk.length >= 5 && chunk[0] === 0x48 && chunk[1] === 0x54 && chunk[2] === 0x54 && chunk[3] === 0x50 && chunk[4] === 0x2f) {
    return 'this looks like an HTTP server (it answered "HTTP/...")';
  }
  if (!tls && chunk.length >= 3 && (chunk[0] === 0x15 || chunk[0] === 0x16) && chunk[1] === 0x03 && chunk[2]! <= 0x04) {
    return 'this looks like a TLS listener (it answered with a TLS record): set tls';
  }
  return null;
}
