// Serialisers and deserialisers for record keys and values, shared by the producer (send() turns
// an app's values into bytes) and the consumer (records are handed out with typed keys and
// values), so an app does not write TextEncoder / JSON.parse around every record:
//
//   const producer = await createProducer({ bootstrap, valueSerializer: serdes.json<Order>() });
//   await producer.send('orders', { key: 'o-1', value: { id: 1, total: 9.5 } });
//   const consumer = new Consumer({ ..., keyDeserializer: serdes.string, valueDeserializer: serdes.json<Order>() });
//   await consumer.run({ eachRecord: (r) => ship(r.key, r.value) });   // r.value: Order | null
//
// A null key or value (a tombstone) stays null both ways: serialisers never see it. A serialiser
// or deserialiser that throws becomes a SerdeError naming the topic, the field and the record.
// `jsonSafe(record)` gives a record JSON.stringify can write (int64 as decimal strings, bytes as
// lowercase hex, as the project's JSON everywhere).

import { toHex } from './text.js';

/** Value to bytes; `topic` is where the record goes. */
export type SerializeFn<T> = (value: T, topic: string) => Uint8Array;
/** Bytes to value; `topic` is where the record came from. */
export type DeserializeFn<T> = (bytes: Uint8Array, topic: string) => T;

/** Both directions of one encoding (serdes.string, serdes.json<T>() or your own). */
export interface Serde<T> {
  serialize: SerializeFn<T>;
  deserialize: DeserializeFn<T>;
}

/** What the producer's keySerializer / valueSerializer take: a function or anything with serialize(). */
export type Serializer<T> = SerializeFn<T> | { serialize: SerializeFn<T> };
/** What the consumer's keyDeserializer / valueDeserializer take: a function or anything with deserialize(). */
export type Deserializer<T> = DeserializeFn<T> | { deserialize: DeserializeFn<T> };

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** The built-in serdes: bytes as they are, UTF-8 strings, and JSON (bigint written as a decimal string). */
export const serdes = {
  bytes: { serialize: (v: Uint8Array) => v, deserialize: (b: Uint8Array) => b } satisfies Serde<Uint8Array>,
  string: { serialize: (v: string) => utf8Encoder.encode(v), deserialize: (b: Uint8Array) => utf8Decoder.decode(b) } satisfies Serde<string>,
  /** JSON in UTF-8. `T` is what the app says the JSON holds: parsing does not check it. */
  json<T = unknown>(): Serde<T> {
    return {
      serialize: (v: T) => utf8Encoder.encode(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))),
      deserialize: (b: Uint8Array) => JSON.parse(utf8Decoder.decode(b)) as T,
    };
  },
} as const;

export type SerdeErrorCode = 'SERIALIZE' | 'DESERIALIZE';

