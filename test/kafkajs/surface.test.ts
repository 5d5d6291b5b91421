// kafka-wire/kafkajs's module surface against kafkajs 2.2.4 itself (no broker): the exported
// enumerations, the partitioners' choice for every message, the assigner protocol's bytes, the
// round-robin assignment, the error classes and Kafka's error codes by kafkajs's names.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as ours from '../../src/kafkajs/index.js';
import { FIRST_CODE_AFTER_KAFKAJS } from '../../src/kafkajs/errors.js';

const require = createRequire(import.meta.url);
const kafkajs = require('kafkajs') as typeof import('kafkajs');
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as { createErrorFromCode(code: number): { type: string; retriable: boolean } };

const metadata = (count: number, down: number[] = []) => Array.from({ length: count }, (_, i) => ({
  partitionErrorCode: 0, partitionId: i, leader: down.includes(i) ? -1 : 1, replicas: [1], isr: [1],
}));

describe('the exported enumerations', () => {
  it('have kafkajs\'s names and numbers', () => {
    for (const name of ['logLevel', 'CompressionTypes', 'ConfigResourceTypes', 'ConfigSource', 'AclResourceTypes', 'AclOperationTypes', 'AclPermissionTypes', 'ResourcePatternTypes'] as const) {
      // A TypeScript enum maps numbers back to names too; kafkajs's objects only name -> number.
      const forward = Object.fromEntries(Object.entries(ours[name]).filter(([k]) => Number.isNaN(Number(k))));
      expect(forward, name).toEqual(kafkajs[name]);
    }
    expect(ours.ResourceTypes).toBe(ours.AclResourceTypes); // kafkajs 1.x's name; 2.2.4 dropped it
  });

  it('export every name kafkajs exports (admin-only helpers aside)', () => {
    const missing = Object.keys(kafkajs).filter((k) => !(k in ours));
    expect(missing).toEqual([]);
  });

  it('build every compression codec in: each round-trips, and kafkajs\'s own gzip reads ours', async () => {
    const data = Buffer.from('kafka-wire '.repeat(200));
    for (const type of [ours.CompressionTypes.GZIP, ours.CompressionTypes.Snappy, ours.CompressionTypes.LZ4, ours.CompressionTypes.ZSTD]) {
      const codec = ours.CompressionCodecs[type]();
      const packed = await codec.compress({ buffer: data });
      expect(packed.length, String(type)).toBeLessThan(data.length);
      expect(await codec.decompress(packed)).toEqual(data);
    }
    const theirs = kafkajs.CompressionCodecs[kafkajs.CompressionTypes.GZIP]();
    expect(await theirs.decompress(await ours.CompressionCodecs[ours.CompressionTypes.GZIP]().compress({ buffer: data }))).toEqual(data);
    // A plugin registered the kafkajs way is accepted (and the built-in codec stays in use by the producer).
    const plugin = () => ({ compress: async () => Buffer.alloc(0), decompress: async () => Buffer.alloc(0) });
    (ours.CompressionCodecs as Record<number, unknown>)[ours.CompressionTypes.Snappy] = plugin;
  });
});

