// The options every network command shares: -b, --client-id, --timeout, TLS and SASL (and kcat's
// -X names for them), -t and -p, and the KafkaClient options they make.
import { readFileSync } from 'node:fs';
import { KafkaClient, SASL_MECHANISMS, type ClientOptions, type ConnectOptions } from '../wire/client.js';
import { SCRAM_MECHANISMS } from '../wire/scram.js';
import { UsageError } from '../errors.js';
import { integerArg, stringOption, type OptionSpec, type OptionValues } from './options.js';
import { TOKEN_SASL_PROPERTIES, tokenSaslFrom } from './sasl-properties.js';

/**
 * kcat's (librdkafka's) names for the security settings, as `-X key=value`, onto the long options
 * below, so one set of arguments works for both tools.
 */
export const SECURITY_PROPERTIES: Record<string, (value: string, into: OptionValues) => void> = {
  'security.protocol': (value, into) => {
    const protocol = value.toUpperCase();
    if (!['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'].includes(protocol)) {
      throw new UsageError(`-X security.protocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not ${JSON.stringify(value)}`);
    }
    if (protocol.endsWith('SSL')) into.tls = true;
    if (protocol.startsWith('SASL')) into['sasl-mechanism'] ??= 'PLAIN';
  },
  'sasl.mechanisms': (value, into) => { into['sasl-mechanism'] = value; },
  'sasl.mechanism': (value, into) => { into['sasl-mechanism'] = value; },
  'sasl.username': (value, into) => { into['sasl-username'] = value; },
  'sasl.password': (value, into) => { into['sasl-password'] = value; },
  // As in kcat, the CA is used when the protocol is SSL; it does not turn TLS on by itself (--tls-ca does).
  'ssl.ca.location': (value, into) => { into['kcat-ca'] = value; },
  'enable.ssl.certificate.verification': (value, into) => { if (value === 'false') into['tls-insecure'] = true; },
};

export const NETWORK_OPTIONS: readonly OptionSpec[] = [
  { name: 'broker', short: 'b', value: 'HOST:PORT', help: 'a bootstrap broker (several: comma-separated)' },
  { name: 'client-id', value: 'ID', help: 'the client id sent in every request (default kafka-wire-cli)' },
  { name: 'timeout', value: 'MS', help: 'request timeout in milliseconds' },
  { name: 'tls', help: 'connect with TLS' },
  { name: 'tls-insecure', help: 'TLS without checking the broker\'s certificate' },
  { name: 'tls-ca', value: 'FILE', help: 'TLS, checking the broker\'s certificate against this CA (PEM)' },
  // The token mechanisms (OAUTHBEARER, AWS_MSK_IAM) are named with -X (docs/authentication.md).
  { name: 'sasl-mechanism', value: 'MECH', help: `${['PLAIN', ...SCRAM_MECHANISMS].join(', ')} (default PLAIN)` },
  { name: 'sasl-username', value: 'USER', help: 'SASL user name' },
  { name: 'sasl-password', value: 'PASSWORD', help: 'SASL password' },
  { name: 'property', short: 'X', value: 'KEY=VALUE', multiple: true, help: 'kcat\'s security settings: security.protocol, sasl.mechanism(s), sasl.username, sasl.password, ssl.ca.location, enable.ssl.certificate.verification' },
];

/**
 * The options with each -X property laid onto its long option (a long option given too wins).
 * `others` are the -X names the command itself takes (produce's producer settings): left to it.
 */
function withProperties(values: OptionValues, others: readonly string[]): OptionValues {
  const fromX: OptionValues = {};
  for (const property of (values.property ?? []) as string[]) {
    const eq = property.indexOf('=');
    const name = eq > 0 ? property.slice(0, eq) : property;
    if (others.includes(name)) continue;
    // The token mechanisms' properties (./sasl-properties.ts) are kept under their own names.
    if (eq > 0 && (TOKEN_SASL_PROPERTIES as readonly string[]).includes(name)) { fromX[name] = property.slice(eq + 1); continue; }
    const apply = eq > 0 ? SECURITY_PROPERTIES[name] : undefined;
    if (apply === undefined) throw new UsageError(`-X ${property}: kafka-wire takes ${[...Object.keys(SECURITY_PROPERTIES), ...TOKEN_SASL_PROPERTIES, ...others].join(', ')}`);
    apply(property.slice(eq + 1), fromX);
  }
  return { ...fromX, ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) };
}

