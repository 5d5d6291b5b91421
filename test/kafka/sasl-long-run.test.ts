// KIP-368 re-authentication and OAUTHBEARER token refresh at the sizes issue 42 asks, against one
// real Kafka 4.4 broker whose SASL_PLAINTEXT listener takes SCRAM and OAUTHBEARER (validated by
// Kafka's own OAuthBearerValidatorCallbackHandler against a JWKS this test serves over HTTPS,
// tokens from an OIDC client-credentials endpoint it serves) and sets
// connections.max.reauth.ms=10000. Four runs share the broker, at the same time:
// - SCRAM-SHA-512: a producer and a consumer for 60 s, each re-authenticating at least 5 times;
// - OAUTHBEARER with OIDC (hour-long tokens): the same;
// - SCRAM-SHA-256 through `kafka-wire proxy`'s proxy (startProxy): the client's own SASL,
//   re-authentications included, passes through the proxy to the SASL listener;
// - OAUTHBEARER with OIDC and 30 s tokens: a consumer for 3 minutes (and a producer feeding it),
//   kept running by tokens fetched before the old ones expire (the broker caps each session at
//   its token's expiry, so without a fresh token the connection would be closed).
// In every run each record sent is read, and no send fails.
//
// Why this file is long (about 3.5 minutes with the broker's start): the issue asks for 60 s runs
// with 5 re-authentications each and a 3-minute consumer. The runs are concurrent tests on one
// broker, so the file's time is the longest run's, and it runs beside the rest of the suite.
import { afterAll, describe, expect, it } from 'vitest';
import { saslMechanism, type SaslMechanism, type SaslOptions } from '../../src/wire/index.js';
import { createProducer } from '../../src/producer/index.js';
import { Consumer } from '../../src/consumer/index.js';
import { startProxy } from '../../src/capture/proxy.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { startOidcIdp } from '../helpers/oidc.js';

const USER = 'long-runner';
const PASSWORD = 'long-run-scram-secret-77';
const REAUTH_MS = 10_000;
const RUN_MS = 60_000;
const LONG_RUN_MS = 180_000;
const SHORT_TOKEN_SECONDS = 30;
const CLIENTS = {
  'long-oauth': { secret: 'oidc-long-oauth-secret', tokenSeconds: 3600 },
  'short-consumer': { secret: 'oidc-short-consumer-secret', tokenSeconds: SHORT_TOKEN_SECONDS },
  'short-producer': { secret: 'oidc-short-producer-secret', tokenSeconds: SHORT_TOKEN_SECONDS },
};

const idp = await kafkaPeer() ? await startOidcIdp(CLIENTS) : null;
const ok = idp !== null;

interface Counted { mechanism: SaslMechanism; reauths: () => number; lastAuthAt: () => number }

/** `sasl`'s mechanism, counting its re-authentications and noting when it last authenticated. */
function counting(sasl: SaslOptions): Counted {
  const inner = saslMechanism(sasl);
  let n = 0;
  let last = 0;
  return {
    mechanism: {
      name: inner.name,
      authenticate: async (send, context) => {
        if (context.reauthentication) n++;
        await inner.authenticate(send, context);
        last = Date.now();
      },
    },
    reauths: () => n,
    lastAuthAt: () => last,
  };
}

const oidc = (clientId: keyof typeof CLIENTS): SaslOptions => ({
  mechanism: 'OAUTHBEARER', oidc: { tokenEndpointUrl: idp!.tokenUrl, clientId, clientSecret: CLIENTS[clientId].secret, scope: 'kafka' },
});

