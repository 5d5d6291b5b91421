// Test helper: an OIDC identity provider on 127.0.0.1 for a real Kafka broker that validates
// OAUTHBEARER tokens with Kafka's own OAuthBearerValidatorCallbackHandler: a JWKS served over
// HTTPS (an openssl certificate the broker trusts through the JAAS ssl.truststore.* options, its
// URL allowed by org.apache.kafka.sasl.oauthbearer.allowed.urls) and a client-credentials token
// endpoint over HTTP issuing RS256 JWTs, each client with its own secret and token lifetime.
// `broker` is what useKafka needs for the SASL_PLAINTEXT listener.
import { execFileSync } from 'node:child_process';
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { makeCert } from '../wire/tls-cert.js';
import type { StartOptions } from './kafka.js';

export interface OidcClient { secret: string; tokenSeconds: number }

export interface OidcIdp {
  readonly jwksUrl: string;
  readonly tokenUrl: string;
  readonly audience: string;
  readonly issuer: string;
  /** The broker options (jvmArgs and config) for a SASL_PLAINTEXT listener validating against this JWKS; add your own config over them. */
  readonly broker: Required<Pick<StartOptions, 'jvmArgs' | 'config'>>;
  /** An RS256 JWT signed by `key` (default: the JWKS's key) with the JWKS's key id. */
  jwt(claims: Record<string, unknown>, key?: KeyObject): string;
  /** Valid claims for `sub` (issuer, audience, iat, exp in `seconds`, scope kafka), with `over` laid on them. */
  claims(sub: string, seconds: number, over?: Record<string, unknown>): Record<string, unknown>;
  /** A key the JWKS does not hold (for a bad signature). */
  readonly otherKey: KeyObject;
  /** Tokens the endpoint issued so far to `clientId`. */
  issued(clientId: string): number;
  close(): Promise<void>;
}

const b64url = (v: object | Buffer) => (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');

/** Starts the JWKS and the token endpoint, or returns null without openssl (makeCert reports it). */
export async function startOidcIdp(clients: Readonly<Record<string, OidcClient>>, options: { audience?: string; issuer?: string } = {}): Promise<OidcIdp | null> {
  const cert = makeCert();
  if (cert === null) return null;
  const audience = options.audience ?? 'kafka-aud';
  const issuer = options.issuer ?? 'https://idp.test';
  const truststore = join(cert.dir, 'trust.p12');
  execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'jwks', '-file', cert.cert, '-keystore', truststore, '-storetype', 'PKCS12', '-storepass', 'trustpass'], { stdio: 'ignore' });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwt = (claims: Record<string, unknown>, key: KeyObject = privateKey) => {
    const head = `${b64url({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64url(claims)}`;
    return `${head}.${createSign('RSA-SHA256').update(head).sign(key).toString('base64url')}`;
  };
  const claims = (sub: string, seconds: number, over: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: issuer, sub, aud: audience, iat: now, exp: now + seconds, scope: 'kafka', ...over };
  };
  const issued = new Map<string, number>();
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  const jwks: Server = createHttpsServer({ key: readFileSync(cert.key), cert: readFileSync(cert.cert) }, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const idp: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const colon = basic.indexOf(':');
      const [id, secret] = colon < 0 ? ['', ''] : [decodeURIComponent(basic.slice(0, colon)), decodeURIComponent(basic.slice(colon + 1))];
      const client = Object.hasOwn(clients, id) ? clients[id] : undefined;
      res.setHeader('content-type', 'application/json');
      if (client === undefined || client.secret !== secret || new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' }));
        return;
      }
      issued.set(id, (issued.get(id) ?? 0) + 1);
      res.end(JSON.stringify({ access_token: jwt(claims(id, client.tokenSeconds)), token_type: 'Bearer', expires_in: client.tokenSeconds }));
    });
  });
  await Promise.all([jwks, idp].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  const jwksUrl = `https://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks`;
  const tokenUrl = `http://127.0.0.1:${(idp.address() as { port: number }).port}/oauth2/token`;
  return {
    jwksUrl, tokenUrl, audience, issuer, jwt, claims, otherKey,
    broker: {
      jvmArgs: [`-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=${jwksUrl}`],
      config: {
        'listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class':
          'org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler',
        'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config':
          `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="broker" ssl.truststore.location="${truststore}" ssl.truststore.password="trustpass" ssl.truststore.type="PKCS12";`,
        'sasl.oauthbearer.jwks.endpoint.url': jwksUrl,
        'sasl.oauthbearer.expected.audience': audience,
        'sasl.oauthbearer.expected.issuer': issuer,
      },
    },
    issued: (clientId) => issued.get(clientId) ?? 0,
    close: async () => {
      await Promise.all([jwks, idp].map((s) => new Promise((resolve) => s.close(resolve))));
      rmSync(cert.dir, { recursive: true, force: true });
    },
  };
}
