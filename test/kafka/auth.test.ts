// Authentication against a real broker: SASL/PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 (users made
// by Kafka's storage tool) through connect() and the CLI, with the right password, a wrong one and
// an unknown user (a typed error naming the mechanism, quickly, never a hang); kcat with the same
// -X arguments as a cross-check; TLS with the broker's keytool-made certificate checked, and
// refused without it or against an unrelated CA made here with openssl.
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connect, ConnectionError, type SaslOptions } from '../../src/wire/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { jsonLines, runCli } from '../wire/cli-io.js';
import { kcat } from '../wire/kcat.js';
import { makeCert } from '../wire/tls-cert.js';

const ok = await kafkaPeer() && peer('kcat and openssl', hasCommand('kcat') && hasCommand('openssl'), 'apt-get install kcat openssl');

const MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
const USER = 'alice';
/** Not ASCII: Kafka takes passwords as UTF-8 bytes (no SASLprep), as kafka-wire sends them. */
const PASSWORD = 'alice-secret-ü';
/**
 * For the tests shared with kcat. kcat cross-checks PLAIN only: Debian's librdkafka (2.0) sends a
 * SCRAM client-final nonce that Kafka 4 refuses (librdkafka before 2.6.1 appends the client nonce
 * twice; confluentinc/librdkafka#4895), so its SCRAM fails against this broker where kafka-wire's works.
 */
const KCAT_USER = 'carol';
const KCAT_PASSWORD = 'carol-secret';
/** A wrong password is answered at once; this bounds "never a hang" (the machine may be loaded). */
const ANSWER_WITHIN_MS = 15_000;

function address(listener: string): { host: string; port: number } {
  const [host, port] = listener.split(',')[0]!.split(':');
  return { host: host!, port: Number(port) };
}

describe.skipIf(!ok)('authentication against a real broker', () => {
  const kafka = useKafka({ sasl: { users: { [USER]: PASSWORD, [KCAT_USER]: KCAT_PASSWORD, bob: 'bob-pw' } }, ssl: true });

  for (const mechanism of MECHANISMS) {
    it(`SASL ${mechanism}: the right password works, a wrong one and an unknown user are typed errors naming ${mechanism}`, async () => {
      const k = kafka();
      const at = address(k.listeners.SASL_PLAINTEXT!);
      const good = await connect({ ...at, sasl: { mechanism, username: USER, password: PASSWORD } as SaslOptions });
      const md = await good.request(3, undefined, { topics: null });
      expect(md.brokers.map((b) => b.nodeId)).toEqual([1]);
      await good.close();
      for (const [username, password] of [[USER, 'wrong'], ['mallory', PASSWORD], ['bob', PASSWORD]]) {
        const started = Date.now();
        const error = await connect({ ...at, requestTimeoutMs: ANSWER_WITHIN_MS, sasl: { mechanism, username, password } as SaslOptions }).catch((e) => e);
        expect(error).toBeInstanceOf(ConnectionError);
        expect(error).toMatchObject({ code: 'SASL', errorCode: 58 });
        expect(error.message).toContain(`SASL ${mechanism}:`);
        expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
      }
    }, 120_000);
  }

  it('the CLI authenticates with --sasl-* and with kcat\'s -X properties; kcat with the same -X arguments (PLAIN) reads and writes the same topic', async () => {
    const k = kafka();
    const b = k.listeners.SASL_PLAINTEXT!;
    const x = (mechanism: string, password: string) => ['-X', 'security.protocol=SASL_PLAINTEXT', '-X', `sasl.mechanisms=${mechanism}`,
      '-X', `sasl.username=${KCAT_USER}`, '-X', `sasl.password=${password}`];
    const produce = await runCli('produce', ['-b', b, '-t', 'auth-t', '--sasl-mechanism', 'SCRAM-SHA-512', '--sasl-username', USER, '--sasl-password', PASSWORD],
      'k1\tfrom kafka-wire over SCRAM-SHA-512\n');
    expect(produce.code, produce.stderr).toBe(0);
    const viaKcat = await kcat(['-b', b, ...x('PLAIN', KCAT_PASSWORD), '-P', '-t', 'auth-t', '-K', '\t'], 'k2\tfrom kcat over PLAIN\n', 60_000);
    expect(viaKcat.code, viaKcat.stderr).toBe(0);
    // kafka-wire takes kcat's -X properties, SCRAM included.
    const consumed = await runCli('consume', ['-b', b, '-t', 'auth-t', '-e', ...x('SCRAM-SHA-256', KCAT_PASSWORD)]);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(jsonLines(consumed.stdout).map((l) => l.value).sort()).toEqual(['from kafka-wire over SCRAM-SHA-512', 'from kcat over PLAIN']);
    const kcatRead = await kcat(['-b', b, ...x('PLAIN', KCAT_PASSWORD), '-C', '-t', 'auth-t', '-o', 'beginning', '-e', '-q', '-f', '%s\n'], undefined, 60_000);
    expect(kcatRead.stdout.trim().split('\n').sort()).toEqual(['from kafka-wire over SCRAM-SHA-512', 'from kcat over PLAIN']);
    for (const mechanism of MECHANISMS) {
      const bad = await runCli('metadata', ['-b', b, ...x(mechanism, 'wrong')]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`SASL ${mechanism}: SaslAuthenticate: SASL_AUTHENTICATION_FAILED`);
    }
  }, 180_000);

  it('TLS: the broker\'s certificate is checked against its CA, and refused without it or with another CA', async () => {
    const k = kafka();
    const at = address(k.listeners.SSL!);
    const conn = await connect({ ...at, tls: { ca: k.ssl!.caPem } });
    expect((await conn.request(3, undefined, { topics: null })).brokers).toHaveLength(1);
    await conn.close();
    // By name too: the certificate's subject alternative names hold localhost and 127.0.0.1.
    const byName = await connect({ host: 'localhost', port: at.port, tls: { ca: k.ssl!.caPem } });
    await byName.close();
    await expect(connect({ ...at, tls: true })).rejects.toMatchObject({ code: 'CONNECT', message: expect.stringMatching(/self-signed certificate/) });
    const other = makeCert();
    expect(other).not.toBeNull();
    try {
      await expect(connect({ ...at, tls: { ca: readFileSync(other!.cert) } })).rejects.toMatchObject({ code: 'CONNECT' });
      // The CLI: --tls-ca, and kcat's -X security.protocol=SSL -X ssl.ca.location.
      const viaCa = await runCli('metadata', ['-b', k.listeners.SSL!, '--tls-ca', k.ssl!.caPemFile, '--json']);
      expect(viaCa.code, viaCa.stderr).toBe(0);
      expect(JSON.parse(viaCa.stdout).clusterId).toBe(k.clusterId);
      const viaX = await runCli('metadata', ['-b', k.listeners.SSL!, '-X', 'security.protocol=SSL', '-X', `ssl.ca.location=${k.ssl!.caPemFile}`]);
      expect(viaX.code, viaX.stderr).toBe(0);
      const wrongCa = await runCli('metadata', ['-b', k.listeners.SSL!, '--tls-ca', other!.cert]);
      expect(wrongCa.code).toBe(1);
      const kc = await kcat(['-b', k.listeners.SSL!, '-X', 'security.protocol=SSL', '-X', `ssl.ca.location=${k.ssl!.caPemFile}`, '-L', '-J'], undefined, 60_000);
      expect(JSON.parse(kc.stdout).brokers).toHaveLength(1);
    } finally {
      rmSync(other!.dir, { recursive: true, force: true });
    }
  }, 120_000);
});
