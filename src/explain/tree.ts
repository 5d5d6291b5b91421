// The explain tree: every byte of a frame attributed to a named node (frame, header, body fields,
// length prefixes, tagged-field sections, record batches and records), built from the codec's
// scan in spans mode. Browser-safe: descriptions come in as a lookup, never from files here.
import { findApi, getApi, peekRequest, planFor, type Direction, type Limits } from '../codec/by-key.js';
import { scanMessage } from '../codec/scan.js';
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  type CompiledField, type CompiledStruct,
} from '../codec/plan.js';
import { i32 } from '../wasm/codec-module.js';
import { KafkaWireError } from '../errors.js';
import { bytesToBase64Url, toHex } from '../text.js';
import { noDescriptions, type Descriptions } from './descriptions.js';
import { explainRecords } from './records-layout.js';
import {
  bytesDisplay, countDescription, elementCount, node, readUvarint, reorder,
  type Category, type ExplainNode, type JsonValue,
} from './nodes.js';

export * from './nodes.js';

export interface ExplainTree {
  apiKey: number;
  apiName: string;
  apiVersion: number;
  direction: Direction;
  headerVersion: number;
  /** e.g. AlterClientQuotasRequest. */
  messageName: string;
  /** Whole frame, size prefix included. */
  size: number;
  root: ExplainNode;
}

export interface ExplainOptions {
  direction: Direction;
  /** Required for responses; for requests, checked against the header when given. */
  apiKey?: number;
  apiVersion?: number;
  descriptions?: Descriptions;
  limits?: Limits;
}

const HEADER_FIELD_NAMES: Record<string, string> = {
  requestApiKey: 'request_api_key',
  requestApiVersion: 'request_api_version',
  correlationId: 'correlation_id',
  clientId: 'client_id',
};

function headerFieldDescription(direction: Direction, name: string): string | undefined {
  switch (name) {
    case 'requestApiKey': return 'numeric id of the API being invoked';
    case 'requestApiVersion': return 'version of the API being invoked';
    case 'correlationId':
      return direction === 'request' ? 'echoed back by the broker in the response' : 'matches the correlation_id of the request';
    case 'clientId': return 'always a non-flexible int16-prefixed string';
  }
  return undefined;
}

function snakeCase(name: string): string {
  return HEADER_FIELD_NAMES[name] ?? name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}



function quote(s: string): string {
  return JSON.stringify(s.length > 64 ? s.slice(0, 61) : s) + (s.length > 64 ? '...' : '');
}


function float64Display(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}


class Walker {
  private t: number;
  private view: DataView;

  constructor(
    private readonly tape: Int32Array,
    private readonly frame: Uint8Array,
    private readonly direction: Direction,
    private readonly messageName: string,
    private readonly descriptions: Descriptions,
  ) {
    this.t = 0;
    this.view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  }

  private next(): number {
    return this.tape[this.t++];
  }

  header(s: CompiledStruct, headerVersion: number): ExplainNode {
    const start = this.next();
    const children: ExplainNode[] = [];
    for (const f of s.regular) children.push(this.headerField(f));
    if (s.flexible) children.push(this.taggedSection(s, true));
    const end = this.next();
    return node(s.name, `v${headerVersion}`, start, end - start, 'rpc header', {
      description: this.direction === 'request' ? 'common request header' : 'common response header',
      children,
    });
  }

  private headerField(f: CompiledField): ExplainNode {
    const n = this.field(f, 'rpc header', null);
    n.name = snakeCase(f.name);
    const description = headerFieldDescription(this.direction, f.name);
    if (description !== undefined) n.description = description;
    if (f.name === 'requestApiKey') {
      const name = findApi(n.value as number)?.name;
      if (name !== undefined) n.note = name;
    }
    if (f.kind === STRING) n.type = f.nullable ? 'nullable_string' : 'string';
    return n;
  }

  body(s: CompiledStruct, version: number, category: Category): ExplainNode {
    const n = this.struct(s, category);
    n.type = 'struct';
    n.description = `message body, version ${version}`;
    delete n.display;
    return n;
  }

  /** A struct's fields and tagged section; the caller names the node. */
  private struct(s: CompiledStruct, category: Category): ExplainNode {
    const start = this.next();
    const children: ExplainNode[] = [];
    for (const f of s.regular) children.push(this.field(f, category, s));
    if (s.flexible) children.push(this.taggedSection(s, false));
    const end = this.next();
    return node(s.name, s.name, start, end - start, category, { display: 'struct', children });
  }

