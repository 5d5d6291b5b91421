// OAUTHBEARER with OIDC against a real Kafka 4.4 broker that validates tokens with Kafka's own
// OAuthBearerValidatorCallbackHandler against a JWKS this test serves over HTTPS on 127.0.0.1
// (an openssl certificate the broker trusts through the JAAS ssl.truststore.* options, its URL
// allowed by org.apache.kafka.sasl.oauthbearer.allowed.urls), and an OIDC token endpoint this
// test serves: the right client credentials connect (producer, consumer, CLI), with 10 s tokens
// refreshed and re-authenticated (KIP-368) while they run; a wrong secret is refused by the token
// endpoint (status and endpoint named); an expired token, a wrong audience and a bad signature
// are each refused by the broker (invalid_token), the broker's log saying why. No secret appears
// in any output.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, createSign, type KeyObject } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../src/generated/types.js';
import { connect, saslMechanism, SaslError, OAuthTokenError, type SaslMechanism, type SaslOptions } from '../../src/wire/index.js';
import { createProducer } from '../../src/producer/index.js';
import { Consumer } from '../../src/consumer/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { makeCert } from '../wire/tls-cert.js';

const CLIENT_ID = 'kafka-app';
const CLIENT_SECRET = 'oidc-client-secret-c0ffee';
const AUDIENCE = 'kafka-aud';
const ISSUER = 'https://idp.test';
const TOKEN_SECONDS = 10;
const outputs: string[] = [];

const cert = await kafkaPeer() ? makeCert() : null;
const ok = cert !== null;