describe.skipIf(!ok)(`SASL sessions over minutes (connections.max.reauth.ms=${REAUTH_MS})`, () => {
  const kafka = useKafka({
    sasl: { users: { [USER]: PASSWORD }, oauthbearer: true },
    jvmArgs: idp?.broker.jvmArgs,
    config: { ...idp?.broker.config, 'connections.max.reauth.ms': String(REAUTH_MS) },
  });
  afterAll(() => idp?.close());

  /** A producer sending a record every 50 ms for `ms` and a consumer reading them, until it has all. */
  async function run(label: string, bootstrap: string, producerSasl: SaslOptions, consumerSasl: SaslOptions, ms: number) {
    const topic = `long-${label}`;
    await kafka().createTopic(topic, { partitions: 2 });
    const p = counting(producerSasl);
    const c = counting(consumerSasl);
    const start = Date.now();
    const producer = await createProducer({ bootstrap, sasl: p.mechanism, clientId: `${label}-p` });
    const consumer = new Consumer({ bootstrap, sasl: c.mechanism, groupId: `${topic}-g`, topics: [topic], resetPolicy: 'earliest', clientId: `${label}-c` });
    const got = new Set<string>();
    const running = consumer.run((batch) => { for (const r of batch.records()) got.add(new TextDecoder().decode(r.value!)); });
    let sent = 0;
    while (Date.now() < start + ms) {
      await producer.send(topic, [{ key: String(sent % 7), value: `m${sent}` }]);
      sent++;
      await new Promise((r) => setTimeout(r, 50));
    }
    await producer.flush();
    const deadline = Date.now() + 30_000;
    while (got.size < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const ranMs = Date.now() - start;
    await producer.close();
    await consumer.close();
    await running;
    return {
      sent, got: got.size, ranMs, missing: Array.from({ length: sent }, (_, i) => `m${i}`).filter((m) => !got.has(m)).slice(0, 5),
      producerReauths: p.reauths(), consumerReauths: c.reauths(), consumerLastAuthAfterMs: c.lastAuthAt() - start,
    };
  }

  const expectNothingLost = (label: string, r: Awaited<ReturnType<typeof run>>, reauths: number) => {
    console.log(`[sasl-long-run] ${label}: ${JSON.stringify(r)}`);
    expect(r.missing).toEqual([]);
    expect(r.got).toBe(r.sent);
    expect(r.producerReauths).toBeGreaterThanOrEqual(reauths);
    expect(r.consumerReauths).toBeGreaterThanOrEqual(reauths);
  };

  it.concurrent('SCRAM-SHA-512: a producer and a consumer run 60 s, re-authenticate at least 5 times each, and lose nothing', async () => {
    const sasl: SaslOptions = { mechanism: 'SCRAM-SHA-512', username: USER, password: PASSWORD };
    const r = await run('scram', kafka().listeners.SASL_PLAINTEXT!, sasl, sasl, RUN_MS);
    expect(r.sent).toBeGreaterThan(100); // a record per 50 ms plus the send's round trip: fewer on a loaded machine
    expectNothingLost('SCRAM-SHA-512', r, 5);
  }, 150_000);

  it.concurrent('OAUTHBEARER (OIDC, validated against the JWKS): a producer and a consumer run 60 s, re-authenticate at least 5 times each, and lose nothing', async () => {
    const r = await run('oauth', kafka().listeners.SASL_PLAINTEXT!, oidc('long-oauth'), oidc('long-oauth'), RUN_MS);
    expect(r.sent).toBeGreaterThan(100); // a record per 50 ms plus the send's round trip: fewer on a loaded machine
    expectNothingLost('OAUTHBEARER', r, 5);
    expect(idp!.issued('long-oauth')).toBeGreaterThanOrEqual(1);
  }, 150_000);

  it.concurrent('through the proxy: a SCRAM-SHA-256 client\'s own authentication and its re-authentications pass through for 60 s, losing nothing', async () => {
    const [host, port] = kafka().listeners.SASL_PLAINTEXT!.split(',')[0]!.split(':');
    const proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0 }, upstream: { host: host!, port: Number(port) } });
    try {
      const sasl: SaslOptions = { mechanism: 'SCRAM-SHA-256', username: USER, password: PASSWORD };
      const r = await run('proxy', `${proxy.address.host}:${proxy.address.port}`, sasl, sasl, RUN_MS);
      expect(r.sent).toBeGreaterThan(100); // a record per 50 ms plus the send's round trip: fewer on a loaded machine
      expectNothingLost('SCRAM-SHA-256 through the proxy', r, 5);
      expect(proxy.connections).toBeGreaterThanOrEqual(2);
    } finally {
      await proxy.close();
    }
  }, 150_000);

  it.concurrent(`OAUTHBEARER (OIDC, ${SHORT_TOKEN_SECONDS} s tokens): a 3-minute consumer is kept running by tokens refreshed before they expire`, async () => {
    const r = await run('refresh', kafka().listeners.SASL_PLAINTEXT!, oidc('short-producer'), oidc('short-consumer'), LONG_RUN_MS);
    expect(r.ranMs).toBeGreaterThanOrEqual(LONG_RUN_MS);
    expect(r.sent).toBeGreaterThan(300);
    // A session lasts at most 10 s (or to its token's expiry): well over 15 re-authentications in 3 minutes.
    expectNothingLost('OAUTHBEARER, 30 s tokens, 3 minutes', r, 15);
    // Tokens are fetched again at 80-85% of their 30 s (Kafka's login refresh): one every ~25 s, at least 6 in 3 minutes.
    console.log(`[sasl-long-run] tokens issued over 3 minutes: consumer ${idp!.issued('short-consumer')}, producer ${idp!.issued('short-producer')}`);
    expect(idp!.issued('short-consumer')).toBeGreaterThanOrEqual(LONG_RUN_MS / 1000 / SHORT_TOKEN_SECONDS);
    // Still authenticating (with a fresh token) in the run's last 15 s.
    expect(r.consumerLastAuthAfterMs).toBeGreaterThan(LONG_RUN_MS - 15_000);
  }, 300_000);
});
