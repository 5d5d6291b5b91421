// kafka-wire: the Apache Kafka wire protocol, every API key and version.
import { initCodecWasm } from './codec/engine.js';
import { initRecordsWasm } from './records/engine.js';

export {
  encodeRequest, encodeRequestParts, decodeRequest, encodeResponse, decodeResponse, encodeBody, decodeBody,
  requestSize, responseSize, newMessage, getApi, requestHeaderVersion, responseHeaderVersion,
  findApi, peekRequest, type ApiKeyNumber, type CatalogueOption, type ByKeyEncodeOptions, type DecodeOptions, type RequestInput,
  type ResponseInput, type RequestBody, type ResponseBody, type BodyInput, type DecodedBody, type AnyDecodedRequest,
  type RecordsField, type DecodedRequestUnder,
} from './codec/by-key.js';
export * from './catalogue/index.js';
export {
  encodeRequestFor, encodeRequestPartsFor, decodeRequestFor, encodeResponseFor, decodeResponseFor, encodeBodyFor, decodeBodyFor,
  requestSizeFor, responseSizeFor, newMessageFor, headerVersionFor, prepareResponseFor, defaultLimits,
  type RequestHeader, type ResponseHeader, type DecodedRequest, type DecodedResponse, type Direction, type Limits,
  type BodyOf, type EncodeOptions,
} from './codec/by-definition.js';
export { KafkaWireError, UnsupportedRuntimeError, runtimeName, type ErrorCode } from './errors.js';
export { createLogger, consoleSink, silentLogger, redact, LOG_LEVELS, type Logger, type LoggerOptions, type LoggerOption, type LogEntry, type LogSink, type LogLevel } from './logger.js';
export { frameToJson, frameFromJson, structToJson, structFromJson, type FrameJson } from './codec/json.js';
export { apis } from './generated/catalogue.js';
export { ApiKey } from './generated/types.js';
export type * from './generated/types.js';
export type { ApiDef, MessageDef, FieldDef, StructDef } from './catalogue/schema.js';
export * from './explain/api.js';

export { initZstd } from './records/zstd.js';

/**
 * Compiles the WebAssembly asynchronously (zstd's own module loads with `initZstd()` instead). Optional: the module otherwise compiles synchronously
 * on first use, which every current engine allows at this size.
 */
export async function init(modules: WasmModules = {}): Promise<void> {
  await Promise.all([initCodecWasm(modules.codec), initRecordsWasm(modules.records)]);
}

/**
 * The two WebAssembly modules, precompiled, for hosts that compile none from bytes (workerd, where
 * a `.wasm` import is a WebAssembly.Module): `kafka-wire/wasm/codec.wasm`, `kafka-wire/wasm/records.wasm`.
 */
export interface WasmModules {
  codec?: WebAssembly.Module;
  records?: WebAssembly.Module;
}
