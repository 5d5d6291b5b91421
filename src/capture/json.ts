// The JSON line of one captured frame, as `kafka-wire pcap` prints it and the recording proxy
// writes it: when, which connection and direction, the API, and the frame as `kafka-wire decode`
// prints it (or the error that stopped its decoding). No Node imports.
import { frameToJson, type JsonBytes } from '../codec/json.js';
import type { JsonWriter } from '../json-writer.js';
import { buildExplainTree } from '../explain/tree.js';
import type { Descriptions } from '../explain/descriptions.js';
import { KafkaWireError } from '../errors.js';
// The error object decode --jsonl prints, with its numbers and hints.
import { errorJson } from '../explain/frame-errors.js';
import type { CaptureFrame, CaptureNote } from './reader.js';
import type { CatalogueOption } from '../catalogue/catalogue.js';

/** `catalogue`: the one the capture was read with (default the built-in one). */
export interface CaptureJsonOptions extends CatalogueOption {
  /** Decode record batches inline. */
  records?: boolean;
  /** Add each frame's annotated tree under "explain". */
  explain?: boolean;
  descriptions?: Descriptions;
  /** 'raw' leaves bytes fields as Uint8Array, for JsonWriter (captureFrameLine). Default 'hex'. */
  bytes?: JsonBytes;
}

/** ISO-8601 in UTC with as many fraction digits as the capture's timestamps carry. */
export function formatCaptureTime(timeNs: bigint, digits: number): string {
  const seconds = timeNs / 1_000_000_000n;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (digits <= 0) return `${whole}Z`;
  const fraction = (timeNs - seconds * 1_000_000_000n).toString().padStart(9, '0').slice(0, digits);
  return `${whole}.${fraction}Z`;
}

/** One frame's line as an object (JSON.stringify it, or write it with writeCaptureFrameLine). */
export function captureFrameToJson(frame: CaptureFrame, options: CaptureJsonOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    time: formatCaptureTime(frame.timeNs, frame.timeDigits),
    conn: frame.conn,
    direction: frame.direction,
    apiKey: frame.apiKey,
    apiVersion: frame.apiVersion,
    correlationId: frame.correlationId,
  };
  if (frame.latencyNs !== undefined) out.latencyMs = Number(frame.latencyNs) / 1e6;
  out.packet = frame.packet;
  try {
    if (frame.apiKey === null || frame.apiVersion === null) {
      throw new KafkaWireError('INVALID_VALUE', 4, 'header.correlationId', `no request with correlation id ${frame.correlationId} on this connection: the response is unpaired`);
    }
    const decoded = frameToJson(frame.bytes, frame.apiKey, frame.apiVersion, frame.direction, { records: options.records === true, catalogue: options.catalogue }, options.bytes);
    out.ok = true;
    out.frame = decoded;
    if (options.explain === true) {
      out.explain = buildExplainTree(frame.bytes, {
        direction: frame.direction, apiKey: frame.apiKey, apiVersion: frame.apiVersion, descriptions: options.descriptions, catalogue: options.catalogue,
      }).root;
    }
  } catch (error) {
    if (frame.unpaired === true) out.unpaired = true;
    out.ok = false;
    out.error = errorJson(error, { frame: frame.bytes, direction: frame.direction, apiKey: frame.apiKey ?? undefined, apiVersion: frame.apiVersion ?? undefined });
  }
  return out;
}

/** One frame's line and its newline, the text JSON.stringify(captureFrameToJson(frame, options)) gives; returns the line's object. */
export function writeCaptureFrameLine(writer: JsonWriter, frame: CaptureFrame, options: CaptureJsonOptions = {}): Record<string, unknown> {
  const line = captureFrameToJson(frame, { ...options, bytes: 'raw' });
  writer.value(line);
  writer.newline();
  return line;
}

/** A note's line: when, where, what was skipped or lost and why. */
export function captureNoteToJson(note: CaptureNote): Record<string, unknown> {
  return { time: formatCaptureTime(note.timeNs, note.timeDigits), conn: note.conn, direction: note.direction, packet: note.packet, note: note.kind, message: note.message };
}
