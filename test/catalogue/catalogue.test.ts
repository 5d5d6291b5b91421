// Run-time catalogues: the one schema parser gives the built-in catalogue back from Kafka's JSON,
// and a made-up schema directory (test/fixtures/schemas: an API with key 1000 using every
// primitive type and nested, nullable and tagged structs; Metadata with a made-up v14) works in
// every by-key function exactly like a built-in API, in generated readers and the interpreter.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadCatalogue } from '../../src/catalogue/node.js';
import {
  apis, builtInCatalogue, catalogueFromSchemas, decodeBody, decodeRequest, decodeResponse, encodeBody, encodeRequest,
  encodeResponse, frameFromJson, frameToJson, newMessage, requestSize, responseSize,
  sampleFrame, type Catalogue,
} from '../../src/index.js';
import { kafkaWireError as caught } from '../helpers/errors.js';
import { explainFrame } from '../../src/explain/index.js';
import { requestHeader, responseHeader } from '../../src/generated/catalogue.js';
import { planFor } from '../../src/codec/by-key.js';
import { parseMessage, SchemaError, schemaJsonOf } from '../../src/catalogue/parse.js';
import { setCodegen } from '../../src/codec/generate.js';
import { toHex } from '../../src/text.js';
import { deepEqual } from '../fuzz/deep-equal.js';
import { prng, RandomInstances } from '../helpers/random.js';
import { catalogueSchemasDir, haveCatalogueSchemas, repoRoot } from '../helpers/shared.js';
import {
  GIZMO, gizmoV0Body, gizmoV0Frame, gizmoV0Header, gizmoV1Body, gizmoV1Frame, gizmoV1Header, gizmoV1Response, gizmoV1ResponseFrame,
} from './golden.js';

const fixtureDir = join(repoRoot, 'test', 'fixtures', 'schemas');
const catalogue = loadCatalogue(fixtureDir);


/** Runs `body` with generated readers/writers and again with the interpreter. */
function bothCodePaths(body: () => void): void {
  for (const codegen of [undefined, false] as const) {
    setCodegen(codegen);
    try {
      body();
    } finally {
      setCodegen(undefined);
    }
  }
}

