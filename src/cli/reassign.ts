// `kafka-wire reassign plan|execute|verify|cancel|list`: kafka-reassign-partitions.sh over the
// admin client, with its --reassignment-json-file ({"version":1,"partitions":[{"topic","partition",
// "replicas"}]}): plan is its --generate (the current assignment of the topics in
// --topics-to-move-json-file and a proposed one on --broker-list, both as that file's JSON),
// execute starts the moves, verify says of each partition whether its move is complete (exit 1
// while any is not), cancel stops them, list shows the moves in progress.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, perResource, table, withAdmin } from './admin-common.js';
import { stringOption, type OptionValues, type ParsedArgs } from './options.js';

interface Move { topic: string; partition: number; replicas: number[]; logDirs?: string[] }

export const reassign: Command = {
  name: 'reassign',
  summary: 'move partitions between brokers, as kafka-reassign-partitions.sh does: plan (its --generate), execute, verify, cancel, list',
  synopsis: [
    'plan -b HOST:PORT --topics-to-move-json-file FILE --broker-list 1,2,3 [--disable-rack-aware]',
    'execute|verify|cancel -b HOST:PORT --reassignment-json-file FILE', 'list -b HOST:PORT',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'topics-to-move-json-file', value: 'FILE', help: 'plan: the topics, as Kafka\'s file: {"version":1,"topics":[{"topic":"t"}]}' },
    { name: 'broker-list', value: 'IDS', help: 'plan: the brokers to place the replicas on, as 1,2,3' },
    { name: 'disable-rack-aware', help: 'plan: ignore the brokers\' racks' },
    { name: 'reassignment-json-file', value: 'FILE', help: 'Kafka\'s file: {"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2]}]}' },
  ],
  run: runReassign,
};

function movesFrom(values: OptionValues): Move[] {
  const file = stringOption(values, 'reassignment-json-file');
  if (file === undefined) throw new UsageError('--reassignment-json-file FILE is required');
  let parsed: { partitions?: Move[] };
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--reassignment-json-file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed.partitions) || parsed.partitions.length === 0) throw new UsageError(`--reassignment-json-file ${file}: no "partitions" to move`);
  return parsed.partitions.map((p) => ({ topic: p.topic, partition: p.partition, replicas: p.replicas }));
}

async function runReassign({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [action, ...rest] = positionals;
  if (!['plan', 'execute', 'verify', 'cancel', 'list'].includes(action ?? '')) throw new UsageError('reassign needs plan, execute, verify, cancel or list');
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const json = values.json === true;
  if (action === 'plan') return plan(values, io, json);
  const moves = action === 'list' ? [] : movesFrom(values);
  return withAdmin(values, async (admin) => {
    if (action === 'list') {
      const list = await admin.listPartitionReassignments();
      if (json) for (const r of list) io.stdout.write(jsonLine(r));
      else io.stdout.write(table(['TOPIC', 'PARTITION', 'REPLICAS', 'ADDING', 'REMOVING'], list.map((r) => [r.topic, String(r.partition), r.replicas.join(','), r.addingReplicas.join(','), r.removingReplicas.join(',')])));
      return 0;
    }
    if (action === 'execute') {
      return perResource(io, admin.alterPartitionReassignments(moves), (p) => {
        io.stdout.write(json ? jsonLine({ ...p, started: true }) : `Started the reassignment of partition ${p.topic}-${p.partition}.\n`);
      });
    }
    if (action === 'cancel') {
      return perResource(io, admin.cancelPartitionReassignments(moves), (p) => {
        io.stdout.write(json ? jsonLine({ ...p, cancelled: true }) : `Cancelled the reassignment of partition ${p.topic}-${p.partition}.\n`);
      });
    }
    const ongoing = await admin.listPartitionReassignments(moves);
    const topics = await admin.describeTopics([...new Set(moves.map((m) => m.topic))]);
    if (!json) io.stdout.write('Status of partition reassignment:\n');
    let done = true;
    for (const m of moves) {
      const moving = ongoing.some((r) => r.topic === m.topic && r.partition === m.partition);
      const now = topics.find((t) => t.name === m.topic)?.partitions.find((p) => p.partition === m.partition)?.replicas ?? [];
      const state = moving ? 'in-progress' : now.join(',') === m.replicas.join(',') ? 'complete' : 'different';
      if (state !== 'complete') done = false;
      if (json) { io.stdout.write(jsonLine({ topic: m.topic, partition: m.partition, state, replicas: now, target: m.replicas })); continue; }
      const name = `${m.topic}-${m.partition}`;
      io.stdout.write(state === 'in-progress' ? `Reassignment of partition ${name} is still in progress.\n`
        : state === 'complete' ? `Reassignment of partition ${name} is completed.\n`
          : `There is no active reassignment of partition ${name}, but replica set is ${now.join(',')} rather than ${m.replicas.join(',')}.\n`);
    }
    return done ? 0 : 1;
  });
}

/** kafka-reassign-partitions.sh's JSON for a list of partitions' replicas (a log dir not known is "any"). */
function reassignmentJson(list: readonly Move[]): string {
  return JSON.stringify({ version: 1, partitions: list.map((m) => ({ topic: m.topic, partition: m.partition, replicas: m.replicas, log_dirs: m.logDirs ?? m.replicas.map(() => 'any') })) });
}

async function plan(values: OptionValues, io: Io, json: boolean): Promise<number> {
  const file = stringOption(values, 'topics-to-move-json-file');
  const list = stringOption(values, 'broker-list');
  if (file === undefined || list === undefined) throw new UsageError('reassign plan needs --topics-to-move-json-file FILE and --broker-list IDS');
  let parsed: { topics?: { topic?: unknown }[] };
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--topics-to-move-json-file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed.topics) || parsed.topics.length === 0) throw new UsageError(`--topics-to-move-json-file ${file}: no "topics" ({"version":1,"topics":[{"topic":"t"}]})`);
  const topics = parsed.topics.map((t) => {
    if (typeof t?.topic !== 'string') throw new UsageError(`--topics-to-move-json-file ${file}: each entry of "topics" is {"topic":"name"}`);
    return t.topic;
  });
  const dup = topics.find((t, i) => topics.indexOf(t) !== i);
  if (dup !== undefined) throw new UsageError(`--topics-to-move-json-file ${file}: the topic ${dup} is listed twice`);
  const brokers = list.split(',').map((b) => {
    if (!/^\d+$/.test(b.trim())) throw new UsageError(`--broker-list is broker ids separated by commas (1,2,3), not ${JSON.stringify(list)}`);
    return Number(b.trim());
  });
  if (new Set(brokers).size !== brokers.length) throw new UsageError(`--broker-list names a broker twice: ${list}`);
  return withAdmin(values, async (admin) => {
    const p = await admin.planReassignment(topics, brokers, values['disable-rack-aware'] === true ? { rackAware: false } : {});
    if (json) io.stdout.write(jsonLine({ current: JSON.parse(reassignmentJson(p.current)), proposed: JSON.parse(reassignmentJson(p.proposed)) }));
    else io.stdout.write(`Current partition replica assignment\n${reassignmentJson(p.current)}\n\nProposed partition reassignment configuration\n${reassignmentJson(p.proposed)}\n`);
    return 0;
  });
}
