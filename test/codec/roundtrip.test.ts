// Every API key, version and direction: the default instance and random ones go
// object → bytes → object → bytes identically, and the measured size is the size written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apis, decodeRequest, decodeResponse, encodeRequest, encodeResponse, newMessage, requestSize, responseSize,
} from '../../src/index.js';
import { planFor } from '../../src/codec/by-key.js';
import { setCodegen } from '../../src/codec/generate.js';
import { prng, RandomInstances } from '../helpers/random.js';
import { catalogueTriples } from '../helpers/shared.js';

const RANDOM_PER_VERSION = 8;

function roundTrip(apiKey: number, direction: 'request' | 'response', version: number, body: any, correlationId: number) {
  if (direction === 'request') {
    const header = { requestApiKey: apiKey, requestApiVersion: version, correlationId, clientId: correlationId % 3 === 0 ? null : 'client-ü' };
    const bytes = encodeRequest(header, body);
    expect(requestSize(header, body)).toBe(bytes.length);
    const decoded = decodeRequest(bytes);
    expect(decoded.apiKey).toBe(apiKey);
    expect(decoded.apiVersion).toBe(version);
    expect(decoded.body).toStrictEqual(body); // plain objects, every field, same prototypes
    expect(encodeRequest(decoded.header, decoded.body)).toEqual(bytes);
  } else {
    const header = { correlationId };
    const bytes = encodeResponse(apiKey, version, header, body);
    expect(responseSize(apiKey, version, header, body)).toBe(bytes.length);
    const decoded = decodeResponse(bytes, apiKey, version);
    expect(decoded.header).toEqual(header);
    expect(decoded.body).toStrictEqual(body); // plain objects, every field, same prototypes
    expect(encodeResponse(apiKey, version, decoded.header, decoded.body)).toEqual(bytes);
  }
}

// Generated readers/writers are the fast path; the interpreter serves where eval is forbidden.
describe.each([['generated code', true], ['interpreter', false]])('round trips over every API, version and direction (%s)', (_mode, codegen) => {
  beforeAll(() => setCodegen(codegen));
  afterAll(() => setCodegen(undefined));
  let pairs = 0;
  for (const api of apis) {
    for (const direction of ['request', 'response'] as const) {
      const message = api[direction];
      for (let version = message.validVersions[0]; version <= message.validVersions[1]; version++) {
        pairs++;
        it(`${message.name} v${version}`, () => {
          roundTrip(api.apiKey, direction, version, newMessage(api.apiKey, direction, version), 0);
          const random = new RandomInstances(prng(api.apiKey * 1000 + version * 2 + (direction === 'request' ? 0 : 1)));
          const plan = planFor(api.apiKey, direction, version);
          for (let i = 1; i <= RANDOM_PER_VERSION; i++) {
            roundTrip(api.apiKey, direction, version, random.struct(plan.body), i);
          }
        });
      }
    }
  }
  it('covers every key/version/direction triple of the catalogue', async () => {
    expect(pairs).toBe(await catalogueTriples());
  });
});
