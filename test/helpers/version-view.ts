// One message version as plain data: the fields it has (depth first), each with its type,
// nullability, tag, default, flexibility and mapKey flag at that version, and the fields it lacks
// that are ignorable (a value for one is dropped there rather than refused: the only version
// "ignorable" changes anything in). Two schema sets describe a version alike exactly when their
// views are equal, however their JSON writes the ranges; the schema pipeline's test compares
// sets with it.
import { inVersions, type FieldDef, type MessageDef } from '../../src/codec/schema.js';

export interface FieldView {
  name: string;
  type: string;
  nullable: boolean;
  tag: number | null;
  default: string | null;
  flexible: boolean;
  mapKey: boolean;
  fields?: StructView;
}

export interface StructView {
  present: FieldView[];
  /** Fields of the struct this version lacks and drops a value for rather than refusing it. */
  ignorableAbsent: string[];
}

export interface VersionView {
  flexible: boolean;
  fields: StructView;
}

function fieldsAt(message: MessageDef, fields: readonly FieldDef[], version: number, flexible: boolean): StructView {
  const out: FieldView[] = [];
  const ignorableAbsent: string[] = [];
  for (const f of fields) {
    if (!inVersions(f.versions, version)) {
      if (f.ignorable) ignorableAbsent.push(f.schemaName);
      continue;
    }
    const element = f.type.startsWith('[]') ? f.type.slice(2) : f.type;
    const struct = message.structs[element];
    const tagged = inVersions(f.taggedVersions, version);
    const view: FieldView = {
      name: f.schemaName,
      type: f.type,
      nullable: inVersions(f.nullableVersions, version),
      tag: tagged ? f.tag! : null,
      default: f.default === undefined ? null : String(f.default),
      flexible: f.flexibleVersions === undefined ? flexible : inVersions(f.flexibleVersions, version),
      mapKey: f.mapKey === true,
    };
    if (struct !== undefined) view.fields = fieldsAt(message, struct.fields, version, flexible);
    out.push(view);
  }
  return { present: out, ignorableAbsent };
}

export function versionView(message: MessageDef, version: number): VersionView {
  const flexible = inVersions(message.flexibleVersions, version);
  return { flexible, fields: fieldsAt(message, message.fields, version, flexible) };
}
