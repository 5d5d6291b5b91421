// explain beyond the seeds: tagged fields (known and unknown, header too), nulls, nullable
// structs, int16/int32 prefixes, int64/float64/uuid values, record batches (plain and
// compressed), JSON output, the hex layout, and the errors.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeRequest, encodeResponse, newMessage } from '../../src/codec/by-key.js';
import { encodeRecordBatch } from '../../src/records/index.js';
import { KafkaWireError } from '../../src/errors.js';
import {
  buildExplainTree, explainFrame, flattenTree, formatExplainJson, formatExplainText, formatHexText, hexLayout,
  sampleFrame, sampleMessage, truncateDescription, type ExplainNode,
} from '../../src/explain/index.js';
import { formatHexHtml, formatTreeHtml, parseHexInput } from '../../src/explain/hex.js';
import { schemasDir } from './seeds.js';
import { haveDir } from '../helpers/shared.js';

const schemas = haveDir(schemasDir, 'descriptions from Kafka\'s schemas');

function lines(tree: Parameters<typeof formatExplainText>[0]): string[] {
  return formatExplainText(tree).trimEnd().split('\n');
}

function find(root: ExplainNode, name: string): ExplainNode {
  const n = flattenTree(root).find((x) => x.name === name);
  if (n === undefined) throw new Error(`no node ${name}`);
  return n;
}

