// Every exported function of every entry of the package works as the first call of a process: no
// WebAssembly module, cache or table another call would have set up first. The list of exports is
// read from the built entries (package.json's exports map), so a new export without a case here
// fails until it gets one; each runs in its own fresh Node process.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeRequest, encodeResponse, newMessage } from '../../src/index.js';
import { compress, encodeRecordBatch, initZstd } from '../../src/records/index.js';
import { toHex } from '../../src/text.js';
import { repoRoot } from '../helpers/shared.js';
import { captureOf, conversationSegments, sampleExchanges } from '../capture/helpers.js';

const run = promisify(execFile);
const built = existsSync(join(repoRoot, 'dist', 'src', 'index.js'));
if (!built) console.warn('SKIPPED: the first-call test needs `npm run build` first');

/**
 * The built files behind each entry of package.json's exports, as Node loads them: the `import`
 * file (ESM) and the `require` file (CommonJS) where there is one; ./apis/* as one of its files.
 */
function entries(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const out = new Map<string, string>();
  const fileOf = (target: any): string | undefined =>
    typeof target === 'string' ? target : target?.default === undefined ? undefined : fileOf(target.default);
  for (const [name, target] of Object.entries<any>(pkg.exports)) {
    const forms: [string, string | undefined][] = typeof target === 'string'
      ? [[name, target]]
      : [[name, fileOf(target.import ?? target)], [`${name} (require)`, fileOf(target.require)]];
    for (const [label, file] of forms) {
      if (file === undefined || !/\.(c|m)?js$/.test(file)) continue;
      out.set(label, join(repoRoot, file.replace('*', 'Metadata')));
    }
  }
  return out;
}

const HELLO = new TextEncoder().encode('hello hello hello hello hello');
const schemasDir = join(repoRoot, 'test', 'fixtures', 'schemas');
const request = encodeRequest({ requestApiKey: 3, requestApiVersion: 12, correlationId: 1, clientId: 'c' },
  { topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'orders' }] });
const response = encodeResponse(3, 12, { correlationId: 1 }, newMessage(3, 'response', 12, { brokers: [{ nodeId: 1, host: 'b', port: 9092, rack: null }] }));
const batch = encodeRecordBatch({ baseOffset: 0n, records: [{ key: 'k', value: 'v', headers: [{ key: 'h', value: 'x' }] }] });

/** Inputs every child gets: `...Hex` keys arrive as bytes. */
async function inputs(dir: string): Promise<Record<string, string>> {
  await initZstd();
  const pcap = join(dir, 'sample.pcap');
  writeFileSync(pcap, captureOf(conversationSegments(sampleExchanges()).segments));
  return {
    requestHex: toHex(request), responseHex: toHex(response), batchHex: toHex(batch), helloHex: toHex(HELLO),
    gzipHex: toHex(compress('gzip', HELLO)), snappyHex: toHex(compress('snappy', HELLO)),
    lz4Hex: toHex(compress('lz4', HELLO)), zstdHex: toHex(compress('zstd', HELLO)),
    pcapHex: toHex(readFileSync(pcap)), schemasDir,
    schemaText: readFileSync(join(schemasDir, 'MetadataRequest.json'), 'utf8'),
    responseSchemaText: readFileSync(join(schemasDir, 'MetadataResponse.json'), 'utf8'),
    zstdWasm: join(repoRoot, 'dist', 'browser', 'zstd.wasm'),
  };
}

const SEGMENT = `{ source: { ip: '127.0.0.1', port: 5000 }, destination: { ip: '127.0.0.1', port: 9092 }, seq: 1, ack: 0, flags: 2, payload: new Uint8Array(0), timeNs: 1n }`;
const HEADER = `{ requestApiKey: 3, requestApiVersion: 12, correlationId: 1, clientId: 'c' }`;
const TREE = `m.buildExplainTree(I.requestHex, { direction: 'request' })`;
const WITH_BROKER = (use: string) => `const b = await m.startMemoryBroker({ topics: { t: 1 } }); try { ${use} } finally { await b.close(); }`;
/** For entries without a broker of their own (producer, consumer): kafka-wire/wire's, as `w`. */
const WITH_WIRE_BROKER = (use: string) => `const w = await import(I.wireUrl); const b = await w.startMemoryBroker({ topics: { t: 1 } }); `
  + `const bootstrap = b.host + ':' + b.port; try { ${use} } finally { await b.close(); }`;
/**
 * The group APIs against the memory broker, which serves no group requests: a typed refusal is the
 * right first-call answer (it proves the call got as far as asking), anything else is not.
 */
