// kafkajs's `sasl` and `ssl` options, run with kafkajs 2.2.4 and with kafka-wire/kafkajs against
// one Kafka 4.4 with a SASL_PLAINTEXT listener (PLAIN, SCRAM, and OAUTHBEARER with Kafka's
// unsecured validator) and an SSL listener: for PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 a producer
// writes and a consumer reads, a wrong password is refused; oauthbearer with an
// oauthBearerProvider (kafkajs's shape, with SASL extensions) writes and reads, an expired token
// is refused; a custom mechanism (PLAIN written on kafkajs's authenticationProvider interface)
// writes and reads, sees the same saslAuthenticate answers under both modules, and a wrong
// password is refused; kafkajs's aws (the old AWS-IAM mechanism) sends kafkajs's bytes and is
// refused by a broker without it; TLS with the cluster's CA works. The two modules must agree.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as ours from '../../src/kafkajs/index.js';
import { saslOf } from '../../src/kafkajs/sasl.js';
import { createLogger } from '../../src/kafkajs/logger.js';
import type { SaslMechanism } from '../../src/wire/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';

const require = createRequire(import.meta.url);
const kafkajs = require('kafkajs') as typeof import('kafkajs');
type Module = typeof ours;
const MODULES: [string, Module][] = [['kafkajs', kafkajs as unknown as Module], ['kafka-wire', ours]];
const USER = 'carol';
const PASSWORD = 'carol-secret';
const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

const ok = await kafkaPeer();

