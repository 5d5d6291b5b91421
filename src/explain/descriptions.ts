// Field descriptions for explain: Kafka's schema "about" texts, read at run or build time from a
// schema directory and never stored in this repository. This module is browser-safe: it parses
// schema text it is given; descriptions-node.ts reads the files.
import { stripJsonComments } from '../catalogue/parse.js';

export { stripJsonComments };

/** message name → struct name (the message name for the top level) → field schema name → about. */
export type DescriptionTable = Record<string, Record<string, Record<string, string>>>;

export interface Descriptions {
  /** The about text of `field` in `struct` of `message`, whitespace collapsed, or undefined. */
  about(message: string, struct: string, field: string): string | undefined;
}

export const noDescriptions: Descriptions = { about: () => undefined };

export function descriptionsFrom(table: DescriptionTable): Descriptions {
  return {
    about(message, struct, field) {
      return table[message]?.[struct]?.[field];
    },
  };
}

/** Longest description printed in a tree line; longer ones keep their first 75 characters and "...". */
const DESCRIPTION_MAX = 78;

export function truncateDescription(text: string): string {
  return text.length > DESCRIPTION_MAX ? text.slice(0, DESCRIPTION_MAX - 3) + '...' : text;
}

/** The schema text as a page shows it: the leading licence comment dropped, the rest verbatim. */
export function schemaDisplayText(text: string): string {
  const brace = text.indexOf('{');
  return (brace >= 0 ? text.slice(brace) : text).replace(/\s+$/, '') + '\n';
}

interface SchemaField {
  name?: string;
  type?: string;
  about?: string;
  fields?: SchemaField[];
}

/** Adds one schema file's about texts to `table`; returns the message name. */
export function addSchemaText(table: DescriptionTable, text: string): string | undefined {
  const json = JSON.parse(stripJsonComments(text)) as {
    name?: string; fields?: SchemaField[]; commonStructs?: { name: string; fields?: SchemaField[] }[];
  };
  const message = json.name;
  if (typeof message !== 'string') return undefined;
  const structs: Record<string, Record<string, string>> = (table[message] ??= {});
  const visit = (structName: string, fields: SchemaField[] | undefined) => {
    if (!Array.isArray(fields)) return;
    const target = (structs[structName] ??= {});
    for (const f of fields) {
      if (typeof f.name !== 'string') continue;
      if (typeof f.about === 'string') target[f.name] = f.about.replace(/\s+/g, ' ').trim();
      if (Array.isArray(f.fields) && typeof f.type === 'string') {
        visit(f.type.startsWith('[]') ? f.type.slice(2) : f.type, f.fields);
      }
    }
  };
  visit(message, json.fields);
  for (const common of json.commonStructs ?? []) visit(common.name, common.fields);
  return message;
}
