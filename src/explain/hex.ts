// The byte layout: 16 bytes per row with row offsets, each byte tagged with the category of the
// deepest tree node covering it, as text (ANSI colours on request) and as HTML.
import { CATEGORIES, type Category, type ExplainNode } from './nodes.js';
import { formatNodeLine, walkTreeLines } from './format.js';
import type { ExplainTree } from './tree.js';
import { fromHex, hexByte } from '../text.js';

const BYTES_PER_ROW = 16;

export interface HexByte {
  offset: number;
  value: number;
  category: Category;
  /** Pre-order index of the deepest node covering the byte (see flattenTree), or -1. */
  node: number;
}

export interface HexLayout {
  size: number;
  rows: { offset: number; bytes: HexByte[] }[];
  /** The nodes in pre-order, so `HexByte.node` can be looked up. */
  nodes: ExplainNode[];
}

/** Lays out `frame` with the categories and nodes of its tree (or uncategorised without one). */
export function hexLayout(frame: Uint8Array, tree?: ExplainTree | ExplainNode): HexLayout {
  const owner = new Int32Array(frame.length).fill(-1);
  const nodes: ExplainNode[] = [];
  if (tree !== undefined) {
    const root = 'root' in tree ? tree.root : tree;
    // Pre-order painting: a child paints over its parent, so the deepest node wins.
    const paint = (n: ExplainNode) => {
      const index = nodes.push(n) - 1;
      if (!n.inflated) {
        const end = Math.min(frame.length, n.offset + n.size);
        for (let i = Math.max(0, n.offset); i < end; i++) owner[i] = index;
      }
      for (const c of n.children) paint(c);
    };
    paint(root);
  }
  const rows: HexLayout['rows'] = [];
  for (let offset = 0; offset < frame.length; offset += BYTES_PER_ROW) {
    const bytes: HexByte[] = [];
    for (let i = offset; i < Math.min(frame.length, offset + BYTES_PER_ROW); i++) {
      const index = owner[i];
      bytes.push({ offset: i, value: frame[i], category: index >= 0 ? nodes[index].category : 'frame', node: index });
    }
    rows.push({ offset, bytes });
  }
  return { size: frame.length, rows, nodes };
}

const ANSI_COLOURS: Record<Category, string> = {
  'frame': '\x1b[90m',
  'rpc header': '\x1b[36m',
  'request body': '\x1b[32m',
  'RecordBatch': '\x1b[35m',
  'Record': '\x1b[95m',
  'response body': '\x1b[34m',
  'tagged_fields': '\x1b[33m',
};
const RESET = '\x1b[0m';

function offsetWidth(size: number): number {
  return Math.max(4, (Math.max(0, size - 1)).toString(16).length);
}


/**
 * The layout as text: a caption, a column header (0..F), then one row of 16 bytes per line. With
 * `colour`, each byte is coloured by category and a legend line follows the caption.
 */
export function formatHexText(layout: HexLayout, options: { colour?: boolean } = {}): string {
  const width = offsetWidth(layout.size);
  let out = `byte layout (${layout.size} bytes, ${BYTES_PER_ROW} bytes per row)\n`;
  if (options.colour) out += CATEGORIES.map((c) => ANSI_COLOURS[c] + c + RESET).join('  ') + '\n';
  let head = ' '.repeat(width) + ' ';
  for (let c = 0; c < BYTES_PER_ROW; c++) head += ' ' + c.toString(16).toUpperCase() + ' ';
  out += head.trimEnd() + '\n';
  for (const row of layout.rows) {
    out += row.offset.toString(16).padStart(width, '0') + ' ';
    for (const b of row.bytes) {
      out += ' ' + (options.colour ? ANSI_COLOURS[b.category] + hexByte(b.value) + RESET : hexByte(b.value));
    }
    out += '\n';
  }
  return out;
}

/** Hex text with optional whitespace, 0x prefixes and separators (`:` `,` `-`); null if not hex. */
/** Whether `text` has only what parseHexInput accepts (hex digits, spaces, 0x, colons, commas, dashes). */
export function isHexText(text: string): boolean {
  return /^[\s0-9a-fA-Fx:,\-]*$/.test(text);
}

