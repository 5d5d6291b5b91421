// kafkajs's `sasl` option mapped onto kafka-wire's one SASL mechanism interface
// (src/wire/sasl/mechanism.ts): plain and scram-sha-* become kafka-wire's own mechanisms;
// oauthbearer calls the app's oauthBearerProvider (kafkajs's shape, `async () => ({ value,
// extensions? })`) at every authentication, as kafkajs does, leaving caching to the provider;
// aws is kafkajs's old AWS-IAM mechanism ("AWS" in SaslHandshake, then authorizationIdentity,
// accessKeyId, secretAccessKey and sessionToken NUL-separated, as kafkajs sends them; Amazon MSK
// does not take it: MSK IAM is OAUTHBEARER with a signer's token); and any mechanism with an
// authenticationProvider runs kafkajs's custom authenticator interface over the same
// conversation, so authenticators written for kafkajs (such as MSK IAM plugins) work unchanged.
//
// Errors thrown inside a conversation become the connection's SaslError ("SASL NAME: ..."), which
// the producer and consumer report as KafkaJSSASLAuthenticationError, except that a custom
// authenticator's own KafkaJS error (such as the KafkaJSProtocolError saslAuthenticate rejects
// with when the broker refuses) reaches the app as it is, as in kafkajs.
//
// kafkajs's saslAuthenticate contract, kept here: `request.encode()` gives the SaslAuthenticate
// auth bytes as a BYTES field (an int32 size, then the bytes), and `response.decode()` receives
// the broker's auth bytes in the same form; `response.parse()`'s result is what saslAuthenticate
// resolves with.
/// <reference types="node" />
import { Buffer } from 'node:buffer';
import { SaslError, type SaslMechanism, type SaslOptions, type SaslSend } from '../wire/sasl/index.js';
import { oauthBearerConversation } from '../wire/sasl/oauthbearer.js';
import { KafkaJSProtocolError, KafkaJSSASLAuthenticationError, protocolErrorInfo } from './errors.js';
import type { Logger } from './logger.js';
import type { AuthenticationProviderArgs, Mechanism, SaslAuthenticateArgs, SASLOptions } from './types.js';

const utf8 = new TextEncoder();

/** The built-in kafkajs mechanisms kafka-wire/kafkajs maps (as kafkajs names them, lower case). */
export const KAFKAJS_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer', 'aws'] as const;

/** kafkajs's saslAuthenticate over one kafka-wire conversation's `send`. */
function saslAuthenticateOver(send: SaslSend): AuthenticationProviderArgs['saslAuthenticate'] {
  return async <ParseResult>({ request, response }: SaslAuthenticateArgs<ParseResult>): Promise<ParseResult | void> => {
    const encoded = await request.encode();
    const bytes = encoded instanceof Uint8Array ? encoded : (encoded as { buffer?: unknown }).buffer;
    if (!(bytes instanceof Uint8Array) || bytes.length < 4) {
      throw new Error(`the authenticator's request.encode() gave no int32 size and bytes (kafkajs sends it as SaslAuthenticate's BYTES field)`);
    }
    const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0);
    if (size !== bytes.length - 4) {
      throw new Error(`the authenticator's request.encode() gave ${bytes.length} bytes whose int32 size prefix says ${size} (kafkajs sends it as SaslAuthenticate's BYTES field: the size, then the bytes)`);
    }
    let answer: Uint8Array;
    try {
      answer = await send(bytes.subarray(4));
    } catch (err) {
      // kafkajs's saslAuthenticate rejects with the broker's error as a KafkaJSProtocolError (its ErrorMessage as the message).
      if (!(err instanceof SaslError) || !err.errorCode) throw err;
      throw err.reason
        ? new KafkaJSProtocolError(err.reason, { code: err.errorCode, retriable: protocolErrorInfo(err.errorCode).retriable })
        : new KafkaJSProtocolError(err.errorCode);
    }
    if (!response) return;
    const raw = Buffer.alloc(4 + answer.length);
    raw.writeInt32BE(answer.length, 0);
    raw.set(answer, 4);
    return response.parse(await response.decode(raw));
  };
}

