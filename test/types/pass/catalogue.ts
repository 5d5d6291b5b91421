// Must pass: a run-time catalogue's keys, which the built-in types do not know, take the untyped
// form in every by-key call, and decodeRequest with a catalogue may give any key.
import {
  ApiKey, catalogueFromSchemas, decodeBody, decodeRequest, decodeResponse, encodeRequest, encodeResponse, newMessage,
  type DecodeOptions, type ProduceRequest,
} from '../../../src/index.js';

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function same<A, B>(proof: Equal<A, B>): void {
  void proof;
}

declare const frame: Uint8Array;
const catalogue = catalogueFromSchemas([]);

// A literal key the built-in catalogue lacks: any object in, any out.
encodeRequest({ requestApiKey: 1001, requestApiVersion: 1, correlationId: 1, clientId: null }, { count: 4, note: 'hi' }, { catalogue });
encodeResponse(1001, 0, { correlationId: 1 }, { errorCode: 0 }, { catalogue });
const ping = decodeResponse(frame, 1001, 0, { catalogue }).body;
same<typeof ping, any>(true);
same<ReturnType<typeof decodeBody<1001, 'request'>>, any>(true);
newMessage(1001, 'request', 1, { count: 1 }, { catalogue });

// decodeRequest with a catalogue: the frame may carry one of its keys, so the key is a number and
// the body untyped; comparing with a key outside the built-in range compiles.
const request = decodeRequest(frame, { catalogue, records: true });
same<typeof request.apiKey, number>(true);
if (request.apiKey === 1001) void request.body.count;
// Without one the union over the built-in keys narrows as before.
const builtIn = decodeRequest(frame);
if (builtIn.apiKey === ApiKey.Produce) same<typeof builtIn.body, ProduceRequest>(true);
// Options that may hold a catalogue (a wrapper passing its caller's on) give the untyped form too.
function decodeWith(options: DecodeOptions) {
  return decodeRequest(frame, options);
}
same<ReturnType<typeof decodeWith>['apiKey'], number>(true);
same<ReturnType<typeof decodeRequest<{ records: true; catalogue: undefined }>>['apiKey'], ApiKey>(true);
