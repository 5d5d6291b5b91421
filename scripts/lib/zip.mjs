// A small reader of zip archives (a jar is one), enough to take Kafka's message JSON out of a
// kafka-clients jar with Node alone: the central directory, stored and deflated entries. No
// zip64, no encryption: a jar that needs them is refused with a message saying so.

import zlib from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;

/**
 * The entries of the zip archive `data` whose names `wanted` accepts, as name -> contents.
 * `where` names the archive in errors.
 */
export function readZipEntries(data, wanted, where = 'zip') {
  const fail = (why) => { throw new Error(`${where}: ${why}`); };
  // The end record sits in the last 22 bytes plus a comment of at most 65535 bytes.
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) { end = i; break; }
  }
  if (end < 0) fail('no end of central directory (not a zip archive?)');
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  let at = data.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) fail('zip64 archives are not supported');
  if (at + size > end) fail('central directory outside the archive');

  const out = new Map();
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || data.readUInt32LE(at) !== CENTRAL_ENTRY) fail(`bad central directory entry ${n}`);
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const uncompressedSize = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localAt = data.readUInt32LE(at + 42);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/') || !wanted(name)) continue;
    if (flags & 1) fail(`${name} is encrypted`);
    if (localAt + 30 > data.length || data.readUInt32LE(localAt) !== LOCAL_ENTRY) fail(`${name}: bad local header`);
    // The local header's own name and extra lengths say where the data starts.
    const start = localAt + 30 + data.readUInt16LE(localAt + 26) + data.readUInt16LE(localAt + 28);
    if (start + compressedSize > data.length) fail(`${name}: data outside the archive`);
    const raw = data.subarray(start, start + compressedSize);
    let contents;
    if (method === 0) contents = Buffer.from(raw);
    else if (method === 8) contents = zlib.inflateRawSync(raw, { maxOutputLength: Math.max(uncompressedSize, 1) });
    else fail(`${name}: compression method ${method} is not supported`);
    if (contents.length !== uncompressedSize) fail(`${name}: ${contents.length} bytes, the directory says ${uncompressedSize}`);
    out.set(name, contents);
  }
  return out;
}