describe('Partitioners', () => {
  const key = fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)));

  for (const name of ['DefaultPartitioner', 'LegacyPartitioner', 'JavaCompatiblePartitioner'] as const) {
    it(`${name}: the partition kafkajs's ${name} gives every keyed message`, () => {
      const theirs = kafkajs.Partitioners[name]();
      const mine = ours.Partitioners[name]();
      fc.assert(fc.property(key, fc.integer({ min: 1, max: 200 }), (k, count) => {
        const args = { topic: 't', partitionMetadata: metadata(count), message: { key: k, value: null } };
        expect(mine(args)).toBe(theirs(args));
      }), { numRuns: 2000 });
    });

    it(`${name}: a message's own partition wins; no key goes round-robin over partitions with a leader`, () => {
      const theirs = kafkajs.Partitioners[name]();
      const mine = ours.Partitioners[name]();
      const args = (partition?: number) => ({ topic: 't', partitionMetadata: metadata(5, [1, 3]), message: { value: 'v', partition } });
      expect(mine(args(4))).toBe(theirs(args(4)));
      // The round robin starts at random in both: compare the steps, not the start.
      const steps = (f: (a: ReturnType<typeof args>) => number) => {
        const seen = Array.from({ length: 7 }, () => f(args()));
        return seen.map((p, i) => (i === 0 ? 0 : ([0, 2, 4].indexOf(p) - [0, 2, 4].indexOf(seen[i - 1]!) + 3) % 3));
      };
      expect(steps(mine)).toEqual(steps(theirs));
      expect(new Set(Array.from({ length: 9 }, () => mine(args())))).toEqual(new Set([0, 2, 4]));
    });
  }

  it('the two differ where kafkajs 1.x\'s hash differs from Java\'s (the reason LegacyPartitioner exists)', () => {
    const d = ours.Partitioners.DefaultPartitioner();
    const l = ours.Partitioners.LegacyPartitioner();
    const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
    const differ = keys.filter((k) => d({ topic: 't', partitionMetadata: metadata(100), message: { key: k, value: null } })
      !== l({ topic: 't', partitionMetadata: metadata(100), message: { key: k, value: null } }));
    expect(differ.length).toBeGreaterThan(10);
  });
});

describe('AssignerProtocol and PartitionAssigners.roundRobin', () => {
  const topics = fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 6 });

  it('MemberMetadata: the bytes kafkajs writes, read back either way', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), topics, fc.uint8Array({ maxLength: 16 }), (version, t, user) => {
      const value = { version, topics: t, userData: Buffer.from(user) };
      const bytes = ours.AssignerProtocol.MemberMetadata.encode(value);
      expect(bytes).toEqual(kafkajs.AssignerProtocol.MemberMetadata.encode(value));
      expect(ours.AssignerProtocol.MemberMetadata.decode(bytes)).toEqual(kafkajs.AssignerProtocol.MemberMetadata.decode(bytes));
    }));
  });

  it('MemberAssignment: the bytes kafkajs writes, read back either way', () => {
    const assignment = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 8 }));
    fc.assert(fc.property(assignment, (a) => {
      const value = { version: 0, assignment: a, userData: Buffer.alloc(0) };
      const bytes = ours.AssignerProtocol.MemberAssignment.encode(value);
      expect(bytes).toEqual(kafkajs.AssignerProtocol.MemberAssignment.encode(value));
      expect(ours.AssignerProtocol.MemberAssignment.decode(bytes)).toEqual(kafkajs.AssignerProtocol.MemberAssignment.decode(bytes));
    }));
  });

  it('a cut short assignment is refused with a RangeError, not read past its end', () => {
    const bytes = ours.AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: { t: [1, 2, 3] }, userData: Buffer.alloc(0) });
    for (let n = 1; n < bytes.length - 4; n++) expect(() => ours.AssignerProtocol.MemberAssignment.decode(bytes.subarray(0, n))).toThrow(RangeError);
  });

  it('roundRobin assigns as kafkajs\'s does, and its protocol bytes are kafkajs\'s', async () => {
    const counts: Record<string, number> = { a: 3, b: 5, c: 1 };
    const cluster = { findTopicPartitionMetadata: (t: string) => metadata(counts[t]!) };
    const group = { members: ['m-3', 'm-1', 'm-2'].map((memberId) => ({ memberId, memberMetadata: Buffer.alloc(0) })), topics: ['a', 'b', 'c'] };
    const logger = ours.Kafka.prototype.logger.call(new ours.Kafka({ brokers: ['x:1'] }));
    const mine = ours.PartitionAssigners.roundRobin({ cluster, groupId: 'g', logger });
    const theirs = kafkajs.PartitionAssigners.roundRobin({ cluster: cluster as never, groupId: 'g', logger: logger as never });
    const decode = (list: { memberId: string; memberAssignment: Buffer }[]) => Object.fromEntries(list.map((m) => [m.memberId, kafkajs.AssignerProtocol.MemberAssignment.decode(m.memberAssignment)]));
    expect(decode(await mine.assign(group))).toEqual(decode(await theirs.assign(group)));
    expect(mine.protocol({ topics: ['a', 'b'] })).toEqual(theirs.protocol({ topics: ['a', 'b'] }));
  });
});

