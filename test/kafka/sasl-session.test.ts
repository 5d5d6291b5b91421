// Token mechanisms and sessions against a real Kafka 4.4 broker whose SASL listener takes SCRAM
// and OAUTHBEARER (Kafka's unsecured validator) and sets connections.max.reauth.ms=10000:
// OAUTHBEARER with an unsecured JWS connects (library and CLI), an expired token is refused
// with the broker's status; the MSK IAM token goes over OAUTHBEARER and is refused by this
// validator (no MSK here: the exchange is what is checked); a delegation token from a raw
// CreateDelegationToken authenticates (SCRAM tokenauth=true), is renewed, expired, and refused
// after; through the proxy (startProxy, what `kafka-wire proxy` runs) the clients' own SASL
// passes through to the SASL listener: kafka-wire's CLI and Kafka's Java client produce and
// consume over SCRAM-SHA-512, kcat produces over PLAIN, and a wrong SCRAM-SHA-256 password is
// refused with the broker's error. No secret appears in any output.
// Producers and consumers running across many session lifetimes are in sasl-long-run.test.ts.
import { describe, expect, it } from 'vitest';
import { ApiKey } from '../../src/generated/types.js';
import { connect, SaslError, unsecuredJws } from '../../src/wire/index.js';
import { startProxy } from '../../src/capture/proxy.js';
import { CaptureFileWriter } from '../../src/capture/writer.js';
import { CaptureReader, type CaptureEvent } from '../../src/capture/reader.js';
import { kafkaJava, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { kcat } from '../wire/kcat.js';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { perf } from '../perf/run-perf.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ok = await kafkaPeer();
const kcatOk = ok && peer('kcat (SASL through the proxy)', hasCommand('kcat'), 'apt-get install kcat');
const USER = 'alice';
const PASSWORD = 'alice-scram-secret-5e1f';
const REAUTH_MS = 10_000;
const seen: string[] = [];

function address(listener: string): { host: string; port: number } {
  const [host, port] = listener.split(',')[0]!.split(':');
  return { host: host!, port: Number(port) };
}

describe.skipIf(!ok)('SASL tokens and sessions against a real broker', () => {
  const kafka = useKafka({
    sasl: { users: { [USER]: PASSWORD }, oauthbearer: true },
    config: { 'connections.max.reauth.ms': String(REAUTH_MS), 'delegation.token.secret.key': 'delegation-master-key-for-tests' },
  });

  it('OAUTHBEARER: an unsecured JWS connects; an expired one is refused with the broker\'s status; the MSK IAM token goes over OAUTHBEARER', async () => {
    const at = address(kafka().listeners.SASL_PLAINTEXT!);
    const conn = await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', unsecured: { principal: 'bob' } } });
    expect((await conn.request(ApiKey.Metadata, undefined, { topics: null })).brokers).toHaveLength(1);
    await conn.close();
    const expired = unsecuredJws({ principal: 'bob', lifetimeMs: -120_000 });
    const error = await connect({ ...at, sasl: { mechanism: 'OAUTHBEARER', token: () => ({ value: expired.value, expiresAt: Date.now() + 60_000 }) } }).catch((e) => e);
    seen.push(String(error));
    expect(error).toBeInstanceOf(SaslError);
    expect(error).toMatchObject({ code: 'SASL', mechanism: 'OAUTHBEARER', errorCode: 58, reason: 'invalid_token' });
    expect(error.message).toMatch(/^SASL OAUTHBEARER: the broker refused the token: \{"status":"invalid_token"/);
    // No MSK is reachable: this broker's unsecured validator parses the token and refuses it as not a JWS.
    const msk = await connect({ ...at, sasl: { mechanism: 'AWS_MSK_IAM', region: 'us-east-1', credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: PASSWORD } } }).catch((e) => e);
    seen.push(String(msk), JSON.stringify(msk));
    expect(msk).toMatchObject({ code: 'SASL', mechanism: 'OAUTHBEARER', reason: 'invalid_token', errorCode: 58 });
  }, 60_000);

  it('the CLI: -X sasl.mechanism=OAUTHBEARER with sasl.oauthbearer.config=principal=NAME produces and consumes', async () => {
    const b = kafka().listeners.SASL_PLAINTEXT!;
    const x = ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanism=OAUTHBEARER', '-X', 'sasl.oauthbearer.config=principal=carol'];
    const produced = await runCli('produce', ['-b', b, '-t', 'oauth-cli', ...x], 'k\tover OAUTHBEARER\n');
    expect(produced.code, produced.stderr).toBe(0);
    const consumed = await runCli('consume', ['-b', b, '-t', 'oauth-cli', '-e', ...x]);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(jsonLines(consumed.stdout).map((l) => l.value)).toEqual(['over OAUTHBEARER']);
    const missing = await runCli('metadata', ['-b', b, '-X', 'sasl.mechanism=OAUTHBEARER']);
    expect(missing.code).toBe(2); // a usage error
    expect(missing.stderr).toMatch(/sasl\.oauthbearer\.method=oidc .* or -X sasl\.oauthbearer\.config=principal=NAME/);
    seen.push(produced.stdout, produced.stderr, consumed.stderr, missing.stderr);
  }, 120_000);

  it('perf over SCRAM with -X sasl.password: the report and the output hold no password; the CLI\'s AWS_MSK_IAM reaches the broker over OAUTHBEARER', async () => {
    const b = kafka().listeners.SASL_PLAINTEXT!;
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-perf-'));
    try {
      const report = join(dir, 'report.html');
      const run = await perf(['produce', '-b', b, '-t', 'perf-sasl', '--records', '200', '--record-size', '20', '--report', report,
        '-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanism=SCRAM-SHA-256', '-X', `sasl.username=${USER}`, '-X', `sasl.password=${PASSWORD}`]);
      expect(run.code, run.stderr).toBe(0);
      const html = readFileSync(report, 'utf8');
      expect(html).toContain('sasl.password=***');
      seen.push(run.stdout, run.stderr, html);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // AWS credentials from the environment (the CLI's process is this one): refused by this broker's
    // unsecured validator, since no MSK is reachable; the exchange and its error are what is checked.
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDCLI', AWS_SECRET_ACCESS_KEY: PASSWORD });
    try {
      const msk = await runCli('metadata', ['-b', b, '-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanism=AWS_MSK_IAM', '-X', 'aws.region=eu-west-1']);
      expect(msk.code).toBe(1);
      expect(msk.stderr).toMatch(/SASL OAUTHBEARER: the broker refused the token: \{"status":"invalid_token"/);
      const noRegion = await runCli('metadata', ['-b', b, '-X', 'sasl.mechanism=AWS_MSK_IAM']);
      expect(noRegion.stderr).toMatch(/needs -X aws\.region=REGION/);
      seen.push(msk.stdout, msk.stderr, noRegion.stderr);
    } finally {
      for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
    }
  }, 60_000);

  it('a delegation token (raw CreateDelegationToken) authenticates with SCRAM tokenauth=true; renewed, expired, then refused', async () => {
    const at = address(kafka().listeners.SASL_PLAINTEXT!);
    const owner = await connect({ ...at, sasl: { mechanism: 'SCRAM-SHA-256', username: USER, password: PASSWORD } });
    try {
      const created = await owner.request(ApiKey.CreateDelegationToken, undefined, { renewers: [], maxLifetimeMs: -1n });
      expect(created.errorCode).toBe(0);
      expect(created.principalName).toBe(USER);
      const hmacBase64 = Buffer.from(created.hmac).toString('base64');
      const sasl = { mechanism: 'SCRAM-SHA-256' as const, username: created.tokenId, password: hmacBase64, tokenAuth: true };
      // The token reaches the broker's SCRAM cache through the metadata log: allow it a moment.
      let conn;
      for (let i = 0; i < 50 && !conn; i++) {
        conn = await connect({ ...at, sasl }).catch(async (e) => { seen.push(String(e)); await new Promise((r) => setTimeout(r, 200)); return undefined; });
      }
      expect(conn).toBeDefined();
      expect((await conn!.request(ApiKey.Metadata, undefined, { topics: null })).brokers).toHaveLength(1);
      await conn!.close();
      // Without tokenauth=true the same id and HMAC are an unknown user.
      await expect(connect({ ...at, sasl: { ...sasl, tokenAuth: false } })).rejects.toMatchObject({ code: 'SASL', errorCode: 58 });
      const renewed = await owner.request(ApiKey.RenewDelegationToken, undefined, { hmac: created.hmac, renewPeriodMs: 3_600_000n });
      expect(renewed.errorCode).toBe(0);
      expect(renewed.expiryTimestampMs).toBeGreaterThan(created.issueTimestampMs);
      const expired = await owner.request(ApiKey.ExpireDelegationToken, undefined, { hmac: created.hmac, expiryTimePeriodMs: -1n });
      expect(expired.errorCode).toBe(0);
      let refused: unknown;
      for (let i = 0; i < 50 && !refused; i++) {
        refused = await connect({ ...at, sasl }).then(async (c) => { await c.close(); await new Promise((r) => setTimeout(r, 200)); return undefined; }, (e) => e);
      }
      seen.push(String(refused), JSON.stringify(refused));
      expect(refused).toMatchObject({ code: 'SASL', mechanism: 'SCRAM-SHA-256', errorCode: 58 });
      expect(seen.filter((s) => s.includes(hmacBase64))).toEqual([]);
    } finally {
      await owner.close();
    }
  }, 60_000);

  it('through the proxy: the clients\' own SASL passes through (kafka-wire\'s CLI and Kafka\'s Java client over SCRAM, kcat over PLAIN); a wrong password is refused with the broker\'s error', async () => {
    const k = kafka();
    const upstream = address(k.listeners.SASL_PLAINTEXT!);
    // What the proxy forwarded, read back as a capture: the API keys of the requests.
    const writer = new CaptureFileWriter({ nanoseconds: true });
    const reader = new CaptureReader();
    const frames: number[] = [];
    const take = (events: CaptureEvent[]) => { for (const e of events) if (e.type === 'frame' && e.direction === 'request' && e.apiKey !== null) frames.push(e.apiKey); };
    take(reader.push(writer.header()));
    const proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0 }, upstream, record: (packet) => take(reader.push(writer.record(packet))) });
    const via = `${proxy.address.host}:${proxy.address.port}`;
    const topic = 'proxied-sasl';
    try {
      await k.createTopic(topic, { partitions: 1 });
      const x = ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanism=SCRAM-SHA-512', '-X', `sasl.username=${USER}`, '-X', `sasl.password=${PASSWORD}`];
      const produced = await runCli('produce', ['-b', via, '-t', topic, ...x], 'a\tkafka-wire via the proxy\n');
      expect(produced.code, produced.stderr).toBe(0);
      const javaSasl = ['security.protocol=SASL_PLAINTEXT', 'sasl.mechanism=SCRAM-SHA-512',
        `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${USER}" password="${PASSWORD}";`];
      const jp = await kafkaJava('dev.kafkawire.JavaClient', ['produce', via, topic, ...javaSasl],
        { input: JSON.stringify({ partition: 0, key: Buffer.from('j').toString('hex'), value: Buffer.from('java via the proxy').toString('hex'), headers: [] }), timeoutMs: 180_000 });
      expect(jp.code, jp.stderr.slice(-2000)).toBe(0);
      const expected = ['kafka-wire via the proxy', 'java via the proxy'];
      if (kcatOk) {
        // PLAIN for kcat: Debian's librdkafka (2.0) sends a SCRAM client-final message Kafka 4 refuses (see test/kafka/auth.test.ts).
        const kc = await kcat(['-b', via, '-X', 'security.protocol=SASL_PLAINTEXT', '-X', 'sasl.mechanisms=PLAIN', '-X', `sasl.username=${USER}`, '-X', `sasl.password=${PASSWORD}`,
          '-P', '-t', topic], 'kcat via the proxy\n', 60_000);
        expect(kc.code, kc.stderr).toBe(0);
        expected.push('kcat via the proxy');
        seen.push(kc.stdout, kc.stderr);
      }
      const jc = await kafkaJava('dev.kafkawire.JavaClient', ['consume', via, topic, ...javaSasl], { timeoutMs: 180_000 });
      expect(jc.code, jc.stderr.slice(-2000)).toBe(0);
      expect(jsonLines(jc.stdout).map((l) => Buffer.from(l.value, 'hex').toString())).toEqual(expected);
      const consumed = await runCli('consume', ['-b', via, '-t', topic, '-e', ...x]);
      expect(consumed.code, consumed.stderr).toBe(0);
      expect(jsonLines(consumed.stdout).map((l) => l.value)).toEqual(expected);
      const wrong = await connect({ host: proxy.address.host, port: proxy.address.port, sasl: { mechanism: 'SCRAM-SHA-256', username: USER, password: 'not-the-password' } }).catch((e) => e);
      expect(wrong).toBeInstanceOf(SaslError);
      expect(wrong).toMatchObject({ code: 'SASL', errorCode: 58, mechanism: 'SCRAM-SHA-256' });
      expect(wrong.message).toMatch(/Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256/);
      // The proxy authenticates nothing itself: the SaslHandshake and SaslAuthenticate it forwarded are the clients'.
      expect(frames).toContain(ApiKey.SaslHandshake);
      expect(frames).toContain(ApiKey.SaslAuthenticate);
      seen.push(produced.stdout, produced.stderr, jp.stdout, jp.stderr, jc.stderr, consumed.stderr, String(wrong), JSON.stringify(wrong));
    } finally {
      await proxy.close();
    }
  }, 240_000);

  it('no secret in any output', () => {
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.filter((s) => s.includes(PASSWORD))).toEqual([]);
  });
});
