// kafka-wire/kafkajs's sasl mapping (src/kafkajs/sasl.ts) without a broker: the conversation a
// mapped mechanism has with a scripted `send`, checked against what kafkajs 2.2.4's own code
// makes (its OAUTHBEARER and AWS-IAM request encoders) and against its saslAuthenticate contract
// (request.encode() as a BYTES field, response.decode() given one, parse()'s result returned,
// the broker's refusal as a KafkaJSProtocolError). test/kafkajs/auth.test.ts runs them on Kafka.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { saslOf } from '../../src/kafkajs/sasl.js';
import { createLogger, logLevel } from '../../src/kafkajs/logger.js';
import { KafkaJSProtocolError, KafkaJSSASLAuthenticationError } from '../../src/kafkajs/errors.js';
import { SaslError, type SaslMechanism, type SaslSend } from '../../src/wire/index.js';
import type { Mechanism } from '../../src/kafkajs/types.js';

const require = createRequire(import.meta.url);
const logger = createLogger(logLevel.NOTHING);
const context = { host: '127.0.0.1', port: 9092, reauthentication: false };
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A send that records each message and answers from `answers` in turn (a SaslError answers with a refusal). */
function scripted(...answers: (Uint8Array | SaslError)[]): { send: SaslSend; sent: Uint8Array[] } {
  const sent: Uint8Array[] = [];
  return {
    sent,
    send: async (m) => {
      sent.push(m);
      const a = answers.shift() ?? new Uint8Array();
      if (a instanceof SaslError) throw a;
      return a;
    },
  };
}

