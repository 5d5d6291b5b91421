// The CLI's token mechanisms from -X (src/cli/sasl-properties.ts through network.ts): librdkafka's
// and Kafka's names onto the library's SASL options, each missing piece a usage error naming what
// to add, AWS credentials from the environment or a profile file, and no secret in any message
// or in --help.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOptionsFrom } from '../../src/cli/client-options.js';
import { withoutSecret } from '../../src/cli/sasl-properties.js';
import { runCli } from '../wire/cli-io.js';

const SECRET = 'cli-secret-3b9d';
const options = (...x: string[]) => clientOptionsFrom({ broker: '127.0.0.1:9092', property: x.flatMap((p) => [p]) });
const savedEnv = { ...process.env };
afterEach(() => {
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_PROFILE', 'AWS_REGION']) {
    if (savedEnv[k] === undefined) delete process.env[k]; else process.env[k] = savedEnv[k];
  }
});

describe('-X for OAUTHBEARER and AWS_MSK_IAM', () => {
  it('maps OIDC client credentials and extensions', () => {
    expect(options('sasl.mechanism=OAUTHBEARER', 'sasl.oauthbearer.method=oidc', 'sasl.oauthbearer.token.endpoint.url=https://idp/token',
      'sasl.oauthbearer.client.id=app', `sasl.oauthbearer.client.secret=${SECRET}`, 'sasl.oauthbearer.scope=kafka read',
      'sasl.oauthbearer.extensions=logicalCluster=lkc-1,identityPoolId=pool-2').sasl).toEqual({
      mechanism: 'OAUTHBEARER',
      oidc: { tokenEndpointUrl: 'https://idp/token', clientId: 'app', clientSecret: SECRET, scope: 'kafka read' },
      extensions: { logicalCluster: 'lkc-1', identityPoolId: 'pool-2' },
    });
  });

  it('maps librdkafka\'s unsecured sasl.oauthbearer.config', () => {
    expect(options('sasl.mechanism=OAUTHBEARER', 'sasl.oauthbearer.config=principal=alice scope=a,b lifeSeconds=60 extension_traceId=t1').sasl).toEqual({
      mechanism: 'OAUTHBEARER', unsecured: { principal: 'alice', scope: ['a', 'b'], lifetimeMs: 60_000 }, extensions: { traceId: 't1' },
    });
  });

  it('refuses what is missing, naming the property and never the secret', () => {
    const message = (...x: string[]) => { try { options(...x); return ''; } catch (e) { return (e as Error).message; } };
    expect(message('sasl.mechanism=OAUTHBEARER', 'sasl.oauthbearer.method=oidc', `sasl.oauthbearer.client.secret=${SECRET}`))
      .toMatch(/needs -X sasl\.oauthbearer\.token\.endpoint\.url, sasl\.oauthbearer\.client\.id/);
    expect(message('sasl.mechanism=OAUTHBEARER', 'sasl.oauthbearer.config=scope=x')).toMatch(/needs principal=NAME/);
    expect(message('sasl.mechanism=OAUTHBEARER')).toMatch(/sasl\.oauthbearer\.method=oidc/);
    expect(message('sasl.mechanism=AWS_MSK_IAM')).toMatch(/aws\.region/);
    expect(message('sasl.mechanism=OAUTHBEARER', 'sasl.oauthbearer.method=oidc', `sasl.oauthbearer.client.secret=${SECRET}`)).not.toContain(SECRET);
  });

  it('takes AWS credentials from the environment, else a profile\'s static keys', () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKENV';
    process.env.AWS_SECRET_ACCESS_KEY = SECRET;
    expect(options('sasl.mechanism=AWS_MSK_IAM', 'aws.region=eu-west-1').sasl).toEqual({
      mechanism: 'AWS_MSK_IAM', region: 'eu-west-1', credentials: { accessKeyId: 'AKENV', secretAccessKey: SECRET, sessionToken: undefined },
    });
    delete process.env.AWS_ACCESS_KEY_ID;
    const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-aws-'));
    try {
      process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
      writeFileSync(process.env.AWS_SHARED_CREDENTIALS_FILE, `[default]\naws_access_key_id=AKD\naws_secret_access_key=${SECRET}\n[dev]\naws_access_key_id=AKDEV\naws_secret_access_key=${SECRET}\naws_session_token=T\n`);
      process.env.AWS_REGION = 'us-east-2';
      expect(options('sasl.mechanism=AWS_MSK_IAM').sasl).toMatchObject({ region: 'us-east-2', credentials: { accessKeyId: 'AKD' } });
      expect(options('sasl.mechanism=AWS_MSK_IAM', 'aws.profile=dev').sasl).toMatchObject({ credentials: { accessKeyId: 'AKDEV', sessionToken: 'T' } });
      let error = '';
      try { options('sasl.mechanism=AWS_MSK_IAM', 'aws.profile=prod'); } catch (e) { error = (e as Error).message; }
      expect(error).toMatch(/profile "prod" has no static keys/);
      expect(error).not.toContain(SECRET);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hides secret -X values where settings are echoed; an unknown -X lists the token properties', async () => {
    expect(withoutSecret(`sasl.password=${SECRET}`)).toBe('sasl.password=***');
    expect(withoutSecret(`sasl.oauthbearer.client.secret=${SECRET}`)).toBe('sasl.oauthbearer.client.secret=***');
    expect(withoutSecret('linger.ms=5')).toBe('linger.ms=5');
    const unknown = await runCli('metadata', ['-b', '127.0.0.1:1', '-X', `sasl.oauthbearer.secret=${SECRET}`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/sasl\.oauthbearer\.token\.endpoint\.url, sasl\.oauthbearer\.client\.id, .*aws\.region/);
  });
});
