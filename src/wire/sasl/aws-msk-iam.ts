// AWS MSK IAM over OAUTHBEARER: the token is a SigV4-presigned GET of
// https://kafka.REGION.amazonaws.com/?Action=kafka-cluster:Connect (service kafka-cluster,
// 900 s), the URL then base64url-encoded, as AWS's aws-msk-iam-sasl-signer-js makes it (checked
// byte for byte against that package in test/wire/sasl.test.ts). Web Crypto only. Credentials
// come from the app (static or a provider function, so the AWS SDK's chain plugs in without
// kafka-wire depending on it), from the environment, or from a profile's static keys.

import { base64url } from './base64.js';
import type { SaslMechanism } from './mechanism.js';
import { oauthBearerMechanism, type OAuthBearerToken } from './oauthbearer.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
  /** When temporary credentials expire: the token then lives no longer than they do. */
  expiration?: Date | undefined;
}

export type AwsCredentialsProvider = () => AwsCredentials | Promise<AwsCredentials>;

export interface SaslAwsMskIamOptions {
  mechanism: 'AWS_MSK_IAM';
  /** The cluster's region (aws.region), e.g. 'eu-west-1'. */
  region: string;
  /** Default: the environment's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN. */
  credentials?: AwsCredentials | AwsCredentialsProvider;
  /** The token's User-Agent parameter (not signed); default kafka-wire's. */
  userAgent?: string;
}

/** The token's lifetime AWS's signer gives it (seconds). */
export const MSK_TOKEN_TTL_SECONDS = 900;
const SERVICE = 'kafka-cluster';
const ALGORITHM = 'AWS4-HMAC-SHA256';
const DEFAULT_USER_AGENT = 'kafka-wire';

const utf8 = new TextEncoder();

/** RFC 3986 escaping as SigV4 wants it: encodeURIComponent plus !'()*. */
function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

async function hmac(key: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, utf8.encode(data)));
}

/** An MSK IAM token for `region`, signed at `now` (ms; default Date.now()). */
export async function awsMskIamToken(region: string, credentials: AwsCredentials, options: { now?: number; userAgent?: string } = {}): Promise<OAuthBearerToken> {
  if (!/^[a-z0-9-]+$/.test(region)) throw new Error(`AWS MSK IAM: bad region ${JSON.stringify(region)}`);
  if (!credentials?.accessKeyId || !credentials.secretAccessKey) throw new Error('AWS MSK IAM: no AWS credentials (access key id and secret access key)');
  const now = options.now ?? Date.now();
  const host = `kafka.${region}.amazonaws.com`;
  const ttl = credentials.expiration !== undefined
    ? Math.min((credentials.expiration.getTime() - now) / 1000, MSK_TOKEN_TTL_SECONDS)
    : MSK_TOKEN_TTL_SECONDS;
  if (!(ttl > 0)) throw new Error('AWS MSK IAM: the AWS credentials have expired');
  const longDate = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const shortDate = longDate.slice(0, 8);
  const scope = `${shortDate}/${region}/${SERVICE}/aws4_request`;
  const query: Record<string, string> = { Action: 'kafka-cluster:Connect' };
  if (credentials.sessionToken) query['X-Amz-Security-Token'] = credentials.sessionToken;
  Object.assign(query, {
    'X-Amz-Algorithm': ALGORITHM,
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': longDate,
    'X-Amz-Expires': ttl.toString(10),
    'X-Amz-SignedHeaders': 'host',
  });
  const queryString = (q: Record<string, string>) => Object.keys(q).sort().map((k) => `${escapeUri(k)}=${escapeUri(q[k]!)}`).join('&');
  const emptyHash = hex(await crypto.subtle.digest('SHA-256', new Uint8Array(0)));
  const canonicalRequest = `GET\n/\n${queryString(query)}\nhost:${host}\n\nhost\n${emptyHash}`;
  const stringToSign = `${ALGORITHM}\n${longDate}\n${scope}\n${hex(await crypto.subtle.digest('SHA-256', utf8.encode(canonicalRequest)))}`;
  let key = utf8.encode(`AWS4${credentials.secretAccessKey}`);
  for (const part of [shortDate, region, SERVICE, 'aws4_request']) key = await hmac(key, part);
  query['X-Amz-Signature'] = hex((await hmac(key, stringToSign)).buffer);
  query['User-Agent'] = options.userAgent ?? DEFAULT_USER_AGENT;
  const url = `https://${host}/?${queryString(query)}`;
  return { value: base64url(utf8.encode(url)), expiresAt: Math.floor(now / 1000) * 1000 + ttl * 1000 };
}

/** AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, where the runtime has an environment. */
export function awsCredentialsFromEnvironment(env: Readonly<Record<string, string | undefined>> | undefined =
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env): AwsCredentials {
  const accessKeyId = env?.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env?.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new Error('AWS MSK IAM: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set');
  return { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined };
}

/**
 * A profile's static keys from the text of an AWS credentials or config file ("[name]" or
 * "[profile name]" sections with aws_access_key_id, aws_secret_access_key, aws_session_token).
 * Reading the file is the caller's (the CLI reads ~/.aws/credentials).
 */
export function awsCredentialsFromProfile(fileText: string, profile = 'default'): AwsCredentials {
  let section: string | undefined;
  const found: Record<string, string> = {};
  for (const raw of fileText.split(/\r?\n/)) {
    const line = raw.replace(/^\s+|\s+$/g, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*(?:profile\s+)?([^\]]+?)\s*\]$/.exec(line);
    if (header) { section = header[1]; continue; }
    const kv = /^([A-Za-z0-9_]+)\s*=\s*(.*)$/.exec(line);
    if (kv && section === profile) found[kv[1]!.toLowerCase()] = kv[2]!;
  }
  const accessKeyId = found.aws_access_key_id;
  const secretAccessKey = found.aws_secret_access_key;
  if (!accessKeyId || !secretAccessKey) throw new Error(`AWS MSK IAM: profile ${JSON.stringify(profile)} has no static keys (aws_access_key_id, aws_secret_access_key)`);
  return { accessKeyId, secretAccessKey, sessionToken: found.aws_session_token || undefined };
}

/** MSK IAM as a mechanism: OAUTHBEARER carrying a fresh token from these credentials (cached, refreshed before it expires). */
export function awsMskIamMechanism(options: Omit<SaslAwsMskIamOptions, 'mechanism'>): SaslMechanism {
  const { region, credentials, userAgent } = options;
  const source: AwsCredentialsProvider = typeof credentials === 'function' ? credentials
    : credentials ? () => credentials : () => awsCredentialsFromEnvironment();
  const inner = oauthBearerMechanism({ token: async () => awsMskIamToken(region, await source(), { userAgent }) });
  return { name: inner.name, authenticate: inner.authenticate.bind(inner) };
}
