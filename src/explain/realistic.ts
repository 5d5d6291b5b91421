// A realistic instance of a message, beside the smallest legal one (./samples.ts): the same walk
// over the compiled struct, but with values a reader recognises (topic names, broker hosts, ids,
// offsets, a few records), chosen by field name and drawn from a seeded generator, so one seed
// always gives the same bytes. For the explorer site's API pages and for tests.
import {
  encodeRequest, encodeResponse, planFor, versionAndDirection, ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT,
  UINT16, UINT32, UUID, type CatalogueOption, type CompiledField, type CompiledStruct, type Direction,
} from '../codec/by-key.js';
import { encodeRecordBatch } from '../records/index.js';

export interface RealisticOptions extends CatalogueOption {
  /** The generator's seed (default 1): the same seed, the same instance. */
  seed?: number;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = ['orders', 'payments', 'inventory-updates', 'clickstream', 'audit-log'];
const GROUPS = ['checkout-service', 'billing-workers', 'search-indexer'];
const BASE_TIME = 1_733_000_000_000;

class Realistic {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = generator(seed);
  }

  private int(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  private pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)]!;
  }

  private uuid(): string {
    const bytes = Uint8Array.from({ length: 16 }, () => this.int(0, 255));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  /** A few records of JSON events, in one batch. */
  private records(): Uint8Array {
    const count = this.int(2, 4);
    return encodeRecordBatch({
      baseOffset: BigInt(this.int(1000, 90000)), baseTimestamp: BigInt(BASE_TIME + this.int(0, 86_400_000)),
      records: Array.from({ length: count }, (_, i) => ({
        key: `user-${this.int(100, 999)}`,
        value: JSON.stringify({ event: this.pick(['page_view', 'add_to_cart', 'purchase']), amount: this.int(1, 500) }),
        timestampDelta: i * this.int(1, 40),
        headers: i === 0 ? [{ key: 'trace-id', value: this.uuid() }] : [],
      })),
    });
  }

  private string(name: string): string {
    const n = name.toLowerCase();
    if (n.includes('topic') || n === 'name') return this.pick(TOPICS);
    if (n.includes('group')) return this.pick(GROUPS);
    if (n.includes('transactional')) return `tx-${this.pick(TOPICS)}-${this.int(1, 9)}`;
    if (n.includes('member') || n.includes('instance')) return `consumer-${this.int(1, 9)}-${this.uuid()}`;
    if (n.includes('host')) return `broker-${this.int(1, 3)}.kafka.internal`;
    if (n.includes('rack')) return this.pick(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    if (n.includes('client')) return `${this.pick(GROUPS)}-client`;
    if (n.includes('cluster')) return 'kw-prod-cluster';
    if (n.includes('protocol')) return this.pick(['range', 'cooperative-sticky']);
    if (n.includes('listener')) return 'PLAINTEXT';
    if (n.includes('message') || n.includes('error')) return 'null';
    if (n.includes('software')) return n.includes('version') ? '4.0.0' : 'kafka-wire';
    return `${n.replace(/[^a-z]/g, '').slice(0, 12) || 'value'}-${this.int(1, 99)}`;
  }

  private integer(name: string, kind: number): number {
    const n = name.toLowerCase();
    const max = kind === INT8 ? 127 : kind === INT16 ? 32767 : 2 ** 31 - 1;
    const fit = (v: number) => Math.min(v, max);
    if (n.includes('error')) return 0;
    if (n.includes('throttle')) return 0;
    if (n === 'port') return 9092;
    if (n.includes('partition') || n === 'index') return this.int(0, 11);
    if (n.includes('nodeid') || n.includes('brokerid') || n.includes('leaderid') || n.includes('controllerid') || n.includes('replica') || n.includes('coordinator')) return this.int(1, 3);
    if (n.includes('epoch')) return fit(this.int(1, 40));
    if (n.includes('timeout') || n.includes('ms')) return fit(this.pick([5000, 30000, 45000]));
    if (n.includes('acks')) return -1;
    if (n.includes('bytes')) return fit(this.pick([1048576, 52428800]));
    if (n.includes('count') || n.includes('number')) return fit(this.int(1, 12));
    if (n.includes('isolation')) return 1;
    if (n.includes('operations')) return -2147483648;
    return fit(this.int(0, kind === INT8 ? 3 : 100));
  }

  private int64(name: string): bigint {
    const n = name.toLowerCase();
    if (n.includes('time')) return BigInt(BASE_TIME + this.int(0, 86_400_000));
    if (n.includes('producerid')) return BigInt(this.int(1000, 99999));
    if (n.includes('offset') || n.includes('watermark')) return BigInt(this.int(1000, 900000));
    return BigInt(this.int(0, 100000));
  }

  private value(f: CompiledField, kind: number, name: string, depth: number): unknown {
    switch (kind) {
      case BOOL: return n(name).includes('allow') || this.random() < 0.5;
      case INT8: case INT16: case INT32: return this.integer(name, kind);
      case UINT16: return name.toLowerCase() === 'port' ? 9092 : this.int(0, 1000);
      case UINT32: return this.int(0, 100000);
      case INT64: return this.int64(name);
      case FLOAT64: return Math.round(this.random() * 1000) / 10;
      case STRING: {
        const text = this.string(name);
        return text === 'null' ? (f.nullable ? null : '') : text;
      }
      case UUID: return this.uuid();
      case BYTES: return new TextEncoder().encode(`${name}:${this.int(1, 999)}`);
      case RECORDS: return this.records();
      case STRUCT: return this.struct(f.struct!, depth + 1);
    }
    return undefined;
  }

  /** A struct at nesting `depth`: two elements in top-level arrays of structs, one deeper, so a page stays readable. */
  struct(s: CompiledStruct, depth = 0): Record<string, unknown> {
    const o = s.create();
    for (const f of s.regular) {
      if (f.kind === ARRAY) {
        const count = f.struct !== null ? (depth === 0 ? 2 : 1) : this.int(1, 3);
        o[f.name] = Array.from({ length: count }, (_, i) => {
          if (f.struct !== null) return this.struct(f.struct, depth + 1);
          // Numbers in arrays of ids and partitions read better as a run.
          const v = this.value(f, f.elementKind, f.name, depth);
          return typeof v === 'number' && f.name.toLowerCase().includes('partition') ? i : v;
        });
      } else {
        o[f.name] = this.value(f, f.kind, f.name, depth);
      }
    }
    return o;
  }
}

function n(name: string): string {
  return name.toLowerCase();
}

/** A realistic body: `(apiKey, version, direction)`, the same seed giving the same body. */
export function realisticMessage(apiKey: number, version: number, direction: Direction, options: RealisticOptions = {}): any {
  const [v, d] = versionAndDirection(version, direction);
  return new Realistic(options.seed ?? 1).struct(planFor(apiKey, d, v, options).body);
}

/** The realistic body as a whole frame, with a plausible header (correlation id, client id). */
export function realisticFrame(apiKey: number, version: number, direction: Direction, options: RealisticOptions = {}): Uint8Array {
  const [v, d] = versionAndDirection(version, direction);
  const body = realisticMessage(apiKey, v, d, options);
  const correlationId = 4000 + (options.seed ?? 1);
  return d === 'request'
    ? encodeRequest({ requestApiKey: apiKey, requestApiVersion: v, correlationId, clientId: 'checkout-service-client' }, body, options)
    : encodeResponse(apiKey, v, { correlationId }, body, options);
}
