// Mutation fuzzing of every key/version/direction: every input either decodes or throws a
// KafkaWireError (nothing else, no hang, bounded memory), and whatever decodes re-encodes to
// something that decodes to the same object. FUZZ_ITERATIONS sets the budget (npm run fuzz).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apis, decodeRequest, decodeResponse, encodeRequest, encodeResponse, KafkaWireError, newMessage,
} from '../../src/index.js';
import { planFor, type Direction } from '../../src/codec/by-key.js';
import { fromHex, toHex } from '../../src/text.js';
import { sharedMemory } from '../../src/wasm/memory.js';
import { prng, RandomInstances } from '../helpers/random.js';
import { deepEqual } from './deep-equal.js';
import { catalogueTriples } from '../helpers/shared.js';
import { lengthSites, mutate, type LengthSite } from './mutate.js';

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 200_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);

interface Target {
  apiKey: number;
  version: number;
  direction: Direction;
  frame: Uint8Array;
  sites: LengthSite[];
}

function decode(target: Pick<Target, 'apiKey' | 'version' | 'direction'>, bytes: Uint8Array) {
  return target.direction === 'request'
    ? decodeRequest(bytes)
    : decodeResponse(bytes, target.apiKey, target.version);
}

function encode(target: Pick<Target, 'apiKey' | 'version' | 'direction'>, decoded: { header: any; body: any }) {
  return target.direction === 'request'
    ? encodeRequest(decoded.header, decoded.body)
    : encodeResponse(target.apiKey, target.version, decoded.header, decoded.body);
}

function corpus(): Target[] {
  const targets: Target[] = [];
  const random = new RandomInstances(prng(SEED), 2);
  for (const api of apis) {
    for (const direction of ['request', 'response'] as const) {
      const message = api[direction];
      for (let version = message.validVersions[0]; version <= message.validVersions[1]; version++) {
        const bodies = [newMessage(api.apiKey, direction, version), random.struct(planFor(api.apiKey, direction, version).body)];
        for (const body of bodies) {
          const frame = encode({ apiKey: api.apiKey, version, direction }, {
            header: direction === 'request'
              ? { requestApiKey: api.apiKey, requestApiVersion: version, correlationId: 1, clientId: 'fuzz' }
              : { correlationId: 1 },
            body,
          });
          targets.push({ apiKey: api.apiKey, version, direction, frame, sites: lengthSites(api.apiKey, direction, version, frame) });
        }
      }
    }
  }
  return targets;
}

/** Runs one input through the invariants: 'rejected', 'decoded', or a description of what broke. */
function check(target: Target, bytes: Uint8Array): string {
  let decoded;
  try {
    decoded = decode(target, bytes);
  } catch (error) {
    if (error instanceof KafkaWireError) return 'rejected';
    return `decode threw ${String(error)}`;
  }
  let again;
  try {
    again = decode(target, encode(target, decoded));
  } catch (error) {
    return `re-encoding what decoded failed: ${String(error)}`;
  }
  return deepEqual(decoded, again) ? 'decoded' : 'decode(encode(x)) differs from x';
}

const fine = (outcome: string) => outcome === 'rejected' || outcome === 'decoded';

describe('fuzzing', () => {
  it(`survives ${ITERATIONS} mutated frames of every API, version and direction`, async () => {
    const targets = corpus();
    expect(targets.length).toBe((await catalogueTriples()) * 2);
    const random = prng(SEED);
    const failures: string[] = [];
    let decodedCount = 0;
    let slowest = 0;
    const started = performance.now();
    for (let i = 0; i < ITERATIONS; i++) {
      const target = targets[i % targets.length];
      const input = mutate(target.frame, target.sites, random);
      const t0 = performance.now();
      const outcome = check(target, input);
      slowest = Math.max(slowest, performance.now() - t0);
      if (outcome === 'decoded') decodedCount++;
      else if (!fine(outcome) && failures.length < 10) {
        failures.push(`${target.direction} ${target.apiKey} v${target.version} ${toHex(input)}: ${outcome}`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const wasmBytes = sharedMemory().buffer.byteLength;
    console.log(`fuzz: ${ITERATIONS} inputs in ${seconds.toFixed(1)} s, ${decodedCount} still decoded, ` +
      `slowest ${slowest.toFixed(1)} ms, WebAssembly memory ${(wasmBytes / 2 ** 20).toFixed(1)} MiB, ` +
      `heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
    expect(failures).toEqual([]);
    expect(wasmBytes).toBeLessThan(64 * 2 ** 20);
  });

  it('replays every input the fuzzer ever broke on', () => {
    const regressions: { direction: Direction; apiKey: number; version: number; hex: string }[] =
      JSON.parse(readFileSync(join(__dirname, 'regressions.json'), 'utf8'));
    const broken = regressions.filter((r) => !fine(check({ ...r, frame: new Uint8Array(), sites: [] }, fromHex(r.hex)!)));
    expect(broken).toEqual([]);
  });

  it('decodes after any failure: a failed scan leaves the module usable', () => {
    const good = encodeRequest({ requestApiKey: 3, requestApiVersion: 12, correlationId: 1, clientId: 'x' }, { topics: null });
    const bad = good.slice(0, good.length - 1);
    for (let i = 0; i < 100; i++) {
      expect(() => decodeRequest(bad)).toThrow(KafkaWireError);
      expect(decodeRequest(good).body.topics).toBeNull();
    }
  });
});
