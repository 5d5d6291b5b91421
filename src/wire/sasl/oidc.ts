// OIDC client credentials (RFC 6749 section 4.4) for OAUTHBEARER, as Kafka's Java client
// (KIP-768) and librdkafka (sasl.oauthbearer.method=oidc) do it: POST grant_type=client_credentials
// to the token endpoint, authenticated by the client id and secret (HTTP Basic) or by a signed
// client assertion JWT (RFC 7523), with a scope and an audience when given. fetch only, so it
// runs wherever fetch does. A refusal is an OAuthTokenError naming the endpoint and its HTTP
// status; the secret and the assertion never appear in it.

import { redact } from './errors.js';
import { base64, base64url, unbase64url } from './base64.js';
import type { OAuthBearerToken } from './token.js';

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

export interface ClientAssertionOptions {
  /** The client id: the assertion's "iss" and "sub". */
  clientId: string;
  /** Who the assertion is for: the token endpoint URL (RFC 7523 section 3), unless the provider says otherwise. */
  audience: string;
  /** The client's private key: PKCS#8 PEM text, or a Web Crypto CryptoKey made for `algorithm`. */
  privateKey: string | CryptoKey;
  /** Default RS256. */
  algorithm?: 'RS256' | 'PS256' | 'ES256';
  /** The JWS "kid" header, when the provider holds several keys. */
  keyId?: string;
  /** Default 300 000 (five minutes). */
  lifetimeMs?: number;
  /** More claims laid over the standard ones. */
  claims?: Readonly<Record<string, unknown>>;
}

const ALGORITHMS = {
  RS256: { importAs: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
  PS256: { importAs: { name: 'RSA-PSS', hash: 'SHA-256' }, sign: { name: 'RSA-PSS', saltLength: 32 } },
  ES256: { importAs: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
} as const;

/**
 * A maker of RFC 7523 client assertions (a JWT signed with the client's key, fresh for each
 * token request) for OidcClientCredentialsOptions.clientAssertion. Web Crypto only.
 */
export function signedClientAssertion(options: ClientAssertionOptions): () => Promise<string> {
  const algorithm = options.algorithm ?? 'RS256';
  const spec = ALGORITHMS[algorithm];
  if (!spec) throw new Error(`client assertion: unsupported algorithm ${String(algorithm)} (RS256, PS256, ES256)`);
  let key: Promise<CryptoKey> | undefined;
  const keyFor = () => key ??= typeof options.privateKey !== 'string' ? Promise.resolve(options.privateKey) : (async () => {
    const pem = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(options.privateKey as string);
    const der = pem ? unbase64url(pem[1]!.replace(/\s+/g, '').replaceAll('+', '-').replaceAll('/', '_')) : null;
    if (!der) throw new Error('client assertion: the private key is not PKCS#8 PEM ("BEGIN PRIVATE KEY")');
    try {
      return await crypto.subtle.importKey('pkcs8', der as Uint8Array<ArrayBuffer>, spec.importAs, false, ['sign']);
    } catch {
      throw new Error(`client assertion: the private key does not import for ${algorithm}`);
    }
  })();
  const utf8 = new TextEncoder();
  const part = (value: object) => base64url(utf8.encode(JSON.stringify(value)));
  return async () => {
    const now = Math.floor(Date.now() / 1000);
    const jti = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const header = { alg: algorithm, typ: 'JWT', ...(options.keyId ? { kid: options.keyId } : {}) };
    const claims = {
      iss: options.clientId, sub: options.clientId, aud: options.audience, iat: now, nbf: now,
      exp: now + Math.ceil((options.lifetimeMs ?? 300_000) / 1000), jti, ...options.claims,
    };
    const signingInput = `${part(header)}.${part(claims)}`;
    const signature = new Uint8Array(await crypto.subtle.sign(spec.sign, await keyFor(), utf8.encode(signingInput)));
    return `${signingInput}.${base64url(signature)}`;
  };
}
