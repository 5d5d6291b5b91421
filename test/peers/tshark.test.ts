// Independent check of our bytes: Wireshark's Kafka dissector, run through tshark.
//
// We encode requests and responses with kafka-wire, put them on one TCP conversation in a pcap
// file written by hand (test/peers/pcap.ts: Ethernet/IPv4/TCP around each frame, 127.0.0.1:9092,
// requests client→server and responses server→client with correct sequence numbers), run tshark
// once per capture (-T pdml) and check what the dissector made of every frame:
//   - the header: api key, version, correlation id, client id; responses matched to their request;
//   - no expert info of warning severity or worse, no malformed packet, the whole frame dissected;
//   - every value the dissector shows, in order, is one of the values we encoded, in wire order
//     (so the dissector walked our bytes field by field where we did), and every string we
//     encoded was shown; unknown tagged fields come back with their tag and bytes;
//   - records: the RecordBatch/MessageSet CRC the dissector reads is the one we computed;
//   - for curated scenarios, named dissector fields against explicit expected values.
// The sweep covers every API key and version Wireshark 4.0's dissector knows, in both directions,
// with distinct non-default values everywhere (several array elements, nulls where nullable,
// tagged fields and unknown tags in flexible versions). Known dissector bugs are listed in
// DISSECTOR_QUIRKS with the evidence; where kafkajs can encode the same request, its frame goes
// into the capture too and must draw the same complaint (kafkajs.test.ts shows its bytes equal
// ours).

import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, getApi } from '../../src/index.js';
import { PcapWriter } from './pcap.js';
import {
  PI_WARN, compareVersions, dissect, expertInfos, tsharkInfo, walk, type PdmlNode, type PdmlPacket,
} from './tshark.js';
import { crc32c, messageSet, readRecordBatch, recordBatch, crc32 } from './records.js';
import { fitToVersion, richBody, wireLeaves, withDefaults, writtenTags, type Direction, type Leaf, type RichContext } from './values.js';
import { kjsFrame, kjsProtocol } from './kafkajs.js';

const WS = tsharkInfo(); // the peer rule: in CI a missing tshark fails here
const tsIt = WS.ok ? it : it.skip;
/** The quirks below were established against this release; newer ones may have fixed them. */
const QUIRKS_REQUIRED = WS.ok && compareVersions(WS.version, '4.0.0') >= 0 && compareVersions(WS.version, '4.1.0') < 0;

// API versions Wireshark 4.0's dissector decodes (its kafka_apis table, as probed on 4.0.17:
// anything outside draws "Unsupported API version"). Newer Wiresharks know at least these.
const DISSECTOR_VERSIONS: Record<number, [number, number]> = {
  0: [0, 8], 1: [0, 11], 2: [0, 5], 3: [0, 9], 4: [0, 4], 5: [0, 2], 6: [0, 6], 7: [0, 3],
  8: [0, 8], 9: [0, 7], 10: [0, 3], 11: [0, 7], 12: [0, 4], 13: [0, 4], 14: [0, 5], 15: [0, 5],
  16: [0, 3], 17: [0, 1], 18: [0, 3], 19: [0, 5], 20: [0, 4], 21: [0, 1], 22: [0, 3], 23: [0, 3],
  24: [0, 1], 25: [0, 1], 26: [0, 1], 27: [0, 0], 28: [0, 3], 29: [0, 2], 30: [0, 2], 31: [0, 2],
  32: [0, 2], 33: [0, 1], 34: [0, 1], 35: [0, 1], 36: [0, 2], 37: [0, 2], 38: [0, 2], 39: [0, 2],
  40: [0, 2], 41: [0, 2], 42: [0, 2], 43: [0, 2], 44: [0, 1], 45: [0, 0], 46: [0, 0], 47: [0, 0],
};

const apiName = (apiKey: number) => getApi(apiKey).name;

// ---- known dissector bugs (Wireshark 4.0), each checked against the Kafka message schemas ----

interface Quirk {
  apiKey: number;
  versions: [number, number];
  direction: Direction;
  why: string;
  /** Compare values only before the first dissector field of this name (where it goes astray). */
  stopAt?: string;
  /** The field at stopAt is a `bytes` field read with a 2-byte length: it must cover just 00 00. */
  shortBytesLength?: boolean;
  /** Don't compare values at all (the dissector goes astray at once). */
  noValues?: boolean;
  /** A change to the rich body that sidesteps the bug, so the rest is still checked fully. */
  avoid?: (body: any) => void;
  /** The sidestepped body still draws the complaint, but no exception, so its response is matched. */
  avoidStillFlagged?: boolean;
}

const BYTES_WHY = 'Kafka BYTES in non-flexible versions has an int32 length; the 4.0 dissector reads a ' +
  '2-byte length (it shows the field as <MISSING> over the first two bytes, 00 00, of our int32 length) ' +
  'and everything after is misaligned. kafkajs writes the same bytes (see the kafkajs control frames).';

const LEGACY_WHY = 'Legacy messages (magic 0/1) carry Key and Value as BYTES with int32 lengths; the ' +
  'dissector reads a 2-byte length (the same bug as for BYTES fields) and runs off the message.';

