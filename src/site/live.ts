// Browser entry of assets/live.js: the explorer's live view (live.html). Given the address of a
// `kafka-wire bridge`, the page lists the cluster's topics (Metadata), tails a topic (ListOffsets,
// then Fetch from each partition's leader) showing each record's key, value and headers the way
// explain displays record data (quoted text when printable, else hex), and produces a record
// (Produce, acks=all). Every Kafka connection is one WebSocket to the bridge carrying one frame
// per message; a leader is reached as ws://BRIDGE/?broker=NAME:PORT, the name the bridge gave it
// in Metadata. Frames are encoded and decoded by the same codec as the explorer (./library.js).
import { decodeRecordBatches, decodeResponse, encodeRecordBatch, encodeRequest, escapeHtml, newMessage, spacedHex } from './library.js';

const METADATA = 3;
const LIST_OFFSETS = 2;
const FETCH = 1;
const PRODUCE = 0;
const VERSIONS: Record<number, number> = { [METADATA]: 12, [LIST_OFFSETS]: 7, [FETCH]: 12, [PRODUCE]: 9 };
/** How many records before the end a tail starts at, per partition. */
const TAIL_BACK = 20n;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One Kafka connection over one WebSocket to the bridge: requests answered by correlation id. */
class BridgeConnection {
  readonly #socket: WebSocket;
  readonly #opened: Promise<void>;
  readonly #pending = new Map<number, { apiKey: number; resolve: (body: Body) => void; reject: (error: Error) => void }>();
  #next = 1;

  constructor(url: string) {
    this.#socket = new WebSocket(url);
    this.#socket.binaryType = 'arraybuffer';
    this.#opened = new Promise((resolve, reject) => {
      this.#socket.onopen = () => resolve();
      this.#socket.onerror = () => reject(new Error(`cannot reach the bridge at ${url}`));
    });
    this.#socket.onmessage = (event) => {
      const frame = new Uint8Array(event.data as ArrayBuffer);
      const correlationId = new DataView(frame.buffer, frame.byteOffset).getInt32(4);
      const waiting = this.#pending.get(correlationId);
      if (waiting === undefined) return;
      this.#pending.delete(correlationId);
      try {
        waiting.resolve(decodeResponse(frame, waiting.apiKey, VERSIONS[waiting.apiKey]).body as Body);
      } catch (error) {
        waiting.reject(error as Error);
      }
    };
    this.#socket.onclose = (event) => {
      for (const waiting of this.#pending.values()) waiting.reject(new Error(`the bridge closed the connection (${event.code}${event.reason ? `: ${event.reason}` : ''})`));
      this.#pending.clear();
    };
  }

  async request(apiKey: number, body: Body): Promise<Body> {
    await this.#opened;
    const correlationId = this.#next++;
    const apiVersion = VERSIONS[apiKey];
    const frame = encodeRequest({ requestApiKey: apiKey, requestApiVersion: apiVersion, correlationId, clientId: 'kafka-wire-live' },
      newMessage(apiKey, 'request', apiVersion, body));
    return new Promise((resolve, reject) => {
      this.#pending.set(correlationId, { apiKey, resolve, reject });
      this.#socket.send(frame as Uint8Array<ArrayBuffer>);
    });
  }

  close(): void {
    this.#socket.close(1000);
  }
}

/** A leader's URL: the bridge's own, with the broker's made-up name. */
export function brokerUrl(bridge: string, host: string, port: number): string {
  const url = new URL(bridge);
  url.searchParams.set('broker', `${host}:${port}`);
  return url.toString();
}

