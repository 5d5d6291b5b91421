// SASL for kafka-wire's connections: the mechanism interface and the built-in mechanisms. No
// Node modules: Web Crypto, fetch and TextEncoder only, so every runtime the connection runs in
// can authenticate.

export { defaultReauthenticateAfterMs, type SaslMechanism, type SaslSend, type SaslContext } from './mechanism.js';
export { SaslError, SaslRefusal, type SaslErrorDetails } from './errors.js';
export { saslMechanism, SASL_MECHANISMS, type SaslOptions } from './options.js';
export { authenticateSasl, type SaslTransport, type SaslOutcome } from './authenticate.js';
export { plainMechanism, type SaslPlainOptions } from './plain.js';
export { scramMechanism, type SaslScramOptions } from './scram.js';
export {
  oauthBearerMechanism, oauthBearerInitialResponse, unsecuredJws, cachedTokenProvider, refreshAt, KAFKA_LOGIN_REFRESH,
  type SaslOAuthBearerOptions, type OAuthBearerToken, type OAuthBearerTokenProvider, type UnsecuredJwsOptions, type TokenCacheOptions,
} from './oauthbearer.js';
export { oidcTokenProvider, OAuthTokenError, jwtExpiry, signedClientAssertion, type OidcClientCredentialsOptions, type ClientAssertionOptions } from './oidc.js';
export {
  awsMskIamMechanism, awsMskIamToken, awsCredentialsFromEnvironment, awsCredentialsFromProfile, MSK_TOKEN_TTL_SECONDS,
  type SaslAwsMskIamOptions, type AwsCredentials, type AwsCredentialsProvider,
} from './aws-msk-iam.js';
