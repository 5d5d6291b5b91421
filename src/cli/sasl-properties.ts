// The CLI's token mechanisms, from librdkafka's and Kafka's Java client's -X names:
//   -X sasl.mechanism=OAUTHBEARER -X sasl.oauthbearer.method=oidc
//      -X sasl.oauthbearer.token.endpoint.url=URL -X sasl.oauthbearer.client.id=ID
//      -X sasl.oauthbearer.client.secret=SECRET [-X sasl.oauthbearer.scope=S] [-X sasl.oauthbearer.extensions=k=v,...]
//   -X sasl.mechanism=OAUTHBEARER -X sasl.oauthbearer.config=principal=NAME   (unsecured JWS, development)
//   -X sasl.mechanism=AWS_MSK_IAM -X aws.region=REGION [-X aws.profile=NAME]
// AWS credentials: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, else the profile's static keys in
// AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials. Values are never echoed in errors.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { awsCredentialsFromEnvironment, awsCredentialsFromProfile, type AwsCredentials, type SaslOptions } from '../wire/sasl/index.js';
import type { OptionValues } from './options.js';

/** The -X names this file reads, each kept as given under its own name. */
export const TOKEN_SASL_PROPERTIES = [
  'sasl.oauthbearer.method', 'sasl.oauthbearer.token.endpoint.url', 'sasl.oauthbearer.client.id',
  'sasl.oauthbearer.client.secret', 'sasl.oauthbearer.scope', 'sasl.oauthbearer.extensions',
  'sasl.oauthbearer.config', 'aws.region', 'aws.profile',
] as const;

const get = (values: OptionValues, name: string): string | undefined => {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
};

/** "k=v,k2=v2" (librdkafka's sasl.oauthbearer.extensions). */
function extensionsFrom(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError('-X sasl.oauthbearer.extensions takes key=value pairs, comma-separated');
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** librdkafka's unsecured-JWS config: "principal=NAME [scope=a,b] [lifeSeconds=N] [extension_K=V]". */
function unsecuredFrom(config: string): Extract<SaslOptions, { mechanism: 'OAUTHBEARER' }> {
  let principal: string | undefined;
  let scope: string[] | undefined;
  let lifetimeMs: number | undefined;
  const extensions: Record<string, string> = {};
  for (const part of config.trim().split(/\s+/)) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === 'principal') principal = value;
    else if (key === 'scope') scope = value.split(',');
    else if (key === 'lifeSeconds' && /^\d+$/.test(value)) lifetimeMs = Number(value) * 1000;
    else if (key.startsWith('extension_')) extensions[key.slice('extension_'.length)] = value;
    else throw new UsageError(`-X sasl.oauthbearer.config: unknown setting ${JSON.stringify(key)} (principal, scope, lifeSeconds, extension_NAME)`);
  }
  if (!principal) throw new UsageError('-X sasl.oauthbearer.config needs principal=NAME');
  return { mechanism: 'OAUTHBEARER', unsecured: { principal, scope, lifetimeMs }, extensions: Object.keys(extensions).length ? extensions : undefined };
}

function awsCredentials(profileName: string | undefined): AwsCredentials {
  if (!profileName && process.env.AWS_ACCESS_KEY_ID) return awsCredentialsFromEnvironment(process.env);
  const profile = profileName ?? process.env.AWS_PROFILE ?? 'default';
  const file = process.env.AWS_SHARED_CREDENTIALS_FILE ?? join(homedir(), '.aws', 'credentials');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`AWS_MSK_IAM: no AWS credentials (AWS_ACCESS_KEY_ID is not set and ${file} cannot be read)`);
  }
  try {
    return awsCredentialsFromProfile(text, profile);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} in ${file}`);
  }
}

/** The SASL options for OAUTHBEARER or AWS_MSK_IAM from the -X properties. */
export function tokenSaslFrom(mechanism: 'OAUTHBEARER' | 'AWS_MSK_IAM', values: OptionValues): SaslOptions {
  if (mechanism === 'AWS_MSK_IAM') {
    const region = get(values, 'aws.region') ?? process.env.AWS_REGION;
    if (!region) throw new UsageError('SASL AWS_MSK_IAM needs -X aws.region=REGION (or AWS_REGION)');
    const credentials = awsCredentials(get(values, 'aws.profile'));
    return { mechanism, region, credentials };
  }
  const method = get(values, 'sasl.oauthbearer.method')?.toLowerCase();
  const url = get(values, 'sasl.oauthbearer.token.endpoint.url');
  const extensions = extensionsFrom(get(values, 'sasl.oauthbearer.extensions'));
  if (method === 'oidc' || url !== undefined) {
    const clientId = get(values, 'sasl.oauthbearer.client.id');
    const clientSecret = get(values, 'sasl.oauthbearer.client.secret');
    if (!url || !clientId || clientSecret === undefined) {
      throw new UsageError('SASL OAUTHBEARER with OIDC needs -X sasl.oauthbearer.token.endpoint.url, sasl.oauthbearer.client.id and sasl.oauthbearer.client.secret');
    }
    return { mechanism, oidc: { tokenEndpointUrl: url, clientId, clientSecret, scope: get(values, 'sasl.oauthbearer.scope') }, extensions };
  }
  const config = get(values, 'sasl.oauthbearer.config');
  if (config === undefined) {
    throw new UsageError('SASL OAUTHBEARER needs -X sasl.oauthbearer.method=oidc (with the token endpoint and client) or -X sasl.oauthbearer.config=principal=NAME (unsecured, development)');
  }
  const unsecured = unsecuredFrom(config);
  return extensions ? { ...unsecured, extensions: { ...unsecured.extensions, ...extensions } } : unsecured;
}

/** The -X names whose values are secrets: shown as *** wherever settings are echoed (perf reports). */
export const SECRET_PROPERTIES: readonly string[] = ['sasl.password', 'sasl.oauthbearer.client.secret', 'ssl.key.password', 'ssl.keystore.password', 'ssl.truststore.password'];

/** "name=value" with the value hidden when the name is a secret's. */
export function withoutSecret(property: string): string {
  const eq = property.indexOf('=');
  return eq > 0 && SECRET_PROPERTIES.includes(property.slice(0, eq).trim()) ? `${property.slice(0, eq)}=***` : property;
}
