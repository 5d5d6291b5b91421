// OAUTHBEARER with OIDC against a real Kafka 4.4 broker that validates tokens with Kafka's own
// OAuthBearerValidatorCallbackHandler against a JWKS this test serves over HTTPS on 127.0.0.1
// (an openssl certificate the broker trusts through the JAAS ssl.truststore.* options, its URL
// allowed by org.apache.kafka.sasl.oauthbearer.allowed.urls), and an OIDC token endpoint this
// test serves: the right client credentials connect (producer, consumer, CLI), with 10 s tokens
// refreshed and re-authenticated (KIP-368) while they run; a wrong secret is refused by the token
// endpoint (status and endpoint named); an expired token, a wrong audience and a bad signature
// are each refused by the broker (invalid_token), the broker's log saying why. No secret appears
// in any output.
import { afterAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../src/generated/types.js';
import { connect, saslMechanism, SaslError, OAuthTokenError, type SaslMechanism, type SaslOptions } from '../../src/wire/index.js';
import { createProducer } from '../../src/producer/index.js';
import { Consumer } from '../../src/consumer/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { startOidcIdp } from '../helpers/oidc.js';
import { jsonLines, runCli } from '../wire/cli-io.js';

const CLIENT_ID = 'kafka-app';
const CLIENT_SECRET = 'oidc-client-secret-c0ffee';
const TOKEN_SECONDS = 10;
const outputs: string[] = [];

const idp = await kafkaPeer() ? await startOidcIdp({ [CLIENT_ID]: { secret: CLIENT_SECRET, tokenSeconds: TOKEN_SECONDS } }) : null;
const ok = idp !== null;
const jwt: NonNullable<typeof idp>['jwt'] = (c, key) => idp!.jwt(c, key);
const claims = (over: Record<string, unknown> = {}) => idp!.claims(CLIENT_ID, TOKEN_SECONDS, over);
const tokenUrl = idp?.tokenUrl ?? '';

function address(listener: string): { host: string; port: number } {
  const [host, port] = listener.split(',')[0]!.split(':');
  return { host: host!, port: Number(port) };
}

describe.skipIf(!ok)('OAUTHBEARER with OIDC against a broker validating with Kafka\'s JWKS validator', () => {
  const kafka = useKafka({
    sasl: { users: {}, oauthbearer: true },
    jvmArgs: idp?.broker.jvmArgs,
    config: { ...idp?.broker.config, 'connections.max.reauth.ms': '600000' },
  });
  afterAll(() => idp?.close());
  const oidc = { tokenEndpointUrl: tokenUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scope: 'kafka' };

  it('the right client credentials: a producer and a consumer run across token refreshes and re-authentications, losing nothing', async () => {
    const k = kafka();
    const bootstrap = k.listeners.SASL_PLAINTEXT!;
    await k.createTopic('oidc-t', { partitions: 2 });
    const sasl: SaslOptions = { mechanism: 'OAUTHBEARER', oidc };
    const inner = saslMechanism(sasl);
    let reauths = 0;
    const counting: SaslMechanism = { name: inner.name, authenticate: (send, c) => { if (c.reauthentication) reauths++; return inner.authenticate(send, c); } };
    const issuedBefore = idp!.issued(CLIENT_ID);
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
    expect(idp!.issued(CLIENT_ID) - issuedBefore).toBeGreaterThanOrEqual(2); // refreshed before the first expired
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
      ['a bad signature', jwt(claims(), idp!.otherKey), /Could not validate the access token: JWT rejected due to invalid signature/],
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