/** TLS and SASL from the options: --tls, --tls-insecure, --tls-ca, --sasl-* (and -X). */
function securityFrom(values: OptionValues): Pick<ConnectOptions, 'tls' | 'sasl'> {
  const ca = stringOption(values, 'tls-ca') ?? (values.tls ? stringOption(values, 'kcat-ca') : undefined);
  let tls: ConnectOptions['tls'];
  if (values['tls-insecure']) tls = { rejectUnauthorized: false };
  else if (ca !== undefined) {
    try {
      tls = { ca: readFileSync(ca, 'utf8') };
    } catch (error) {
      throw new UsageError(`--tls-ca ${ca}: ${(error as Error).message}`);
    }
  } else if (values.tls) tls = true;
  const mechanism = stringOption(values, 'sasl-mechanism');
  const username = stringOption(values, 'sasl-username');
  const password = stringOption(values, 'sasl-password');
  if (mechanism === undefined && username === undefined && password === undefined) return { tls };
  const upper = (mechanism ?? 'PLAIN').toUpperCase() as (typeof SASL_MECHANISMS)[number];
  if (!SASL_MECHANISMS.includes(upper)) throw new UsageError(`--sasl-mechanism must be ${SASL_MECHANISMS.join(', ')}, not ${JSON.stringify(mechanism)}`);
  if (upper === 'OAUTHBEARER' || upper === 'AWS_MSK_IAM') return { tls, sasl: tokenSaslFrom(upper, values) };
  if (username === undefined || password === undefined) throw new UsageError(`SASL ${upper} needs --sasl-username and --sasl-password`);
  return { tls, sasl: { mechanism: upper, username, password } };
}

export const TOPIC_OPTION: OptionSpec = { name: 'topic', short: 't', value: 'TOPIC', help: 'the topic' };
export const PARTITION_OPTION: OptionSpec = { name: 'partition', short: 'p', value: 'N', help: 'only this partition' };

export function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
}

export function clientFrom(values: OptionValues): KafkaClient {
  return new KafkaClient(clientOptionsFrom(values));
}

/**
 * The client options -b, --client-id, --timeout, --tls*, --sasl-* and -X's security settings give;
 * `otherProperties` are the -X names the command reads itself.
 */
export function clientOptionsFrom(given: OptionValues, otherProperties: readonly string[] = []): ClientOptions {
  const values = withProperties(given, otherProperties);
  const broker = stringOption(values, 'broker');
  if (broker === undefined) throw new UsageError('-b HOST:PORT is required');
  const timeout = integerArg(stringOption(values, 'timeout'), '--timeout', 0);
  const options: Omit<ConnectOptions, 'host' | 'port'> = {
    clientId: stringOption(values, 'client-id') ?? 'kafka-wire-cli',
    requestTimeoutMs: timeout,
    ...securityFrom(values),
    // ListOffsets (key 2) v3 covers earliest/latest; librdkafka 2.0.2's mock broker mis-encodes v4+.
    maxVersions: { 2: 3 },
  };
  try {
    new KafkaClient({ ...options, bootstrap: broker }); // checks the list
  } catch (error) {
    throw new UsageError(`-b ${broker}: ${(error as Error).message}`); // no HOST:PORT in it
  }
  return { ...options, bootstrap: broker };
}

export function partitionArg(values: OptionValues): number | undefined {
  return integerArg(stringOption(values, 'partition'), '-p (partition)', 0);
}

/** The -t TOPIC that produce and consume need. */
export function requiredTopic(values: OptionValues): string {
  const topic = stringOption(values, 'topic');
  if (!topic) throw new UsageError('-t TOPIC is required');
  return topic;
}
