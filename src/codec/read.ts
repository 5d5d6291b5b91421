// The interpreter's reader: turns a scan's tape into objects by walking a plan's CompiledStruct
// tree as data, where generated code may not run (generate.ts is the same walk as code). The
// order of the walk is walk.ts's ORDER; here are only its steps. Each primitive value is read by
// its kind's row in kinds.ts, each count, marker and tag by STRUCTURE there. Its state is one
// TapeCursor the caller passes in: nothing is kept between calls, so decodes nest.
import { BYTES, RECORDS, type CompiledField, type CompiledStruct } from './plan.js';
import { KINDS, STRUCTURE, type TapeCursor } from './kinds.js';
import { ORDER, type WalkSteps } from './walk.js';

export type { TapeCursor } from './kinds.js';

/** Builds root struct `root` from the tape at `c.t`, and leaves `c.t` where it stopped. */
export function interpretRoot(c: TapeCursor, root: CompiledStruct): any {
  return reading.struct(root, c);
}

/** A records value waits for the hook with its holder, once the holder is complete (as generate.ts has it). */
function noteRecords(c: TapeCursor, holder: any, at: string | number): void {
  if (holder[at] !== null) c.later!.push(holder, at, holder[at]);
}

/** The reader's steps: the context is the cursor, a struct's holder the object being built. */
const reading: WalkSteps<TapeCursor, any, any> = {
  struct(s: CompiledStruct, c: TapeCursor): any {
    const o = s.create();
    ORDER.struct(s, reading, c, o);
    return o;
  },

  regularField(f: CompiledField, c: TapeCursor, o: any): void {
    o[f.name] = ORDER.field(f, reading, c);
  },

  afterRegular(s: CompiledStruct, c: TapeCursor, o: any): void {
    if (c.later !== undefined) for (const f of s.regular) if (f.kind === RECORDS) noteRecords(c, o, f.name);
  },

  taggedSection(s: CompiledStruct, c: TapeCursor, o: any): void {
    for (let n = STRUCTURE.word(c), i = 0; i < n; i++) {
      const tag = KINDS[STRUCTURE.tagKind]!.read(c) as number;
      ORDER.taggedEntry(s, tag, STRUCTURE.word(c), reading, c, o);
    }
  },

  taggedField(f: CompiledField, _known: number, c: TapeCursor, o: any): void {
    o[f.name] = ORDER.field(f, reading, c);
    if (c.later !== undefined && f.kind === RECORDS) noteRecords(c, o, f.name);
  },

  unknownTag(tag: number, c: TapeCursor, o: any): void {
    // An unknown tag's value is its bytes: an offset and a length, as a bytes value's.
    (o._unknownTaggedFields ??= {})[tag] = KINDS[BYTES]!.read(c);
  },

  array(f: CompiledField, c: TapeCursor): any {
    const count = STRUCTURE.word(c);
    if (!STRUCTURE.follows(count)) return null;
    const items: any[] = [];
    for (let i = 0; i < count; i++) items.push(ORDER.element(f, reading, c));
    if (c.later !== undefined && f.elementKind === RECORDS) items.forEach((_, i) => noteRecords(c, items, i));
    return items;
  },

  primitive(kind: number, _nullable: boolean, _f: CompiledField, c: TapeCursor): any {
    return KINDS[kind]!.read(c);
  },

  nullableStruct(s: CompiledStruct, _f: CompiledField, c: TapeCursor): any {
    return STRUCTURE.follows(STRUCTURE.word(c)) ? reading.struct(s, c) : null;
  },
};
