// The interpreter's reader: turns a scan's tape into objects by walking a plan's CompiledStruct
// tree as data, where generated code may not run (generate.ts is the same walk as code). Each
// primitive value is read by its kind's row in kinds.ts, each count, marker and tag by
// STRUCTURE there. Its state is one TapeCursor the caller
// passes in: nothing is kept between calls, so decodes nest.
import { ARRAY, BYTES, RECORDS, STRUCT, type CompiledField, type CompiledStruct } from './plan.js';
import { KINDS, STRUCTURE, type TapeCursor } from './kinds.js';

export type { TapeCursor } from './kinds.js';

/** Builds root struct `root` from the tape at `c.t`, and leaves `c.t` where it stopped. */
export function interpretRoot(c: TapeCursor, root: CompiledStruct): any {
  const { later } = c;
  const { word, follows } = STRUCTURE;

  function readStruct(s: CompiledStruct): any {
    const o = s.create();
    const regular = s.regular;
    for (let i = 0; i < regular.length; i++) o[regular[i].name] = readField(regular[i]);
    // Records fields wait for the hook with their struct, once it is complete (as generate.ts has it).
    if (later !== undefined) for (const f of regular) if (f.kind === RECORDS) noteRecords(o, f.name);
    if (s.flexible) {
      for (let n = word(c), i = 0; i < n; i++) {
        const tag = KINDS[STRUCTURE.tagKind]!.read(c) as number;
        const known = word(c);
        if (known >= 0) {
          const f = s.tagged[known];
          o[f.name] = readField(f);
          if (later !== undefined && f.kind === RECORDS) noteRecords(o, f.name);
        } else {
          // An unknown tag's value is its bytes: an offset and a length, as a bytes value's.
          (o._unknownTaggedFields ??= {})[tag] = KINDS[BYTES]!.read(c);
        }
      }
    }
    return o;
  }

  function noteRecords(holder: any, at: string | number): void {
    if (holder[at] !== null) later!.push(holder, at, holder[at]);
  }

  function readField(f: CompiledField): any {
    if (f.kind !== ARRAY) return readValue(f.kind, f.nullable, f.struct);
    const count = word(c);
    if (!follows(count)) return null;
    const items: any[] = [];
    for (let i = 0; i < count; i++) items.push(readValue(f.elementKind, false, f.struct));
    if (later !== undefined && f.elementKind === RECORDS) items.forEach((_, i) => noteRecords(items, i));
    return items;
  }

  function readValue(kind: number, nullable: boolean, struct: CompiledStruct | null): any {
    if (kind !== STRUCT) return KINDS[kind]!.read(c);
    if (nullable && !follows(word(c))) return null;
    return readStruct(struct!);
  }

  return readStruct(root);
}
