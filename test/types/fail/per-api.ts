// Must fail: the per-API entry points, typed by the definition they are given.
import { decodeRecordBatches } from '../../../src/records/index.js';
import {
  decodeBodyFor, decodeRequestFor, decodeResponseFor, encodeBodyFor, encodeRequestFor, encodeResponseFor, newMessageFor,
} from '../../../src/codec/by-definition.js';
import { produceApi } from '../../../src/generated/apis/Produce.js';
import { metadataApi } from '../../../src/generated/apis/Metadata.js';
import { fetchApi } from '../../../src/generated/apis/Fetch.js';

const header = { requestApiKey: 0, requestApiVersion: 9, correlationId: 1, clientId: null };

encodeRequestFor(produceApi, header, { ackz: -1 }); // TS2353 'ackz' does not exist in type 'ProduceRequestInput'
encodeRequestFor(produceApi, header, { topicData: [{ nmae: 'orders' }] }); // TS2353 'nmae' does not exist in type 'ProduceRequestTopicProduceDataInput'
encodeRequestFor(metadataApi, header, { acks: -1 }); // TS2353 'acks' does not exist in type 'MetadataRequestInput'
encodeResponseFor(metadataApi, 12, { correlationId: 1 }, { brokers: [{ port: '9092' }] }); // TS2322 Type 'string' is not assignable to type 'number'
decodeRequestFor(produceApi, new Uint8Array()).body.topics; // TS2339 Property 'topics' does not exist on type 'ProduceRequest<Uint8Array<ArrayBufferLike>>'
decodeResponseFor(metadataApi, new Uint8Array(), 12).body.brokers[0].port.toFixed(1).length.foo; // TS2339 Property 'foo' does not exist on type 'number'
decodeResponseFor(fetchApi, new Uint8Array(), 12).body.responses[0].partitions[0].records?.batches; // TS2339 Property 'batches' does not exist on type 'Uint8Array
decodeResponseFor(fetchApi, new Uint8Array(), 12, { recordsDecoder: decodeRecordBatches }).body.responses[0].partitions[0].records?.subarray(0); // TS2339 Property 'subarray' does not exist on type 'DecodedRecordBatches'
decodeRequestFor(produceApi, new Uint8Array(), { recordsDecoder: (b: Uint8Array) => decodeRecordBatches(b, { lazy: true }) }).body.topicData[0].partitionData[0].records?.byteLength; // TS2339 Property 'byteLength' does not exist on type 'DecodedRecordBatches'
const inlineFetch = decodeResponseFor(fetchApi, new Uint8Array(), 12, { recordsDecoder: decodeRecordBatches });
encodeResponseFor(fetchApi, 12, inlineFetch.header, inlineFetch.body); // TS2345 Type 'DecodedRecordBatches' is missing the following properties from type 'Uint8Array
newMessageFor(metadataApi.response, 12, { brokerz: [] }); // TS2561 'brokerz' does not exist in type 'MetadataResponseInput'. Did you mean to write 'brokers'?
newMessageFor(metadataApi.request, 12).brokers; // TS2339 Property 'brokers' does not exist on type 'MetadataRequest'
encodeBodyFor(produceApi.request, 9, { topicData: [{ partitionData: [{ index: '0' }] }] }); // TS2322 Type 'string' is not assignable to type 'number'
decodeBodyFor(fetchApi.response, 12, new Uint8Array()).responses[0].partitions[0].records?.batches; // TS2339 Property 'batches' does not exist on type 'Uint8Array
decodeBodyFor(fetchApi.response, 12, new Uint8Array(), { recordsDecoder: decodeRecordBatches }).responses[0].partitions[0].records?.subarray(0); // TS2339 Property 'subarray' does not exist on type 'DecodedRecordBatches'
