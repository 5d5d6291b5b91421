// Checks of the values handed to the encoders, shared by the interpreter's writer and the generated
// writers: defaults, fields a version lacks, the request header (a kind's own check and the wording
// of a bad value are in kinds.ts, below the plan, which this file's types come from).
import { KafkaWireError } from '../errors.js';
import { ARRAY, BYTES, FLOAT64, STRUCT } from '../wasm/abi.js';
import type { CompiledField, CompiledStruct } from './plan.js';

/** Whether `v` equals the field's default (Kafka writes a tagged field only when it does not). */
export function isDefault(f: CompiledField, v: any): boolean {
  if (v === undefined) return true;
  if (f.defaultValue !== undefined) {
    if (f.defaultValue === null) return v === null;
    return v === f.defaultValue || (f.kind === FLOAT64 && Number.isNaN(v) && Number.isNaN(f.defaultValue));
  }
  if (v === null) return false;
  switch (f.kind) {
    case ARRAY: return Array.isArray(v) && v.length === 0;
    case BYTES: return v instanceof Uint8Array && v.length === 0;
    case STRUCT: return isDefaultStruct(f.struct!, v);
  }
  return false;
}

function isDefaultStruct(s: CompiledStruct, o: any): boolean {
  if (typeof o !== 'object' || o._unknownTaggedFields !== undefined) return false;
  for (const f of s.fields) if (!isDefault(f, o[f.name])) return false;
  return true;
}

/** The error for field `f`, which version `s.version` lacks; its path names the field itself. */
export function notInVersion(s: CompiledStruct, f: CompiledField): KafkaWireError {
  return new KafkaWireError('NOT_IN_VERSION', -1, f.name,
    `${s.name}.${f.name} has a non-default value but version ${s.version} does not have the field`);
}

/** Throws INVALID_VALUE at path `header` unless `header` is an object (before reading its key). */
export function checkRequestHeader(header: unknown): void {
  if (header === null || typeof header !== 'object') {
    throw new KafkaWireError('INVALID_VALUE', -1, 'header', 'expected a request header object');
  }
}
