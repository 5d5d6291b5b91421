// A non-default value in a field the version lacks is NOT_IN_VERSION, and error.path names that
// field (not the field written just before it): for every API key, version and direction, every
// such field at every depth, through the generated writers and the interpreter alike.
import { afterAll, describe, expect, it } from 'vitest';
import { builtInCatalogue } from '../../src/catalogue/catalogue.js';
import { encodeBody, encodeRequest, KafkaWireError, newMessage } from '../../src/index.js';
import { bodyPlanFor, ARRAY, BOOL, BYTES, FLOAT64, INT64, RECORDS, STRING, STRUCT, UUID, type CompiledField, type CompiledStruct } from '../../src/codec/plan.js';
import { setCodegen } from '../../src/codec/generate.js';

/** A value of the field's type that is not its default. */
function nonDefault(f: CompiledField, depth = 0): unknown {
  const d = f.makeDefault();
  if (f.kind === ARRAY) {
    if (d === null) return [];
    return [f.struct ? f.struct.create() : elementValue(f.elementKind)];
  }
  if (f.kind === STRUCT) {
    if (d === null) return f.struct!.create();
    const o = f.struct!.create();
    const first = f.struct!.fields[0]!;
    o[first.name] = nonDefault(first, depth + 1);
    return o;
  }
  return changed(f.kind, d);
}

function elementValue(kind: number): unknown {
  switch (kind) {
    case STRING: return 'x';
    case INT64: return 1n;
    case UUID: return 'AQEBAQEBAQEBAQEBAQEBAQ';
    case BOOL: return true;
    case BYTES: return new Uint8Array([1]);
    default: return 1;
  }
}

function changed(kind: number, d: unknown): unknown {
  switch (kind) {
    case BOOL: return !d;
    case INT64: return (d as bigint) + 1n;
    case FLOAT64: return (d as number) + 1;
    case STRING: return d === null ? 'x' : `${d}x`;
    case UUID: return d === 'AQEBAQEBAQEBAQEBAQEBAQ' ? 'AgICAgICAgICAgICAgICAg' : 'AQEBAQEBAQEBAQEBAQEBAQ';
    case BYTES: case RECORDS: return new Uint8Array([1, 2]);
    default: return (d as number) === 0 ? 1 : 0;
  }
}

interface Case { name: string; body: Record<string, unknown>; path: string }

/**
 * Every absent, non-ignorable field of `s` and of the structs under its present fields: a body
 * whose only non-default value in a lacking field is that one, and the path it must be named by.
 */
function cases(s: CompiledStruct, make: (inner: (o: Record<string, any>) => void) => Record<string, unknown>, path: string, out: Case[], depth = 0): void {
  for (const f of s.absent) {
    if (f.def.ignorable) continue;
    out.push({ name: `${path}.${f.name}`, path: `${path}.${f.name}`, body: make((o) => { o[f.name] = nonDefault(f); }) });
  }
  if (depth > 4) return;
  for (const f of [...s.regular, ...s.tagged]) {
    if (f.struct === null) continue;
    const inner = f.struct;
    const isArray = f.kind === ARRAY;
    cases(inner, (fill) => make((o) => {
      const child = inner.create();
      fill(child);
      o[f.name] = isArray ? [child] : child;
    }), `${path}.${f.name}${isArray ? '[0]' : ''}`, out, depth + 1);
  }
}

const header = (apiKey: number, version: number) => ({ requestApiKey: apiKey, requestApiVersion: version, correlationId: 1, clientId: null });

function check(apiKey: number, direction: 'request' | 'response', version: number): number {
  const message = builtInCatalogue.api(apiKey)![direction];
  const root = bodyPlanFor(message, version).body;
  const all: Case[] = [];
  cases(root, (fill) => { const o = newMessage(apiKey, direction, version) as Record<string, any>; fill(o); return o; }, message.name, all);
  for (const c of all) {
    let thrown: unknown;
    try {
      if (direction === 'request') encodeRequest(header(apiKey, version), c.body as any);
      else encodeBody(apiKey, direction, version, c.body as any);
    } catch (error) {
      thrown = error;
    }
    expect(thrown, `${c.name} v${version}`).toBeInstanceOf(KafkaWireError);
    const error = thrown as KafkaWireError;
    expect({ code: error.code, path: error.path }, `${c.name} v${version}: ${error.message}`).toEqual({ code: 'NOT_IN_VERSION', path: c.path });
    expect(error.message).not.toContain('at offset');
  }
  return all.length;
}

describe.each([['generated writers', true], ['interpreter', false]] as const)('NOT_IN_VERSION names the lacking field (%s)', (_, generated) => {
  afterAll(() => setCodegen(undefined));
  it('for every key, version, direction and lacking field, at every depth', () => {
    setCodegen(generated ? undefined : false);
    let total = 0;
    for (const api of builtInCatalogue.apis) {
      for (const direction of ['request', 'response'] as const) {
        const [low, high] = api[direction].validVersions;
        for (let v = low; v <= high; v++) total += check(api.apiKey, direction, v);
      }
    }
    expect(total).toBeGreaterThan(500); // 521 with Kafka 4.3's schemas
  });

  it('the issue\'s three: Produce v2 transactionalId, Metadata v3 includeClusterAuthorizedOperations, FindCoordinator v0 keyType', () => {
    setCodegen(generated ? undefined : false);
    const attempt = (apiKey: number, version: number, body: object) => {
      try { encodeRequest(header(apiKey, version), body as any); } catch (error) { return (error as KafkaWireError).path; }
      return 'no error';
    };
    expect(attempt(0, 2, { transactionalId: 'tx', acks: 1, timeoutMs: 1, topicData: [] })).toBe('ProduceRequest.transactionalId');
    expect(attempt(3, 3, { includeClusterAuthorizedOperations: true })).toBe('MetadataRequest.includeClusterAuthorizedOperations');
    expect(attempt(10, 0, { keyType: 1 })).toBe('FindCoordinatorRequest.keyType');
  });
});