const TYPED_REFUSAL = (call: string) => WITH_WIRE_BROKER(`const client = new w.KafkaClient({ bootstrap, requestTimeoutMs: 2000 }); `
  + `try { await ${call}; } catch (e) { const is = (C) => typeof C === 'function' && e instanceof C; `
  + `if (!(is(w.ConnectionError) || is(m.ConsumerError) || is(m.PartitionErrors) || /lacks|not support|unsupported/i.test(e.message))) throw e; } finally { await client.close(); }`);

/**
 * How to call each export as a user would (the source of an async function over the entry `m` and
 * the inputs `I`). A string starting with "-" is not a call but why there is none to make.
 */
const CALLS: Record<string, string> = {
  // codec
  encodeRequest: `m.encodeRequest(${HEADER}, { topics: null })`,
  encodeRequestParts: `m.encodeRequestParts(${HEADER}, { topics: null })`,
  decodeRequest: `m.decodeRequest(I.requestHex)`,
  encodeResponse: `m.encodeResponse(3, 12, { correlationId: 1 }, {})`,
  decodeResponse: `m.decodeResponse(I.responseHex, 3, 12)`,
  encodeBody: `m.encodeBody(3, 'request', 12, { topics: null })`,
  decodeBody: `m.decodeBody(3, 'request', 12, m.encodeBody(3, 'request', 12, {}))`,
  requestSize: `m.requestSize(${HEADER}, {})`,
  responseSize: `m.responseSize(3, 12, { correlationId: 1 }, {})`,
  newMessage: `m.newMessage(3, 'request', 12, { topics: [{ name: 'x' }] })`,
  getApi: `m.getApi(3)`,
  findApi: `m.findApi(3)`,
  peekRequest: `const p = m.peekRequest(I.requestHex); if (p.apiKey !== 3 || p.apiVersion !== 12) throw new Error('peeked ' + JSON.stringify(p))`,
  requestHeaderVersion: `m.requestHeaderVersion(3, 12)`,
  responseHeaderVersion: `m.responseHeaderVersion(3, 12)`,
  headerVersionFor: `m.headerVersionFor((m.apis ?? [])[3]?.request ?? (await import(I.metadataApiUrl)).metadataApi.request, 12)`,
  encodeRequestFor: `const { metadataApi } = await import(I.metadataApiUrl); m.encodeRequestFor(metadataApi, ${HEADER}, {})`,
  encodeRequestPartsFor: `const { metadataApi } = await import(I.metadataApiUrl); m.encodeRequestPartsFor(metadataApi, ${HEADER}, {})`,
  decodeRequestFor: `const { metadataApi } = await import(I.metadataApiUrl); m.decodeRequestFor(metadataApi, I.requestHex)`,
  encodeResponseFor: `const { metadataApi } = await import(I.metadataApiUrl); m.encodeResponseFor(metadataApi, 12, { correlationId: 1 }, {})`,
  decodeResponseFor: `const { metadataApi } = await import(I.metadataApiUrl); m.decodeResponseFor(metadataApi, I.responseHex, 12)`,
  prepareResponseFor: `const { metadataApi } = await import(I.metadataApiUrl); m.prepareResponseFor(metadataApi, 12); m.decodeResponseFor(metadataApi, I.responseHex, 12)`,
  encodeBodyFor: `const { metadataApi } = await import(I.metadataApiUrl); m.encodeBodyFor(metadataApi.request, 12, {})`,
  decodeBodyFor: `const { metadataApi } = await import(I.metadataApiUrl); m.decodeBodyFor(metadataApi.request, 12, m.encodeBodyFor(metadataApi.request, 12, {}))`,
  requestSizeFor: `const { metadataApi } = await import(I.metadataApiUrl); m.requestSizeFor(metadataApi, ${HEADER}, {})`,
  responseSizeFor: `const { metadataApi } = await import(I.metadataApiUrl); m.responseSizeFor(metadataApi, 12, { correlationId: 1 }, {})`,
  newMessageFor: `const { metadataApi } = await import(I.metadataApiUrl); m.newMessageFor(metadataApi.request, 12, {})`,
  frameToJson: `m.frameToJson('request', I.requestHex)`,
  frameFromJson: `m.frameFromJson({ direction: 'request', apiKey: 3, apiVersion: 12, header: { correlationId: 1, clientId: null }, body: {} })`,
  structToJson: '- takes a compiled struct, which only the library itself holds (frameToJson is the public form)',
  structFromJson: '- takes a compiled struct, which only the library itself holds (frameFromJson is the public form)',
  init: `await m.init(); m.decodeRequest ? m.decodeRequest(I.requestHex) : null`,
  // The browser build fetches zstd.wasm beside itself, which Node's fetch cannot do from file://: given the bytes.
  initZstd: `await m.initZstd({ wasm: (await import('node:fs')).readFileSync(I.zstdWasm) })`,
  KafkaWireError: `new m.KafkaWireError('TRUNCATED', 3, 'x')`,
  UnsupportedRuntimeError: `new m.UnsupportedRuntimeError('a runtime', 'TCP')`,
  runtimeName: `m.runtimeName()`,
  // logger
  createLogger: `const seen = []; m.createLogger({ level: 'debug', sink: (e) => seen.push(e) }).debug('x', { password: 'p' }); if (seen[0]?.fields.password !== '[redacted]') throw new Error(JSON.stringify(seen))`,
  consoleSink: `m.consoleSink({ time: 0, level: 'debug', component: 'first-call', message: 'a line on stderr', fields: {} })`,
  redact: `const r = m.redact({ token: 't' }); if (r.token !== '[redacted]') throw new Error(JSON.stringify(r))`,
  redactText: `if (m.redactText('password=p') !== 'password=[redacted]') throw new Error('not redacted')`,
  isSecretName: `if (!m.isSecretName('sasl.password')) throw new Error('not a secret')`,
  withDebugCallback: `const lines = []; m.withDebugCallback(m.silentLogger, (l) => lines.push(l)).debug('x'); if (lines[0] !== 'x') throw new Error(JSON.stringify(lines))`,
  // catalogue
  catalogueFromSchemas: `m.catalogueFromSchemas([I.schemaText, I.responseSchemaText])`,
  createCatalogue: `m.createCatalogue({ apis: [] })`,
  loadCatalogue: `m.loadCatalogue(I.schemasDir)`,
  messageSchemasDir: `m.messageSchemasDir(I.schemasDir)`,
  parseMessage: `m.parseMessage(m.parseSchemaText(I.schemaText))`,
  parseSchemaText: `m.parseSchemaText(I.schemaText)`,
  parseSchemas: `m.parseSchemas([I.schemaText, I.responseSchemaText])`,
  schemaJsonOf: `m.schemaJsonOf(m.parseMessage(m.parseSchemaText(I.schemaText)))`,
  SchemaError: `new m.SchemaError('x')`,
  // explain
  buildExplainTree: TREE,
  explainFrame: `m.explainFrame(I.requestHex, { direction: 'request', schemasDir: I.schemasDir })`,
  flattenTree: `m.flattenTree(${TREE}.root)`,
  formatExplainJson: `m.formatExplainJson(${TREE})`,
  formatExplainText: `m.formatExplainText(${TREE})`,
  formatNodeLine: `m.formatNodeLine(${TREE}.root)`,
  formatHexHtml: `m.formatHexHtml(m.hexLayout(I.requestHex))`,
  formatHexText: `m.formatHexText(m.hexLayout(I.requestHex))`,
  formatLegendHtml: `m.formatLegendHtml()`,
  formatTreeHtml: `m.formatTreeHtml(${TREE})`,
  hexLayout: `m.hexLayout(I.requestHex)`,
  parseHexInput: `m.parseHexInput('00 01')`,
  spacedHex: `m.spacedHex(I.requestHex)`,
  isHexText: `if (!m.isHexText('00 0a ff')) throw new Error('hex text')`,
  escapeHtml: `if (m.escapeHtml('<a>') !== '&lt;a&gt;') throw new Error('escaped')`,
  sampleFrame: `m.sampleFrame(3, 'request', 12)`,
  sampleMessage: `m.sampleMessage(3, 'request', 12)`,
  sampleHeader: `m.sampleHeader(3, 'request', 12)`,
  sampleStruct: '- takes a compiled struct, which only the library itself holds (sampleMessage is the public form)',
  sampleRecordBatch: `m.sampleRecordBatch()`,
  realisticFrame: `m.realisticFrame(0, 9, 'request', { seed: 2 })`,
  realisticMessage: `m.realisticMessage(1, 12, 'response', { seed: 2 })`,
  descriptionsFrom: `m.descriptionsFrom(new Map())`,
  truncateDescription: `m.truncateDescription('a long text. more')`,
  addSchemaText: `m.addSchemaText(new Map(), I.schemaText)`,
  stripJsonComments: `m.stripJsonComments('// x\\n{}')`,
  loadDescriptions: `m.loadDescriptions(I.schemasDir)`,
  loadDescriptionTable: `m.loadDescriptionTable(I.schemasDir)`,
  defaultSchemasDir: `m.defaultSchemasDir()`,
  readSchemaText: `m.readSchemaText(I.schemasDir, 'MetadataRequest')`,
  // records
  decodeRecordBatches: `m.decodeRecordBatches(I.batchHex)`,
  encodeRecordBatch: `m.encodeRecordBatch({ records: [{ value: 'v' }] })`,
  RecordBatch: '- instances come from decodeRecordBatches',
  KafkaRecord: '- instances come from decodeRecordBatches',
  decodeControl: `m.decodeControl({ key: new Uint8Array([0, 0, 0, 1]), value: null })`,
  RecordsError: `new m.RecordsError('TRUNCATED', 'x')`,
  crc32c: `m.crc32c(I.helloHex)`,
  crc32: `m.crc32(I.helloHex)`,
  recordBatchToJson: `m.recordBatchToJson(m.decodeRecordBatches(I.batchHex).batches[0])`,
  recordBatchesToJson: `m.recordBatchesToJson(m.decodeRecordBatches(I.batchHex).batches)`,
  toHex: `m.toHex(I.helloHex)`,
  compress: `for (const c of ['gzip', 'snappy', 'lz4']) m.compress(c, I.helloHex)`,
  decompress: `for (const c of ['gzip', 'snappy', 'lz4', 'zstd']) m.decompress(c, I[c + 'Hex'])`,
  zstdEngine: `m.zstdEngine()`,
  // wire
  FrameSplitter: `new m.FrameSplitter().push(I.requestHex)`,
  FrameSplitterStream: `new m.FrameSplitterStream()`,
  FrameError: `new m.FrameError('TRUNCATED', 'x', 0)`,
  createFrameSplitterTransform: `m.createFrameSplitterTransform()`,
  FramePool: `const p = new m.FramePool(); p.giveBack(p.take(2 << 20).buffer); p.take(2 << 20)`,
  ConnectionError: `new m.ConnectionError('CLOSED', 'x')`,
  TopicError: `new m.TopicError('t', 3, 'x')`,
  kafkaErrorName: `m.kafkaErrorName(3)`,
  connect: WITH_BROKER(`const c = await m.connect({ host: b.host, port: b.port }); await c.close();`),
  Connection: '- instances come from connect()',
  startServer: `const s = await m.startServer({ port: 0, handler: () => null }); await s.close();`,
  apiVersionsResponse: `m.apiVersionsResponse()`,
  startMemoryBroker: WITH_BROKER(''),
  KafkaClient: WITH_BROKER(`const c = new m.KafkaClient({ bootstrap: b.host + ':' + b.port }); await c.topic('t'); await c.close();`),
  parseHostPort: `m.parseHostPort('h:1')`,
  supportedVersions: `m.supportedVersions(3)`,
  allSupportedVersions: `m.allSupportedVersions()`,
  usableVersion: `m.usableVersion(3, { min: 0, max: 12 })`,
  apiName: `m.apiName(3)`,
  murmur2: `m.murmur2(I.helloHex)`,
  partitionForKey: `m.partitionForKey(I.helloHex, 3)`,
  readCommitted: `m.readCommitted(m.decodeRecordBatches ? m.decodeRecordBatches(I.batchHex).batches : [], null)`,
  ScramClient: `new m.ScramClient('SCRAM-SHA-256', 'alice', 'pw').clientFirst()`,
  ScramError: `new m.ScramError('x')`,
  // records, for the producer
  RecordColumns: `const c = new m.RecordColumns(); c.add(I.helloHex, I.helloHex, 0); c.encode({ baseOffset: 0n })`,
  encodeRecordBatchFromSpec: `const c = new m.RecordColumns(); c.add(null, I.helloHex, 0); c.encode({ baseOffset: 0n, compression: 'lz4' })`,
  // producer
  createProducer: WITH_WIRE_BROKER(`const p = await m.createProducer({ bootstrap }); try { await p.send('t', [{ key: 'k', value: 'v' }]); } finally { await p.close(); }`),
  Producer: '- instances come from createProducer()',
  ProducerError: `new m.ProducerError('UNKNOWN_TOPIC', 'x')`,
  DelimitedWriter: WITH_WIRE_BROKER(`const p = await m.createProducer({ bootstrap }); try { await p.topic('t'); const w = new m.DelimitedWriter(p, 't', { recordDelimiter: I.helloHex.subarray(0, 1), keyDelimiter: new Uint8Array(0) }); await w.push(I.helloHex); await w.end(); await p.flush(); } finally { await p.close(); }`),
  // consumer
  Consumer: WITH_WIRE_BROKER(`const c = new m.Consumer({ bootstrap, assign: [{ topic: 't' }] }); await c.start(); await c.close();`),
  PartitionBatch: '- instances come from a Consumer',
  ConsumerError: `new m.ConsumerError('CLOSED', 'x')`,
  // serdes (consumer and producer entries)
  jsonSafe: `JSON.stringify(m.jsonSafe({ offset: 1n, key: m.serdes.string.serialize('k') }))`,
  SerdeError: `new m.SerdeError('SERIALIZE', 't', 'key', 'x', undefined, undefined, null)`,
  encodeSubscription: `m.decodeSubscription(m.encodeSubscription({ topics: ['t'] }))`,
  decodeSubscription: `m.decodeSubscription(m.encodeSubscription({ topics: ['t'] }))`,
  encodeAssignment: `m.decodeAssignment(m.encodeAssignment({ assignedPartitions: [{ topic: 't', partitions: [0] }] }))`,
  decodeAssignment: `m.decodeAssignment(m.encodeAssignment({ assignedPartitions: [{ topic: 't', partitions: [0] }] }))`,
  fetchCommitted: TYPED_REFUSAL(`m.fetchCommitted(await client.anyConnection(), 'g', [{ topic: 't', partitions: [0] }])`),
  commitOffsets: TYPED_REFUSAL(`m.commitOffsets(await client.anyConnection(), { groupId: 'g', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null }, new Map([['t', new Map([[0, 1n]])]]))`),
  listOffsets: WITH_WIRE_BROKER(`const client = new w.KafkaClient({ bootstrap }); try { await m.listOffsets(client, [{ topic: 't', partitions: [0] }], -1n); } finally { await client.close(); }`),
  PartitionErrors: `new m.PartitionErrors('x', [])`,
  startOffsets: WITH_WIRE_BROKER(`const client = new w.KafkaClient({ bootstrap }); try { await m.startOffsets(client, 't', [0], 'earliest'); } finally { await client.close(); }`),
  readAssigned: WITH_WIRE_BROKER(`const client = new w.KafkaClient({ bootstrap }); try { const info = await client.topic('t'); `
    + `await m.readAssigned(client, info, { start: await m.startOffsets(client, 't', [0], 'earliest'), exitAtEnd: true, record() {} }); } finally { await client.close(); }`),
  ClassicMembership: '- driven by a Consumer with a group id (test/consumer/membership.test.ts)',
  NextGenMembership: '- driven by a Consumer with a group id (test/consumer/group-kafka.test.ts)',
  listGroups: TYPED_REFUSAL(`m.listGroups(client)`),
  describeGroup: TYPED_REFUSAL(`m.describeGroup(client, 'g')`),
  resetOffsets: TYPED_REFUSAL(`m.resetOffsets(client, 'g', 'earliest')`),
  // kafkajs
  Kafka: WITH_WIRE_BROKER(`const k = new m.Kafka({ brokers: [bootstrap], logLevel: m.logLevel.NOTHING }); const p = k.producer(); await p.connect(); try { await p.send({ topic: 't', messages: [{ key: 'k', value: 'v' }] }); } finally { await p.disconnect(); }`),
  KafkaJSError: `if (!(new m.KafkaJSError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSNonRetriableError: `if (!(new m.KafkaJSNonRetriableError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSPartialMessageError: `if (!(new m.KafkaJSPartialMessageError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSBrokerNotFound: `if (!(new m.KafkaJSBrokerNotFound('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSProtocolError: `if (!(new m.KafkaJSProtocolError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSConnectionError: `if (!(new m.KafkaJSConnectionError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSConnectionClosedError: `if (!(new m.KafkaJSConnectionClosedError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSRequestTimeoutError: `if (!(new m.KafkaJSRequestTimeoutError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSSASLAuthenticationError: `if (!(new m.KafkaJSSASLAuthenticationError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSNumberOfRetriesExceeded: `if (!(new m.KafkaJSNumberOfRetriesExceeded('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSOffsetOutOfRange: `if (!(new m.KafkaJSOffsetOutOfRange('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSMemberIdRequired: `if (!(new m.KafkaJSMemberIdRequired('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSGroupCoordinatorNotFound: `if (!(new m.KafkaJSGroupCoordinatorNotFound('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSNotImplemented: `if (!(new m.KafkaJSNotImplemented('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSMetadataNotLoaded: `if (!(new m.KafkaJSMetadataNotLoaded('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSTopicMetadataNotLoaded: `if (!(new m.KafkaJSTopicMetadataNotLoaded('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSStaleTopicMetadataAssignment: `if (!(new m.KafkaJSStaleTopicMetadataAssignment('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSDeleteGroupsError: `if (!(new m.KafkaJSDeleteGroupsError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSTimeout: `if (!(new m.KafkaJSTimeout('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSLockTimeout: `if (!(new m.KafkaJSLockTimeout('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSServerDoesNotSupportApiKey: `if (!(new m.KafkaJSServerDoesNotSupportApiKey('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSUnsupportedMagicByteInMessageSet: `if (!(new m.KafkaJSUnsupportedMagicByteInMessageSet('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSInvariantViolation: `if (!(new m.KafkaJSInvariantViolation('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSInvalidVarIntError: `if (!(new m.KafkaJSInvalidVarIntError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSInvalidLongError: `if (!(new m.KafkaJSInvalidLongError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSCreateTopicError: `if (!(new m.KafkaJSCreateTopicError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSFetcherRebalanceError: `if (!(new m.KafkaJSFetcherRebalanceError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSAlterPartitionReassignmentsError: `if (!(new m.KafkaJSAlterPartitionReassignmentsError('x') instanceof Error)) throw new Error('not an Error')`,
  KafkaJSDeleteTopicRecordsError: `new m.KafkaJSDeleteTopicRecordsError({ topic: 't', partitions: [] })`,
  KafkaJSAggregateError: `new m.KafkaJSAggregateError('x', [])`,
  KafkaJSNoBrokerAvailableError: `new m.KafkaJSNoBrokerAvailableError()`,
  isKafkaJSError: `if (!m.isKafkaJSError(new m.KafkaJSError('x'))) throw new Error('not recognised')`,
  isRebalancing: `if (!m.isRebalancing(new m.KafkaJSProtocolError(27))) throw new Error('not recognised')`,
  // admin
  Admin: WITH_WIRE_BROKER(`const a = new m.Admin({ bootstrap }); try { await a.listTopics(); } finally { await a.close(); }`),
  createAdmin: WITH_WIRE_BROKER(`const a = await m.createAdmin({ bootstrap }); try { await a.describeTopics(['t']); } finally { await a.close(); }`),
  AdminError: `new m.AdminError('BROKER', 'x', { errorCode: 36 })`,
  assignReplicas: `if (m.assignReplicas('t', 3, 2, [{ id: 1, rack: null }, { id: 2, rack: null }]).length !== 3) throw new Error('not 3 partitions')`,
  metadataVersionName: `if (m.metadataVersionName(33) !== '4.4-IV2') throw new Error('not 4.4-IV2')`,
  // capture
  CaptureFileReader: `new m.CaptureFileReader().push(I.pcapHex)`,
  capturedPackets: `[...m.capturedPackets(I.pcapHex)]`,
  tcpSegment: `m.tcpSegment(101, m.encodePacket(101, ${SEGMENT}))`,
  ipv6Text: `m.ipv6Text(new Uint8Array(16), 0)`,
  TcpDirection: `new m.TcpDirection({ data() {}, gap() {}, finish() {} }).segment(1, true, new Uint8Array(0), 1n, 0)`,
  CaptureReader: `const r = new m.CaptureReader(); r.push(I.pcapHex); r.end()`,
  readCapture: `[...m.readCapture(I.pcapHex)]`,
  readCaptureStream: `for await (const _ of m.readCaptureStream((async function* () { yield I.pcapHex; })())) {}`,
  plausibleRequest: `m.plausibleRequest(I.requestHex, 0, 1 << 20)`,
  captureFrameToJson: `for (const e of m.readCapture(I.pcapHex)) if (e.type === 'frame' || e.kind === 'frame' || e.frame) m.captureFrameToJson(e.frame ?? e)`,
  captureNoteToJson: `m.captureNoteToJson({ kind: 'gap', connection: 'a', direction: null, timeNs: 1n, packet: 0, message: 'x' })`,
  formatCaptureTime: `m.formatCaptureTime(1n, 6)`,
  writeCaptureFrameLine: `const w = new m.JsonWriter(); for (const e of m.readCapture(I.pcapHex)) if (e.frame) m.writeCaptureFrameLine(w, e.frame)`,
  JsonWriter: `new m.JsonWriter().value({ a: 1n })`,
  CaptureFileWriter: `new m.CaptureFileWriter().header()`,
  TcpConversation: `new m.TcpConversation({ ip: '127.0.0.1', port: 1 }, { ip: '127.0.0.1', port: 9092 }).open(1n)`,
  encodePacket: `m.encodePacket(101, ${SEGMENT})`,
  encodePacketHeaders: `m.encodePacketHeaders(101, ${SEGMENT})`,
  ipBytes: `m.ipBytes('127.0.0.1')`,
  // observe
  KafkaChannel: `const c = new m.KafkaChannel('kafka-wire:first-call'); if (c.active) throw new Error('active with no subscriber'); await c.tracePromise(() => ({}), async () => 1)`,
  diagnosticsAvailable: `if (m.diagnosticsAvailable() !== true) throw new Error('no diagnostics channels in Node')`,
  Metrics: `const x = new m.Metrics('c'); x.meter('producer-metrics', 'record-send').record(); if (x.snapshot().length !== 2) throw new Error('snapshot')`,
  Meter: `const x = new m.Meter(() => 0); x.record(2); if (x.total !== 2) throw new Error('total')`,
  Stat: `const x = new m.Stat(() => 0); x.record(3); if (x.max() !== 3) throw new Error('max')`,
  metricsByName: `m.metricsByName([{ name: 'a', group: 'g', tags: {}, value: 1 }])`,
  registerPrometheus: `const prom = await import('prom-client'); const r = new prom.Registry(); m.registerPrometheus({ metrics: () => [], metricNames: () => [{ group: 'producer-metrics', name: 'x' }] }, prom, { registry: r }); await r.metrics()`,
  prometheusName: `m.prometheusName('producer-metrics', 'record-send-rate')`,
  observeWithOpenTelemetry: `const api = await import('@opentelemetry/api'); m.observeWithOpenTelemetry({ metrics: () => [], metricNames: () => [{ group: 'producer-metrics', name: 'x' }] }, api.metrics.getMeter('x'))`,
  openTelemetryName: `m.openTelemetryName('producer-metrics', 'record-send-rate')`,
  traceProducer: `const api = await import('@opentelemetry/api'); const p = m.traceProducer({ send: async () => [{ partition: 0, offset: 1n }] }, api); await p.send('t', { value: 'v' })`,
  traceProcessing: `const api = await import('@opentelemetry/api'); await m.traceProcessing(api, { topic: 't', partition: 0 }, { offset: 0n, key: null, value: null, headers: [] }, () => 1)`,
  // wire: SASL mechanisms
  defaultReauthenticateAfterMs: `const v = m.defaultReauthenticateAfterMs(10000); if (!(v >= 8500 && v <= 9500)) throw new Error('re-authenticate after ' + v)`,
  SaslError: `new m.SaslError('PLAIN', 'x')`,
  SaslRefusal: `new m.SaslRefusal('x', 'invalid_token')`,
  saslMechanism: `m.saslMechanism({ mechanism: 'PLAIN', username: 'u', password: 'p' })`,
  authenticateSasl: `const b = await m.startMemoryBroker({ sasl: { username: 'u', password: 'p' } }); try { const c = await m.connect({ host: b.host, port: b.port }); try { await m.authenticateSasl(c, m.plainMechanism({ username: 'u', password: 'p' })); } finally { await c.close(); } } finally { await b.close(); }`,
  plainMechanism: `m.plainMechanism({ username: 'u', password: 'p' }).name`,
  scramMechanism: `m.scramMechanism({ mechanism: 'SCRAM-SHA-256', username: 'u', password: 'p' }).name`,
  oauthBearerMechanism: `m.oauthBearerMechanism({ token: () => ({ value: 't', expiresAt: Date.now() + 60000 }) }).name`,
  oauthBearerInitialResponse: `m.oauthBearerInitialResponse('t')`,
  unsecuredJws: `m.unsecuredJws({ principal: 'alice' })`,
  cachedTokenProvider: `await m.cachedTokenProvider(() => ({ value: 't', expiresAt: Date.now() + 3600000 }))()`,
  refreshAt: `m.refreshAt(0, 3600000, 0, () => 0)`,
  oidcTokenProvider: `await m.oidcTokenProvider({ tokenEndpointUrl: 'https://idp.invalid/token', clientId: 'c', clientSecret: 's', fetch: async () => new Response(JSON.stringify({ access_token: 'a.b.c', expires_in: 60, token_type: 'Bearer' }), { headers: { 'content-type': 'application/json' } }) })()`,
  OAuthTokenError: `new m.OAuthTokenError('x', { endpoint: 'https://idp.invalid/token' })`,
  jwtExpiry: `m.jwtExpiry('a.b.c')`,
  signedClientAssertion: `const { privateKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']); await m.signedClientAssertion({ clientId: 'c', audience: 'a', privateKey, algorithm: 'ES256' })()`,
  awsMskIamMechanism: `m.awsMskIamMechanism({ region: 'eu-west-1', credentials: { accessKeyId: 'A', secretAccessKey: 'S' } }).name`,
  awsMskIamToken: `await m.awsMskIamToken('eu-west-1', { accessKeyId: 'A', secretAccessKey: 'S' })`,
  awsCredentialsFromEnvironment: `m.awsCredentialsFromEnvironment({ AWS_ACCESS_KEY_ID: 'A', AWS_SECRET_ACCESS_KEY: 'S' })`,
  awsCredentialsFromProfile: `m.awsCredentialsFromProfile('[default]\\naws_access_key_id = A\\naws_secret_access_key = S\\n')`,
  errorName: `if (typeof m.errorName(36) !== 'string') throw new Error('no name for 36')`,
  // wire: sockets and the bridge
  webSocketConnector: `try { await m.webSocketConnector({ url: 'ws://127.0.0.1:9/' })({ host: 'h', port: 1, timeoutMs: 500 }); throw new Error('connected to nothing'); } catch (e) { if (!/WebSocket|bridge/.test(e.message)) throw e; }`,
  bridgeUrlFor: `const u = m.bridgeUrlFor('ws://b:1/', { host: 'kafka-1.bridge.invalid', port: 1 }); if (u !== 'ws://b:1/?broker=kafka-1.bridge.invalid%3A1') throw new Error(u)`,
  cloudflareConnector: `const s = await m.cloudflareConnector(() => ({ readable: new ReadableStream(), writable: new WritableStream(), opened: Promise.resolve(), closed: new Promise(() => {}), close: async () => {} }))({ host: 'h', port: 1, timeoutMs: 500 }); s.destroy()`,
  startBridge: `const b = await m.startMemoryBroker({}); try { const bridge = await m.startBridge({ listen: { host: '127.0.0.1', port: 0 }, bootstrap: [{ host: b.host, port: b.port }] }); await bridge.close(); } finally { await b.close(); }`,
  BridgeRefusal: `new m.BridgeRefusal(403, 'x')`,
  // consumer: share groups (the memory broker serves none of their requests: a typed refusal)
  ShareConsumer: WITH_WIRE_BROKER(`const c = new m.ShareConsumer({ bootstrap, groupId: 'g', topics: ['t'] }); await c.close()`),
  listShareGroups: TYPED_REFUSAL(`m.listShareGroups(client)`),
  describeShareGroup: TYPED_REFUSAL(`m.describeShareGroup(client, 'g')`),
  alterShareGroupOffsets: TYPED_REFUSAL(`m.alterShareGroupOffsets(client, 'g', [{ topic: 't', partition: 0, offset: 0n }])`),
  resetShareGroupOffsets: TYPED_REFUSAL(`m.resetShareGroupOffsets(client, 'g', ['t'], 'earliest')`),
  deleteShareGroupOffsets: TYPED_REFUSAL(`m.deleteShareGroupOffsets(client, 'g', ['t'])`),
  deleteShareGroup: TYPED_REFUSAL(`m.deleteShareGroup(client, 'g')`),
  alterShareGroupConfig: TYPED_REFUSAL(`m.alterShareGroupConfig(client, 'g', { 'share.record.lock.duration.ms': '15000' })`),
};

describe.skipIf(!built)('every export of every entry, as the first call of a fresh process', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-first-call-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const input = built ? { ...(await inputs(dir)), metadataApiUrl: pathToFileURL(join(repoRoot, 'dist/src/generated/apis/Metadata.js')).href,
    wireUrl: pathToFileURL(join(repoRoot, 'dist/src/wire/index.js')).href } : {};
  const list: [string, string][] = [];
  for (const [entry, file] of built ? entries() : []) {
    const module = file.endsWith('.cjs') ? createRequire(import.meta.url)(file) : await import(pathToFileURL(file).href);
    for (const [name, value] of Object.entries(module)) if (typeof value === 'function') list.push([entry, name]);
  }

  it('lists every entry and has a case for each of their functions', () => {
    expect(list.length).toBeGreaterThan(150);
    const missing = [...new Set(list.map(([, name]) => name))].filter((name) => CALLS[name] === undefined);
    expect(missing, 'exports without a first-call case in CALLS').toEqual([]);
  });

  const cases = list.filter(([, name]) => CALLS[name] !== undefined && !CALLS[name].startsWith('-'));
  it.concurrent.each(cases)('%s %s', async (entry, name) => {
    const file = entries().get(entry)!;
    const child = join(repoRoot, 'test', 'package', 'first-call-child.mjs');
    let out: string;
    try {
      out = (await run(process.execPath, [child, pathToFileURL(file).href, name, CALLS[name], JSON.stringify(input)], { timeout: 60_000 })).stdout;
    } catch (error) {
      out = (error as { stdout?: string }).stdout ?? String(error);
    }
    expect(out.trim()).toBe('ok');
  }, 90_000);
});