/** A kafkajs custom mechanism ({ mechanism, authenticationProvider }) as a kafka-wire mechanism. */
function customMechanism(sasl: Mechanism, logger: Logger): SaslMechanism {
  const name = String(sasl.mechanism).toUpperCase();
  return {
    name,
    async authenticate(send, context) {
      const authenticator = sasl.authenticationProvider({
        host: context.host, port: context.port, logger: logger.namespace(`SaslAuthenticator-${name}`), saslAuthenticate: saslAuthenticateOver(send),
      });
      if (typeof authenticator?.authenticate !== 'function') {
        throw new Error(`authenticationProvider returned no { authenticate }`);
      }
      await authenticator.authenticate();
    },
  };
}

/** kafkajs's oauthbearer: the provider's token at every authentication, with its extensions. */
function oauthBearer(sasl: Extract<SASLOptions, { mechanism: 'oauthbearer' }> & { authorizationIdentity?: string }): SaslMechanism {
  return {
    name: 'OAUTHBEARER',
    async authenticate(send) {
      if (typeof sasl.oauthBearerProvider !== 'function') throw new Error('Missing OAuth bearer token provider');
      const token = await sasl.oauthBearerProvider() as { value?: unknown; extensions?: Record<string, string> } | undefined;
      if (typeof token?.value !== 'string' || token.value === '') throw new Error('Invalid OAuth bearer token (the provider returned no { value })');
      await oauthBearerConversation(send, token.value, token.extensions, sasl.authorizationIdentity);
    },
  };
}

/** kafkajs's aws (the AWS-IAM mechanism of a broker-side plugin, not MSK's): its one message, as kafkajs writes it. */
function awsIam(sasl: Extract<SASLOptions, { mechanism: 'aws' }>): SaslMechanism {
  return {
    name: 'AWS',
    async authenticate(send) {
      for (const field of ['authorizationIdentity', 'accessKeyId', 'secretAccessKey'] as const) {
        if (!sasl[field]) throw new Error(`Missing ${field}`);
      }
      await send(utf8.encode([sasl.authorizationIdentity, sasl.accessKeyId, sasl.secretAccessKey, sasl.sessionToken ?? ''].join('\u0000')));
    },
  };
}

/**
 * kafkajs's `sasl` as kafka-wire's: a custom authenticationProvider wins (as in kafkajs), then the
 * built-in names; any other name is a KafkaJSSASLAuthenticationError listing what is known.
 */
export function saslOf(sasl: SASLOptions | Mechanism | undefined, logger: Logger): SaslOptions | undefined {
  if (sasl === undefined || sasl === null) return undefined;
  if (typeof (sasl as Mechanism).authenticationProvider === 'function') return customMechanism(sasl as Mechanism, logger);
  const mechanism = String(sasl.mechanism).toLowerCase();
  const s = sasl as { username?: string; password?: string };
  switch (mechanism) {
    case 'plain': return { mechanism: 'PLAIN', username: s.username ?? '', password: s.password ?? '' };
    case 'scram-sha-256': return { mechanism: 'SCRAM-SHA-256', username: s.username ?? '', password: s.password ?? '' };
    case 'scram-sha-512': return { mechanism: 'SCRAM-SHA-512', username: s.username ?? '', password: s.password ?? '' };
    case 'oauthbearer': return oauthBearer(sasl as Extract<SASLOptions, { mechanism: 'oauthbearer' }>);
    case 'aws': return awsIam(sasl as Extract<SASLOptions, { mechanism: 'aws' }>);
    default:
      throw new KafkaJSSASLAuthenticationError(`SASL ${String(sasl.mechanism).toUpperCase()} mechanism is not supported by kafka-wire/kafkajs without an authenticationProvider (built in: ${KAFKAJS_SASL_MECHANISMS.join(', ')})`);
  }
}
