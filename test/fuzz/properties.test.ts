// fast-check property tests: arbitrary values of every field type, across every message version,
// go object → bytes → object identically, and the scan never disagrees with the size computed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apis, decodeResponse, encodeRequest, decodeRequest, encodeResponse, responseSize, requestSize } from '../../src/index.js';
import { planFor } from '../../src/codec/by-key.js';
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  type CompiledField, type CompiledStruct,
} from '../../src/codec/plan.js';
import { bytesToBase64Url, decodeUtf8 } from '../../src/text.js';
import { deepEqual } from './deep-equal.js';

function valueArbitrary(kind: number, struct: CompiledStruct | null, depth: number): fc.Arbitrary<unknown> {
  switch (kind) {
    case BOOL: return fc.boolean();
    case INT8: return fc.integer({ min: -128, max: 127 });
    case INT16: return fc.integer({ min: -32768, max: 32767 });
    case UINT16: return fc.integer({ min: 0, max: 65535 });
    case INT32: return fc.integer();
    case UINT32: return fc.integer({ min: 0, max: 4294967295 });
    case INT64: return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case FLOAT64: return fc.double();
    case UUID: return fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => bytesToBase64Url(b, 0));
    case STRING: return fc.string({ unit: 'binary', maxLength: 20 });
    case BYTES: case RECORDS: return fc.uint8Array({ maxLength: 24 });
    case STRUCT: return structArbitrary(struct!, depth + 1);
  }
  throw new Error(`kind ${kind}`);
}

function fieldArbitrary(f: CompiledField, depth: number): fc.Arbitrary<unknown> {
  const base = f.kind === ARRAY
    ? fc.array(valueArbitrary(f.elementKind, f.struct, depth), { maxLength: depth > 2 ? 0 : 3 })
    : valueArbitrary(f.kind, f.struct, depth);
  const withNull = f.nullable ? fc.option(base, { nil: null, freq: 5 }) : base;
  return f.tag >= 0 ? fc.option(withNull, { nil: undefined }) : withNull;
}

function structArbitrary(s: CompiledStruct, depth = 0): fc.Arbitrary<any> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of [...s.regular, ...s.tagged]) shape[f.name] = fieldArbitrary(f, depth);
  return fc.record(shape).map((values) => {
    const o = s.create();
    for (const [name, v] of Object.entries(values)) if (v !== undefined) o[name] = v;
    return o;
  });
}

describe('property: string decoding', () => {
  it('decodeUtf8 gives back any string at any offset (ASCII runs, multi-byte anywhere, 0-100 bytes)', () => {
    const text = fc.oneof(fc.string({ maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(fc.property(text, fc.nat({ max: 9 }), (s, pad) => {
      const encoded = new TextEncoder().encode(s);
      const bytes = new Uint8Array(pad + encoded.length + 3).fill(0xff);
      bytes.set(encoded, pad);
      expect(decodeUtf8(bytes, pad, encoded.length)).toBe(s);
    }), { numRuns: 2000 });
  });
});

describe('property: round trips of arbitrary values', () => {
  for (const api of apis) {
    it(`${api.name}: every version, both directions`, () => {
      for (const direction of ['request', 'response'] as const) {
        const message = api[direction];
        for (let version = message.validVersions[0]; version <= message.validVersions[1]; version++) {
          const body = planFor(api.apiKey, direction, version).body;
          fc.assert(fc.property(structArbitrary(body), fc.integer(), (value, correlationId) => {
            if (direction === 'request') {
              const header = { requestApiKey: api.apiKey, requestApiVersion: version, correlationId, clientId: 'p' };
              const bytes = encodeRequest(header, value);
              expect(requestSize(header, value)).toBe(bytes.length);
              return deepEqual(decodeRequest(bytes).body, value);
            }
            const bytes = encodeResponse(api.apiKey, version, { correlationId }, value);
            expect(responseSize(api.apiKey, version, { correlationId }, value)).toBe(bytes.length);
            return deepEqual(decodeResponse(bytes, api.apiKey, version).body, value);
          }), { numRuns: 8, seed: api.apiKey * 31 + version });
        }
      }
    });
  }
});
