// The four frames of the reference pages in ../shared/seeds, byte for byte and field by field.
import { describe, expect, it } from 'vitest';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, requestSize, responseSize } from '../../src/index.js';
import { planFor } from '../../src/codec/by-key.js';
import { ARRAY, STRUCT, type CompiledStruct } from '../../src/codec/plan.js';
import { fromHex, toHex } from '../../src/text.js';
import { haveDir, seedsDir } from '../helpers/shared.js';
import { bytesFromTree, readSeedPages } from '../helpers/seed-pages.js';

const header = (apiKey: number, version: number) =>
  ({ requestApiKey: apiKey, requestApiVersion: version, correlationId: 0, clientId: '' });

// The smallest legal instances the pages show, written out by hand, with the bytes the pages'
// trees spell (checked against the pages themselves below when they are present).
const SEEDS = [
  {
    api: 'AlterPartitionReassignments', apiKey: 45, version: 0,
    request: { timeoutMs: 0, topics: [{ name: '', partitions: [{ partitionIndex: 0, replicas: [0] }] }] },
    requestHex: '0000001e002d00000000000000000000000000020102000000000200000000000000',
    response: {
      throttleTimeMs: 0, errorCode: 0, errorMessage: '',
      responses: [{ name: '', partitions: [{ partitionIndex: 0, errorCode: 0, errorMessage: '' }] }],
    },
    responseHex: '0000001900000000000000000000000102010200000000000001000000',
  },
  {
    api: 'AlterClientQuotas', apiKey: 49, version: 1,
    request: {
      entries: [{ entity: [{ entityType: '', entityName: '' }], ops: [{ key: '', value: 0, remove: false }] }],
      validateOnly: false,
    },
    requestHex: '0000001f00310001000000000000000202010100020100000000000000000000000000',
    response: { throttleTimeMs: 0, entries: [{ errorCode: 0, errorMessage: '', entity: [{ entityType: '', entityName: '' }] }] },
    responseHex: '0000001300000000000000000002000001020101000000',
  },
];

/** [schemaName, value] for every primitive field in wire order, the way the pages list leaves. */
function leaves(s: CompiledStruct, o: any, out: [string, string][] = []): [string, string][] {
  for (const f of s.regular) {
    const v = o[f.name];
    if (f.kind === STRUCT) leaves(f.struct!, v, out);
    else if (f.kind === ARRAY) {
      (v as any[]).forEach((item, i) => {
        if (f.elementKind === STRUCT) leaves(f.struct!, item, out);
        else out.push([`${f.def.type.slice(2)}[${i}]`, show(item)]);
      });
    } else out.push([f.def.schemaName, show(v)]);
  }
  return out;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

describe('seed frames', () => {
  for (const seed of SEEDS) {
    it(`${seed.api} v${seed.version} request encodes to the page's bytes and decodes back`, () => {
      const frame = encodeRequest(header(seed.apiKey, seed.version), seed.request);
      expect(toHex(frame)).toBe(seed.requestHex);
      expect(requestSize(header(seed.apiKey, seed.version), seed.request)).toBe(frame.length);
      const decoded = decodeRequest(frame);
      expect(decoded.header).toEqual(header(seed.apiKey, seed.version));
      expect(decoded.body).toMatchObject(seed.request);
    });

    it(`${seed.api} v${seed.version} response encodes to the page's bytes and decodes back`, () => {
      const frame = encodeResponse(seed.apiKey, seed.version, { correlationId: 0 }, seed.response);
      expect(toHex(frame)).toBe(seed.responseHex);
      expect(responseSize(seed.apiKey, seed.version, { correlationId: 0 }, seed.response)).toBe(frame.length);
      const decoded = decodeResponse(frame, seed.apiKey, seed.version);
      expect(decoded.header).toEqual({ correlationId: 0 });
      expect(decoded.body).toMatchObject(seed.response);
    });
  }

  const present = haveDir(seedsDir, 'checking the seed frames against the seed pages');
  it.skipIf(!present)('the pages spell the same bytes, sizes and field values', () => {
    const pages = readSeedPages(seedsDir);
    expect(pages.map((p) => p.api)).toEqual(SEEDS.map((s) => s.api));
    for (const [i, page] of pages.entries()) {
      const seed = SEEDS[i];
      for (const direction of ['request', 'response'] as const) {
        const tree = page[direction];
        const hex = direction === 'request' ? seed.requestHex : seed.responseHex;
        expect(toHex(bytesFromTree(tree))).toBe(hex);
        expect(tree.size).toBe(hex.length / 2);
        // Field by field: every schema leaf on the page, in order, against our decode.
        const frame = fromHex(hex)!;
        const body = direction === 'request'
          ? decodeRequest(frame).body
          : decodeResponse(frame, seed.apiKey, seed.version).body;
        const ours = leaves(planFor(seed.apiKey, direction, seed.version).body, body);
        const bodyStart = tree.nodes.findIndex((n) => n.type === 'struct' && n.name === tree.title.split(' ')[0]);
        const theirs = tree.nodes.slice(bodyStart + 1)
          .filter((n) => n.value !== undefined && n.name !== 'length' && n.name !== 'tagged_fields' && !/element|struct/.test(n.value))
          .map((n) => [n.name, n.value!.replace(/ \(.*\)$/, '')]);
        expect(theirs.length).toBeGreaterThanOrEqual(4);
        expect(ours).toEqual(theirs);
      }
    }
  });
});
