// SASL mechanisms (src/wire/sasl/) without a broker: a custom mechanism's conversation as a
// server sees it; OAUTHBEARER's client message byte for byte (RFC 7628 as Kafka frames it), its
// refusal (%x01 then the broker's error) as a typed error with the reason; unsecured JWS claims;
// the OIDC client-credentials grant against a token endpoint served here (Basic credentials
// decoded independently, client assertion, scope, audience, a refusal naming endpoint and
// status); the token cache's refresh window and jitter; KIP-368 re-authentication against a
// server that closes the connection, as Kafka does, on a request between SaslHandshake and the
// end of SaslAuthenticate or after the session expired; the MSK IAM token equal to
// aws-msk-iam-sasl-signer-js's byte for byte; and no secret in any error.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { generateKeyPairSync, verify, constants } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateAuthTokenFromCredentialsProvider } from 'aws-msk-iam-sasl-signer-js';
import { ApiKey } from '../../src/generated/types.js';
import {
  connect, startServer, apiVersionsResponse, ConnectionError, SaslError, OAuthTokenError,
  oauthBearerInitialResponse, unsecuredJws, cachedTokenProvider, oidcTokenProvider, awsMskIamToken,
  awsCredentialsFromProfile, awsCredentialsFromEnvironment, refreshAt, signedClientAssertion, type SaslMechanism, type IncomingRequest,
} from '../../src/wire/index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const EMPTY = new Uint8Array(0);
const SECRETS = ['oidc-client-secret-7f3a', 'assertion-jwt-secret-91bc', 'aws-secret-key-0d0d', 'unsecured-never-leaks'];
/** Every error and message these tests saw, searched for the secrets at the end. */
const seen: string[] = [];
const record = (e: unknown) => {
  seen.push(String(e), JSON.stringify(e, Object.getOwnPropertyNames(e ?? {})), String((e as { cause?: unknown })?.cause ?? ''));
  return e;
};

/** A broker-like server: ApiVersions, SASL through `sasl`, Metadata once authenticated. */
async function saslServer(sasl: (req: IncomingRequest) => object) {
  return startServer({
    handler: (req) => {
      if (req.apiKey === ApiKey.ApiVersions) return apiVersionsResponse();
      if (req.apiKey === ApiKey.SaslHandshake || req.apiKey === ApiKey.SaslAuthenticate) return sasl(req);
      if (!req.client.state.authenticated) throw new Error('not authenticated');
      if (req.apiKey === ApiKey.Metadata) return { brokers: [], topics: [] };
      throw new Error(`unexpected ${req.apiKey}`);
    },
  });
}

describe('the mechanism interface', () => {
  it('runs a custom mechanism\'s conversation: its name in SaslHandshake, its bytes in SaslAuthenticate, the answers back', async () => {
    const got: string[] = [];
    const server = await saslServer((req) => {
      if (req.apiKey === ApiKey.SaslHandshake) { got.push(`handshake ${req.body.mechanism}`); return { errorCode: 0, mechanisms: ['X-ECHO'] }; }
      got.push(`auth ${dec(req.body.authBytes)}`);
      if (dec(req.body.authBytes) === 'second') req.client.state.authenticated = true;
      return { errorCode: 0, authBytes: enc(`echo ${dec(req.body.authBytes)}`) };
    });
    try {
      const answers: string[] = [];
      const echo: SaslMechanism = {
        name: 'X-ECHO',
        async authenticate(send, context) {
          expect(context).toMatchObject({ host: '127.0.0.1', port: server.port, reauthentication: false });
          answers.push(dec(await send(enc('first'))), dec(await send(enc('second'))));
        },
      };
      const conn = await connect({ host: '127.0.0.1', port: server.port, sasl: echo });
      await conn.request(ApiKey.Metadata, undefined, { topics: null });
      await conn.close();
      expect(got).toEqual(['handshake X-ECHO', 'auth first', 'auth second']);
      expect(answers).toEqual(['echo first', 'echo second']);
      // A mechanism that throws fails connect() with a SaslError naming it.
      const refusing: SaslMechanism = { name: 'X-ECHO', async authenticate() { throw new Error('no thanks'); } };
      const error = record(await connect({ host: '127.0.0.1', port: server.port, sasl: refusing }).catch((e) => e));
      expect(error).toBeInstanceOf(SaslError);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ code: 'SASL', mechanism: 'X-ECHO', message: 'SASL X-ECHO: no thanks' });
    } finally {
      await server.close();
    }
  });
});

