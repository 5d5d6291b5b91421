// Kafka's own codec as referee: independent bytes for every (key, version, direction) of
// kafka-wire's catalogue. kafka/referee is a Java program over kafka-clients' generated message
// classes; for each pair, INSTANCES random instances (test/helpers/random.ts: every field set,
// nullables null and not, arrays empty, short and long, tagged fields set and not, unknown tagged
// fields), the default instance and the reference pages' sample (src/explain/samples.ts) go both ways:
//   1. kafka-wire encodes; Kafka decodes those bytes to the same values (its JSON converter's
//      output, mapped to kafka-wire's JSON by test/helpers/kafka-json.ts) and re-encodes them to
//      the same bytes;
//   2. Kafka reads the values from its JSON form and encodes them: byte-identical to kafka-wire's
//      encoding, and kafka-wire decodes Kafka's bytes to the same values.
// The same for a few random headers of each pair (RequestHeader/ResponseHeader at the header version
// kafka-wire puts in front of it, which must be Kafka's).
// Records fields compare as raw bytes. The judge of a pair is the newest release that defines it
// (kafka/referee/build.mjs: the catalogue's release, then the 4.0.x holding the share-group v0s
// removed in 4.1, then the 3.9.x holding the versions removed in 4.0). The file prints how many
// pairs had an independent check and fails under 100%, and fails when the catalogue's release
// defines a stable pair the catalogue lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiKey, apis, decodeBody, decodeRequest, decodeResponse, encodeBody, encodeRequest, encodeResponse, newMessage,
} from '../../src/index.js';
import { planFor } from '../../src/codec/by-key.js';
import { sampleHeader, sampleMessage } from '../../src/explain/samples.js';
import { structToJson } from '../../src/codec/json.js';
import type { CompiledStruct } from '../../src/codec/plan.js';
import { fromHex, toHex } from '../../src/text.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { prng, RandomInstances } from '../helpers/random.js';
import { catalogueTriples } from '../helpers/shared.js';
import { Referee, RELEASES, type Direction, type RefereeApi, type RefereeTarget } from '../helpers/referee.js';
import { firstByteDifference, firstDifference, kafkaToWireJson, wireToKafkaJsonText } from '../helpers/kafka-json.js';

/** The release whose every pair the catalogue must hold. */
const CURRENT = RELEASES[0];
const INSTANCES = 20;
/** Random headers checked in front of each pair's bodies. */
const HEADERS = 3;
/** How often an array near the top of an instance is long (100 to 199 items). */
const LONG_ARRAY_CHANCE = 0.1;

const javaOk = peer('Java and Maven (the kafka-clients referee, kafka/referee)', hasCommand('java') && hasCommand('mvn'),
  'apt-get install openjdk-17-jdk-headless maven');

interface Judge { referee: Referee; ranges: Map<number, RefereeApi> }

function defines(judge: Judge, key: number, direction: Direction, version: number): boolean {
  const api = judge.ranges.get(key);
  return api !== undefined && version >= api[direction][0] && version <= api[direction][1];
}

/** Where Kafka's JSON (mapped to kafka-wire's form) differs from kafka-wire's values, or why it cannot be mapped. */
function differenceFromKafka(plan: CompiledStruct, values: Record<string, unknown>, kafka: Record<string, unknown>): string | null {
  try {
    return firstDifference(values, kafkaToWireJson(plan, kafka), 'values');
  } catch (e) {
    return (e as Error).message;
  }
}

/** kafka-wire's side of one message: its encoding of an instance, and its decoding of bytes. */
interface WireCodec {
  encode(instance: any): Uint8Array;
  decode(bytes: Uint8Array): any;
}

function bodyCodec(key: number, direction: Direction, version: number): WireCodec {
  return {
    encode: (x) => encodeBody(key as any, direction, version, x),
    decode: (bytes) => decodeBody(key as any, direction, version, bytes),
  };
}

