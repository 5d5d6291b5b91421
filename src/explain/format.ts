// Text and JSON forms of an explain tree. The text is one line per node,
// `name type = value (note) [0xOFFSET, NB] description`, drawn with `+--` and `|`.
import { hex4, type ExplainNode } from './nodes.js';
import type { ExplainTree } from './tree.js';
import { truncateDescription } from './descriptions.js';

/** One node's line without the tree drawing. */
export function formatNodeLine(n: ExplainNode): string {
  const parts: string[] = [n.name];
  if (n.type !== '') parts.push(n.type);
  if (n.display !== undefined) parts.push(`= ${n.display}`);
  if (n.note !== undefined) parts.push(`(${n.note})`);
  parts.push(`[${n.inflated ? '+' : ''}${hex4(n.offset)}, ${n.size}B]`);
  if (n.description !== undefined && n.description !== '') parts.push(truncateDescription(n.description));
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
export function formatExplainText(tree: ExplainTree | ExplainNode): string {
  const root = 'root' in tree ? tree.root : tree;
  let out = '';
  walkTreeLines(root, (n, prefix) => {
    out += prefix + formatNodeLine(n) + '\n';
  });
  return out;
}

/** The tree as JSON text (two-space indentation, trailing newline); a damaged frame's error with its message. */
export function formatExplainJson(tree: ExplainTree): string {
  const { error, ...rest } = tree;
  const json = error === undefined ? rest
    : { ...rest, error: { code: error.code, message: error.message, offset: error.offset, path: error.path } };
  return JSON.stringify(json, null, 2) + '\n';
}
