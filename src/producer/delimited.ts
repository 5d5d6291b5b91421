// Delimited input as records (kcat -P's input, and `kafka-wire produce`'s): chunks of bytes split
// into records at a record delimiter and each record into key and value at its first key
// delimiter, handed to the producer as ranges of the chunk (no copy, no text). With one-byte
// delimiters and nothing added per record, the producer splits and encodes in WebAssembly
// (writeDelimited()); otherwise each record goes by writeRange() or write(). A record split across
// chunks is joined from its two pieces alone.
//
//   const input = new DelimitedWriter(producer, 'logs', { recordDelimiter: utf8('\n'), keyDelimiter: utf8('\t') });
//   for await (const chunk of source) await input.push(chunk);
//   await input.end();
//   await producer.flush();

import { concatBytes, copyBytes, indexOfBytes } from '../bytes.js';
import { ProducerError } from './errors.js';
import type { Producer } from './producer.js';

/** The writeDelimited() bulk path splits topics of up to this many partitions. */
const IN_PLACE_MAX_PARTITIONS = 64;

export interface DelimitedOptions {
  /** Ends each record (not empty). */
  recordDelimiter: Uint8Array;
  /** Splits a record into key and value at its first occurrence; empty: no keys. */
  keyDelimiter: Uint8Array;
  /** One partition for every record; else the producer's partitioner. */
  partition?: number;
  /** One key for every record (the key delimiter is then not looked for). */
  key?: Uint8Array;
  /** Headers on every record. */
  headers?: { key: string; value: Uint8Array }[];
  /** How errors name the input's record n (from 1); default `line n` for newline-delimited input, else `record n`. */
  recordName?: (n: number) => string;
  /** Where the record limit is set, for errors (default 'maxRecordBytes'; the CLI's is -X message.max.bytes). */
  limitSetting?: string;
}

/**
 * Writes delimited chunks to one topic through `producer`. push() waits for room in the
 * producer's buffer, so a loop over push() keeps the memory bounded. An input record over the
 * producer's maxRecordBytes throws ProducerError RECORD_TOO_LARGE naming it (its line, when the
 * record delimiter is a newline) with `record` its number from 1; see recordName().
 */
export class DelimitedWriter {
  #carry: Uint8Array | null = null;
  #record = 0;
  readonly #producer: Producer;
  readonly #topic: string;
  readonly #partition: number | undefined;
  readonly #delim: Uint8Array;
  readonly #keyDelim: Uint8Array;
  readonly #fixedKey: Uint8Array | undefined;
  readonly #headers: { key: string; value: Uint8Array }[] | undefined;
  readonly #name: (n: number) => string;
  readonly #limitSetting: string;

  constructor(producer: Producer, topic: string, options: DelimitedOptions) {
    if (options.recordDelimiter.length === 0) throw new RangeError('the record delimiter cannot be empty');
    this.#producer = producer;
    this.#topic = topic;
    this.#partition = options.partition;
    this.#delim = options.recordDelimiter;
    this.#fixedKey = options.key;
    this.#keyDelim = options.key !== undefined ? new Uint8Array(0) : options.keyDelimiter;
    this.#headers = options.headers !== undefined && options.headers.length > 0 ? options.headers : undefined;
    const byLine = this.#delim.length === 1 && this.#delim[0] === 10;
    this.#name = options.recordName ?? (byLine ? (n) => `line ${n}` : (n) => `record ${n}`);
    this.#limitSetting = options.limitSetting ?? 'maxRecordBytes';
  }

  /** The input's record `n` (from 1), as errors name it: `line 3`, `record 3`. */
  recordName(n: number): string {
    return this.#name(n);
  }

  /**
   * One-byte delimiters, no fixed key or headers, few partitions: the producer splits and encodes
   * the input in WebAssembly (writeDelimited), with no record handled here one by one.
   */
  get #inPlace(): boolean {
    return this.#delim.length === 1 && this.#keyDelim.length <= 1 && this.#fixedKey === undefined && this.#headers === undefined &&
      this.#producer.options.partitioner === undefined &&
      (this.#producer.client.topics.get(this.#topic)?.partitions.length ?? Infinity) <= IN_PLACE_MAX_PARTITIONS;
  }

