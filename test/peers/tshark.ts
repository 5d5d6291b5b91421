// Test helper: runs tshark over a capture and parses its PDML output (the full dissection tree,
// in document order, with each field's name, displayed value, raw value, offset and length).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peer } from '../helpers/peer.js';

export interface PdmlNode {
  /** "proto" or "field". */
  tag: string;
  name: string;
  show: string;
  showname: string;
  /** Raw bytes in hex, when tshark gives them. */
  value: string;
  pos: number;
  size: number;
  /** Hidden fields (hide="yes"), e.g. duplicates and lengths Wireshark keeps for filtering only. */
  hidden: boolean;
  children: PdmlNode[];
}

export interface PdmlPacket {
  /** Frame number, 1-based. */
  num: number;
  protos: PdmlNode[];
}

export interface TsharkInfo {
  ok: boolean;
  version: string;
  reason?: string;
}

let info: TsharkInfo | undefined;

/** Whether tshark runs, and its version ("4.0.17"). */
export function tsharkInfo(): TsharkInfo {
  if (info !== undefined) return info;
  try {
    const out = execFileSync('tshark', ['-v'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const m = /TShark \(Wireshark\) (\d+\.\d+\.\d+)/.exec(out);
    info = { ok: true, version: m?.[1] ?? 'unknown' };
  } catch (error) {
    info = { ok: false, version: '', reason: (error as Error).message.split('\n')[0] };
    peer(`tshark (${info.reason})`, false, 'apt-get install tshark');
  }
  return info;
}

/** Compares dotted versions: negative, zero or positive like a sort comparator. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? whole;
  });
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([\w.:-]+)="([^"]*)"/g;
  for (let m; (m = re.exec(text)) !== null;) out[m[1]!] = unescapeXml(m[2]!);
  return out;
}

/** Parses tshark's PDML into packets of proto trees. */
export function parsePdml(xml: string): PdmlPacket[] {
  const packets: PdmlPacket[] = [];
  const re = /<(\/?)(packet|proto|field)\b((?:[^>"]|"[^"]*")*?)(\/?)>/g;
  let packet: PdmlPacket | undefined;
  const stack: PdmlNode[] = [];
  for (let m; (m = re.exec(xml)) !== null;) {
    const [, closing, tag, attrText, selfClosing] = m;
    if (tag === 'packet') {
      if (closing) { packets.push(packet!); packet = undefined; } else packet = { num: 0, protos: [] };
      stack.length = 0;
      continue;
    }
    if (closing) { stack.pop(); continue; }
    const a = attributes(attrText!);
    const node: PdmlNode = {
      tag: tag!, name: a.name ?? '', show: a.show ?? '', showname: a.showname ?? '', value: a.value ?? '',
      pos: Number(a.pos ?? -1), size: Number(a.size ?? -1), hidden: a.hide === 'yes', children: [],
    };
    if (stack.length === 0) packet!.protos.push(node);
    else stack[stack.length - 1]!.children.push(node);
    if (node.name === 'num' && stack.length > 0 && stack[0]!.name === 'geninfo') packet!.num = Number(node.show);
    if (!selfClosing) stack.push(node);
  }
  return packets;
}

/** Every node of the trees, depth first, in document order. */
export function* walk(nodes: PdmlNode[]): Generator<PdmlNode> {
  for (const n of nodes) {
    yield n;
    yield* walk(n.children);
  }
}

/** Runs tshark over `pcap` and returns the parsed dissection of every packet. */
export function dissect(pcap: Uint8Array, extraArgs: string[] = []): PdmlPacket[] {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-tshark-'));
  const file = join(dir, 'capture.pcap');
  try {
    writeFileSync(file, pcap);
    const result = spawnSync('tshark', ['-n', '-r', file, '-T', 'pdml', ...extraArgs], {
      encoding: 'utf8', maxBuffer: 1 << 30, timeout: 300_000,
    });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`tshark exited with ${result.status}: ${result.stderr}`);
    return parsePdml(result.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Expert info severities (epan/proto.h: PI_CHAT 0x00200000 … PI_ERROR 0x00800000).
export const PI_NOTE = 0x00400000;
export const PI_WARN = 0x00600000;
export const PI_ERROR = 0x00800000;

export interface ExpertInfo {
  severity: number;
  message: string;
  /** The field the expert info is attached to, e.g. "kafka.bad_array_length". */
  field: string;
}

/** Expert infos in `nodes`, plus a pseudo-entry for each "_ws.malformed" proto. */
export function expertInfos(nodes: PdmlNode[]): ExpertInfo[] {
  const out: ExpertInfo[] = [];
  for (const n of walk(nodes)) {
    if (n.name === '_ws.malformed') out.push({ severity: PI_ERROR, message: n.showname || 'malformed', field: '_ws.malformed' });
    if (n.name !== '_ws.expert') continue;
    let severity = 0;
    let message = n.showname;
    let field = '';
    for (const c of n.children) {
      if (c.name === '_ws.expert.severity') severity = Number(c.show);
      else if (c.name === '_ws.expert.message') message = c.show;
      else if (c.name !== '_ws.expert.group') field = c.name;
    }
    out.push({ severity, message, field });
  }
  return out;
}