const b64url = (v: object | Buffer) => (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
/** An RS256 JWT signed by `key` with the JWKS's key id. */
function jwt(claims: Record<string, unknown>, key: KeyObject = privateKey): string {
  const head = `${b64url({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64url(claims)}`;
  return `${head}.${createSign('RSA-SHA256').update(head).sign(key).toString('base64url')}`;
}
const claims = (over: Record<string, unknown> = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return { iss: ISSUER, sub: CLIENT_ID, aud: AUDIENCE, iat: now, exp: now + TOKEN_SECONDS, scope: 'kafka', ...over };
};

let jwks: Server | undefined;
let idp: Server | undefined;
let jwksUrl = '';
let tokenUrl = '';
let truststore = '';
let tokensIssued = 0;
if (ok) {
  truststore = join(cert.dir, 'trust.p12');
  execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'jwks', '-file', cert.cert, '-keystore', truststore, '-storetype', 'PKCS12', '-storepass', 'trustpass'], { stdio: 'ignore' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwks = createHttpsServer({ key: readFileSync(cert.key), cert: readFileSync(cert.cert) }, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks!.listen(0, '127.0.0.1', resolve));
  jwksUrl = `https://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks`;
  idp = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      res.setHeader('content-type', 'application/json');
      if (basic !== `${CLIENT_ID}:${CLIENT_SECRET}` || new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' }));
        return;
      }
      tokensIssued++;
      res.end(JSON.stringify({ access_token: jwt(claims()), token_type: 'Bearer', expires_in: TOKEN_SECONDS }));
    });
  });
  await new Promise<void>((resolve) => idp!.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(idp.address() as { port: number }).port}/oauth2/token`;
}

function address(listener: string): { host: string; port: number } {
  const [host, port] = listener.split(',')[0]!.split(':');
  return { host: host!, port: Number(port) };
}

describe.skipIf(!ok)('OAUTHBEARER with OIDC against a broker validating with Kafka\'s JWKS validator', () => {
  const kafka = useKafka({
    sasl: { users: {}, oauthbearer: true },
    jvmArgs: [`-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=${jwksUrl}`],
    config: {
      'listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class':
        'org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler',
      'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config':
        `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub=\"broker\" ssl.truststore.location="${truststore}" ssl.truststore.password="trustpass" ssl.truststore.type="PKCS12";`,
      'sasl.oauthbearer.jwks.endpoint.url': jwksUrl,
      'sasl.oauthbearer.expected.audience': AUDIENCE,
      'sasl.oauthbearer.expected.issuer': ISSUER,
      'connections.max.reauth.ms': '600000',
    },
  });
  afterAll(async () => {
    await Promise.all([jwks, idp].map((s) => s && new Promise((resolve) => s.close(resolve))));
    if (cert) rmSync(cert.dir, { recursive: true, force: true });
  });
  const oidc = { tokenEndpointUrl: tokenUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scope: 'kafka' };

  it('the right client credentials: a producer and a consumer run across token refreshes and re-authentications, losing nothing', async () => {
    const k = kafka();
    const bootstrap = k.listeners.SASL_PLAINTEXT!;
    await k.createTopic('oidc-t', { partitions: 2 });
    const sasl: SaslOptions = { mechanism: 'OAUTHBEARER', oidc };
    const inner = saslMechanism(sasl);
    let reauths = 0;
    const counting: SaslMechanism = { name: inner.name, authenticate: (send, c) => { if (c.reauthentication) reauths++; return inner.authenticate(send, c); } };
    const issuedBefore = tokensIssued;
    const producer = await createProducer({ bootstrap, sasl: counting });
    const consumer = new Consumer({ bootstrap, sasl: counting, groupId: 'oidc-g', topics: ['oidc-t'], resetPolicy: 'earliest' });
    const got = new Set<string>();
    const running = consumer.run((batch) => { for (const r of batch.records()) got.add(new TextDecoder().decode(r.value!)); });
    let sent = 0;
    const until = Date.now() + (TOKEN_SECONDS + 5) * 1000;
    while (Date.now() < until) {
      await producer.send('oidc-t', [{ value: `m${sent++}` }]);
      await new Promise((r) => setTimeout(r, 50));
    }
    const deadline = Date.now() + 30_000;
    while (got.size < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await producer.close();
    await consumer.close();
    await running;
    expect(got.size).toBe(sent);
    expect(tokensIssued - issuedBefore).toBeGreaterThanOrEqual(2); // refreshed before the first expired
    expect(reauths).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('the CLI with -X sasl.oauthbearer.method=oidc and the endpoint, client id, secret and scope', async () => {
    const b = kafka().listeners.SASL_PLAINTEXT!;
    const x = ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanism=OAUTHBEARER', '-X', 'sasl.oauthbearer.method=oidc',
      '-X', `sasl.oauthbearer.token.endpoint.url=${tokenUrl}`, '-X', `sasl.oauthbearer.client.id=${CLIENT_ID}`, '-X', 'sasl.oauthbearer.scope=kafka'];
    const produced = await runCli('produce', ['-b', b, '-t', 'oidc-cli', ...x, '-X', `sasl.oauthbearer.client.secret=${CLIENT_SECRET}`], 'k\tvia OIDC\n');
    expect(produced.code, produced.stderr).toBe(0);
    const consumed = await runCli('consume', ['-b', b, '-t', 'oidc-cli', '-e', ...x, '-X', `sasl.oauthbearer.client.secret=${CLIENT_SECRET}`]);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(jsonLines(consumed.stdout).map((l) => l.value)).toEqual(['via OIDC']);
    const wrong = await runCli('metadata', ['-b', b, ...x, '-X', `sasl.oauthbearer.client.secret=${CLIENT_SECRET}-wrong`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`OIDC token endpoint ${tokenUrl} refused the client credentials grant: HTTP 401: invalid_client`);
    const help = await runCli('metadata', ['--help']);
    outputs.push(produced.stdout, produced.stderr, consumed.stdout, consumed.stderr, wrong.stdout, wrong.stderr, help.stdout, help.stderr);
  }, 120_000);

  it('refused: a wrong secret (by the token endpoint), an expired token, a wrong audience and a bad signature (by the broker, each for its reason)', async () => {
    const k = kafka();
    const at = address(k.listeners.SASL_PLAINTEXT!);
    const wrongSecret = await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', oidc: { ...oidc, clientSecret: 'not-the-secret' } } }).catch((e) => e);
    expect(wrongSecret).toBeInstanceOf(SaslError);
    expect(wrongSecret.cause).toBeInstanceOf(OAuthTokenError);
    expect(wrongSecret.cause).toMatchObject({ status: 401, endpoint: tokenUrl, error: 'invalid_client' });
    outputs.push(String(wrongSecret), JSON.stringify(wrongSecret), String(wrongSecret.cause));
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, RegExp][] = [
      ['an expired token', jwt(claims({ iat: now - 7200, exp: now - 3600 })), /Could not validate the access token: .*The JWT is no longer valid/],
      ['a wrong audience', jwt(claims({ aud: 'someone-else' })), /Could not validate the access token: .*Audience \(aud\) claim \[someone-else\] doesn't contain an acceptable identifier/],
      ['a bad signature', jwt(claims(), other), /Could not validate the access token: JWT rejected due to invalid signature/],
    ];
    for (const [what, token, logged] of cases) {
      const logBefore = k.log().length;
      const error = await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', token: () => ({ value: token, expiresAt: Date.now() + 60_000 }) } }).catch((e) => e);
      outputs.push(String(error), JSON.stringify(error));
      expect(error, what).toBeInstanceOf(SaslError);
      expect(error, what).toMatchObject({ code: 'SASL', mechanism: 'OAUTHBEARER', errorCode: 58, reason: 'invalid_token' });
      expect(error.message, what).toMatch(/the broker refused the token: \{"status":"invalid_token"/);
      expect(k.log().slice(logBefore), what).toMatch(logged);
      expect(error.message).not.toContain(token);
    }
    // The right credentials still work on the same listener.
    const good = await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', oidc } });
    expect((await good.request(ApiKey.Metadata, undefined, { topics: null })).brokers).toHaveLength(1);
    await good.close();
  }, 60_000);

  it('no secret in any output', () => {
    expect(outputs.length).toBeGreaterThan(8);
    expect(outputs.filter((o) => o.includes(CLIENT_SECRET))).toEqual([]);
  });
});