const DISSECTOR_QUIRKS: Quirk[] = [
  { apiKey: 0, versions: [0, 2], direction: 'request', why: `ProduceRequest records as a legacy message set: ${LEGACY_WHY}`,
    stopAt: 'kafka.message_key', shortBytesLength: true, avoid: (b) => replaceRecords(b) },
  { apiKey: 1, versions: [0, 3], direction: 'response', why: `FetchResponse records as a legacy message set: ${LEGACY_WHY}`,
    stopAt: 'kafka.message_key', shortBytesLength: true, avoid: (b) => replaceRecords(b) },
  { apiKey: 11, versions: [0, 5], direction: 'request', why: `JoinGroupRequest.Protocols[].Metadata: ${BYTES_WHY}`,
    stopAt: 'kafka.protocol_metadata', shortBytesLength: true, avoid: (b) => { b.protocols = []; } },
  { apiKey: 11, versions: [0, 5], direction: 'response', why: `JoinGroupResponse.Members[].Metadata: ${BYTES_WHY}`,
    stopAt: 'kafka.member_metadata', shortBytesLength: true, avoid: (b) => { b.members = []; } },
  { apiKey: 14, versions: [0, 3], direction: 'request', why: `SyncGroupRequest.Assignments[].Assignment: ${BYTES_WHY}`,
    stopAt: 'kafka.member_assignment', shortBytesLength: true, avoid: (b) => { b.assignments = []; } },
  { apiKey: 14, versions: [0, 3], direction: 'response', why: `SyncGroupResponse.Assignment: ${BYTES_WHY}`,
    stopAt: 'kafka.member_assignment', shortBytesLength: true },
  { apiKey: 15, versions: [0, 4], direction: 'response', why: `DescribeGroupsResponse.Groups[].Members[].MemberMetadata: ${BYTES_WHY}`,
    stopAt: 'kafka.member_metadata', shortBytesLength: true, avoid: (b) => { for (const g of b.groups) g.members = []; } },
  { apiKey: 36, versions: [0, 1], direction: 'request', why: `SaslAuthenticateRequest.AuthBytes: ${BYTES_WHY}`,
    stopAt: 'kafka.sasl_authentication', shortBytesLength: true, avoid: (b) => { b.authBytes = new Uint8Array(0); }, avoidStillFlagged: true },
  { apiKey: 36, versions: [0, 1], direction: 'response', why: `SaslAuthenticateResponse.AuthBytes: ${BYTES_WHY}`,
    stopAt: 'kafka.sasl_authentication', shortBytesLength: true },
  { apiKey: 38, versions: [0, 1], direction: 'response', why: `CreateDelegationTokenResponse.Hmac: ${BYTES_WHY}`,
    stopAt: 'kafka.token_hmac', shortBytesLength: true },
  { apiKey: 39, versions: [0, 1], direction: 'request', why: `RenewDelegationTokenRequest.Hmac: ${BYTES_WHY}`,
    stopAt: 'kafka.token_hmac', shortBytesLength: true, avoid: (b) => { b.hmac = new Uint8Array(0); }, avoidStillFlagged: true },
  { apiKey: 40, versions: [0, 1], direction: 'request', why: `ExpireDelegationTokenRequest.Hmac: ${BYTES_WHY}`,
    stopAt: 'kafka.token_hmac', shortBytesLength: true, avoid: (b) => { b.hmac = new Uint8Array(0); }, avoidStillFlagged: true },
  { apiKey: 41, versions: [0, 1], direction: 'response', why: `DescribeDelegationTokenResponse.Tokens[].Hmac: ${BYTES_WHY}`,
    stopAt: 'kafka.token_hmac', shortBytesLength: true, avoid: (b) => { b.tokens = []; } },
  { apiKey: 6, versions: [0, 3], direction: 'request',
    why: 'UpdateMetadataPartitionState.OfflineReplicas exists from v4 on; the dissector reads it in v0-3 too ' +
      '(a third int32 array after Replicas), running into the next partition state.',
    noValues: true, avoid: (b) => { b.ungroupedPartitionStates = []; } },
  { apiKey: 19, versions: [0, 5], direction: 'request',
    why: 'Two bugs. CreatableReplicaAssignment is PartitionIndex int32 + BrokerIds []int32; the dissector ' +
      'takes the BrokerIds count for a broker id and reads replica ids to the end of the frame. And a null ' +
      'CreatableTopicConfig.Value (nullable in all versions) stops it: it reads nothing sensible after it.',
    stopAt: 'kafka.replica_id',
    avoid: (b) => { for (const t of b.topics) { t.assignments = []; for (const c of t.configs) c.value ??= 'non-null'; } } },
  { apiKey: 20, versions: [1, 2], direction: 'response',
    why: 'DeleteTopicsResponse has ThrottleTimeMs from v1 on; the dissector reads it only from v3 on, so ' +
      'it takes the throttle time for the Responses array count.',
    noValues: true },
  { apiKey: 27, versions: [0, 0], direction: 'response',
    why: 'WriteTxnMarkersResponse has no ThrottleTimeMs; the dissector reads one first and takes the ' +
      'Markers array for it.',
    stopAt: 'kafka.throttle_time' },
  { apiKey: 31, versions: [0, 1], direction: 'response',
    why: 'DeleteAclsResponse v0-1 FilterResults is a classic int32-counted array; the dissector reads one ' +
      'byte for it (as if it were a compact array, which it is only from v2 on) and stops there.' },
  { apiKey: 37, versions: [0, 2], direction: 'request',
    why: 'CreatePartitionsTopic.Assignments is an array of CreatePartitionsAssignment{BrokerIds []int32}; ' +
      'the dissector reads it as a flat []int32, taking each BrokerIds count for a node id.',
    stopAt: 'kafka.node_id', avoid: (b) => { for (const t of b.topics) t.assignments = null; } },
  { apiKey: 43, versions: [0, 2], direction: 'request',
    why: 'ElectLeadersRequest.TopicPartitions[] is Topic string + Partitions []int32; the dissector skips ' +
      'the Topic string and reads its bytes as the Partitions count.',
    stopAt: 'kafka.partition_id', avoid: (b) => { b.topicPartitions = []; } },
  { apiKey: 45, versions: [0, 0], direction: 'request',
    why: 'AlterPartitionReassignmentsRequest is flexible from v0 (compact arrays); the dissector reads Topics ' +
      'with an int32 count. (No request escapes it, so the dissector never matches a response to one.)' },
  { apiKey: 46, versions: [0, 0], direction: 'request',
    why: 'ListPartitionReassignmentsRequest is flexible from v0 (compact nullable array); the dissector reads ' +
      'Topics with an int32 count. (No request escapes it, so the dissector never matches a response to one.)' },
];

/** Expert infos a quirk may draw: the dissector's malformed-class complaints. */
const QUIRK_EXPERTS = new Set([
  'kafka.pdu_length_mismatch', '_ws.malformed', '_ws.malformed.expert', 'kafka.bad_string_length',
  'kafka.bad_array_length', 'kafka.bad_bytes_length',
]);

/** Swaps every records value in a Produce request / Fetch response for a RecordBatch v2. */
function replaceRecords(body: any): void {
  const visit = (o: any) => {
    if (o === null || typeof o !== 'object' || o instanceof Uint8Array) return;
    if (Array.isArray(o)) { o.forEach(visit); return; }
    for (const [k, v] of Object.entries(o)) {
      if (k === 'records' && v instanceof Uint8Array) o[k] = recordsFor(0, 3);
      else visit(v);
    }
  };
  visit(body);
}

function quirkFor(apiKey: number, version: number, direction: Direction): Quirk | undefined {
  return DISSECTOR_QUIRKS.find((q) => q.apiKey === apiKey && q.direction === direction
    && version >= q.versions[0] && version <= q.versions[1]);
}

// ---- records ----

let recordSerial = 0;

/** Distinct, valid record data for a Produce/Fetch version: a message set (magic 0/1) before the RecordBatch era. */
function recordsFor(apiKey: number, version: number): Uint8Array {
  const n = ++recordSerial;
  const enc = new TextEncoder();
  const records = [
    { key: enc.encode(`key-${n}`), value: enc.encode(`value-${n}`), headers: [{ key: `hdr-${n}`, value: Uint8Array.of(n & 0xff) }] },
    { key: null, value: enc.encode(`second-${n}`) },
  ];
  const magic = apiKey === 0 ? (version <= 1 ? 0 : version === 2 ? 1 : 2) : (version <= 1 ? 0 : version <= 3 ? 1 : 2);
  if (magic === 2) return recordBatch(records, { baseOffset: BigInt(n * 1000), producerId: BigInt(n), producerEpoch: 1, baseSequence: n });
  return messageSet(records, magic);
}

/** The CRCs a dissector should read from record data: the batch CRC, or each message's CRC. */
function expectedCrcs(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 61 && bytes[16] === 2) return [hex(bytes.subarray(17, 21))];
  const out: string[] = [];
  for (let at = 0; at + 12 <= bytes.length;) {
    const size = view.getInt32(at + 8);
    out.push(hex(bytes.subarray(at + 12, at + 16)));
    at += 12 + size;
  }
  return out;
}

// ---- value matching ----

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

const INT_SIZES: Record<string, number> = { int8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8 };

/** Whether a dissector field shows the leaf's value. */
function shows(node: PdmlNode, leaf: Leaf): boolean {
  const v = leaf.value;
  if (v === null) return node.show === '[ Null ]' || node.show === '<NULL>';
  switch (leaf.type) {
    case 'string': return node.show === v;
    case 'bool': return node.show === (v ? '1' : '0');
    case 'int8': case 'int16': case 'uint16': case 'int32': case 'uint32': case 'int64': {
      if (node.show === String(v)) return true;
      // Timestamps and the like are displayed as dates; compare the raw bytes then.
      const size = INT_SIZES[leaf.type]!;
      if (node.size !== size || node.value.length !== size * 2) return false;
      const raw = BigInt.asIntN(size * 8, BigInt('0x' + node.value));
      return leaf.type.startsWith('u') ? BigInt.asUintN(size * 8, raw) === BigInt(v as number) : raw === BigInt(v as number);
    }
    case 'float64': return Number(node.show) === v;
    case 'uuid': return node.value === Buffer.from(v as string, 'base64url').toString('hex');
    // Non-flexible BYTES items cover the content; compact ones the varint length too: compare the display.
    case 'bytes': return node.show === hexColons(v as Uint8Array) && ((v as Uint8Array).length > 0 || node.size <= 1);
  }
  return false;
}

// ---- the capture ----

