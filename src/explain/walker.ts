// The explain walk: a plan's fields followed along a frame's spans tape, each value, length
// prefix, count and tagged-field section becoming a node that names its bytes; records fields
// handed to records-layout.ts. The order of the walk is the codec's (codec/walk.ts's ORDER,
// through by-key): here are only its steps. Each primitive value is read, sized and labelled by
// its kind's row in the codec's description (codec/kinds.ts, through by-key), its value given in
// the JSON form of its KIND_JSON row, and each count, marker and tag is read by STRUCTURE there.
// A damaged frame's tape ends early: the walk then stops with the innermost partial node (TapeEnd).
import {
  ARRAY, ARRAY_COUNT_PREFIX, KIND_JSON, KINDS, ORDER, RECORDS, STRUCTURE, scanWords,
  type CompiledField, type CompiledStruct, type Direction, type TapeCursor, type WalkSteps,
} from '../codec/by-key.js';
import { toHex } from '../text.js';
import type { Descriptions } from './descriptions.js';
import { explainRecords } from './records-layout.js';
import {
  bytesDisplay, countDescription, elementCount, node, readUvarint, reorder,
  type Category, type ExplainNode, type JsonValue,
} from './nodes.js';

/** The tape of a damaged frame ran out: carries the innermost partial node up the walk. */
export class TapeEnd {
  constructor(readonly node: ExplainNode) {}
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

/**
 * Where the walk is, the context of its steps: the category of the nodes made there, the path,
 * the first byte of the value or tagged entry at hand; inside a struct, the struct whose fields'
 * descriptions are looked up (null in the header) and whether that is the header; in a tagged entry, the entry.
 */
interface At {
  readonly category: Category;
  readonly path: string;
  readonly start: number;
  readonly owner: CompiledStruct | null;
  readonly inHeader: boolean;
  readonly entry: TaggedEntry | null;
}

/** A tagged entry's tag and size, and their nodes. */
interface TaggedEntry {
  readonly tag: number;
  readonly size: number;
  readonly tagNode: ExplainNode;
  readonly sizeNode: ExplainNode;
}

function at(category: Category, path: string, start: number, owner: CompiledStruct | null = null, inHeader = false,
  entry: TaggedEntry | null = null): At {
  return { category, path, start, owner, inHeader, entry };
}

export class Walker {
  /** Where the walk is on the spans tape; the kinds' rows read their values through it. */
  private readonly c: TapeCursor;
  private readonly view: DataView;
  /** The walk's steps, in the order codec/walk.ts's ORDER takes them; a struct's holder is its children. */
  private readonly steps: WalkSteps<At, ExplainNode[], ExplainNode>;

  constructor(
    private readonly tape: Int32Array,
    private readonly frame: Uint8Array,
    private readonly direction: Direction,
    private readonly messageName: string,
    private readonly descriptions: Descriptions,
    /** The frame's API, named beside the header's API key. */
    private readonly apiName: string,
    private readonly sample: boolean,
    /** For a damaged frame's tape: the node that stands where the tape ends. */
    private readonly malformed?: ExplainNode,
  ) {
    this.view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    this.c = { tape, t: 0, src: frame, view: this.view };
    this.steps = {
      struct: (s, { category, path }) => this.struct(s, category, path),
      regularField: (f, { category, owner, path, inHeader }, children) => {
        children.push(inHeader ? this.headerField(f) : this.field(f, category, owner, path));
      },
      afterRegular: () => {},
      taggedSection: (s, { inHeader, path }, children) => { children.push(this.taggedSection(s, inHeader, path)); },
      taggedField: (f, _known, entryAt, children) => { children.push(this.taggedField(f, entryAt)); },
      unknownTag: (tag, entryAt, children) => { children.push(this.unknownTag(tag, entryAt)); },
      array: (f, { start, category, path }) => this.array(f, start, category, path),
      primitive: (kind, _nullable, f, { start, category }) => this.primitive(kind, f.compact, start, category),
      nullableStruct: (s, _f, valueAt) => this.nullableStruct(s, valueAt),
    };
  }

  private next(): number {
    if (this.c.t >= this.tape.length) throw new TapeEnd(this.malformed!);
    return this.tape[this.c.t++];
  }

