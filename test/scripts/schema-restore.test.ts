// The schema pipeline's pieces on made-up inputs: merging two releases' schemas by version (each
// version described exactly as the side it comes from describes it, checked version by version
// through the one parser), leaving out an unstable version, refusing what no range can say; and
// the zip reader that takes the JSON out of a jar.
import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { mergeSchemas } from '../../scripts/lib/restore.mjs';
import { readZipEntries } from '../../scripts/lib/zip.mjs';
import { parseMessage } from '../../src/catalogue/parse.js';
import { headerVersionFor } from '../../src/codec/plan.js';
import { versionView, type StructView, type VersionView } from '../helpers/version-view.js';
import type { MessageDef } from '../../src/codec/schema.js';

type Json = Record<string, any>;
const clone = (x: Json): Json => JSON.parse(JSON.stringify(x));

// An older release with v0-4 and a newer one that removed v0-2 (and its field Legacy), changed
// Note's nullability from v3 on in a way both still say, and added tagged Extra in v5.
const older: Json = {
  apiKey: 1000, type: 'request', name: 'ThingRequest', validVersions: '0-4', flexibleVersions: '3+',
  fields: [
    { name: 'Id', type: 'int32', versions: '0+' },
    { name: 'Legacy', type: 'string', versions: '0-1', ignorable: true },
    { name: 'Epoch', type: 'int32', versions: '3+', default: '-1' },
    { name: 'Stamp', type: 'int64', versions: '1-2', ignorable: true },
    { name: 'Note', type: 'string', versions: '1+', nullableVersions: '1+' },
    { name: 'Items', type: '[]Item', versions: '0+', fields: [
      { name: 'Key', type: 'string', versions: '0+' },
      { name: 'Weight', type: 'int16', versions: '2+', ignorable: true },
    ] },
  ],
};
const newer: Json = {
  apiKey: 1000, type: 'request', name: 'ThingRequest', validVersions: '3-5', flexibleVersions: '3+', deprecatedVersions: '0-3',
  fields: [
    { name: 'Id', type: 'int32', versions: '0+' },
    { name: 'Epoch', type: 'int32', versions: '3+', default: '-1' },
    { name: 'Note', type: 'string', versions: '1+', nullableVersions: '3+' },
    { name: 'Items', type: '[]Item', versions: '0+', fields: [
      { name: 'Key', type: 'string', versions: '0+' },
      { name: 'Weight', type: 'int16', versions: '2+' },
    ] },
    { name: 'Extra', type: 'int32', versions: '5+', taggedVersions: '5+', tag: 0 },
  ],
};

/**
 * `view` without the absent fields `reference` does not have at all: a merged schema holds the
 * fields of both releases, and a field a release never had is refused there, ignorable or not.
 */
function asKnownTo(view: VersionView, reference: MessageDef): VersionView {
  const names = new Set([...reference.fields, ...Object.values(reference.structs).flatMap((s) => s.fields)].map((f) => f.schemaName));
  const struct = (s: StructView): StructView => ({
    present: s.present.map((f) => (f.fields ? { ...f, fields: struct(f.fields) } : f)),
    ignorableAbsent: s.ignorableAbsent.filter((n) => names.has(n)),
  });
  return { flexible: view.flexible, fields: struct(view.fields) };
}

