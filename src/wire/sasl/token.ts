// The bearer token OAUTHBEARER sends and the provider shape that yields it, in a file of their
// own so that the mechanism (oauthbearer.ts) and the OIDC client (oidc.ts) both take them from
// here and neither imports the other's types.

/** A bearer token and when it stops being valid. */
export interface OAuthBearerToken {
  /** The token as the broker receives it (a JWT for Kafka's validators). */
  value: string;
  /** When it expires, in ms since the epoch. */
  expiresAt: number;
}

/** The app's source of tokens; called when there is no cached token or the cached one is due for refresh. */
export type OAuthBearerTokenProvider = () => OAuthBearerToken | Promise<OAuthBearerToken>;
