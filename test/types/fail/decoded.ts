// Must fail: misuse of decoded bodies (records fields, narrowing on the key).
import { ApiKey, decodeRequest, decodeResponse, encodeResponse } from '../../../src/index.js';
import type { DecodedRecordBatches } from '../../../src/records/index.js';

declare const frame: Uint8Array;

const plain = decodeResponse(frame, ApiKey.Fetch, 12).body.responses[0].partitions[0];
plain.records?.batches; // TS2339 Property 'batches' does not exist on type 'Uint8Array
const inline = decodeResponse(frame, ApiKey.Fetch, 12, { records: true });
inline.body.responses[0].partitions[0].records?.byteLength; // TS2339 Property 'byteLength' does not exist on type 'DecodedRecordBatches'
// Decoded batches are not bytes: such a body cannot be encoded back as it is.
encodeResponse(ApiKey.Fetch, 12, inline.header, inline.body); // TS2345 Type 'DecodedRecordBatches' is missing the following properties from type 'Uint8Array
const maybe = decodeResponse(frame, ApiKey.Fetch, 12, { records: Math.random() > 0.5 });
maybe.body.responses[0].partitions[0].records?.batches; // TS2339 Property 'batches' does not exist on type 'Uint8Array

const request = decodeRequest(frame);
request.body.acks; // TS2339 Property 'acks' does not exist on type
if (request.apiKey === ApiKey.Produce) {
  request.body.topics; // TS2339 Property 'topics' does not exist on type 'ProduceRequest<Uint8Array<ArrayBufferLike>>'
  request.body.topicData[0].partitionData[0].records?.batches; // TS2339 Property 'batches' does not exist on type 'Uint8Array
}
const produce = decodeRequest(frame, { records: true });
if (produce.apiKey === ApiKey.Produce) {
  produce.body.topicData[0].partitionData[0].records?.subarray(0); // TS2339 Property 'subarray' does not exist on type 'DecodedRecordBatches'
}

// The equality check the must-pass snippets use fails when the types differ.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const proof: Equal<typeof plain.records, DecodedRecordBatches | null> = true; // TS2322 Type 'true' is not assignable to type 'false'
void proof;