describe('mergeSchemas', () => {
  it('describes each restored version as the older release and each kept one as the newer', () => {
    const merged = parseMessage(mergeSchemas(clone(older), clone(newer), [0, 1, 2], [3, 4, 5], 'ThingRequest'));
    const a = parseMessage(older);
    const b = parseMessage(newer);
    expect(merged.validVersions).toEqual([0, 5]);
    for (const v of [0, 1, 2]) expect(asKnownTo(versionView(merged, v), a), `v${v}`).toEqual(versionView(a, v));
    for (const v of [3, 4, 5]) expect(asKnownTo(versionView(merged, v), b), `v${v}`).toEqual(versionView(b, v));
    expect(merged.deprecatedVersions).toEqual([0, 3]);
    // Fields in the older file's order, Epoch before Stamp, though no version has both.
    expect(merged.fields.map((f) => f.schemaName)).toEqual(['Id', 'Legacy', 'Epoch', 'Stamp', 'Note', 'Items', 'Extra']);
  });

  it('keeps "ignorable" where it matters: the older flag for fields the restored versions lack', () => {
    const merged = mergeSchemas(clone(older), clone(newer), [0, 1, 2], [3, 4, 5], 'ThingRequest');
    const field = (name: string) => merged.fields.find((f: Json) => f.name === name);
    expect(field('Legacy').ignorable).toBe(true); // absent from v2-5: its own file's flag
    expect(field('Stamp').ignorable).toBe(true);
    const weight = field('Items').fields.find((f: Json) => f.name === 'Weight');
    expect(weight.ignorable).toBe(true); // v0-1 lack it, and the older file (which has them) says ignorable
    expect(field('Id').ignorable).toBeUndefined(); // in every version: nothing to ignore
  });

  it('writes the newer file\'s ranges where they still say the same', () => {
    const merged = mergeSchemas(clone(older), clone(newer), [0, 1, 2], [3, 4, 5], 'ThingRequest');
    const field = (name: string) => merged.fields.find((f: Json) => f.name === name);
    expect(merged.flexibleVersions).toBe('3+');
    expect(field('Id').versions).toBe('0+');
    expect(field('Note').nullableVersions).toBe('1+'); // 1-2 from the older, 3-5 from the newer: the older's text says both
    expect(field('Legacy').versions).toBe('0-1');
  });

  it('leaves out an unstable version with nothing older to add', () => {
    const stable = parseMessage(mergeSchemas(null, clone(newer), [], [3, 4], 'ThingRequest'));
    expect(stable.validVersions).toEqual([3, 4]);
    expect(stable.fields.map((f) => f.schemaName)).not.toContain('Extra');
    for (const v of [3, 4]) expect(versionView(stable, v)).toEqual(versionView(parseMessage(newer), v));
  });

  it('refuses what a Kafka-format range cannot say', () => {
    const changed = (f: (n: Json) => void) => {
      const n = clone(newer);
      f(n);
      return () => mergeSchemas(clone(older), n, [0, 1, 2], [3, 4, 5], 'ThingRequest');
    };
    expect(changed((n) => { n.fields[0].type = 'int64'; })).toThrow(/ThingRequest\.Id: type int32 became int64/);
    expect(changed((n) => { n.fields[0].default = '5'; })).toThrow(/ThingRequest\.Id: default undefined became "5"/);
    // Nullable in v1-2 (older) and v5 (newer) but not v3-4: a gap.
    expect(changed((n) => { n.fields[2].nullableVersions = '5+'; })).toThrow(/Note nullableVersions: versions 1,2,5 are not one range/);
    // Items' fields swapped: the two releases order them differently.
    expect(changed((n) => { n.fields[3].fields.reverse(); n.fields[3].fields[0].versions = '0+'; })).toThrow(/order this field differently/);
  });

  it('carries "headerVersions" over the restored versions, by the built-in rule where the older file has none', () => {
    const mapped = clone(newer);
    mapped.headerVersions = { '0-2': '1', '3-4': '2', '5+': '3' };
    const merged = mergeSchemas(clone(older), mapped, [0, 1, 2], [3, 4, 5], 'ThingRequest');
    expect(merged.headerVersions).toEqual({ '0-2': '1', '3-4': '2', '5+': '3' });
    const message = parseMessage(merged);
    expect([0, 1, 2, 3, 4, 5].map((v) => headerVersionFor(message, v))).toEqual([1, 1, 1, 2, 2, 3]);
  });
});

describe('readZipEntries', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const zip = zipSync({
    'common/message/': {},
    'common/message/A.json': [text('{"a": 1}'), { level: 0 }],
    'common/message/B.json': [text('{"b": "' + 'x'.repeat(5000) + '"}'), { level: 9 }],
    'META-INF/MANIFEST.MF': text('Manifest-Version: 1.0\n'),
  });

  it('reads stored and deflated entries that the filter wants, and no others', () => {
    const entries = readZipEntries(Buffer.from(zip), (n: string) => n.startsWith('common/message/'), 'test.zip');
    expect([...entries.keys()].sort()).toEqual(['common/message/A.json', 'common/message/B.json']);
    expect(entries.get('common/message/A.json')!.toString()).toBe('{"a": 1}');
    expect(entries.get('common/message/B.json')!.toString()).toBe('{"b": "' + 'x'.repeat(5000) + '"}');
  });

  it('refuses what is not a zip, or a cut one, with the archive\'s name', () => {
    expect(() => readZipEntries(Buffer.from('not a zip at all, not even close'), () => true, 'x.jar')).toThrow(/x\.jar: no end of central directory/);
    const cut = Buffer.from(zip);
    cut.writeUInt32LE(cut.length, cut.length - 22 + 16); // the central directory's offset past the end
    expect(() => readZipEntries(cut, () => true, 'cut.jar')).toThrow(/cut\.jar: central directory outside the archive/);
  });
});
