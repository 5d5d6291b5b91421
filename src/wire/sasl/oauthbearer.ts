// SASL/OAUTHBEARER (RFC 7628) as Kafka speaks it (KIP-255, KIP-342 extensions, KIP-768 OIDC):
// the client sends "n,,\x01auth=Bearer TOKEN\x01key=value\x01\x01"; an empty answer is success,
// and a JSON answer is the broker's refusal, which the client acknowledges with "\x01" before
// the broker ends the exchange with SASL_AUTHENTICATION_FAILED.
//
// The token comes from a provider: the app's own function, Kafka's unsecured JWS tokens (for
// development brokers), or an OIDC client-credentials grant (oidc.ts). Tokens are cached and
// fetched again before they expire when Kafka's Java login refresh would (refreshAt below).

import { SaslRefusal } from './errors.js';
import type { SaslMechanism, SaslSend } from './mechanism.js';
import { base64url } from './base64.js';
import { oidcTokenProvider, type OidcClientCredentialsOptions } from './oidc.js';
import type { OAuthBearerToken, OAuthBearerTokenProvider } from './token.js';

export type { OAuthBearerToken, OAuthBearerTokenProvider };

/** Kafka's unsecured JWS ("alg": "none") tokens, which its default broker validator accepts: development only. */
export interface UnsecuredJwsOptions {
  /** The principal (the "sub" claim); Kafka's unsecuredLoginStringClaim_sub, librdkafka's principal=. */
  principal: string;
  /** Default 3 600 000 (one hour, as Kafka's unsecuredLoginLifetimeSeconds). */
  lifetimeMs?: number;
  /** The "scope" claim, when the broker requires scopes. */
  scope?: readonly string[];
  /** More claims laid over the defaults. */
  claims?: Readonly<Record<string, unknown>>;
}