export function parseHexInput(text: string): Uint8Array | null {
  return fromHex(text.replace(/0x/gi, '').replace(/[:,\-]+/g, ''));
}

/** Bytes as hex pairs separated by spaces, 16 to a line. */
export function spacedHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    out += hexByte(bytes[i]) + (i === bytes.length - 1 ? '' : (i % BYTES_PER_ROW === BYTES_PER_ROW - 1 ? '\n' : ' '));
  }
  return out;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** CSS class of a category: cat-frame, cat-rpc-header, cat-recordbatch, cat-tagged-fields... */
function categoryClass(category: Category): string {
  return 'cat-' + category.toLowerCase().replace(/[^a-z]+/g, '-');
}

/** The legend: one swatch per category. */
export function formatLegendHtml(): string {
  return '<div class="legend">' + CATEGORIES.map((c) =>
    `<span class="swatch ${categoryClass(c)}">${escapeHtml(c)}</span>`).join('') + '</div>';
}

/**
 * The grid as HTML: a header row 0..F, then rows with their offset and one cell per byte; each
 * cell carries its category class, data-n (node index, as in formatTreeHtml) and a title.
 */
export function formatHexHtml(layout: HexLayout, options: { maxBytes?: number; titles?: boolean } = {}): string {
  const width = offsetWidth(layout.size);
  const maxRows = Math.ceil((options.maxBytes ?? Infinity) / BYTES_PER_ROW);
  let out = `<div class="hexgrid" data-size="${layout.size}">`;
  out += '<div class="hexrow hexhead"><span class="off"></span><span class="hx">';
  for (let c = 0; c < BYTES_PER_ROW; c++) out += `<span class="col">${c.toString(16).toUpperCase()}</span>`;
  out += '</span></div>';
  const titles = options.titles === false ? [] : layout.nodes.map((n) => escapeHtml(formatNodeLine(n)));
  for (const row of layout.rows.slice(0, maxRows)) {
    out += `<div class="hexrow"><span class="off">${row.offset.toString(16).padStart(width, '0')}</span><span class="hx">`;
    for (const b of row.bytes) {
      const title = b.node >= 0 && options.titles !== false ? ` title="${titles[b.node]}"` : '';
      out += `<span class="b ${categoryClass(b.category)}" data-n="${b.node}" data-o="${b.offset}"${title}>${hexByte(b.value)}</span>`;
    }
    // The ASCII column: printable bytes as themselves, the rest as dots (class a, so .b counts bytes once).
    out += '</span><span class="as">';
    for (const b of row.bytes) {
      const c = b.value >= 0x20 && b.value < 0x7f ? escapeHtml(String.fromCharCode(b.value)) : '.';
      out += `<span class="a ${categoryClass(b.category)}" data-n="${b.node}" data-o="${b.offset}">${c}</span>`;
    }
    out += '</span></div>';
  }
  if (layout.rows.length > maxRows) {
    out += `<div class="hexmore">${layout.size - maxRows * BYTES_PER_ROW} more bytes not shown</div>`;
  }
  return out + '</div>';
}

/**
 * The tree as HTML lines in a <pre>: the same text as formatExplainText, each line a span with
 * its category class and data-n (pre-order index, the numbering hexLayout uses).
 */
export function formatTreeHtml(tree: ExplainTree | ExplainNode): string {
  const root = 'root' in tree ? tree.root : tree;
  let out = '<pre class="tree">';
  let index = 0;
  walkTreeLines(root, (n, prefix) => {
    const inflated = n.inflated ? ' data-i="1"' : '';
    out += `<span class="line ${categoryClass(n.category)}" data-n="${index++}" data-o="${n.offset}" data-s="${n.size}"${inflated}>`
      + `<span class="draw">${escapeHtml(prefix)}</span>${escapeHtml(formatNodeLine(n))}</span>\n`;
  });
  return out + '</pre>';
}
