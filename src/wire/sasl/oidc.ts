// OIDC client credentials (RFC 6749 section 4.4) for OAUTHBEARER, as Kafka's Java client
// (KIP-768) and librdkafka (sasl.oauthbearer.method=oidc) do it: POST grant_type=client_credentials
// to the token endpoint, authenticated by the client id and secret (HTTP Basic) or by a signed
// client assertion JWT (RFC 7523), with a scope and an audience when given. fetch only, so it
// runs wherever fetch does. A refusal is an OAuthTokenError naming the endpoint and its HTTP
// status; the secret and the assertion never appear in it.

import { redact } from './errors.js';
import { base64, unbase64url } from './base64.js';
import type { OAuthBearerToken } from './oauthbearer.js';

export interface OidcClientCredentialsOptions {
  /** The identity provider's token endpoint (sasl.oauthbearer.token.endpoint.url). */
  tokenEndpointUrl: string;
  clientId: string;
  /** The client secret, sent as HTTP Basic credentials; or give `clientAssertion`. */
  clientSecret?: string;
  /** A client assertion JWT (RFC 7523), or a function making a fresh one for each request. */
  clientAssertion?: string | (() => string | Promise<string>);
  /** Space-separated scopes (sasl.oauthbearer.scope). */
  scope?: string;
  /** The audience parameter some providers (Auth0, Okta) require. */
  audience?: string;
  /** Extra form parameters for the token request. */
  params?: Readonly<Record<string, string>>;
  /** Default globalThis.fetch: pass one to reach an endpoint through a custom agent or CA. */
  fetch?: typeof fetch;
  /** Default 30 000 ms. */
  timeoutMs?: number;
}

/** The token endpoint refused or could not be reached; never carries the secret. */
export class OAuthTokenError extends Error {
  override readonly name = 'OAuthTokenError';
  /** The endpoint without its query string or user info. */
  readonly endpoint: string;
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;
  /** The OAuth error code (RFC 6749 section 5.2) the endpoint gave, such as invalid_client. */
  readonly error: string | undefined;
  constructor(message: string, details: { endpoint: string; status?: number; error?: string; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.error = details.error;
  }
}

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The endpoint as safe to show: scheme, host and path. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

/** A provider of tokens from the endpoint; wrap it in cachedTokenProvider (the OAUTHBEARER mechanism does). */
export function oidcTokenProvider(options: OidcClientCredentialsOptions): () => Promise<OAuthBearerToken> {
  const endpoint = shown(options.tokenEndpointUrl);
  if (!options.clientId) throw new OAuthTokenError(`OIDC: no client id for ${endpoint}`, { endpoint });
  if ((options.clientSecret === undefined) === (options.clientAssertion === undefined)) {
    throw new OAuthTokenError(`OIDC: give exactly one of clientSecret and clientAssertion for ${endpoint}`, { endpoint });
  }
  return async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (options.scope) form.set('scope', options.scope);
    if (options.audience) form.set('audience', options.audience);
    for (const [k, v] of Object.entries(options.params ?? {})) form.set(k, v);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const secrets: (string | undefined)[] = [options.clientSecret];
    if (options.clientSecret !== undefined) {
      // RFC 6749 section 2.3.1: each part form-encoded, then Basic.
      const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
      headers.authorization = `Basic ${base64(new TextEncoder().encode(`${enc(options.clientId)}:${enc(options.clientSecret)}`))}`;
    } else {
      const assertion = typeof options.clientAssertion === 'function' ? await options.clientAssertion() : options.clientAssertion!;
      secrets.push(assertion);
      form.set('client_id', options.clientId);
      form.set('client_assertion_type', ASSERTION_TYPE);
      form.set('client_assertion', assertion);
    }
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(options.tokenEndpointUrl, {
        method: 'POST', headers, body: form.toString(), signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      const why = redact(err instanceof Error ? err.message : String(err), secrets);
      throw new OAuthTokenError(`OIDC token endpoint ${endpoint} could not be reached: ${why}`, { endpoint });
    }
    const text = await response.text().catch(() => '');
    let body: Record<string, unknown> = {};
    try { body = JSON.parse(text) as Record<string, unknown>; } catch { /* reported below */ }
    if (!response.ok) {
      const error = typeof body.error === 'string' ? body.error : undefined;
      const description = typeof body.error_description === 'string' ? body.error_description : undefined;
      const said = error ? `: ${redact(error + (description ? ` (${description})` : ''), secrets).slice(0, 300)}` : '';
      throw new OAuthTokenError(`OIDC token endpoint ${endpoint} refused the client credentials grant: HTTP ${response.status}${said}`,
        { endpoint, status: response.status, error });
    }
    const value = body.access_token;
    if (typeof value !== 'string' || value === '') {
      throw new OAuthTokenError(`OIDC token endpoint ${endpoint} answered HTTP ${response.status} without an access_token`, { endpoint, status: response.status });
    }
    const expiresAt = typeof body.expires_in === 'number' || typeof body.expires_in === 'string'
      ? Date.now() + Number(body.expires_in) * 1000
      : jwtExpiry(value);
    if (expiresAt === undefined || !Number.isFinite(expiresAt)) {
      throw new OAuthTokenError(`OIDC token endpoint ${endpoint} gave a token with neither expires_in nor a JWT "exp" claim`, { endpoint, status: response.status });
    }
    return { value, expiresAt };
  };
}

/** A JWT's "exp" claim in ms, or undefined when the token is not a JWT with one. */
export function jwtExpiry(jwt: string): number | undefined {
  const payload = jwt.split('.')[1];
  const bytes = payload === undefined ? null : unbase64url(payload);
  if (!bytes) return undefined;
  try {
    const exp = (JSON.parse(new TextDecoder().decode(bytes)) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