export interface SaslOAuthBearerOptions {
  mechanism: 'OAUTHBEARER';
  /** Exactly one of token, oidc and unsecured says where tokens come from. */
  token?: OAuthBearerTokenProvider;
  oidc?: OidcClientCredentialsOptions;
  unsecured?: UnsecuredJwsOptions;
  /** SASL extensions (KIP-342), such as Confluent Cloud's logicalCluster and identityPoolId. */
  extensions?: Readonly<Record<string, string>>;
  /** The authorization identity ("a=" in the GS2 header); usually absent. */
  authzid?: string;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const SEPARATOR = '\u0001';

/** The client's initial response (RFC 7628 section 3.1, with Kafka's extension rules). */
export function oauthBearerInitialResponse(token: string, extensions: Readonly<Record<string, string>> = {}, authzid = ''): Uint8Array {
  if (!/^[\x21-\x7e]+$/.test(token)) throw new Error('the OAUTHBEARER token is empty or has characters a bearer token cannot have');
  const ext = Object.entries(extensions).map(([key, value]) => {
    if (!/^[A-Za-z]+$/.test(key) || key === 'auth') throw new Error(`bad SASL extension name ${JSON.stringify(key)} (letters only, not "auth")`);
    if (!/^[\x21-\x7e \t\r\n]+$/.test(value)) throw new Error(`bad value for SASL extension ${key}`);
    return `${SEPARATOR}${key}=${value}`;
  }).join('');
  if (/[,=]/.test(authzid)) throw new Error('the OAUTHBEARER authzid cannot contain "," or "="');
  return utf8.encode(`n,${authzid ? `a=${authzid}` : ''},${SEPARATOR}auth=Bearer ${token}${ext}${SEPARATOR}${SEPARATOR}`);
}

/** An unsecured JWS as Kafka's OAuthBearerUnsecuredLoginCallbackHandler makes them: header.payload. with no signature. */
export function unsecuredJws(options: UnsecuredJwsOptions, now = Date.now()): OAuthBearerToken {
  const lifetimeMs = options.lifetimeMs ?? 3_600_000;
  const iat = Math.floor(now / 1000);
  const exp = Math.floor((now + lifetimeMs) / 1000);
  const claims = { iat, exp, sub: options.principal, ...(options.scope ? { scope: options.scope } : {}), ...options.claims };
  const part = (value: object) => base64url(utf8.encode(JSON.stringify(value)));
  return { value: `${part({ alg: 'none' })}.${part(claims)}.`, expiresAt: exp * 1000 };
}

export interface TokenCacheOptions {
  now?: () => number;
  random?: () => number;
}

/** Kafka's sasl.login.refresh.* defaults: window factor, window jitter, min period and buffer (s). */
export const KAFKA_LOGIN_REFRESH = { windowFactor: 0.8, windowJitter: 0.05, minPeriodSeconds: 60, bufferSeconds: 300 } as const;

/**
 * When Kafka's Java client (ExpiringCredentialRefreshingLogin) refreshes a token fetched at
 * `startMs` that expires at `expiresAt`: at 80% of its lifetime plus up to 5% jitter, but no later
 * than 300 s before expiry and no sooner than 60 s from now; a token with less than those 360 s
 * left ignores both and refreshes at the same fraction of what remains.
 */
export function refreshAt(startMs: number, expiresAt: number, nowMs: number, random: () => number = Math.random): number {
  const { windowFactor, windowJitter, minPeriodSeconds, bufferSeconds } = KAFKA_LOGIN_REFRESH;
  const pct = windowFactor + windowJitter * random();
  if (nowMs + 1000 * (minPeriodSeconds + bufferSeconds) > expiresAt) return nowMs + Math.floor((expiresAt - nowMs) * pct);
  const proposed = startMs + Math.floor((expiresAt - startMs) * pct);
  const bufferStarts = expiresAt - bufferSeconds * 1000;
  if (proposed > bufferStarts) return bufferStarts;
  return Math.max(proposed, nowMs + minPeriodSeconds * 1000);
}

/**
 * A provider that caches `fetchToken`'s token and fetches a new one when Kafka's Java client
 * would (refreshAt). Concurrent callers share one fetch. When a refresh fails while the cached
 * token is still valid, the cached one is used.
 */
export function cachedTokenProvider(fetchToken: OAuthBearerTokenProvider, options: TokenCacheOptions = {}): OAuthBearerTokenProvider & { readonly refreshAt: number } {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  let cached: OAuthBearerToken | undefined;
  let nextRefresh = 0;
  let inFlight: Promise<OAuthBearerToken> | undefined;
  const refresh = async (): Promise<OAuthBearerToken> => {
    const fetchedAt = now();
    const token = await fetchToken();
    if (typeof token?.value !== 'string' || !Number.isFinite(token.expiresAt)) throw new Error('the token provider returned no { value, expiresAt }');
    if (token.expiresAt <= now()) throw new Error(`the token provider returned a token that expired at ${new Date(token.expiresAt).toISOString()}`);
    cached = token;
    nextRefresh = refreshAt(fetchedAt, token.expiresAt, now(), random);
    return token;
  };
  const provider = async (): Promise<OAuthBearerToken> => {
    if (cached && now() < nextRefresh) return cached;
    inFlight ??= refresh().finally(() => { inFlight = undefined; });
    try {
      return await inFlight;
    } catch (err) {
      if (cached && now() < cached.expiresAt) return cached;
      throw err;
    }
  };
  return Object.defineProperty(provider, 'refreshAt', { get: () => nextRefresh }) as OAuthBearerTokenProvider & { readonly refreshAt: number };
}

/**
 * One OAUTHBEARER conversation with `token`: the initial response, and on a refusal the "\x01"
 * acknowledgement, then a SaslRefusal carrying the broker's status. For mechanisms that get their
 * token elsewhere (kafka-wire/kafkajs's oauthBearerProvider).
 */
export async function oauthBearerConversation(send: SaslSend, token: string, extensions?: Readonly<Record<string, string>>, authzid?: string): Promise<void> {
  const answer = await send(oauthBearerInitialResponse(token, extensions, authzid));
  if (answer.length === 0) return;
  // A refusal (RFC 7628 section 3.2.2): acknowledge it, then report the broker's status.
  const json = utf8Decoder.decode(answer);
  let status: string | undefined;
  try { status = (JSON.parse(json) as { status?: unknown }).status?.toString(); } catch { /* not JSON: keep the text */ }
  const reason = status ?? json.slice(0, 200);
  let brokerError: unknown;
  try { await send(utf8.encode(SEPARATOR)); } catch (err) { brokerError = err; }
  throw new SaslRefusal(`the broker refused the token: ${json.slice(0, 200)}${brokerError instanceof Error ? ` (${brokerError.message.replace(/^SASL \S+: /, '')})` : ''}`,
    reason, { cause: brokerError });
}

/** The OAUTHBEARER mechanism with a token provider (cached by the caller, see cachedTokenProvider). */
export function oauthBearerMechanism(options: Omit<SaslOAuthBearerOptions, 'mechanism'>, name = 'OAUTHBEARER'): SaslMechanism {
  const sources = [options.token, options.oidc, options.unsecured].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new Error(`SASL ${name} needs exactly one of token, oidc and unsecured (${sources} given)`);
  const provider = cachedTokenProvider(
    options.token ?? (options.oidc ? oidcTokenProvider(options.oidc) : () => unsecuredJws(options.unsecured!)));
  return {
    name,
    async authenticate(send) {
      await oauthBearerConversation(send, (await provider()).value, options.extensions, options.authzid);
    },
  };
}
