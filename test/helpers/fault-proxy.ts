// A hostile network between a client and one broker, for fault tests: it forwards every byte,
// splits the broker's answers into frames by their size prefix, knows which API each answer is
// for (it remembers each request's correlation id → API key), and spoils chosen answers: seeded
// random faults at a rate, or a script ("the 3rd Produce answer: truncate and close").
//
//   const proxy = await startFaultProxy({ upstream: broker, script: [{ apiKey: ApiKey.Produce, nth: 3, kind: 'truncate' }] });
//   ... createProducer({ bootstrap: proxy.bootstrap }) ...
//   expect(proxy.open).toBe(0); await proxy.close();
//
// It keeps the client on itself (broker addresses in Metadata and FindCoordinator answers become
// its own), so it fronts a single broker. Answers keep their order on a connection: a delayed one
// holds back those after it, as a slow network would.
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';
import { decodeResponse, encodeResponse } from '../../src/codec/by-key.js';
import { ApiKey } from '../../src/generated/types.js';
import { prng } from './random.js';

export const FAULT_KINDS = ['flip', 'truncate', 'stall', 'duplicate', 'swap', 'delay', 'midframe', 'garbage'] as const;
/**
 * flip: 1-3 bytes after the size prefix inverted. truncate: the frame cut short (its size prefix
 * says so) and the connection closed. stall: a 64 MiB size prefix, then silence (the connection
 * stays open). duplicate: the frame sent twice. swap: its correlation id exchanged with the next
 * answer's on the connection. delay: held `delayMs`. midframe: part of the frame, then the
 * connection closed. garbage: a frame of random bytes with a random correlation id sent first.
 * (A script may also 'edit' an answer: a corrupted answer that still decodes; or 'join' it to the
 * next answer on the connection: both written at once, so the client reads them in one piece.)
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface ScriptedFault {
  /** The nth answer (from 1, counted over every connection) of this API key; any API when omitted. */
  apiKey?: number;
  nth: number;
  /** One of FAULT_KINDS, or 'edit': the answer decoded, changed by `edit`, encoded again (a corrupted answer that still decodes). */
  kind: FaultKind | 'edit' | 'join';
  /** For 'edit' (with apiKey): changes the decoded answer's body in place. */
  edit?: (body: any) => void;
  /** With apiKey: count only the answers whose decoded body passes this (e.g. the first that carries an assignment). */
  when?: (body: any) => boolean;
}

export interface FaultProxyOptions {
  upstream: { host: string; port: number };
  /** Deterministic faults (applied whatever the rate). */
  script?: readonly ScriptedFault[];
  /** Random faults: the chance per answer (default 0: none) ... */
  rate?: number;
  seed?: number;
  /** ... of these kinds (default all) ... */
  kinds?: readonly FaultKind[];
  /** ... on answers to these API keys (default all). */
  apiKeys?: readonly number[];
  /** At most this many random faults in all (default unlimited). */
  maxFaults?: number;
  /** How long `delay` holds an answer; default 1 500 ms. */
  delayMs?: number;
}

export interface AppliedFault { kind: FaultKind | 'edit'; apiKey: number; nth: number; connection: number }

export interface FaultProxy {
  readonly host: string;
  readonly port: number;
  readonly bootstrap: string;
  /** Client connections accepted so far, and those still open. */
  readonly opened: number;
  readonly open: number;
  /** Answers forwarded, by API key. */
  readonly answers: ReadonlyMap<number, number>;
  /** Every fault applied, in order. */
  readonly faults: readonly AppliedFault[];
  close(): Promise<void>;
}

const STALL_SIZE = 64 * 1024 * 1024;

