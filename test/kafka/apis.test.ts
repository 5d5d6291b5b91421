// Every API a real Kafka 4.4 broker serves, on its broker listener and its controller listener:
// for each key its ApiVersions answer lists, at the lowest and the highest version it advertises,
// a request kafka-wire encodes (the smallest legal instance from the sampler, or a meaningful body
// where the sample means something else: acks 0 would get no answer) gets a response that
// kafka-wire decodes, on a connection the broker keeps open, and the broker's log shows no parse
// error. Keys or versions the catalogue lacks are listed and counted, never dropped silently.
//
// The cluster is this file's own: samples are nonsense to the broker (broker id 0, empty names),
// and the controller-only APIs among them must not disturb other tests.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeRequest } from '../../src/codec/by-key.js';
import { sampleMessage } from '../../src/explain/samples.js';
import { apiName, connect, supportedVersions, type Connection } from '../../src/wire/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';

const ok = await kafkaPeer();

// ACL enums (ResourceType, PatternType, AclOperation, AclPermissionType): 0 is UNKNOWN, which Kafka
// refuses while parsing the request (it closes the connection); 1 is ANY, 2 TOPIC, 3 LITERAL / READ / ALLOW.
const ANY = 1;

/** Bodies that must differ from the sample for the request to mean something to the broker. */
function requestBody(apiKey: number, version: number): Record<string, any> {
  const body = sampleMessage(apiKey, 'request', version);
  switch (apiKey) {
    case 0: body.acks = 1; break; // acks 0 gets no response at all
    case 29: // DescribeAcls
      Object.assign(body, { resourceTypeFilter: ANY, operation: ANY, permissionType: ANY, ...(version >= 1 ? { patternTypeFilter: ANY } : {}) });
      break;
    case 30: // CreateAcls
      Object.assign(body.creations[0], { resourceType: 2, resourceName: 't', principal: 'User:kafka-wire', host: '*', operation: 3, permissionType: 3,
        ...(version >= 1 ? { resourcePatternType: 3 } : {}) });
      break;
    case 31: // DeleteAcls
      Object.assign(body.filters[0], { resourceTypeFilter: ANY, operation: ANY, permissionType: ANY, ...(version >= 1 ? { patternTypeFilter: ANY } : {}) });
      break;
    case 58: // Envelope: a principal Kafka can read (DefaultPrincipalData v0: User:ANONYMOUS) around an ApiVersions v0 request
      body.requestPrincipal = Uint8Array.from([0, 0, 5, ...utf8('User'), 10, ...utf8('ANONYMOUS'), 0, 0]);
      body.requestData = encodeRequest({ requestApiKey: 18, requestApiVersion: 0, correlationId: 1, clientId: 'inner' }, {}).subarray(4);
      body.clientHostAddress = Uint8Array.from([127, 0, 0, 1]);
      break;
  }
  return body;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * Versions Kafka lists in ApiVersions but refuses (it closes the connection): Kafka 4 keeps
 * advertising Produce v0-v2 so that old librdkafka clients connect at all (KIP-896), and serves
 * v3 and later only. These are probed separately, and must be refused.
 */
const ADVERTISED_BUT_REFUSED: Record<number, number> = { 0: 3 };

/** Log lines in which Kafka reports a request it could not parse, or a connection it closed for one. */
const PARSE_ERROR = /Closing socket for .* because of error|Error getting request for apiKey|SchemaException|Error parsing request|BufferUnderflowException|Exception while processing request/;

interface Outcome { listener: string; apiKey: number; version: number; problem?: string }

function opener(address: string): () => Promise<Connection> {
  const [host, port] = address.split(':');
  return () => connect({ host: host!, port: Number(port), clientId: 'kafka-wire-apis', requestTimeoutMs: 20_000 });
}

async function sweep(listener: string, address: string): Promise<{ outcomes: Outcome[]; lacking: string[]; refused: Outcome[]; pairs: number }> {
  const open = opener(address);
  let conn: Connection = await open();
  const advertised = [...conn.apiVersions!.entries()].sort(([a], [b]) => a - b);
  const outcomes: Outcome[] = [];
  const lacking: string[] = [];
  const refused: Outcome[] = [];
  let pairs = 0;
  for (const [apiKey, range] of advertised) {
    const ours = supportedVersions(apiKey);
    const served = ADVERTISED_BUT_REFUSED[apiKey];
    if (served !== undefined && range.min < served) refused.push({ listener, apiKey, version: range.min });
    const lowest = served !== undefined ? Math.max(served, range.min) : range.min;
    for (const version of new Set([lowest, range.max])) {
      pairs++;
      if (!ours || version < ours.min || version > ours.max) {
        lacking.push(`${listener} key ${apiKey}${ours ? ` (${apiName(apiKey)})` : ''} v${version}: not in kafka-wire's catalogue${ours ? ` (it has v${ours.min}-${ours.max})` : ''}`);
        continue;
      }
      const outcome: Outcome = { listener, apiKey, version };
      try {
        await conn.request(apiKey, version, requestBody(apiKey, version));
        // The broker may close only after answering: ask something else on the same connection.
        await conn.request(18, 0, {});
      } catch (error) {
        outcome.problem = `${(error as Error).name} ${(error as { code?: string }).code ?? ''}: ${(error as Error).message}`;
        if (conn.closed) conn = await open();
      }
      outcomes.push(outcome);
    }
  }
  await conn.close();
  return { outcomes, lacking, refused, pairs };
}

/** Sends each refused version on its own connection: it must be closed, not answered. */
async function probeRefused(address: string, refused: Outcome[]): Promise<string[]> {
  const answered: string[] = [];
  for (const { apiKey, version } of refused) {
    const conn = await opener(address)();
    const result = await conn.request(apiKey, version, requestBody(apiKey, version)).then(() => 'answered', (e) => e.code);
    if (result !== 'CLOSED') answered.push(`${apiName(apiKey)} v${version}: ${result}`);
    conn.destroy();
  }
  return answered;
}

describe.skipIf(!ok)('every API the real broker serves', () => {
  const kafka = useKafka();

  it('answers a kafka-wire request at the lowest and highest advertised version of every key, on both listeners', async () => {
    const k = kafka();
    const logFile = k.nodes[0]!.log;
    const logStart = statSync(logFile).size;
    const broker = await sweep('broker', k.listeners.PLAINTEXT!);
    const controller = await sweep('controller', k.listeners.CONTROLLER!);
    const outcomes = [...broker.outcomes, ...controller.outcomes];
    const lacking = [...broker.lacking, ...controller.lacking];
    const keys = (list: Outcome[]) => new Set(list.map((o) => o.apiKey)).size;
    console.log(`[kafka] ${outcomes.length} requests answered and decoded: broker listener ${keys(broker.outcomes)} keys, `
      + `${broker.outcomes.length} (key, version) pairs; controller listener ${keys(controller.outcomes)} keys, ${controller.outcomes.length} pairs`);
    if (lacking.length > 0) console.log(`[kafka] ${lacking.length} advertised (key, version) pairs kafka-wire lacks:\n  ${lacking.join('\n  ')}`);
    await new Promise((r) => setTimeout(r, 500)); // let the broker's log catch up
    const log = readFileSync(logFile, 'utf8').slice(logStart);
    const parseErrors = log.split('\n').filter((line) => PARSE_ERROR.test(line));
    expect(outcomes.filter((o) => o.problem)).toEqual([]);
    expect(parseErrors).toEqual([]);
    // Last, as they make the broker log: what it advertises and refuses is refused.
    const refused = [...broker.refused, ...controller.refused];
    console.log(`[kafka] advertised but refused by the broker (it closes the connection): ${refused.map((o) => `${o.listener} ${apiName(o.apiKey)} v${o.version}`).join(', ')}`);
    expect(await probeRefused(k.listeners.PLAINTEXT!, broker.refused)).toEqual([]);
    expect(await probeRefused(k.listeners.CONTROLLER!, controller.refused)).toEqual([]);
    // Every advertised (key, version) pair was either sent and answered or reported as lacking.
    expect(broker.outcomes.length + broker.lacking.length).toBe(broker.pairs);
    expect(controller.outcomes.length + controller.lacking.length).toBe(controller.pairs);
    expect(keys(broker.outcomes)).toBeGreaterThan(50);
    expect(keys(controller.outcomes)).toBeGreaterThan(15);
  }, 300_000);
});
