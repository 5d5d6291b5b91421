// Golden tests: the explain trees of the smallest AlterPartitionReassignments v0 and
// AlterClientQuotas v1 messages match the reference pages' object trees line for line.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apis } from '../../src/generated/catalogue.js';
import { explainFrame, formatExplainText, sampleFrame } from '../../src/explain/index.js';
import { collapse, readSeeds, schemasDir, seedsDir } from './seeds.js';
import { haveDir } from '../helpers/shared.js';

describe('sizes of the seed messages', () => {
  it.each([
    [45, 0, 34, 29],
    [49, 1, 35, 23],
  ])('api %i v%i: request %i bytes, response %i bytes', (key, version, request, response) => {
    expect(sampleFrame(key, 'request', version).length).toBe(request);
    expect(sampleFrame(key, 'response', version).length).toBe(response);
  });
});

describe('seed object trees', () => {
  const present = haveDir(seedsDir, 'the golden tree comparison') && haveDir(schemasDir, 'the golden tree comparison');
  if (!present) {
    it.skip(`seed pages (${seedsDir}) or schemas (${schemasDir}) absent: skipping the golden tree comparison`, () => {});
    return;
  }
  const seeds = readSeeds();
  it('finds both seed pages', () => {
    expect(seeds.map((s) => s.api).sort()).toEqual(['AlterClientQuotas', 'AlterPartitionReassignments']);
  });
  for (const seed of seeds) {
    const api = apis.find((a) => a.name === seed.api)!;
    (['request', 'response'] as const).forEach((direction, i) => {
      it(`${seed.api} v${seed.version} ${direction} matches ${seed.file}`, () => {
        const frame = sampleFrame(api.apiKey, direction, seed.version);
        expect(frame.length).toBe(direction === 'request' ? seed.requestSize : seed.responseSize);
        const tree = explainFrame(frame, { direction, apiKey: api.apiKey, apiVersion: seed.version, schemasDir, sample: true });
        const lines = formatExplainText(tree).trimEnd().split('\n').map(collapse);
        expect(lines).toEqual(seed.trees[i]);
      });
    });
  }
});
