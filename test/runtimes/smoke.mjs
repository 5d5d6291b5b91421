// The runtime matrix's one smoke suite: plain JavaScript that every runtime runs (Node 22 and 24,
// Bun, Deno, workerd, Chromium, Firefox; launched by cli.mjs or web.mjs, driven by matrix.test.ts).
// The host Node runs it first with no golden and its output becomes the golden; every other run
// checks its own bytes and decodes against Node's. A check a runtime cannot do must end in the
// library's typed refusal (code UNSUPPORTED_RUNTIME), reported as `refused`, never a crash.
//
// `lib` holds the library's entries as the launcher imported them:
//   { root: 'kafka-wire' or 'kafka-wire/browser', capture: 'kafka-wire/capture', wire: 'kafka-wire/wire',
//     admin: 'kafka-wire/admin', producer: 'kafka-wire/producer', consumer: 'kafka-wire/consumer' }
// `kafka` (when the driver has real Kafka) is { bootstrap, topic, groupId, version, via, socket? }:
// the admin check creates the runtime's topic (3 partitions) with the Admin client, and the
// produce and consume checks run the Producer and a group Consumer against it, over the
// runtime's own transport (node:net; cloudflare:sockets in workerd) or `socket` (a WebSocket
// connector to kafka-wire bridge, for pages). Without it they are `skipped`.

/** The checks, in the runtimes table's column order (docs/runtimes.md). */
export const CHECKS = ['codec', 'fetch', 'zstd', 'explain', 'capture', 'errors', 'memory broker', 'admin', 'produce', 'consume'];
/** How many records the produce check sends to real Kafka and the consume check reads back. */
export const KAFKA_RECORDS = 1000;
/** The record codecs of the Fetch check; zstd has a check of its own (it may need initZstd()). */
const CODECS = ['none', 'gzip', 'snappy', 'lz4'];

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const fromHex = (hex) => Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
const utf8 = new TextDecoder();

/** The records a batch of codec `codec` holds: deterministic, compressible, with headers. */
function recordsFor(codec) {
  return Array.from({ length: 25 }, (_, i) => ({
    key: `${codec}-${i}`, value: `${codec} record ${i} `.repeat(8), headers: [{ key: 'n', value: String(i) }],
  }));
}

function sameRecords(batch, codec) {
  const want = recordsFor(codec);
  const got = batch.records;
  if (got.length !== want.length) throw new Error(`${codec}: ${got.length} records, expected ${want.length}`);
  got.forEach((r, i) => {
    const line = [utf8.decode(r.key), utf8.decode(r.value), r.headers.map((h) => `${h.key}=${utf8.decode(h.value)}`).join()].join('|');
    const expected = [want[i].key, want[i].value, `n=${i}`].join('|');
    if (line !== expected) throw new Error(`${codec} record ${i}: ${line.slice(0, 60)} is not ${expected.slice(0, 60)}`);
  });
}

/** A Fetch v12 response with one partition per codec. */
function fetchResponse(kw, batches) {
  return kw.encodeResponse(1, 12, { correlationId: 9 }, kw.newMessage(1, 'response', 12, {
    responses: [{
      topic: 'smoke',
      partitions: Object.entries(batches).map(([codec, records], partitionIndex) => ({
        partitionIndex, highWatermark: 25n, lastStableOffset: 25n, logStartOffset: 0n, abortedTransactions: [], records,
      })),
    }],
  }));
}

function fetchedBatches(kw, frame) {
  const { body } = kw.decodeResponse(frame, 1, 12);
  return body.responses[0].partitions.map((p) => kw.decodeRecordBatches(p.records).batches[0]);
}

/**
 * Runs every check. `golden` is the host Node's output (undefined when this run makes it);
 * `capture` is a pcap file's bytes. Returns { results: [{ check, status, detail }], produced }:
 * `produced` is this run's own bytes (the golden, when Node makes it; checked by the driver else).
 */