function printable(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /^[^\u0000-\u001f\u007f]*$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** Record data as explain shows it: quoted text when it is printable UTF-8, else spaced hex; null as null. */
export function dataDisplay(bytes: Uint8Array | null | undefined): string {
  if (bytes === null || bytes === undefined) return 'null';
  const text = bytes.length > 0 ? printable(bytes) : null;
  return text === null ? (bytes.length === 0 ? '""' : spacedHex(bytes)) : JSON.stringify(text);
}

interface Cluster { brokers: Map<number, { host: string; port: number }>; topics: { name: string; partitions: { index: number; leader: number }[] }[] }

class Live {
  readonly bridge: string;
  readonly #bootstrap: BridgeConnection;
  readonly #leaders = new Map<number, BridgeConnection>();
  #tailing = 0;

  constructor(bridge: string) {
    this.bridge = bridge;
    this.#bootstrap = new BridgeConnection(bridge);
  }

  async cluster(): Promise<Cluster> {
    const answer = await this.#bootstrap.request(METADATA, { topics: null, allowAutoTopicCreation: false });
    const brokers = new Map<number, { host: string; port: number }>();
    for (const b of answer.brokers) brokers.set(b.nodeId, { host: b.host, port: b.port });
    const topics = (answer.topics as Body[]).filter((t) => !t.isInternal && t.errorCode === 0)
      .map((t) => ({ name: t.name as string, partitions: (t.partitions as Body[]).map((p) => ({ index: p.partitionIndex as number, leader: p.leaderId as number })).sort((a, b) => a.index - b.index) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { brokers, topics };
  }

  #leader(cluster: Cluster, nodeId: number): BridgeConnection {
    let conn = this.#leaders.get(nodeId);
    if (conn === undefined) {
      const broker = cluster.brokers.get(nodeId);
      if (broker === undefined) throw new Error(`no broker ${nodeId} in the metadata`);
      conn = new BridgeConnection(brokerUrl(this.bridge, broker.host, broker.port));
      this.#leaders.set(nodeId, conn);
    }
    return conn;
  }

  /** Follows `topic` from a little before its end, calling `show` with each record, until stop(). */
  async tail(topic: string, show: (r: { partition: number; offset: bigint; timestamp: bigint; key: Uint8Array | null; value: Uint8Array | null; headers: { key: string; value: Uint8Array | null }[] }) => void): Promise<void> {
    const run = ++this.#tailing;
    const cluster = await this.cluster();
    const info = cluster.topics.find((t) => t.name === topic);
    if (info === undefined) throw new Error(`no topic ${topic}`);
    const byLeader = new Map<number, number[]>();
    for (const p of info.partitions) byLeader.set(p.leader, [...(byLeader.get(p.leader) ?? []), p.index]);
    await Promise.all([...byLeader].map(async ([leader, partitions]) => {
      const conn = this.#leader(cluster, leader);
      const ends = await conn.request(LIST_OFFSETS, {
        replicaId: -1, isolationLevel: 0,
        topics: [{ name: topic, partitions: partitions.map((partitionIndex) => ({ partitionIndex, currentLeaderEpoch: -1, timestamp: -1n })) }],
      });
      const next = new Map<number, bigint>();
      for (const p of ends.topics[0].partitions) next.set(p.partitionIndex, p.offset > TAIL_BACK ? p.offset - TAIL_BACK : 0n);
      while (run === this.#tailing) {
        const answer = await conn.request(FETCH, {
          replicaId: -1, maxWaitMs: 500, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0,
          topics: [{ topic, partitions: partitions.map((partition) => ({ partition, fetchOffset: next.get(partition)!, partitionMaxBytes: 1 << 20 })) }],
        });
        if (run !== this.#tailing) return;
        for (const p of answer.responses[0].partitions) {
          if (p.errorCode !== 0 || p.records === null || p.records.length === 0) continue;
          for (const batch of decodeRecordBatches(p.records).batches) {
            for (const r of batch.records) {
              const offset = batch.baseOffset + BigInt(r.offsetDelta);
              if (offset < next.get(p.partitionIndex)!) continue;
              show({ partition: p.partitionIndex, offset, timestamp: batch.baseTimestamp + BigInt(r.timestampDelta), key: r.key, value: r.value, headers: r.headers });
              next.set(p.partitionIndex, offset + 1n);
            }
          }
        }
      }
    }));
  }

  stop(): void {
    this.#tailing++;
  }

  /** Produces one record to `topic`'s partition `partition`; its offset. */
  async produce(topic: string, partition: number, key: string | null, value: string): Promise<bigint> {
    const cluster = await this.cluster();
    const info = cluster.topics.find((t) => t.name === topic);
    const target = info?.partitions.find((p) => p.index === partition);
    if (target === undefined) throw new Error(`no partition ${partition} of ${topic}`);
    const records = encodeRecordBatch({ records: [{ key, value, timestamp: BigInt(Date.now()) }] });
    const answer = await this.#leader(cluster, target.leader).request(PRODUCE, {
      transactionalId: null, acks: -1, timeoutMs: 10_000, topicData: [{ name: topic, partitionData: [{ index: partition, records }] }],
    });
    const result = answer.responses[0].partitionResponses[0];
    if (result.errorCode !== 0) throw new Error(`Produce: error code ${result.errorCode}${result.errorMessage ? ` (${result.errorMessage})` : ''}`);
    return result.baseOffset;
  }

  close(): void {
    this.stop();
    this.#bootstrap.close();
    for (const conn of this.#leaders.values()) conn.close();
  }
}

function init(): void {
  const root = document.getElementById('live');
  if (root === null) return;
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const bridgeInput = $<HTMLInputElement>('bridge');
  const status = $<HTMLParagraphElement>('status');
  const topicsBody = $<HTMLTableSectionElement>('topics');
  const recordsBody = $<HTMLTableSectionElement>('records');
  const tailing = $<HTMLElement>('tailing');
  const produceTopic = $<HTMLSelectElement>('produce-topic');
  let live: Live | null = null;
  const say = (text: string, error = false) => { status.textContent = text; status.className = error ? 'error' : ''; };

  const refresh = async () => {
    if (live === null) return;
    const { topics } = await live.cluster();
    topicsBody.innerHTML = topics.map((t) => `<tr><td>${escapeHtml(t.name)}</td><td>${t.partitions.length}</td>`
      + `<td><button type="button" data-tail="${escapeHtml(t.name)}">tail</button></td></tr>`).join('');
    produceTopic.innerHTML = topics.map((t) => `<option>${escapeHtml(t.name)}</option>`).join('');
    say(`${topics.length} topics through ${live.bridge}`);
  };

  const connect = async () => {
    live?.close();
    live = new Live(bridgeInput.value.trim());
    try {
      await refresh();
    } catch (error) {
      say(String((error as Error).message ?? error), true);
    }
  };

  const tail = (topic: string) => {
    if (live === null) return;
    live.stop();
    recordsBody.innerHTML = '';
    tailing.textContent = topic;
    const current = live;
    current.tail(topic, (r) => {
      const row = document.createElement('tr');
      row.innerHTML = `<td>${r.partition}</td><td>${r.offset}</td><td>${escapeHtml(new Date(Number(r.timestamp)).toISOString())}</td>`
        + `<td class="key">${escapeHtml(dataDisplay(r.key))}</td><td class="value">${escapeHtml(dataDisplay(r.value))}</td>`
        + `<td>${escapeHtml(r.headers.map((h) => `${h.key}=${dataDisplay(h.value)}`).join(', '))}</td>`;
      recordsBody.append(row);
    }).catch((error) => say(`tail ${topic}: ${(error as Error).message}`, true));
  };

  $<HTMLButtonElement>('connect').addEventListener('click', () => { void connect(); });
  $<HTMLButtonElement>('refresh').addEventListener('click', () => { refresh().catch((error) => say((error as Error).message, true)); });
  topicsBody.addEventListener('click', (event) => {
    const topic = (event.target as HTMLElement).dataset?.tail;
    if (topic !== undefined) tail(topic);
  });
  $<HTMLFormElement>('produce').addEventListener('submit', (event) => {
    event.preventDefault();
    if (live === null) return;
    const key = $<HTMLInputElement>('produce-key').value;
    const value = $<HTMLInputElement>('produce-value').value;
    const partition = Number($<HTMLInputElement>('produce-partition').value || '0');
    live.produce(produceTopic.value, partition, key === '' ? null : key, value)
      .then((offset) => say(`produced to ${produceTopic.value} partition ${partition} at offset ${offset}`))
      .catch((error) => say(`produce: ${(error as Error).message}`, true));
  });

  // live.html?bridge=ws://HOST:PORT/ connects at once.
  const given = new URLSearchParams(location.search).get('bridge');
  if (given !== null) {
    bridgeInput.value = given;
    void connect();
  }
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}