describe('the error classes', () => {
  const names = Object.keys(kafkajs).filter((k) => k.startsWith('KafkaJS'));
  /** kafkajs 2.2.4 defines these with a wrong name (KafkaJSNonRetriableError's) or none: ours say what they are. */
  const KAFKAJS_MISNAMED = ['KafkaJSInvalidVarIntError', 'KafkaJSInvalidLongError', 'KafkaJSFetcherRebalanceError'];
  const make = (mod: Record<string, unknown>, name: string) => {
    const C = mod[name] as new (...args: unknown[]) => Error & { retriable?: boolean };
    if (name === 'KafkaJSDeleteTopicRecordsError') return new C({ topic: 't', partitions: [] });
    if (name === 'KafkaJSAggregateError') return new C('m', []);
    return new C('m', {});
  };

  it('exist for every one kafkajs exports, with its name, retriable and base class', () => {
    for (const name of names) {
      if (KAFKAJS_MISNAMED.includes(name) || !(name in ours)) continue;
      const a = make(ours as unknown as Record<string, unknown>, name);
      const b = make(kafkajs as unknown as Record<string, unknown>, name);
      expect({ name: a.name, retriable: a.retriable, message: a.message }, name).toEqual({ name: b.name, retriable: b.retriable, message: b.message });
      expect(a instanceof Error, name).toBe(true);
      expect(Object.getPrototypeOf((ours as unknown as Record<string, { name: string }>)[name]).name, name)
        .toBe(Object.getPrototypeOf((kafkajs as unknown as Record<string, { name: string }>)[name]).name);
    }
  });

  it('instanceof works down the hierarchy', () => {
    const e = new ours.KafkaJSNumberOfRetriesExceeded(new Error('x'), { retryCount: 5, retryTime: 100 });
    expect(e).toBeInstanceOf(ours.KafkaJSNonRetriableError);
    expect(e).toBeInstanceOf(ours.KafkaJSError);
    expect(e.retryCount).toBe(5);
    expect(new ours.KafkaJSOffsetOutOfRange('x', { topic: 't', partition: 1 })).toBeInstanceOf(ours.KafkaJSProtocolError);
    expect(new ours.KafkaJSConnectionClosedError('x', { host: 'h', port: 1 })).toBeInstanceOf(ours.KafkaJSConnectionError);
  });

  it('Kafka error codes get kafkajs\'s type names and retriable flags', () => {
    /** Where kafkajs marks a code retriable and Kafka does not, or the other way round (Kafka's RetriableException is the reference). */
    const KAFKAJS_DIFFERS: number[] = [];
    for (let code = -1; code < FIRST_CODE_AFTER_KAFKAJS; code++) {
      const mine = new ours.KafkaJSProtocolError(code);
      const theirs = createErrorFromCode(code);
      expect(mine.type, `code ${code}`).toBe(theirs.type);
      if (!KAFKAJS_DIFFERS.includes(code)) expect(mine.retriable, `code ${code} (${theirs.type})`).toBe(theirs.retriable);
      expect(mine.code).toBe(code);
    }
    // Where kafkajs is wrong: codes Kafka added after kafkajs 2.2.4 are KAFKAJS_UNKNOWN_ERROR_CODE
    // to it; here they keep Kafka's names (Kafka 4's KIP-848 and transaction errors among them).
    expect(createErrorFromCode(90).type).toBe('KAFKAJS_UNKNOWN_ERROR_CODE');
    expect(new ours.KafkaJSProtocolError(90).type).toBe('PRODUCER_FENCED');
    expect(new ours.KafkaJSProtocolError(110).type).toBe('FENCED_MEMBER_EPOCH');
    expect(new ours.KafkaJSProtocolError(999).type).toBe('KAFKAJS_UNKNOWN_ERROR_CODE');
  });
});
