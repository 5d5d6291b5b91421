// SASL/SCRAM-SHA-256 and -512 on the mechanism interface: the three messages src/wire/scram.ts
// builds and checks, sent through SaslAuthenticate. With `tokenAuth` it authenticates with a
// Kafka delegation token (the token id as user name, its HMAC as password, "tokenauth=true").

import { ScramClient, type ScramMechanism } from '../scram.js';
import type { SaslMechanism } from './mechanism.js';

/** SASL/SCRAM (RFC 5802, RFC 7677): the password never crosses the wire, and the broker proves it knows it. */
export interface SaslScramOptions {
  mechanism: ScramMechanism;
  username: string;
  password: string;
  /** A delegation token: `username` is its token id, `password` its HMAC (base64, as Kafka gives it). */
  tokenAuth?: boolean;
}

export function scramMechanism(options: SaslScramOptions): SaslMechanism {
  const { mechanism, username, password, tokenAuth = false } = options;
  return {
    name: mechanism,
    async authenticate(send) {
      const scram = new ScramClient(mechanism, username, password, undefined, tokenAuth ? { tokenauth: 'true' } : undefined);
      const serverFirst = await send(scram.clientFirst());
      const serverFinal = await send(await scram.clientFinal(serverFirst));
      await scram.verifyServerFinal(serverFinal);
    },
  };
}
