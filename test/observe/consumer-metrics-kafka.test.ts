// The consumer's and admin's metrics and the consumer's diagnostics channels against Kafka 4.4:
// after consuming a known count the counters equal it, and a partition's records-lag equals the
// broker's end offset minus the group's committed offset, as kafka-wire's admin (ListOffsets,
// OffsetFetch) and Kafka's own Java Admin (listOffsets, listConsumerGroupOffsets) both report.
// kafka-wire:fetch and kafka-wire:group give start/end for each batch and group event, and nothing
// once unsubscribed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaPeer, useKafka } from '../helpers/kafka.js';
import { Consumer } from '../../src/consumer/index.js';
import { createAdmin, type Admin } from '../../src/admin/index.js';
import { produceNumbered, until } from '../consumer/group-helpers.js';
import { javaAdmin } from '../admin/java-admin.js';
import { fetchChannel, groupChannel, type FetchTrace, type GroupTrace } from '../../src/observe/channels.js';
import type { MetricValue } from '../../src/observe/metrics.js';

const ok = await kafkaPeer();

const value = (values: MetricValue[], name: string, tags: Record<string, string> = {}) =>
  values.find((v) => v.name === name && Object.entries(tags).every(([k, t]) => v.tags[k] === t))?.value;

describe.skipIf(!ok)('consumer and admin metrics against Kafka 4.4, lag checked by the admin and Kafka\'s Java Admin', () => {
  const kafka = useKafka();
  let admin: Admin;
  beforeAll(async () => { admin = await createAdmin({ bootstrap: kafka().bootstrap, clientId: 'metrics-admin' }); });
  afterAll(async () => { await admin?.close(); });

  it('counts what was consumed, reports lag as end offset minus position, and publishes fetch and group traces', async () => {
    const { bootstrap } = kafka();
    await kafka().createTopic('m-lag', { partitions: 1 });
    await produceNumbered(bootstrap, 'm-lag', 1, 0, 10);
    const fetches: string[] = [];
    const groups: string[] = [];
    const stopFetch = fetchChannel.subscribe({
      start: (m: FetchTrace) => fetches.push(`start ${m.topic}/${m.partition} ${m.records} ${m.bytes > 0} ${m.groupId}`),
      end: (m: FetchTrace) => fetches.push(`end ${m.topic}/${m.partition}`),
    });
    const stopGroup = groupChannel.subscribe({
      start: (m: GroupTrace) => groups.push(`start ${m.event} ${m.groupId} ${m.memberId !== ''} ${m.partitions.join(',')}`),
      end: (m: GroupTrace) => groups.push(`end ${m.event}`),
      asyncEnd: (m: GroupTrace & { error?: unknown }) => groups.push(`asyncEnd ${m.event}${m.error ? ' error' : ''}`),
    });
    const consumer = new Consumer({ bootstrap, clientId: 'metrics-consumer', groupId: 'm-group', topics: ['m-lag'], resetPolicy: 'earliest', autoCommit: 'manual', groupProtocol: 'consumer' });
    let seen = 0;
    try {
      for await (const batch of consumer) {
        seen += batch.recordCount;
        consumer.markFinished(batch);
        if (seen >= 10) break;
      }
      await consumer.commit();
      // Five more: the fetcher reads them into its buffer, the app takes none, so the position stays at 10.
      await produceNumbered(bootstrap, 'm-lag', 1, 10, 15);
      expect(await until(() => value(consumer.metrics(), 'records-lag', { topic: 'm-lag', partition: '0' }) === 5, 20_000)).toBe(true);
      const m = consumer.metrics();
      const [end] = await admin.listOffsets([{ topic: 'm-lag', partition: 0, spec: 'latest' }]);
      const [committed] = await admin.fetchOffsets('m-group', [{ topic: 'm-lag', partitions: [0] }]);
      const [javaEnd, javaCommitted] = await javaAdmin(bootstrap, [{ op: 'listOffsets', topic: 'm-lag', partition: 0, spec: 'latest' }, { op: 'listConsumerGroupOffsets', group: 'm-group' }]);
      expect(end!.offset).toBe(15n);
      expect((committed as { offset: bigint }).offset).toBe(10n);
      expect(javaEnd.offset).toBe('15');
      expect(javaCommitted['m-lag-0']).toBe('10');
      expect(value(m, 'records-lag', { topic: 'm-lag', partition: '0' })).toBe(Number(end!.offset - (committed as { offset: bigint }).offset));
      expect(value(m, 'records-lag', { topic: 'm-lag', partition: '0' })).toBe(Number(BigInt(javaEnd.offset) - BigInt(javaCommitted['m-lag-0'])));
      expect(value(m, 'records-lag-max')).toBe(5);
      // The counters: what was handed to the app.
      expect(value(m, 'records-consumed-total')).toBe(10);
      expect(value(m, 'bytes-consumed-total')).toBeGreaterThan(10 * 2);
      // Kafka's Rate: over at least one 30 s window (so 10/30 while the run is younger than that).
      expect(value(m, 'records-consumed-rate')).toBeGreaterThan(0);
      expect(value(m, 'records-consumed-rate')).toBeLessThanOrEqual(10 / 30 + 1e-9);
      expect(value(m, 'fetch-total')).toBeGreaterThanOrEqual(1);
      expect(value(m, 'fetch-latency-max')).toBeGreaterThanOrEqual(value(m, 'fetch-latency-avg')!);
      expect(value(m, 'commit-total')).toBe(1);
      expect(value(m, 'commit-latency-avg')).toBeGreaterThan(0);
      expect(value(m, 'assigned-partitions')).toBe(1);
      expect(value(m, 'rebalance-total')).toBe(1);
      expect(value(m, 'rebalance-latency-max')).toBeGreaterThan(0);
      expect(value(m, 'connection-count')).toBeGreaterThanOrEqual(2); // bootstrap and the coordinator at least
      expect(value(m, 'connection-creation-total')).toBe(value(m, 'connection-count')! + value(m, 'connection-close-total')!);
      expect(value(m, 'request-total')).toBeGreaterThan(3);
      expect(value(m, 'request-latency-max')).toBeGreaterThan(0);
      expect(new Set(m.map((v) => v.group))).toEqual(new Set(['consumer-fetch-manager-metrics', 'consumer-coordinator-metrics', 'consumer-metrics']));
      // Every name the snapshot has is listed.
      const listed = new Set(consumer.metricNames().map((n) => `${n.group}/${n.name}`));
      for (const v of m) expect(listed.has(`${v.group}/${v.name}`)).toBe(true);
    } finally {
      await consumer.close();
    }
    stopFetch();
    stopGroup();
    // A consumer run after unsubscribing publishes nothing.
    const before = [fetches.length, groups.length];
    const quiet = new Consumer({ bootstrap, groupId: 'm-quiet', topics: ['m-lag'], resetPolicy: 'earliest', groupProtocol: 'consumer' });
    for await (const batch of quiet) { quiet.markFinished(batch); break; }
    await quiet.close();
    expect([fetches.length, groups.length]).toEqual(before);

    // Each batch handed out: start and end at once, with its records; the record counts add up to what the app took.
    const starts = fetches.filter((f) => f.startsWith('start'));
    expect(starts.length).toBe(fetches.filter((f) => f.startsWith('end')).length);
    expect(starts.reduce((n, f) => n + Number(f.split(' ')[2]), 0)).toBe(10);
    expect(starts.every((f) => f.endsWith(' true m-group') && f.includes('m-lag/0'))).toBe(true);
    // The group's life: joined and assigned m-lag-0, the commit of it, then revoked and left at close.
    expect(groups).toEqual([
      'start join m-group true ', 'end join',
      'start assign m-group true m-lag-0', 'end assign', 'asyncEnd assign',
      'start commit m-group true m-lag-0', 'end commit', 'asyncEnd commit',
      'start leave m-group true ', 'end leave',
      'start revoke m-group true m-lag-0', 'end revoke', 'asyncEnd revoke',
      'asyncEnd leave',
    ]);

    const a = admin.metrics();
    expect(value(a, 'request-total')).toBeGreaterThanOrEqual(2);
    expect(value(a, 'request-latency-avg')).toBeGreaterThan(0);
    expect(value(a, 'connection-count')).toBeGreaterThanOrEqual(1);
    expect(new Set(a.map((v) => v.group))).toEqual(new Set(['admin-client-metrics']));
  }, 120_000);
});
