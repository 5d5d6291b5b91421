// `kafka-wire group list | describe GROUP | reset-offsets GROUP --to ...`: consumer groups seen
// from outside, with Kafka's kafka-consumer-groups.sh as the model (a reset is a dry run that
// prints its plan unless --execute, and only runs while the group has no members). JSON out;
// offsets as decimal strings.

import { describeGroup, listGroups, resetOffsets, type ResetTarget } from '../admin/groups.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { clientFrom, NETWORK_OPTIONS } from './client-options.js';
import { stringOption, type ParsedArgs } from './options.js';
import { groupDescribeTable, groupListTable } from './group-tables.js';

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? String(v) : v), 2) + '\n';

/** --to: earliest, latest, an offset, or s@TIMESTAMP_MS / an ISO date-time for the first offset at or after it. */
export function resetTargetArg(text: string | undefined): ResetTarget {
  if (text === undefined) throw new UsageError('reset-offsets needs --to earliest|latest|OFFSET|s@TIMESTAMP_MS|DATE-TIME');
  if (text === 'earliest' || text === 'latest') return text;
  if (/^\d+$/.test(text)) return { offset: BigInt(text) };
  const at = /^s@(\d+)$/.exec(text);
  if (at) return { timestamp: BigInt(at[1]!) };
  const date = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(date)) return { timestamp: BigInt(date) };
  throw new UsageError(`--to must be earliest, latest, an offset, s@TIMESTAMP_MS or an ISO date-time, not ${JSON.stringify(text)}`);
}

export const group: Command = {
  name: 'group',
  summary: 'consumer groups: list them, describe one (members, assignments, offsets, lag), reset its offsets',
  synopsis: [
    'list -b HOST:PORT',
    'describe -b HOST:PORT GROUP',
    'reset-offsets -b HOST:PORT GROUP --to earliest|latest|OFFSET|s@TIMESTAMP_MS|DATE-TIME [--topic TOPIC]... [--execute]',
  ],
  options: [
    ...NETWORK_OPTIONS,
    { name: 'to', value: 'WHERE', help: 'reset-offsets: earliest, latest, an offset, or the first offset at or after a time' },
    { name: 'topic', short: 't', value: 'TOPIC', multiple: true, help: 'reset-offsets: only these topics (default: every topic the group has committed)' },
    { name: 'execute', help: 'reset-offsets: commit the new offsets (without it, print the plan only)' },
    { name: 'table', short: 'T', help: 'list, describe: the tables kafka-consumer-groups.sh prints instead of JSON' },
  ],
  notes: [
    'describe prints the group\'s state, protocol (classic or consumer, KIP-848), assignor, members with their assignments, and per partition the committed offset, the log end and the lag.',
    'reset-offsets refuses while the group has members, as Kafka does.',
  ],
  run: runGroup,
};

async function runGroup({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [action, groupId, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  if (action !== 'list' && action !== 'describe' && action !== 'reset-offsets') {
    throw new UsageError(`group needs list, describe GROUP or reset-offsets GROUP${action ? `, not ${JSON.stringify(action)}` : ''}`);
  }
  if (action === 'list' && groupId !== undefined) throw new UsageError('group list takes no group');
  if (action !== 'list' && groupId === undefined) throw new UsageError(`group ${action} needs a GROUP`);
  const target = action === 'reset-offsets' ? resetTargetArg(stringOption(values, 'to')) : undefined;
  const client = clientFrom(values);
  try {
    const asTable = values.table === true;
    if (action === 'list') { const groups = await listGroups(client); io.stdout.write(asTable ? groupListTable(groups) : json(groups)); }
    else if (action === 'describe') {
      const described = await describeGroup(client, groupId!);
      // The coordinator answers "Dead" for a group it has never heard of: as Kafka's tool, say so.
      if (described.state === 'Dead' && described.members.length === 0 && described.offsets.length === 0) {
        io.stderr.write(`kafka-wire group: Error: Consumer group '${groupId}' does not exist.\n`);
        return 1;
      }
      io.stdout.write(asTable ? groupDescribeTable(described) : json(described));
    }
    else {
      const execute = values.execute === true;
      const plan = await resetOffsets(client, groupId!, target!, { topics: values.topic as string[] | undefined, execute });
      io.stdout.write(json({ groupId, executed: execute, offsets: plan }));
      if (!execute) io.stderr.write('kafka-wire: a dry run: add --execute to commit these offsets\n');
    }
    return 0;
  } finally {
    await client.close();
  }
}
