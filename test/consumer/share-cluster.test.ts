// Share groups (KIP-932) on a three-node Kafka 4.4 cluster with a SASL listener: a ShareConsumer
// reading a topic whose partition leaders are on every node keeps one share session per leader
// (each opened at epoch 0 and continued), and a member signed in with SCRAM reads as well.

import { describe, expect, it } from 'vitest';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { ShareConsumer, type AcknowledgementResult } from '../../src/consumer/share.js';
import { alterShareGroupConfig } from '../../src/admin/share-groups.js';
import { KafkaClient, type ClientOptions } from '../../src/wire/client.js';
import { produceNumbered } from './group-helpers.js';

const ok = await kafkaPeer();

const USER = 'share-user';
const PASSWORD = 'share-secret';

/** Offsets Kafka took as ACCEPT, as "partition@offset". */
const accepted = (results: readonly AcknowledgementResult[]) => results.filter((r) => r.type === 'accept' && r.errorCode === 0).flatMap((r) => r.offsets.map((o) => `${r.partition}@${o}`));

describe.skipIf(!ok)('share groups on three brokers, and over SASL/SCRAM', () => {
  const kafka = useKafka({
    nodes: 3,
    heap: '512m',
    sasl: { users: { [USER]: PASSWORD } },
    config: { 'group.share.heartbeat.interval.ms': '1000', 'group.share.min.heartbeat.interval.ms': '1000' },
  });

  async function setup(topic: string, partitions: number, client: ClientOptions & { bootstrap: string }): Promise<string> {
    const group = `${topic}-g`;
    await kafka().createTopic(topic, { partitions });
    const admin = new KafkaClient(client);
    try { await alterShareGroupConfig(admin, group, { 'share.auto.offset.reset': 'earliest' }); } finally { await admin.close(); }
    return group;
  }

  /** Polls until `total` records were accepted (implicit mode, then a commit); the debug lines kept. */
  async function readAll(c: ShareConsumer, total: number, results: AcknowledgementResult[]): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (new Set(accepted(results)).size < total && Date.now() < deadline) {
      await c.poll(1000);
      await c.commitSync();
    }
  }

  it('reads a topic led by all three brokers with one share session per leader', async () => {
    const topic = 'share-three-leaders';
    const group = await setup(topic, 6, { bootstrap: kafka().bootstrap });
    const total = 600;
    await produceNumbered(kafka().bootstrap, topic, 6, 0, total);
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    const leaders = new Set((await client.topic(topic)).partitions.map((p) => p.leader));
    await client.close();
    expect([...leaders].sort()).toEqual([1, 2, 3]);

    const results: AcknowledgementResult[] = [];
    const fetches: { broker: number; epoch: number }[] = [];
    const c = new ShareConsumer({
      bootstrap: kafka().bootstrap, groupId: group, topics: [topic], maxRecords: 50,
      onAcknowledgement: (r) => results.push(...r),
      debug: (m) => { const x = /^ShareFetch broker (\d+) epoch (-?\d+):/.exec(m); if (x) fetches.push({ broker: Number(x[1]), epoch: Number(x[2]) }); },
    });
    try {
      await readAll(c, total, results);
    } finally {
      await c.close();
    }
    const all = accepted(results);
    expect(new Set(all).size).toBe(total);
    expect(all.length).toBe(total); // none accepted twice
    // Each leader's session: opened once at epoch 0, then continued with rising epochs (the
    // ShareAcknowledges of the commits between the ShareFetches take epochs too).
    for (const broker of [1, 2, 3]) {
      const epochs = fetches.filter((f) => f.broker === broker).map((f) => f.epoch);
      expect(epochs.length, `ShareFetches to broker ${broker}`).toBeGreaterThan(1);
      expect(epochs[0]).toBe(0);
      expect(epochs.filter((e) => e === 0)).toHaveLength(1); // never reset
      expect(epochs.every((e, i) => i === 0 || e > epochs[i - 1]!)).toBe(true);
    }
  }, 120_000);

  it('joins and reads over SASL/SCRAM-SHA-256 (the coordinator and every leader signed in)', async () => {
    const sasl = { bootstrap: kafka().listeners.SASL_PLAINTEXT!, sasl: { mechanism: 'SCRAM-SHA-256' as const, username: USER, password: PASSWORD } };
    const topic = 'share-sasl';
    const group = await setup(topic, 3, sasl);
    const total = 90;
    await produceNumbered(kafka().bootstrap, topic, 3, 0, total);
    const results: AcknowledgementResult[] = [];
    const c = new ShareConsumer({ ...sasl, groupId: group, topics: [topic], onAcknowledgement: (r) => results.push(...r) });
    try {
      await readAll(c, total, results);
      expect(c.memberEpoch).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
    expect(new Set(accepted(results)).size).toBe(total);
    expect(accepted(results)).toHaveLength(total);
    // A wrong password is refused with Kafka's error, not a hang.
    const wrong = new ShareConsumer({ ...sasl, sasl: { ...sasl.sasl, password: 'not-it' }, groupId: group, topics: [topic] });
    try {
      await expect(wrong.poll(5000)).rejects.toThrow(/SASL_AUTHENTICATION_FAILED|authentication/i);
    } finally {
      await wrong.close().catch(() => {});
    }
  }, 120_000);
});
