// The smallest legal instance of every message and version, as the reference pages define it:
// numeric fields zero (even where the schema's default is not), strings and byte arrays empty
// (nullable ones too, not null), every array with exactly one sample element, nullable structs
// present, tagged fields left at their defaults (so not written), and every records field one
// empty 61-byte RecordBatch v2. Headers carry correlation id 0 and client id "".
import {
  encodeRequest, encodeResponse, planFor, versionAndDirection, ARRAY, KINDS, RECORDS, STRUCT,
  type CatalogueOption, type CompiledField, type CompiledStruct, type Direction,
} from '../codec/by-key.js';
import { encodeRecordBatch } from '../records/index.js';
import { RECORDS_OFFSET } from '../wasm/abi.js';

/** Bytes in a RecordBatch v2 with no records. */
export const EMPTY_BATCH_SIZE = RECORDS_OFFSET;

/**
 * One RecordBatch v2 holding no records, every numeric field zero: baseOffset 0, batchLength 49,
 * partitionLeaderEpoch 0, magic 2, the CRC-32C of attributes..end, attributes 0,
 * lastOffsetDelta 0, timestamps 0, producerId 0, producerEpoch 0, baseSequence 0, 0 records.
 */
export function sampleRecordBatch(): Uint8Array {
  return encodeRecordBatch({
    records: [], baseOffset: 0, partitionLeaderEpoch: 0, lastOffsetDelta: 0, baseTimestamp: 0, maxTimestamp: 0,
    producerId: 0, producerEpoch: 0, baseSequence: 0,
  });
}

function sampleValue(kind: number, struct: CompiledStruct | null): unknown {
  if (kind === RECORDS) return sampleRecordBatch();
  if (kind === STRUCT) return sampleStruct(struct!);
  return KINDS[kind]!.zero();
}

function sampleField(f: CompiledField): unknown {
  if (f.kind === ARRAY) return [sampleValue(f.elementKind, f.struct)];
  return sampleValue(f.kind, f.struct);
}

/** A struct with its regular (untagged, present) fields set to the sample values. */
export function sampleStruct(s: CompiledStruct): Record<string, any> {
  const o = s.create();
  for (const f of s.regular) o[f.name] = sampleField(f);
  return o;
}

/** The smallest legal instance of a message body: (apiKey, version, direction), or the older (apiKey, direction, version). */
export function sampleMessage(apiKey: number, version: number | Direction, direction: Direction | number, options?: CatalogueOption): any {
  const [v, d] = versionAndDirection(version, direction);
  return sampleStruct(planFor(apiKey, d, v, options).body);
}

/** The header a sample frame carries: (apiKey, version, direction), or the older (apiKey, direction, version). */
export function sampleHeader(apiKey: number, version: number | Direction, direction: Direction | number): any {
  const [v, d] = versionAndDirection(version, direction);
  return d === 'request'
    ? { requestApiKey: apiKey, requestApiVersion: v, correlationId: 0, clientId: '' }
    : { correlationId: 0 };
}

/** The sample as a whole frame (int32 size prefix, header, body): (apiKey, version, direction), or the older (apiKey, direction, version). */
export function sampleFrame(apiKey: number, version: number | Direction, direction: Direction | number, options?: CatalogueOption): Uint8Array {
  const [v, d] = versionAndDirection(version, direction);
  const body = sampleMessage(apiKey, v, d, options);
  const header = sampleHeader(apiKey, v, d);
  return d === 'request' ? encodeRequest(header, body, options) : encodeResponse(apiKey, v, header, body, options);
}