describe('kafkajs\'s sasl as kafka-wire mechanisms', () => {
  it('oauthbearer: kafkajs\'s initial response for the provider\'s token and extensions, and the provider asked at every authentication', async () => {
    let calls = 0;
    const sasl = { mechanism: 'oauthbearer' as const, oauthBearerProvider: async () => { calls++; return { value: 'tok.en.x', extensions: { traceId: 'abc', tenant: 'x' } }; } };
    const mechanism = saslOf(sasl, logger) as SaslMechanism;
    const s = scripted();
    await mechanism.authenticate(s.send, context);
    await mechanism.authenticate(s.send, { ...context, reauthentication: true });
    const { request } = require('kafkajs/src/protocol/sasl/oauthBearer') as { request: (sasl: object, token: object) => Promise<{ encode: () => Promise<Buffer> }> };
    const theirs = await (await request(sasl, await sasl.oauthBearerProvider())).encode();
    expect(mechanism.name).toBe('OAUTHBEARER');
    expect(hex(s.sent[0]!)).toBe(hex(theirs.subarray(4)));
    expect(s.sent).toHaveLength(2);
    expect(calls).toBe(3);
  });

  it('oauthbearer: no provider, or a token without a value, fails naming it; a refusal is acknowledged and reported with the broker\'s status', async () => {
    const none = saslOf({ mechanism: 'oauthbearer' } as never, logger) as SaslMechanism;
    await expect(none.authenticate(scripted().send, context)).rejects.toThrow('Missing OAuth bearer token provider');
    const empty = saslOf({ mechanism: 'oauthbearer', oauthBearerProvider: async () => ({}) as never }, logger) as SaslMechanism;
    await expect(empty.authenticate(scripted().send, context)).rejects.toThrow(/Invalid OAuth bearer token/);
    const refused = saslOf({ mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: 'expired' }) }, logger) as SaslMechanism;
    const s = scripted(new TextEncoder().encode('{"status":"invalid_token"}'), new SaslError('OAUTHBEARER', 'SASL OAUTHBEARER: SaslAuthenticate: SASL_AUTHENTICATION_FAILED', { errorCode: 58 }));
    await expect(refused.authenticate(s.send, context)).rejects.toMatchObject({ reason: 'invalid_token' });
    expect(hex(s.sent[1]!)).toBe('01'); // RFC 7628's acknowledgement before the broker's final error
  });

  it('aws: kafkajs\'s AWS-IAM message, byte for byte, with and without a session token; missing fields named', async () => {
    for (const sessionToken of ['FwoGZXIvYXdz', undefined]) {
      const sasl = { mechanism: 'aws' as const, authorizationIdentity: 'AIDAEXAMPLE', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI', ...(sessionToken ? { sessionToken } : {}) };
      const mechanism = saslOf(sasl, logger) as SaslMechanism;
      const s = scripted();
      await mechanism.authenticate(s.send, context);
      const { request } = require('kafkajs/src/protocol/sasl/awsIam') as { request: (s: object) => { encode: () => Promise<Buffer> } };
      expect(hex(s.sent[0]!)).toBe(hex((await request({ ...sasl }).encode()).subarray(4)));
      expect(mechanism.name).toBe('AWS');
    }
    const missing = saslOf({ mechanism: 'aws', authorizationIdentity: 'a', accessKeyId: 'k' } as never, logger) as SaslMechanism;
    await expect(missing.authenticate(scripted().send, context)).rejects.toThrow('Missing secretAccessKey');
  });

  it('a custom authenticator: its args, request.encode() unwrapped from its BYTES form, response.decode() given the answer in that form, parse()\'s result returned', async () => {
    const seen: unknown[] = [];
    const custom: Mechanism = {
      mechanism: 'x-echo',
      authenticationProvider: ({ host, port, logger: log, saslAuthenticate }) => ({
        authenticate: async () => {
          seen.push({ host, port, logger: typeof log.namespace === 'function' });
          const first = await saslAuthenticate({
            request: { encode: () => Buffer.from('0000000568656c6c6f', 'hex') },
            response: { decode: (raw) => { seen.push(raw.toString('hex')); return raw.subarray(4); }, parse: (data) => data.toString() },
          });
          seen.push(first);
          seen.push(await saslAuthenticate({ request: { encode: async () => Buffer.from('0000000101', 'hex') } }));
        },
      }),
    };
    const mechanism = saslOf(custom, logger) as SaslMechanism;
    const s = scripted(new TextEncoder().encode('world'), new Uint8Array());
    await mechanism.authenticate(s.send, context);
    expect(mechanism.name).toBe('X-ECHO');
    expect(s.sent.map(hex)).toEqual(['68656c6c6f', '01']);
    expect(seen).toEqual([{ host: '127.0.0.1', port: 9092, logger: true }, '00000005776f726c64', 'world', undefined]);
  });

  it('a custom authenticator: a request.encode() without its int32 size fails naming kafkajs\'s form; a refusal rejects saslAuthenticate with a KafkaJSProtocolError', async () => {
    const once = (encode: () => Buffer): Mechanism => ({
      mechanism: 'x', authenticationProvider: ({ saslAuthenticate }) => ({ authenticate: async () => { await saslAuthenticate({ request: { encode } }); } }),
    });
    const raw = saslOf(once(() => Buffer.from('hello')), logger) as SaslMechanism;
    await expect(raw.authenticate(scripted().send, context)).rejects.toThrow(/request\.encode\(\) gave 5 bytes whose int32 size prefix says 1751477356 .*the size, then the bytes/);
    const refusal = new SaslError('X', 'SASL X: SaslAuthenticate: SASL_AUTHENTICATION_FAILED: bad credentials', { errorCode: 58, reason: 'bad credentials' });
    const refused = saslOf(once(() => Buffer.from('0000000101', 'hex')), logger) as SaslMechanism;
    const error = await refused.authenticate(scripted(refusal).send, context).catch((e) => e);
    expect(error).toBeInstanceOf(KafkaJSProtocolError);
    expect(error).toMatchObject({ type: 'SASL_AUTHENTICATION_FAILED', code: 58, message: 'bad credentials', retriable: false });
  });

  it('plain and scram become kafka-wire\'s options; an unknown mechanism without an authenticationProvider is a KafkaJSSASLAuthenticationError', () => {
    expect(saslOf({ mechanism: 'plain', username: 'u', password: 'p' }, logger)).toEqual({ mechanism: 'PLAIN', username: 'u', password: 'p' });
    expect(saslOf({ mechanism: 'SCRAM-SHA-512', username: 'u', password: 'p' } as never, logger)).toEqual({ mechanism: 'SCRAM-SHA-512', username: 'u', password: 'p' });
    expect(saslOf(undefined, logger)).toBeUndefined();
    expect(() => saslOf({ mechanism: 'gssapi' } as never, logger)).toThrow(KafkaJSSASLAuthenticationError);
  });
});
