// Text and JSON forms of an explain tree. The text is one line per node,
// `name type = value (note) [0xOFFSET, NB] description`, drawn with `+--` and `|`.
import { hex4, type ExplainNode } from './nodes.js';
import type { ExplainTree } from './tree.js';
import { truncateDescription } from './descriptions.js';

/** The name of the node that holds a damaged frame's unread rest (src/explain/tree.ts). */
const MALFORMED = '[malformed]';

export interface TextOptions {
  /**
   * Cut long schema descriptions to one screen line (default true; the CLI cuts on a terminal
   * only). A [malformed] node's text, what went wrong, is never cut.
   */
  truncate?: boolean;
}

/** One node's line without the tree drawing. */
export function formatNodeLine(n: ExplainNode, options: TextOptions = {}): string {
  const parts: string[] = [n.name];
  if (n.type !== '') parts.push(n.type);
  if (n.display !== undefined) parts.push(`= ${n.display}`);
  if (n.note !== undefined) parts.push(`(${n.note})`);
  parts.push(`[${n.inflated ? '+' : ''}${hex4(n.offset)}, ${n.size}B]`);
  if (n.description !== undefined && n.description !== '') {
    const whole = options.truncate === false || n.name === MALFORMED;
    parts.push(whole ? n.description : truncateDescription(n.description));
  }
  return parts.join(' ');
}

/** The prefix drawn before each line, in pre-order along with the node. */
export function walkTreeLines(root: ExplainNode, visit: (n: ExplainNode, prefix: string, depth: number) => void): void {
  visit(root, '', 0);
  const down = (parent: ExplainNode, indent: string, depth: number) => {
    const last = parent.children.length - 1;
    parent.children.forEach((child, i) => {
      visit(child, indent + '+-- ', depth);
      down(child, indent + (i < last ? '|   ' : '    '), depth + 1);
    });
  };
  down(root, '', 1);
}

/** The tree as text, one line per node, each ending in a newline. */
export function formatExplainText(tree: ExplainTree | ExplainNode, options: TextOptions = {}): string {
  const root = 'root' in tree ? tree.root : tree;
  let out = '';
  walkTreeLines(root, (n, prefix) => {
    out += prefix + formatNodeLine(n, options) + '\n';
  });
  return out;
}

/**
 * A node for JSON: field nodes named as decode's JSON names them (highWatermark, requestApiKey:
 * the last step of their path), their schema's name in `schemaName`; other nodes as the text names them.
 */
function jsonNode(n: ExplainNode): ExplainNode {
  const name = n.schemaName !== undefined && n.path !== undefined ? n.path.slice(n.path.lastIndexOf('.') + 1) : n.name;
  return { ...n, name, children: n.children.map(jsonNode) };
}

/** The tree as JSON text (two-space indentation, trailing newline); a damaged frame's error with its message. */
export function formatExplainJson(tree: ExplainTree): string {
  const { error, root, ...rest } = tree;
  const json = { ...rest, root: jsonNode(root),
    ...(error === undefined ? {} : { error: { code: error.code, message: error.message, offset: error.offset, path: error.path } }) };
  return JSON.stringify(json, null, 2) + '\n';
}
