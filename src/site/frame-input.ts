// What the explorer's decode page accepts: hex (spaces, newlines, 0x prefixes), Wireshark's
// "Copy as Hex Dump" text (offset, hex, ASCII columns), or raw bytes; holding one frame, several
// back to back, or a whole captured packet (its TCP payload is taken). No Node imports.
import { parseHexInput, tcpSegment, LINKTYPE_ETHERNET, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_RAW } from './library.js';

/** A hex dump line: an offset, then up to 16 bytes in pairs, then (after two spaces) ASCII. */
const DUMP_LINE = /^\s*[0-9a-fA-F]{4,8}[:\s]\s*((?:[0-9a-fA-F]{2}(?: (?! )|(?= {2})|\s*$)){1,16})/;

/** The bytes of Wireshark/tshark hex dump text, or null when the text is not one. */
export function parseHexDump(text: string): Uint8Array | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) return null;
  const out: number[] = [];
  for (const line of lines) {
    const m = DUMP_LINE.exec(line);
    if (m === null) return null;
    for (const pair of m[1].trim().split(' ')) out.push(parseInt(pair, 16));
  }
  return Uint8Array.from(out);
}

/** Text as bytes: a hex dump first (its offsets would read as data), then plain hex. */
export function parseFrameText(text: string): Uint8Array | null {
  return parseHexDump(text) ?? parseHexInput(text);
}

/** Whole frames exactly covering `bytes`, or null when the size prefixes do not line up. */
export function splitFrames(bytes: Uint8Array): Uint8Array[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) return null;
    const size = view.getInt32(at);
    if (size < 4 || at + 4 + size > bytes.length) return null;
    frames.push(bytes.subarray(at, at + 4 + size));
    at += 4 + size;
  }
  return frames.length > 0 ? frames : null;
}

/**
 * The frames in pasted bytes: back-to-back frames as they are, else a captured packet's TCP
 * payload split the same way, else the bytes as one (malformed) frame for the decoder to judge.
 */
export function framesOf(bytes: Uint8Array): { frames: Uint8Array[]; fromPacket: boolean } {
  const direct = splitFrames(bytes);
  if (direct !== null) return { frames: direct, fromPacket: false };
  for (const linkType of [LINKTYPE_ETHERNET, LINKTYPE_LINUX_SLL2, LINKTYPE_LINUX_SLL, LINKTYPE_RAW]) {
    const segment = tcpSegment(linkType, bytes);
    const frames = segment === null || segment.payload.length === 0 ? null : splitFrames(segment.payload);
    if (frames !== null) return { frames, fromPacket: true };
  }
  return { frames: [bytes], fromPacket: false };
}
