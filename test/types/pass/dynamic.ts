// Must pass: keys known only at run time (a proxy, the CLI) take the documented untyped form.
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, getApi, newMessage, type RequestHeader } from '../../../src/index.js';
import { encodeRequestFor } from '../../../src/core.js';

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
