// The nodes of an explain tree and the small helpers every part of explain shares.
import { toHex } from '../text.js';

export type Category =
  | 'frame' | 'rpc header' | 'request body' | 'response body' | 'RecordBatch' | 'Record' | 'tagged_fields';

/** Legend order, as the pages show it. */
export const CATEGORIES: readonly Category[] = [
  'frame', 'rpc header', 'request body', 'RecordBatch', 'Record', 'response body', 'tagged_fields',
];

export type JsonValue = string | number | boolean | null;

export interface ExplainNode {
  /** Schema name of a field (TimeoutMs), snake_case for header fields, or a structural name. */
  name: string;
  /** A field's name in its schema (TimeoutMs, RequestApiKey); absent on structural nodes. */
  schemaName?: string;
  /**
   * Where a field or element sits in the decoded object, in decode's lowerCamel names:
   * `responses[0].partitions[0].highWatermark` in the body, `header.correlationId` in the header.
   */
  path?: string;
  /** Wire type as the schema spells it (int32, []ReassignableTopic), or '' for a grouping node. */
  type: string;
  /**
   * The decoded value in JSON form: numbers, booleans, strings (int64 as a decimal string, uuids
   * base64url, bytes as hex), null; array nodes give their element count, records their byte
   * length. Undefined for structs and grouping nodes.
   */
  value?: JsonValue;
  /** The value as the text tree prints it after "= " (`""`, `0`, `1 element`, `struct`). */
  display?: string;
  /** Wire detail printed in parentheses after the value (`compact, len+1=1`). */
  note?: string;
  /** Byte offset from the start of the frame. */
  offset: number;
  /** Bytes covered, children included. */
  size: number;
  category: Category;
  /** The schema's about text (from a schema directory), or the fixed wording of structural nodes. */
  description?: string;
  /**
   * Set on records decompressed from a compressed batch: offset and size then count from the
   * start of the decompressed data, not the frame (the text shows `[+0x...]`).
   */
  inflated?: boolean;
  children: ExplainNode[];
}

/** The wording of an array's element count (a sample's one element is its sample element). */
export function countDescription(count: number, sample = false): string {
  if (count < 0) return 'null array';
  if (count === 0) return 'no elements follow';
  if (count === 1) return sample ? 'one sample element follows' : 'one element follows';
  return `${count} elements follow`;
}

export function elementCount(count: number): string {
  return count === 1 ? '1 element' : `${count} elements`;
}

/** Reads an unsigned varint at `at`; returns [value, bytes]. */
export function readUvarint(bytes: Uint8Array, at: number, end = bytes.length): [number, number] {
  let value = 0;
  let shift = 0;
  for (let i = at; i < end && i < at + 5; i++) {
    const b = bytes[i];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, i + 1 - at];
  }
  return [-1, 0];
}

export function hex4(n: number): string {
  return '0x' + n.toString(16).padStart(4, '0');
}

export function bytesDisplay(bytes: Uint8Array): string {
  if (bytes.length === 0) return '0 bytes';
  if (bytes.length <= 32) return '0x' + toHex(bytes);
  return `0x${toHex(bytes.subarray(0, 16))}... (${bytes.length} bytes)`;
}

export function node(
  name: string, type: string, offset: number, size: number, category: Category,
  extra?: Partial<Pick<ExplainNode, 'value' | 'display' | 'note' | 'description' | 'children'>>,
): ExplainNode {
  return reorder({ name, type, offset, size, category, children: [], ...extra });
}

/** Puts `description` and `children` last, so JSON output reads like the text line. */
export function reorder(n: ExplainNode): ExplainNode {
  const out: ExplainNode = { name: n.name } as ExplainNode;
  if (n.schemaName !== undefined) out.schemaName = n.schemaName;
  if (n.path !== undefined) out.path = n.path;
  out.type = n.type;
  if (n.value !== undefined) out.value = n.value;
  if (n.display !== undefined) out.display = n.display;
  if (n.note !== undefined) out.note = n.note;
  out.offset = n.offset;
  out.size = n.size;
  out.category = n.category;
  if (n.description !== undefined) out.description = n.description;
  if (n.inflated) out.inflated = true;
  out.children = n.children;
  return out;
}