/**
 * The header of a frame alone: kafka-wire writes headers only in front of a body, so this encodes
 * the frame with the default body and keeps the bytes between the size prefix and the body.
 */
function headerCodec(key: number, direction: Direction, version: number): WireCodec {
  const body = newMessage(key as any, direction, version);
  const bodyBytes = encodeBody(key as any, direction, version, body);
  const frameOf = (header: Uint8Array) => {
    const frame = new Uint8Array(4 + header.length + bodyBytes.length);
    new DataView(frame.buffer).setInt32(0, frame.length - 4);
    frame.set(header, 4);
    frame.set(bodyBytes, 4 + header.length);
    return frame;
  };
  if (direction === 'request') {
    return {
      encode: (h) => { const f = encodeRequest({ ...h, requestApiKey: key, requestApiVersion: version }, body); return f.subarray(4, f.length - bodyBytes.length); },
      decode: (bytes) => decodeRequest(frameOf(bytes)).header,
    };
  }
  return {
    encode: (h) => { const f = encodeResponse(key as any, version, h, body); return f.subarray(4, f.length - bodyBytes.length); },
    decode: (bytes) => decodeResponse(frameOf(bytes), key as any, version).header,
  };
}

/** Everything found wrong with one instance, as lines naming the check, the field path or byte offset. */
async function check(referee: Referee, target: RefereeTarget, version: number, plan: CompiledStruct, codec: WireCodec, instance: any): Promise<string[]> {
  const problems: string[] = [];
  const hex = toHex(codec.encode(instance));
  const values = structToJson(plan, instance);
  const at = `(kafka-wire's bytes ${hex.length > 400 ? `${hex.slice(0, 400)}…` : hex})`;

  const decoding = (async () => {
    let answer;
    try { answer = await referee.decode(target, version, hex); } catch (e) {
      problems.push(`Kafka cannot decode kafka-wire's bytes: ${(e as Error).message} ${at}`);
      return;
    }
    const valueDiff = differenceFromKafka(plan, values, answer.json);
    if (valueDiff !== null) problems.push(`Kafka decodes kafka-wire's bytes to other values: ${valueDiff} (kafka-wire vs Kafka) ${at}`);
    const byteDiff = firstByteDifference(hex, answer.hex);
    if (byteDiff !== null) problems.push(`Kafka re-encodes what it read differently: ${byteDiff} ${at}`);
  })();

  const encoding = (async () => {
    let answer;
    try { answer = await referee.encode(target, version, wireToKafkaJsonText(plan, values)); } catch (e) {
      problems.push(`Kafka cannot read the values from JSON: ${(e as Error).message}`);
      return;
    }
    const byteDiff = firstByteDifference(hex, answer.hex);
    if (byteDiff !== null) problems.push(`Kafka encodes the values differently: ${byteDiff} (kafka-wire vs Kafka) ${at}`);
    const echoDiff = differenceFromKafka(plan, values, answer.json);
    if (echoDiff !== null) problems.push(`Kafka's JSON converter reads the values otherwise: ${echoDiff}`);
    try {
      const back = structToJson(plan, codec.decode(fromHex(answer.hex)!));
      const backDiff = firstDifference(values, back, 'values');
      if (backDiff !== null) problems.push(`kafka-wire decodes Kafka's bytes to other values: ${backDiff} (Kafka's bytes ${answer.hex})`);
    } catch (e) {
      problems.push(`kafka-wire cannot decode Kafka's bytes ${answer.hex}: ${(e as Error).message}`);
    }
  })();

  await Promise.all([decoding, encoding]);
  return problems;
}

