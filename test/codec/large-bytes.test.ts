// Bytes values of LARGE_BYTES or more skip the encode heap: emit leaves room for them and the
// facade copies each into the finished frame. Golden bytes built here field by field, on both
// writers, with large values at the top level, in array elements and inside tagged fields whose
// size prefix grows past one byte (emit then shifts the field, and its room with it).
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBodyFor, encodeBodyFor, encodeRequestFor } from '../../src/codec/by-definition.js';
import { LARGE_BYTES } from '../../src/codec/encode-buffers.js';
import { setCodegen } from '../../src/codec/generate.js';
import { MAX_VERSION, type ApiDef, type MessageDef } from '../../src/catalogue/schema.js';
import { encodeRequest, decodeRequest } from '../../src/index.js';

const ALL = [0, MAX_VERSION] as const;
const FLEXIBLE = [1, MAX_VERSION] as const;

const message: MessageDef = {
  name: 'BlobsRequest', apiKey: 32001, type: 'request', validVersions: [0, 1], flexibleVersions: FLEXIBLE,
  fields: [
    { name: 'small', schemaName: 'Small', type: 'bytes', versions: ALL },
    { name: 'big', schemaName: 'Big', type: 'bytes', versions: ALL, nullableVersions: ALL },
    { name: 'items', schemaName: 'Items', type: '[]Item', versions: ALL },
    { name: 'count', schemaName: 'Count', type: 'int32', versions: ALL },
    { name: 'taggedBig', schemaName: 'TaggedBig', type: 'bytes', versions: FLEXIBLE, taggedVersions: FLEXIBLE, tag: 0 },
    { name: 'taggedItem', schemaName: 'TaggedItem', type: 'Item', versions: FLEXIBLE, taggedVersions: FLEXIBLE, tag: 1 },
  ],
  structs: { Item: { name: 'Item', fields: [{ name: 'data', schemaName: 'Data', type: 'records', versions: ALL, nullableVersions: ALL }] } },
};

const pattern = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const be32 = (n: number) => hex(Uint8Array.of(n >>> 24, n >>> 16, n >>> 8, n));
function uvarint(n: number): string {
  const out: number[] = [];
  for (; n >= 0x80; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return hex(Uint8Array.from(out));
}
/** A bytes value with its length: int32 in v0, compact (length + 1) in v1; null as -1 / 0. */
const bytesField = (v: Uint8Array | null, version: number) =>
  v === null ? (version === 0 ? 'ffffffff' : '00') : (version === 0 ? be32(v.length) : uvarint(v.length + 1)) + hex(v);

const body = {
  small: pattern(3, 1),
  big: pattern(LARGE_BYTES + 476, 2),
  items: [{ data: pattern(LARGE_BYTES, 3) }, { data: pattern(10, 4) }, { data: null }, { data: pattern(3 * LARGE_BYTES, 5) }],
  count: 7,
  taggedBig: pattern(2 * LARGE_BYTES, 6),
  taggedItem: { data: pattern(LARGE_BYTES + 1, 7) },
};

function golden(version: number, v = body): string {
  const items = v.items.map((item) => bytesField(item.data, version) + (version === 0 ? '' : '00')).join('');
  let out = bytesField(v.small, version) + bytesField(v.big, version)
    + (version === 0 ? be32(v.items.length) : uvarint(v.items.length + 1)) + items + be32(v.count);
  if (version === 0) return out;
  const tagged = (tag: number, content: string) => uvarint(tag) + uvarint(content.length / 2) + content;
  out += uvarint(2) + tagged(0, bytesField(v.taggedBig, 1)) + tagged(1, bytesField(v.taggedItem.data, 1) + '00');
  return out;
}

describe.each([['generated code', undefined], ['interpreter', false]] as const)('large bytes values (%s)', (_name, codegen) => {
  afterAll(() => setCodegen(undefined));

  it.each([0, 1])('v%i: encodes to the golden bytes and decodes back', (version) => {
    setCodegen(codegen);
    const expected = version === 0 ? { ...body, taggedBig: new Uint8Array(0), taggedItem: { data: null } } : body;
    const encoded = encodeBodyFor(message, version, version === 0 ? expected : body);
    expect(hex(encoded)).toBe(golden(version));
    expect(decodeBodyFor(message, version, encoded)).toEqual(expected);
  });

  it('copies the values: changing an input afterwards leaves the frame as it was', () => {
    setCodegen(codegen);
    const big = pattern(5 * LARGE_BYTES, 9);
    const encoded = encodeBodyFor(message, 1, { ...body, big });
    const expected = golden(1, { ...body, big: big.slice() });
    big.fill(0);
    expect(hex(encoded)).toBe(expected);
  });

  it('a Produce request around a large batch: the frame of empty records with the batch in their place', () => {
    setCodegen(codegen);
    const records = pattern(200 * 1024, 11);
    const header = { requestApiKey: 0, requestApiVersion: 9, correlationId: 5, clientId: 'c' };
    const produce = (r: Uint8Array) => ({ transactionalId: null, acks: -1, timeoutMs: 100, topicData: [{ name: 't', partitionData: [{ index: 0, records: r }] }] });
    const frame = encodeRequest(header, produce(records));
    // Empty records (through the heap): their compact length byte is followed only by the
    // partition's, topic's and body's empty tagged sections.
    const empty = encodeRequest(header, produce(new Uint8Array(0)));
    const at = empty.length - 4;
    const rest = hex(empty.subarray(4, at)) + uvarint(records.length + 1) + hex(records) + hex(empty.subarray(at + 1));
    expect(hex(frame)).toBe(be32(rest.length / 2) + rest);
    expect((decodeRequest(frame).body as any).topicData[0].partitionData[0].records).toEqual(records);
  });
});

it('the API entry point frames large values the same way', () => {
  const api: ApiDef = { apiKey: 32001, name: 'Blobs', request: message as MessageDef<number, 'request'>, response: { ...message, name: 'BlobsResponse', type: 'response' } as MessageDef<number, 'response'> };
  const frame = encodeRequestFor(api, { requestApiKey: 32001, requestApiVersion: 1, correlationId: 1, clientId: null }, body);
  expect(hex(frame.subarray(frame.length - golden(1).length / 2))).toBe(golden(1));
  expect(new DataView(frame.buffer, frame.byteOffset).getInt32(0)).toBe(frame.length - 4);
});
