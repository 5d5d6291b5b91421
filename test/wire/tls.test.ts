// TLS (and SASL over TLS): our Connection and kcat against the memory broker serving TLS with a
// throwaway self-signed certificate made by openssl for 127.0.0.1.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { makeCert } from './tls-cert.js';
import { connect } from '../../src/wire/connection.js';
import { startMemoryBroker, type MemoryBroker } from '../../src/wire/memory-broker.js';
import { kcatAvailable, kcatOk, kcat } from './kcat.js';
import { runCli, jsonLines } from './cli-io.js';

const pem = makeCert();
const haveKcat = kcatAvailable();

describe.skipIf(!pem)('TLS', () => {
  let broker: MemoryBroker;
  let ca: Buffer;
  beforeAll(async () => {
    ca = readFileSync(pem!.cert);
    broker = await startMemoryBroker({
      topics: { sec: 1 },
      tls: { key: readFileSync(pem!.key), cert: ca },
      sasl: { username: 'tls-user', password: 'pw' },
    });
  });
  afterAll(async () => {
    await broker?.close();
    if (pem) rmSync(pem.dir, { recursive: true, force: true });
  });

  it('connects over TLS with SASL/PLAIN, verifying the certificate', async () => {
    const conn = await connect({ host: broker.host, port: broker.port, tls: { ca }, sasl: { mechanism: 'PLAIN', username: 'tls-user', password: 'pw' } });
    const md = await conn.request(3, undefined, { topics: null });
    expect(md.topics.map((t) => t.name)).toEqual(['sec']);
    await conn.close();
  });

  it('refuses a certificate it does not trust', async () => {
    await expect(connect({ host: broker.host, port: broker.port, tls: true }))
      .rejects.toMatchObject({ name: 'ConnectionError', code: 'CONNECT' });
  });

  it('plain TCP to a TLS listener fails typed, without hanging', async () => {
    await expect(connect({ host: broker.host, port: broker.port, requestTimeoutMs: 3000 }))
      .rejects.toMatchObject({ name: 'ConnectionError' });
  });

  it('CLI over --tls-insecure with SASL', async () => {
    const common = ['-b', broker.bootstrap, '--tls-insecure', '--sasl-username', 'tls-user', '--sasl-password', 'pw', '-t', 'sec'];
    expect((await runCli('produce', [...common, '-p', '0'], 'k\tover tls\n')).code).toBe(0);
    const got = jsonLines((await runCli('consume', [...common, '-e'])).stdout);
    expect(got.map((r) => [r.key, r.value])).toContainEqual(['k', 'over tls']);
  });

  it.skipIf(!haveKcat)('kcat speaks SASL_SSL to it', async () => {
    const opts = ['-X', 'security.protocol=SASL_SSL', '-X', `ssl.ca.location=${pem!.cert}`, '-X', 'sasl.mechanisms=PLAIN',
      '-X', 'sasl.username=tls-user', '-X', 'sasl.password=pw'];
    await kcatOk(['-b', broker.bootstrap, ...opts, '-P', '-t', 'sec', '-p', '0'], 'from kcat\n');
    const out = await kcatOk(['-b', broker.bootstrap, ...opts, '-C', '-t', 'sec', '-p', '0', '-o', 'beginning', '-e', '-f', '%s\n']);
    expect(out).toContain('from kcat');
    const noCa = await kcat(['-b', broker.bootstrap, '-X', 'security.protocol=SSL', '-L', '-m', '2']);
    expect(noCa.code).not.toBe(0);
  });
});
