// `kafka-wire metadata`: the cluster's brokers, topics and partitions, as kcat -L prints them, or JSON.
import { kafkaErrorName } from '../wire/errors.js';
import { ZERO_UUID } from '../wire/versions.js';
import type { MetadataResponse } from '../generated/types.js';
import type { Command, Io } from './command.js';
import type { ParsedArgs } from './options.js';
import { clientFrom, NETWORK_OPTIONS, noPositionals, TOPIC_OPTION } from './client-options.js';

export const metadata: Command = {
  name: 'metadata',
  summary: 'the cluster\'s brokers, topics and partitions, as kcat -L prints them (or JSON)',
  synopsis: ['-b HOST:PORT [-t TOPIC]... [--json]'],
  options: [
    ...NETWORK_OPTIONS,
    { ...TOPIC_OPTION, multiple: true, help: 'only these topics (repeatable); exit 1 if one has an error' },
    { name: 'json', short: 'J', help: 'JSON: {clusterId, controllerId, brokers, topics} sorted by id and name' },
  ],
  run: runMetadata,
};

async function runMetadata({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  noPositionals(positionals);
  const client = clientFrom(values);
  try {
    const topics = values.topic as string[] | undefined;
    const md = await client.metadata(topics ?? null, false);
    if (values.json) io.stdout.write(JSON.stringify(metadataJson(md), null, 2) + '\n');
    else io.stdout.write(metadataText(md, topics, await client.anyConnection()));
    return topics && md.topics.some((t) => t.errorCode !== 0) ? 1 : 0;
  } finally {
    await client.close();
  }
}

function metadataJson(md: MetadataResponse): object {
  return {
    clusterId: md.clusterId ?? null,
    controllerId: md.controllerId ?? -1,
    brokers: md.brokers.map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack ?? null }))
      .sort((a, b) => a.nodeId - b.nodeId),
    topics: md.topics.map((t) => ({
      name: t.name,
      ...(t.topicId && t.topicId !== ZERO_UUID ? { topicId: t.topicId } : {}),
      ...(t.isInternal ? { isInternal: true } : {}),
      errorCode: t.errorCode,
      ...(t.errorCode ? { error: kafkaErrorName(t.errorCode) } : {}),
      partitions: t.partitions.map((p) => ({
        partition: p.partitionIndex, leader: p.leaderId, replicas: p.replicaNodes, isr: p.isrNodes,
        ...(p.errorCode ? { errorCode: p.errorCode, error: kafkaErrorName(p.errorCode) } : {}),
      })).sort((a, b) => a.partition - b.partition),
    })).sort((a, b) => String(a.name).localeCompare(String(b.name))),
  };
}

/**
 * kcat -L's text, line for line: who answered, the brokers (the controller marked), each topic
 * with its partitions' leader, replicas and in-sync replicas; errors by Kafka's names.
 */
export function metadataText(md: MetadataResponse, topics: string[] | undefined, answered: { host: string; port: number }): string {
  const from = md.brokers.find((b) => b.host === answered.host && b.port === answered.port);
  let out = `Metadata for ${topics === undefined ? 'all topics' : topics.join(', ')} `
    + `(from broker ${from?.nodeId ?? -1}: ${answered.host}:${answered.port}/${from?.nodeId ?? 'bootstrap'}):\n`;
  out += ` ${md.brokers.length} brokers:\n`;
  for (const b of md.brokers) out += `  broker ${b.nodeId} at ${b.host}:${b.port}${b.nodeId === md.controllerId ? ' (controller)' : ''}\n`;
  out += ` ${md.topics.length} topics:\n`;
  for (const t of md.topics) {
    out += `  topic "${t.name}" with ${t.partitions.length} partitions:${t.errorCode ? ` ${kafkaErrorName(t.errorCode)}` : ''}\n`;
    for (const p of t.partitions) {
      out += `    partition ${p.partitionIndex}, leader ${p.leaderId}, replicas: ${p.replicaNodes.join(',')}, isrs: ${p.isrNodes.join(',')}`
        + `${p.errorCode ? `, ${kafkaErrorName(p.errorCode)}` : ''}\n`;
    }
  }
  return out;
}