  private taggedSection(s: CompiledStruct, inHeader: boolean): ExplainNode {
    const start = this.next();
    const count = this.next();
    const children: ExplainNode[] = [];
    for (let i = 0; i < count; i++) {
      const tag = this.next() >>> 0;
      const entryStart = this.next();
      const known = this.next();
      const [, tagBytes] = readUvarint(this.frame, entryStart);
      const [size, sizeBytes] = readUvarint(this.frame, entryStart + tagBytes);
      const tagNode = node('tag', 'uvarint', entryStart, tagBytes, 'tagged_fields', { value: tag, display: String(tag) });
      const sizeNode = node('size', 'uvarint', entryStart + tagBytes, sizeBytes, 'tagged_fields', {
        value: size, display: String(size), description: 'bytes of the value that follow',
      });
      if (known >= 0) {
        const f = s.tagged[known];
        const n = this.field(f, 'tagged_fields', inHeader ? null : s);
        if (inHeader) n.name = snakeCase(f.name);
        n.note = `tag ${tag}, size ${size}` + (n.note !== undefined ? `; ${n.note}` : '');
        n.size = n.offset + n.size - entryStart;
        n.offset = entryStart;
        n.children.unshift(tagNode, sizeNode);
        children.push(n);
      } else {
        const dataOffset = this.next();
        const length = this.next();
        const bytes = this.frame.subarray(dataOffset, dataOffset + length);
        children.push(node(`unknown_tag_${tag}`, 'bytes', entryStart, dataOffset + length - entryStart, 'tagged_fields', {
          value: toHex(bytes), display: bytesDisplay(bytes), note: `tag ${tag}, size ${size}`,
          description: 'a tagged field this version does not define', children: [tagNode, sizeNode],
        }));
      }
    }
    const end = count > 0 ? children[children.length - 1].offset + children[children.length - 1].size : this.peekEnd(start);
    return node('tagged_fields', 'uvarint', start, end - start, 'tagged_fields', {
      value: count, display: String(count),
      description: inHeader ? 'number of tagged fields in the header' : 'number of tagged fields in this struct',
      children,
    });
  }

  /** The end of an empty tagged section: its count varint. */
  private peekEnd(start: number): number {
    return start + readUvarint(this.frame, start)[1];
  }

  private field(f: CompiledField, category: Category, owner: CompiledStruct | null): ExplainNode {
    const start = this.next();
    const n = f.kind === ARRAY ? this.array(f, start, category) : this.value(f.kind, f.nullable, f.compact, f.struct, start, category);
    const end = this.next();
    n.name = f.def.schemaName;
    n.type = f.def.type;
    n.offset = start;
    n.size = end - start;
    if (owner !== null) {
      const about = this.descriptions.about(this.messageName, owner.name, f.def.schemaName);
      if (about !== undefined) n.description = about;
    }
    return reorder(n);
  }

  private array(f: CompiledField, start: number, category: Category): ExplainNode {
    const count = this.next();
    const children: ExplainNode[] = [];
    const elementType = f.def.type.slice(2);
    const lengthNode = (prefixEnd: number) => f.compact
      ? node('length', 'uvarint', start, prefixEnd - start, category, {
        value: count + 1, display: String(count + 1), note: 'compact, n+1', description: countDescription(count),
      })
      : node('length', 'int32', start, prefixEnd - start, category, {
        value: count, display: String(count), description: countDescription(count),
      });
    if (count < 0) {
      const [, bytes] = f.compact ? readUvarint(this.frame, start) : [0, 4];
      children.push(lengthNode(start + bytes));
      return node('', '', start, 0, category, { value: null, display: 'null', children });
    }
    for (let i = 0; i < count; i++) {
      const elementStart = this.next();
      if (i === 0) children.push(lengthNode(elementStart));
      const element = this.value(f.elementKind, false, f.compact, f.struct, elementStart, category);
      const elementEnd = this.next();
      element.name = `${elementType}[${i}]`;
      element.type = elementType;
      element.offset = elementStart;
      element.size = elementEnd - elementStart;
      children.push(reorder(element));
    }
    if (count === 0) {
      const [, bytes] = f.compact ? readUvarint(this.frame, start) : [0, 4];
      children.push(lengthNode(start + bytes));
    }
    return node('', '', start, 0, category, { value: count, display: elementCount(count), children });
  }

