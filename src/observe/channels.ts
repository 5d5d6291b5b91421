// The client's diagnostics channels: `node:diagnostics_channel` tracing channels that APMs and
// apps subscribe to (`tracing:kafka-wire:request:start`, `...:end`, `...:asyncStart`,
// `...:asyncEnd`, `...:error`), one per kind of work:
//   kafka-wire:request  every request on a connection (api key and name, version, broker, correlation id, bytes)
//   kafka-wire:produce  each produced batch (topic, partition, records, bytes; its base offset at the end)
//   kafka-wire:fetch    each consumed batch handed to the app (topic, partition, records, bytes, first offset)
//   kafka-wire:group    group events (join, assign, revoke, commit, leave; group id, member, partitions)
// A channel nobody listens to costs one property read: the context object is made only when a
// subscriber is there. Where the runtime has no diagnostics_channel (browsers), tracing is a
// plain call. Node's module is loaded without a static import, so no bundle needs it.

/** The part of node:diagnostics_channel's TracingChannel used here. */
interface TracingChannelLike<C extends object> {
  readonly hasSubscribers?: boolean;
  readonly start: { readonly hasSubscribers: boolean };
  readonly end: { readonly hasSubscribers: boolean };
  readonly asyncEnd: { readonly hasSubscribers: boolean };
  readonly error: { readonly hasSubscribers: boolean };
  tracePromise<T>(fn: () => Promise<T>, context: C): Promise<T>;
  traceSync<T>(fn: () => T, context: C): T;
  subscribe(handlers: Partial<Record<'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error', (message: C & { error?: unknown; result?: unknown }) => void>>): void;
  unsubscribe(handlers: Partial<Record<'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error', (message: C & { error?: unknown; result?: unknown }) => void>>): boolean;
}
interface DiagnosticsChannelModule { tracingChannel<C extends object>(name: string): TracingChannelLike<C> }

/** The runtime's diagnostics_channel: synchronously where process.getBuiltinModule exists, else by require in CommonJS. */
function loadDiagnostics(): DiagnosticsChannelModule | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    if (typeof proc?.getBuiltinModule === 'function') return proc.getBuiltinModule('node:diagnostics_channel') as DiagnosticsChannelModule;
  } catch { /* not this runtime's */ }
  try {
    // CommonJS builds have require; an ESM build on a Node without getBuiltinModule has neither.
    const req = typeof require === 'function' ? require : undefined;
    if (req !== undefined) return req('node:diagnostics_channel') as DiagnosticsChannelModule;
  } catch { /* not this runtime's */ }
  return undefined;
}

let diagnostics = loadDiagnostics();
if (diagnostics === undefined && (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined) {
  // An ESM build on a Node older than getBuiltinModule (20.16): loaded by the time the first request goes.
  // A specifier bundlers leave alone.
  const id = 'node:diagnostics_channel';
  import(/* @vite-ignore */ id).then((m: DiagnosticsChannelModule) => { diagnostics = m; }, () => {});
}

export interface RequestTrace {
  apiKey: number;
  apiName: string;
  apiVersion: number;
  /** The broker, "host:port". */
  broker: string;
  correlationId: number;
  clientId: string | null;
  /** The request frame's size, prefix included. */
  requestBytes: number;
  /** Set at the end: the response frame's size (0 for acks=0 Produce, which has none). */
  responseBytes?: number;
}

export interface ProduceTrace {
  topic: string;
  partition: number;
  records: number;
  /** The batch's encoded size. */
  bytes: number;
  /** Where the broker put the batch. */
  baseOffset?: bigint;
  /** From the batch's sealing to its acknowledgement. */
  latencyMs?: number;
}

export interface FetchTrace {
  topic: string;
  partition: number;
  records: number;
  /** The batch's record data bytes. */
  bytes: number;
  firstOffset: bigint;
  /** The group the batch was consumed in, or null. */
  groupId: string | null;
}

export type GroupEvent = 'join' | 'assign' | 'revoke' | 'lost' | 'commit' | 'leave';
export interface GroupTrace {
  event: GroupEvent;
  groupId: string;
  memberId: string;
  /** The partitions the event is about (assign, revoke, lost, commit), as "topic-partition". */
  partitions: string[];
}

/** One traced kind of work: `active` says whether anyone listens (read it before making a context). */
export class KafkaChannel<C extends object> {
  readonly name: string;
  #made: TracingChannelLike<C> | undefined;

  constructor(name: string) {
    this.name = name;
  }

  get #channel(): TracingChannelLike<C> | undefined {
    if (this.#made === undefined && diagnostics !== undefined) this.#made = diagnostics.tracingChannel<C>(this.name);
    return this.#made;
  }

  /** Whether a subscriber would see a trace now. */
  get active(): boolean {
    const c = this.#channel;
    if (c === undefined) return false;
    if (c.hasSubscribers !== undefined) return c.hasSubscribers;
    return c.start.hasSubscribers || c.end.hasSubscribers || c.asyncEnd.hasSubscribers || c.error.hasSubscribers;
  }

  /** Runs `fn` traced with the context `make()` gives (made only when someone listens). */
  tracePromise<T>(make: () => C, fn: (context: C | undefined) => Promise<T>): Promise<T> {
    if (!this.active) return fn(undefined);
    const context = make();
    return this.#channel!.tracePromise(() => fn(context), context);
  }

  /** A moment rather than an operation (a partition assigned, revoked): start and end at once. */
  event(make: () => C): void {
    if (!this.active) return;
    this.#channel!.traceSync(() => undefined, make());
  }

  /** For tests and adapters: subscribe with Node's handler names. */
  subscribe(handlers: Parameters<TracingChannelLike<C>['subscribe']>[0]): () => void {
    if (this.#channel === undefined) return () => {};
    const channel = this.#channel;
    channel.subscribe(handlers);
    return () => { channel.unsubscribe(handlers); };
  }
}

export const requestChannel = new KafkaChannel<RequestTrace>('kafka-wire:request');
export const produceChannel = new KafkaChannel<ProduceTrace>('kafka-wire:produce');
export const fetchChannel = new KafkaChannel<FetchTrace>('kafka-wire:fetch');
export const groupChannel = new KafkaChannel<GroupTrace>('kafka-wire:group');

/** Whether this runtime has diagnostics channels at all. */
export function diagnosticsAvailable(): boolean {
  return diagnostics !== undefined;
}
