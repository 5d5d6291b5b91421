// `kafka-wire topics create|delete|list|describe|alter`: Kafka's kafka-topics.sh over the admin
// client, with its option names (--topic, --partitions, --replication-factor, --replica-assignment,
// --config k=v, --if-not-exists, --if-exists, --exclude-internal) and its output: describe prints
// the lines kafka-topics.sh --describe prints; -J prints JSON lines instead.
import type { Admin, TopicDescription } from '../admin/index.js';
import { AdminError } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, keyValue, listOption, perResource, withAdmin } from './admin-common.js';
import { integerArg, stringOption, type OptionValues, type ParsedArgs } from './options.js';

const ACTIONS = ['create', 'delete', 'list', 'describe', 'alter'] as const;

export const topics: Command = {
  name: 'topics',
  summary: 'topics as kafka-topics.sh handles them: create, delete, list, describe, add partitions',
  synopsis: [
    'create -b HOST:PORT --topic TOPIC [--partitions N] [--replication-factor N | --replica-assignment 1:2,2:3] [--config K=V]... [--validate-only] [--if-not-exists]',
    'delete -b HOST:PORT --topic TOPIC... [--topic-id ID]... [--if-exists]',
    'list -b HOST:PORT [--exclude-internal]',
    'describe -b HOST:PORT [--topic TOPIC]... [--exclude-internal]',
    'alter -b HOST:PORT --topic TOPIC --partitions N [--replica-assignment ...]',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'topic', short: 't', value: 'TOPIC', multiple: true, help: 'the topic (delete, describe: repeatable)' },
    { name: 'topic-id', value: 'ID', multiple: true, help: 'delete: a topic by its id' },
    { name: 'partitions', value: 'N', help: 'create: the partition count (default: the broker\'s); alter: the new, higher count' },
    { name: 'replication-factor', value: 'N', help: 'create: replicas per partition (default: the broker\'s)' },
    { name: 'replica-assignment', value: 'LIST', help: 'the brokers of each partition, preferred leader first: 1:2,2:3 is partition 0 on 1 and 2, partition 1 on 2 and 3' },
    { name: 'config', value: 'K=V', multiple: true, help: 'create: a topic config (repeatable)' },
    { name: 'validate-only', help: 'create, alter: let the controller check the request without doing it' },
    { name: 'if-not-exists', help: 'create: a topic that exists already is no error' },
    { name: 'if-exists', help: 'delete: a topic that does not exist is no error' },
    { name: 'exclude-internal', help: 'list, describe: leave out Kafka\'s internal topics' },
  ],
  notes: ['A batch where some topics fail prints the others, then one line per failure on stderr with Kafka\'s error name, and exits 1.'],
  run: runTopics,
};

