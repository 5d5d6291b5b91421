// The explain tree: every byte of a frame attributed to a named node (frame, header, body fields,
// length prefixes, tagged-field sections, record batches and records), built from the codec's
// scan in spans mode. Browser-safe: descriptions come in as a lookup, never from files here.
import {
  getApi, peekRequest, planForMessage, scanSpans, type CatalogueOption, type Direction, type Limits,
} from '../codec/by-key.js';
import { KafkaWireError } from '../errors.js';
import { noDescriptions, type Descriptions } from './descriptions.js';
import { node, type Category, type ExplainNode } from './nodes.js';
import { TapeEnd, Walker } from './walker.js';

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
  /**
   * With `partial`, why a damaged frame did not decode: the tree then holds what was read before
   * the failing offset and a malformed node from there to the end.
   */
  error?: KafkaWireError;
}

export interface ExplainOptions extends CatalogueOption {
  direction: Direction;
  /** Required for responses; for requests, checked against the header when given. */
  apiKey?: number;
  apiVersion?: number;
  descriptions?: Descriptions;
  limits?: Limits;
  /** A sample frame (sampleFrame): the wording says so (its one-element arrays, its size prefix). */
  sample?: boolean;
  /** A damaged frame gives the tree as far as it reads, with `error`, instead of throwing. */
  partial?: boolean;
}

/** The detail of a size prefix that disagrees with the bytes: both numbers. */
export function sizeMismatchDetail(frame: Uint8Array): string {
  return `the size prefix says ${new DataView(frame.buffer, frame.byteOffset).getInt32(0)} bytes follow; ${frame.length - 4} do`;
}

/** A frame's spans tape; for a damaged one (with `partial`), the error and a malformed node from where reading stopped. */
function scanForExplain(plan: ReturnType<typeof planForMessage>, frame: Uint8Array, options: ExplainOptions):
  { tape: Int32Array; error?: KafkaWireError; malformed?: ExplainNode } {
  const malformed = (at: number, code: string, detail: string) => {
    const start = Math.min(frame.length, Math.max(at, 4)); // never inside the size prefix
    return node('[malformed]', '', start, frame.length - start, 'frame', { note: code, description: detail });
  };
  const detailOf = (error: KafkaWireError) => error.message.slice(error.message.indexOf(': ') + 2);
  const whole = scanSpans(plan, frame, options.limits);
  const failure = whole.error;
  if (failure === undefined) return { tape: whole.tape };
  if (!options.partial) throw failure;
  if (failure.code !== 'FRAME_SIZE_MISMATCH' || frame.length < 8) {
    return { tape: whole.tape, error: failure, malformed: malformed(failure.offset, failure.code, detailOf(failure)) };
  }
  // Read the bytes anyway, as far as they go: a cut capture or frames run together still show
  // what they hold. The prefix's own frame when the bytes hold more, else all of them.
  const claimed = new DataView(frame.buffer, frame.byteOffset).getInt32(0);
  const within = claimed >= 4 && claimed < frame.length - 4 ? frame.slice(0, claimed + 4) : frame.slice();
  new DataView(within.buffer).setInt32(0, within.length - 4);
  const inner = scanSpans(plan, within, options.limits);
  if (inner.error === undefined) {
    return { tape: inner.tape, error: failure, malformed: malformed(within.length, failure.code, sizeMismatchDetail(frame)) };
  }
  return { tape: inner.tape, error: failure, malformed: malformed(inner.error.offset, inner.error.code, `${detailOf(inner.error)} (${sizeMismatchDetail(frame)})`) };
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
  const api = getApi(apiKey, options);
  const plan = planForMessage(api[direction], apiVersion);
  const messageName = plan.body.name;
  const { tape, error, malformed } = scanForExplain(plan, frame, options);
  const size = frame.length;
  const walker = new Walker(tape, frame, direction, messageName, options.descriptions ?? noDescriptions, api.name, options.sample === true, malformed);
  const bodyCategory: Category = direction === 'request' ? 'request body' : 'response body';
  const prefix = size >= 4 ? new DataView(frame.buffer, frame.byteOffset).getInt32(0) : size - 4;
  const sizeNode = node('size', 'int32', 0, Math.min(4, size), 'frame', {
    value: prefix, display: String(prefix),
    description: options.sample ? 'number of bytes that follow, patched after encoding' : 'number of bytes that follow',
  });
  const frameNode = node('Frame', '', 0, Math.min(4, size), 'frame', { description: 'length-delimited framing', children: [sizeNode] });
  const children = [frameNode];
  try {
    children.push(walker.header(plan.header, plan.headerVersion));
    children.push(walker.body(plan.body, apiVersion, bodyCategory));
    // A whole message read, bytes beyond the size prefix's frame still to show.
    if (malformed !== undefined) children.push(malformed);
  } catch (failure) {
    if (!(failure instanceof TapeEnd)) throw failure;
    children.push(failure.node);
  }
  const root = node(messageName, `message v${apiVersion}`, 0, size, 'frame', { children });
  return {
    apiKey,
    apiName: api.name,
    apiVersion,
    direction,
    headerVersion: plan.headerVersion,
    messageName,
    size,
    root,
    ...(error === undefined ? {} : { error }),
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

