// kafkajs's `sasl` and `ssl` options, run with kafkajs 2.2.4 and with kafka-wire/kafkajs against
// one Kafka 4.4 with a SASL_PLAINTEXT and an SSL listener: for PLAIN, SCRAM-SHA-256 and
// SCRAM-SHA-512 a producer writes and a consumer reads, a wrong password is refused; TLS with the
// cluster's CA works. The two modules must agree.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as ours from '../../src/kafkajs/index.js';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';

const require = createRequire(import.meta.url);
const kafkajs = require('kafkajs') as typeof import('kafkajs');
type Module = typeof ours;
const MODULES: [string, Module][] = [['kafkajs', kafkajs as unknown as Module], ['kafka-wire', ours]];
const USER = 'carol';
const PASSWORD = 'carol-secret';
const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

const ok = await kafkaPeer();

describe.skipIf(!ok)('kafkajs\'s sasl and ssl options, with kafkajs and with kafka-wire/kafkajs', () => {
  const cluster = useKafka({ sasl: { users: { [USER]: PASSWORD } }, ssl: true });
  let serial = 0;

  /** Writes one message and reads it back with one module's client; the outcome as text. */
  async function roundTrip(mod: Module, config: ours.KafkaConfig, label: string): Promise<string> {
    const topic = `auth-${label}-${++serial}`;
    await cluster().createTopic(topic, { partitions: 1 });
    const kafka = new mod.Kafka({ clientId: 'auth', logLevel: mod.logLevel.NOTHING, ...config });
    const producer = kafka.producer();
    try {
      await producer.connect();
      await producer.send({ topic, messages: [{ value: `over ${label}` }] });
    } catch (e) {
      const secret = (config.sasl as { password?: string } | undefined)?.password;
      if (secret !== undefined && `${(e as Error).message} ${(e as Error).stack}`.includes(secret)) return 'refused, naming the password';
      return `refused: ${(e as Error).name}`;
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
    const consumer = kafka.consumer({ groupId: `${topic}-g`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let value = '';
    await consumer.run({ eachMessage: async ({ message }) => { value = String(message.value); } });
    const end = Date.now() + 30_000;
    while (value === '' && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    await consumer.disconnect();
    return value;
  }

  for (const mechanism of MECHANISMS) {
    it(`sasl ${mechanism}: the right password writes and reads, a wrong one is refused`, async () => {
      const out: Record<string, { good: string; bad: string }> = {};
      for (const [name, mod] of MODULES) {
        const brokers = [cluster().listeners.SASL_PLAINTEXT!];
        out[name] = {
          good: await roundTrip(mod, { brokers, sasl: { mechanism, username: USER, password: PASSWORD } }, `${name}-${mechanism}`),
          bad: await roundTrip(mod, { brokers, sasl: { mechanism, username: USER, password: 'wrong' } }, `${name}-${mechanism}-bad`),
        };
      }
      expect(out['kafka-wire']).toEqual({ good: `over kafka-wire-${mechanism}`, bad: 'refused: KafkaJSSASLAuthenticationError' });
      expect(out.kafkajs).toEqual({ good: `over kafkajs-${mechanism}`, bad: 'refused: KafkaJSSASLAuthenticationError' });
    }, 90_000);
  }

  it('ssl with the cluster\'s CA writes and reads; an unsupported mechanism is refused with KafkaJSNotImplemented', async () => {
    const out: Record<string, string> = {};
    for (const [name, mod] of MODULES) out[name] = await roundTrip(mod, { brokers: [cluster().listeners.SSL!], ssl: { ca: [cluster().ssl!.caPem] } }, `${name}-ssl`);
    expect(out).toEqual({ kafkajs: 'over kafkajs-ssl', 'kafka-wire': 'over kafka-wire-ssl' });
    const kafka = new ours.Kafka({ brokers: [cluster().listeners.SASL_PLAINTEXT!], sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: 't' }) }, logLevel: ours.logLevel.NOTHING });
    await expect(kafka.producer().connect()).rejects.toBeInstanceOf(ours.KafkaJSNotImplemented);
  }, 90_000);
});
