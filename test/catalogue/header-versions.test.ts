// KIP-1313's "headerVersions": a schema that declares which header version each of its versions
// travels with overrides the built-in rule, in the generator and in run-time catalogues (the same
// parser). The made-up Widget API (key 1001, test/fixtures/header-versions) maps its
// non-flexible v1 to request header v2 and its v3 to a made-up request header v3; golden frames
// computed by hand show the codec, explain and the site-facing lookups follow the map.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalogue } from '../../src/catalogue/node.js';
import { catalogueFromSchemas, parseMessage, parseSchemas, SchemaError, schemaJsonOf } from '../../src/catalogue/index.js';
import {
  decodeRequest, decodeResponse, encodeRequest, encodeResponse, requestHeaderVersion, responseHeaderVersion, type RequestHeader,
} from '../../src/index.js';
import { explainFrame } from '../../src/explain/index.js';
import { fromHex, toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';

const fixtureDir = path.join(repoRoot, 'test', 'fixtures', 'header-versions');
const catalogue = loadCatalogue(fixtureDir);
const WIDGET = 1001;

function hex(...parts: string[]): Uint8Array {
  return fromHex(parts.join('').replace(/\s+/g, ''))!;
}

const header = (version: number, correlationId: number, extra: object = {}) =>
  ({ requestApiKey: WIDGET, requestApiVersion: version, correlationId, clientId: 'c', ...extra }) as RequestHeader & { requestApiKey: number };

const v0Frame = hex(
  '0000000f', // size: 15 bytes follow
  '03e9 0000 00000004', // header v1: api key 1001, version 0, correlation id 4
  '0001 63', // client id "c"
  '0002 6162', // name "ab" (int16 length: v0 is not flexible)
);
const v1Frame = hex(
  '00000014', // size: 20 bytes follow
  '03e9 0001 00000005', // header v2, as headerVersions says (the built-in rule would give v1)
  '0001 63 00', // client id "c", then the header's tagged fields: none
  '0002 6162', // name "ab": the body of v1 is still not flexible
  '00000007', // count 7
);
const v3Frame = hex(
  '00000024', // size: 36 bytes follow
  '03e9 0003 00000006', // header v3 (the fixture's own header): api key 1001, version 3, correlation id 6
  '0001 63', // client id "c" (never flexible)
  '000102030405060708090a0b0c0d0e0f', // client instance id (uuid, header v3+)
  '00', // no header tagged fields
  '03 6162', // name "ab" (compact: the body of v3 is flexible)
  '00000007', // count 7
  '00', // no body tagged fields
);
const v1Response = hex(
  '00000007', // size: 7 bytes follow
  '00000005 00', // response header v1 (flexible, as headerVersions says): correlation id 5, no tagged fields
  '0000', // error code 0 (body v1 not flexible)
);

describe('headerVersions (KIP-1313)', () => {
  it('is read into steps and decides the header versions instead of the built-in rule', () => {
    const widget = catalogue.api(WIDGET)!;
    expect(widget.request.headerVersions).toEqual([[0, 1], [1, 2], [3, 3]]);
    expect(widget.response.headerVersions).toEqual([[0, 0], [1, 1]]);
    const opts = { catalogue };
    expect([0, 1, 2, 3].map((v) => requestHeaderVersion(WIDGET, v, opts))).toEqual([1, 2, 2, 3]);
    expect([0, 1, 2, 3].map((v) => responseHeaderVersion(WIDGET, v, opts))).toEqual([0, 1, 1, 1]);
    // The same schemas without the map follow the built-in rule (flexible from v2).
    const plain = catalogueFromSchemas(['WidgetRequest.json', 'WidgetResponse.json'].map((f) => {
      const json = JSON.parse(fs.readFileSync(path.join(fixtureDir, f), 'utf8').replace(/^\/\/.*$/gm, ''));
      delete json.headerVersions;
      return json;
    }));
    expect([0, 1, 2, 3].map((v) => requestHeaderVersion(WIDGET, v, { catalogue: plain }))).toEqual([1, 1, 2, 2]);
    expect([0, 1, 2, 3].map((v) => responseHeaderVersion(WIDGET, v, { catalogue: plain }))).toEqual([0, 0, 1, 1]);
  });

  it('encodes and decodes each version with its declared header, byte for byte', () => {
    const opts = { catalogue };
    expect(toHex(encodeRequest(header(0, 4), { name: 'ab' } as never, opts))).toBe(toHex(v0Frame));
    expect(toHex(encodeRequest(header(1, 5), { name: 'ab', count: 7 } as never, opts))).toBe(toHex(v1Frame));
    const id = 'AAECAwQFBgcICQoLDA0ODw';
    expect(toHex(encodeRequest(header(3, 6, { clientInstanceId: id }), { name: 'ab', count: 7 } as never, opts))).toBe(toHex(v3Frame));
    expect(decodeRequest(v1Frame, opts)).toMatchObject({ header: { correlationId: 5, clientId: 'c' }, body: { name: 'ab', count: 7 } });
    expect(decodeRequest(v3Frame, opts)).toMatchObject({ header: { correlationId: 6, clientInstanceId: id }, body: { name: 'ab', count: 7 } });
    expect(toHex(encodeResponse(WIDGET, 1, { correlationId: 5 }, { errorCode: 0 } as never, opts))).toBe(toHex(v1Response));
    expect(decodeResponse(v1Response, WIDGET, 1, opts)).toMatchObject({ header: { correlationId: 5 }, body: { errorCode: 0 } });
  });

  it('shows in explain which header a version travels with', () => {
    expect(explainFrame(v1Frame, { direction: 'request', catalogue }).headerVersion).toBe(2);
    expect(explainFrame(v3Frame, { direction: 'request', catalogue }).headerVersion).toBe(3);
    expect(explainFrame(v1Response, { direction: 'response', apiKey: WIDGET, apiVersion: 1, catalogue }).headerVersion).toBe(1);
  });

  it('travels back as Kafka-format JSON into an equal definition', () => {
    const widget = catalogue.api(WIDGET)!;
    for (const message of [widget.request, widget.response]) {
      const json = schemaJsonOf(message);
      expect(json.headerVersions).toEqual(message === widget.request ? { 0: '1', '1-2': '2', '3+': '3' } : { 0: '0', '1+': '1' });
      expect(parseMessage(JSON.parse(JSON.stringify(json)))).toStrictEqual(parseMessage(json));
      expect(parseMessage(json).headerVersions).toEqual(message.headerVersions);
    }
  });

  it('is generated into the catalogue\'s definitions', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-header-versions-'));
    try {
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'generate.mjs'), '--schemas', fixtureDir, '--out', out], { stdio: 'pipe' });
      const text = fs.readFileSync(path.join(out, 'apis', 'Widget.ts'), 'utf8');
      expect(text).toContain('headerVersions: [[0, 1], [1, 2], [3, 3]],');
      expect(text).toContain('headerVersions: [[0, 0], [1, 1]],');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('refuses maps that leave versions out, overlap, go down or pick a header the body cannot use', () => {
    const request = (headerVersions: unknown, extra: object = {}) => ({
      apiKey: 1001, type: 'request', name: 'WidgetRequest', validVersions: '0-3', flexibleVersions: '2+', headerVersions,
      fields: [], ...extra,
    });
    const refused = (headerVersions: unknown, pattern: RegExp) => {
      expect(() => parseMessage(request(headerVersions)), JSON.stringify(headerVersions)).toThrow(SchemaError);
      expect(() => parseMessage(request(headerVersions))).toThrow(pattern);
    };
    refused({ '1+': '1' }, /no header version for v0/);
    refused({ 0: '1', '2+': '2' }, /no header version for v1/);
    refused({ '0-1': '1', '1+': '2' }, /v1 is given twice/);
    refused({ '0-3': '1' }, /must be open/);
    refused({ 0: '2', '1+': '1' }, /goes down from 2 to 1/);
    refused({ '0+': 'two' }, /not a version number/);
    refused({}, /is empty/);
    refused([], /not an object/);
    // Against the headers it travels with: a version they lack, a flexible body on a non-flexible header.
    const headers = fs.readdirSync(fixtureDir).filter((f) => f.endsWith('Header.json')).map((f) => fs.readFileSync(path.join(fixtureDir, f), 'utf8'));
    const response = { apiKey: 1001, type: 'response', name: 'WidgetResponse', validVersions: '0-3', flexibleVersions: '2+', fields: [] };
    expect(() => parseSchemas([...headers, request({ '0+': '4' }), response])).toThrow(/v0 travels with RequestHeader v4, which is not one of its versions/);
    expect(() => parseSchemas([...headers, request({ '0+': '1' }), response])).toThrow(/flexible v2 travels with RequestHeader v1, which is not flexible/);
    // The built-in headers (no v3) when the set brings none.
    expect(() => catalogueFromSchemas([request({ 0: '1', '1+': '3' }), response])).toThrow(/RequestHeader v3/);
    // The ApiVersions response alone stays on header v0 in flexible versions (KIP-511).
    const apiVersions = { apiKey: 18, type: 'response', name: 'ApiVersionsResponse', validVersions: '0-3', flexibleVersions: '3+', headerVersions: { '0+': '0' }, fields: [] };
    const apiVersionsRequest = { apiKey: 18, type: 'request', name: 'ApiVersionsRequest', validVersions: '0-3', flexibleVersions: '3+', fields: [] };
    expect(() => catalogueFromSchemas([apiVersionsRequest, apiVersions])).not.toThrow();
    expect(() => catalogueFromSchemas([{ ...apiVersionsRequest, apiKey: 1002, name: 'OtherRequest' }, { ...apiVersions, apiKey: 1002, name: 'OtherResponse' }]))
      .toThrow(/flexible v3 travels with ResponseHeader v0/);
  });
});
