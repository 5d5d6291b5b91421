// The property names of objects given to encode and newMessage: a property that no version of
// its struct has is a misspelling, refused with UNKNOWN_FIELD and a "did you mean" (it would
// otherwise be dropped and its field sent as the default), and newMessage's completion of a
// struct given in part. Only encoding reaches this file, so decode-only bundles leave it out.
import { KafkaWireError } from '../errors.js';
import { ARRAY, UNKNOWN_TAGGED_FIELDS, type CompiledStruct } from './plan.js';

/**
 * Throws UNKNOWN_FIELD, at the path of the property, when `o` has a property no version of the
 * struct has (a misspelling would otherwise be dropped and its field sent as the default).
 * Both writers and newMessage call it on every struct object before reading its fields.
 */
export function checkKnownFields(s: CompiledStruct, o: object): void {
  (s.checkFields ??= fieldsChecker([...s.fields.map((f) => f.name), UNKNOWN_TAGGED_FIELDS], (name) => { throw unknownField(s, name); }))(o);
}

function fieldsChecker(names: readonly string[], fail: (name: string) => never): (o: object) => void {
  try {
    // A switch over the names compares the interned keys for-in yields by identity: a Set lookup
    // hashes each one, and made Metadata encode measurably slower.
    const cases = names.map((name) => `case ${JSON.stringify(name)}:`).join(' ');
    return new Function('fail', `return function checkFields(o) {
      for (const name in o) { switch (name) { ${cases} continue; } fail(name); }
    };`)(fail);
  } catch {
    // Where a Content-Security-Policy forbids generated code.
    const known = new Set(names);
    return (o) => {
      for (const name in o) if (!known.has(name)) fail(name);
    };
  }
}

function unknownField(s: CompiledStruct, name: string): KafkaWireError {
  const close = closestName(name, s.fields.map((f) => f.name));
  return new KafkaWireError('UNKNOWN_FIELD', -1, name,
    `unknown field (no version of ${s.name} has it)${close === undefined ? '' : `; did you mean "${close}"?`}`);
}

/** The one candidate within a small edit distance of `name` (case ignored), if exactly one is closest. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let ties = 0;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) { best = candidate; bestDistance = d; ties = 1; }
    else if (d === bestDistance) ties++;
  }
  return ties === 1 ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) { rows[0].push(j); continue; }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/**
 * A new object of struct `s` with `given`'s properties over the defaults at every depth (structs
 * inside structs and arrays are completed too), so the result has every field however little was given.
 * Values of the wrong type are kept for the encoder to report.
 */
export function completeStruct(s: CompiledStruct, given: object): Record<string, any> {
  checkKnownFields(s, given);
  const o = s.create();
  for (const f of s.fields) {
    const v = (given as Record<string, unknown>)[f.name];
    if (v === undefined) continue;
    try {
      o[f.name] = f.struct === null ? v
        : f.kind !== ARRAY ? completeValue(f.struct, v)
        : Array.isArray(v) ? v.map((item, i) => completeItem(f.struct!, item, i)) : v;
    } catch (error) {
      if (error instanceof KafkaWireError) throw error.within(f.name);
      throw error;
    }
  }
  const unknownTagged = (given as Record<string, unknown>)[UNKNOWN_TAGGED_FIELDS];
  if (unknownTagged !== undefined) o[UNKNOWN_TAGGED_FIELDS] = unknownTagged;
  return o;
}

function completeValue(s: CompiledStruct, v: unknown): unknown {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? completeStruct(s, v) : v;
}

function completeItem(s: CompiledStruct, item: unknown, i: number): unknown {
  try {
    return completeValue(s, item);
  } catch (error) {
    if (error instanceof KafkaWireError) throw error.within(`[${i}]`);
    throw error;
  }
}
