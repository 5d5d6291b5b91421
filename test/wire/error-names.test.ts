// The error-name table against Kafka's own: every code it names has that name in the Errors enum
// of kafka-clients at the catalogue's release (Maven gives its classpath through
// kafka/schemas/pom.xml), and the codes Kafka 4.4 added are named. Java lists the enum; nothing of
// Kafka's is stored here.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kafkaErrorName } from '../../src/wire/errors.js';
import { KAFKA_ERROR_NAMES } from '../../src/wire/error-names.js';
import { kafkaJava, kafkaPeer } from '../helpers/kafka.js';
import { kafkaRelease } from '../../src/generated/catalogue.js';
import { hasCommand, peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';

const ok = peer('Java and Maven', hasCommand('java') && hasCommand('mvn') && kafkaRelease !== null,
  'install Java 17 and Maven (they resolve kafka-clients into ~/.m2)');

/** Kafka's error codes and names, as its Errors enum lists them. */
function kafkaErrors(): Map<number, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-errors-'));
  try {
    const source = path.join(dir, 'ListErrors.java');
    fs.writeFileSync(source, [
      'public class ListErrors {',
      '  public static void main(String[] args) {',
      '    for (org.apache.kafka.common.protocol.Errors e : org.apache.kafka.common.protocol.Errors.values())',
      '      System.out.println(e.code() + " " + e.name());',
      '  }',
      '}',
    ].join('\n'));
    const classpath = path.join(dir, 'classpath');
    execFileSync('mvn', ['-q', '-B', '-f', path.join(repoRoot, 'kafka', 'schemas', 'pom.xml'), 'dependency:build-classpath',
      `-Dkafka.version=${kafkaRelease}`, `-Dmdep.outputFile=${classpath}`], { stdio: 'ignore', timeout: 300_000 });
    const out = execFileSync('java', ['-cp', fs.readFileSync(classpath, 'utf8').trim(), source], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 });
    return new Map(out.trim().split('\n').map((line) => {
      const [code, name] = line.trim().split(' ');
      return [Number(code), name];
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.runIf(ok)('Kafka error names', () => {
  it('name each code as Kafka\'s Errors does, including Kafka 4.4\'s 134-136', () => {
    const errors = kafkaErrors();
    expect(errors.get(35)).toBe('UNSUPPORTED_VERSION');
    let named = 0;
    for (const [code, name] of errors) {
      const ours = kafkaErrorName(code);
      if (ours === `error ${code}`) continue;
      expect(ours).toBe(`${name} (${code})`);
      named++;
    }
    expect(named).toBeGreaterThan(20);
    for (const code of [134, 135, 136]) expect(kafkaErrorName(code)).toBe(`${errors.get(code)} (${code})`);
    // A code Kafka does not have stays a number.
    const unknown = Math.max(...errors.keys()) + 1;
    expect(kafkaErrorName(unknown)).toBe(`error ${unknown}`);
  }, 300_000);
});

describe('kafkaErrorName, from the generated table', () => {
  it('names the codes the old short table missed', () => {
    expect(kafkaErrorName(36)).toBe('TOPIC_ALREADY_EXISTS (36)');
    const missed = [15, 16, 25, 27, 30, 36, 37, 39, 41, 47, 69, 79];
    expect(missed.map(kafkaErrorName).filter((n) => n.startsWith('error '))).toEqual([]);
    expect(kafkaErrorName(41)).toBe('NOT_CONTROLLER (41)');
    expect(kafkaErrorName(-1)).toBe('UNKNOWN_SERVER_ERROR (-1)');
    expect(kafkaErrorName(9999)).toBe('error 9999');
  });
});

const kafkaOk = await kafkaPeer();

describe.skipIf(!kafkaOk)('the generated error table against the Errors enum of kafka/pom.xml\'s release', () => {
  it('has every code Kafka defines, with Kafka\'s name, and nothing else', async () => {
    const r = await kafkaJava('dev.kafkawire.JavaAdmin', ['errors'], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const kafka = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { code: number; name: string });
    expect(kafka.length).toBeGreaterThan(130);
    expect([...KAFKA_ERROR_NAMES].sort((a, b) => a[0] - b[0])).toEqual(kafka.map(({ code, name }) => [code, name]).sort((a, b) => (a[0] as number) - (b[0] as number)));
  }, 150_000);
});
