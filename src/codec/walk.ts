// The order of the schema walk, said once. Four walks follow a plan's CompiledStruct tree: the
// interpreter's reader (read.ts) and writer (write.ts), the generated readers and writers
// (generate.ts, which walk it once to write their source) and explain's walker
// (explain/walker.ts). ORDER below makes every decision the plan can make (what a struct, a field,
// a value and a tagged entry consist of, and in what order); each walk gives only its steps (what
// a primitive, an array, a nullable struct's marker, a struct and a tagged section become for
// it). What is on the wire inside a step (a count, a marker, a tag) is kinds.ts's STRUCTURE; what
// a primitive value is, its KINDS row. What only the bytes can decide (whether a count or a
// marker says values follow, which index a tagged entry has) the steps decide with STRUCTURE:
// the generated code decides it at run time, so ORDER, walked once to write that code, cannot.
//
// The steps are called with the walk's context (`ctx`: its cursor, the value being written, where
// explain is) and, inside a struct, the struct's holder (`holder`: the object being read or
// written, the nodes or the source being built), so no walk allocates a closure per value here.
import { ARRAY, STRUCT, type CompiledField, type CompiledStruct } from './plan.js';

/**
 * What one walk does at each place ORDER reaches. C is the walk's context, H a struct's holder, R a
 * field's or value's result. The walks share ORDER's functions, so a process that runs several walks
 * shows V8 several step sets at each of ORDER's calls: each walk writes its steps in this order, so
 * that its object has the same shape as the others' (loading a step stays monomorphic; only its target varies).
 */
export interface WalkSteps<C, H, R> {
  /** A struct value: the walk's node around ORDER.struct. */
  struct(s: CompiledStruct, ctx: C): R;
  /** One of a struct's regular fields, in wire order: walks it (ORDER.field) and keeps its result in `holder`. */
  regularField(f: CompiledField, ctx: C, holder: H): void;
  /** After a struct's regular fields, before its tagged section (where the readers' objects are complete but for their tagged fields). */
  afterRegular(s: CompiledStruct, ctx: C, holder: H): void;
  /** A flexible struct's tagged section: its entry count, then per entry its tag, its index, and ORDER.taggedEntry. */
  taggedSection(s: CompiledStruct, ctx: C, holder: H): void;
  /** A tagged entry of a field this version knows (`known`: the entry's index as on the tape): walks it (ORDER.field) into `holder`. */
  taggedField(f: CompiledField, known: number, ctx: C, holder: H): void;
  /** A tagged entry this version does not know: its bytes. */
  unknownTag(tag: number, ctx: C, holder: H): void;
  /** An array field: its count, then, if the count follows, each element by ORDER.element. */
  array(f: CompiledField, ctx: C): R;
  /** A primitive value of `kind` (its row in kinds.ts); `f` is its field (an array's, for an element). */
  primitive(kind: number, nullable: boolean, f: CompiledField, ctx: C): R;
  /** A nullable struct value: its marker, then, if the marker says it follows, the struct (the step `struct`). */
  nullableStruct(s: CompiledStruct, f: CompiledField, ctx: C): R;
}

/**
 * The order, each decision once. Every walk calls these (never its own copy), also from inside its
 * steps: a struct's fields, an array's elements, a tagged entry's field. A mutable object, like
 * kinds.ts's tables, so that test/codec/walk.test.ts can change the order and see all four walks follow.
 */
export const ORDER = {
  /** A struct: its regular fields in wire order, then (only when flexible) its tagged section. */
  struct<C, H, R>(s: CompiledStruct, steps: WalkSteps<C, H, R>, ctx: C, holder: H): void {
    const regular = s.regular;
    for (let i = 0; i < regular.length; i++) steps.regularField(regular[i], ctx, holder);
    steps.afterRegular(s, ctx, holder);
    if (s.flexible) steps.taggedSection(s, ctx, holder);
  },

  /** A field: an array (its count and elements), or one value of its kind. */
  field<C, H, R>(f: CompiledField, steps: WalkSteps<C, H, R>, ctx: C): R {
    return f.kind === ARRAY ? steps.array(f, ctx) : ORDER.value(f.kind, f.nullable, f, steps, ctx);
  },

  /** An array's element: a value of the element kind, never nullable, its struct the field's. */
  element<C, H, R>(f: CompiledField, steps: WalkSteps<C, H, R>, ctx: C): R {
    return ORDER.value(f.elementKind, false, f, steps, ctx);
  },

  /** A value: a primitive; a nullable struct (its marker, then the struct); or a struct. */
  value<C, H, R>(kind: number, nullable: boolean, f: CompiledField, steps: WalkSteps<C, H, R>, ctx: C): R {
    if (kind !== STRUCT) return steps.primitive(kind, nullable, f, ctx);
    return nullable ? steps.nullableStruct(f.struct!, f, ctx) : steps.struct(f.struct!, ctx);
  },

  /** One tagged entry after its tag and index: the known field at that index (below 0: none, its bytes). */
  taggedEntry<C, H, R>(s: CompiledStruct, tag: number, known: number, steps: WalkSteps<C, H, R>, ctx: C, holder: H): void {
    if (known >= 0) steps.taggedField(s.tagged[known], known, ctx, holder);
    else steps.unknownTag(tag, ctx, holder);
  },
};