describe('explain', () => {
  it('shows known and unknown tagged fields with their tag and size', () => {
    const body = newMessage(18, 'response', 3, {
      apiKeys: [{ apiKey: 0, minVersion: 0, maxVersion: 11 }],
      supportedFeatures: [{ name: 'x', minVersion: 1, maxVersion: 2 }],
      finalizedFeaturesEpoch: 5n,
      _unknownTaggedFields: { 9: new Uint8Array([1, 2, 3]) },
    } as any);
    const frame = encodeResponse(18, 3, { correlationId: 7 }, body);
    const tree = buildExplainTree(frame, { direction: 'response', apiKey: 18, apiVersion: 3 });
    const text = lines(tree);
    expect(text).toContain('+-- ResponseHeader v0 [0x0004, 4B] common response header');
    expect(text).toContain('    +-- tagged_fields uvarint = 3 [0x0016, 26B] number of tagged fields in this struct');
    expect(text).toContain('        +-- SupportedFeatures []SupportedFeatureKey = 1 element (tag 0, size 8) [0x0017, 10B]');
    expect(text).toContain('        |   +-- tag uvarint = 0 [0x0017, 1B]');
    expect(text).toContain('        |   +-- size uvarint = 8 [0x0018, 1B] bytes of the value that follow');
    expect(text).toContain('        +-- FinalizedFeaturesEpoch int64 = 5 (tag 1, size 8) [0x0021, 10B]');
    expect(text).toContain('        +-- unknown_tag_9 bytes = 0x010203 (tag 9, size 3) [0x002b, 5B] a tagged field this version does not define');
    const epoch = find(tree.root, 'FinalizedFeaturesEpoch');
    expect(epoch.value).toBe('5');
    expect(epoch.category).toBe('tagged_fields');
  });

  it('shows null strings, null arrays, a null client id and header tagged fields', () => {
    const body = sampleMessage(45, 'request', 0);
    body.topics[0].partitions[0].replicas = null;
    const frame = encodeRequest({
      requestApiKey: 45, requestApiVersion: 0, correlationId: 1, clientId: null,
      _unknownTaggedFields: { 7: new Uint8Array([0xaa]) },
    } as any, body);
    const text = lines(buildExplainTree(frame, { direction: 'request' }));
    expect(text).toContain('|   +-- client_id nullable_string = null (int16 len=-1) [0x000c, 2B] always a non-flexible int16-prefixed string');
    expect(text).toContain('|   +-- tagged_fields uvarint = 1 [0x000e, 4B] number of tagged fields in the header');
    expect(text).toContain('|       +-- unknown_tag_7 bytes = 0xaa (tag 7, size 1) [0x000f, 3B] a tagged field this version does not define');
    expect(text).toContain('    |       |       +-- Replicas []int32 = null [0x001d, 1B]');
    expect(text).toContain('    |       |       |   +-- length uvarint = 0 (compact, n+1) [0x001d, 1B] null array');
  });

  it('shows a null nullable struct by its marker, and null compact strings', () => {
    const frame = encodeResponse(68, 0, { correlationId: 1 }, newMessage(68, 'response', 0, { assignment: null, errorMessage: null }));
    const text = lines(buildExplainTree(frame, { direction: 'response', apiKey: 68, apiVersion: 0 }));
    expect(text).toContain('    +-- ErrorMessage string = null (compact, len+1=0) [0x000f, 1B]');
    expect(text).toContain('    +-- Assignment Assignment = null [0x0019, 1B]');
    expect(text).toContain('    |   +-- marker int8 = -1 [0x0019, 1B] nullable struct: -1 for null, 1 when the struct follows');
  });

  it('shows a present nullable struct with its marker first, and uuids', () => {
    const frame = sampleFrame(68, 'response', 0);
    const text = lines(buildExplainTree(frame, { direction: 'response', apiKey: 68, apiVersion: 0 }));
    expect(text).toContain('    +-- Assignment Assignment = struct [0x0019, 25B]');
    expect(text).toContain('    |   +-- marker int8 = 1 [0x0019, 1B] nullable struct: -1 for null, 1 when the struct follows');
    expect(text).toContain('    |   |       +-- TopicId uuid = AAAAAAAAAAAAAAAAAAAAAA [0x001b, 16B]');
  });

  it('shows int16/int32 prefixes of non-flexible versions, bytes and float64', () => {
    let frame = encodeRequest({ requestApiKey: 36, requestApiVersion: 1, correlationId: 1, clientId: 'c' }, { authBytes: new Uint8Array([1, 2, 3]) });
    expect(lines(buildExplainTree(frame, { direction: 'request' }))).toContain('    +-- AuthBytes bytes = 0x010203 (int32 len=3) [0x000f, 7B]');
    const body = sampleMessage(49, 'request', 0);
    body.entries[0].ops[0].value = 1.5;
    body.entries[0].entity[0].entityName = null;
    frame = encodeRequest({ requestApiKey: 49, requestApiVersion: 0, correlationId: 1, clientId: 'c' }, body);
    const text = lines(buildExplainTree(frame, { direction: 'request' }));
    expect(text).toContain('+-- RequestHeader v1 [0x0004, 11B] common request header');
    expect(text).toContain('    |   +-- length int32 = 1 [0x000f, 4B] one element follows');
    expect(text).toContain('    |       |       +-- EntityType string = "" (int16 len=0) [0x0017, 2B]');
    expect(text).toContain('    |       |       +-- EntityName string = null (int16 len=-1) [0x0019, 2B]');
    expect(text).toContain('    |               +-- Value float64 = 1.5 [0x0021, 8B]');
  });

  it('uses request header v0 for ControlledShutdown v0', () => {
    const text = lines(buildExplainTree(sampleFrame(7, 'request', 0), { direction: 'request' }));
    expect(text.slice(3, 7)).toEqual([
      '+-- RequestHeader v0 [0x0004, 8B] common request header',
      '|   +-- request_api_key int16 = 7 (ControlledShutdown) [0x0004, 2B] numeric id of the API being invoked',
      '|   +-- request_api_version int16 = 0 [0x0006, 2B] version of the API being invoked',
      '|   +-- correlation_id int32 = 0 [0x0008, 4B] echoed back by the broker in the response',
    ]);
  });

  it('expands records into RecordBatch and Record nodes, checking the CRC', () => {
    const batch = encodeRecordBatch({
      baseOffset: 10n, baseTimestamp: 1700000000000n,
      records: [{ key: 'k1', value: 'hello', headers: [{ key: 'h', value: 'v' }] }, { key: null, value: new Uint8Array([0, 1, 2]) }],
    });
    const gzip = encodeRecordBatch({ compression: 'gzip', baseTimestamp: 0n, records: [{ key: 'a', value: 'b' }] });
    const records = new Uint8Array(batch.length + gzip.length);
    records.set(batch);
    records.set(gzip, batch.length);
    const body = sampleMessage(0, 'request', 3);
    body.topicData[0].partitionData[0].records = records;
    const frame = encodeRequest({ requestApiKey: 0, requestApiVersion: 3, correlationId: 1, clientId: 'me' }, body);
    const tree = buildExplainTree(frame, { direction: 'request' });
    const text = lines(tree);
    expect(text).toContain('                    +-- Records records = 179 bytes (int32 len=179) [0x0026, 183B]');
    expect(text).toContain('                        +-- RecordBatch[0] v2 [0x002a, 89B] 2 records, compression none');
    expect(text.some((l) => /\+-- crc uint32 = 0x[0-9a-f]{8} \(CRC-32C ok\) \[0x003b, 4B\]/.test(l))).toBe(true);
    expect(text).toContain('                        |       |   +-- key bytes = "k1" (varint len=2) [0x006b, 3B]');
    expect(text).toContain('                        |       |           +-- key string = "h" (varint len=1) [0x0075, 2B]');
    expect(text).toContain('                        |           +-- key bytes = null (varint len=-1) [0x007d, 1B]');
    expect(text).toContain('                        |           +-- value bytes = 0x000102 (varint len=3) [0x007e, 4B]');
    expect(text).toContain('                        +-- RecordBatch[1] v2 [0x0083, 90B] 1 record, compression gzip');
    expect(text).toContain('                                    +-- Record[0] Record = struct [+0x0000, 9B]');
    const categories = new Set(hexLayout(frame, tree).rows.flatMap((r) => r.bytes.map((b) => b.category)));
    expect([...categories].sort()).toEqual(['Record', 'RecordBatch', 'frame', 'request body', 'rpc header']);

    // A corrupted batch still explains, with the CRC mismatch named.
    const bad = frame.slice();
    bad[0x002a + 61] ^= 0xff;
    const badText = formatExplainText(buildExplainTree(bad, { direction: 'request' }));
    expect(badText).toMatch(/crc uint32 = 0x[0-9a-f]{8} \(CRC-32C mismatch, computed 0x[0-9a-f]{8}\)/);
  });

  it('explains a legacy v1 message set', () => {
    // offset 0, size 24: crc, magic 1, attributes 0, timestamp 0, key null, value "hi"
    const message = new Uint8Array(12 + 24);
    const view = new DataView(message.buffer);
    view.setInt32(8, 24);
    view.setInt8(16, 1);
    view.setInt32(26, -1);
    view.setInt32(30, 2);
    message.set([0x68, 0x69], 34);
    const body = sampleMessage(0, 'request', 2);
    body.topicData[0].partitionData[0].records = message;
    const frame = encodeRequest({ requestApiKey: 0, requestApiVersion: 2, correlationId: 0, clientId: '' }, body);
    const text = formatExplainText(buildExplainTree(frame, { direction: 'request' }));
    expect(text).toContain('Message[0] v1');
    expect(text).toMatch(/crc uint32 = 0x00000000 \(CRC-32 mismatch, computed 0x[0-9a-f]{8}\)/);
    expect(text).toContain('key bytes = null (int32 len=-1)');
    expect(text).toContain('value bytes = "hi" (int32 len=2)');
  });

  it('leaves descriptions out without a schema directory, but keeps the fixed wording', () => {
    const tree = explainFrame(sampleFrame(45, 'request', 0), { direction: 'request' });
    expect(find(tree.root, 'TimeoutMs').description).toBeUndefined();
    expect(find(tree.root, 'correlation_id').description).toBe('echoed back by the broker in the response');
  });

  it.runIf(schemas)('takes descriptions from the schema directory, truncated in the text only', () => {
    const tree = explainFrame(sampleFrame(49, 'response', 1), { direction: 'response', apiKey: 49, apiVersion: 1, schemasDir });
    const throttle = find(tree.root, 'ThrottleTimeMs');
    expect(throttle.description!.length).toBeGreaterThan(78);
    expect(formatExplainText(tree)).toContain(`[0x0009, 4B] ${throttle.description!.slice(0, 75)}...\n`);
  });

  it('truncates descriptions longer than 78 characters to 75 and "..."', () => {
    expect(truncateDescription('x'.repeat(78))).toBe('x'.repeat(78));
    expect(truncateDescription('x'.repeat(79))).toBe('x'.repeat(75) + '...');
  });

  it('writes the tree as JSON', () => {
    const tree = explainFrame(sampleFrame(49, 'request', 1), { direction: 'request' });
    const json = JSON.parse(formatExplainJson(tree));
    expect(json).toMatchObject({ apiKey: 49, apiName: 'AlterClientQuotas', apiVersion: 1, direction: 'request', headerVersion: 2, size: 35 });
    expect(json.root.name).toBe('AlterClientQuotasRequest');
    expect(json.root.children.map((c: ExplainNode) => c.name)).toEqual(['Frame', 'RequestHeader', 'AlterClientQuotasRequest']);
    const remove = flattenTree(json.root).find((n) => n.schemaName === 'Remove')!;
    expect(remove).toMatchObject({ name: 'remove', path: 'entries[0].ops[0].remove', type: 'bool', value: false, display: 'false', offset: 0x1e, size: 1, category: 'request body' });
    // The library's tree keeps the text's labels; the JSON names fields as decode does.
    expect(flattenTree(tree.root).find((n) => n.schemaName === 'Remove')!.name).toBe('Remove');
  });

  it('needs the API key and version of a response, and checks them against a request', () => {
    const frame = sampleFrame(45, 'response', 0);
    expect(() => buildExplainTree(frame, { direction: 'response' })).toThrow(KafkaWireError);
    expect(() => buildExplainTree(sampleFrame(45, 'request', 0), { direction: 'request', apiKey: 46 })).toThrow(/API key 45, not 46/);
    expect(() => buildExplainTree(frame.subarray(0, 20), { direction: 'response', apiKey: 45, apiVersion: 0 })).toThrow(KafkaWireError);
  });
});

