// ConnectOptions.sasl: the options of a built-in mechanism, or a mechanism object of the app's
// own, resolved to one SaslMechanism. The resolution is cached per options object, so every
// connection a client makes with the same options shares one token cache (OAUTHBEARER, MSK IAM).

import { SCRAM_MECHANISMS, type ScramMechanism } from '../scram.js';
import { awsMskIamMechanism, type SaslAwsMskIamOptions } from './aws-msk-iam.js';
import { isSaslMechanism, type SaslMechanism } from './mechanism.js';
import { oauthBearerMechanism, type SaslOAuthBearerOptions } from './oauthbearer.js';
import { plainMechanism, type SaslPlainOptions } from './plain.js';
import { scramMechanism, type SaslScramOptions } from './scram.js';

export type SaslOptions = SaslPlainOptions | SaslScramOptions | SaslOAuthBearerOptions | SaslAwsMskIamOptions | SaslMechanism;

/** The mechanisms connect() knows by name (AWS_MSK_IAM goes over OAUTHBEARER on the wire). */
export const SASL_MECHANISMS: readonly ('PLAIN' | ScramMechanism | 'OAUTHBEARER' | 'AWS_MSK_IAM')[] = ['PLAIN', ...SCRAM_MECHANISMS, 'OAUTHBEARER', 'AWS_MSK_IAM'];

const resolved = new WeakMap<object, SaslMechanism>();

/** The mechanism for `sasl`; throws an Error naming what is wrong with the options (never their secrets). */
export function saslMechanism(sasl: SaslOptions): SaslMechanism {
  if (isSaslMechanism(sasl) && !('mechanism' in sasl)) return sasl;
  const cached = resolved.get(sasl);
  if (cached) return cached;
  const options = sasl as Exclude<SaslOptions, SaslMechanism>;
  let mechanism: SaslMechanism;
  switch (options.mechanism) {
    case 'PLAIN': mechanism = plainMechanism(options); break;
    case 'SCRAM-SHA-256': case 'SCRAM-SHA-512': mechanism = scramMechanism(options); break;
    case 'OAUTHBEARER': mechanism = oauthBearerMechanism(options); break;
    case 'AWS_MSK_IAM': mechanism = awsMskIamMechanism(options); break;
    default:
      throw new Error(`unsupported SASL mechanism ${String((options as { mechanism?: unknown }).mechanism)} (${SASL_MECHANISMS.join(', ')}, or a SaslMechanism object)`);
  }
  resolved.set(sasl, mechanism);
  return mechanism;
}