  /** Hands buf[start, end) to writeDelimited, waiting for room as it asks; returns where the unfinished record starts. */
  async #writeInPlace(buf: Uint8Array, start: number, end: number, final: boolean): Promise<number> {
    const p = this.#producer;
    const options = { recordDelimiter: this.#delim[0]!, keyDelimiter: this.#keyDelim.length === 0 ? -1 : this.#keyDelim[0]!, partition: this.#partition, final };
    for (;;) {
      try {
        start += p.writeDelimited(this.#topic, buf, start, end, options);
      } catch (error) {
        if (error instanceof ProducerError && error.code === 'RECORD_TOO_LARGE' && error.record !== undefined && error.size !== undefined) {
          this.#record = error.record - 1;
          this.#tooLarge(error.size, false);
        }
        throw error;
      }
      if (start >= end || !p.full) return start;
      await p.ready();
    }
  }

  /** Writes the records `chunk` ends; the rest waits for the next chunk (or end()). The chunk may be reused after. */
  async push(chunk: Uint8Array): Promise<void> {
    if (this.#inPlace) return this.#pushInPlace(chunk);
    const delim = this.#delim;
    const dl = delim.length;
    let start = 0;
    const carry = this.#carry;
    if (carry !== null) {
      // The record began in an earlier chunk: join its pieces, up to and with the first delimiter
      // of this chunk; one that straddles the two is found from dl - 1 bytes before the join.
      const first = indexOfBytes(chunk, delim, 0);
      const head = first < 0 ? chunk : chunk.subarray(0, first + dl);
      const joined = concatBytes([carry, head], carry.length + head.length);
      const end = indexOfBytes(joined, delim, Math.max(0, carry.length - dl + 1));
      if (end < 0) {
        this.#carry = joined;
        if (joined.length > this.#limit) this.#tooLarge(joined.length);
        return;
      }
      this.#carry = null;
      start = end + dl - carry.length;
      if (!this.#add(joined, 0, end)) await this.#producer.ready();
    }
    for (;;) {
      const end = indexOfBytes(chunk, delim, start);
      if (end < 0) break;
      const more = this.#add(chunk, start, end);
      start = end + dl;
      if (!more) await this.#producer.ready();
    }
    if (start < chunk.length) {
      this.#carry = copyBytes(chunk.subarray(start)); // the caller may reuse its chunk
      if (this.#carry.length > this.#limit) this.#tooLarge(this.#carry.length);
    }
  }

  async #pushInPlace(chunk: Uint8Array): Promise<void> {
    let start = 0;
    const carry = this.#carry;
    if (carry !== null) {
      // The record that began in an earlier chunk, joined with its end (the rest goes in place).
      const first = chunk.indexOf(this.#delim[0]!);
      if (first < 0) {
        this.#carry = concatBytes([carry, chunk], carry.length + chunk.length);
        this.#record = this.#producer.stats.recordsAppended;
        if (this.#carry.length > this.#limit) this.#tooLarge(this.#carry.length);
        return;
      }
      this.#carry = null;
      const joined = concatBytes([carry, chunk.subarray(0, first + 1)], carry.length + first + 1);
      await this.#writeInPlace(joined, 0, joined.length, false);
      start = first + 1;
    }
    const rest = await this.#writeInPlace(chunk, start, chunk.length, false);
    if (rest < chunk.length) {
      this.#carry = copyBytes(chunk.subarray(rest)); // the caller may reuse its chunk
      this.#record = this.#producer.stats.recordsAppended;
      if (this.#carry.length > this.#limit) this.#tooLarge(this.#carry.length);
    }
  }

  /** Writes the last record, if the input did not end with a delimiter. */
  async end(): Promise<void> {
    const carry = this.#carry;
    this.#carry = null;
    if (carry !== null && carry.length > 0 && this.#inPlace) {
      await this.#writeInPlace(carry, 0, carry.length, true);
      return;
    }
    if (carry !== null && carry.length > 0 && !this.#add(carry, 0, carry.length)) await this.#producer.ready();
  }

  /** A record cannot be larger than the record limit plus the key delimiter. */
  get #limit(): number {
    return this.#maxRecordBytes + this.#keyDelim.length;
  }

  get #maxRecordBytes(): number {
    return this.#producer.options.maxRecordBytes ?? 1_000_000;
  }

  /** The input's record after #record is over the limit: `partial` when it has not even ended yet. */
  #tooLarge(bytes: number, partial = true): never {
    const record = this.#record + 1;
    throw new ProducerError('RECORD_TOO_LARGE',
      `${this.recordName(record)}: ${bytes} bytes${partial ? ' or more' : ''}, above the record limit of ${this.#maxRecordBytes} bytes (${this.#limitSetting})`,
      { topic: this.#topic, record, size: bytes });
  }

  #keyCache = -1;
  #keyCacheBuf: Uint8Array | null = null;
  /** The last #split's key start and end (-1: no key) and value start. */
  #ks = -1;
  #ke = -1;
  #vs = 0;

  /** Appends src[start, end) as one record; false when the producer's buffer is full. */
  #add(src: Uint8Array, start: number, end: number): boolean {
    this.#record++;
    const p = this.#producer;
    try {
      this.#split(src, start, end);
      if (this.#fixedKey !== undefined || this.#headers !== undefined) {
        const key = this.#fixedKey ?? (this.#ks < 0 ? null : src.subarray(this.#ks, this.#ke));
        return p.write(this.#topic, key, src.subarray(this.#vs, end), this.#partition, this.#headers);
      }
      return p.writeRange(this.#topic, src, this.#ks, this.#ke, this.#vs, end, this.#partition);
    } catch (error) {
      if (error instanceof ProducerError && error.code === 'RECORD_TOO_LARGE') {
        this.#record--;
        this.#tooLarge(end - start, false);
      }
      throw error;
    }
  }

  /** Finds the key delimiter of the record src[start, end). */
  #split(src: Uint8Array, start: number, end: number): void {
    const kd = this.#keyDelim;
    if (kd.length === 0 || this.#fixedKey !== undefined) { this.#ks = -1; this.#ke = -1; this.#vs = start; return; }
    // The next key delimiter found may lie in a later record: keep it for the records before it.
    let at: number;
    if (this.#keyCacheBuf === src && this.#keyCache >= start) at = this.#keyCache;
    else {
      at = indexOfBytes(src, kd, start);
      if (at < 0) at = Number.MAX_SAFE_INTEGER;
      this.#keyCacheBuf = src;
      this.#keyCache = at;
    }
    if (at + kd.length > end) { this.#ks = -1; this.#ke = -1; this.#vs = start; return; }
    this.#ks = start;
    this.#ke = at;
    this.#vs = at + kd.length;
  }
}