export async function runSmoke(lib, { golden, capture, kafka }) {
  const kw = lib.root;
  const results = [];
  const produced = {};
  const check = async (name, fn) => {
    if (fn === undefined) {
      results.push({ check: name, status: 'skipped', detail: 'no real Kafka given' });
      return;
    }
    try {
      results.push({ check: name, status: 'pass', detail: (await fn()) ?? '' });
    } catch (error) {
      const typed = error !== null && typeof error === 'object' && error.code === 'UNSUPPORTED_RUNTIME';
      results.push({ check: name, status: typed ? 'refused' : 'fail', detail: typed ? error.message : String(error?.stack ?? error) });
    }
  };
  const same = (what, mine, node) => {
    if (golden !== undefined && mine !== node) throw new Error(`${what} differs from Node's: ${String(mine).slice(0, 200)} vs ${String(node).slice(0, 200)}`);
  };

  // Every API's smallest request and response at every version: our bytes equal Node's, and
  // Node's bytes decode here and encode back to themselves.
  await check('codec', () => {
    const frames = {};
    for (const api of kw.apis) {
      for (const direction of ['request', 'response']) {
        const [from, to] = api[direction].validVersions;
        for (let v = from; v <= to; v++) {
          const body = kw.newMessage(api.apiKey, direction, v, {});
          const frame = direction === 'request'
            ? kw.encodeRequest({ requestApiKey: api.apiKey, requestApiVersion: v, correlationId: 7, clientId: 'smoke' }, body)
            : kw.encodeResponse(api.apiKey, v, { correlationId: 7 }, body);
          const id = `${api.name} ${direction} v${v}`;
          frames[id] = toHex(frame);
          const nodeHex = golden?.codec[id];
          same(id, frames[id], nodeHex);
          const nodeFrame = fromHex(nodeHex ?? frames[id]);
          const again = direction === 'request'
            ? (({ header, body: b }) => kw.encodeRequest(header, b))(kw.decodeRequest(nodeFrame))
            : kw.encodeResponse(api.apiKey, v, { correlationId: 7 }, kw.decodeResponse(nodeFrame, api.apiKey, v).body);
          same(`${id} decoded and encoded again`, toHex(again), toHex(nodeFrame));
        }
      }
    }
    if (golden !== undefined && Object.keys(golden.codec).length !== Object.keys(frames).length) throw new Error('a different set of APIs and versions than Node\'s');
    produced.codec = frames;
    return `${Object.keys(frames).length} frames`;
  });

  // A Fetch response with a batch in each codec: Node's decodes here; ours the driver decodes in Node.
  await check('fetch', () => {
    if (golden !== undefined) fetchedBatches(kw, fromHex(golden.fetch)).forEach((b, i) => sameRecords(b, CODECS[i]));
    const frame = fetchResponse(kw, Object.fromEntries(CODECS.map((c) => [c, kw.encodeRecordBatch({ compression: c, records: recordsFor(c) })])));
    fetchedBatches(kw, frame).forEach((b, i) => sameRecords(b, CODECS[i]));
    produced.fetch = toHex(frame);
    return CODECS.join(' ');
  });

  // zstd: decoding needs nothing; compressing needs initZstd() unless node:zlib has zstd.
  await check('zstd', async () => {
    if (golden !== undefined) sameRecords(fetchedBatches(kw, fromHex(golden.zstd))[0], 'zstd');
    const before = kw.zstdEngine();
    if (before === undefined) {
      let code;
      try { kw.encodeRecordBatch({ compression: 'zstd', records: recordsFor('zstd') }); } catch (error) { code = error.code; }
      if (code !== 'NOT_INITIALIZED') throw new Error(`zstd before initZstd(): expected NOT_INITIALIZED, got ${code}`);
    }
    await kw.initZstd();
    const frame = fetchResponse(kw, { zstd: kw.encodeRecordBatch({ compression: 'zstd', records: recordsFor('zstd') }) });
    sameRecords(fetchedBatches(kw, frame)[0], 'zstd');
    produced.zstd = toHex(frame);
    produced.zstdEngine = kw.zstdEngine();
    return `${before ?? 'none until initZstd(), then'} ${before === undefined ? kw.zstdEngine() : ''}`.trim();
  });

  // explain of a frame: the same text as Node's.
  await check('explain', () => {
    const frame = kw.sampleFrame(3, 'request', 12);
    const text = kw.formatExplainText(kw.buildExplainTree(frame, { direction: 'request' }));
    same('explain text', text, golden?.explain);
    produced.explain = text;
    return `${text.split('\n').length} lines`;
  });

  // A capture read: every frame paired and decoded to the same JSON as Node's.
  await check('capture', () => {
    const lines = [];
    for (const event of lib.capture.readCapture(capture)) {
      lines.push(event.type !== 'frame' ? `note ${event.kind}`
        : JSON.stringify(kw.frameToJson(event.direction, event.bytes, event.apiKey ?? undefined, event.apiVersion ?? undefined)));
    }
    const text = lines.join('\n');
    same('capture frames', text, golden?.capture);
    produced.capture = text;
    return `${lines.length} events`;
  });

  // Errors: typed, with the offset, from the entry that threw.
  await check('errors', () => {
    const frame = kw.sampleFrame(3, 'request', 12);
    try {
      kw.decodeRequest(frame.subarray(0, frame.length - 3));
      throw new Error('a truncated frame decoded');
    } catch (error) {
      if (!(error instanceof kw.KafkaWireError) || error.code !== 'FRAME_SIZE_MISMATCH' && error.code !== 'TRUNCATED') throw error;
    }
    const batch = kw.encodeRecordBatch({ records: recordsFor('none') });
    batch[20] ^= 1; // inside the CRC-covered part
    try {
      kw.decodeRecordBatches(batch);
      throw new Error('a corrupt batch decoded');
    } catch (error) {
      if (!(error instanceof kw.RecordsError) || error.code !== 'CRC_MISMATCH') throw error;
    }
    return 'KafkaWireError, RecordsError';
  });

  // connect() to the memory broker (started here, in this runtime), Produce, then consume it with Fetch.
  await check('memory broker', async () => {
    const { startMemoryBroker, connect } = lib.wire;
    const broker = await startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { smoke: 1 } });
    try {
      const conn = await connect({ host: broker.host, port: broker.port, clientId: 'smoke' });
      try {
        const records = kw.encodeRecordBatch({ compression: 'lz4', records: recordsFor('lz4') });
        const produce = await conn.request(0, 9, { acks: -1, timeoutMs: 5000, topicData: [{ name: 'smoke', partitionData: [{ index: 0, records }] }] });
        const code = produce.responses[0].partitionResponses[0].errorCode;
        if (code !== 0) throw new Error(`Produce: error code ${code}`);
        const fetch = await conn.request(1, 12, {
          maxWaitMs: 100, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0,
          topics: [{ topic: 'smoke', partitions: [{ partition: 0, fetchOffset: 0n, partitionMaxBytes: 1 << 20 }] }],
        });
        const part = fetch.responses[0].partitions[0];
        sameRecords(kw.decodeRecordBatches(part.records).batches[0], 'lz4');
        return `Produce v9 + Fetch v12 over TCP, high watermark ${part.highWatermark}`;
      } finally {
        await conn.close();
      }
    } finally {
      await broker.close();
    }
  });

  // The Producer sends KAFKA_RECORDS records to real Kafka; a Consumer in a group reads them back.
  const value = (i) => `record ${i} from ${kafka.via}`;
  const options = kafka === undefined ? undefined : { bootstrap: kafka.bootstrap, clientId: 'matrix', ...(kafka.socket === undefined ? {} : { socket: kafka.socket }) };
  await check('admin', kafka && (async () => {
    const admin = new lib.admin.Admin(options);
    try {
      const [created] = await admin.createTopics([{ name: kafka.topic, partitions: 3, replicationFactor: 1 }]);
      if (created.partitions !== 3) throw new Error(`created ${created.name} with ${created.partitions} partitions, expected 3`);
      const listed = await admin.listTopics();
      if (!listed.some((t) => t.name === kafka.topic)) throw new Error(`listTopics does not name ${kafka.topic}`);
      return `created ${kafka.topic} (3 partitions, id ${created.topicId}) and listed it over ${kafka.via}`;
    } finally {
      await admin.close();
    }
  }));
  let acked = 0;
  await check('produce', kafka && (async () => {
    const producer = new lib.producer.Producer({ ...options, lingerMs: 5 });
    try {
      const acks = await producer.send(kafka.topic, Array.from({ length: KAFKA_RECORDS }, (_, i) => ({ key: `k${i % 10}`, value: value(i) })));
      acked = acks.length;
      if (acked !== KAFKA_RECORDS) throw new Error(`${acked} records acknowledged, expected ${KAFKA_RECORDS}`);
      const partitions = new Set(acks.map((a) => a.partition)).size;
      return `${KAFKA_RECORDS} records to Kafka ${kafka.version} over ${kafka.via}, ${partitions} partitions`;
    } finally {
      await producer.close();
    }
  }));
  await check('consume', kafka && (async () => {
    if (acked !== KAFKA_RECORDS) throw new Error('nothing to consume: the produce check failed');
    const consumer = new lib.consumer.Consumer({ ...options, groupId: kafka.groupId, topics: [kafka.topic], resetPolicy: 'earliest' });
    const seen = new Set();
    try {
      for await (const batch of consumer) {
        for (const r of batch.records()) seen.add(utf8.decode(r.value));
        consumer.markFinished(batch);
        if (seen.size >= KAFKA_RECORDS) break;
      }
    } finally {
      await consumer.close();
    }
    for (let i = 0; i < KAFKA_RECORDS; i++) if (!seen.has(value(i))) throw new Error(`record ${i} was not read back`);
    if (seen.size !== KAFKA_RECORDS) throw new Error(`${seen.size} distinct records read, expected ${KAFKA_RECORDS}`);
    return `${KAFKA_RECORDS} records read back in group ${kafka.groupId} over ${kafka.via}`;
  }));

  return { results, produced };
}
