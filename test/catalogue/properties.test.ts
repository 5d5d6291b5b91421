// Property tests over made-up schemas: seeded random Kafka-format schemas (every primitive type,
// arrays, nested, nullable and tagged structs, defaults, versions added and flexible from random points)
// become a run-time catalogue; random instances of every version then round-trip through
// encode and decode in generated code and the interpreter, sizes match, and each schema written
// back with schemaJsonOf parses to the same definition. Damaged frames of the fixture's made-up
// API meet typed errors only.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  catalogueFromSchemas, decodeRequest, decodeResponse, encodeRequest, encodeResponse, requestSize, responseSize,
} from '../../src/index.js';
import { parseMessage, schemaJsonOf } from '../../src/catalogue/parse.js';
import { planFor } from '../../src/codec/by-key.js';
import { setCodegen } from '../../src/codec/generate.js';
import { loadCatalogue } from '../../src/catalogue/node.js';
import { KafkaWireError } from '../../src/errors.js';
import { deepEqual } from '../fuzz/deep-equal.js';
import { lengthSites, mutate } from '../fuzz/mutate.js';
import { repoRoot } from '../helpers/shared.js';
import { GIZMO, gizmoV0Frame, gizmoV1Frame, gizmoV1ResponseFrame } from './golden.js';
import { prng, RandomInstances } from '../helpers/random.js';

const PRIMITIVES = ['bool', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'float64', 'string', 'bytes', 'records', 'uuid'];
/** Defaults as Kafka writes them: strings (hex too), numbers and booleans. */
const DEFAULTS: Record<string, unknown> = {
  bool: true, int8: '-1', int16: 7, uint16: '65535', int32: '0x10', uint32: '4294967295', int64: '-1', float64: '0.5', string: 'd',
};
/** Types Kafka lets be null (and so the only ones given nullableVersions). */
const NULLABLE = new Set(['string', 'bytes', 'records']);

class SchemaMaker {
  private structCount = 0;
  constructor(private readonly random: () => number, private readonly maxVersion: number, private readonly flexibleFrom: number) {}

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }

  /** "N+" for a random N up to the last version. */
  private from(): string {
    return `${this.int(this.maxVersion + 1)}+`;
  }

  fields(depth: number): object[] {
    const out: object[] = [];
    const count = 1 + this.int(depth === 0 ? 6 : 3);
    let tag = 0;
    for (let i = 0; i < count; i++) {
      const name = `F${depth}x${i}`;
      const struct = depth < 2 && this.random() < 0.25;
      const array = this.random() < 0.25;
      const element = struct ? `S${this.structCount++}` : PRIMITIVES[this.int(PRIMITIVES.length)];
      const field: Record<string, unknown> = { name, type: array ? `[]${element}` : element, versions: this.from() };
      if (struct) field.fields = this.fields(depth + 1);
      if ((array || struct || NULLABLE.has(element)) && this.random() < 0.4) field.nullableVersions = '0+';
      if (!array && DEFAULTS[element] !== undefined && this.random() < 0.3) field.default = DEFAULTS[element];
      if (this.flexibleFrom <= this.maxVersion && this.random() < 0.3) {
        const first = Math.max(this.flexibleFrom, this.int(this.maxVersion + 1));
        Object.assign(field, { versions: `${first}+`, taggedVersions: `${first}+`, tag: tag++ });
      }
      out.push(field);
    }
    return out;
  }
}

function randomSchemas(seed: number): { schemas: object[]; maxVersion: number } {
  const random = prng(seed);
  const maxVersion = Math.floor(random() * 4);
  const flexibleFrom = Math.floor(random() * (maxVersion + 2)); // maxVersion + 1: never flexible
  const maker = new SchemaMaker(random, maxVersion, flexibleFrom);
  const common = { apiKey: 2000 + seed, validVersions: `0-${maxVersion}`, flexibleVersions: flexibleFrom > maxVersion ? 'none' : `${flexibleFrom}+` };
  return {
    maxVersion,
    schemas: [
      { ...common, type: 'request', name: `Made${seed}Request`, fields: maker.fields(0) },
      { ...common, type: 'response', name: `Made${seed}Response`, fields: maker.fields(0) },
    ],
  };
}

describe('made-up schemas', () => {
  it('round-trip random instances of every version, in generated code and the interpreter', () => {
    const instances = new RandomInstances(prng(7));
    let frames = 0;
    for (let seed = 0; seed < 60; seed++) {
      const { schemas, maxVersion } = randomSchemas(seed);
      const catalogue = catalogueFromSchemas(schemas, { base: null });
      const api = catalogue.apis[0];
      for (const message of [api.request, api.response]) expect(parseMessage(schemaJsonOf(message))).toStrictEqual(message);
      for (const codegen of [undefined, false] as const) {
        setCodegen(codegen);
        try {
          for (let version = 0; version <= maxVersion; version++) {
            for (let i = 0; i < 5; i++) {
              const where = `seed ${seed} v${version} #${i} ${codegen === false ? 'interpreter' : 'generated'}`;
              const header = { requestApiKey: api.apiKey, requestApiVersion: version, correlationId: i, clientId: 'p' };
              const request = instances.struct(planFor(api.apiKey, 'request', version, { catalogue }).body);
              const requestFrame = encodeRequest(header, request, { catalogue });
              expect(requestSize(header, request, { catalogue }), where).toBe(requestFrame.length);
              expect(deepEqual(decodeRequest(requestFrame, { catalogue }).body, request), where).toBe(true);
              const response = instances.struct(planFor(api.apiKey, 'response', version, { catalogue }).body);
              const responseFrame = encodeResponse(api.apiKey, version, { correlationId: i }, response, { catalogue });
              expect(responseSize(api.apiKey, version, { correlationId: i }, response, { catalogue }), where).toBe(responseFrame.length);
              expect(deepEqual(decodeResponse(responseFrame, api.apiKey, version, { catalogue }).body, response), where).toBe(true);
              frames += 2;
            }
          }
        } finally {
          setCodegen(undefined);
        }
      }
    }
    expect(frames).toBeGreaterThan(600);
  });

  it('meet damaged frames of a run-time API with typed errors only, in both code paths', () => {
    const catalogue = loadCatalogue(join(repoRoot, 'test', 'fixtures', 'schemas'));
    const random = prng(12);
    const cases = [
      { frame: gizmoV1Frame, direction: 'request', version: 1 },
      { frame: gizmoV0Frame, direction: 'request', version: 0 },
      { frame: gizmoV1ResponseFrame, direction: 'response', version: 1 },
    ] as const;
    let refused = 0;
    for (const codegen of [undefined, false] as const) {
      setCodegen(codegen);
      try {
        for (const { frame, direction, version } of cases) {
          const sites = lengthSites(GIZMO, direction, version, frame, { catalogue });
          expect(sites.length).toBeGreaterThan(0);
          for (let i = 0; i < 300; i++) {
            const damaged = mutate(frame, sites, random);
            try {
              if (direction === 'request') decodeRequest(damaged, { catalogue });
              else decodeResponse(damaged, GIZMO, version, { catalogue });
            } catch (error) {
              expect(error, `${direction} v${version} #${i}`).toBeInstanceOf(KafkaWireError);
              refused++;
            }
          }
        }
      } finally {
        setCodegen(undefined);
      }
    }
    expect(refused).toBeGreaterThan(900);
  });
});