describe('hex layout', () => {
  const frame = sampleFrame(45, 'request', 0);
  const tree = buildExplainTree(frame, { direction: 'request' });
  const layout = hexLayout(frame, tree);

  it('puts 16 bytes in a row with the category of each byte', () => {
    expect(layout.rows.map((r) => r.offset)).toEqual([0, 16, 32]);
    expect(layout.rows[2].bytes).toHaveLength(2);
    const cats = layout.rows.flatMap((r) => r.bytes.map((b) => b.category));
    expect(cats.slice(0, 4)).toEqual(['frame', 'frame', 'frame', 'frame']);
    expect(cats.slice(4, 14).every((c) => c === 'rpc header')).toBe(true);
    expect(cats[14]).toBe('tagged_fields');
    expect(cats[15]).toBe('request body');
    expect(cats[33]).toBe('tagged_fields');
    expect(layout.nodes[layout.rows[0].bytes[0].node].name).toBe('size');
  });

  it('formats as text, with ANSI colours on request', () => {
    const plain = formatHexText(layout).split('\n');
    expect(plain[0]).toBe('byte layout (34 bytes, 16 bytes per row)');
    expect(plain[1]).toBe('      0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F');
    expect(plain[2]).toBe('0000  00 00 00 1e 00 2d 00 00 00 00 00 00 00 00 00 00');
    expect(plain[4]).toBe('0020  00 00');
    expect(formatHexText(layout)).not.toContain('\x1b[');
    expect(formatHexText(layout, { colour: true })).toContain('\x1b[36m2d\x1b[0m');
  });

  it('formats as HTML cells linked to tree lines', () => {
    const html = formatHexHtml(layout);
    expect(html.match(/class="b /g)).toHaveLength(34);
    expect(html).toContain('<span class="b cat-rpc-header" data-n="4" data-o="5" title="request_api_key int16 = 45 (AlterPartitionReassignments) [0x0004, 2B] numeric id of the API being invoked">2d</span>');
    const treeHtml = formatTreeHtml(tree);
    expect(treeHtml).toContain('data-n="4" data-o="4" data-s="2"><span class="draw">|   +-- </span>request_api_key int16 = 45');
  });

  it('parses pasted hex with spaces, newlines, 0x and separators', () => {
    expect(parseHexInput('00 0a\n0x1F:ff')).toEqual(new Uint8Array([0, 10, 0x1f, 0xff]));
    expect(parseHexInput('abc')).toBeNull();
  });
});