describe('the one schema parser', () => {
  it.skipIf(!haveCatalogueSchemas())('gives back the built-in catalogue from Kafka\'s JSON: the same definitions, the same bytes', () => {
    const loaded = loadCatalogue(catalogueSchemasDir, { base: null });
    expect(loaded.apis.map((a) => a.apiKey)).toEqual(apis.map((a) => a.apiKey));
    // Header facts equal to the built-in ones: the built-in objects themselves, so plans are shared.
    expect(loaded.requestHeader).toBe(requestHeader);
    expect(loaded.responseHeader).toBe(responseHeader);
    let frames = 0;
    for (const api of apis) {
      const mine = loaded.api(api.apiKey)!;
      expect(mine).not.toBe(api); // parsed now, not the generated object
      expect(mine).toStrictEqual(api);
      for (let v = api.request.validVersions[0]; v <= api.request.validVersions[1]; v++) {
        for (const direction of ['request', 'response'] as const) {
          const builtIn = sampleFrame(api.apiKey, direction, v);
          expect(toHex(sampleFrame(api.apiKey, direction, v, { catalogue: loaded }))).toBe(toHex(builtIn));
          frames++;
        }
      }
    }
    expect(frames).toBeGreaterThan(apis.length);
  });

  it('writes every built-in message back as Kafka-format JSON that it reads into an equal definition', () => {
    for (const message of [requestHeader, responseHeader, ...apis.flatMap((a) => [a.request, a.response])]) {
      const json = schemaJsonOf(message);
      expect(JSON.stringify(json)).not.toMatch(/"about"/);
      expect(parseMessage(JSON.parse(JSON.stringify(json)))).toStrictEqual(message);
    }
  });

  it('reads texts with comments and objects, and names the schema and field of a bad fact', () => {
    const text = '// a comment\n{ "apiKey": 2000, "type": "request", "name": "TinyRequest", "validVersions": "0",\n'
      + '  "flexibleVersions": "none", "fields": [ { "name": "A", "type": "int8", "versions": "0+" } ] }';
    const response = { apiKey: 2000, type: 'response', name: 'TinyResponse', validVersions: '0', flexibleVersions: 'none', fields: [] };
    const tiny = catalogueFromSchemas([text, response]);
    expect(tiny.api(2000)!.name).toBe('Tiny');
    expect(toHex(encodeBody(2000, 'request', 0, { a: -1 }, { catalogue: tiny }))).toBe('ff');
    const bad = { ...response, fields: [{ name: 'B', type: 'int32', versions: '2-1' }] };
    expect(() => catalogueFromSchemas([text, bad])).toThrow(/TinyResponse\.B versions: bad version range "2-1"/);
    expect(() => catalogueFromSchemas([text])).toThrow("API key 2000: lacks a response schema");
    expect(() => catalogueFromSchemas(['{ "name": '])).toThrow(/schema 0:/);
    const error = (() => { try { catalogueFromSchemas([text, bad]); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).path).toBe('TinyResponse.B versions');
  });

  it('refuses schemas no Kafka generator would take: odd names, repeated tags, structs inside themselves', () => {
    const pair = (fields: object[]) => [
      { apiKey: 3000, type: 'request', name: 'OddRequest', validVersions: '0', flexibleVersions: '0+', fields },
      { apiKey: 3000, type: 'response', name: 'OddResponse', validVersions: '0', flexibleVersions: '0+', fields: [] },
    ];
    const refused = (fields: object[]) => {
      try {
        catalogueFromSchemas(pair(fields));
      } catch (error) {
        expect(error).toBeInstanceOf(SchemaError);
        return (error as SchemaError).message;
      }
      throw new Error('accepted');
    };
    // Names reach generated code and property names: only identifiers pass.
    expect(refused([{ name: "A'+x+'", type: 'int8', versions: '0+' }])).toContain('bad field name');
    expect(refused([{ name: '__proto__', type: 'int8', versions: '0+' }])).toContain('bad field name');
    expect(refused([{ name: 'S', type: "T');x('", versions: '0+', fields: [] }])).toContain('bad struct name');
    expect(refused([{ name: 'A', type: 'int8', versions: '0+', taggedVersions: '0+', tag: 1 },
      { name: 'B', type: 'int8', versions: '0+', taggedVersions: '0+', tag: '1' }])).toBe('OddRequest.B: tag 1 used twice');
    expect(refused([{ name: 'Head', type: 'Node', versions: '0+', nullableVersions: '0+',
      fields: [{ name: 'Next', type: 'Node', versions: '0+', nullableVersions: '0+' }] }])).toContain('struct Node contains itself (Node > Node)');
    expect(refused([{ name: 'A', type: 'float32', versions: '0+' }])).toContain('unknown struct type float32');
    expect(() => catalogueFromSchemas([{ ...pair([])[0], flexibleVersions: 'none',
      fields: [{ name: 'A', type: 'int8', versions: '0+', taggedVersions: '0+', tag: 0 }] }, pair([])[1]]))
      .toThrow('OddRequest.A: taggedVersions outside the flexible versions');
    expect(() => catalogueFromSchemas([{ ...pair([])[0], apiKey: 40000 }, pair([])[1]])).toThrow('apiKey 40000 is not an int16 key');
    expect(refused([{ name: 'A', type: 'int8', versions: '0+', default: '300' }])).toContain('int8 default 300 out of range');
  });
});

describe('a catalogue loaded at run time', () => {
  it('adds the directory\'s APIs and versions to the built-in ones', () => {
    expect(catalogue.api(GIZMO)!.name).toBe('Gizmo');
    expect(catalogue.api(3)!.request.validVersions).toEqual([0, 14]);
    expect(catalogue.api(0)).toBe(builtInCatalogue.api(0)); // untouched keys are the built-in definitions
    expect(catalogue.apis.map((a) => a.apiKey)).toEqual([...apis.map((a) => a.apiKey), GIZMO]);
    expect(loadCatalogue(fixtureDir, { base: null }).apis.map((a) => a.apiKey)).toEqual([3, GIZMO]);
  });

  it('encodes and decodes the golden frames, in generated code and the interpreter', () => {
    bothCodePaths(() => {
      const cases = [
        [gizmoV1Header, gizmoV1Body, gizmoV1Frame],
        [gizmoV0Header, gizmoV0Body, gizmoV0Frame],
      ] as const;
      for (const [header, body, frame] of cases) {
        expect(toHex(encodeRequest(header, body, { catalogue }))).toBe(toHex(frame));
        expect(requestSize(header, body, { catalogue })).toBe(frame.length);
        const decoded = decodeRequest(frame, { catalogue });
        expect(decoded.header).toEqual(header);
        const expected = newMessage(GIZMO, 'request', header.requestApiVersion, body, { catalogue });
        expect(deepEqual(decoded.body, expected)).toBe(true);
      }
      const response = encodeResponse(GIZMO, 1, { correlationId: 2 }, gizmoV1Response, { catalogue });
      expect(toHex(response)).toBe(toHex(gizmoV1ResponseFrame));
      expect(responseSize(GIZMO, 1, { correlationId: 2 }, gizmoV1Response, { catalogue })).toBe(response.length);
      expect(decodeResponse(gizmoV1ResponseFrame, GIZMO, 1, { catalogue }).body).toEqual(gizmoV1Response);
      const bodyOnly = gizmoV1Frame.subarray(4 + 12);
      expect(toHex(encodeBody(GIZMO, 'request', 1, gizmoV1Body, { catalogue }))).toBe(toHex(bodyOnly));
      expect(deepEqual(decodeBody(GIZMO, 'request', 1, bodyOnly, { catalogue }), decodeRequest(gizmoV1Frame, { catalogue }).body)).toBe(true);
    });
  });

  it('gives new messages the schema\'s defaults (strings, numbers, booleans, hex) and absent fields theirs', () => {
    expect(newMessage(GIZMO, 'request', 1, {}, { catalogue })).toEqual({
      flag: true, tiny: -3, small: 0, port: 9092, count: 16, size: 4294967295, offset: -1n, ratio: 0.5, name: 'gizmo',
      label: null, blob: new Uint8Array(0), id: 'AAAAAAAAAAAAAAAAAAAAAA', batches: null, numbers: [], items: [], extra: null,
      hint: 7, side: { level: 0 }, comment: null,
    });
    expect(newMessage(GIZMO, 'response', 0, {}, { catalogue }).tail).toBe(65535);
  });

  it('round-trips random instances of every version of the new API and of Metadata v14', () => {
    const random = new RandomInstances(prng(1000));
    bothCodePaths(() => {
      for (const [apiKey, versions] of [[GIZMO, [0, 1]], [3, [13, 14]]] as const) {
        for (const version of versions) {
          for (const direction of ['request', 'response'] as const) {
            const plan = planFor(apiKey, direction, version, { catalogue });
            for (let i = 0; i < 50; i++) {
              const header = direction === 'request'
                ? { requestApiKey: apiKey, requestApiVersion: version, correlationId: i, clientId: 'rt' }
                : { correlationId: i };
              const body = random.struct(plan.body);
              const frame = direction === 'request'
                ? encodeRequest(header as any, body, { catalogue })
                : encodeResponse(apiKey, version, header, body, { catalogue });
              const back = direction === 'request'
                ? decodeRequest(frame, { catalogue }).body
                : decodeResponse(frame, apiKey, version, { catalogue }).body;
              expect(deepEqual(back, body), `${apiKey} v${version} ${direction} #${i}`).toBe(true);
            }
          }
        }
      }
    });
  });

  it('keeps Metadata v13 byte for byte and adds v14\'s fields', () => {
    for (const direction of ['request', 'response'] as const) {
      expect(toHex(sampleFrame(3, direction, 13, { catalogue }))).toBe(toHex(sampleFrame(3, direction, 13)));
    }
    const body = newMessage(3, 'request', 14, { topics: null, includeTopicTags: true }, { catalogue });
    const frame = encodeRequest({ requestApiKey: 3, requestApiVersion: 14, correlationId: 3, clientId: null }, body, { catalogue });
    // Header v2: key 3, version 14, correlation id 3, client id null, no tags; then the body v14:
    // topics null (compact 0), allowAutoTopicCreation true, includeTopicAuthorizedOperations false,
    // includeTopicTags true, no tagged fields.
    expect(toHex(frame)).toBe('00000010' + '0003000e00000003ffff00' + '00010001' + '00');
    const response = newMessage(3, 'response', 14, {
      clusterTag: 'blue', topics: [{ errorCode: 0, name: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', topicTags: ['x'] }],
    }, { catalogue });
    const back = decodeResponse(encodeResponse(3, 14, { correlationId: 1 }, response, { catalogue }), 3, 14, { catalogue }).body;
    expect(back.clusterTag).toBe('blue');
    expect(back.topics[0].topicTags).toEqual(['x']);
  });

  it('explains, samples and speaks JSON through the catalogue', () => {
    const tree = explainFrame(gizmoV1Frame, { direction: 'request', catalogue });
    expect([tree.apiName, tree.messageName, tree.headerVersion]).toEqual(['Gizmo', 'GizmoRequest', 2]);
    const json = frameToJson('request', gizmoV1Frame, undefined, undefined, { catalogue });
    expect(json.body.size).toBe(4000000000);
    expect(json.body.offset).toBe('1099511627776');
    expect(toHex(frameFromJson(JSON.parse(JSON.stringify(json)), { catalogue }))).toBe(toHex(gizmoV1Frame));
    const sample = sampleFrame(GIZMO, 'response', 1, { catalogue });
    expect(decodeResponse(sample, GIZMO, 1, { catalogue }).body.results).toHaveLength(1);
  });

  it('without it, an unknown key or version is a typed error that says what the catalogue has', () => {
    const api = caught(() => decodeRequest(gizmoV1Frame));
    expect(api.code).toBe('UNSUPPORTED_API');
    expect(api.message).toMatch(/no API with key 1000 in the catalogue \(it has keys 0-\d+/);
    const version = caught(() => newMessage(3, 'request', 14));
    expect(version.code).toBe('UNSUPPORTED_VERSION');
    expect(version.message).toContain('MetadataRequest has versions 0-13, not 14');
    expect(caught(() => newMessage(3, 'request', 15, {}, { catalogue })).message).toContain('versions 0-14');
  });
});

describe('a catalogue with headers of its own', () => {
  // A request header whose v2 has a tagged trace id, as a fork might add.
  const header = {
    type: 'header', name: 'RequestHeader', validVersions: '0-2', flexibleVersions: '2+',
    fields: [
      { name: 'RequestApiKey', type: 'int16', versions: '0+' },
      { name: 'RequestApiVersion', type: 'int16', versions: '0+' },
      { name: 'CorrelationId', type: 'int32', versions: '0+' },
      { name: 'ClientId', type: 'string', versions: '1+', nullableVersions: '1+', flexibleVersions: 'none' },
      { name: 'TraceId', type: 'int64', versions: '2+', taggedVersions: '2+', tag: 7, default: '-1' },
    ],
  };
  const traced: Catalogue = catalogueFromSchemas([header]);

  it('reads and writes that header for every API, leaving the built-in catalogue alone', () => {
    const h = { requestApiKey: 18, requestApiVersion: 3, correlationId: 5, clientId: null, traceId: 42n };
    const frame = encodeRequest(h as any, newMessage(18, 'request', 3), { catalogue: traced });
    // Header v2: key 18, version 3, correlation id 5, client id null; one tagged field: tag 7, 8 bytes, 42.
    expect(toHex(frame).slice(8, 8 + 42)).toBe('0012' + '0003' + '00000005' + 'ffff' + '01' + '07' + '08' + '000000000000002a');
    expect(decodeRequest(frame, { catalogue: traced }).header).toEqual(h);
    const plain = decodeRequest(frame).header as any;
    expect(plain.traceId).toBeUndefined();
    expect(Object.keys(plain._unknownTaggedFields)).toEqual(['7']);
    expect(traced.api(18)).not.toBe(builtInCatalogue.api(18));
    expect(traced.api(18)).toEqual(builtInCatalogue.api(18));
  });
});
