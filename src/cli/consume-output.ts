// How `kafka-wire consume` (and `consume -G`) prints records: JSON lines (the default, also -J),
// built as UTF-8 bytes straight from the batches; kcat -K DELIM's "key DELIM value"; and
// -f FORMAT with kcat's tokens (%s %S %R %k %K %T %h %t %p %o, \n \r \t \xXX); -Z prints null
// (as kcat, also empty) keys and values as NULL. Each form is a RecordWriter called per record,
// writing into one byte buffer; JSON lines in utf8 also have a RangeWriter, a batch's records per
// call of the records WebAssembly module (assembly/records/json-lines.ts), the same bytes. The
// options that choose the form are here too.
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { UsageError } from '../errors.js';
import type { Io } from './command.js';
import type { RecordBatch } from '../records/index.js';
import { jsonLinesTake, writeJsonLines } from '../records/json-lines.js';
import { stringOption, type OptionSpec, type OptionValues } from './options.js';

export type Encoding = 'utf8' | 'base64' | 'hex';
export const ENCODINGS: readonly Encoding[] = ['utf8', 'base64', 'hex'];

/** consume's output forms, kcat's flags: -J (JSON lines, the default), -K, -D, -f, -Z, -u. */
export const CONSUME_OUTPUT_OPTIONS: readonly OptionSpec[] = [
  { name: 'json', short: 'J', help: 'JSON lines (the default; kcat -J\'s habit)' },
  { name: 'key-delimiter', short: 'K', value: 'DELIM', help: 'print "key DELIM value" per record instead of JSON (kcat -K; \\t \\n \\xNN escapes)' },
  { name: 'delimiter', short: 'D', value: 'DELIM', help: 'what ends each record with -K (default \\n)' },
  { name: 'format', short: 'f', value: 'FORMAT', help: 'print records in kcat\'s -f format: %s value, %k key, %S %K their lengths (-1 for null), %R value length as 4 bytes, %T timestamp, %h headers, %t topic, %p partition, %o offset' },
  { name: 'null', short: 'Z', help: 'print null keys and values as NULL in -K and -f output (JSON prints null)' },
  { name: 'unbuffered', short: 'u', help: 'write each record as soon as it is read' },
];

/** The output options, checked: -J, -K and -f are three forms, one at a time. */
export function outputOptions(values: OptionValues, encoding: Encoding): OutputOptions {
  const forms = ['json', 'key-delimiter', 'format'].filter((name) => values[name] !== undefined);
  if (forms.length > 1) throw new UsageError(`give one of -J, -K and -f, not ${forms.map((f) => `--${f}`).join(' and ')}`);
  if (values.delimiter !== undefined && values['key-delimiter'] === undefined) throw new UsageError('-D goes with -K (with -f, end the format with \\n)');
  return {
    format: stringOption(values, 'format'), keyDelimiter: stringOption(values, 'key-delimiter'),
    delimiter: stringOption(values, 'delimiter'), nullAsText: values.null === true, encoding,
  };
}

const WRITER_BUFFER_BYTES = 1 << 20;
/** Buffers kept for reuse once written (more in flight are left to the GC). */
const SPARE_BUFFERS = 4;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = '0123456789abcdef';

/**
 * Builds JSON lines as UTF-8 bytes in a buffer and hands each full buffer on (then starts a new
 * one): no string or view per field, so a million records make little garbage. Keys and
 * values are escaped byte by byte while they are ASCII; any other byte sends that field through
 * TextDecoder-equivalent decoding and JSON.stringify (invalid UTF-8 becomes U+FFFD, as before).
 */
export class JsonLinesWriter {
  /** The buffer being filled and `buf` a view of its free part (past what was flushed). */
  private root: Buffer = Buffer.allocUnsafe(WRITER_BUFFER_BYTES);
  private buf: Buffer = this.root;
  private pos = 0;
  /** Buffers whose bytes the sink has not yet said it is done with: how many pieces of each. */
  private readonly held = new Map<Buffer, number>();
  /** Whole buffers the sink is done with, to fill again (no new memory per megabyte written). */
  private readonly spare: Buffer[] = [];

