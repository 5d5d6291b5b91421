// How `kafka-wire consume` prints records, kcat's ways included: JSON lines (the default, also
// -J), kcat -K DELIM's "key DELIM value", and -f FORMAT with kcat's tokens (%s %S %R %k %K %T %h
// %t %p %o, \n \r \t \xXX); -Z prints null (as kcat, also empty) keys and values as NULL. Each form is a RecordWriter
// the consume loop calls per record, writing into its byte buffer.
import { UsageError } from '../errors.js';
import type { RecordBatch } from '../records/index.js';
import { jsonRecordWriter, type Encoding, type JsonLinesWriter, type RecordWriter } from './consume.js';

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

/** The writer for the options: JSON lines unless -f or -K asks for text. */
export function recordWriter(topic: string, options: OutputOptions): RecordWriter {
  if (options.format === undefined && options.keyDelimiter === undefined) return jsonRecordWriter(topic, options.encoding);
  const tokens = formatTokens(options.nullAsText === true);
  // kcat's -K form: the key, the delimiter, the value, the record delimiter (-D, a newline).
  const pieces = options.format !== undefined ? parseFormat(options.format, tokens)
    : [tokens.k!, unescapeKcat(options.keyDelimiter!), tokens.s!, unescapeKcat(options.delimiter ?? '\\n')];
  return (out, partition, batch, i, offset) => {
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
