// The error every SASL failure is: a ConnectionError with code SASL (so callers that catch
// ConnectionError see it as before), naming the mechanism and, when the broker gave one, its
// reason (SaslAuthenticate's ErrorMessage, or OAUTHBEARER's error status). Never a secret.

import { ConnectionError, type ConnectionErrorDetails } from '../errors.js';

export interface SaslErrorDetails extends ConnectionErrorDetails {
  /** What the broker said: SaslAuthenticate's ErrorMessage, or the OAUTHBEARER error JSON's status. */
  reason?: string | undefined;
}

export class SaslError extends ConnectionError {
  readonly mechanism: string;
  readonly reason: string | undefined;

  constructor(mechanism: string, message: string, details: SaslErrorDetails = {}) {
    super('SASL', message, details);
    this.mechanism = mechanism;
    this.reason = details.reason;
  }
}

/**
 * A mechanism's refusal that carries the broker's reason (OAUTHBEARER's %x01 error JSON); the
 * connection turns it into a SaslError.
 */
export class SaslRefusal extends Error {
  override readonly name = 'SaslRefusal';
  readonly reason: string | undefined;
  constructor(message: string, reason: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** `text` with every secret in it replaced by "***" (for what a server echoes back). */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}
