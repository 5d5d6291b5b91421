// Test helper: a throwaway self-signed certificate for 127.0.0.1 and localhost, made by openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peer } from '../helpers/peer.js';

/** The key and certificate files (remove `dir` when done), or null without openssl (which fails in CI). */
export function makeCert(): { dir: string; key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore', timeout: 30_000 });
    return { dir, key: join(dir, 'key.pem'), cert: join(dir, 'cert.pem') };
  } catch {
    rmSync(dir, { recursive: true, force: true });
    peer('openssl (for the TLS tests\' certificate)', false, 'apt-get install openssl');
    return null;
  }
}
