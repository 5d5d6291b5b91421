// Golden frames of the made-up Gizmo API (key 1000, test/fixtures/schemas), computed by hand:
// one comment per field says what its bytes are.
import { fromHex } from '../../src/text.js';

export const GIZMO = 1000;

/** Hex from commented parts (whitespace ignored). */
function hex(...parts: string[]): Uint8Array {
  const bytes = fromHex(parts.join('').replace(/\s+/g, ''));
  if (bytes === null) throw new Error('bad hex in a golden frame');
  return bytes;
}

export const gizmoV1Header = { requestApiKey: GIZMO, requestApiVersion: 1, correlationId: 7, clientId: 'c' };
export const gizmoV1Body = {
  flag: true, tiny: -3, small: 300, port: 65535, count: -2, size: 4000000000, offset: 1n << 40n, ratio: 1.5,
  name: 'ab', label: null, blob: null, id: 'AAECAwQFBgcICQoLDA0ODw', batches: null, numbers: [1, 4294967295],
  items: [{ key: 'k', weights: [0.25], inner: { depth: 2 } }], extra: { note: 'n' }, hint: 9, side: { level: 5 }, comment: null,
};
export const gizmoV1Frame = hex(
  '00000068', // size: 104 bytes follow
  '03e8 0001 00000007', // header v2 (flexible): api key 1000, version 1, correlation id 7
  '0001 63 00', // client id "c" (int16 length even in header v2), no header tagged fields
  '01', // flag true
  'fd', // tiny -3 (int8)
  '012c', // small 300 (int16)
  'ffff', // port 65535 (uint16)
  'fffffffe', // count -2 (int32)
  'ee6b2800', // size 4000000000 (uint32)
  '0000010000000000', // offset 2^40 (int64)
  '3ff8000000000000', // ratio 1.5 (float64)
  '03 6162', // name "ab": compact length 2+1
  '00', // label null: compact length 0
  '00', // blob null (nullable from v1)
  '000102030405060708090a0b0c0d0e0f', // id (uuid, v1+)
  '00', // batches null (records, compact)
  '03 00000001 ffffffff', // numbers [1, 4294967295]: compact count 2+1, uint32 each
  '02', // items: one element
  '02 6b', //   key "k"
  '02 3fd0000000000000', //   weights [0.25]
  '0002 00', //   inner: depth 2 (uint16), no tagged fields
  '00', //   item: no tagged fields
  '01 02 6e 00', // extra present (int8 1): note "n", no tagged fields
  '02', // two tagged fields (comment is at its default null, so left out)
  '00 04 00000009', //   tag 0 hint 9: 4 bytes
  '01 02 05 00', //   tag 1 side: 2 bytes, level 5 and no tagged fields
);

export const gizmoV0Header = { requestApiKey: GIZMO, requestApiVersion: 0, correlationId: 1, clientId: null };
export const gizmoV0Body = {
  flag: false, tiny: 127, small: -1, port: 1, count: 3, size: 0x80000000, offset: -2n, ratio: -0,
  name: '', label: 'L', blob: Uint8Array.of(0xab), batches: null, numbers: [], items: [{ key: '', weights: [], inner: { depth: 65535 } }],
};
export const gizmoV0Frame = hex(
  '00000046', // size: 70 bytes follow
  '03e8 0000 00000001 ffff', // header v1: api key 1000, version 0, correlation id 1, client id null
  '00', // flag false
  '7f', // tiny 127
  'ffff', // small -1
  '0001', // port 1
  '00000003', // count 3
  '80000000', // size 2^31 (uint32, above int32's range)
  'fffffffffffffffe', // offset -2
  '8000000000000000', // ratio -0
  '0000', // name "" (int16 length)
  '0001 4c', // label "L"
  '00000001 ab', // blob (int32 length; not nullable in v0)
  'ffffffff', // batches null (int32 length -1)
  '00000000', // numbers []: int32 count
  '00000001', // items: one element
  '0000', //   key ""
  '00000000', //   weights []
  'ffff', //   inner: depth 65535
);

export const gizmoV1Response = {
  throttleTimeMs: 0, errorCode: 0, tail: 443,
  results: [{ value: 4294967295, score: Infinity, owner: null }, { value: 0, score: 2, owner: { nodeId: 1 } }],
};
export const gizmoV1ResponseFrame = hex(
  '00000032', // size: 50 bytes follow
  '00000002 00', // header v1: correlation id 2, no tagged fields
  '00000000', // throttle time 0
  '0000', // error code 0
  '03', // results: two elements
  'ffffffff 7ff0000000000000 ff 00', //   value 4294967295, score Infinity, owner null (int8 -1), no tagged fields
  '00000000 4000000000000000 01 00000001 00 00', //   value 0, score 2, owner present: node id 1, tags; tags
  '01 00 02 01bb', // one tagged field: tag 0 tail 443 (uint16), 2 bytes
);
