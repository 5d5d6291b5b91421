// Reads the reference pages in /work/shared/seeds (HTML flattened to text) at test time: their
// object trees come out one node per line, whitespace runs collapsed. Nothing of them is stored here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const seedsDir = process.env.KAFKA_WIRE_SEEDS ?? path.join(repoRoot, '..', 'shared', 'seeds');
export { schemasDir } from '../helpers/shared.js';

export interface SeedPage {
  file: string;
  api: string;
  version: number;
  /** Request then response: the node lines of each object tree. */
  trees: string[][];
  requestSize: number;
  responseSize: number;
}

/** Splits a flattened tree into node lines: each node starts where `+--` (after its `| ` rails) does. */
export function splitTree(flat: string): string[] {
  return flat.trim().split(/(?<!\|) (?=(?:\| )*\+-- )/).map((line) => line.trim());
}

export function collapse(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

export function readSeeds(): SeedPage[] {
  return fs.readdirSync(seedsDir).filter((f) => f.endsWith('.txt')).sort().map((file) => {
    const lines = fs.readFileSync(path.join(seedsDir, file), 'utf8').split('\n');
    const trees: string[][] = [];
    lines.forEach((line, i) => {
      if (line.trim() === 'object tree') trees.push(splitTree(lines[i + 1]));
    });
    const fact = (name: string) => lines[lines.findIndex((l) => l.trim() === `- ${name}`) + 1].replace(/^- /, '').trim();
    return {
      file,
      api: lines[0].trim(),
      version: Number(fact('Encoded at').replace(/^v/, '')),
      trees,
      requestSize: parseInt(fact('Request size'), 10),
      responseSize: parseInt(fact('Response size'), 10),
    };
  });
}
