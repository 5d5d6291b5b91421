// `kafka-wire transactions list|describe|describe-producers`: kafka-transactions.sh's views over
// the admin client: every transactional id and its state, one transaction in full, and the
// producers writing to a partition now.
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, perResource, table, withAdmin } from './admin-common.js';
import { integerArg, stringOption, type ParsedArgs } from './options.js';

export const transactions: Command = {
  name: 'transactions',
  summary: 'transactions as kafka-transactions.sh shows them: list, describe one, the producers of a partition',
  synopsis: ['list -b HOST:PORT', 'describe -b HOST:PORT --transactional-id ID', 'describe-producers -b HOST:PORT --topic TOPIC --partition N'],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'transactional-id', value: 'ID', help: 'describe: the transaction' },
    { name: 'topic', short: 't', value: 'TOPIC', help: 'describe-producers: the topic' },
    { name: 'partition', short: 'p', value: 'N', help: 'describe-producers: the partition' },
  ],
  run: async ({ options: values, positionals }: ParsedArgs, io: Io) => {
    const [action, ...rest] = positionals;
    if (action !== 'list' && action !== 'describe' && action !== 'describe-producers') throw new UsageError('transactions needs list, describe or describe-producers');
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const json = values.json === true;
    return withAdmin(values, async (admin) => {
      if (action === 'list') {
        const list = await admin.listTransactions();
        if (json) for (const t of list) io.stdout.write(jsonLine(t));
        else io.stdout.write(table(['TransactionalId', 'ProducerId', 'TransactionState'], list.map((t) => [t.transactionalId, String(t.producerId), t.state])));
        return 0;
      }
      if (action === 'describe') {
        const id = stringOption(values, 'transactional-id');
        if (id === undefined) throw new UsageError('transactions describe needs --transactional-id');
        return perResource(io, admin.describeTransactions([id]), (t) => {
          io.stdout.write(json ? jsonLine(t) : table(['CoordinatorId', 'TransactionalId', 'ProducerId', 'ProducerEpoch', 'TransactionState', 'TransactionTimeoutMs', 'CurrentTransactionStartTimeMs', 'TopicPartitions'],
            [[String(t.coordinator), t.transactionalId, String(t.producerId), String(t.producerEpoch), t.state, String(t.timeoutMs), String(t.startTimeMs),
              t.partitions.flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`)).join(',')]]));
        });
      }
      const topic = stringOption(values, 'topic');
      const partition = integerArg(stringOption(values, 'partition'), '--partition', 0);
      if (topic === undefined || partition === undefined) throw new UsageError('transactions describe-producers needs --topic and --partition');
      return perResource(io, admin.describeProducers([{ topic, partition }]), (r) => {
        if (json) { io.stdout.write(jsonLine(r)); return; }
        io.stdout.write(table(['ProducerId', 'ProducerEpoch', 'LatestCoordinatorEpoch', 'LastSequence', 'LastTimestamp', 'CurrentTransactionStartOffset'],
          r.producers.map((p) => [String(p.producerId), String(p.producerEpoch), String(p.coordinatorEpoch), String(p.lastSequence), String(p.lastTimestamp), String(p.currentTxnStartOffset)])));
      });
    });
  },
};
