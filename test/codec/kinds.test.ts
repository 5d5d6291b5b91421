// Every primitive kind through a message built at run time with one field of that type: golden
// bytes both ways on the generated-code path and on the interpreter's, values out of range refused
// with the kind named, and the interpreter's checks agreeing with the generated ones.
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBodyFor, encodeBodyFor } from '../../src/codec/by-definition.js';
import { setCodegen } from '../../src/codec/generate.js';
import { KIND_WRITES, KIND_OF_TYPE, KINDS } from '../../src/codec/kinds.js';
import { MAX_VERSION, type MessageDef } from '../../src/catalogue/schema.js';
import { KafkaWireError } from '../../src/errors.js';
import { fromHex, toHex } from '../../src/text.js';

/** A request of one field `value` of `type` (nullable from v1), flexible from v1. */
function messageOf(type: string): MessageDef {
  return {
    name: `Kind${type.replace('[]', 'Array')}Request`, apiKey: 32000, type: 'request', validVersions: [0, 1],
    flexibleVersions: [1, MAX_VERSION],
    fields: [{
      name: 'value', schemaName: 'Value', type, versions: [0, MAX_VERSION],
      ...(/^(string|bytes|records)$/.test(type) ? { nullableVersions: [1, MAX_VERSION] as const } : {}),
    }],
    structs: {},
  };
}

const uuidBytes = '000102030405060708090a0b0c0d0e0f';
const uuid = Buffer.from(fromHex(uuidBytes)!).toString('base64url');

/** [type, version, value, body bytes]: each decodes to the value and encodes back to the bytes. */
const golden: [string, number, unknown, string][] = [
  ['bool', 0, true, '01'], ['bool', 0, false, '00'],
  ['int8', 0, -128, '80'], ['int8', 0, 127, '7f'],
  ['int16', 0, -2, 'fffe'], ['int16', 0, 32767, '7fff'],
  ['uint16', 0, 65535, 'ffff'], ['uint16', 0, 32768, '8000'],
  ['int32', 0, -2147483648, '80000000'], ['int32', 0, 1, '00000001'],
  ['uint32', 0, 4294967295, 'ffffffff'], ['uint32', 0, 2147483648, '80000000'], ['uint32', 0, 7, '00000007'],
  ['int64', 0, -2n, 'fffffffffffffffe'], ['int64', 0, 2n ** 63n - 1n, '7fffffffffffffff'],
  ['float64', 0, 1.5, '3ff8000000000000'], ['float64', 0, -Infinity, 'fff0000000000000'],
  ['uuid', 0, uuid, uuidBytes],
  ['string', 0, 'hé', '000368c3a9'], ['string', 1, 'hé', '0468c3a900'], ['string', 1, null, '0000'],
  ['bytes', 0, Uint8Array.of(1, 2, 3), '00000003010203'], ['bytes', 1, Uint8Array.of(1, 2, 3), '0401020300'],
  ['bytes', 1, null, '0000'],
  ['records', 0, Uint8Array.of(9), '0000000109'], ['records', 1, Uint8Array.of(9), '020900'], ['records', 1, null, '0000'],
  // Arrays of integers take the scan's fast path: the same conversions must hold there.
  ['[]uint32', 0, [0, 4294967295, 2147483648], '0000000300000000ffffffff80000000'],
  ['[]uint32', 1, [4294967295], '02ffffffff00'],
  ['[]int16', 0, [-1, 2], '00000002ffff0002'],
  ['[]int64', 0, [-1n], '00000001ffffffffffffffff'],
];

/** [type, value]: refused on encode, the error naming what the kind expects. */
const refused: [string, unknown][] = [
  ['bool', 1], ['int8', 128], ['int8', -129], ['int16', 32768], ['uint16', -1], ['uint16', 65536],
  ['int32', 2 ** 31], ['int32', 1.5], ['uint32', -1], ['uint32', 2 ** 32], ['uint32', 0.5], ['uint32', '1'],
  ['int64', 2n ** 63n], ['int64', 1], ['float64', '1'], ['uuid', 'short'], ['string', 5], ['bytes', 'ab'],
  // A bigint makes the integer checks' bit operations throw a TypeError: still INVALID_VALUE.
  ['int8', 1n], ['int16', 1n], ['uint16', 1n], ['int32', 1n], ['uint32', 1n], ['float64', 1n],
];

describe.each([['generated code', undefined], ['interpreter', false]] as const)('primitive kinds (%s)', (_name, codegen) => {
  afterAll(() => setCodegen(undefined));

  it.each(golden)('%s v%i: %s', (type, version, value, hex) => {
    setCodegen(codegen);
    const message = messageOf(type);
    const decoded = decodeBodyFor(message, version, fromHex(hex)!);
    expect(decoded).toEqual({ value });
    expect(toHex(encodeBodyFor(message, version, { value }))).toBe(hex);
  });

  it.each(refused)('%s refuses %s', (type, value) => {
    setCodegen(codegen);
    const expected = KIND_WRITES[KIND_OF_TYPE[type]]!.expected;
    let error: unknown;
    try {
      encodeBodyFor(messageOf(type), 0, { value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KafkaWireError);
    expect((error as KafkaWireError).code).toBe('INVALID_VALUE');
    expect((error as KafkaWireError).path).toBe(`${messageOf(type).name}.value`);
    expect((error as KafkaWireError).message).toContain(`expected ${expected}`);
  });

  it.each(['[]int8', '[]int16', '[]int32', '[]uint32'])('%s refuses a bigint element, naming its index', (type) => {
    setCodegen(codegen);
    const message = messageOf(type);
    expect(() => encodeBodyFor(message, 0, { value: [1, 2n] })).toThrow(expect.objectContaining({
      code: 'INVALID_VALUE', path: `${message.name}.value[1]`,
      message: expect.stringContaining(`expected ${KIND_WRITES[KIND_OF_TYPE[type.slice(2)]]!.expected}, got 2n`),
    }));
  });
});

describe('kind descriptions', () => {
  it('check values the same way in the interpreter and in generated code', () => {
    const samples: unknown[] = [0, -1, 1, 127, 128, -129, 255, 32767, 32768, 65535, 65536, 2 ** 31 - 1, 2 ** 31, -(2 ** 31),
      2 ** 32 - 1, 2 ** 32, 0.5, NaN, Infinity, -0, true, false, null, undefined, '1', 1n, 2n ** 63n, -(2n ** 63n), {}];
    let checked = 0;
    for (const k of KIND_WRITES) {
      if (k?.accepts === undefined) continue;
      const type = KINDS[k.kind]!.type;
      const generated = new Function('v', `return ${k.acceptsSource};`) as (v: unknown) => boolean;
      // Throwing counts as an answer too (a bigint in a bit operation throws a TypeError in both).
      const outcome = (f: (v: unknown) => boolean, v: unknown) => {
        try {
          return f(v);
        } catch (error) {
          return (error as Error).constructor.name;
        }
      };
      for (const v of samples) expect([type, v, outcome(generated, v)]).toEqual([type, v, outcome(k.accepts, v)]);
      checked++;
    }
    expect(checked).toBe(8);
  });

  it('give every primitive kind both a layout and an encoder check', () => {
    const kinds = (table: readonly ({ kind: number } | undefined)[]) => table.flatMap((k, i) => (k === undefined ? [] : [[i, k.kind]]));
    expect(kinds(KINDS).length).toBe(Object.keys(KIND_OF_TYPE).length);
    expect(kinds(KIND_WRITES)).toEqual(kinds(KINDS));
    for (const [i, kind] of kinds(KINDS)) expect(kind).toBe(i);
  });
});