/** The app's own unsecured JWS (what an app on Kafka's unsecured validator writes; not kafka-wire's helper). */
function appToken(sub: string, lifetimeSeconds: number): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'none' })}.${part({ sub, iat: now, exp: now + lifetimeSeconds })}.`;
}

/** SASL/PLAIN on kafkajs's custom authenticator interface, as its docs show one written; `seen` gets what saslAuthenticate resolved with. */
function customPlain(username: string, password: string, seen: unknown[]): ours.Mechanism {
  return {
    mechanism: 'plain',
    authenticationProvider: ({ host, port, logger, saslAuthenticate }) => ({
      authenticate: async () => {
        const payload = Buffer.from(`\u0000${username}\u0000${password}`);
        const request = { encode: () => { const b = Buffer.alloc(4 + payload.length); b.writeUInt32BE(payload.length, 0); payload.copy(b, 4); return b; } };
        const response = { decode: (raw: Buffer) => raw, parse: (data: Buffer) => ({ answer: data.toString('hex') }) };
        logger.debug('custom PLAIN', { broker: `${host}:${port}` });
        seen.push(typeof host === 'string' && port > 0, await saslAuthenticate({ request, response }));
      },
    }),
  };
}

describe.skipIf(!ok)('kafkajs\'s sasl and ssl options, with kafkajs and with kafka-wire/kafkajs', () => {
  const cluster = useKafka({ sasl: { users: { [USER]: PASSWORD }, oauthbearer: true }, ssl: true });
  let serial = 0;

  /** Writes one message and reads it back with one module's client; the outcome as text. */
  async function roundTrip(mod: Module, config: ours.KafkaConfig, label: string): Promise<string> {
    const topic = `auth-${label}-${++serial}`;
    await cluster().createTopic(topic, { partitions: 1 });
    const kafka = new mod.Kafka({ clientId: 'auth', logLevel: mod.logLevel.NOTHING, ...config });
    const producer = kafka.producer();
    try {
      await producer.connect();
      await producer.send({ topic, messages: [{ value: `over ${label}` }] });
    } catch (e) {
      if (`${(e as Error).message} ${(e as Error).stack}`.includes(PASSWORD)) return 'refused, naming the password';
      return `refused: ${(e as Error).name}${(e as { type?: string }).type ? ` ${(e as { type: string }).type}` : ''}`;
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
    const consumer = kafka.consumer({ groupId: `${topic}-g`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let value = '';
    await consumer.run({ eachMessage: async ({ message }) => { value = String(message.value); } });
    const end = Date.now() + 30_000;
    while (value === '' && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    await consumer.disconnect();
    return value;
  }

  for (const mechanism of MECHANISMS) {
    it(`sasl ${mechanism}: the right password writes and reads, a wrong one is refused`, async () => {
      const out: Record<string, { good: string; bad: string }> = {};
      for (const [name, mod] of MODULES) {
        const brokers = [cluster().listeners.SASL_PLAINTEXT!];
        out[name] = {
          good: await roundTrip(mod, { brokers, sasl: { mechanism, username: USER, password: PASSWORD } }, `${name}-${mechanism}`),
          bad: await roundTrip(mod, { brokers, sasl: { mechanism, username: USER, password: 'wrong' } }, `${name}-${mechanism}-bad`),
        };
      }
      expect(out['kafka-wire']).toEqual({ good: `over kafka-wire-${mechanism}`, bad: 'refused: KafkaJSSASLAuthenticationError' });
      expect(out.kafkajs).toEqual({ good: `over kafkajs-${mechanism}`, bad: 'refused: KafkaJSSASLAuthenticationError' });
    }, 90_000);
  }

  it('sasl oauthbearer with an oauthBearerProvider (and extensions): a fresh token writes and reads, an expired one is refused', async () => {
    const out: Record<string, { good: string; bad: string; calls: number }> = {};
    for (const [name, mod] of MODULES) {
      const brokers = [cluster().listeners.SASL_PLAINTEXT!];
      let calls = 0;
      const provider = (lifetime: number) => async () => { calls++; return { value: appToken('dave', lifetime), extensions: { traceId: 'abc' } }; };
      out[name] = {
        good: await roundTrip(mod, { brokers, sasl: { mechanism: 'oauthbearer', oauthBearerProvider: provider(3600) } }, `${name}-oauth`),
        bad: await roundTrip(mod, { brokers, sasl: { mechanism: 'oauthbearer', oauthBearerProvider: provider(-600) } }, `${name}-oauth-bad`),
        calls: 0,
      };
      out[name].calls = calls;
    }
    expect(out['kafka-wire']).toMatchObject({ good: 'over kafka-wire-oauth', bad: 'refused: KafkaJSSASLAuthenticationError' });
    // kafkajs takes the broker's error JSON for success and fails on its next request (the broker closes the connection).
    expect(out.kafkajs).toMatchObject({ good: 'over kafkajs-oauth', bad: 'refused: KafkaJSNonRetriableError' });
    for (const name of ['kafkajs', 'kafka-wire']) {
      // kafkajs asks the provider at every authentication (no cache of its own): at least one per client.
      expect(out[name]!.calls).toBeGreaterThanOrEqual(3);
    }
  }, 90_000);

  it('a custom mechanism (PLAIN on kafkajs\'s authenticationProvider interface): the right password writes and reads, a wrong one is refused', async () => {
    const out: Record<string, { good: string; bad: string; seen: unknown[] }> = {};
    for (const [name, mod] of MODULES) {
      const brokers = [cluster().listeners.SASL_PLAINTEXT!];
      const seen: unknown[] = [];
      out[name] = {
        good: await roundTrip(mod, { brokers, sasl: customPlain(USER, PASSWORD, seen) }, `${name}-custom`),
        bad: await roundTrip(mod, { brokers, sasl: customPlain(USER, 'wrong', []) }, `${name}-custom-bad`),
        seen,
      };
    }
    // saslAuthenticate rejects with the broker's SASL_AUTHENTICATION_FAILED as a KafkaJSProtocolError; this authenticator lets it through.
    expect(out['kafka-wire']).toMatchObject({ good: 'over kafka-wire-custom', bad: 'refused: KafkaJSProtocolError SASL_AUTHENTICATION_FAILED' });
    expect(out.kafkajs).toMatchObject({ good: 'over kafkajs-custom', bad: 'refused: KafkaJSProtocolError SASL_AUTHENTICATION_FAILED' });
    // Both hand response.decode() the broker's empty answer as a BYTES field (an int32 0), and the authenticator ran per connection.
    expect(out['kafka-wire']!.seen.slice(0, 2)).toEqual([true, { answer: '00000000' }]);
    expect(out['kafka-wire']!.seen.slice(0, 2)).toEqual(out.kafkajs!.seen.slice(0, 2));
    expect(out['kafka-wire']!.seen.length).toBeGreaterThanOrEqual(4);
  }, 90_000);

  it('sasl aws (kafkajs\'s AWS-IAM): kafkajs\'s message byte for byte, and refused by a broker without the mechanism', async () => {
    const aws = { mechanism: 'aws' as const, authorizationIdentity: 'AIDAEXAMPLE', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: PASSWORD, sessionToken: 'session-token' };
    const { request } = require('kafkajs/src/protocol/sasl/awsIam') as { request: (s: object) => { encode: () => Promise<Buffer> } };
    const theirs = await request({ ...aws }).encode();
    const mechanism = saslOf(aws, createLogger(ours.logLevel.NOTHING)) as SaslMechanism;
    let sent: Uint8Array | undefined;
    await mechanism.authenticate(async (m) => { sent = m; return new Uint8Array(); }, { host: 'h', port: 1, reauthentication: false });
    expect(mechanism.name).toBe('AWS'); // kafkajs's SaslHandshake name: the mechanism upper-cased
    expect(Buffer.from(sent!).toString('hex')).toBe(theirs.subarray(4).toString('hex'));
    const out: Record<string, string> = {};
    for (const [name, mod] of MODULES) out[name] = await roundTrip(mod, { brokers: [cluster().listeners.SASL_PLAINTEXT!], sasl: aws }, `${name}-aws`);
    expect(out).toEqual({ kafkajs: 'refused: KafkaJSProtocolError UNSUPPORTED_SASL_MECHANISM', 'kafka-wire': 'refused: KafkaJSProtocolError UNSUPPORTED_SASL_MECHANISM' });
  }, 60_000);

  it('ssl with the cluster\'s CA writes and reads; a mechanism with no authenticationProvider that neither knows is refused', async () => {
    const out: Record<string, string> = {};
    for (const [name, mod] of MODULES) out[name] = await roundTrip(mod, { brokers: [cluster().listeners.SSL!], ssl: { ca: [cluster().ssl!.caPem] } }, `${name}-ssl`);
    expect(out).toEqual({ kafkajs: 'over kafkajs-ssl', 'kafka-wire': 'over kafka-wire-ssl' });
    const kafka = new ours.Kafka({ brokers: [cluster().listeners.SASL_PLAINTEXT!], sasl: { mechanism: 'gssapi' } as never, logLevel: ours.logLevel.NOTHING });
    const refused = await kafka.producer().connect().catch((e) => e);
    expect(refused).toBeInstanceOf(ours.KafkaJSSASLAuthenticationError);
    expect(refused.message).toMatch(/SASL GSSAPI mechanism is not supported by kafka-wire\/kafkajs without an authenticationProvider/);
  }, 90_000);
});
