// Kafka's error names: the generated table (src/wire/error-names.ts) is every constant of Kafka's
// own org.apache.kafka.common.protocol.Errors enum, code for code and name for name, as the
// kafka-clients jar of the release kafka/pom.xml names reports them (run through kafka/src's
// JavaAdmin); and kafkaErrorName answers with them.
import { describe, expect, it } from 'vitest';
import { KAFKA_ERROR_NAMES } from '../../src/wire/error-names.js';
import { kafkaErrorName } from '../../src/wire/errors.js';
import { kafkaJava, kafkaPeer } from '../helpers/kafka.js';

const ok = await kafkaPeer();

describe('kafkaErrorName', () => {
  it('names the codes the old short table missed', () => {
    expect(kafkaErrorName(36)).toBe('TOPIC_ALREADY_EXISTS (36)');
    const missed = [15, 16, 25, 27, 30, 36, 37, 39, 41, 47, 69, 79];
    expect(missed.map(kafkaErrorName).filter((n) => n.startsWith('error '))).toEqual([]);
    expect(kafkaErrorName(41)).toBe('NOT_CONTROLLER (41)');
    expect(kafkaErrorName(-1)).toBe('UNKNOWN_SERVER_ERROR (-1)');
  });

  it('says "error N" for a code Kafka does not define', () => {
    expect(kafkaErrorName(9999)).toBe('error 9999');
  });
});

describe.skipIf(!ok)('the error table against Kafka\'s Errors enum', () => {
  it('has every code Kafka defines, with Kafka\'s name, and nothing else', async () => {
    const r = await kafkaJava('dev.kafkawire.JavaAdmin', ['errors'], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const kafka = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { code: number; name: string });
    expect(kafka.length).toBeGreaterThan(130);
    expect([...KAFKA_ERROR_NAMES].sort((a, b) => a[0] - b[0])).toEqual(kafka.map(({ code, name }) => [code, name]).sort((a, b) => (a[0] as number) - (b[0] as number)));
  }, 150_000);
});
