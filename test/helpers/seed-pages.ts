// Reads the reference pages in ../shared/seeds: each has a request and a response object tree,
// flattened to one line. A node is `name type = value [0xOFFSET, NB] description`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SeedNode {
  depth: number;
  name: string;
  type: string;
  value: string | undefined;
  offset: number;
  size: number;
  rest: string;
}

export interface SeedTree {
  title: string;
  size: number;
  nodes: SeedNode[];
}

export interface SeedPage {
  api: string;
  request: SeedTree;
  response: SeedTree;
}

function parseTree(flat: string): SeedTree {
  const parts = flat.split(/ ((?:\| )*)\+-- /);
  const head = parts[0].match(/^(.*?) \[0x([0-9a-f]+), (\d+)B\]/)!;
  const nodes: SeedNode[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const depth = parts[i].length / 2 + 1;
    const text = parts[i + 1];
    const m = text.match(/^(\S+)(?: (.*?))? \[0x([0-9a-f]+), (\d+)B\](.*)$/)!;
    const typeValue = m[2] ?? '';
    const [nameType, value] = typeValue.includes(' = ') ? typeValue.split(/ = (.*)/s) : [typeValue, undefined];
    nodes.push({ depth, name: m[1], type: nameType, value, offset: parseInt(m[3], 16), size: Number(m[4]), rest: m[5].trim() });
  }
  return { title: head[1], size: Number(head[3]), nodes };
}

export function readSeedPages(dir: string): SeedPage[] {
  return readdirSync(dir).filter((f) => f.endsWith('.txt')).sort().map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const trees = [...text.matchAll(/^object tree\n(.*)$/gm)].map((m) => parseTree(m[1]));
    return { api: text.split('\n')[0], request: trees[0], response: trees[1] };
  });
}

/** The bytes a tree's leaves spell out: every leaf value written at its offset and size. */
export function bytesFromTree(tree: SeedTree): Uint8Array {
  const out = new Uint8Array(tree.size).fill(0xee);
  for (const node of tree.nodes) {
    if (node.value === undefined) continue;
    const bytes = leafBytes(node);
    if (bytes === null) continue;
    if (bytes.length !== node.size) throw new Error(`seed leaf ${node.name}: ${bytes.length} bytes, page says ${node.size}`);
    out.set(bytes, node.offset);
  }
  return out;
}

function leafBytes(node: SeedNode): Uint8Array | null {
  const v = node.value!;
  const number = Number(v.split(' ')[0]);
  const be = (n: number, width: number) => {
    const b = new Uint8Array(width);
    for (let i = width - 1, x = BigInt(n); i >= 0; i--, x >>= 8n) b[i] = Number(x & 0xffn);
    return b;
  };
  switch (node.type) {
    case 'int8': case 'bool': return be(v === 'true' ? 1 : v === 'false' ? 0 : number, 1);
    case 'int16': return be(number, 2);
    case 'int32': return be(number, 4);
    case 'int64': case 'float64': return number === 0 ? be(0, 8) : null;
    case 'uvarint': return number < 128 ? Uint8Array.of(number) : null;
    case 'string': case 'nullable_string': {
      const m = v.match(/^"(.*)" \((compact, len\+1=(\d+)|int16 len=(\d+))\)$/);
      if (m === null || m[1] !== '') return null;
      return m[3] !== undefined ? Uint8Array.of(Number(m[3])) : be(Number(m[4]), 2);
    }
    default: return null; // structs and arrays: their leaves carry the bytes
  }
}