describe.skipIf(!javaOk)("Kafka's own codec (kafka-clients) as referee for every key, version and direction", () => {
  const judges: Judge[] = [];
  const checked = new Set<string>();

  beforeAll(async () => {
    // Built (or found current) and started one after another: two cores, and Maven is heavy.
    for (const release of RELEASES) {
      const referee = await Referee.start(release);
      const ranges = new Map((await referee.versions()).map((a) => [a.key, a]));
      judges.push({ referee, ranges });
    }
  }, 20 * 60_000);

  afterAll(async () => {
    await Promise.all(judges.map((j) => j.referee.stop()));
  });

  for (const api of apis) {
    for (const direction of ['request', 'response'] as const) {
      const message = api[direction];
      for (let version = message.validVersions[0]; version <= message.validVersions[1]; version++) {
        it(`${message.name} v${version}`, async () => {
          const judge = judges.find((j) => defines(j, api.apiKey, direction, version));
          if (judge === undefined) throw new Error(`no kafka-clients release of ${RELEASES.join(', ')} defines ${message.name} v${version}`);
          const plan = planFor(api.apiKey, direction, version);
          const random = new RandomInstances(prng(7_000_000 + api.apiKey * 1000 + version * 2 + (direction === 'request' ? 0 : 1)), 3, LONG_ARRAY_CHANCE);
          // The default instance, the reference pages' sample (one item in every array, a real empty
          // RecordBatch in records fields), then the random ones.
          const bodies = [newMessage(api.apiKey as any, direction, version), sampleMessage(api.apiKey, direction, version)];
          for (let i = 0; i < INSTANCES; i++) bodies.push(random.struct(plan.body));
          const body = bodyCodec(api.apiKey, direction, version);
          const target = { key: api.apiKey, direction };
          const problems = (await Promise.all(bodies.map((x) => check(judge.referee, target, version, plan.body, body, x)))).flat();

          // The header in front of it: the version Kafka puts there, and a few instances of it.
          const kafkaApi = judge.ranges.get(api.apiKey)!;
          const headerVersion = kafkaApi[`${direction}Header`][version - kafkaApi[direction][0]];
          if (plan.headerVersion !== headerVersion) problems.push(`header version: kafka-wire ${plan.headerVersion}, Kafka ${headerVersion}`);
          const headerTarget = { header: direction === 'request' ? 'RequestHeader' : 'ResponseHeader' } as const;
          const header = headerCodec(api.apiKey, direction, version);
          const headers = [sampleHeader(api.apiKey, direction, version)];
          for (let i = 0; i < HEADERS; i++) {
            const h = random.struct(plan.header);
            if (direction === 'request') Object.assign(h, { requestApiKey: api.apiKey, requestApiVersion: version });
            headers.push(h);
          }
          problems.push(...(await Promise.all(headers.map((h) => check(judge.referee, headerTarget, plan.headerVersion, plan.header, header, h)))).flat());
          expect(problems.slice(0, 5), `judged by kafka-clients ${judge.referee.release}; ${problems.length} problems`).toEqual([]);
          checked.add(`${api.apiKey}/${direction}/${version}`);
        });
      }
    }
  }

  // The checks above find nothing when both codecs agree; here they must find what is planted.
  it('the checks see a changed value, unknown tagged fields and records bytes', async () => {
    const referee = judges[0].referee;
    const metadata = planFor(ApiKey.Metadata, 'request', 12).body;
    const sent = newMessage(ApiKey.Metadata, 'request', 12, { topics: [{ topicId: 'AAECAwQFBgcICQoLDA0ODw', name: 'a' }], allowAutoTopicCreation: true });
    (sent as any)._unknownTaggedFields = { 5000: new Uint8Array([1, 2]) };
    const other = { ...sent, allowAutoTopicCreation: false };
    const answer = await referee.decode({ key: ApiKey.Metadata, direction: 'request' }, 12, toHex(encodeBody(ApiKey.Metadata, 'request', 12, sent)));
    expect(answer.json._unknownTaggedFields).toEqual({ 5000: 'AQI=' });
    expect(differenceFromKafka(metadata, structToJson(metadata, sent), answer.json)).toBeNull();
    expect(differenceFromKafka(metadata, structToJson(metadata, other), answer.json)).toBe('values.allowAutoTopicCreation: false vs true');
    const encoded = await referee.encode({ key: ApiKey.Metadata, direction: 'request' }, 12, wireToKafkaJsonText(metadata, structToJson(metadata, other)));
    expect(firstByteDifference(answer.hex, encoded.hex)).toMatch(/first difference at byte 20:/) // after the topics array (1 + 16 + 2 + 1 bytes);

    const produce = planFor(ApiKey.Produce, 'request', 9).body;
    const batch = newMessage(ApiKey.Produce, 'request', 9, {
      topicData: [{ name: 't', partitionData: [{ index: 0, records: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) }] }],
    });
    const produced = await referee.decode({ key: ApiKey.Produce, direction: 'request' }, 9, toHex(encodeBody(ApiKey.Produce, 'request', 9, batch)));
    expect((produced.json as any).topicData[0].partitionData[0].records).toBe('3q2+7w==');
    expect(differenceFromKafka(produce, structToJson(produce, batch), produced.json)).toBeNull();
    expect(await check(referee, { key: ApiKey.Produce, direction: 'request' }, 9, produce, bodyCodec(ApiKey.Produce, 'request', 9), batch)).toEqual([]);
  });

  it('float64 specials, whole numbers and int64 extremes agree', async () => {
    const referee = judges[0].referee;
    const quotas = planFor(ApiKey.AlterClientQuotas, 'request', 1).body;
    const values = [NaN, Infinity, -Infinity, 0, -0, 5, -0.5, 1e300, Number.MIN_VALUE, Number.MAX_VALUE];
    const request = newMessage(ApiKey.AlterClientQuotas, 'request', 1, {
      entries: [{ entity: [], ops: values.map((value, i) => ({ key: `k${i}`, value, remove: false })) }],
    });
    expect(await check(referee, { key: ApiKey.AlterClientQuotas, direction: 'request' }, 1, quotas,
      bodyCodec(ApiKey.AlterClientQuotas, 'request', 1), request)).toEqual([]);
    const offsets = planFor(ApiKey.ListOffsets, 'request', 9).body;
    const list = newMessage(ApiKey.ListOffsets, 'request', 9, {
      topics: [{ name: 't', partitions: [-(2n ** 63n), 2n ** 63n - 1n, -1n, 2n ** 53n + 1n].map((timestamp, i) => ({ partitionIndex: i, timestamp })) }],
    });
    expect(await check(referee, { key: ApiKey.ListOffsets, direction: 'request' }, 9, offsets,
      bodyCodec(ApiKey.ListOffsets, 'request', 9), list)).toEqual([]);
  });

  // Versions a release marks unstable (latestVersionUnstable) are not part of its protocol yet.
  it(`the catalogue holds every pair kafka-clients ${CURRENT} defines as stable`, () => {
    const missing: string[] = [];
    for (const kafka of judges[0].ranges.values()) {
      for (const direction of ['request', 'response'] as const) {
        const ours = apis.find((a) => a.apiKey === kafka.key)?.[direction].validVersions;
        for (let v = kafka[direction][0]; v <= Math.min(kafka[direction][1], kafka.stableHighest); v++) {
          if (ours === undefined || v < ours[0] || v > ours[1]) missing.push(`${kafka.name} ${direction} v${v}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every pair of the catalogue had an independent check', async () => {
    const total = await catalogueTriples();
    const byRelease = RELEASES.map((release) => `${release}: ${[...checked].filter((p) => {
      const [key, direction, version] = p.split('/');
      return judges.find((j) => defines(j, Number(key), direction as Direction, Number(version)))?.referee.release === release;
    }).length}`);
    console.log(`kafka-clients referee: ${checked.size} of ${total} (key, version, direction) pairs checked independently `
      + `(${(100 * checked.size / total).toFixed(1)}%; ${byRelease.join(', ')})`);
    expect(checked.size).toBe(total);
  });
});