  /** One value; the caller sets name, type, offset and size. */
  private value(kind: number, nullable: boolean, compact: boolean, struct: CompiledStruct | null, start: number,
    category: Category): ExplainNode {
    const leaf = (value: JsonValue, display: string, note?: string) =>
      node('', '', start, 0, category, note === undefined ? { value, display } : { value, display, note });
    switch (kind) {
      case BOOL: {
        const v = this.next() !== 0;
        return leaf(v, String(v));
      }
      case INT8: case INT16: case UINT16: case INT32: {
        const v = this.next();
        return leaf(v, String(v));
      }
      case UINT32: {
        const v = this.next() >>> 0;
        return leaf(v, String(v));
      }
      case INT64: {
        const v = this.view.getBigInt64(this.next()).toString();
        return leaf(v, v);
      }
      case FLOAT64: {
        const v = this.view.getFloat64(this.next());
        return leaf(Number.isFinite(v) ? v : String(v), float64Display(v));
      }
      case UUID: {
        const v = bytesToBase64Url(this.frame, this.next());
        return leaf(v, v);
      }
      case STRING: {
        const offset = this.next();
        const length = this.next();
        const note = compact ? `compact, len+1=${length + 1}` : `int16 len=${length}`;
        if (length < 0) return leaf(null, 'null', note);
        const text = new TextDecoder().decode(this.frame.subarray(offset, offset + length));
        return leaf(text, quote(text), note);
      }
      case BYTES: {
        const offset = this.next();
        const length = this.next();
        const note = compact ? `compact, len+1=${length + 1}` : `int32 len=${length}`;
        if (length < 0) return leaf(null, 'null', note);
        const bytes = this.frame.subarray(offset, offset + length);
        return leaf(toHex(bytes), bytesDisplay(bytes), note);
      }
      case RECORDS: {
        const offset = this.next();
        const length = this.next();
        const note = compact ? `compact, len+1=${length + 1}` : `int32 len=${length}`;
        if (length < 0) return leaf(null, 'null', note);
        const n = leaf(length, length === 1 ? '1 byte' : `${length} bytes`, note);
        n.children = explainRecords(this.frame, offset, length);
        return n;
      }
      case STRUCT: {
        if (nullable) {
          const marker = this.next();
          const markerNode = node('marker', 'int8', start, 1, category, {
            value: marker, display: String(marker), description: 'nullable struct: -1 for null, 1 when the struct follows',
          });
          if (marker < 0) return node('', '', start, 0, category, { value: null, display: 'null', children: [markerNode] });
          const n = this.struct(struct!, category);
          n.children.unshift(markerNode);
          return n;
        }
        return this.struct(struct!, category);
      }
    }
    throw new Error(`kafka-wire explain: unknown kind ${kind}`);
  }
}


/** Explains a whole frame (int32 size prefix, header, body). Throws KafkaWireError on bad input. */
export function buildExplainTree(frame: Uint8Array, options: ExplainOptions): ExplainTree {
  const { direction } = options;
  let apiKey: number;
  let apiVersion: number;
  if (direction === 'request') {
    ({ apiKey, apiVersion } = peekRequest(frame));
    if (options.apiKey !== undefined && options.apiKey !== apiKey) {
      throw new KafkaWireError('INVALID_VALUE', 4, 'header', `the frame has API key ${apiKey}, not ${options.apiKey}`);
    }
    if (options.apiVersion !== undefined && options.apiVersion !== apiVersion) {
      throw new KafkaWireError('INVALID_VALUE', 6, 'header', `the frame has API version ${apiVersion}, not ${options.apiVersion}`);
    }
  } else {
    if (options.apiKey === undefined || options.apiVersion === undefined) {
      throw new KafkaWireError('INVALID_VALUE', -1, '', 'explaining a response needs its API key and version');
    }
    apiKey = options.apiKey;
    apiVersion = options.apiVersion;
  }
  const plan = planFor(apiKey, direction, apiVersion);
  const scan = scanMessage(plan, frame, true, true, options.limits);
  // `i32` is a live binding refreshed when memory grows: read it only now, after the scan.
  const tape = i32.slice(scan.start, scan.start + scan.words);
  const messageName = plan.body.name;
  const walker = new Walker(tape, frame, direction, messageName, options.descriptions ?? noDescriptions);
  const bodyCategory: Category = direction === 'request' ? 'request body' : 'response body';
  const size = frame.length;
  const sizeNode = node('size', 'int32', 0, 4, 'frame', {
    value: size - 4, display: String(size - 4), description: 'number of bytes that follow, patched after encoding',
  });
  const frameNode = node('Frame', '', 0, 4, 'frame', { description: 'length-delimited framing', children: [sizeNode] });
  const header = walker.header(plan.header, plan.headerVersion);
  const body = walker.body(plan.body, apiVersion, bodyCategory);
  const root = node(messageName, `message v${apiVersion}`, 0, size, 'frame', { children: [frameNode, header, body] });
  return {
    apiKey,
    apiName: getApi(apiKey).name,
    apiVersion,
    direction,
    headerVersion: plan.headerVersion,
    messageName,
    size,
    root,
  };
}

/** Every node in pre-order (parents before children). */
export function flattenTree(root: ExplainNode): ExplainNode[] {
  const out: ExplainNode[] = [];
  const visit = (n: ExplainNode) => {
    out.push(n);
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