interface Sent {
  label: string;
  apiKey: number;
  version: number;
  direction: Direction;
  body: any;
  frame: Uint8Array;
  packet: number;
  correlationId: number;
  clientId?: string | null;
  requestPacket?: number;
  quirk?: Quirk;
  /** Explicit expectations: dissector field name → displayed values in order. */
  expect?: Record<string, (string | number | bigint)[]>;
  /** A frame written by kafkajs, expected to draw the quirk's complaint too. */
  control?: boolean;
  /** Checked by its own test. */
  special?: boolean;
  /** The request drew a dissector quirk, which may leave this response unmatched (and undissected). */
  requestQuirked?: boolean;
}

class Capture {
  readonly pcap = new PcapWriter();
  readonly sent: Sent[] = [];
  private correlationId = 1000;

  /** One request and its response, encoded by kafka-wire. */
  exchange(label: string, apiKey: number, version: number, request: any, response: any,
    options: { clientId?: string | null; expectRequest?: Sent['expect']; expectResponse?: Sent['expect']; quirks?: boolean } = {}): void {
    const correlationId = this.correlationId++;
    const clientId = options.clientId === undefined ? 'kafka-wire-peer' : options.clientId;
    request = fitToVersion(apiKey, 'request', version, request);
    response = fitToVersion(apiKey, 'response', version, response);
    const requestFrame = encodeRequest({ requestApiKey: apiKey, requestApiVersion: version, correlationId, clientId }, request);
    const responseFrame = encodeResponse(apiKey, version, { correlationId }, response);
    // Fields left out take their defaults: fill them in (from our own decoding of the frame, which
    // is fine here: the dissector reads the same bytes independently) so every value is compared.
    request = withDefaults(request, decodeRequest(requestFrame).body);
    response = withDefaults(response, decodeResponse(responseFrame, apiKey, version).body);
    const requestPacket = this.pcap.request(requestFrame);
    const responsePacket = this.pcap.response(responseFrame);
    // Curated scenarios are written to stay clear of the dissector's quirks.
    const quirks = options.quirks ?? (options.expectRequest === undefined && options.expectResponse === undefined);
    this.sent.push({
      label: `${label} request`, apiKey, version, direction: 'request', body: request, frame: requestFrame,
      packet: requestPacket, correlationId, clientId, expect: options.expectRequest,
      quirk: quirks ? quirkFor(apiKey, version, 'request') : undefined,
    });
    this.sent.push({
      label: `${label} response`, apiKey, version, direction: 'response', body: response, frame: responseFrame,
      packet: responsePacket, correlationId, requestPacket, expect: options.expectResponse,
      quirk: quirks ? quirkFor(apiKey, version, 'response') : undefined,
      requestQuirked: quirks && quirkFor(apiKey, version, 'request') !== undefined,
    });
  }

  /** A request frame written by someone else (kafkajs), expected to draw `quirk`. */
  control(label: string, frame: Uint8Array, quirk: Quirk): void {
    const decoded = decodeRequest(frame);
    const packet = this.pcap.request(frame);
    this.sent.push({
      label, apiKey: decoded.apiKey, version: decoded.apiVersion, direction: 'request', body: decoded.body,
      frame, packet, correlationId: decoded.header.correlationId, clientId: decoded.header.clientId,
      quirk, control: true,
    });
  }

  nextCorrelationId(): number {
    return this.correlationId++;
  }
}

// ---- checking one dissected frame ----

const HEADER_FIELDS = new Set([
  'kafka.len', 'kafka.api_key', 'kafka.api_version', 'kafka.request_key', 'kafka.response_key',
  'kafka.request.version', 'kafka.response.version', 'kafka.correlation_id', 'kafka.request_frame',
  'kafka.response_frame',
]);

interface Stats { leaves: number; matched: number; nodes: number; tags: number; /** key/version/direction sent but never dissected. */ unchecked: Set<string> }

function findOccurrences(haystack: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  const buf = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength);
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) out.push(at);
  return out;
}

/** The unknown tagged fields anywhere in a body. */
function unknownTags(body: any): Map<number, Uint8Array> {
  const unknown = new Map<number, Uint8Array>();
  const collect = (o: any) => {
    if (o === null || typeof o !== 'object' || o instanceof Uint8Array) return;
    if (Array.isArray(o)) { o.forEach(collect); return; }
    for (const [k, v] of Object.entries(o)) {
      if (k === '_unknownTaggedFields') for (const [t, b] of Object.entries(v as object)) unknown.set(Number(t), b as Uint8Array);
      else collect(v);
    }
  };
  collect(body);
  return unknown;
}