  /**
   * `sink` keeps the bytes until it calls `done` (if ever; a sink that writes them at once may
   * call it then): only after that is their buffer filled again.
   */
  constructor(private readonly sink: (bytes: Uint8Array, done: () => void) => unknown,
    /** Writes bytes at once if it can (true), so they need no copy: directWriter's. */
    private readonly direct?: (bytes: Uint8Array) => boolean) {}

  /**
   * Bytes valid only during the call (a view of WebAssembly memory): written straight from there
   * when the writer has a direct write that takes them (after what is buffered), else copied.
   */
  transient(bytes: Uint8Array): void {
    if (this.direct !== undefined) {
      this.flush();
      if (this.direct(bytes)) return;
    }
    this.raw(bytes);
  }

  /** Hands on what is buffered (the sink keeps it: the writer continues in a new buffer). */
  flush(): void {
    if (this.pos === 0) return;
    const root = this.root;
    const bytes = this.buf.subarray(0, this.pos);
    this.held.set(root, (this.held.get(root) ?? 0) + 1);
    // What is left of this buffer is still free to use; another one once little is.
    if (this.buf.length - this.pos >= WRITER_BUFFER_BYTES / 8) this.buf = this.buf.subarray(this.pos);
    else this.root = this.buf = this.spare.pop() ?? Buffer.allocUnsafe(WRITER_BUFFER_BYTES);
    this.pos = 0;
    let called = false;
    this.sink(bytes, () => {
      if (called) return;
      called = true;
      const left = this.held.get(root)! - 1;
      if (left > 0) { this.held.set(root, left); return; }
      this.held.delete(root);
      if (root !== this.root && root.length === WRITER_BUFFER_BYTES && this.spare.length < SPARE_BUFFERS) this.spare.push(root);
    });
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n <= this.buf.length) return;
    // Too little left of this buffer: a whole one (a spare), or one of its own for a long field.
    this.root = this.buf = n <= WRITER_BUFFER_BYTES ? this.spare.pop() ?? Buffer.allocUnsafe(WRITER_BUFFER_BYTES) : Buffer.allocUnsafe(n);
  }

  /** Bytes copied as they are (JSON syntax and text already escaped); a long run across buffers. */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    if (n > 32) {
      // Short ones: a loop beats set()'s call cost. Long ones fill what is left and go on in the
      // next buffer (no buffer of their size).
      let at = 0;
      while (n - at > this.buf.length - this.pos) {
        const part = this.buf.length - this.pos;
        this.buf.set(bytes.subarray(at, at + part), this.pos);
        this.pos += part;
        at += part;
        this.flush();
      }
      this.buf.set(at === 0 ? bytes : bytes.subarray(at), this.pos);
      this.pos += n - at;
      return;
    }
    this.room(n);
    for (let i = 0, buf = this.buf, p = this.pos; i < n; i++) buf[p + i] = bytes[i]!;
    this.pos += n;
  }

  /** A JavaScript string as a JSON string. */
  string(text: string): void {
    const json = JSON.stringify(text);
    this.room(json.length * 3);
    this.pos += this.buf.write(json, this.pos, 'utf8');
  }

  /**
   * An integer (a safe Number) in decimal. Done in int32 pieces (a division by 10 of an int32
   * compiles to a multiply; of a double it does not): a timestamp's 13 digits as its part above
   * 10^8 and exactly 8 digits below.
   */
  int(n: number): void {
    this.room(24);
    const buf = this.buf;
    let p = this.pos;
    if (n < 0) { buf[p++] = 0x2d; n = -n; }
    if (n < 1e8) {
      p = smallInt(buf, p, n | 0);
    } else {
      const high = Math.floor(n / 1e8); // below 2^53 / 10^8 < 2^31
      p = smallInt(buf, p, high);
      let low = (n - high * 1e8) | 0;
      for (let k = p + 7; k >= p; k--) { const q = (low / 10) | 0; buf[k] = 0x30 + low - q * 10; low = q; }
      p += 8;
    }
    this.pos = p;
  }

  /** data[offset, offset + size) as a JSON string of its UTF-8 text, or null when size < 0. */
  utf8(data: Uint8Array, offset: number, size: number): void {
    if (size < 0) { this.raw(NULL); return; }
    this.room(2 + 6 * size);
    const buf = this.buf;
    const start = this.pos;
    let p = start;
    buf[p++] = QUOTE;
    // Most fields are plain ASCII with nothing to escape: copied in the same pass that finds so
    // (no view and no set() call per field).
    let plain = offset;
    const stop = offset + size;
    for (; plain < stop; plain++) { const c = data[plain]!; if (c < 0x20 || c >= 0x80 || c === QUOTE || c === BACKSLASH) break; buf[p++] = c; }
    for (let i = plain, end = stop; i < end; i++) {
      const c = data[i]!;
      if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) {
        if (c >= 0x80) { this.pos = start; this.string(Buffer.from(data.buffer, data.byteOffset + offset, size).toString('utf8')); return; }
        buf[p++] = c;
      } else if (c === QUOTE || c === BACKSLASH) {
        buf[p++] = BACKSLASH;
        buf[p++] = c;
      } else {
        const short = c === 0x0a ? 0x6e : c === 0x0d ? 0x72 : c === 0x09 ? 0x74 : c === 0x08 ? 0x62 : c === 0x0c ? 0x66 : 0;
        buf[p++] = BACKSLASH;
        if (short !== 0) buf[p++] = short;
        else { buf[p++] = 0x75; buf[p++] = 0x30; buf[p++] = 0x30; buf[p++] = HEX.charCodeAt(c >> 4); buf[p++] = HEX.charCodeAt(c & 15); }
      }
    }
    buf[p++] = QUOTE;
    this.pos = p;
  }

  /** Bytes as a JSON string in the given encoding (or null when size < 0). */
  bytes(data: Uint8Array, offset: number, size: number, encoding: Encoding): void {
    if (encoding === 'utf8' || size < 0) { this.utf8(data, offset, size); return; }
    const text = Buffer.from(data.buffer, data.byteOffset + offset, size).toString(encoding);
    this.room(text.length + 2);
    this.buf[this.pos++] = QUOTE;
    this.pos += this.buf.write(text, this.pos, 'latin1');
    this.buf[this.pos++] = QUOTE;
  }
}

