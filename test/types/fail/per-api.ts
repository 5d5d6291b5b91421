// Must fail: the per-API entry points, typed by the definition they are given.
import { decodeRequestFor, decodeResponseFor, encodeRequestFor, encodeResponseFor } from '../../../src/codec/by-definition.js';
import { produceApi } from '../../../src/generated/apis/Produce.js';
import { metadataApi } from '../../../src/generated/apis/Metadata.js';

const header = { requestApiKey: 0, requestApiVersion: 9, correlationId: 1, clientId: null };

encodeRequestFor(produceApi, header, { ackz: -1 }); // TS2353 'ackz' does not exist in type 'ProduceRequestInput'
encodeRequestFor(produceApi, header, { topicData: [{ nmae: 'orders' }] }); // TS2353 'nmae' does not exist in type 'ProduceRequestTopicProduceDataInput'
encodeRequestFor(metadataApi, header, { acks: -1 }); // TS2353 'acks' does not exist in type 'MetadataRequestInput'
encodeResponseFor(metadataApi, 12, { correlationId: 1 }, { brokers: [{ port: '9092' }] }); // TS2322 Type 'string' is not assignable to type 'number'
decodeRequestFor(produceApi, new Uint8Array()).body.topics; // TS2339 Property 'topics' does not exist on type 'ProduceRequest<Uint8Array<ArrayBufferLike>>'
decodeResponseFor(metadataApi, new Uint8Array(), 12).body.brokers[0].port.toFixed(1).length.foo; // TS2339 Property 'foo' does not exist on type 'number'