/** Everything wrong with how the dissector saw `s`. */
function check(s: Sent, packet: PdmlPacket | undefined, stats: Stats, notes: string[]): string[] {
  const problems: string[] = [];
  if (packet === undefined) return [`packet ${s.packet} missing from tshark output`];
  const kafkas = packet.protos.filter((p) => p.name === 'kafka');
  if (kafkas.length !== 1) return [`expected one Kafka PDU in packet ${s.packet}, found ${kafkas.length}`];
  const kafka = kafkas[0]!;
  const field = (name: string) => [...walk(kafka.children)].find((n) => n.name === name);
  const showOf = (name: string) => field(name)?.show;
  if (s.requestQuirked && field('kafka.request_missing') !== undefined) {
    const sidestep = quirkFor(s.apiKey, s.version, 'request')?.avoid !== undefined;
    notes.push(`${s.label}: not dissected (its request drew the dissector's quirk); ` +
      (sidestep ? 'checked after the sidestepping request' : 'NOT CHECKED: no request of this version gets past the dissector'));
    if (!sidestep) stats.unchecked.add(`${s.apiKey}/${s.version}/${s.direction}`);
    return [];
  }

  // Expert infos anywhere in the packet (TCP's as well: a bad capture would show there).
  const experts = expertInfos(packet.protos).filter((e) => e.severity >= PI_WARN);
  const quirk = s.quirk;
  if (quirk) {
    const unexpected = experts.filter((e) => !QUIRK_EXPERTS.has(e.field));
    if (unexpected.length > 0) problems.push(`unexpected expert infos: ${unexpected.map((e) => `${e.field} (${e.message})`).join('; ')}`);
    if (experts.length === 0) {
      if (QUIRKS_REQUIRED) problems.push(`documented dissector quirk did not show: ${quirk.why}`);
      else notes.push(`${s.label}: dissector quirk no longer shows on tshark ${WS.version}`);
    }
  } else if (experts.length > 0) {
    problems.push(`expert infos: ${experts.map((e) => `${e.field} (${e.message})`).join('; ')}`);
  }

  // Framing and header.
  if (kafka.size !== s.frame.length) problems.push(`Kafka PDU spans ${kafka.size} bytes, frame is ${s.frame.length}`);
  if (showOf('kafka.len') !== String(s.frame.length - 4)) problems.push(`kafka.len ${showOf('kafka.len')} != ${s.frame.length - 4}`);
  if (showOf('kafka.correlation_id') !== String(s.correlationId)) problems.push(`correlation id ${showOf('kafka.correlation_id')} != ${s.correlationId}`);
  if (showOf('kafka.api_key') !== String(s.apiKey)) problems.push(`api key ${showOf('kafka.api_key')} != ${s.apiKey}`);
  if (s.direction === 'request') {
    if (showOf('kafka.api_version') !== String(s.version)) problems.push(`api version ${showOf('kafka.api_version')} != ${s.version}`);
    // Request header v0 (ControlledShutdown v0) has no client id.
    if (!(s.apiKey === 7 && s.version === 0)) {
      const clientId = kafka.children.find((n) => n.name === 'kafka.client_id');
      const wantClient = s.clientId === null ? ['[ Null ]', ''] : [s.clientId];
      if (!clientId || !wantClient.includes(clientId.show)) problems.push(`client id ${JSON.stringify(clientId?.show)} != ${JSON.stringify(s.clientId)}`);
    }
  } else {
    if (showOf('kafka.request_frame') !== String(s.requestPacket)) problems.push(`response not matched to request frame ${s.requestPacket} (got ${showOf('kafka.request_frame')})`);
    if (showOf('kafka.response.version') !== String(s.version)) problems.push(`response version ${showOf('kafka.response.version')} != ${s.version}`);
  }

  // Records: where our record data sits in the frame, and that the dissector read its CRCs there.
  const leaves = wireLeaves(s.apiKey, s.direction, s.version, s.body);
  const spans: [number, number][] = [];
  for (const leaf of leaves) {
    if (leaf.type !== 'records' || leaf.value === null || (leaf.value as Uint8Array).length === 0) continue;
    const bytes = leaf.value as Uint8Array;
    const at = findOccurrences(s.frame, bytes);
    if (at.length === 0) { problems.push(`records of ${leaf.path} not found in the frame`); continue; }
    for (const a of at) spans.push([a, a + bytes.length]);
    if (quirk) continue;
    const crcs = [...walk(kafka.children)]
      .filter((n) => (n.name === 'kafka.batch_crc' || n.name === 'kafka.message_crc')
        && at.some((a) => n.pos - kafka.pos >= a && n.pos - kafka.pos < a + bytes.length))
      .map((n) => n.value);
    const want = expectedCrcs(bytes);
    if (!want.every((c) => crcs.includes(c))) problems.push(`record CRCs read ${JSON.stringify(crcs)}, expected ${JSON.stringify(want)}`);
  }
  const inRecords = (n: PdmlNode) => spans.some(([a, b]) => n.pos - kafka.pos >= a && n.pos - kafka.pos < b);

  // The values the dissector shows, in document order.
  const nodes: PdmlNode[] = [];
  const tagNodes: PdmlNode[] = [];
  const visit = (list: PdmlNode[]) => {
    for (const n of list) {
      if (n.name.startsWith('_ws') || n.tag === 'proto') continue;
      if (inRecords(n) && n.name !== '') continue;
      if (n.name === 'kafka.tagged_field_tag' || n.name === 'kafka.tagged_field_data') { tagNodes.push(n); continue; }
      if (n.name !== '' && !n.hidden && !HEADER_FIELDS.has(n.name)) {
        // The header's client id sits at offset 12 (its length) / 14 (its content).
        const rel = n.pos - kafka.pos;
        if (!(s.direction === 'request' && n.name === 'kafka.client_id' && (rel === 12 || rel === 14))) nodes.push(n);
      }
      visit(n.children);
    }
  };
  visit(kafka.children);

  // Where a quirk sends the dissector astray, compare only what it read before.
  let valueNodes = nodes;
  if (quirk?.noValues) valueNodes = [];
  else if (quirk?.stopAt) {
    const all = [...walk(kafka.children)];
    const at = all.findIndex((n) => n.name === quirk.stopAt);
    if (at >= 0) {
      const n = all[at]!;
      if (quirk.shortBytesLength && (n.size !== 2 || n.value !== '0000')) {
        problems.push(`${quirk.stopAt}: expected the dissector to read a 2-byte length 0000, got ${n.size} bytes ${n.value}`);
      }
      const before = new Set(all.slice(0, at));
      valueNodes = nodes.filter((x) => before.has(x));
    } else if (QUIRKS_REQUIRED) {
      problems.push(`expected the dissector to go astray at ${quirk.stopAt}, but it shows no such field`);
    }
  }

  // Order-preserving match of dissector values onto our leaves.
  const candidates = leaves.filter((l) => l.type !== 'records');
  const matched = new Set<number>();
  let next = 0;
  for (const n of valueNodes) {
    let k = next;
    while (k < candidates.length && !shows(n, candidates[k]!)) k++;
    if (k === candidates.length) {
      const around = candidates.slice(next, next + 4).map((l) => `${l.path}=${fmt(l.value)}`).join(', ');
      problems.push(`dissector shows ${n.name}=${JSON.stringify(n.show)} (offset ${n.pos - kafka.pos}) where we encoded: ${around || '(nothing left)'}`);
      break;
    }
    matched.add(k);
    next = k + 1;
  }
  stats.nodes += valueNodes.length;
  stats.leaves += candidates.length;
  stats.matched += matched.size;

  // Every string we encoded (outside tagged fields) must have been shown.
  if (!quirk) {
    candidates.forEach((l, i) => {
      if (l.type === 'string' && l.value !== null && !l.tagged && !matched.has(i)) {
        problems.push(`string ${l.path}=${JSON.stringify(l.value)} not shown by the dissector`);
      }
    });
  }

  // Tagged fields: the dissector (which knows none by name) shows each as tag + bytes. The tags
  // must be exactly those we wrote, and unknown ones must carry our bytes.
  if (!quirk) {
    const shownTags: number[] = [];
    const shownData = new Map<number, string[]>();
    for (let i = 0; i < tagNodes.length; i++) {
      const n = tagNodes[i]!;
      if (n.name !== 'kafka.tagged_field_tag') continue;
      const tag = Number(BigInt(n.show));
      shownTags.push(tag);
      const data = tagNodes[i + 1]?.name === 'kafka.tagged_field_data' ? tagNodes[i + 1]!.value : '';
      shownData.set(tag, [...(shownData.get(tag) ?? []), data]);
    }
    const written = writtenTags(s.apiKey, s.direction, s.version, s.body);
    stats.tags += written.length;
    if (JSON.stringify(shownTags.sort((a, b) => a - b)) !== JSON.stringify(written)) {
      problems.push(`tagged fields shown ${JSON.stringify(shownTags)}, written ${JSON.stringify(written)}`);
    }
    for (const [tag, bytes] of unknownTags(s.body)) {
      if (!(shownData.get(tag) ?? []).includes(hex(bytes))) problems.push(`unknown tagged field ${tag}: shown ${JSON.stringify(shownData.get(tag))}, encoded ${hex(bytes)}`);
    }
  }

  // Curated expectations.
  for (const [name, want] of Object.entries(s.expect ?? {})) {
    const got = [...walk(kafka.children)].filter((n) => n.name === name && !n.hidden && !(s.direction === 'request' && name === 'kafka.client_id' && n.pos - kafka.pos <= 14)).map((n) => n.show);
    const wantShown = want.map(String);
    if (JSON.stringify(got) !== JSON.stringify(wantShown)) problems.push(`${name}: dissector shows ${JSON.stringify(got)}, expected ${JSON.stringify(wantShown)}`);
  }
  return problems;
}

function fmt(v: unknown): string {
  if (v instanceof Uint8Array) return hex(v);
  if (typeof v === 'bigint') return `${v}n`;
  return JSON.stringify(v);
}

// ---- the sweep: every key/version/direction the dissector knows ----

/** Rich bodies, with the few values the dissector itself interprets kept meaningful. */
function sweepBody(apiKey: number, direction: Direction, version: number, seed: number): any {
  const override = (ctx: RichContext, generated: unknown): unknown => {
    // Produce with acks=0 gets no response, and the dissector would not look for one.
    if (apiKey === 0 && direction === 'request' && ctx.path === 'acks') return -1;
    // Record data must be real; a null records field is its own quirk (see the null-records test).
    if (ctx.field.type === 'records') return recordsFor(apiKey, version);
    // The dissector checks advertised versions against its own table (and warns otherwise).
    if (apiKey === 18 && direction === 'response' && ctx.path === 'apiKeys') {
      return [{ apiKey: 0, minVersion: 3, maxVersion: 8 }, { apiKey: 3, minVersion: 1, maxVersion: 9 }, { apiKey: 18, minVersion: 0, maxVersion: 3 }];
    }
    return generated;
  };
  const unknownTags: Record<number, Uint8Array> = direction === 'request' ? { 7000: Uint8Array.of(1, 2, 3) } : { 7001: Uint8Array.of(4, 5) };
  return richBody(apiKey, direction, version, { override, unknownTags, seed });
}

interface Combo { apiKey: number; version: number }

const combos: Combo[] = [];
for (const [key, [lo, hi]] of Object.entries(DISSECTOR_VERSIONS)) {
  for (let v = lo; v <= hi; v++) combos.push({ apiKey: Number(key), version: v });
}