/** Writes x (0 <= x < 2^31) in decimal at buf[p]; returns the end. */
function smallInt(buf: Uint8Array, p: number, x: number): number {
  const digits = x < 10 ? 1 : x < 100 ? 2 : x < 1000 ? 3 : x < 10000 ? 4 : x < 100000 ? 5 : x < 1000000 ? 6
    : x < 10000000 ? 7 : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10;
  const end = p + digits;
  for (let k = end - 1; k >= p; k--) { const q = (x / 10) | 0; buf[k] = 0x30 + x - q * 10; x = q; }
  return end;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const NULL = ascii('null');

/** Writes record `i` of `batch` (at `offset` of `partition`) into the output buffer. */
export type RecordWriter = (partition: number, batch: RecordBatch, i: number, offset: number | bigint) => void;

/**
 * Writes one record as a JSON line {topic, partition, offset, timestamp, key, value, headers}
 * (the shape `kafka-wire broker --load` reads), straight from the batch's positions. What does not
 * change between records is written as few pieces as it can be (per partition, the line's start up
 * to the offset; a null key with the value's name; no headers with the line's end), and the
 * timestamp is summed as Numbers while that is exact (no BigInt per record). `more` writes fields
 * of the caller's after headers (each starting with a comma), before the line's closing brace.
 */
export function jsonRecordWriter(topic: string, encoding: Encoding, out: JsonLinesWriter, more?: (out: JsonLinesWriter) => void): RecordWriter {
  const headFor = lineHeads(topic);
  const [timestampKey, keyKey, nullKeyValueKey, valueKey, headersKey, noHeaders, lineEnd] =
    [',"timestamp":', ',"key":', ',"key":null,"value":', ',"value":', ',"headers":', ',"headers":[]', '}\n'].map(ascii);
  const noHeadersEnd = ascii(',"headers":[]}\n');
  // Without fields of the caller's, a line without headers ends in one piece.
  const end = more === undefined ? () => out.raw(lineEnd) : () => { more(out); out.raw(lineEnd); };
  const [open, headerKey, headerValue, headerEnd, comma, close] = ['[', '{"key":', ',"value":', '}', ',', ']'].map(ascii);
  const fieldBytes = (out: JsonLinesWriter, b: Uint8Array | null) => (b === null ? out.raw(NULL) : out.bytes(b, 0, b.length, encoding));
  return (partition, batch, i, offset) => {
    out.raw(headFor(partition));
    if (typeof offset === 'number') out.int(offset); else out.string(String(offset));
    out.raw(timestampKey);
    out.int(timestampNumber(batch, i));
    const data = batch.data;
    const keySize = batch.keySizeAt(i);
    if (keySize < 0) out.raw(nullKeyValueKey);
    else {
      out.raw(keyKey);
      out.bytes(data, batch.keyOffsetAt(i), keySize, encoding);
      out.raw(valueKey);
    }
    out.bytes(data, batch.valueOffsetAt(i), batch.valueSizeAt(i), encoding);
    if (batch.headerCountAt(i) === 0) {
      if (more === undefined) out.raw(noHeadersEnd); else { out.raw(noHeaders); end(); }
      return;
    }
    out.raw(headersKey);
    batch.headersAt(i).forEach((h, n) => {
      out.raw(n === 0 ? open : comma);
      out.raw(headerKey);
      out.string(h.key);
      out.raw(headerValue);
      fieldBytes(out, h.value);
      out.raw(headerEnd);
    });
    out.raw(close);
    end();
  };
}

/** Per partition, a line's start up to the offset's digits: {"topic":T,"partition":P,"offset": */
function lineHeads(topic: string): (partition: number) => Buffer {
  const topicJson = JSON.stringify(topic);
  const heads: Buffer[] = [];
  return (partition) => heads[partition] ?? (heads[partition] = Buffer.from(`{"topic":${topicJson},"partition":${partition},"offset":`, 'utf8'));
}

/**
 * Writes records [from, to) of `batch`, whose offsets are safe integers, into the output buffer;
 * `tail` (JSON text starting with a comma) in each line before its closing brace, which the
 * per-record writer it falls back on must write too (its `more`).
 */
export type RangeWriter = (partition: number, batch: RecordBatch, from: number, to: number, tail?: Uint8Array) => void;

/**
 * JSON lines (utf8) a batch at a time: the JSON-lines WebAssembly module writes the range's
 * records in one call (src/records/json-lines.ts), copied once into the output buffer. What it
 * leaves aside (invalid UTF-8 to replace, a timestamp that is not a safe integer, a header key with
 * a byte order mark) goes through `each`, the per-record writer; so do batches it cannot take
 * (legacy message sets, log-append batches whose time is not a safe integer).
 */
export function jsonRangeWriter(topic: string, out: JsonLinesWriter, each: RecordWriter): RangeWriter {
  const headFor = lineHeads(topic);
  const written = (bytes: Uint8Array) => out.transient(bytes);
  return (partition, batch, from, to, tail) => {
    const one = (i: number) => each(partition, batch, i, batch.baseOffsetNumber + batch.offsetDeltaAt(i));
    if (!jsonLinesTake(batch)) {
      for (let i = from; i < to; i++) one(i);
      return;
    }
    writeJsonLines(batch, from, to, headFor(partition), written, one, tail);
  };
}

/**
 * Record i's timestamp as a Number (as JSON prints it): for v2 batches with create times, the
 * base plus the delta as Numbers when the three are exact; else through the bigint.
 */
function timestampNumber(batch: RecordBatch, i: number): number {
  if (batch.magic === 2 && batch.timestampType === 'create') {
    const base = batch.baseTimestampNumber, delta = batch.timestampDeltaAt(i), sum = base + delta;
    if (Number.isSafeInteger(base) && Number.isSafeInteger(delta) && Number.isSafeInteger(sum)) return sum;
  }
  return Number(batch.timestampAt(i));
}

export interface OutputOptions {
  /** -f: kcat's format string. */
  format?: string;
  /** -K: print the key, this delimiter, then the value. */
  keyDelimiter?: string;
  /** -D: what ends each record in -K's form (default a newline). */
  delimiter?: string;
  /** -Z: null keys and values as NULL (else empty). */
  nullAsText?: boolean;
  encoding: Encoding;
}

/** Text with kcat's escapes (\n \r \t \\ and \xNN, a byte) as bytes; the rest as UTF-8. */
export function unescapeKcat(text: string): Buffer {
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(/\\(x[0-9a-fA-F]{1,3}|[nrt\\])/g)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'));
    const e = m[1]!;
    parts.push(Buffer.from([e === 'n' ? 10 : e === 'r' ? 13 : e === 't' ? 9 : e === '\\' ? 92 : parseInt(e.slice(1), 16) & 0xff]));
    last = m.index! + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

type Piece = Buffer | ((out: JsonLinesWriter, topic: string, partition: number, batch: RecordBatch, i: number, offset: number | bigint) => void);

const NULL_TEXT = Buffer.from('NULL');

/** The batch-at-a-time writer for the options when there is one (JSON lines in utf8), else undefined. */
export function rangeWriter(topic: string, options: OutputOptions, out: JsonLinesWriter): RangeWriter | undefined {
  if (options.format !== undefined || options.keyDelimiter !== undefined || options.encoding !== 'utf8') return undefined;
  return jsonRangeWriter(topic, out, jsonRecordWriter(topic, 'utf8', out));
}

/** The writer for the options: JSON lines unless -f or -K asks for text. */
export function recordWriter(topic: string, options: OutputOptions, out: JsonLinesWriter): RecordWriter {
  if (options.format === undefined && options.keyDelimiter === undefined) return jsonRecordWriter(topic, options.encoding, out);
  const tokens = formatTokens(options.nullAsText === true);
  // kcat's -K form: the key, the delimiter, the value, the record delimiter (-D, a newline).
  const pieces = options.format !== undefined ? parseFormat(options.format, tokens)
    : [tokens.k!, unescapeKcat(options.keyDelimiter!), tokens.s!, unescapeKcat(options.delimiter ?? '\\n')];
  return (partition, batch, i, offset) => {
    for (const piece of pieces) {
      if (typeof piece === 'function') piece(out, topic, partition, batch, i, offset);
      else out.raw(piece);
    }
  };
}

/** kcat's format tokens by letter. */
function formatTokens(nullAsText: boolean): Record<string, Piece> {
  // As kcat (librdkafka hands it an empty key or value as a null one), -Z prints both as NULL.
  const bytesOrNull = (out: JsonLinesWriter, data: Uint8Array, at: number, size: number) => {
    if (size > 0) out.raw(data.subarray(at, at + size));
    else if (nullAsText) out.raw(NULL_TEXT);
  };
  const ascii = (out: JsonLinesWriter, text: string) => out.raw(Buffer.from(text, 'latin1'));
  const tokens: Record<string, Piece> = {
    s: (out, _t, _p, b, i) => bytesOrNull(out, b.data, b.valueOffsetAt(i), b.valueSizeAt(i)),
    S: (out, _t, _p, b, i) => ascii(out, String(b.valueSizeAt(i))),
    R: (out, _t, _p, b, i) => { const four = Buffer.alloc(4); four.writeInt32BE(b.valueSizeAt(i)); out.raw(four); },
    k: (out, _t, _p, b, i) => bytesOrNull(out, b.data, b.keyOffsetAt(i), b.keySizeAt(i)),
    K: (out, _t, _p, b, i) => ascii(out, String(b.keySizeAt(i))),
    T: (out, _t, _p, b, i) => ascii(out, String(b.timestampAt(i))),
    h: (out, _t, _p, b, i) => {
      b.headersAt(i).forEach((h, n) => {
        out.raw(Buffer.from(`${n === 0 ? '' : ','}${h.key}=`, 'utf8'));
        // kcat prints a null header value as NULL whether or not -Z is given.
        out.raw(h.value === null ? NULL_TEXT : h.value);
      });
    },
    t: (out, topic) => out.raw(Buffer.from(topic, 'utf8')),
    p: (out, _t, partition) => ascii(out, String(partition)),
    o: (out, _t, _p, _b, _i, offset) => ascii(out, String(offset)),
  };
  return tokens;
}

/** A format string as literal bytes (escapes undone) and token writers. */
function parseFormat(format: string, tokens: Record<string, Piece>): Piece[] {
  const pieces: Piece[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') pieces.push(unescapeKcat(literal));
    literal = '';
  };
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') { literal += format[i]; continue; }
    const token = format[++i];
    if (token === '%') { literal += '%'; continue; }
    const piece = token === undefined ? undefined : tokens[token];
    if (piece === undefined) throw new UsageError(`-f: unknown token %${token ?? ''} (kcat's: %s %S %R %k %K %T %h %t %p %o, and %%)`);
    flush();
    pieces.push(piece);
  }
  flush();
  return pieces;
}

/**
 * For a stdout that is a file or a device such as /dev/null (not a terminal, not a pipe or socket:
 * writes to those may wait or return EAGAIN), a write of bytes to its descriptor that is complete
 * when it returns: consume's JSON lines go out from WebAssembly memory with no copy. It declines
 * (false) while the stream still holds bytes of its own, so the output keeps its order.
 */
export function directWriter(stdout: Io['stdout']): ((bytes: Uint8Array) => boolean) | undefined {
  const stream = stdout as Io['stdout'] & { fd?: unknown; writableLength?: number };
  const fd = stream.fd;
  if (typeof fd !== 'number' || !Number.isInteger(fd) || fd < 0) return undefined;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() && !(stat.isCharacterDevice() && !isatty(fd))) return undefined;
  } catch {
    return undefined;
  }
  return (bytes) => {
    if ((stream.writableLength ?? 0) !== 0) return false;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    return true;
  };
}

/**
 * Writes to stdout; flushed() resolves once every byte written is handed to the system (not merely
 * queued), and rejects if any write failed: what a group or share member waits for before it
 * commits or acknowledges what it printed.
 */
export function flushedWriter(stdout: Io['stdout']): { write(bytes: Uint8Array, done?: () => void): void; flushed(): Promise<void> } {
  const stream = stdout as Io['stdout'] & { write(data: Uint8Array, cb: (err?: Error | null) => void): boolean; once?: unknown };
  let last: Promise<void> = Promise.resolve();
  const isStream = typeof stream.once === 'function';
  return {
    // `done` (a JsonLinesWriter's) once the stream is through with the bytes: their buffer is filled again.
    write(bytes, done) {
      if (!isStream) { stdout.write(bytes); return; } // (it may keep them: their buffer is not reused)
      const previous = last;
      const now = new Promise<void>((resolve, reject) => { stream.write(bytes, (err) => { done?.(); if (err) reject(err); else resolve(); }); });
      last = Promise.all([previous, now]).then(() => {});
    },
    flushed: () => last,
  };
}