/** A serialiser or deserialiser threw: which topic, field and (consuming) record; the cause is what it threw. */
export class SerdeError extends Error {
  override readonly name = 'SerdeError';
  constructor(
    readonly code: SerdeErrorCode,
    readonly topic: string,
    readonly field: 'key' | 'value',
    message: string,
    readonly partition: number | undefined,
    readonly offset: bigint | undefined,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

const serializeFn = <T>(s: Serializer<T>): SerializeFn<T> => (typeof s === 'function' ? s : (v, t) => s.serialize(v, t));
const deserializeFn = <T>(d: Deserializer<T>): DeserializeFn<T> => (typeof d === 'function' ? d : (b, t) => d.deserialize(b, t));

/** The producer side: options with serialisers, applied by send() (write() and writeDelimited() take bytes as they are). */
export interface SerializerOptions<K, V> {
  /** Turns each record's key into bytes (absent: keys are bytes or strings, written as UTF-8). */
  keySerializer?: Serializer<K>;
  /** Turns each record's value into bytes (absent: values are bytes or strings). */
  valueSerializer?: Serializer<V>;
}

/** Without a serialiser a key or value is bytes or a string (UTF-8), as the wire layer takes it. */
export type RawField = Uint8Array | string;

/** One record for send(): key and value of the serialisers' types (null: none / a tombstone). */
export interface RecordToSend<K = RawField, V = RawField> {
  key?: K | null;
  value?: V | null;
  headers?: ReadonlyArray<{ key: string | Uint8Array; value?: Uint8Array | string | null }>;
  timestamp?: bigint | number;
}

/**
 * Turns records with typed keys and values into the bytes-or-string form the producer appends
 * (records unchanged when there are no serialisers). Throws SerdeError when a serialiser does.
 */
export function serializeRecords<K, V, R extends RecordToSend<K, V>>(topic: string, records: readonly R[], options: SerializerOptions<K, V>):
    (Omit<R, 'key' | 'value'> & { key?: RawField | null; value?: RawField | null })[] {
  const { keySerializer, valueSerializer } = options;
  if (keySerializer === undefined && valueSerializer === undefined) return records as never;
  const key = keySerializer && serializeFn(keySerializer);
  const value = valueSerializer && serializeFn(valueSerializer);
  return records.map((r) => ({
    ...r,
    key: key && r.key != null ? run(key, r.key, topic, 'key') : r.key as RawField | null | undefined,
    value: value && r.value != null ? run(value, r.value, topic, 'value') : r.value as RawField | null | undefined,
  }));
}

function run<T>(fn: SerializeFn<T>, v: T, topic: string, field: 'key' | 'value'): Uint8Array {
  try {
    return fn(v, topic);
  } catch (err) {
    throw new SerdeError('SERIALIZE', topic, field, `topic ${topic}: the ${field} serializer failed: ${(err as Error)?.message ?? String(err)}`, undefined, undefined, err);
  }
}

/** The consumer side: options with deserialisers. */
export interface DeserializerOptions<K, V> {
  /** Turns each record's key into K (absent: the key's bytes). */
  keyDeserializer?: Deserializer<K>;
  /** Turns each record's value into V (absent: the value's bytes). */
  valueDeserializer?: Deserializer<V>;
}

/** A record as the consumer hands it on: where it is, and its key and value deserialised (null stays null). */
export interface ConsumerRecord<K = Uint8Array, V = Uint8Array> {
  topic: string;
  partition: number;
  offset: bigint;
  /** Milliseconds since the epoch (CreateTime, or LogAppendTime when the topic sets it). */
  timestamp: bigint;
  key: K | null;
  value: V | null;
  headers: { key: string; value: Uint8Array | null }[];
}

/** The fields of a record read from a batch, before deserialising. */
export interface RawRecord {
  offset: bigint;
  timestamp: bigint;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: readonly { key: string; value: Uint8Array | null }[];
}

/** Deserialises records of topic/partition; with no deserialisers keys and values stay bytes. */
export class RecordDeserializer<K, V> {
  readonly #key: DeserializeFn<K> | undefined;
  readonly #value: DeserializeFn<V> | undefined;

  constructor(options: DeserializerOptions<K, V>) {
    this.#key = options.keyDeserializer && deserializeFn(options.keyDeserializer);
    this.#value = options.valueDeserializer && deserializeFn(options.valueDeserializer);
  }

  record(topic: string, partition: number, r: RawRecord): ConsumerRecord<K, V> {
    return {
      topic, partition, offset: r.offset, timestamp: r.timestamp,
      key: this.#field(this.#key, r.key, topic, partition, r.offset, 'key'),
      value: this.#field(this.#value, r.value, topic, partition, r.offset, 'value'),
      headers: r.headers.length === 0 ? [] : r.headers.map((h) => ({ key: h.key, value: h.value })),
    };
  }

  #field<T>(fn: DeserializeFn<T> | undefined, bytes: Uint8Array | null, topic: string, partition: number, offset: bigint, field: 'key' | 'value'): T | null {
    if (bytes === null) return null;
    if (fn === undefined) return bytes as T;
    try {
      return fn(bytes, topic);
    } catch (err) {
      throw new SerdeError('DESERIALIZE', topic, field, `${topic}/${partition}@${offset}: the ${field} deserializer failed: ${(err as Error)?.message ?? String(err)}`, partition, offset, err);
    }
  }
}

/** A value with every bigint as a decimal string and every Uint8Array as lowercase hex (deeply). */
export type JsonSafe<T> =
  T extends bigint ? string
  : T extends Uint8Array ? string
  : T extends readonly (infer E)[] ? JsonSafe<E>[]
  : T extends object ? { [P in keyof T]: JsonSafe<T[P]> }
  : T;

/** A copy JSON.stringify can write: bigint (offsets, timestamps) as decimal strings, bytes as lowercase hex. */
export function jsonSafe<T>(value: T): JsonSafe<T> {
  if (typeof value === 'bigint') return value.toString() as JsonSafe<T>;
  if (value instanceof Uint8Array) return toHex(value) as JsonSafe<T>;
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v)) as JsonSafe<T>;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonSafe(v);
    return out as JsonSafe<T>;
  }
  return value as JsonSafe<T>;
}
