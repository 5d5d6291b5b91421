// KIP-714 against Kafka 4.4: a broker with a client telemetry receiver (kafka/'s TelemetryRecorder,
// which parses each push with the OTLP classes kafka-clients ships and writes it to a file) and a
// client-metrics subscription receives kafka-wire's producer, consumer and admin metrics under the
// subscribed names, the producer's record count among them, and a terminating push at close;
// with enableMetricsPush: false the client never asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { Producer } from '../../src/producer/index.js';
import { Consumer } from '../../src/consumer/index.js';
import { createAdmin, type Admin } from '../../src/admin/index.js';
import { requestChannel, type RequestTrace } from '../../src/observe/channels.js';
import { ApiKey } from '../../src/generated/types.js';
import { until } from '../consumer/group-helpers.js';

const ok = await kafkaPeer();
const file = join(mkdtempSync(join(tmpdir(), 'kw-telemetry-')), 'pushes.jsonl');

interface Push { clientId: string; clientInstanceId: string; terminating: boolean; error?: string; metrics: { name: string; kind: string; temporality?: string; points: { attributes: Record<string, string>; value: number }[] }[] }
const pushes = (clientId: string): Push[] => !existsSync(file) ? []
  : readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Push).filter((p) => p.clientId === clientId);

const SUBSCRIBED = ['org.apache.kafka.producer.record.send', 'org.apache.kafka.producer.request.latency', 'org.apache.kafka.consumer.fetch.manager.records', 'org.apache.kafka.admin.client.request'];

describe.skipIf(!ok)('KIP-714 client metrics pushed to Kafka 4.4', () => {
  const kafka = useKafka({ config: { 'metric.reporters': 'dev.kafkawire.TelemetryRecorder', 'kafkawire.telemetry.file': file } });
  let admin: Admin;
  beforeAll(async () => {
    admin = await createAdmin({ bootstrap: kafka().bootstrap });
    await admin.alterConfigs([{ type: 'client-metrics', name: 'kw-sub', changes: [
      { name: 'metrics', value: SUBSCRIBED.join(',') }, { name: 'interval.ms', value: '500' }, { name: 'match', value: 'client_id=kw-telemetry-.*' },
    ] }]);
    await kafka().createTopic('kw-telemetry', { partitions: 1 });
  });
  afterAll(async () => { await admin?.close(); });

  it('pushes the subscribed producer and consumer metrics, OTLP-encoded, and a terminating push at close', async () => {
    const { bootstrap } = kafka();
    const producer = new Producer({ bootstrap, clientId: 'kw-telemetry-producer', lingerMs: 0 });
    for (let i = 0; i < 5; i++) await producer.send('kw-telemetry', { key: `k${i}`, value: `v${i}` });
    expect(await until(() => pushes('kw-telemetry-producer').some((p) => p.metrics.some((m) => m.name === 'org.apache.kafka.producer.record.send.total')), 20_000)).toBe(true);
    await producer.close();
    const sent = pushes('kw-telemetry-producer');
    expect(sent.every((p) => p.error === undefined)).toBe(true);
    const names = new Set(sent.flatMap((p) => p.metrics.map((m) => m.name)));
    // Only what the subscription asks for, and what it asks for is there.
    for (const n of names) expect(SUBSCRIBED.some((s) => n.startsWith(s))).toBe(true);
    expect([...names].sort()).toEqual(expect.arrayContaining([
      'org.apache.kafka.producer.record.send.rate', 'org.apache.kafka.producer.record.send.total',
      'org.apache.kafka.producer.request.latency.avg', 'org.apache.kafka.producer.request.latency.max',
    ]));
    // The count: a monotonic sum, delta or cumulative as the broker asked; either way it adds up to 5.
    const totals = sent.flatMap((p) => p.metrics.filter((m) => m.name === 'org.apache.kafka.producer.record.send.total'));
    expect(totals.every((m) => m.kind === 'sum')).toBe(true);
    const values = totals.map((m) => m.points[0]!.value);
    expect(totals[0]!.temporality === 'AGGREGATION_TEMPORALITY_DELTA' ? values.reduce((a, b) => a + b, 0) : values.at(-1)).toBe(5);
    expect(totals[0]!.points[0]!.attributes).toEqual({ client_id: 'kw-telemetry-producer' });
    expect(sent.at(-1)!.terminating).toBe(true);
    expect(new Set(sent.map((p) => p.clientInstanceId)).size).toBe(1);

    const consumer = new Consumer({ bootstrap, clientId: 'kw-telemetry-consumer', assign: [{ topic: 'kw-telemetry' }], resetPolicy: 'earliest' });
    let read = 0;
    for await (const batch of consumer) { read += batch.recordCount; if (read >= 5) break; }
    expect(await until(() => pushes('kw-telemetry-consumer').some((p) => p.metrics.some((m) => m.name === 'org.apache.kafka.consumer.fetch.manager.records.lag')), 20_000)).toBe(true);
    await consumer.close();
    const got = pushes('kw-telemetry-consumer');
    const lag = got.flatMap((p) => p.metrics.filter((m) => m.name === 'org.apache.kafka.consumer.fetch.manager.records.lag')).at(-1)!;
    expect(lag.kind).toBe('gauge');
    expect(lag.points).toEqual([expect.objectContaining({ attributes: { client_id: 'kw-telemetry-consumer', topic: 'kw-telemetry', partition: '0' }, value: 0 })]);
    expect(new Set(got.flatMap((p) => p.metrics.map((m) => m.name)))).toContain('org.apache.kafka.consumer.fetch.manager.records.consumed.total');
  }, 90_000);

  it('pushes the admin client\'s metrics once it has asked something, and a terminating push at close', async () => {
    const other = await createAdmin({ bootstrap: kafka().bootstrap, clientId: 'kw-telemetry-admin' });
    await other.listTopics();
    expect(await until(() => pushes('kw-telemetry-admin').some((p) => p.metrics.some((m) => m.name === 'org.apache.kafka.admin.client.request.total')), 20_000)).toBe(true);
    await other.close();
    const sent = pushes('kw-telemetry-admin');
    expect(sent.every((p) => p.error === undefined)).toBe(true);
    for (const n of new Set(sent.flatMap((p) => p.metrics.map((m) => m.name)))) expect(n.startsWith('org.apache.kafka.admin.client.request')).toBe(true);
    expect(sent.at(-1)!.terminating).toBe(true);
  }, 60_000);

  it('asks nothing with enableMetricsPush: false', async () => {
    const asked: string[] = [];
    const stop = requestChannel.subscribe({ start: (m: RequestTrace) => { if (m.clientId === 'kw-telemetry-off' && m.apiKey === ApiKey.GetTelemetrySubscriptions) asked.push(m.apiName); } });
    try {
      const producer = new Producer({ bootstrap: kafka().bootstrap, clientId: 'kw-telemetry-off', lingerMs: 0, enableMetricsPush: false });
      await producer.send('kw-telemetry', { value: 'x' });
      await new Promise((r) => setTimeout(r, 1500)); // three push intervals of the subscription
      await producer.close();
    } finally {
      stop();
    }
    expect(asked).toEqual([]);
    expect(pushes('kw-telemetry-off')).toEqual([]);
  }, 30_000);
});