async function runTopics({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [action, ...rest] = positionals;
  if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) throw new UsageError(`topics needs ${ACTIONS.join(', ')}${action ? `, not ${JSON.stringify(action)}` : ''}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const json = values.json === true;
  return withAdmin(values, async (admin) => {
    switch (action) {
      case 'create': return create(admin, values, io, json);
      case 'delete': return remove(admin, values, io, json);
      case 'list': {
        for (const t of await admin.listTopics({ internal: values['exclude-internal'] !== true })) io.stdout.write(json ? jsonLine(t) : `${t.name}\n`);
        return 0;
      }
      case 'describe': return describeTopics(admin, values, io, json);
      default: return alter(admin, values, io, json);
    }
  });
}

function names(values: OptionValues): string[] {
  return listOption(values, 'topic', false);
}

function oneTopic(values: OptionValues, action: string): string {
  const list = names(values);
  if (list.length !== 1) throw new UsageError(`topics ${action} needs one --topic`);
  return list[0]!;
}

/** --replica-assignment 1:2,2:3: partition 0 on brokers 1 and 2, partition 1 on 2 and 3. */
function assignmentArg(values: OptionValues): number[][] | undefined {
  const text = stringOption(values, 'replica-assignment');
  if (text === undefined) return undefined;
  return text.split(',').map((p) => p.split(':').map((id) => integerArg(id.trim(), '--replica-assignment broker id', 0)!));
}

/** Failures Kafka's tool skips with --if-not-exists / --if-exists: dropped from a partial failure. */
async function ignoring<T>(call: Promise<T[]>, errorName: string | null): Promise<T[]> {
  try {
    return await call;
  } catch (error) {
    if (errorName === null || !(error instanceof AdminError) || error.code !== 'RESOURCES') throw error;
    const left = error.failures.filter((f) => f.errorName !== errorName);
    if (left.length === error.failures.length) throw error;
    if (left.length === 0) return error.succeeded as T[];
    throw new AdminError('RESOURCES', left.map((f) => f.message).join('; '), { failures: left, succeeded: error.succeeded });
  }
}

async function create(admin: Admin, values: OptionValues, io: Io, json: boolean): Promise<number> {
  const name = oneTopic(values, 'create');
  const assignments = assignmentArg(values);
  const partitions = integerArg(stringOption(values, 'partitions'), '--partitions');
  const replicationFactor = integerArg(stringOption(values, 'replication-factor'), '--replication-factor');
  if (assignments && (partitions !== undefined || replicationFactor !== undefined)) throw new UsageError('give --replica-assignment, or --partitions and --replication-factor, not both');
  const configs = Object.fromEntries(listOption(values, 'config', false).map((c) => keyValue(c, '--config')));
  const validateOnly = values['validate-only'] === true;
  const call = admin.createTopics([{ name, partitions, replicationFactor, assignments, configs }], { validateOnly });
  return perResource(io, ignoring(call, values['if-not-exists'] ? 'TOPIC_ALREADY_EXISTS' : null), (t) => {
    io.stdout.write(json ? jsonLine({ ...t, validateOnly }) : validateOnly ? `Topic ${t.name} could be created (validate only).\n` : `Created topic ${t.name}.\n`);
  });
}

async function remove(admin: Admin, values: OptionValues, io: Io, json: boolean): Promise<number> {
  const refs = [...names(values), ...listOption(values, 'topic-id', false).map((topicId) => ({ topicId }))];
  if (refs.length === 0) throw new UsageError('topics delete needs --topic or --topic-id');
  const call = admin.deleteTopics(refs);
  return perResource(io, ignoring(call, values['if-exists'] ? 'UNKNOWN_TOPIC_OR_PARTITION' : null), (t) => {
    io.stdout.write(json ? jsonLine(t) : `Deleted topic ${t.name ?? t.topicId}.\n`);
  });
}

async function alter(admin: Admin, values: OptionValues, io: Io, json: boolean): Promise<number> {
  const topic = oneTopic(values, 'alter');
  const count = integerArg(stringOption(values, 'partitions'), '--partitions');
  if (count === undefined) throw new UsageError('topics alter needs --partitions N (Kafka adds partitions; it never removes them)');
  const assignments = assignmentArg(values);
  return perResource(io, admin.createPartitions([{ topic, count, assignments }], { validateOnly: values['validate-only'] === true }), (t) => {
    io.stdout.write(json ? jsonLine(t) : `Topic ${t.topic} has ${t.count} partitions now.\n`);
  });
}

async function describeTopics(admin: Admin, values: OptionValues, io: Io, json: boolean): Promise<number> {
  let wanted = names(values);
  if (wanted.length === 0) wanted = (await admin.listTopics({ internal: values['exclude-internal'] !== true })).map((t) => t.name);
  if (wanted.length === 0) return 0;
  let failed = 0;
  const described = await admin.describeTopics(wanted).catch((error: unknown) => {
    if (!(error instanceof AdminError) || error.code !== 'RESOURCES') throw error;
    for (const f of error.failures) io.stderr.write(`kafka-wire: ${f.message}\n`);
    failed = error.failures.length;
    return error.succeeded as TopicDescription[];
  });
  // Each topic's configs that are not Kafka's defaults, in the broker's order, as kafka-topics.sh shows them.
  const configs = described.length === 0 ? [] : await admin.describeConfigs(described.map((t) => ({ type: 'topic' as const, name: t.name })), { synonyms: false });
  described.forEach((t, i) => {
    const own = configs[i]!.entries.filter((e) => !e.isDefault);
    if (json) io.stdout.write(jsonLine({ ...t, configs: Object.fromEntries(own.map((e) => [e.name, e.value])) }));
    else io.stdout.write(describeText(t, own.map((e) => `${e.name}=${e.value}`)));
  });
  return failed > 0 ? 1 : 0;
}

/** kafka-topics.sh --describe's lines for one topic. */
export function describeText(t: TopicDescription, configs: readonly string[]): string {
  const ids = (list: readonly number[]) => list.join(',');
  let out = `Topic: ${t.name}\tTopicId: ${t.topicId}\tPartitionCount: ${t.partitions.length}\tReplicationFactor: ${t.partitions[0]?.replicas.length ?? 0}\tConfigs: ${configs.join(',')}\n`;
  for (const p of t.partitions) {
    out += `\tTopic: ${t.name}\tPartition: ${p.partition}\tLeader: ${p.leader < 0 ? 'none' : p.leader}\tReplicas: ${ids(p.replicas)}\tIsr: ${ids(p.isr)}`
      + `\tElr: ${ids(p.eligibleLeaderReplicas)}\tLastKnownElr: ${ids(p.lastKnownElr)}\n`;
  }
  return out;
}
