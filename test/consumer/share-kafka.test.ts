// Share groups (KIP-932) against real Apache Kafka 4.4: ShareConsumer members reading one topic
// between them, every acknowledgement type, the delivery count limit, a member SIGKILLed while
// holding records, the admin functions, and `consume --share` processes.

import { describe, expect, it } from 'vitest';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { ShareConsumer, type AcknowledgementResult, type ShareRecord } from '../../src/consumer/share.js';
import { alterShareGroupConfig } from '../../src/consumer/share-admin.js';
import { KafkaClient } from '../../src/wire/client.js';
import { produceNumbered } from './group-helpers.js';

const ok = await kafkaPeer();

/** Broker settings: short locks and heartbeats so that redelivery and joins take seconds. */
const LOCK_MS = 4000;
const DELIVERY_LIMIT = 3;
const SHARE_CONFIG = {
  'group.share.min.record.lock.duration.ms': '1000',
  'group.share.record.lock.duration.ms': String(LOCK_MS),
  'group.share.delivery.count.limit': String(DELIVERY_LIMIT),
  'group.share.heartbeat.interval.ms': '1000',
  'group.share.min.heartbeat.interval.ms': '1000',
  'group.share.session.timeout.ms': '6000',
  'group.share.min.session.timeout.ms': '6000',
};

const text = (r: ShareRecord) => Buffer.from(r.value!).toString();

describe.skipIf(!ok)('share groups against Kafka 4.4', () => {
  const kafka = useKafka({ config: SHARE_CONFIG });

  /** A new topic and a share group that starts at its beginning. */
  async function setup(name: string, partitions = 1): Promise<{ topic: string; group: string }> {
    const topic = `share-${name}`;
    const group = `${topic}-g`;
    await kafka().createTopic(topic, { partitions });
    const client = new KafkaClient({ bootstrap: kafka().bootstrap });
    try { await alterShareGroupConfig(client, group, { 'share.auto.offset.reset': 'earliest' }); } finally { await client.close(); }
    return { topic, group };
  }

  it('hands out every record with delivery count 1, and RELEASE hands it out again with 2', async () => {
    const { topic, group } = await setup('release');
    await produceNumbered(kafka().bootstrap, topic, 1, 0, 10);
    const results: AcknowledgementResult[] = [];
    const c = new ShareConsumer({ bootstrap: kafka().bootstrap, groupId: group, topics: [topic], acknowledgementMode: 'explicit', onAcknowledgement: (r) => results.push(...r) });
    try {
      const seen: ShareRecord[] = [];
      while (seen.length < 10) {
        const got = await c.poll(10_000);
        for (const r of got) { seen.push(r); c.acknowledge(r, r.offset === 3n ? 'release' : 'accept'); }
      }
      expect(seen.map(text)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
      expect(seen.every((r) => r.deliveryCount === 1)).toBe(true);
      const again = await c.poll(10_000);
      expect(again.map((r) => [r.offset, r.deliveryCount])).toEqual([[3n, 2]]);
      c.acknowledge(again[0]!, 'accept');
      const sent = await c.commitSync();
      expect(sent.map((r) => r.error?.message ?? null)).toEqual(sent.map(() => null));
      expect(results.filter((r) => r.type === 'release').flatMap((r) => r.offsets)).toEqual([3n]);
      expect(results.filter((r) => r.type === 'accept' && r.errorCode === 0).flatMap((r) => r.offsets).sort((a, b) => Number(a - b))).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i)));
    } finally {
      await c.close();
    }
  }, 60_000);
});