/** Splits a byte stream into size-prefixed frames (each with its prefix). */
function framer(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (size < 0 || pending.length < 4 + size) break;
      onFrame(pending.subarray(0, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const random = prng(options.seed ?? 1);
  const rate = options.rate ?? 0;
  const kinds = options.kinds ?? FAULT_KINDS;
  const eligible = options.apiKeys ? new Set(options.apiKeys) : null;
  const delayMs = options.delayMs ?? 1500;
  const script = [...(options.script ?? [])];
  const answers = new Map<number, number>();
  let answered = 0;
  const faults: AppliedFault[] = [];
  let randomFaults = 0;
  const sockets = new Set<Socket>();
  let opened = 0;
  let open = 0;
  let self = { host: '127.0.0.1', port: 0 };

  const passed = new Map<ScriptedFault, number>();
  const pickFault = (apiKey: number, body: () => unknown): { kind: FaultKind | 'edit'; nth: number; edit?: (body: any) => void } | null => {
    const nth = (answers.get(apiKey) ?? 0) + 1;
    answers.set(apiKey, nth);
    answered++;
    const scripted = script.find((s) => {
      if (s.apiKey === undefined) return s.nth === answered;
      if (s.apiKey !== apiKey) return false;
      if (s.when === undefined) return s.nth === nth;
      let ok = false;
      try { ok = s.when(body()); } catch { ok = false; }
      if (!ok) return false;
      passed.set(s, (passed.get(s) ?? 0) + 1);
      return passed.get(s) === s.nth;
    });
    if (scripted) return { kind: scripted.kind, nth, edit: scripted.edit };
    if (rate <= 0 || (eligible !== null && !eligible.has(apiKey))) return null;
    if (options.maxFaults !== undefined && randomFaults >= options.maxFaults) return null;
    if (random() >= rate) return null;
    randomFaults++;
    return { kind: kinds[Math.floor(random() * kinds.length)]!, nth };
  };

  const server: Server = createServer((client) => {
    const connection = ++opened;
    open++;
    sockets.add(client);
    client.setNoDelay(true);
    const up = connect(options.upstream);
    sockets.add(up);
    up.setNoDelay(true);
    const requests = new Map<number, { apiKey: number; apiVersion: number }>();
    let releaseAt = 0;
    /** A frame held for `swap`, waiting for the next answer. */
    let held: { frame: Buffer; timer: ReturnType<typeof setTimeout> } | null = null;
    /** A frame held for `join`, to go out in one write with the next answer. */
    let joined: { frame: Buffer; timer: ReturnType<typeof setTimeout> } | null = null;
    let dead = false; // closed, stalled or cut: nothing more goes to the client
    let ended = false;

    const send = (bytes: Uint8Array, extraDelay = 0) => {
      const now = performance.now();
      releaseAt = Math.max(releaseAt, now + extraDelay);
      const wait = releaseAt - now;
      const copy = Buffer.from(bytes);
      if (wait <= 0) { if (!dead && !client.destroyed) client.write(copy); }
      else setTimeout(() => { if (!dead && !client.destroyed) client.write(copy); }, wait);
    };
    /** After what was queued so far went out: `then` (close, for truncate and midframe). */
    const afterQueued = (then: () => void) => {
      const wait = Math.max(0, releaseAt - performance.now());
      setTimeout(then, wait);
    };
    const cut = () => { dead = true; client.end(); setTimeout(() => client.destroy(), 50); up.destroy(); };

    client.on('data', framer((frame) => {
      if (frame.length >= 12) requests.set(frame.readInt32BE(8), { apiKey: frame.readInt16BE(4), apiVersion: frame.readInt16BE(6) });
      up.write(frame);
    }));
    up.on('data', framer((raw) => {
      if (dead) return;
      const correlationId = raw.length >= 8 ? raw.readInt32BE(4) : -1;
      const request = requests.get(correlationId);
      requests.delete(correlationId);
      const apiKey = request?.apiKey ?? -1;
      let frame: Buffer = raw;
      if (request && (apiKey === ApiKey.Metadata || apiKey === ApiKey.FindCoordinator)) frame = rewriteAddresses(raw, request, self);
      if (joined !== null) { // the answer before this one waits to go out with it
        clearTimeout(joined.timer);
        answers.set(apiKey, (answers.get(apiKey) ?? 0) + 1); // counted, spared any fault of its own
        send(Buffer.concat([joined.frame, frame]));
        joined = null;
        return;
      }
      if (held !== null) { // the answer before this one waits to swap correlation ids with it
        const first = held.frame;
        clearTimeout(held.timer);
        held = null;
        const a = first.readInt32BE(4);
        first.writeInt32BE(frame.readInt32BE(4), 4);
        frame = Buffer.from(frame);
        frame.writeInt32BE(a, 4);
        send(first);
      }
      const fault = pickFault(apiKey, () => (decodeResponse(frame, apiKey, request!.apiVersion) as { body: unknown }).body);
      if (fault === null) { send(frame); return; }
      faults.push({ kind: fault.kind, apiKey, nth: fault.nth, connection });
      switch (fault.kind) {
        case 'edit': {
          const { apiVersion } = request!;
          const decoded = decodeResponse(frame, apiKey, apiVersion) as { header: never; body: Record<string, unknown> };
          fault.edit!(decoded.body);
          send(encodeResponse(apiKey, apiVersion, decoded.header, decoded.body as never, { checkFields: false }));
          break;
        }
        case 'flip': {
          const copy = Buffer.from(frame);
          const n = 1 + Math.floor(random() * 3);
          for (let i = 0; i < n; i++) { const at = 4 + Math.floor(random() * (copy.length - 4)); copy[at] = copy[at]! ^ 0xff; }
          send(copy);
          break;
        }
        case 'truncate': {
          const keep = Math.max(4, Math.floor((frame.length - 4) / 2));
          const copy = Buffer.from(frame.subarray(0, 4 + keep));
          copy.writeInt32BE(keep, 0);
          send(copy);
          afterQueued(cut);
          break;
        }
        case 'midframe':
          send(frame.subarray(0, Math.max(5, Math.floor(frame.length / 2))));
          afterQueued(cut);
          break;
        case 'stall': {
          const prefix = Buffer.alloc(4);
          prefix.writeInt32BE(STALL_SIZE, 0);
          send(prefix);
          afterQueued(() => { dead = true; });
          break;
        }
        case 'duplicate':
          send(frame);
          send(frame);
          break;
        case 'swap': {
          const copy = Buffer.from(frame);
          // No next answer soon (nothing else in flight): it goes out under an id nobody waits for.
          held = { frame: copy, timer: setTimeout(() => { held = null; copy.writeInt32BE((copy.readInt32BE(4) + 1000) & 0x7fffffff, 4); send(copy); }, 200) };
          break;
        }
        case 'delay':
          send(frame, delayMs);
          break;
        case 'join': {
          const copy = Buffer.from(frame);
          // No next answer soon (nothing else in flight): it goes out alone.
          joined = { frame: copy, timer: setTimeout(() => { joined = null; send(copy); }, 1000) };
          break;
        }
        case 'garbage': {
          const size = 8 + Math.floor(random() * 64);
          const junk = Buffer.alloc(4 + size);
          junk.writeInt32BE(size, 0);
          for (let i = 4; i < junk.length; i++) junk[i] = Math.floor(random() * 256);
          send(junk);
          send(frame);
          break;
        }
      }
    }));
    const end = () => {
      if (held !== null) clearTimeout(held.timer);
      if (joined !== null) clearTimeout(joined.timer);
      client.destroy();
      up.destroy();
      sockets.delete(client);
      sockets.delete(up);
      if (!ended) { ended = true; open--; }
    };
    client.on('close', end).on('error', end);
    up.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
  return {
    ...self,
    bootstrap: `${self.host}:${self.port}`,
    get opened() { return opened; },
    get open() { return open; },
    answers,
    faults,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Metadata / FindCoordinator answer with every broker address replaced by the proxy's. */
function rewriteAddresses(frame: Buffer, request: { apiKey: number; apiVersion: number }, self: { host: string; port: number }): Buffer {
  try {
    const decoded = decodeResponse(frame, request.apiKey, request.apiVersion) as { header: never; body: Record<string, unknown> };
    const body = decoded.body as { brokers?: { host: string; port: number }[]; host?: string; port?: number; coordinators?: { host: string; port: number }[] };
    for (const b of [...(body.brokers ?? []), ...(body.coordinators ?? [])]) { b.host = self.host; b.port = self.port; }
    if (typeof body.host === 'string' && body.host !== '') { body.host = self.host; body.port = self.port; }
    return Buffer.from(encodeResponse(request.apiKey, request.apiVersion, decoded.header, decoded.body as never, { checkFields: false }));
  } catch {
    return frame; // not ours to judge: the client will
  }
}