const CLIENT_IDS: (string | null)[] = ['kafka-wire-peer', 'producer-7', null, '', 'consumer-ü-€-𝄞'];

describe('Wireshark Kafka dissector (tshark) decodes our frames', () => {
  const capture = new Capture();
  const byPacket = new Map<number, PdmlPacket>();
  const stats: Stats = { leaves: 0, matched: 0, nodes: 0, tags: 0, unchecked: new Set() };
  const notes: string[] = [];

  beforeAll(async () => {
    if (!WS.ok) return;
    let seed = 1;
    for (const { apiKey, version } of combos) {
      const name = `${apiName(apiKey)} v${version}`;
      const request = sweepBody(apiKey, 'request', version, seed);
      const response = sweepBody(apiKey, 'response', version, seed + 500);
      seed += 1000;
      capture.exchange(name, apiKey, version, request, response, { clientId: CLIENT_IDS[version % CLIENT_IDS.length] });
      // A variant that sidesteps known dissector bugs (where possible), checked in full.
      const quirks = { request: quirkFor(apiKey, version, 'request'), response: quirkFor(apiKey, version, 'response') };
      if (quirks.request?.avoid || quirks.response?.avoid) {
        const req = sweepBody(apiKey, 'request', version, seed);
        const res = sweepBody(apiKey, 'response', version, seed + 500);
        seed += 1000;
        quirks.request?.avoid?.(req);
        quirks.response?.avoid?.(res);
        capture.exchange(`${name} (sidestepping the dissector quirk)`, apiKey, version, req, res, { quirks: false });
        // A direction whose quirk cannot be (fully) sidestepped keeps it.
        for (const s of capture.sent.slice(-2)) {
          const q = quirks[s.direction];
          if (q && (!q.avoid || q.avoidStillFlagged)) s.quirk = q;
        }
      }
    }
    await addKafkajsControls(capture);
    addCurated(capture);
    capture.pcap.close();
    // KAFKA_WIRE_KEEP_PCAP=path keeps the capture for a look in Wireshark.
    if (process.env.KAFKA_WIRE_KEEP_PCAP) writeFileSync(process.env.KAFKA_WIRE_KEEP_PCAP, capture.pcap.bytes());
    const started = Date.now();
    for (const p of dissect(capture.pcap.bytes())) byPacket.set(p.num, p);
    console.log(`[tshark ${WS.version}] dissected ${capture.pcap.packetCount} packets (${capture.sent.length} Kafka frames) in ${Date.now() - started} ms`);
  }, 600_000);

  tsIt('sanity: CRC helpers match the published check values', () => {
    const digits = new TextEncoder().encode('123456789');
    expect(crc32c(digits)).toBe(0xe3069283);
    expect(crc32(digits)).toBe(0xcbf43926);
    const batch = recordBatch([{ key: null, value: Uint8Array.of(1) }]);
    const info = readRecordBatch(batch);
    expect(info.crc).toBe(info.computedCrc);
  });

  for (const apiKey of Object.keys(DISSECTOR_VERSIONS).map(Number)) {
    const [lo, hi] = DISSECTOR_VERSIONS[apiKey]!;
    tsIt(`${apiName(apiKey)} (${apiKey}) v${lo}-${hi}, requests and responses`, () => {
      const mine = capture.sent.filter((s) => s.apiKey === apiKey && !s.control && !s.special && !s.expect);
      expect(mine.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const s of mine) {
        const problems = check(s, byPacket.get(s.packet), stats, notes);
        if (problems.length > 0) failures.push(`${s.label}${s.quirk ? ' [quirk]' : ''}:\n    ${problems.join('\n    ')}`);
      }
      expect(failures, failures.join('\n')).toEqual([]);
    });
  }

  tsIt('kafkajs frames draw the same dissector complaints (the quirks are the dissector\'s)', () => {
    const controls = capture.sent.filter((s) => s.control);
    expect(controls.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const s of controls) {
      const packet = byPacket.get(s.packet);
      const experts = packet ? expertInfos(packet.protos).filter((e) => e.severity >= PI_WARN) : [];
      if (QUIRKS_REQUIRED && (experts.length === 0 || experts.some((e) => !QUIRK_EXPERTS.has(e.field)))) {
        failures.push(`${s.label}: ${experts.map((e) => e.field).join(', ') || 'no complaint'}`);
      }
      // ... and kafka-wire writes exactly kafkajs's bytes for what it decoded from them.
      const ours = encodeRequest({ requestApiKey: s.apiKey, requestApiVersion: s.version, correlationId: s.correlationId, clientId: s.clientId ?? null }, s.body);
      if (hex(ours) !== hex(s.frame)) failures.push(`${s.label}: kafka-wire re-encodes kafkajs's frame differently`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  tsIt('a null records field is flagged by the dissector (its quirk; Kafka allows null records)', () => {
    const s = capture.sent.find((x) => x.label.startsWith('null records'))!;
    const experts = expertInfos(byPacket.get(s.packet)!.protos).filter((e) => e.severity >= PI_WARN).map((e) => e.field);
    if (QUIRKS_REQUIRED) {
      expect(experts.length).toBeGreaterThan(0);
      for (const e of experts) expect([...QUIRK_EXPERTS, 'kafka.ei_kafka_bad_message_set_length']).toContain(e);
    }
    // Everything before the records was read as we wrote it.
    const kafka = byPacket.get(s.packet)!.protos.find((p) => p.name === 'kafka')!;
    const names = [...walk(kafka.children)].filter((n) => n.name === 'kafka.topic_name').map((n) => n.show);
    expect(names).toEqual(['null-records-topic']);
  });

  tsIt('curated scenarios: named fields carry the values we encoded', () => {
    const curated = capture.sent.filter((s) => s.expect !== undefined);
    expect(curated.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const s of curated) {
      const problems = check(s, byPacket.get(s.packet), stats, notes);
      if (problems.length > 0) failures.push(`${s.label}:\n    ${problems.join('\n    ')}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    const kinds = new Set(curated.map((s) => `${apiName(s.apiKey)} v${s.version}`));
    console.log(`[tshark] curated: ${[...kinds].join(', ')}`);
  });

  tsIt('coverage summary: what the dissector checked, and how much of each frame it agreed on', () => {
    const keys = new Set(capture.sent.filter((s) => !s.control && !s.special).map((s) => `${s.apiKey}/${s.version}/${s.direction}`));
    // A frame the dissector could not read is not a check: it does not count.
    const checked = [...keys].filter((k) => !stats.unchecked.has(k));
    console.log(`[tshark ${WS.version}] ${checked.length} key/version/direction combinations checked ` +
      `(${stats.unchecked.size} sent but not dissected: ${[...stats.unchecked].join(', ') || 'none'}); ` +
      `${stats.nodes} dissector values matched in order onto ${stats.matched} of ${stats.leaves} encoded leaves; ` +
      `${stats.tags} tagged fields seen with the right tags` +
      (notes.length ? `\n  notes:\n  ${notes.join('\n  ')}` : ''));
    expect(checked.length).toBeGreaterThan(300);
    // The dissector shows most of what we encode (87% on tshark 4.0): a drop means it stopped
    // reading our frames somewhere, even where every value it did show agreed.
    expect(stats.matched / stats.leaves).toBeGreaterThan(0.85);
    expect(stats.nodes).toBe(stats.matched);
  });
});

// ---- kafkajs control frames for the request-side quirks ----

async function addKafkajsControls(capture: Capture): Promise<void> {
  const meta = Buffer.from([0, 1, 0, 0, 0, 1, 0, 6, 111, 114, 100, 101, 114, 115, 0, 0, 0, 0]);
  const add = async (apiKey: number, version: number, args: Record<string, unknown>) => {
    const quirk = quirkFor(apiKey, version, 'request')!;
    const { request } = kjsProtocol(apiKey, version, args);
    const frame = await kjsFrame(request, capture.nextCorrelationId(), 'kafkajs');
    capture.control(`kafkajs ${apiName(apiKey)} v${version} request`, frame, quirk);
  };
  for (let v = 0; v <= 5; v++) {
    await add(11, v, {
      groupId: 'group-a', sessionTimeout: 30000, rebalanceTimeout: 60000, memberId: '', groupInstanceId: null,
      protocolType: 'consumer', groupProtocols: [{ name: 'RoundRobinAssigner', metadata: meta }],
    });
  }
  for (let v = 0; v <= 3; v++) {
    await add(14, v, {
      groupId: 'group-a', generationId: 3, memberId: 'member-1', groupInstanceId: null,
      groupAssignment: [{ memberId: 'member-1', memberAssignment: meta }],
    });
  }
  // kafkajs's SaslAuthenticate writes authBytes raw: its SASL mechanisms pass them length-prefixed.
  for (let v = 0; v <= 1; v++) await add(36, v, { authBytes: Buffer.from([0, 0, 0, 5, 0, 117, 0, 112, 119]) });
  for (let v = 0; v <= 3; v++) {
    await add(19, v, {
      topics: [{ topic: 'orders', numPartitions: -1, replicationFactor: -1, replicaAssignment: [{ partition: 0, replicas: [1, 2] }], configEntries: [] }],
      timeout: 5000, validateOnly: false,
    });
    // ... and the null config value, without assignments.
    await add(19, v, {
      topics: [{ topic: 'orders', numPartitions: 3, replicationFactor: 1, replicaAssignment: [], configEntries: [{ name: 'retention.ms', value: null }, { name: 'cleanup.policy', value: 'compact' }] }],
      timeout: 5000, validateOnly: false,
    });
  }
  for (let v = 0; v <= 1; v++) await add(37, v, { topicPartitions: [{ topic: 'orders', count: 4, assignments: [[1, 2], [2, 3]] }], timeout: 5000, validateOnly: false });
  await add(45, 0, { topics: [{ topic: 'orders', partitionAssignment: [{ partition: 0, replicas: [1, 2] }] }], timeout: 5000 });
  await add(46, 0, { topics: [{ topic: 'orders', partitions: [0, 1] }], timeout: 5000 });
}

// ---- curated scenarios: realistic messages, explicit expectations ----

const enc = new TextEncoder();
const u8 = (s: string) => enc.encode(s);
/** How the dissector shows a null string (classic or compact). */
const NULL = '[ Null ]';

function addCurated(capture: Capture): void {
  const batchA = recordBatch([
    { key: u8('order-1'), value: u8('{"total":12}'), headers: [{ key: 'trace', value: u8('abc') }] },
    { key: u8('order-2'), value: u8('{"total":99}') },
  ], { baseOffset: 0n, producerId: 4000n, producerEpoch: 2, baseSequence: 10 });
  const batchB = recordBatch([{ key: null, value: u8('payment') }], { baseOffset: 0n });

  // Produce: RecordBatch versions (legacy message sets are a dissector quirk, see the sweep), and a
  // frame split over several TCP segments.
  for (const version of [3, 7, 8]) {
    capture.exchange(`Produce v${version} (RecordBatch v2)`, 0, version,
      { transactionalId: version === 3 ? null : 'txn-1', acks: -1, timeoutMs: 30000, topicData: [
        { name: 'orders', partitionData: [{ index: 0, records: batchA }, { index: 2, records: batchB }] },
        { name: 'payments', partitionData: [{ index: 1, records: batchB }] },
      ] },
      { responses: [
        { name: 'orders', partitionResponses: [
          { index: 0, errorCode: 0, baseOffset: 100n, logAppendTimeMs: -1n, logStartOffset: 0n },
          { index: 2, errorCode: 6, baseOffset: -1n, logAppendTimeMs: -1n, logStartOffset: -1n,
            ...(version >= 8 ? { recordErrors: [{ batchIndex: 0, batchIndexErrorMessage: 'not leader' }], errorMessage: 'NOT_LEADER_OR_FOLLOWER' } : {}) },
        ] },
        { name: 'payments', partitionResponses: [{ index: 1, errorCode: 0, baseOffset: 7n, logAppendTimeMs: 1_700_000_000_123n, logStartOffset: 3n }] },
      ], throttleTimeMs: 5 },
      { expectRequest: {
        'kafka.transactional_id': [version === 3 ? NULL : 'txn-1'], 'kafka.required_acks': [-1], 'kafka.timeout': [30000],
        'kafka.topic_name': ['orders', 'payments'], 'kafka.partition_id': [0, 2, 1],
        'kafka.message_key': [hexColons(u8('order-1')), hexColons(u8('order-2')), '', ''], 'kafka.header_key': ['trace'],
        'kafka.producer_id': [4000, -1, -1], 'kafka.batch_base_sequence': [10, -1, -1],
      }, expectResponse: {
        'kafka.topic_name': ['orders', 'payments'], 'kafka.partition_id': [0, 2, 1], 'kafka.error': [0, 6, 0],
        'kafka.throttle_time': [5],
        ...(version >= 8 ? { 'kafka.batch_index': [0], 'kafka.batch_index_error_message': ['not leader'], 'kafka.error_message': [NULL, 'NOT_LEADER_OR_FOLLOWER', NULL] } : {}),
      } });
  }
  const big = recordBatch([{ key: u8('big'), value: new Uint8Array(70_000).fill(0x61) }]);
  capture.exchange('Produce v8 (70 kB, over several TCP segments)', 0, 8,
    { transactionalId: null, acks: 1, timeoutMs: 1000, topicData: [{ name: 'bulk', partitionData: [{ index: 3, records: big }] }] },
    { responses: [{ name: 'bulk', partitionResponses: [{ index: 3, errorCode: 0, baseOffset: 5n }] }] },
    { expectRequest: { 'kafka.topic_name': ['bulk'], 'kafka.partition_id': [3], 'kafka.batch_size': [1] },
      expectResponse: { 'kafka.topic_name': ['bulk'], 'kafka.partition_id': [3] } });
  // A null records field (Kafka allows it; the dissector does not): request only, see its test.
  {
    const correlationId = capture.nextCorrelationId();
    const frame = encodeRequest({ requestApiKey: 0, requestApiVersion: 3, correlationId, clientId: 'kafka-wire-peer' },
      { transactionalId: null, acks: 0, timeoutMs: 100, topicData: [{ name: 'null-records-topic', partitionData: [{ index: 0, records: null }] }] });
    const packet = capture.pcap.request(frame);
    capture.sent.push({ label: 'null records (Produce v3, acks 0)', apiKey: 0, version: 3, direction: 'request', body: null, frame, packet, correlationId, special: true });
  }

  // Fetch: v4 (first RecordBatch version) and v11 (sessions, rack, forgotten topics).
  for (const version of [4, 11]) {
    const records = batchA;
    capture.exchange(`Fetch v${version}`, 1, version,
      { replicaId: -1, maxWaitMs: 500, minBytes: 1, maxBytes: 52428800, isolationLevel: 1, sessionId: 77, sessionEpoch: 3,
        topics: [{ topic: 'orders', partitions: [
          { partition: 0, currentLeaderEpoch: 5, fetchOffset: 100n, logStartOffset: -1n, partitionMaxBytes: 1048576 },
          { partition: 1, currentLeaderEpoch: 5, fetchOffset: 0n, logStartOffset: -1n, partitionMaxBytes: 1048576 }] }],
        forgottenTopicsData: version >= 7 ? [{ topic: 'old-topic', partitions: [4, 5] }] : [], rackId: version >= 11 ? 'rack-b' : '' },
      { throttleTimeMs: 0, errorCode: 0, sessionId: version >= 7 ? 77 : 0, responses: [{ topic: 'orders', partitions: [
        { partitionIndex: 0, errorCode: 0, highWatermark: 102n, lastStableOffset: 102n, logStartOffset: 0n,
          abortedTransactions: version >= 4 ? [{ producerId: 9n, firstOffset: 90n }] : [], preferredReadReplica: -1, records },
        { partitionIndex: 1, errorCode: 1, highWatermark: -1n, lastStableOffset: -1n, logStartOffset: -1n,
          abortedTransactions: version >= 4 ? null : [], preferredReadReplica: -1, records: new Uint8Array(0) }] }] },
      { expectRequest: {
        'kafka.max_wait_time': [500], 'kafka.min_bytes': [1], 'kafka.topic_name': ['orders'], 'kafka.partition_id': [0, 1],
        ...(version >= 7 ? { 'kafka.fetch_session_id': [77], 'kafka.fetch_session_epoch': [3], 'kafka.forgotten_topic_name': ['old-topic'], 'kafka.forgotten_topic_partition': [4, 5] } : {}),
        ...(version >= 11 ? { 'kafka.rack': ['rack-b'] } : {}),
      }, expectResponse: {
        'kafka.topic_name': ['orders'], 'kafka.partition_id': [0, 1],
        'kafka.error': version >= 7 ? [0, 0, 1] : [0, 1],
        ...(version >= 4 ? { 'kafka.producer_id': [9, 4000] } : {}),
      } });
  }

  // Metadata: v1 (non-flexible) and v9 (flexible).
  for (const version of [1, 9]) {
    capture.exchange(`Metadata v${version}`, 3, version,
      { topics: [{ name: 'orders' }, { name: 'payments' }], allowAutoTopicCreation: false, includeClusterAuthorizedOperations: version >= 8, includeTopicAuthorizedOperations: false },
      { throttleTimeMs: 0, brokers: [{ nodeId: 1, host: 'broker-1.local', port: 9092, rack: 'r1' }, { nodeId: 2, host: 'broker-2.local', port: 9093, rack: null }],
        clusterId: 'cluster-xyz', controllerId: 2,
        topics: [
          { errorCode: 0, name: 'orders', isInternal: false, partitions: [
            { errorCode: 0, partitionIndex: 0, leaderId: 1, leaderEpoch: 4, replicaNodes: [1, 2], isrNodes: [1, 2], offlineReplicas: [] },
            { errorCode: 9, partitionIndex: 1, leaderId: 2, leaderEpoch: 4, replicaNodes: [2, 1], isrNodes: [2], offlineReplicas: [1] }] },
          { errorCode: 3, name: 'payments', isInternal: true, partitions: [] }] },
      { expectRequest: { 'kafka.topic_name': ['orders', 'payments'], ...(version >= 4 ? { 'kafka.allow_auto_topic_creation': [0] } : {}) },
        expectResponse: {
          // The controller id is shown as a node id too.
          'kafka.node_id': version >= 1 ? [1, 2, 2] : [1, 2], 'kafka.host': ['broker-1.local', 'broker-2.local'], 'kafka.port': [9092, 9093],
          'kafka.rack': ['r1', NULL], 'kafka.topic_name': ['orders', 'payments'],
          'kafka.partition_id': [0, 1], 'kafka.error': [0, 0, 9, 3], 'kafka.leader_id': [1, 2], 'kafka.is_internal': [0, 1],
          ...(version >= 2 ? { 'kafka.cluster_id': ['cluster-xyz'] } : {}),
        } });
  }

  // ApiVersions: v0 and v3 (flexible request, header v2; the response header stays v0).
  for (const version of [0, 3]) {
    capture.exchange(`ApiVersions v${version}`, 18, version,
      { clientSoftwareName: version >= 3 ? 'kafka-wire' : '', clientSoftwareVersion: version >= 3 ? '0.1.0' : '' },
      { errorCode: 0, apiKeys: [{ apiKey: 0, minVersion: 0, maxVersion: 8 }, { apiKey: 1, minVersion: 4, maxVersion: 11 }, { apiKey: 18, minVersion: 0, maxVersion: 3 }], throttleTimeMs: 0 },
      { expectRequest: version >= 3 ? { 'kafka.client_software_name': ['kafka-wire'], 'kafka.client_software_version': ['0.1.0'] } : {},
        expectResponse: { 'kafka.error': [0], 'kafka.api_versions.api_key': [0, 1, 18], 'kafka.api_versions.min_version': [0, 4, 0], 'kafka.api_versions.max_version': [8, 11, 3] } });
  }

  // ListOffsets: v0 (max offsets, old-style offsets array) and v5.
  for (const version of [0, 5]) {
    capture.exchange(`ListOffsets v${version}`, 2, version,
      { replicaId: -1, isolationLevel: version >= 2 ? 1 : 0, topics: [{ name: 'orders', partitions: [
        { partitionIndex: 0, currentLeaderEpoch: version >= 4 ? 7 : -1, timestamp: -1n, maxNumOffsets: version === 0 ? 3 : 1 },
        { partitionIndex: 1, currentLeaderEpoch: -1, timestamp: -2n, maxNumOffsets: 1 }] }] },
      { throttleTimeMs: 0, topics: [{ name: 'orders', partitions: [
        version === 0
          ? { partitionIndex: 0, errorCode: 0, oldStyleOffsets: [120n, 60n, 0n] }
          : { partitionIndex: 0, errorCode: 0, timestamp: 1_700_000_000_000n, offset: 120n, leaderEpoch: 7 },
        { partitionIndex: 1, errorCode: 74, ...(version === 0 ? { oldStyleOffsets: [] } : { timestamp: -1n, offset: -1n, leaderEpoch: -1 }) }] }] },
      { expectRequest: { 'kafka.topic_name': ['orders'], 'kafka.partition_id': [0, 1], ...(version === 0 ? { 'kafka.max_offsets': [3, 1] } : { 'kafka.isolation_level': [1] }) },
        expectResponse: { 'kafka.topic_name': ['orders'], 'kafka.partition_id': [0, 1], 'kafka.error': [0, 74], 'kafka.offset': version === 0 ? [120, 60, 0] : [120, -1] } });
  }

  // OffsetCommit v2 / v8 (flexible) and OffsetFetch v1 / v7 (flexible).
  for (const version of [2, 8]) {
    capture.exchange(`OffsetCommit v${version}`, 8, version,
      { groupId: 'group-a', generationIdOrMemberEpoch: 12, memberId: 'member-1', groupInstanceId: version >= 7 ? 'instance-1' : null,
        retentionTimeMs: version <= 4 ? 86_400_000n : -1n,
        topics: [{ name: 'orders', partitions: [
          { partitionIndex: 0, committedOffset: 120n, committedLeaderEpoch: version >= 6 ? 7 : -1, committedMetadata: 'meta' },
          { partitionIndex: 1, committedOffset: 8n, committedLeaderEpoch: -1, committedMetadata: null }] }] },
      { throttleTimeMs: 0, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, errorCode: 0 }, { partitionIndex: 1, errorCode: 25 }] }] },
      { expectRequest: { 'kafka.consumer_group': ['group-a'], 'kafka.generation_id': [12], 'kafka.member_id': ['member-1'], 'kafka.topic_name': ['orders'], 'kafka.partition_id': [0, 1], 'kafka.offset': [120, 8], 'kafka.metadata': ['meta', NULL] },
        expectResponse: { 'kafka.topic_name': ['orders'], 'kafka.partition_id': [0, 1], 'kafka.error': [0, 25] } });
  }
  for (const version of [1, 7]) {
    capture.exchange(`OffsetFetch v${version}`, 9, version,
      { groupId: 'group-a', topics: [{ name: 'orders', partitionIndexes: [0, 1] }, { name: 'payments', partitionIndexes: [2] }], requireStable: version >= 7 },
      { throttleTimeMs: 0, errorCode: 0, topics: [
        { name: 'orders', partitions: [
          { partitionIndex: 0, committedOffset: 120n, committedLeaderEpoch: -1, metadata: 'meta', errorCode: 0 },
          { partitionIndex: 1, committedOffset: -1n, committedLeaderEpoch: -1, metadata: null, errorCode: 0 }] },
        { name: 'payments', partitions: [{ partitionIndex: 2, committedOffset: -1n, committedLeaderEpoch: -1, metadata: '', errorCode: 3 }] }] },
      { expectRequest: { 'kafka.consumer_group': ['group-a'], 'kafka.topic_name': ['orders', 'payments'], 'kafka.partition_id': [0, 1, 2] },
        expectResponse: { 'kafka.topic_name': ['orders', 'payments'], 'kafka.partition_id': [0, 1, 2], 'kafka.offset': [120, -1, -1], 'kafka.error': version >= 2 ? [0, 0, 3, 0] : [0, 0, 3] } });
  }

  // FindCoordinator v0 / v3 (flexible).
  for (const version of [0, 3]) {
    capture.exchange(`FindCoordinator v${version}`, 10, version,
      { key: 'group-a', keyType: version >= 1 ? 1 : 0 },
      { throttleTimeMs: 0, errorCode: 15, errorMessage: version >= 1 ? 'coordinator not available' : null, nodeId: -1, host: '', port: -1 },
      { expectRequest: { ...(version >= 1 ? { 'kafka.coordinator_key': ['group-a'], 'kafka.coordinator_type': [1] } : { 'kafka.consumer_group': ['group-a'] }) },
        expectResponse: { 'kafka.error': [15], 'kafka.node_id': [-1], 'kafka.port': [-1], ...(version >= 1 ? { 'kafka.error_message': ['coordinator not available'] } : {}) } });
  }

  // JoinGroup v6 / v7 and SyncGroup v4 / v5 (flexible: compact bytes, which the dissector reads
  // right; the non-flexible versions' BYTES are its quirk, see the sweep), Heartbeat v0 / v4.
  const subscription = Uint8Array.from([0, 1, 0, 0, 0, 1, 0, 6, 111, 114, 100, 101, 114, 115, 255, 255, 255, 255]);
  for (const version of [6, 7]) {
    capture.exchange(`JoinGroup v${version}`, 11, version,
      { groupId: 'group-a', sessionTimeoutMs: 45000, rebalanceTimeoutMs: 300000, memberId: '', groupInstanceId: null, protocolType: 'consumer',
        protocols: [{ name: 'range', metadata: subscription }, { name: 'cooperative-sticky', metadata: subscription }] },
      { throttleTimeMs: 0, errorCode: 0, generationId: 4, protocolType: version >= 7 ? 'consumer' : null, protocolName: 'range', leader: 'member-1', memberId: 'member-1',
        members: [{ memberId: 'member-1', groupInstanceId: null, metadata: subscription }, { memberId: 'member-2', groupInstanceId: 'static-2', metadata: subscription }] },
      { expectRequest: { 'kafka.consumer_group': ['group-a'], 'kafka.session_timeout': [45000], 'kafka.rebalance_timeout': [300000], 'kafka.protocol_type': ['consumer'], 'kafka.protocol_name': ['range', 'cooperative-sticky'], 'kafka.protocol_metadata': [hexColons(subscription), hexColons(subscription)] },
        expectResponse: { 'kafka.error': [0], 'kafka.generation_id': [4], 'kafka.protocol_name': ['range'], 'kafka.group_leader_id': ['member-1'], 'kafka.member_id': ['member-1', 'member-1', 'member-2'], 'kafka.consumer_group_instance': [NULL, 'static-2'] } });
  }
  const assignment = Uint8Array.from([0, 1, 0, 0, 0, 1, 0, 6, 111, 114, 100, 101, 114, 115, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 255, 255, 255, 255]);
  for (const version of [4, 5]) {
    capture.exchange(`SyncGroup v${version}`, 14, version,
      { groupId: 'group-a', generationId: 4, memberId: 'member-1', groupInstanceId: null, protocolType: version >= 5 ? 'consumer' : null, protocolName: version >= 5 ? 'range' : null,
        assignments: [{ memberId: 'member-1', assignment }, { memberId: 'member-2', assignment: new Uint8Array(0) }] },
      { throttleTimeMs: 0, errorCode: 0, protocolType: version >= 5 ? 'consumer' : null, protocolName: version >= 5 ? 'range' : null, assignment },
      { expectRequest: { 'kafka.consumer_group': ['group-a'], 'kafka.generation_id': [4], 'kafka.member_id': ['member-1', 'member-1', 'member-2'] },
        expectResponse: { 'kafka.error': [0], 'kafka.member_assignment': [hexColons(assignment)] } });
  }
  for (const version of [0, 4]) {
    capture.exchange(`Heartbeat v${version}`, 12, version,
      { groupId: 'group-a', generationId: 4, memberId: 'member-1', groupInstanceId: null },
      { throttleTimeMs: 0, errorCode: 27 },
      { expectRequest: { 'kafka.consumer_group': ['group-a'], 'kafka.generation_id': [4], 'kafka.member_id': ['member-1'] },
        expectResponse: { 'kafka.error': [27] } });
  }

  // CreateTopics v0 / v5 (flexible; replica assignments are a dissector quirk, see the sweep).
  for (const version of [0, 5]) {
    capture.exchange(`CreateTopics v${version}`, 19, version,
      { topics: [
        { name: 'orders', numPartitions: 6, replicationFactor: 3, assignments: [], configs: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'retention.ms', value: '1000' }] },
        { name: 'payments', numPartitions: -1, replicationFactor: -1, assignments: [], configs: [] }],
        timeoutMs: 30000, validateOnly: version >= 1 },
      { throttleTimeMs: 0, topics: [
        { name: 'orders', errorCode: 0, errorMessage: null, numPartitions: 6, replicationFactor: 3, configs: version >= 5 ? [{ name: 'cleanup.policy', value: 'compact', readOnly: false, configSource: 1, isSensitive: false }] : null },
        { name: 'payments', errorCode: 36, errorMessage: version >= 1 ? 'Topic already exists' : null, numPartitions: -1, replicationFactor: -1, configs: null }] },
      { expectRequest: { 'kafka.topic_name': ['orders', 'payments'], 'kafka.num_partitions': [6, -1], 'kafka.replication_factor': [3, -1], 'kafka.config_key': ['cleanup.policy', 'retention.ms'], 'kafka.config_value': ['compact', '1000'], 'kafka.timeout': [30000] },
        expectResponse: { 'kafka.topic_name': ['orders', 'payments'], 'kafka.error': [0, 36], ...(version >= 1 ? { 'kafka.error_message': [NULL, 'Topic already exists'] } : {}) } });
  }

  // DescribeConfigs v0-2 (the dissector knows no flexible version).
  for (const version of [0, 1, 2]) {
    capture.exchange(`DescribeConfigs v${version}`, 32, version,
      { resources: [{ resourceType: 2, resourceName: 'orders', configurationKeys: ['retention.ms', 'cleanup.policy'] }, { resourceType: 4, resourceName: '1', configurationKeys: null }], includeSynonyms: version >= 1 },
      { throttleTimeMs: 0, results: [
        { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders', configs: [
          { name: 'retention.ms', value: '604800000', readOnly: false, isDefault: version === 0, configSource: 5, isSensitive: false,
            synonyms: version >= 1 ? [{ name: 'log.retention.ms', value: '604800000', source: 5 }] : [] },
          { name: 'ssl.key.password', value: null, readOnly: true, isDefault: false, configSource: 4, isSensitive: true, synonyms: [] }] },
        { errorCode: 29, errorMessage: 'denied', resourceType: 4, resourceName: '1', configs: [] }] },
      { expectRequest: { 'kafka.config_resource_type': [2, 4], 'kafka.config_resource_name': ['orders', '1'], 'kafka.config_key': ['retention.ms', 'cleanup.policy'] },
        expectResponse: { 'kafka.error': [0, 29], 'kafka.config_resource_name': ['orders', '1'], 'kafka.config_key': version >= 1 ? ['retention.ms', 'log.retention.ms', 'ssl.key.password'] : ['retention.ms', 'ssl.key.password'], 'kafka.config_readonly': [0, 1], 'kafka.config_sensitive': [0, 1] } });
  }
}

function hexColons(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join(':');
}
