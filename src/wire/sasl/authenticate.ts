// The SASL exchange on a connection, for any mechanism: SaslHandshake v1+ naming it, then its
// conversation through SaslAuthenticate. Resolves with the session lifetime the broker granted
// (KIP-368; 0 for none). Every failure is a SaslError (a ConnectionError with code SASL) whose
// message begins "SASL NAME: ".

import { ApiKey, type SaslAuthenticateResponse, type SaslHandshakeResponse } from '../../generated/types.js';
import { ConnectionError, kafkaErrorName } from '../errors.js';
import { SaslError, SaslRefusal } from './errors.js';
import type { SaslMechanism } from './mechanism.js';

/** What the exchange needs of a connection (Connection has it). */
export interface SaslTransport {
  readonly host: string;
  readonly port: number;
  versionFor(apiKey: number): number | undefined;
  request(apiKey: number, version: number | undefined, body: object): Promise<unknown>;
}

export interface SaslOutcome {
  /** The broker's SaslAuthenticate v1+ session lifetime in ms; 0 when it sets none. */
  sessionLifetimeMs: number;
}

export async function authenticateSasl(conn: SaslTransport, mechanism: SaslMechanism, reauthentication = false): Promise<SaslOutcome> {
  const name = mechanism.name;
  const where = { host: conn.host, port: conn.port };
  const fail = (message: string, details: { apiKey?: number; errorCode?: number; reason?: string | undefined; cause?: unknown } = {}) =>
    new SaslError(name, `SASL ${name}: ${message}`, { ...where, ...details });
  const hsVersion = conn.versionFor(ApiKey.SaslHandshake);
  if (hsVersion === undefined || hsVersion < 1) {
    throw fail(`broker ${conn.host}:${conn.port} lacks SaslHandshake v1 (SaslAuthenticate framing)`, { apiKey: ApiKey.SaslHandshake });
  }
  const hs = await conn.request(ApiKey.SaslHandshake, hsVersion, { mechanism: name }) as SaslHandshakeResponse;
  if (hs.errorCode !== 0) {
    throw fail(`SaslHandshake: ${kafkaErrorName(hs.errorCode)}; broker mechanisms: ${hs.mechanisms.join(', ') || 'none'}`,
      { apiKey: ApiKey.SaslHandshake, errorCode: hs.errorCode });
  }
  let sessionLifetimeMs = 0;
  const send = async (message: Uint8Array): Promise<Uint8Array> => {
    const auth = await conn.request(ApiKey.SaslAuthenticate, undefined, { authBytes: message }) as SaslAuthenticateResponse;
    if (auth.errorCode !== 0) {
      throw fail(`SaslAuthenticate: ${kafkaErrorName(auth.errorCode)}${auth.errorMessage ? `: ${auth.errorMessage}` : ''}`,
        { apiKey: ApiKey.SaslAuthenticate, errorCode: auth.errorCode, reason: auth.errorMessage ?? undefined });
    }
    sessionLifetimeMs = Number(auth.sessionLifetimeMs);
    return auth.authBytes;
  };
  try {
    await mechanism.authenticate(send, { ...where, reauthentication });
  } catch (err) {
    if (err instanceof ConnectionError) throw err;
    // The broker's own refusal (a SaslError) may sit beneath the mechanism's: keep its code.
    const broker = (err as { cause?: unknown }).cause instanceof SaslError ? (err as { cause: SaslError }).cause : undefined;
    const message = err instanceof Error ? err.message : String(err);
    throw fail(message, {
      apiKey: broker?.apiKey, errorCode: broker?.errorCode,
      reason: err instanceof SaslRefusal ? err.reason : broker?.reason, cause: err,
    });
  }
  return { sessionLifetimeMs };
}