describe('OAUTHBEARER', () => {
  it('frames the client\'s first message as Kafka does (RFC 7628 with KIP-342 extensions)', () => {
    expect(dec(oauthBearerInitialResponse('abc.def.ghi'))).toBe('n,,\u0001auth=Bearer abc.def.ghi\u0001\u0001');
    expect(dec(oauthBearerInitialResponse('t', { logicalCluster: 'lkc-1', identityPoolId: 'pool-2' }, 'me')))
      .toBe('n,a=me,\u0001auth=Bearer t\u0001logicalCluster=lkc-1\u0001identityPoolId=pool-2\u0001\u0001');
    expect(() => oauthBearerInitialResponse('t', { auth: 'x' })).toThrow(/"auth"/);
    expect(() => oauthBearerInitialResponse('t', { 'bad-name': 'x' })).toThrow(/extension name/);
    expect(() => oauthBearerInitialResponse('t', { ok: '\u0001' })).toThrow(/bad value/);
    expect(() => oauthBearerInitialResponse('has space')).toThrow(/bearer token/);
  });

  it('makes Kafka\'s unsecured JWS: alg none, sub/iat/exp, no signature', () => {
    const token = unsecuredJws({ principal: 'alice', lifetimeMs: 60_000, scope: ['a', 'b'] }, 1_700_000_000_500);
    const [header, payload, signature] = token.value.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'none' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({ iat: 1_700_000_000, exp: 1_700_000_060, sub: 'alice', scope: ['a', 'b'] });
    expect(signature).toBe('');
    expect(token.expiresAt).toBe(1_700_000_060_000);
  });

  it('authenticates with a provider\'s token, and reports a refusal (the %x01 error JSON, then SASL_AUTHENTICATION_FAILED) with the broker\'s status', async () => {
    const messages: string[] = [];
    const server = await saslServer((req) => {
      if (req.apiKey === ApiKey.SaslHandshake) return { errorCode: 0, mechanisms: ['OAUTHBEARER'] };
      const text = dec(req.body.authBytes);
      messages.push(text);
      if (text === '\u0001') return { errorCode: 58, errorMessage: '{"status":"invalid_token"}', authBytes: EMPTY };
      if (text.includes('auth=Bearer good')) { req.client.state.authenticated = true; return { errorCode: 0, authBytes: EMPTY }; }
      return { errorCode: 0, authBytes: enc('{"status":"invalid_token","scope":"kafka"}') };
    });
    try {
      const at = { host: '127.0.0.1', port: server.port };
      const conn = await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', token: () => ({ value: 'good', expiresAt: Date.now() + 60_000 }), extensions: { traceId: 'x1' } } });
      await conn.close();
      expect(messages).toEqual(['n,,\u0001auth=Bearer good\u0001traceId=x1\u0001\u0001']);
      const error = record(await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', token: () => ({ value: 'bad', expiresAt: Date.now() + 60_000 }) } }).catch((e) => e));
      expect(messages.slice(1)).toEqual(['n,,\u0001auth=Bearer bad\u0001\u0001', '\u0001']);
      expect(error).toBeInstanceOf(SaslError);
      expect(error).toMatchObject({ code: 'SASL', mechanism: 'OAUTHBEARER', reason: 'invalid_token', errorCode: 58, apiKey: ApiKey.SaslAuthenticate });
      expect(error.message).toMatch(/^SASL OAUTHBEARER: the broker refused the token: \{"status":"invalid_token","scope":"kafka"\}/);
      // A provider that fails, or gives an expired token, fails connect() before anything is sent.
      const expired = record(await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', token: () => ({ value: 'good', expiresAt: Date.now() - 1 }) } }).catch((e) => e));
      expect(expired).toMatchObject({ code: 'SASL', message: expect.stringMatching(/expired/) });
      const none = record(await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER' } }).catch((e) => e));
      expect(none.message).toMatch(/exactly one of token, oidc and unsecured/);
    } finally {
      await server.close();
    }
  });
});

describe('the token cache', () => {
  it('refreshes when Kafka\'s Java login would: 80% + up to 5% jitter, the 300 s buffer, the 60 s minimum period', () => {
    const min = 60_000;
    const hour = 60 * min;
    const t0 = 1_000_000_000;
    // A one-hour token: 48 to 51 minutes in.
    expect(refreshAt(t0, t0 + hour, t0, () => 0)).toBe(t0 + 48 * min);
    expect(refreshAt(t0, t0 + hour, t0, () => 1)).toBe(t0 + 51 * min);
    // Ten minutes: 80% (8 min) is inside the 5-minute buffer, so at 5 min.
    expect(refreshAt(t0, t0 + 10 * min, t0, () => 0.5)).toBe(t0 + 5 * min);
    // Less than min period + buffer (6 min) left: both ignored, the fraction of what remains.
    expect(refreshAt(t0, t0 + 5 * min, t0, () => 0)).toBe(t0 + 4 * min);
    expect(refreshAt(t0, t0 + 10_000, t0, () => 1)).toBe(t0 + 8_500);
    // Asked again late in a long token's life: never sooner than 60 s from now.
    expect(refreshAt(t0, t0 + 2 * hour, t0 + 95 * min, () => 0)).toBe(t0 + 96 * min);
  });

  it('fetches again at its refresh time, shares one fetch, keeps a still-valid token when a refresh fails', async () => {
    let now = 1_000_000;
    let fetches = 0;
    let fail = false;
    const provider = cachedTokenProvider(async () => {
      fetches++;
      if (fail) throw new Error('endpoint down');
      return { value: `t${fetches}`, expiresAt: now + 100_000 };
    }, { now: () => now, random: () => 1 });
    const [a, b] = await Promise.all([provider(), provider()]);
    expect([a.value, b.value, fetches]).toEqual(['t1', 't1', 1]);
    expect(provider.refreshAt).toBe(1_000_000 + 85_000); // 80% + 5% jitter (random() = 1)
    now += 84_999;
    expect((await provider()).value).toBe('t1');
    now += 1;
    expect((await provider()).value).toBe('t2');
    fail = true;
    now += 90_000; // past t2's refresh time, before its expiry
    expect((await provider()).value).toBe('t2');
    now += 20_000; // t2 expired
    await expect(provider()).rejects.toThrow(/endpoint down/);
    for (const r of [0, 0.5, 1]) {
      const p = cachedTokenProvider(() => ({ value: 'x', expiresAt: 1_100_000 }), { now: () => 1_000_000, random: () => r });
      await p();
      expect(p.refreshAt).toBe(1_000_000 + Math.floor(100_000 * (0.8 + 0.05 * r)));
    }
  });
});

describe('OIDC client credentials', () => {
  let server: Server;
  let url: string;
  const requests: { auth: string | undefined; form: URLSearchParams }[] = [];
  const jwt = (exp: number) => `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ exp, sub: 'svc' })).toString('base64url')}.sig`;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        requests.push({ auth: req.headers.authorization, form });
        const basic = req.headers.authorization?.startsWith('Basic ') ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString() : '';
        const ok = req.headers['content-type'] === 'application/x-www-form-urlencoded' && form.get('grant_type') === 'client_credentials'
          && (basic === `svc%3Aone:${SECRETS[0]}` || (form.get('client_assertion') === SECRETS[1] && form.get('client_id') === 'svc:one'
            && form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'));
        res.setHeader('content-type', 'application/json');
        if (!ok) {
          res.statusCode = 401;
          // A careless provider that echoes what it was sent: the client must not repeat it.
          res.end(JSON.stringify({ error: 'invalid_client', error_description: `bad credentials ${basic} ${form.get('client_assertion') ?? ''}` }));
          return;
        }
        res.end(JSON.stringify(form.get('scope') === 'jwt-only'
          ? { access_token: jwt(2_000_000_000), token_type: 'Bearer' }
          : { access_token: jwt(2_000_000_000), token_type: 'Bearer', expires_in: 300 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/oauth2/token?tenant=t1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts grant_type=client_credentials with Basic credentials, scope and audience; takes expires_in or the JWT\'s exp', async () => {
    const before = Date.now();
    const token = await oidcTokenProvider({ tokenEndpointUrl: url, clientId: 'svc:one', clientSecret: SECRETS[0]!, scope: 'kafka read', audience: 'kafka-aud' })();
    expect(token.value).toBe(jwt(2_000_000_000));
    expect(token.expiresAt).toBeGreaterThanOrEqual(before + 300_000);
    expect(token.expiresAt).toBeLessThan(Date.now() + 300_001);
    const sent = requests.at(-1)!;
    expect(Object.fromEntries(sent.form)).toEqual({ grant_type: 'client_credentials', scope: 'kafka read', audience: 'kafka-aud' });
    const jwtOnly = await oidcTokenProvider({ tokenEndpointUrl: url, clientId: 'svc:one', clientSecret: SECRETS[0]!, scope: 'jwt-only' })();
    expect(jwtOnly.expiresAt).toBe(2_000_000_000_000);
    // RFC 7523: the assertion in the form, no Basic header.
    await oidcTokenProvider({ tokenEndpointUrl: url, clientId: 'svc:one', clientAssertion: async () => SECRETS[1]! })();
    expect(requests.at(-1)!.auth).toBeUndefined();
  });

  it('signs RFC 7523 client assertions with Web Crypto that node:crypto verifies (RS256, PS256, ES256)', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cases = [
      ['RS256', rsa, {}], ['PS256', rsa, { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }], ['ES256', ec, { dsaEncoding: 'ieee-p1363' }],
    ] as const;
    for (const [algorithm, pair, verifyOptions] of cases) {
      const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const make = signedClientAssertion({ clientId: 'svc:one', audience: url, privateKey: pem, algorithm, keyId: 'k7' });
      const [a, b] = [await make(), await make()];
      const [header, payload, signature] = a.split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: algorithm, typ: 'JWT', kid: 'k7' });
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      expect(claims).toMatchObject({ iss: 'svc:one', sub: 'svc:one', aud: url });
      expect(claims.exp - claims.iat).toBe(300);
      expect(JSON.parse(Buffer.from(b.split('.')[1]!, 'base64url').toString()).jti).not.toBe(claims.jti);
      const ok = verify('sha256', Buffer.from(`${header}.${payload}`), { key: pair.publicKey, ...verifyOptions }, Buffer.from(signature!, 'base64url'));
      expect(ok, algorithm).toBe(true);
    }
    await expect(signedClientAssertion({ clientId: 'a', audience: url, privateKey: 'not a key' })()).rejects.toThrow(/not PKCS#8 PEM/);
  });

  it('names the endpoint (no query) and its HTTP status when it refuses, without the secret it echoed', async () => {
    const error = record(await oidcTokenProvider({ tokenEndpointUrl: url, clientId: 'svc:one', clientSecret: `${SECRETS[0]}-wrong` })().catch((e) => e));
    expect(error).toBeInstanceOf(OAuthTokenError);
    const endpoint = url.replace(/\?.*/, '');
    expect(error).toMatchObject({ endpoint, status: 401, error: 'invalid_client' });
    expect(error.message).toBe(`OIDC token endpoint ${endpoint} refused the client credentials grant: HTTP 401: invalid_client (bad credentials svc%3Aone:*** )`);
    const assertion = record(await oidcTokenProvider({ tokenEndpointUrl: url, clientId: 'other', clientAssertion: SECRETS[1]! })().catch((e) => e));
    expect(assertion.message).not.toContain(SECRETS[1]);
    const unreachable = record(await oidcTokenProvider({ tokenEndpointUrl: 'http://127.0.0.1:1/token', clientId: 'a', clientSecret: SECRETS[0]! })().catch((e) => e));
    expect(unreachable).toMatchObject({ name: 'OAuthTokenError', status: undefined, message: expect.stringMatching(/^OIDC token endpoint http:\/\/127\.0\.0\.1:1\/token could not be reached/) });
  });

  it('through connect(): the OIDC token reaches the broker, and a refusal fails connect() with the OAuthTokenError as cause', async () => {
    const bearer: string[] = [];
    const broker = await saslServer((req) => {
      if (req.apiKey === ApiKey.SaslHandshake) return { errorCode: 0, mechanisms: ['OAUTHBEARER'] };
      bearer.push(dec(req.body.authBytes));
      req.client.state.authenticated = true;
      return { errorCode: 0, authBytes: EMPTY };
    });
    try {
      const sasl = { mechanism: 'OAUTHBEARER' as const, oidc: { tokenEndpointUrl: url, clientId: 'svc:one', clientSecret: SECRETS[0]! } };
      const fetchesBefore = requests.length;
      for (let i = 0; i < 3; i++) await (await connect({ host: '127.0.0.1', port: broker.port, sasl })).close();
      expect(requests.length - fetchesBefore).toBe(1); // one token for every connection with these options
      expect(bearer.at(-1)).toBe(`n,,\u0001auth=Bearer ${jwt(2_000_000_000)}\u0001\u0001`);
      const error = record(await connect({ host: '127.0.0.1', port: broker.port, sasl: { ...sasl, oidc: { ...sasl.oidc, clientSecret: 'nope-nope' } } }).catch((e) => e));
      expect(error).toMatchObject({ code: 'SASL', mechanism: 'OAUTHBEARER' });
      expect(error.cause).toBeInstanceOf(OAuthTokenError);
      expect(error.message).toMatch(/^SASL OAUTHBEARER: OIDC token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth2\/token refused the client credentials grant: HTTP 401/);
    } finally {
      await broker.close();
    }
  });
});

describe('KIP-368 re-authentication', () => {
  it('re-authenticates before the session ends, holding new requests (none fails) while it runs', async () => {
    const LIFETIME_MS = 1500;
    const violations: string[] = [];
    let reauths = 0;
    const server = await startServer({
      handler: (req) => {
        const s = req.client.state as { expires?: number; inSasl?: boolean; authenticated?: boolean };
        if (req.apiKey === ApiKey.ApiVersions) return apiVersionsResponse();
        if (req.apiKey === ApiKey.SaslHandshake) {
          if (s.authenticated) reauths++;
          s.inSasl = true;
          return { errorCode: 0, mechanisms: ['PLAIN'] };
        }
        if (req.apiKey === ApiKey.SaslAuthenticate) {
          s.inSasl = false;
          s.authenticated = true;
          s.expires = Date.now() + LIFETIME_MS;
          return { errorCode: 0, authBytes: EMPTY, sessionLifetimeMs: BigInt(LIFETIME_MS) };
        }
        // As Kafka: another request in the middle of the exchange, or after expiry, closes the connection.
        if (s.inSasl || !s.authenticated || Date.now() > s.expires!) {
          violations.push(s.inSasl ? 'a request inside the SASL exchange' : `a request ${Date.now() - s.expires!} ms after the session ended`);
          throw new Error('session violation');
        }
        return { brokers: [], topics: [] };
      },
    });
    try {
      const conn = await connect({ host: '127.0.0.1', port: server.port, sasl: { mechanism: 'PLAIN', username: 'u', password: SECRETS[3]! } });
      let answered = 0;
      const until = Date.now() + 5000;
      const workers = Array.from({ length: 4 }, async () => {
        while (Date.now() < until) { await conn.request(ApiKey.Metadata, undefined, { topics: null }); answered++; }
      });
      await Promise.all(workers).catch((e) => { throw new Error(`${e}; server saw ${violations.join(', ')}`); });
      expect(violations).toEqual([]);
      expect(conn.closed).toBe(false);
      expect(reauths).toBeGreaterThanOrEqual(3);
      expect(conn.reauthentications).toBe(reauths);
      expect(answered).toBeGreaterThan(100);
      await conn.close();
    } finally {
      await server.close();
    }
  });
});

describe('KIP-368 when re-authentication fails', () => {
  it('closes the connection with the SaslError, and uses the mechanism\'s own schedule', async () => {
    let authentications = 0;
    const server = await startServer({
      handler: (req) => {
        if (req.apiKey === ApiKey.ApiVersions) return apiVersionsResponse();
        if (req.apiKey === ApiKey.SaslHandshake) return { errorCode: 0, mechanisms: ['PLAIN'] };
        if (req.apiKey === ApiKey.SaslAuthenticate) {
          authentications++;
          return authentications === 1
            ? { errorCode: 0, authBytes: EMPTY, sessionLifetimeMs: 60_000n }
            : { errorCode: 58, errorMessage: 'Authentication failed: credentials revoked', authBytes: EMPTY };
        }
        return { brokers: [], topics: [] };
      },
    });
    try {
      const asked: number[] = [];
      const plain = { mechanism: 'PLAIN' as const, username: 'u', password: SECRETS[3]! };
      const { saslMechanism } = await import('../../src/wire/index.js');
      const inner = saslMechanism(plain);
      const soon: SaslMechanism = { name: 'PLAIN', authenticate: inner.authenticate, reauthenticateAfterMs: (ms) => { asked.push(ms); return 100; } };
      const conn = await connect({ host: '127.0.0.1', port: server.port, sasl: soon });
      const closed = new Promise<unknown>((resolve) => conn.once('close', resolve));
      const error = record(await closed);
      expect(asked).toEqual([60_000]); // the broker's lifetime, not the default 85-95% of it
      expect(error).toBeInstanceOf(SaslError);
      expect(error).toMatchObject({ code: 'SASL', errorCode: 58, reason: 'Authentication failed: credentials revoked' });
      await expect(conn.request(ApiKey.Metadata, undefined, { topics: null })).rejects.toMatchObject({ code: 'SASL' });
    } finally {
      await server.close();
    }
  });
});

describe('AWS MSK IAM', () => {
  const cases = [
    { region: 'us-east-1', at: '2024-03-01T12:34:56.789Z', creds: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: SECRETS[2]! } },
    { region: 'eu-west-1', at: '2026-12-02T00:00:00.000Z', creds: { accessKeyId: 'ASIAXXXX', secretAccessKey: SECRETS[2]!, sessionToken: 'FwoGZXIvYXdzE/+a=b&c%d' } },
    { region: 'ap-southeast-2', at: '2030-01-31T23:59:59.999Z', creds: { accessKeyId: 'AKID2', secretAccessKey: 'wJalr/K7MDENG+bPxRfiCY=', sessionToken: 'x'.repeat(700) } },
    { region: 'us-gov-west-1', at: '2025-06-15T08:00:00.000Z', creds: { accessKeyId: 'AKID3', secretAccessKey: 's3', expiration: new Date('2025-06-15T08:05:00.000Z') } },
  ];
  for (const c of cases) {
    it(`equals aws-msk-iam-sasl-signer-js's token byte for byte: ${c.region} at ${c.at}${'sessionToken' in c.creds ? ' with a session token' : ''}${'expiration' in c.creds ? ' with expiring credentials' : ''}`, async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(new Date(c.at));
        const theirs = await generateAuthTokenFromCredentialsProvider({ region: c.region, awsCredentialsProvider: async () => c.creds });
        const ours = await awsMskIamToken(c.region, c.creds, { now: Date.parse(c.at), userAgent: 'aws-msk-iam-sasl-signer-js/1.0.3' });
        expect(ours.value).toBe(theirs.token);
        expect(ours.expiresAt).toBe(theirs.expiryTime);
      } finally {
        vi.useRealTimers();
      }
    });
  }

  it('reads credentials from the environment and from a profile\'s static keys', () => {
    expect(awsCredentialsFromEnvironment({ AWS_ACCESS_KEY_ID: 'A', AWS_SECRET_ACCESS_KEY: 'S', AWS_SESSION_TOKEN: 'T' })).toEqual({ accessKeyId: 'A', secretAccessKey: 'S', sessionToken: 'T' });
    expect(() => awsCredentialsFromEnvironment({})).toThrow(/AWS_ACCESS_KEY_ID/);
    const file = '[default]\naws_access_key_id = D1\naws_secret_access_key=D2\n\n[profile dev] # config-file form\n[dev]\naws_access_key_id=V1\naws_secret_access_key = V2\naws_session_token = V3\n';
    expect(awsCredentialsFromProfile(file)).toEqual({ accessKeyId: 'D1', secretAccessKey: 'D2', sessionToken: undefined });
    expect(awsCredentialsFromProfile(file, 'dev')).toEqual({ accessKeyId: 'V1', secretAccessKey: 'V2', sessionToken: 'V3' });
    expect(() => awsCredentialsFromProfile(file, 'prod')).toThrow(/profile "prod" has no static keys/);
  });

  it('sends the token over OAUTHBEARER', async () => {
    const seenTokens: string[] = [];
    const server = await saslServer((req) => {
      if (req.apiKey === ApiKey.SaslHandshake) return { errorCode: req.body.mechanism === 'OAUTHBEARER' ? 0 : 33, mechanisms: ['OAUTHBEARER'] };
      seenTokens.push(/auth=Bearer ([^\u0001]+)/.exec(dec(req.body.authBytes))![1]!);
      req.client.state.authenticated = true;
      return { errorCode: 0, authBytes: EMPTY };
    });
    try {
      const creds = { accessKeyId: 'AKIDX', secretAccessKey: SECRETS[2]! };
      await (await connect({ host: '127.0.0.1', port: server.port, sasl: { mechanism: 'AWS_MSK_IAM', region: 'eu-central-1', credentials: async () => creds } })).close();
      const url = new URL(Buffer.from(seenTokens[0]!, 'base64url').toString());
      expect(url.host).toBe('kafka.eu-central-1.amazonaws.com');
      expect(url.searchParams.get('Action')).toBe('kafka-cluster:Connect');
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDX\/\d{8}\/eu-central-1\/kafka-cluster\/aws4_request$/);
      expect(url.searchParams.get('User-Agent')).toBe('kafka-wire');
      const error = record(await connect({ host: '127.0.0.1', port: server.port, sasl: { mechanism: 'AWS_MSK_IAM', region: 'eu-central-1', credentials: { accessKeyId: '', secretAccessKey: SECRETS[2]! } } }).catch((e) => e));
      expect(error.message).toMatch(/SASL OAUTHBEARER: AWS MSK IAM: no AWS credentials/);
    } finally {
      await server.close();
    }
  });
});

describe('secrets', () => {
  it('appear in none of the errors these tests saw', () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const secret of SECRETS) expect(seen.filter((s) => s.includes(secret))).toEqual([]);
  });
});

describe('every runtime', () => {
  it('the SASL code imports no Node module and touches no Node global but a guarded process.env', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src/wire/sasl/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      expect(text, f).not.toMatch(/from ['"]node:|require\(|\bBuffer\b/);
      expect(text.replace(/\(globalThis as \{ process\?[^)]*\)\.process\?\.env/g, ''), f).not.toMatch(/\bprocess\./);
    }
  });
});
