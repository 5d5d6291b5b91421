// Must pass: keys known only at run time (a proxy, the CLI) take the documented untyped form.
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, getApi, newMessage, type RequestHeader } from '../../../src/index.js';
import { encodeRequestFor } from '../../../src/codec/by-definition.js';

declare const frame: Uint8Array;
declare const apiKey: number;
declare const fromJson: Record<string, unknown>;

const header: RequestHeader = { requestApiKey: apiKey, requestApiVersion: 1, correlationId: 1, clientId: null };
encodeRequest(header, fromJson);
encodeRequestFor(getApi(apiKey), header, fromJson);
const response = decodeResponse(frame, apiKey, 1);
encodeResponse(apiKey, 1, response.header, response.body);
const body = newMessage(apiKey, 'response', 1, fromJson);
encodeResponse(apiKey, 1, { correlationId: 2 }, body);
// A decoded request of any key is re-encoded without knowing which key it has.
const request = decodeRequest(frame);
encodeRequest(request.header, request.body);

// The widening docs/codec.md warns of: a header declared with a bare 0 has a number key, so the body
// is untyped; with ApiKey.Produce it stays typed (the same misspelling fails in fail/by-key.ts).
const widened = { requestApiKey: 0, requestApiVersion: 9, correlationId: 1, clientId: null };
encodeRequest(widened, { ackz: -1 });
