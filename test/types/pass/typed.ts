// Must pass: typed calls a strict project makes, with the types they must give.
import { decodeRecordBatches } from '../../../src/records/index.js';
import {
  ApiKey, decodeBody, decodeRequest, decodeResponse, encodeRequest, encodeResponse, newMessage,
  type FetchResponse, type MetadataResponse, type ProduceRequest,
} from '../../../src/index.js';
import {
  decodeBodyFor, decodeRequestFor, decodeResponseFor, encodeBodyFor, encodeRequestFor, newMessageFor,
} from '../../../src/codec/by-definition.js';
import type { MessageDef } from '../../../src/catalogue/schema.js';
import { requestHeader } from '../../../src/generated/headers.js';
import { fetchApi } from '../../../src/generated/apis/Fetch.js';
import { metadataApi } from '../../../src/generated/apis/Metadata.js';
import { produceApi } from '../../../src/generated/apis/Produce.js';
import type { DecodedRecordBatches } from '../../../src/records/index.js';

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function same<A, B>(proof: Equal<A, B>): void {
  void proof;
}

declare const frame: Uint8Array;
declare const batch: Uint8Array;

// Deep-partial bodies at an old version: v3 has no topicId, and nothing below must be spelled out.
const v3 = { requestApiKey: ApiKey.Produce, requestApiVersion: 3, correlationId: 1, clientId: 'app' };
encodeRequest(v3, { acks: -1, topicData: [{ name: 'orders', partitionData: [{ index: 0, records: batch }] }] });
encodeRequestFor(produceApi, v3, { topicData: [{ name: 'orders', partitionData: [{ index: 0 }] }] });
encodeRequest({ requestApiKey: ApiKey.Metadata, requestApiVersion: 0, correlationId: 2, clientId: null }, { topics: [{ name: 't' }] });
encodeRequest(v3, {});
// Readonly arrays are accepted.
const topics = [{ name: 'orders' }] as const;
encodeRequest({ requestApiKey: ApiKey.Metadata, requestApiVersion: 4, correlationId: 2, clientId: null }, { topics });

// Decoded bodies are the full types; one goes back into the encoder as it is.
const metadata = decodeResponse(frame, ApiKey.Metadata, 12);
same<typeof metadata.body, MetadataResponse>(true);
same<typeof metadata.body.brokers[number]['port'], number>(true);
encodeResponse(ApiKey.Metadata, 12, metadata.header, metadata.body);
const made = newMessage(ApiKey.Produce, 'request', 9, { acks: -1, topicData: [{ partitionData: [{ index: 0 }] }] });
same<typeof made, ProduceRequest>(true);
// The library's order, key, version, direction, types the same.
const madeInOrder = newMessage(ApiKey.Produce, 9, 'request', { acks: -1, topicData: [{ partitionData: [{ index: 0 }] }] });
same<typeof madeInOrder, ProduceRequest>(true);
same<ReturnType<typeof decodeBody<typeof ApiKey.Metadata, 'response'>>, MetadataResponse>(true);
same<typeof decodeBody<typeof ApiKey.Metadata, 'response'> extends (k: any, v: number, d: 'response', b: Uint8Array) => any ? true : false, true>(true);
same<ReturnType<typeof decodeBody<typeof ApiKey.Metadata, 'response'>>, MetadataResponse>(true);

// Records fields follow the records option.
const plain = decodeResponse(frame, ApiKey.Fetch, 12).body;
same<typeof plain, FetchResponse>(true);
same<typeof plain.responses[number]['partitions'][number]['records'], Uint8Array | null>(true);
const inline = decodeResponse(frame, ApiKey.Fetch, 12, { records: true }).body;
same<typeof inline, FetchResponse<DecodedRecordBatches>>(true);
const offset: bigint | undefined = inline.responses[0].partitions[0].records?.batches[0].records[0].offset;
void offset;
const lazy = decodeResponse(frame, ApiKey.Fetch, 12, { records: { lazy: true }, maxDepth: 8 }).body;
same<typeof lazy.responses[number]['partitions'][number]['records'], DecodedRecordBatches | null>(true);
const off = decodeResponse(frame, ApiKey.Fetch, 12, { records: false, maxLength: 10 }).body;
same<typeof off.responses[number]['partitions'][number]['records'], Uint8Array | null>(true);

// decodeRequest narrows on the key.
const request = decodeRequest(frame);
if (request.apiKey === ApiKey.Produce) {
  same<typeof request.body, ProduceRequest>(true);
  const acks: number = request.body.acks;
  void acks;
}
switch (request.apiKey) {
  case ApiKey.Metadata: {
    const names: (string | null)[] | undefined = request.body.topics?.map((t) => t.name);
    void names;
    break;
  }
  case ApiKey.ApiVersions:
    request.body.clientSoftwareName.toUpperCase();
    break;
}
const produce = decodeRequest(frame, { records: true });
if (produce.apiKey === ApiKey.Produce) {
  const records: DecodedRecordBatches | null = produce.body.topicData[0].partitionData[0].records;
  void records;
}
same<ReturnType<typeof decodeRequestFor<typeof produceApi>>['body'], ProduceRequest>(true);

// The per-API calls type records fields by what their recordsDecoder returns.
same<typeof decodeResponseFor<typeof fetchApi>, typeof decodeResponseFor<typeof fetchApi, {}>>(true);
same<ReturnType<typeof decodeResponseFor<typeof metadataApi>>['body'], MetadataResponse>(true);
const perApiPlain = decodeResponseFor(fetchApi, frame, 12).body;
same<typeof perApiPlain, FetchResponse>(true);
const perApiInline = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: decodeRecordBatches, maxDepth: 8 }).body;
same<typeof perApiInline, FetchResponse<DecodedRecordBatches>>(true);
same<typeof perApiInline, typeof inline>(true);
const perApiLazy = decodeResponseFor(fetchApi, frame, 12, { recordsDecoder: (b: Uint8Array) => decodeRecordBatches(b, { lazy: true }) }).body;
same<typeof perApiLazy.responses[number]['partitions'][number]['records'], DecodedRecordBatches | null>(true);
const perApiOff = decodeResponseFor(fetchApi, frame, 12, {}).body;
same<typeof perApiOff, FetchResponse>(true);
const sent = decodeRequestFor(produceApi, frame, { recordsDecoder: decodeRecordBatches });
same<typeof sent.apiKey, 0>(true);
same<typeof sent.body, ProduceRequest<DecodedRecordBatches>>(true);
// A bare body is typed by the message definition's key and kind; a MessageDef alone is untyped.
same<ReturnType<typeof decodeBodyFor<typeof produceApi.request>>, ProduceRequest>(true);
const bareInline = decodeBodyFor(produceApi.request, 9, frame, { recordsDecoder: decodeRecordBatches });
same<typeof bareInline, ProduceRequest<DecodedRecordBatches>>(true);
same<ReturnType<typeof decodeBodyFor<typeof fetchApi.response, { recordsDecoder: typeof decodeRecordBatches }>>, FetchResponse<DecodedRecordBatches>>(true);
const brokers = newMessageFor(metadataApi.response, 12, { brokers: [{ nodeId: 1, host: 'b1' }] });
same<typeof brokers, MetadataResponse>(true);
encodeBodyFor(metadataApi.response, 12, brokers);
encodeBodyFor(produceApi.request, 3, { topicData: [{ name: 'orders', partitionData: [{ index: 0 }] }] });
same<ReturnType<typeof decodeBodyFor<MessageDef>>, any>(true);
same<ReturnType<typeof newMessageFor<typeof requestHeader>>, any>(true);
