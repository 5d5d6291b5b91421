// Must fail: the by-key entry points given misspelled fields and values of the wrong type.
import { ApiKey, encodeBody, encodeRequest, encodeResponse, newMessage, requestSize } from '../../../src/index.js';

const header = { requestApiKey: ApiKey.Produce, requestApiVersion: 9, correlationId: 1, clientId: null };

encodeRequest(header, { ackz: -1 }); // TS2353 'ackz' does not exist in type 'ProduceRequestInput'
encodeRequest(header, { timeoutMs: 'soon' }); // TS2322 Type 'string' is not assignable to type 'number'
encodeRequest(header, { topicData: 42 }); // TS2322 Type 'number' is not assignable to type 'readonly ProduceRequestTopicProduceDataInput[]'
encodeRequest(header, {
  topicData: [{ nmae: 'orders' }], // TS2353 'nmae' does not exist in type 'ProduceRequestTopicProduceDataInput'
});
encodeRequest(header, { topicData: [{ partitionData: [{ index: 0, recods: null }] }] }); // TS2561 'recods' does not exist in type 'ProduceRequestPartitionProduceDataInput'. Did you mean to write 'records'?
encodeRequest(header, { acks: 10n }); // TS2322 Type 'bigint' is not assignable to type 'number'
requestSize(header, { ackz: -1 }); // TS2353 'ackz' does not exist in type 'ProduceRequestInput'
encodeResponse(ApiKey.Fetch, 12, { correlationId: 1 }, { responses: 'nope' }); // TS2322 Type 'string' is not assignable to type 'readonly FetchResponseFetchableTopicResponseInput[]'
encodeBody(ApiKey.Metadata, 'request', 12, { topics: [{ name: 1 }] }); // TS2322 Type 'number' is not assignable to type 'string'
newMessage(ApiKey.Produce, 'request', 9, { acks: 'all' }); // TS2322 Type 'string' is not assignable to type 'number'
newMessage(ApiKey.Produce, 9, 'request', { acks: 'all' }); // TS2322 Type 'string' is not assignable to type 'number'
newMessage(ApiKey.Produce, 'response', 9, { acks: -1 }); // TS2353 'acks' does not exist in type 'ProduceResponseInput'
newMessage(ApiKey.Produce, 'request', 9).acks = 'all'; // TS2322 Type 'string' is not assignable to type 'number'
encodeRequest({ ...header, clientID: 'x' }, {}); // TS2561 'clientID' does not exist in type
