// SASL/PLAIN (RFC 4616): one message, "authzid NUL user NUL password"; the broker's empty
// answer means yes. Use it over TLS only: the password crosses the wire as it is.

import type { SaslMechanism } from './mechanism.js';

export interface SaslPlainOptions {
  mechanism: 'PLAIN';
  username: string;
  password: string;
  /** Optional authorization identity (the first field of the PLAIN message). */
  authzid?: string;
}

const utf8 = new TextEncoder();

export function plainMechanism(options: Omit<SaslPlainOptions, 'mechanism'>): SaslMechanism {
  const { username, password, authzid = '' } = options;
  return {
    name: 'PLAIN',
    async authenticate(send) {
      await send(utf8.encode(`${authzid}\u0000${username}\u0000${password}`));
    },
  };
}
