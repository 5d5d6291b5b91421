// kafka-wire: the Apache Kafka wire protocol, every API key and version.
export {
  encodeRequest, decodeRequest, encodeResponse, decodeResponse, encodeBody, decodeBody,
  requestSize, responseSize, newMessage, getApi, requestHeaderVersion, responseHeaderVersion,
  defaultLimits,
  type RequestHeader, type ResponseHeader, type DecodedRequest, type DecodedResponse, type Direction,
  type Limits,
} from './codec.js';
export { KafkaWireError, type ErrorCode } from './errors.js';
export { frameToJson, frameFromJson, structToJson, structFromJson, type FrameJson } from './json.js';
export { apis } from './generated/catalogue.js';
export { ApiKey } from './generated/types.js';
export type * from './generated/types.js';
export type { ApiDef, MessageDef, FieldDef, StructDef } from './schema.js';