  /** A structural word (a count, a marker, a tag), read as the decoders read it. */
  private structural<T>(read: (c: TapeCursor) => T): T {
    if (this.c.t >= this.tape.length) throw new TapeEnd(this.malformed!);
    return read(this.c);
  }

  /**
   * Runs `read`, which fills `children`; if the tape ends inside, the children read so far and
   * the innermost partial node make this level's partial node (`make`), which goes up instead.
   */
  private partialOn<T>(children: ExplainNode[], read: () => T, make: (size: number) => ExplainNode, start: number): T {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof TapeEnd)) throw error;
      children.push(error.node);
      throw new TapeEnd(make(this.frame.length - start));
    }
  }

  header(s: CompiledStruct, headerVersion: number): ExplainNode {
    const start = this.next();
    const children: ExplainNode[] = [];
    const make = (size: number) => node(s.name, `v${headerVersion}`, start, size, 'rpc header', {
      description: this.direction === 'request' ? 'common request header' : 'common response header',
      children,
    });
    const end = this.partialOn(children, () => {
      ORDER.struct(s, this.steps, at('rpc header', 'header', start, null, true), children);
      return this.next();
    }, make, start);
    return make(end - start);
  }

  private headerField(f: CompiledField): ExplainNode {
    const asHeader = (n: ExplainNode) => {
      n.name = snakeCase(f.name);
      const description = headerFieldDescription(this.direction, f.name);
      if (description !== undefined) n.description = description;
      if (f.name === 'requestApiKey') n.note = this.apiName;
      if (f.def.type === 'string') n.type = f.nullable ? 'nullable_string' : 'string';
      return n;
    };
    try {
      return asHeader(this.field(f, 'rpc header', null, 'header'));
    } catch (error) {
      if (error instanceof TapeEnd && error.node !== this.malformed) asHeader(error.node);
      throw error;
    }
  }

  body(s: CompiledStruct, version: number, category: Category): ExplainNode {
    const asBody = (n: ExplainNode) => {
      n.type = 'struct';
      n.description = `message body, version ${version}`;
      delete n.display;
      return n;
    };
    try {
      return asBody(this.struct(s, category, ''));
    } catch (error) {
      if (error instanceof TapeEnd && error.node !== this.malformed) asBody(error.node);
      throw error;
    }
  }

  /** A struct's fields and tagged section at `path`; the caller names the node. */
  private struct(s: CompiledStruct, category: Category, path: string): ExplainNode {
    const start = this.next();
    const children: ExplainNode[] = [];
    const make = (size: number) => node(s.name, s.name, start, size, category, { display: 'struct', children });
    const end = this.partialOn(children, () => {
      ORDER.struct(s, this.steps, at(category, path, start, s), children);
      return this.next();
    }, make, start);
    return make(end - start);
  }

  private taggedSection(s: CompiledStruct, inHeader: boolean, path: string): ExplainNode {
    const start = this.next();
    const children: ExplainNode[] = [];
    const make = (size: number, count: number) => node('tagged_fields', 'uvarint', start, size, 'tagged_fields', {
      value: count, display: String(count),
      description: inHeader ? 'number of tagged fields in the header' : 'number of tagged fields in this struct',
      children,
    });
    const count = this.structural(STRUCTURE.word);
    this.partialOn(children, () => this.taggedEntries(s, inHeader, path, count, children), (size) => make(size, count), start);
    const end = count > 0 ? children[children.length - 1].offset + children[children.length - 1].size : this.peekEnd(start);
    return make(end - start, count);
  }

  private taggedEntries(s: CompiledStruct, inHeader: boolean, path: string, count: number, children: ExplainNode[]): void {
    for (let i = 0; i < count; i++) {
      const tag = this.structural(KINDS[STRUCTURE.tagKind]!.read) as number;
      const entryStart = this.next();
      const known = this.structural(STRUCTURE.word);
      const [, tagBytes] = readUvarint(this.frame, entryStart);
      const [size, sizeBytes] = readUvarint(this.frame, entryStart + tagBytes);
      const tagNode = node('tag', 'uvarint', entryStart, tagBytes, 'tagged_fields', { value: tag, display: String(tag) });
      const sizeNode = node('size', 'uvarint', entryStart + tagBytes, sizeBytes, 'tagged_fields', {
        value: size, display: String(size), description: 'bytes of the value that follow',
      });
      const entryAt = at('tagged_fields', path, entryStart, inHeader ? null : s, inHeader, { tag, size, tagNode, sizeNode });
      ORDER.taggedEntry(s, tag, known, this.steps, entryAt, children);
    }
  }

  /** A tagged entry of a known field: the field's node, starting at the entry's tag and size. */
  private taggedField(f: CompiledField, { path, start, owner, inHeader, entry }: At): ExplainNode {
    const { tag, size, tagNode, sizeNode } = entry!;
    const n = this.field(f, 'tagged_fields', owner, path);
    if (inHeader) n.name = snakeCase(f.name);
    n.note = `tag ${tag}, size ${size}` + (n.note !== undefined ? `; ${n.note}` : '');
    n.size = n.offset + n.size - start;
    n.offset = start;
    n.children.unshift(tagNode, sizeNode);
    return n;
  }

  /** A tagged entry this version does not define: its bytes. */
  private unknownTag(tag: number, { start, entry }: At): ExplainNode {
    const { size, tagNode, sizeNode } = entry!;
    const dataOffset = this.next();
    const length = this.next();
    const bytes = this.frame.subarray(dataOffset, dataOffset + length);
    return node(`unknown_tag_${tag}`, 'bytes', start, dataOffset + length - start, 'tagged_fields', {
      value: toHex(bytes), display: bytesDisplay(bytes), note: `tag ${tag}, size ${size}`,
      description: 'a tagged field this version does not define', children: [tagNode, sizeNode],
    });
  }

  /** The end of an empty tagged section: its count varint. */
  private peekEnd(start: number): number {
    return start + readUvarint(this.frame, start)[1];
  }

  private field(f: CompiledField, category: Category, owner: CompiledStruct | null, parentPath: string): ExplainNode {
    const start = this.next();
    const path = parentPath === '' ? f.name : `${parentPath}.${f.name}`;
    const named = (n: ExplainNode, size: number) => {
      n.name = f.def.schemaName;
      n.schemaName = f.def.schemaName;
      n.path = path;
      n.type = f.def.type;
      n.offset = start;
      n.size = size;
      if (owner !== null) {
        const about = this.descriptions.about(this.messageName, owner.name, f.def.schemaName);
        if (about !== undefined) n.description = about;
      }
      return reorder(n);
    };
    return this.valueAt(start, category, f.kind, f.compact, named, () => ORDER.field(f, this.steps, at(category, path, start)));
  }

  /**
   * Reads one value (a field's or an element's) and its end; `label` names the node. If the tape
   * ends inside the value, its partial node (or, when nothing of it was read, one holding the
   * malformed node and what the value's length prefix claims) is labelled and goes up.
   */
  private valueAt(start: number, category: Category, kind: number, compact: boolean,
    label: (n: ExplainNode, size: number) => ExplainNode, read: () => ExplainNode): ExplainNode {
    let n: ExplainNode;
    try {
      n = read();
    } catch (error) {
      if (!(error instanceof TapeEnd)) throw error;
      let inner = error.node;
      if (inner === this.malformed) {
        const note = this.claim(kind, compact, start);
        inner = node('', '', start, 0, category, note === undefined ? { children: [inner] } : { note, children: [inner] });
      }
      throw new TapeEnd(label(inner, this.frame.length - start));
    }
    return label(n, this.next() - start);
  }

  /** What the length prefix of a value that failed to read claims, against the bytes left. */
  private claim(kind: number, compact: boolean, start: number): string | undefined {
    let prefix = kind === ARRAY ? ARRAY_COUNT_PREFIX : KINDS[kind]?.lengthPrefix;
    if (prefix === undefined) return undefined;
    let length: number;
    if (compact) {
      const [n, bytes] = readUvarint(this.frame, start);
      if (bytes === 0) return undefined;
      [length, prefix] = [n - 1, bytes];
    } else {
      if (start + prefix > this.frame.length) return undefined;
      length = prefix === 2 ? this.view.getInt16(start) : this.view.getInt32(start);
    }
    const unit = kind === ARRAY ? 'element' : 'byte';
    return `claims ${length} ${unit}${length === 1 ? '' : 's'}, ${this.frame.length - start - prefix} bytes left`;
  }

  private array(f: CompiledField, start: number, category: Category, path: string): ExplainNode {
    const count = this.structural(STRUCTURE.word);
    const children: ExplainNode[] = [];
    const elementType = f.def.type.slice(2);
    const countText = countDescription(count, this.sample);
    const prefixSize = f.compact ? readUvarint(this.frame, start)[1] : ARRAY_COUNT_PREFIX;
    children.push(f.compact
      ? node('length', 'uvarint', start, prefixSize, category, {
        value: count + 1, display: String(count + 1), note: 'compact, n+1', description: countText,
      })
      : node('length', 'int32', start, prefixSize, category, { value: count, display: String(count), description: countText }));
    if (!STRUCTURE.follows(count)) return node('', '', start, 0, category, { value: null, display: 'null', children });
    const make = () => node('', '', start, 0, category, { value: count, display: elementCount(count), children });
    this.partialOn(children, () => {
      for (let i = 0; i < count; i++) {
        const elementStart = this.next();
        const elementPath = `${path}[${i}]`;
        const label = (element: ExplainNode, size: number) => {
          element.name = `${elementType}[${i}]`;
          element.path = elementPath;
          element.type = elementType;
          element.offset = elementStart;
          element.size = size;
          return reorder(element);
        };
        children.push(this.valueAt(elementStart, category, f.elementKind, f.compact, label,
          () => ORDER.element(f, this.steps, at(category, elementPath, elementStart))));
      }
    }, make, start);
    return make();
  }

  /** A nullable struct: its marker, then the struct if it follows; the caller sets name, type, offset and size. */
  private nullableStruct(struct: CompiledStruct, { start, category, path }: At): ExplainNode {
    const marker = this.structural(STRUCTURE.word);
    const markerNode = node('marker', 'int8', start, 1, category, {
      value: marker, display: String(marker), description: 'nullable struct: -1 for null, 1 when the struct follows',
    });
    if (!STRUCTURE.follows(marker)) return node('', '', start, 0, category, { value: null, display: 'null', children: [markerNode] });
    try {
      const n = this.struct(struct, category, path);
      n.children.unshift(markerNode);
      return n;
    } catch (error) {
      if (error instanceof TapeEnd && error.node !== this.malformed) error.node.children.unshift(markerNode);
      throw error;
    }
  }

  /**
   * A primitive value, read by its kind's row as the decoders read it; a length-prefixed one
   * notes its prefix, a records value's batches become its children.
   */
  private primitive(kind: number, compact: boolean, start: number, category: Category): ExplainNode {
    const row = KINDS[kind]!;
    const { tape, c } = this;
    if (c.t + scanWords(kind) > tape.length) throw new TapeEnd(this.malformed!);
    const [offset, length] = [tape[c.t], tape[c.t + 1]]; // a length-prefixed value's words
    const v = row.read(c);
    const note = row.lengthPrefix === undefined ? undefined
      : compact ? `compact, len+1=${length + 1}` : `int${row.lengthPrefix * 8} len=${length}`;
    const leaf = (value: JsonValue, display: string) =>
      node('', '', start, 0, category, note === undefined ? { value, display } : { value, display, note });
    if (v === null) return leaf(null, 'null');
    if (kind === RECORDS) {
      const n = leaf(length, length === 1 ? '1 byte' : `${length} bytes`);
      n.children = explainRecords(this.frame, offset, length);
      return n;
    }
    // The node's value is the kind's JSON form, as json.ts writes it; its display is explain's own.
    const toJson = KIND_JSON[kind]?.toJson;
    const value = (toJson === undefined ? v : toJson(v)) as JsonValue;
    switch (typeof v) {
      case 'boolean': return leaf(value, String(v));
      case 'number': return leaf(value, float64Display(v));
      case 'bigint': return leaf(value, String(v));
      case 'string': return leaf(value, note === undefined ? v : quote(v)); // a uuid as it is, a string quoted
    }
    return leaf(value, bytesDisplay(v as Uint8Array));
  }
}
