// Checks and descriptions of the values handed to the encoders, shared by the interpreter's writer
// and the generated writers: defaults, type errors and their wording.
import { KafkaWireError } from '../errors.js';
import { ARRAY, BYTES, FLOAT64, STRUCT, type CompiledField, type CompiledStruct } from './plan.js';
import { KIND_CHECKS } from './kinds.js';

export function invalid(detail: string): KafkaWireError {
  return new KafkaWireError('INVALID_VALUE', -1, '', detail);
}

/** Throws INVALID_VALUE: `v` is not a value of `kind`. */
export function badValue(kind: number, v: unknown): never {
  throw invalid(`expected ${KIND_CHECKS[kind]!.expected}, got ${describe(v)}`);
}

/**
 * The error a writer's catch rethrows for `e`, thrown writing value `v` of `kind`: the integer
 * checks are bit operations, which throw a TypeError for a bigint, and that becomes INVALID_VALUE
 * here, on the failure path, so the checks themselves stay one expression.
 */
export function asValueError(e: unknown, kind: number, v: unknown): unknown {
  return e instanceof TypeError && typeof v === 'bigint' && KIND_CHECKS[kind]?.accepts !== undefined
    ? invalid(`expected ${KIND_CHECKS[kind]!.expected}, got ${describe(v)}`) : e;
}

/** A short description of a value for error messages. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : v.constructor?.name ?? 'an object';
  return String(v);
}

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
