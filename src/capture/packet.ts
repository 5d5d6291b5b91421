// From a captured packet's link-layer bytes to its TCP segment: Ethernet (with VLAN tags), Linux
// cooked v1 and v2, raw IPv4/IPv6 and BSD loopback; IPv4 (options, padding) and IPv6 (extension
// headers). Anything that is not an unfragmented TCP segment is left out (null).

export const LINKTYPE_NULL = 0;
export const LINKTYPE_ETHERNET = 1;
export const LINKTYPE_RAW = 101;
export const LINKTYPE_LOOP = 108;
export const LINKTYPE_LINUX_SLL = 113;
export const LINKTYPE_IPV4 = 228;
export const LINKTYPE_IPV6 = 229;
export const LINKTYPE_LINUX_SLL2 = 276;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const ETHERTYPE_VLAN = [0x8100, 0x88a8, 0x9100];
/** AF_INET6 as Linux, the BSDs and macOS number it (BSD loopback headers carry the sender's). */
const AF_INET = 2;
const AF_INET6 = [10, 24, 28, 30];

export const TCP_FIN = 0x01;
export const TCP_SYN = 0x02;
export const TCP_RST = 0x04;
export const TCP_ACK = 0x10;

export interface TcpSegment {
  /** Source and destination as "IP:PORT" ("[IPv6]:PORT" for IPv6). */
  source: string;
  destination: string;
  seq: number;
  ack: number;
  flags: number;
  payload: Uint8Array;
}

/** The TCP segment in a packet of this link type, or null for anything else. */
export function tcpSegment(linkType: number, data: Uint8Array): TcpSegment | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (linkType) {
    case LINKTYPE_ETHERNET: {
      let at = 12;
      if (data.length < 14) return null;
      let type = view.getUint16(at);
      while (ETHERTYPE_VLAN.includes(type) && at + 6 <= data.length) {
        at += 4;
        type = view.getUint16(at);
      }
      return byEthertype(type, data, view, at + 2);
    }
    case LINKTYPE_LINUX_SLL:
      return data.length < 16 ? null : byEthertype(view.getUint16(14), data, view, 16);
    case LINKTYPE_LINUX_SLL2:
      return data.length < 20 ? null : byEthertype(view.getUint16(0), data, view, 20);
    case LINKTYPE_NULL:
    case LINKTYPE_LOOP: {
      if (data.length < 4) return null;
      // LINKTYPE_NULL's family is in the capturing host's byte order: take whichever reading is small.
      const family = linkType === LINKTYPE_LOOP ? view.getUint32(0) : Math.min(view.getUint32(0, true), view.getUint32(0, false));
      if (family === AF_INET) return ipv4(data, view, 4);
      return AF_INET6.includes(family) ? ipv6(data, view, 4) : null;
    }
    case LINKTYPE_RAW:
    case LINKTYPE_IPV4:
    case LINKTYPE_IPV6:
      return ip(data, view, 0);
    default:
      return null;
  }
}

function byEthertype(type: number, data: Uint8Array, view: DataView, at: number): TcpSegment | null {
  if (type === ETHERTYPE_IPV4) return ipv4(data, view, at);
  return type === ETHERTYPE_IPV6 ? ipv6(data, view, at) : null;
}

function ip(data: Uint8Array, view: DataView, at: number): TcpSegment | null {
  if (at >= data.length) return null;
  const version = data[at] >> 4;
  return version === 4 ? ipv4(data, view, at) : version === 6 ? ipv6(data, view, at) : null;
}

function ipv4(data: Uint8Array, view: DataView, at: number): TcpSegment | null {
  if (at + 20 > data.length || data[at] >> 4 !== 4 || data[at + 9] !== 6) return null;
  const headerLength = (data[at] & 0x0f) * 4;
  // Fragments (more-fragments flag or an offset) carry no whole segment.
  if ((view.getUint16(at + 6) & 0x3fff) !== 0 || headerLength < 20) return null;
  // The total length trims link-layer padding; 0 means TCP segmentation offload left it unset.
  const total = view.getUint16(at + 2);
  const end = total === 0 ? data.length : Math.min(data.length, at + total);
  const source = `${data[at + 12]}.${data[at + 13]}.${data[at + 14]}.${data[at + 15]}`;
  const destination = `${data[at + 16]}.${data[at + 17]}.${data[at + 18]}.${data[at + 19]}`;
  return tcp(data, view, at + headerLength, end, source, destination);
}

const IPV6_EXTENSIONS = [0, 43, 60];
const IPV6_FRAGMENT = 44;

function ipv6(data: Uint8Array, view: DataView, at: number): TcpSegment | null {
  if (at + 40 > data.length || data[at] >> 4 !== 6) return null;
  const payloadLength = view.getUint16(at + 4);
  const end = payloadLength === 0 ? data.length : Math.min(data.length, at + 40 + payloadLength);
  const source = `[${ipv6Text(data, at + 8)}]`;
  const destination = `[${ipv6Text(data, at + 24)}]`;
  let next = data[at + 6];
  let offset = at + 40;
  while (IPV6_EXTENSIONS.includes(next)) {
    if (offset + 8 > end) return null;
    next = data[offset];
    offset += (data[offset + 1] + 1) * 8;
  }
  if (next === IPV6_FRAGMENT || next !== 6) return null;
  return tcp(data, view, offset, end, source, destination);
}

/** RFC 5952 text: lowercase, leading zeros dropped, the longest run of two or more zero groups as "::". */
export function ipv6Text(data: Uint8Array, at: number): string {
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push((data[at + 2 * i] << 8) | data[at + 2 * i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) { bestStart = i; bestLength = j - i; }
    i = j;
  }
  const hex = (from: number, to: number) => groups.slice(from, to).map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

function tcp(data: Uint8Array, view: DataView, at: number, end: number, source: string, destination: string): TcpSegment | null {
  if (at + 20 > end) return null;
  const headerLength = (data[at + 12] >> 4) * 4;
  if (headerLength < 20 || at + headerLength > end) return null;
  return {
    source: `${source}:${view.getUint16(at)}`,
    destination: `${destination}:${view.getUint16(at + 2)}`,
    seq: view.getUint32(at + 4),
    ack: view.getUint32(at + 8),
    flags: data[at + 13],
    payload: data.subarray(at + headerLength, end),
  };
}
